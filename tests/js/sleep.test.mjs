// Islands and automatic sleep through the JS API, on both builds and in a worker.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { BUILDS, engine, near, twinId } from './helpers.mjs';

const H = Math.fround(1 / 60);

/** Steps of the PhysX wake counter from 0.4 s down to zero in float32: max(wc − h, 0). */
function physxSteps(reset, h) {
  let wc = Math.fround(reset), n = 0;
  while (wc > 0) { wc = Math.max(Math.fround(wc - h), 0); n++; }
  return n;
}

/** Four 0.5 m boxes at rest on the ground, 2 m apart. */
function boxes(w) {
  w.ground = w.addBody({ type: 'static', shapes: [{ type: 'plane' }] }); /* 0 only in a module's first world */
  return [0, 1, 2, 3].map((i) => w.addBody({ position: [2 * i, 0.25, 0], shapes: [{ type: 'box', halfExtents: [0.25, 0.25, 0.25] }] }));
}

for (const build of BUILDS) {
  describe(`islands and sleep (${build} build)`, () => {
    let tribo;
    before(async () => { tribo = await engine(build); });

    it('options: the preset defaults, named RangeErrors, setOptions between steps', () => {
      const w = tribo.createWorld();
      const o = w.options;
      assert.equal(o.sleep, 'physx');
      near(assert, o.sleepVelocityThreshold, 2e-3, 1e-9, 'Genesis threshold (m/s)');
      assert.equal(o.sleepSteps, 10);
      near(assert, o.sleepEnergyThreshold, 5e-3, 1e-9, 'PhysX threshold (m²/s²)');
      near(assert, o.wakeCounter, 0.4, 1e-7, 'PhysX wake counter (s)');
      assert.equal(tribo.createWorld({ preset: 'newton-xpbd' }).options.sleep, 'off');
      assert.equal(tribo.createWorld({ preset: 'mujoco' }).options.sleep, 'off');
      assert.throws(() => tribo.createWorld({ sleepSteps: 0 }), (e) => e instanceof RangeError && /sleepSteps/.test(e.message));
      assert.throws(() => tribo.createWorld({ sleep: 'sometimes' }), (e) => e instanceof RangeError && /sleep/.test(e.message));
      assert.throws(() => w.setOptions({ sleepVelocityThreshold: -1 }), (e) => e instanceof RangeError && /sleepVelocityThreshold/.test(e.message));
      assert.equal(w.options.sleepVelocityThreshold, o.sleepVelocityThreshold, 'a refused option changes nothing');
      w.setOptions({ sleep: 'genesis', sleepSteps: 5 });
      assert.equal(w.options.sleep, 'genesis');
      assert.equal(w.options.sleepSteps, 5);
    });

    it('PhysX rule: resting boxes sleep after the wake counter runs down; asleep view, stats, kept records, events', () => {
      const w = tribo.createWorld();
      const ids = boxes(w);
      w.setEventCapacity(64);
      const n = physxSteps(0.4, H);
      w.step(n - 1);
      assert.deepEqual(ids.map((id) => w.isSleeping(id)), [false, false, false, false]);
      w.step();
      assert.deepEqual(ids.map((id) => w.isSleeping(id)), [true, true, true, true], `asleep after ${n} steps`);
      const slots = ids.map((id) => w.bodySlot(id));
      assert.deepEqual(slots.map((s) => w.bodies.asleep[s]), [1, 1, 1, 1]);
      assert.equal(w.events.list.filter((e) => e.type === 'sleep').length, 4);
      w.step();
      const st = w.stepStats;
      assert.equal(st.islandCount, 4);
      assert.equal(st.sleepingIslands, 4);
      assert.equal(st.sleepingBodies, 4);
      assert.equal(st.skippedShapes, 4);
      assert.equal(st.manifoldCount, 0, 'nothing solved');
      assert.equal(st.sleepingPairs, 4);
      const c = w.contacts;
      assert.equal(c.pairCount, 0, 'nothing collided');
      assert.equal(c.count, 16);
      assert.ok(c.sleeping.every((v) => v === 1), 'every kept record is flagged');
      // the kept readback is the last solved one: each box's weight, never a fresh zero
      const m = 1000 * 0.5 ** 3;
      for (const id of ids) near(assert, w.netContactWrench(id).force[1], m * 9.81, 0.01 * m * 9.81, 'net contact force (N)');
      // bitwise still
      const before = ids.map((id) => Array.from(w.getState(id)));
      w.step(20);
      assert.deepEqual(ids.map((id) => Array.from(w.getState(id))), before);
      // setVelocity wakes exactly that island
      w.setVelocity(ids[2], [0, 0, 0.5], [0, 0, 0]);
      assert.deepEqual(ids.map((id) => w.isSleeping(id)), [true, true, false, true]);
      w.step();
      assert.equal(w.events.list.filter((e) => e.type === 'wake').map((e) => e.body0).join(), String(ids[2]));
      assert.equal(w.island(ids[0]) === w.island(ids[1]), false, 'separate islands');
      w.free();
    });

    it('genesis preset: hibernation on, force_a / force_b per point carry the weight, also once asleep', () => {
      const w = tribo.createWorld({ preset: 'genesis' });
      const o = w.options;
      assert.deepEqual([o.sleep, o.solver, o.filterRule, o.distanceRule, o.combineRule, o.mujocoSolver, o.mujocoIterations],
        ['genesis', 'mujoco', 'genesis', 'mujoco', 'mujoco', 'newton', 50]);
      w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      const box = w.addBody({ position: [0, 0.27, 0], shapes: [{ type: 'box', halfExtents: [0.25, 0.25, 0.25] }] });
      const weight = 125 * 9.81;
      let steps = 0;
      while (!w.isSleeping(box) && steps < 80) { w.step(); steps++; }
      assert.ok(w.isSleeping(box) && steps > 10, `asleep after ${steps} steps (the rule needs 10 at rest)`);
      for (let pass = 0; pass < 2; pass++) {
        const g = w.convertContacts('genesis');
        let fa = 0, fb = 0;
        for (let k = 0; k < g.count; k++) { fa += g.forceA[3 * k + 1]; fb += g.forceB[3 * k + 1]; }
        near(assert, fb, weight, 0.01 * weight, 'Σ force_b on the box (N)');
        near(assert, fa, -weight, 0.01 * weight, 'Σ force_a on the ground (N)');
        w.step(); // the second pass reads the kept records of the sleeping pair
        assert.equal(w.contacts.sleeping[0], 1);
      }
      w.free();
    });

    it('Genesis rule: a ball dropped on one of two stacks wakes that island in the step it touches', () => {
      const w = tribo.createWorld({ sleep: 'genesis' });
      w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      const stack = (x) => [0, 1].map((k) => w.addBody({ position: [x, 0.2 + 0.41 * k, 0], shapes: [{ type: 'box', halfExtents: [0.2, 0.2, 0.2] }] }));
      const a = stack(0), b = stack(3);
      for (let i = 0; i < 200 && ![...a, ...b].every((id) => w.isSleeping(id)); i++) w.step();
      assert.ok([...a, ...b].every((id) => w.isSleeping(id)), 'both stacks asleep');
      assert.equal(w.island(a[0]), w.island(a[1]));
      assert.notEqual(w.island(a[0]), w.island(b[0]));
      const ball = w.addBody({ position: [0, 1.6, 0], shapes: [{ type: 'sphere', radius: 0.15 }] });
      let woke = false;
      for (let i = 0; i < 60 && !woke; i++) {
        w.step();
        if (!w.isSleeping(a[1])) {
          woke = true;
          const c = w.contacts;
          let touching = false, groundFresh = false;
          for (let k = 0; k < c.count; k++) {
            if ((c.body0[k] === ball || c.body1[k] === ball) && (c.body0[k] === a[1] || c.body1[k] === a[1])) touching = true;
            if ((c.body0[k] === a[0] && c.body1[k] === -1) || (c.body1[k] === a[0] && c.body0[k] === -1)) groundFresh ||= c.sleeping[k] === 0 && c.normalImpulse[k] > 0;
          }
          assert.ok(touching, 'the contact that woke it is in this step');
          assert.ok(groundFresh, 'the woken stack was collided and solved in the same step');
          assert.ok(b.every((id) => w.isSleeping(id)), 'the other stack sleeps on');
        }
      }
      assert.ok(woke);
      w.free();
    });
  });
}

describe('sleep through a worker', () => {
  it('the same state and island ids as in-process', async () => {
    const tribo = await engine('simd');
    const sim = await tribo.createWorkerWorld({ sleep: 'genesis' });
    const local = tribo.createWorld({ sleep: 'genesis' });
    const simGround = await sim.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
    const localGround = local.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
    const desc = { position: [0, 0.25, 0], shapes: [{ type: 'box', halfExtents: [0.25, 0.25, 0.25] }] };
    const id = await sim.addBody(desc);
    const localId = local.addBody(desc);
    await sim.step(30);
    local.step(30);
    assert.equal(await sim.isSleeping(id), true);
    assert.equal(await sim.isSleeping(id), local.isSleeping(localId));
    /* island ids up to the worlds' id salts (twinId) */
    assert.equal(twinId(local, simGround, await sim.island(id)), twinId(local, localGround, local.island(localId)));
    await sim.free();
    local.free();
  });
});

for (const build of BUILDS) {
  describe(`sleep counters through World.sleepState (${build} build)`, () => {
    let tribo;
    before(async () => { tribo = await engine(build); });

    it('PhysX: the wake counter runs down from 0.4 s by h at rest to 0 when the body sleeps; cluster factor 1 + its pairs', () => {
      const w = tribo.createWorld({ preset: 'physx-tgs' });
      const [a, b] = boxes(w);
      /* a box placed on the ground: one pair (the plane); settled at once, so it never resets */
      let s = w.sleepState(a);
      assert.equal(s.rule, 'physx');
      near(assert, s.wakeCounter, 0.4, 1e-7, 'reset value before any step (s)');
      assert.equal(s.stepsBelow, null, 'the Genesis count is not computed under the PhysX rule');
      w.step(5);
      s = w.sleepState(a);
      assert.equal(s.clusterFactor, 2, 'the plane pair: c = 1 + 1');
      near(assert, s.wakeCounter, Math.fround(0.4 - 5 * H), 2e-6, 'counter after 5 quiet steps (s)');
      let n = 5;
      while (!w.isSleeping(a) && n < 60) { w.step(); n++; }
      assert.equal(n, physxSteps(0.4, H), 'asleep when the counter reached 0');
      assert.equal(w.sleepState(b).wakeCounter, 0);
      assert.throws(() => w.sleepState(w.ground), (e) => e instanceof RangeError && /sleepState: body \d+ is not dynamic/.test(e.message));
      w.free();
    });

    it('Genesis: the count of quiet steps reaches sleepSteps when the body sleeps; PhysX values null', () => {
      const w = tribo.createWorld({ preset: 'genesis' });
      const [a] = boxes(w);
      let n = 0;
      while (!w.isSleeping(a) && n < 80) { w.step(); n++; }
      const s = w.sleepState(a);
      assert.ok(w.isSleeping(a), `asleep after ${n} steps`);
      assert.equal(s.rule, 'genesis');
      assert.equal(s.stepsBelow, w.options.sleepSteps, 'the count at which it slept');
      assert.equal(s.wakeCounter, null);
      assert.equal(s.clusterFactor, null);
      w.free();
    });

    it('sleep off: every counter null, none a 0', () => {
      const w = tribo.createWorld({ preset: 'physx-tgs', sleep: 'off' });
      const [a] = boxes(w);
      w.step(3);
      assert.deepEqual(w.sleepState(a), { rule: 'off', wakeCounter: null, clusterFactor: null, stepsBelow: null });
      w.free();
    });
  });
}
