// Convex shapes through the JS API: cylinder, ellipsoid and hull descriptions, validation
// messages naming the field, hull statistics, and resting contact forces equal to m·g.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { BUILDS, engine, near } from './helpers.mjs';

const G = 9.81;

/** Points of a prism approximating a cylinder (n around, radius r, half height h), flat x, y, z. */
function prism(n, r, h) {
  const p = [];
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n;
    p.push(r * Math.cos(a), -h, r * Math.sin(a), r * Math.cos(a), h, r * Math.sin(a));
  }
  return p;
}

/** Sum of normal impulses / timestep over the contacts (N). */
function normalForce(w) {
  const c = w.contacts;
  let s = 0;
  for (let i = 0; i < c.count; i++) s += c.normalImpulse[i];
  return s / w.timestep;
}

for (const build of BUILDS) {
  describe(`convex shapes (${build} build)`, () => {
    let tribo;
    before(async () => { tribo = await engine(build); });

    it('a cylinder resting on a plane reports m·g ±1% in total normal force', () => {
      const w = tribo.createWorld();
      w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      const b = w.addBody({ position: [0, 0.41, 0], shapes: [{ type: 'cylinder', radius: 0.3, halfHeight: 0.4 }] });
      const m = w.getMass(b).mass;
      near(assert, m, 1000 * Math.PI * 0.09 * 0.8, 1e-2, 'cylinder mass ρπr²·2h (kg)');
      for (let s = 0; s < 120; s++) w.step();
      assert.ok(w.contacts.count >= 3, `a flat cap rests on >= 3 points (got ${w.contacts.count})`);
      near(assert, normalForce(w), m * G, 0.01 * m * G, 'total normal force (N)');
      near(assert, w.getState(b)[1], 0.4, 0.01, 'resting height (m)');
      w.free();
    });

    it('a hull resting on a plane reports m·g ±1% in total normal force; its mass is the polyhedron\'s', () => {
      const w = tribo.createWorld();
      w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      const pts = new Float32Array(prism(40, 0.3, 0.25));
      const b = w.addBody({ position: [0, 0.26, 0], shapes: [{ type: 'hull', points: pts }] });
      // a regular 40-gon prism: area ½ n r² sin(2π/n), volume area·2h
      const vol = 0.5 * 40 * 0.09 * Math.sin((2 * Math.PI) / 40) * 0.5;
      const m = w.getMass(b).mass;
      near(assert, m, 1000 * vol, 1e-3 * 1000 * vol, 'hull mass ρV (kg)');
      const info = w.hullInfo(b);
      assert.equal(info.vertexCount, 80);
      assert.equal(info.faceCount, 42); // 40 sides + 2 caps merged from triangles
      assert.equal(info.vertexCount - info.edgeCount + info.faceCount, 2);
      assert.ok(info.supportFieldResolution === 180 && info.supportFieldBytes >= 180 * 180 * 4,
        `>= 64 vertices: a 180² support field (got ${info.supportFieldResolution}, ${info.supportFieldBytes} B)`);
      for (let s = 0; s < 120; s++) w.step();
      assert.ok(w.contacts.count >= 3);
      near(assert, normalForce(w), m * G, 0.01 * m * G, 'total normal force (N)');
      near(assert, w.getState(b)[1], 0.25, 0.01, 'resting height (m)');
      w.free();
    });

    it('an ellipsoid falls onto a plane and rests on its lowest point', () => {
      const w = tribo.createWorld();
      w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      const b = w.addBody({ position: [0, 0.5, 0], shapes: [{ type: 'ellipsoid', radii: [0.4, 0.2, 0.3] }] });
      const m = w.getMass(b).mass;
      near(assert, m, 1000 * (4 / 3) * Math.PI * 0.4 * 0.2 * 0.3, 1e-2, 'ellipsoid mass (kg)');
      for (let s = 0; s < 180; s++) w.step();
      near(assert, w.getState(b)[1], 0.2, 0.01, 'resting height = semi-axis y (m)');
      near(assert, normalForce(w), m * G, 0.01 * m * G, 'total normal force (N)');
      w.free();
    });

    it('hull options and statistics: exact scan on request, field size as asked', () => {
      const w = tribo.createWorld();
      const cube = [-1, -1, -1, 1, -1, -1, -1, 1, -1, 1, 1, -1, -1, 1, 1, 1, 1, 1, -1, -1, 1, 1, -1, 1, 0, 0, 0, 0.5, 0.2, 0.1];
      const b = w.addBody({
        shapes: [{ type: 'hull', points: cube }, { type: 'hull', points: cube, supportField: { resolution: 32 } }],
      });
      const a = w.hullInfo(b, 0), c = w.hullInfo(b, 1);
      assert.deepEqual([a.vertexCount, a.edgeCount, a.faceCount, a.supportFieldResolution, a.supportFieldBytes], [8, 12, 6, 0, 0]);
      assert.equal(c.supportFieldResolution, 32);
      assert.equal(c.supportFieldBytes >= 32 * 32 * 4, true);
      near(assert, a.radius, Math.sqrt(3), 1e-6, 'cube hull radius (m)');
      near(assert, w.getMass(b).mass, 2 * 8 * 1000, 1e-2, 'two unit cubes of side 2 (kg)');
      assert.throws(() => w.hullInfo(b, 2), RangeError, /hullInfo: body \d+ has no hull shape number 2 \(it has 2\)/);
      w.free();
    });

    it('rejects bad convex shapes with errors naming the field, and adds nothing', () => {
      const w = tribo.createWorld();
      const cases = [
        [{ type: 'cylinder', radius: 0.5, halfHeight: -1 }, RangeError, /shapes\[0\]: halfHeight must be finite and in \[1e-6, 1e6\] \(got -1\)/],
        [{ type: 'cylinder', radius: 0 , halfHeight: 1 }, RangeError, /shapes\[0\]: radius must be finite and in \[1e-6, 1e6\] \(got 0\)/],
        [{ type: 'cylinder', radius: 0.5 }, TypeError, /shapes\[0\]\.halfHeight is required for a cylinder/],
        [{ type: 'ellipsoid', radii: [1, 0, 1] }, RangeError, /radii\[1\] must be finite and in \[1e-6, 1e6\] \(got 0\)/],
        [{ type: 'ellipsoid', radii: [1, 1] }, TypeError, /radii must be an array of 3 numbers/],
        [{ type: 'hull' }, TypeError, /shapes\[0\]\.points is required for a hull/],
        [{ type: 'hull', points: [0, 0, 0, 1, 0] }, RangeError, /points length must be a multiple of 3 \(x, y, z per point\) \(got 5\)/],
        [{ type: 'hull', points: [0, 0, 0, 1, 0, 0, 0, 1, 0] }, RangeError, /point_count must be >= 4 \(got 3\)/],
        [{ type: 'hull', points: [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0] }, RangeError, /points must not be coplanar/],
        [{ type: 'hull', points: [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3] }, RangeError, /points must not be collinear/],
        [{ type: 'hull', points: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, NaN] }, RangeError, /points\[11\] must be a finite coordinate within ±1000000 m \(got NaN\)/],
        [{ type: 'hull', points: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, '1'] }, TypeError, /points\[11\] must be a number/],
        [{ type: 'hull', points: prism(4, 1, 1), supportField: { resolution: 3 } }, RangeError, /supportField\.resolution must be -1 \(default\), 0 \(none\) or in \[8, 1024\] \(got 3\)/],
        [{ type: 'hull', points: prism(4, 1, 1), supportField: { res: 3 } }, RangeError, /unknown option res/],
      ];
      for (const [shape, type, re] of cases) {
        assert.throws(() => w.addBody({ shapes: [shape] }), (e) => e instanceof type && re.test(e.message), `${JSON.stringify(shape)} → ${re}`);
      }
      // a hull of 20 001 points is accepted (limit 100 000); the world still works
      const many = [];
      for (let i = 0; i < 20001; i++) {
        const z = 1 - (2 * (i + 0.5)) / 20001, a = i * 2.399963229728653, r = Math.sqrt(1 - z * z); // Fibonacci sphere
        many.push(r * Math.cos(a), r * Math.sin(a), z);
      }
      const big = w.addBody({ shapes: [{ type: 'hull', points: many }] });
      const info = w.hullInfo(big);
      assert.equal(info.vertexCount - info.edgeCount + info.faceCount, 2);
      assert.ok(info.vertexCount > 19000, `most points of a sphere are hull vertices (got ${info.vertexCount})`);
      w.step();
      w.free();
    });

    it('a worker world takes hull points (Float32Array) and reports the hull and m·g', async () => {
      const sim = await tribo.createWorkerWorld();
      await sim.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      const id = await sim.addBody({ position: [0, 0.25, 0], shapes: [{ type: 'hull', points: new Float32Array(prism(6, 0.3, 0.25)) }] });
      const info = await sim.hullInfo(id);
      assert.deepEqual([info.vertexCount, info.edgeCount, info.faceCount], [12, 18, 8]);
      const m = (await sim.getMass(id)).mass;
      const frame = await sim.step(90);
      let fy = 0;
      for (let i = 0; i < frame.contacts.count; i++) fy += frame.contacts.force[3 * i + 1];
      near(assert, fy, m * G, 0.01 * m * G, 'sum of contact forces y (N)');
      await assert.rejects(sim.addBody({ shapes: [{ type: 'hull', points: [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0] }] }),
        (e) => e instanceof RangeError && /points must not be coplanar/.test(e.message));
      await sim.free();
    });
  });
}
