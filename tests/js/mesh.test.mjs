// Heightfield and mesh shapes through the JS API (both WebAssembly builds and the worker World):
// closed-form contacts, resting force, validation messages.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { BUILDS, engine, sphereDensity, near } from './helpers.mjs';

const G = 9.81;

/** rows × cols heights from f(x, z) on the centred grid layout of a heightfield. */
function gridHeights(rows, cols, cx, cz, f) {
  const h = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) h[r * cols + c] = f((c - (cols - 1) / 2) * cx, (r - (rows - 1) / 2) * cz);
  }
  return h;
}

/** A 10 m square floor of two triangles at y = 0, front side +y. */
const FLOOR = { type: 'mesh', vertices: [-5, 0, -5, 5, 0, -5, 5, 0, 5, -5, 0, 5], indices: [0, 2, 1, 0, 3, 2] };

for (const build of BUILDS) {
  describe(`heightfield and mesh (${build} build)`, () => {
    let tribo;
    before(async () => { tribo = await engine(build); });

    it('a resting box on a mesh floor: 4 contacts whose normal forces sum to m·g ± 1%', () => {
      const w = tribo.createWorld({ timestep: 1 / 60 });
      w.addBody({ type: 'static', shapes: [FLOOR] });
      const box = w.addBody({ position: [0.3, 0.25, -0.2], shapes: [{ type: 'box', halfExtents: [0.4, 0.25, 0.3], density: 500 }] });
      w.step(120);
      const c = w.contacts;
      assert.equal(c.count, 4, 'four contact points');
      const mg = w.getMass(box).mass * G;
      let impulse = 0, fy = 0;
      for (let i = 0; i < c.count; i++) {
        impulse += c.normalImpulse[i];
        fy += c.force[3 * i + 1];
        near(assert, c.normal[3 * i + 1], -1, 1e-5, 'normal y (from the box, shape0, to the floor)');
      }
      near(assert, impulse / w.timestep, mg, 0.01 * mg, 'sum of normal impulses / h (N)');
      near(assert, -fy, mg, 0.01 * mg, 'force on the floor (body1) is −m·g along y (N)');
      near(assert, w.getPosition(box)[1], 0.25, 0.01, 'box centre height (m)');
      w.free();
    });

    it('a sphere on a flat heightfield: separation, normal and point at cell interiors, edges and vertices', () => {
      const w = tribo.createWorld();
      const rows = 5, cols = 6, cx = 1, cz = 0.5, y0 = 0.3;
      w.addBody({ type: 'static', position: [1, -2, 0.25], shapes: [{ type: 'heightfield', rows, cols, cellSize: [cx, cz], heights: gridHeights(rows, cols, cx, cz, () => y0) }] });
      const r = 0.5, gap = -0.02;
      const ball = w.addBody({ position: [0, 0, 0], shapes: [{ type: 'sphere', radius: r }] });
      for (const [x, z] of [[0.3, 0.1], [0.5, 0.1], [0.3, 0.25], [0.25, 0.125], [0.5, 0.25], [0, 0]]) {
        const p = [1 + x, -2 + y0 + r + gap, 0.25 + z];
        w.setPose(ball, p);
        w.collide();
        const c = w.contacts;
        assert.equal(c.count, 1, `one point at (${x}, ${z})`);
        near(assert, c.separation[0], gap, 1e-5, 'separation (m)');
        near(assert, c.normal[1], -1, 1e-5, 'normal y');
        // the reported point is the midpoint of the two surface points
        near(assert, c.point[1], -2 + y0 + gap / 2, 1e-5, 'point y (m)');
        near(assert, c.point[0], p[0], 1e-5, 'point x (m)');
        near(assert, c.point[2], p[2], 1e-5, 'point z (m)');
      }
      w.free();
    });

    it('a sphere on a tilted heightfield gets the slope normal', () => {
      const w = tribo.createWorld();
      const k = 0.4, rows = 6, cols = 7, cx = 0.5, cz = 0.4;
      w.addBody({ type: 'static', shapes: [{ type: 'heightfield', rows, cols, cellSize: [cx, cz], heights: gridHeights(rows, cols, cx, cz, (x) => k * x) }] });
      const len = Math.hypot(k, 1), n = [-k / len, 1 / len, 0];
      const r = 0.3, pen = 0.015;
      const ball = w.addBody({ shapes: [{ type: 'sphere', radius: r }] });
      for (const [x, z] of [[0.1, 0.05], [0.25, 0.2], [0, 0], [-0.5, 0.2]]) {
        const s = [x, k * x, z];
        w.setPose(ball, s.map((v, i) => v + n[i] * (r - pen)));
        w.collide();
        const c = w.contacts;
        assert.equal(c.count, 1);
        for (let i = 0; i < 3; i++) near(assert, c.normal[i], -n[i], 1e-5, `normal[${i}]`);
        near(assert, c.separation[0], -pen, 1e-5, 'separation (m)');
      }
      w.free();
    });

    it('bad heightfield and mesh inputs are rejected with messages; nothing is added', () => {
      const w = tribo.createWorld();
      const hf = { type: 'heightfield', rows: 3, cols: 3, cellSize: [1, 1], heights: new Float32Array(9) };
      const cases = [
        [{ ...hf, heights: [0, 0, 0, 0, NaN, 0, 0, 0, 0] }, /shapes\[0\]\.heights\[4\] must be finite \(got NaN\)/],
        [{ ...hf, rows: 1, heights: [0, 0, 0] }, /heightfield rows must be in \[2, 4096\] \(got 1\)/],
        [{ ...hf, rows: 2.5 }, /rows must be an integer \(got 2.5\)/],
        [{ ...hf, heights: [1, 2, 3] }, /heights must hold rows × cols = 9 values \(got 3\)/],
        [{ ...hf, cellSize: [0, 1] }, /cellSize\[0\] must be finite and > 0 \(got 0\)/],
        [{ ...hf, cellSize: [1] }, /cellSize must be an array of 2 numbers/],
        [{ ...hf, density: 3 }, /density does not apply to a heightfield/],
        [{ type: 'heightfield', rows: 3, cols: 3, cellSize: [1, 1] }, /heights is required for a heightfield/],
        [{ ...FLOOR, indices: [0, 2, 7] }, /mesh indices\[2\] must be in \[0, 4\) \(got 7\)/],
        [{ ...FLOOR, indices: [0, 1, 2, 0, 1] }, /indices length must be a multiple of 3 \(got 5\)/],
        [{ ...FLOOR, indices: [0, 1.5, 2] }, /indices\[1\] must be an integer in \[0, 2\^31\) \(got 1.5\)/],
        [{ ...FLOOR, vertices: [0, 0, 0, 1, 0, 0, 2, 0, 0], indices: [0, 1, 2] }, /mesh triangle 0 \(indices 0, 1, 2\) is degenerate/],
        [{ ...FLOOR, vertices: [0, 0, 0, 1, 0, Infinity, 0, 0, 1] , indices: [0, 2, 1] }, /vertices\[5\] must be finite/],
        [{ ...FLOOR, vertices: 'abc' }, /vertices must be an array of numbers/],
      ];
      for (const [shape, re] of cases) {
        assert.throws(() => w.addBody({ type: 'static', shapes: [shape] }), re);
      }
      assert.throws(() => w.addBody({ type: 'dynamic', shapes: [FLOOR] }), /a mesh may only belong to a static body/);
      assert.equal(w.contacts.count, 0);
      // still usable: a valid floor and a sphere make one contact
      w.addBody({ type: 'static', shapes: [hf] });
      w.addBody({ position: [0, 0.24, 0], shapes: [{ type: 'sphere', radius: 0.25 }] });
      w.collide();
      assert.equal(w.contacts.count, 1);
      w.free();
    });

    it('the worker World accepts heightfields (typed arrays cross the worker boundary)', async () => {
      const sim = await tribo.createWorkerWorld({ timestep: 1 / 60 });
      const rows = 9, cols = 9;
      await sim.addBody({ type: 'static', shapes: [{ type: 'heightfield', rows, cols, cellSize: [0.5, 0.5], heights: gridHeights(rows, cols, 0.5, 0.5, () => 0) }] });
      const r = 0.25;
      await sim.addBody({ position: [0.1, r, 0.2], shapes: [{ type: 'sphere', radius: r, density: sphereDensity(2, r) }] });
      const frame = await sim.step(60);
      assert.equal(frame.contacts.count, 1);
      near(assert, -frame.contacts.force[1], 2 * G, 0.01 * 2 * G, 'force on the heightfield (N)');
      await sim.free();
    });
  });
}

describe('picking on terrain', () => {
  it('rayCast hits a heightfield and a mesh at the closed-form point (picking in the demos)', async () => {
    const { engine } = await import('./helpers.mjs');
    const tribo = await engine('simd');
    const w = tribo.createWorld();
    // 3×3 samples, 1 m cells, heights y = 0.5·x: the plane y = 0.5 x
    const heights = [];
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) heights.push(0.5 * (c - 1));
    w.addBody({ type: 'static', shapes: [{ type: 'heightfield', rows: 3, cols: 3, heights, cellSize: [1, 1] }] });
    const hit = w.rayCast([0.3, 5, 0.2], [0, -1, 0]);
    assert.ok(hit, 'hit');
    assert.ok(Math.abs(hit.point[1] - 0.15) < 1e-5, `y = 0.5·0.3 (got ${hit.point[1]})`);
    const n = [-0.5 / Math.hypot(0.5, 1), 1 / Math.hypot(0.5, 1), 0];
    for (let k = 0; k < 3; k++) assert.ok(Math.abs(hit.normal[k] - n[k]) < 1e-5, `normal[${k}]`);
    assert.ok(Math.abs(hit.distance - 4.85) < 1e-5);
    assert.equal(w.rayCast([0.3, -5, 0.2], [0, 1, 0]), null, 'the underside is not hit');
    w.free();
  });
});
