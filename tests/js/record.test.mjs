// Distance rules, the extended contact record, matching across frames and capacities, asserted
// on both WebAssembly builds with numbers from each rule's formula.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { BUILDS, engine, near } from './helpers.mjs';

/** A world with a ground plane and a sphere of radius 0.5 whose surface is s above the plane. */
function sphereAbove(tribo, s, rule, plane, sphere, extra = {}) {
  const w = tribo.createWorld({ distanceRule: rule, speculativeDistance: 0, ...extra });
  w.addBody({ type: 'static', shapes: [{ type: 'plane', ...plane }] });
  const id = w.addBody({ position: [0, 0.5 + s, 0], shapes: [{ type: 'sphere', radius: 0.5, ...sphere }] });
  return { w, id };
}

for (const build of BUILDS) {
  describe(`distance rules and the contact record (${build} build)`, () => {
    let tribo;
    before(async () => { tribo = await engine(build); });

    it('newton: margins 0.01 + 0.02, gaps 0.03 + 0: kept when d = s − 0.03 <= 0.03, response when d < 0', () => {
      for (const s of [0.05, 0.07, 0.02, 0.055, 0.065]) {
        const d = s - 0.03;
        const { w } = sphereAbove(tribo, s, 'newton', { margin: 0.01, gap: 0.03 }, { margin: 0.02, gap: 0 });
        w.collide();
        const c = w.contacts;
        assert.equal(c.count, d <= 0.03 ? 1 : 0, `s = ${s}: kept iff d = ${d} <= 0.03`);
        if (c.count) {
          near(assert, c.distance[0], d, 2e-6, `s = ${s}: d`);
          near(assert, c.separation[0], s, 2e-6, `s = ${s}: separation`);
          assert.equal(c.active[0], d < 0 ? 1 : 0, `s = ${s}: active iff d < 0`);
          assert.equal(c.excluded[0], 0);
          near(assert, c.margin[0], 0.03, 1e-7, 'summed margin');
          near(assert, c.gap[0], 0.03, 1e-7, 'summed gap');
          assert.equal(c.distanceRule[0], 0);
        }
        w.free();
      }
    });

    it('mujoco: m = 0.03, g = 0.03: detected when dist < 0.06, active when dist < 0.03, gap-only excluded', () => {
      for (const s of [0.01, 0.04, 0.07, -0.01, 0.055]) {
        const { w } = sphereAbove(tribo, s, 'mujoco', { margin: 0.01, gap: 0.02 }, { margin: 0.02, gap: 0.01 });
        w.collide();
        const c = w.contacts;
        const kept = s < 0.06, active = s < 0.03;
        assert.equal(c.count, kept ? 1 : 0, `s = ${s}: detected iff < m + g`);
        if (c.count) {
          assert.equal(c.active[0], active ? 1 : 0, `s = ${s}: active`);
          assert.equal(c.excluded[0], kept && !active ? 1 : 0, `s = ${s}: excluded`);
          near(assert, c.distance[0], s - 0.03, 2e-6, `s = ${s}: dist − m`);
          // contact position: midpoint between the two surfaces (plane y = 0, sphere bottom y = s)
          near(assert, c.point[1], s / 2, 2e-6, `s = ${s}: midpoint y`);
          near(assert, c.point0[1], 0, 2e-6, 'point on the plane');
          near(assert, c.point1[1], s, 2e-6, 'point on the sphere');
          // frame row 0 is the normal; the frame is orthonormal
          const n = c.normal.subarray(0, 3), t0 = c.tangent0.subarray(0, 3), t1 = c.tangent1.subarray(0, 3);
          const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
          near(assert, n[1], 1, 1e-6, 'normal +y');
          near(assert, dot(n, t0), 0, 1e-6, 'n·t0');
          near(assert, dot(n, t1), 0, 1e-6, 'n·t1');
          near(assert, dot(t0, t1), 0, 1e-6, 't0·t1');
          near(assert, dot(t0, t0), 1, 1e-6, '|t0|');
        }
        w.free();
      }
    });

    it('physx: contact offsets 0.02 + 0.03 generate up to 0.05, g = s − (0.01 + 0.02), normal reported 1 → 0', () => {
      for (const s of [0.04, 0.06, 0.01]) {
        const { w } = sphereAbove(tribo, s, 'physx', { contactOffset: 0.02, restOffset: 0.01 }, { contactOffset: 0.03, restOffset: 0.02 });
        w.collide();
        const c = w.contacts;
        assert.equal(c.count, s <= 0.05 ? 1 : 0, `s = ${s}: generated iff <= 0.05`);
        if (c.count) {
          near(assert, c.distance[0], s - 0.03, 2e-6, `s = ${s}: g = s − r`);
          assert.equal(c.active[0], 1);
          near(assert, c.normal[1], 1, 1e-6, 'stored normal: shape0 (plane) → shape1');
          near(assert, c.reportedNormal[1], -1, 1e-6, 'reported normal: shape1 → shape0');
        }
        w.free();
      }
    });

    it('physx-tgs: a sphere with restOffset 0.02 comes to rest 0.02 above the plane ± 1e-3', () => {
      const w = tribo.createWorld({ preset: 'physx-tgs' });
      w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      const r = 0.25;
      const ball = w.addBody({ position: [0, 0.6, 0], shapes: [{ type: 'sphere', radius: r, contactOffset: 0.04, restOffset: 0.02 }] });
      w.step(240);
      near(assert, w.getPosition(ball)[1], r + 0.02, 1e-3, 'rest height (m)');
      near(assert, w.contacts.distance[0], 0, 1e-3, 'g = s − r at rest');
      near(assert, w.contacts.separation[0], 0.02, 1e-3, 'separation at rest');
      w.free();
    });

    it('setOptions switches the distance rule between frames; bad values name the field', () => {
      const { w } = sphereAbove(tribo, 0.04, 'physx', { margin: 0.01, gap: 0.0, contactOffset: 0.05 }, { margin: 0.01 });
      w.collide();
      assert.equal(w.contacts.count, 1, 'physx: 0.04 <= 0.05');
      w.setOptions({ distanceRule: 'newton' });
      w.collide();
      assert.equal(w.contacts.count, 0, 'newton: d = 0.02 > gap 0');
      assert.throws(() => w.setOptions({ distanceRule: 'bullet' }), /setOptions: distanceRule must be one of "newton", "mujoco", "physx" \(got "bullet"\)/);
      assert.throws(() => w.setOptions({ matching: 'sticky', matchDistance: -1 }), /setOptions: matchDistance must be finite and >= 0 \(got -1\)/);
      assert.throws(() => tribo.createWorld({ matching: 'glue' }), /createWorld: matching must be one of "latest", "sticky"/);
      assert.throws(() => w.addBody({ shapes: [{ type: 'sphere', radius: 1, gap: -1 }] }),
        /addBody: shapes\[0\]: gap must be finite and >= 0 \(got -1\)/);
      assert.throws(() => w.addBody({ shapes: [{ type: 'sphere', radius: 1, restOffset: 0.1 }] }),
        /restOffset must be finite and <= contactOffset 0 \(got 0.1\)/);
      assert.equal(w.bodies.bodyType.filter((t) => t >= 0).length, 2, 'failed addBody left nothing behind');
      w.collide();
      assert.equal(w.contacts.count, 0, 'still the newton rule');
      w.free();
    });

    it('body-local points map to the world points through each body pose', () => {
      const w = tribo.createWorld();
      const q = [0, Math.sin(Math.PI / 8), 0, Math.cos(Math.PI / 8)];
      w.addBody({ type: 'static', position: [1, -0.2, 2], rotation: q, shapes: [{ type: 'plane' }] });
      const b = w.addBody({ position: [0.3, 0.2, -0.1], rotation: [0.1, 0.2, 0.05, Math.sqrt(1 - 0.0525)], shapes: [{ type: 'box', halfExtents: [0.5, 0.5, 0.5] }] });
      w.collide();
      const c = w.contacts;
      assert.ok(c.count >= 1);
      const rot = (qq, v) => { // v rotated by the unit quaternion qq
        const [x, y, z, s] = qq;
        const tx = 2 * (y * v[2] - z * v[1]), ty = 2 * (z * v[0] - x * v[2]), tz = 2 * (x * v[1] - y * v[0]);
        return [v[0] + s * tx + (y * tz - z * ty), v[1] + s * ty + (z * tx - x * tz), v[2] + s * tz + (x * ty - y * tx)];
      };
      // a static shape's (body -1) points are world points (newton-e3 §2), the static pose aside
      const pose = (id) => (id < 0 ? { p: [0, 0, 0], q: [0, 0, 0, 1] } : { p: Array.from(w.getPosition(id)), q: Array.from(w.getRotation(id)) });
      for (let i = 0; i < c.count; i++) {
        const x0 = pose(c.body0[i]), x1 = pose(c.body1[i]);
        const l0 = c.localPoint0.subarray(3 * i, 3 * i + 3), l1 = c.localPoint1.subarray(3 * i, 3 * i + 3);
        const w0 = rot(x0.q, l0).map((v, k) => v + x0.p[k]), w1 = rot(x1.q, l1).map((v, k) => v + x1.p[k]);
        for (let k = 0; k < 3; k++) {
          near(assert, w0[k], c.point0[3 * i + k], 1e-5, `contact ${i} point0[${k}]`);
          near(assert, w1[k], c.point1[3 * i + k], 1e-5, `contact ${i} point1[${k}]`);
        }
      }
      assert.equal(c.body1[0], b);
      w.free();
    });
  });

  describe(`matching and capacities (${build} build)`, () => {
    let tribo;
    before(async () => { tribo = await engine(build); });

    it('a resting box keeps its four match keys for 100 frames; ages count, matchIndex points back', () => {
      const w = tribo.createWorld({ sleep: 'off' }); // a sleeping pair is not collided: its kept record's age stops
      w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      w.addBody({ position: [0, 0.5, 0], shapes: [{ type: 'box', halfExtents: [0.5, 0.5, 0.5] }] });
      w.step(30);
      const keys = new Set(w.contacts.matchKey);
      assert.equal(keys.size, 4);
      const age0 = w.contacts.age[0];
      for (let f = 1; f <= 100; f++) {
        const prev = Uint32Array.from(w.contacts.matchKey);
        w.step();
        const c = w.contacts;
        assert.equal(c.count, 4);
        for (let i = 0; i < 4; i++) {
          assert.ok(keys.has(c.matchKey[i]), `frame ${f}: key ${c.matchKey[i]} kept`);
          assert.equal(c.age[i], age0 + f);
          assert.equal(prev[c.matchIndex[i]], c.matchKey[i], 'matchIndex names the same contact last frame');
        }
      }
      w.free();
    });

    it('sticky keeps the body-local anchor within matchDistance; latest follows the new point', () => {
      for (const matching of ['latest', 'sticky']) {
        const w = tribo.createWorld({ matching, matchDistance: 0.01 });
        w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
        const b = w.addBody({ position: [0, 0.499, 0], shapes: [{ type: 'box', halfExtents: [0.5, 0.5, 0.5] }] });
        w.collide();
        const first = new Map();
        for (let i = 0; i < 4; i++) first.set(w.contacts.featureId[i], w.contacts.localPoint0[3 * i]);
        for (const [step, dx] of [[0, 0.004], [1, 0.016]]) {
          w.setPose(b, [dx, 0.499, 0]);
          w.collide();
          const c = w.contacts;
          for (let i = 0; i < 4; i++) {
            const x0 = first.get(c.featureId[i]);
            const keep = matching === 'sticky' && step === 0; // 0.004 <= 0.01 keeps, 0.016 does not
            near(assert, c.localPoint0[3 * i], keep ? x0 : x0 + dx, 1e-5, `${matching} dx = ${dx}: plane-side anchor x`);
          }
        }
        w.free();
      }
    });

    it('a removed box whose slot is reused starts new contacts (no inherited key or age)', () => {
      const w = tribo.createWorld();
      w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      const b = w.addBody({ position: [0, 0.5, 0], shapes: [{ type: 'box', halfExtents: [0.5, 0.5, 0.5] }] });
      w.step(60);
      const old = new Set(w.contacts.matchKey);
      const oldImpulse = w.contacts.normalImpulse.reduce((a, v) => a + v, 0);
      w.removeBody(b);
      const nb = w.addBody({ position: [0, 0.5, 0], shapes: [{ type: 'box', halfExtents: [0.5, 0.5, 0.5] }] });
      assert.equal(w.bodySlot(nb), w.bodySlot(b));
      assert.notEqual(nb, b);
      w.collide();
      const c = w.contacts;
      for (let i = 0; i < c.count; i++) {
        assert.equal(c.age[i], 0);
        assert.equal(c.matchIndex[i], -1);
        assert.ok(!old.has(c.matchKey[i]));
      }
      assert.ok(oldImpulse > 0);
      w.free();
    });

    it('capacities smaller than the scene grow in the first step: nothing dropped, the frame says it grew, the readback is valid', () => {
      const w = tribo.createWorld({ contactCapacity: 5, pairCapacity: 2 });
      w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      const m = [];
      for (let i = 0; i < 3; i++) m.push(w.addBody({ position: [3 * i, 0.5, 0], shapes: [{ type: 'box', halfExtents: [0.5, 0.5, 0.5] }] }));
      w.step();
      let c = w.contacts;
      assert.equal(c.pairsRequested, 3);
      assert.equal(c.pairCount, 3);
      assert.ok(c.pairsGrew && c.pairCapacity >= 3);
      assert.equal(c.requested, 12, 'every pair gives its contacts');
      assert.equal(c.count, 12);
      assert.ok(c.grew && c.capacity >= 12);
      assert.ok(!c.overflowed && !c.pairsOverflowed);
      assert.ok(c.readbackValid);
      w.step(60);
      c = w.contacts;
      assert.equal(c.count, 12);
      assert.ok(!c.grew && !c.pairsGrew, 'a steady scene does not grow again');
      assert.ok(c.readbackValid);
      const perBody = new Map();
      for (let i = 0; i < c.count; i++) perBody.set(c.body1[i], (perBody.get(c.body1[i]) ?? 0) + c.normalImpulse[i]);
      for (const id of m) {
        const mgh = w.getMass(id).mass * 9.81 * w.timestep;
        near(assert, perBody.get(id), mgh, 0.01 * mgh, 'normal impulses of one box sum to m·g·h');
      }
      w.free();
    });
  });
}

describe('distance rules in the worker world', () => {
  it('options, setters and the record fields cross the worker boundary', async () => {
    const tribo = await engine('simd');
    const sim = await tribo.createWorkerWorld({ distanceRule: 'mujoco', matching: 'sticky' });
    await sim.addBody({ type: 'static', shapes: [{ type: 'plane', margin: 0.01, gap: 0.02 }] });
    await sim.addBody({ position: [0, 0.54, 0], shapes: [{ type: 'sphere', radius: 0.5, margin: 0.02, gap: 0.01 }] });
    let f = await sim.collide();
    assert.equal(f.contacts.count, 1, 'mujoco: 0.04 < m + g = 0.06');
    assert.equal(f.contacts.excluded[0], 1, 'gap-only: 0.04 >= m = 0.03');
    near(assert, f.contacts.distance[0], 0.04 - 0.03, 2e-6, 'dist − m');
    await sim.setOptions({ distanceRule: 'newton' });
    f = await sim.collide();
    assert.equal(f.contacts.count, 1, 'newton: d = 0.01 <= gap 0.03');
    assert.equal(f.contacts.active[0], 0, 'newton: d >= 0 has no normal response');
    assert.equal(f.contacts.age[0], 1, 'matched across the rule change');
    await assert.rejects(sim.setOptions({ matching: 'glue' }), (e) => e instanceof RangeError && /matching must be one of/.test(e.message));
    await sim.free();
  });
});

describe('contact reduction in the record', () => {
  it('maxPointsPerPair bounds the points of a pair and the record says points were dropped', async () => {
    const { engine } = await import('./helpers.mjs');
    const tribo = await engine('simd');
    for (const [max, expectCount, expectReduced] of [[4, 4, 0], [2, 2, 1], [1, 1, 1]]) {
      const w = tribo.createWorld({ maxPointsPerPair: max });
      w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      // a box tilted about z: its two lower corners (x = −0.2 side) are the deepest
      const q = [0, 0, Math.sin(0.01), Math.cos(0.01)];
      w.addBody({ position: [0, 0.19, 0], rotation: q, shapes: [{ type: 'box', halfExtents: [0.2, 0.2, 0.2] }] });
      w.collide();
      const c = w.contacts;
      assert.equal(c.count, expectCount, `max ${max}: points kept`);
      for (let i = 0; i < c.count; i++) assert.equal(c.reduced[i], expectReduced, `max ${max}: reduced flag`);
      let deepest = Infinity;
      for (let i = 0; i < c.count; i++) deepest = Math.min(deepest, c.separation[i]);
      // the deepest corner: y = 0.19 − 0.2·cos(0.02) − 0.2·sin(0.02)
      const d = 0.19 - 0.2 * Math.cos(0.02) - 0.2 * Math.sin(0.02);
      assert.ok(Math.abs(deepest - d) < 2e-5, `max ${max}: the deepest point is kept (${deepest} vs ${d})`);
      w.free();
    }
  });
});
