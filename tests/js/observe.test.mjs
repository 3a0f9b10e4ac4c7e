// The observation API: wrench tools on hand-computed inputs, per-body contact totals against
// weights, conventions, sensors, events, completeness flags; in process and through a worker.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { BUILDS, engine, sphereDensity, near } from './helpers.mjs';
import { wrenchShift, wrenchReaction, wrenchAverage } from '../../js/index.js';

const G = 9.81;
const nearVec = (a, e, tol, what) => e.forEach((x, i) => near(assert, a[i], x, tol, `${what}[${i}]`));

describe('wrench tools (pure functions)', () => {
  it('moves a wrench to another point: τ_O = τ_C + (C − O) × f', () => {
    // (C − O) × f = (1,−1,0) × (1,2,3) = (−3,−3,3)
    const w = wrenchShift({ force: [1, 2, 3], torque: [0.5, -1, 2], point: [1, 0, 0] }, [0, 1, 0]);
    nearVec(w.force, [1, 2, 3], 0, 'force');
    nearVec(w.torque, [-2.5, -4, 5], 1e-12, 'torque');
    nearVec(w.point, [0, 1, 0], 0, 'point');
  });
  it('gives the reaction at the other centre of mass, not a sign flip', () => {
    // (C0 − C1) × f0 = (−1,−1,0) × (0,−10,2) = (−2,2,10); τ1 = −(1,0,0) − (−2,2,10)
    const r = wrenchReaction({ force: [0, -10, 2], torque: [1, 0, 0], point: [0, 0, 0] }, [1, 1, 0]);
    nearVec(r.force, [0, 10, -2], 0, 'f1');
    nearVec(r.torque, [1, -2, -10], 1e-12, 'τ_C1');
    assert.notEqual(r.torque[0], -1, 'not −τ0');
  });
  it('averages substeps weighted by h_k with torques moved to one point first', () => {
    const s = [{ force: [2, 0, 0], torque: [0, 0, 1], point: [0, 1, 0] }, { force: [4, 0, 0], torque: [0, 0, 0], point: [0, 0, 1] }];
    const a = wrenchAverage(s, [0.01, 0.03], [0, 0, 0]);
    nearVec(a.force, [3.5, 0, 0], 1e-12, 'f̄'); // not the plain mean 3
    nearVec(a.torque, [0, 3, -0.25], 1e-12, 'τ̄_P');
    assert.throws(() => wrenchAverage(s, [0.01, 0], [0, 0, 0]), /h\[1\] must be finite and > 0 \(got 0\)/);
    assert.throws(() => wrenchShift({ force: [NaN, 0, 0], torque: [0, 0, 0], point: [0, 0, 0] }, [0, 0, 0]), /wrench.force\[0\]/);
  });
});

function restingSphere(tribo, m = 3, r = 0.2) {
  const w = tribo.createWorld({ timestep: 1 / 60 });
  const ground = w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
  const ball = w.addBody({ position: [1, r, 0.5], shapes: [{ type: 'sphere', radius: r, density: sphereDensity(m, r) }] });
  return { w, ground, ball };
}

for (const build of BUILDS) {
  describe(`observation (${build} build)`, () => {
    let tribo;
    before(async () => { tribo = await engine(build); });

    it('net contact force of a resting 3 kg sphere is m·g ± 0.5%, with the readback flags', () => {
      const { w, ground, ball } = restingSphere(tribo);
      w.step(120);
      const net = w.netContactWrench(ball);
      near(assert, net.force[1], 3 * G, 0.005 * 3 * G, 'net force y (N)');
      nearVec(net.point, Array.from(w.getPosition(ball)), 1e-6, 'about the centre of mass');
      assert.equal(net.readback.perContactForce, true);
      assert.equal(net.readback.valid, true);
      assert.equal(net.readback.convention, 'physx');
      assert.equal(net.readback.includesTorsional, false);
      assert.deepEqual(w.netContactWrench(ball, { with: 'static' }).force, net.force);
      assert.deepEqual(w.netContactWrench(ball, { with: ground }).force, net.force);
      assert.deepEqual(w.netContactWrench(ball, { with: ball }).force, [0, 0, 0]);
      near(assert, w.netContactWrench(ground).force[1], -net.force[1], 1e-4, 'the floor gets the opposite');
      // conventions: floor is shape0
      const nw = w.convertContacts('newton');
      near(assert, nw.torque[0], 0.5 * 3 * G, 0.01 * 3 * G, 'Newton torque x about the floor origin (p × f0)');
      near(assert, nw.torque[2], -1 * 3 * G, 0.01 * 3 * G, 'Newton torque z');
      const gn = w.convertContacts('genesis');
      assert.deepEqual(Array.from(gn.forceB), Array.from(gn.forceA, (x) => -x));
      const px = w.convertContacts('physx');
      nearVec(px.normal, [0, -1, 0], 1e-6, 'PhysX normal from shape1 to shape0');
      near(assert, px.impulse[1], -3 * G * w.timestep, 0.005 * 3 * G * w.timestep, 'PhysX impulse on the floor (N·s)');
      assert.throws(() => w.convertContacts('mujoco'), /convention must be one of newton, genesis, physx/);
      const cw = w.contactWrench(0, 1);
      nearVec(cw.force, net.force, 1e-6, 'the one contact carries the whole force');
      assert.throws(() => w.netContactWrench(ball, { with: 12345 }), RangeError);
      assert.throws(() => w.netContactWrench(ball, { wiht: 1 }), /unknown option wiht/);
      w.free();
    });

    it('box stack: the floor carries the total weight, the top box its own weight', () => {
      const w = tribo.createWorld();
      w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      const h = 0.25, vol = 8 * h ** 3;
      const a = w.addBody({ position: [0, h, 0], shapes: [{ type: 'box', halfExtents: [h, h, h], density: 2 / vol }] });
      const b = w.addBody({ position: [0, 3 * h, 0], shapes: [{ type: 'box', halfExtents: [h, h, h], density: 1 / vol }] });
      w.step(180);
      near(assert, w.netContactWrench(a, { with: 'static' }).force[1], 3 * G, 0.005 * 3 * G, 'floor on bottom box (N)');
      near(assert, w.netContactWrench(a, { with: b }).force[1], -1 * G, 0.005 * G, 'top box on bottom box (N)');
      const all = w.netContactWrenches();
      assert.equal(all.slotCount, 3);
      const sa = w.bodySlot(a);
      assert.deepEqual(Array.from(all.force.subarray(3 * sa, 3 * sa + 3)), w.netContactWrench(a).force.map(Math.fround));
      near(assert, all.force[1], -3 * G, 0.005 * 3 * G, 'the floor (slot 0) carries the total weight');
      assert.equal(w.bodyContacts(a, { with: b }).length, 4);
      assert.equal(w.bodyContacts(a).length, 8);
      assert.equal(w.bodyContacts(a, { excludeSelf: true }).length, 8, 'no self-contacts in this scene');
      w.free();
    });

    it('excludeSelf drops a contact between two shapes of one body', () => {
      // the pipeline filters same-body pairs, so relabel the stored contact through the writable view
      const w = tribo.createWorld();
      w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      const b = w.addBody({ position: [0, 0.2, 0], shapes: [{ type: 'sphere', radius: 0.2 }, { type: 'sphere', radius: 0.1, position: [0, 1, 0] }] });
      w.step(30);
      const c = w.contacts;
      assert.equal(c.count, 1);
      c.shape0[0] = c.shape1[0] + 1; // the second sphere's id: same generation, next slot
      assert.equal(w.bodyContacts(b).length, 1);
      assert.equal(w.bodyContacts(b, { excludeSelf: true }).length, 0);
      assert.equal(w.bodyContacts(b, { with: b }).length, 1, 'the body itself selects its self-contacts');
      assert.deepEqual(w.netContactWrench(b).force, [0, 0, 0], 'the two sides cancel');
      w.free();
    });

    it('readbackInfo comes from the engine: invalid after collide(), valid after solve()', () => {
      const { w, ball } = restingSphere(tribo);
      w.step(5);
      assert.equal(w.readbackInfo.valid, true);
      assert.equal(w.readbackInfo.preset, 'physx-tgs', 'the preset text stays');
      w.collide();
      assert.equal(w.readbackInfo.valid, false);
      assert.throws(() => w.netContactWrench(ball), /not available: no solve\(\) has filled the contacts/);
      w.solve();
      assert.equal(w.readbackInfo.valid, true);
      w.free();
    });

    it('a contact store created for one point grows to the box\'s four: the readback stays valid', () => {
      const w = tribo.createWorld({ contactCapacity: 1 });
      w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      const box = w.addBody({ position: [0, 0.5, 0], shapes: [{ type: 'box', halfExtents: [0.5, 0.5, 0.5] }] });
      w.step(30);
      assert.equal(w.contacts.count, 4);
      assert.equal(w.readbackInfo.valid, true);
      const mg = w.getMass(box).mass * 9.81;
      near(assert, w.netContactWrench(box).force[1], mg, 0.02 * mg, 'the resting box carries its weight');
      w.free();
    });

    it('newton-xpbd substeps: a contact that ends inside a step is in the body totals (Σ force·h = m·Δv − m·g·h)', () => {
      // a frictionless 1 kg sphere slides at 4 m/s off a platform's edge; one contact, so the
      // readback (scale 1, no restitution pass) is the impulse that moved the body
      const w = tribo.createWorld({ preset: 'newton-xpbd', timestep: 1 / 60 });
      assert.equal(w.options.xpbdSubsteps, 10);
      const plat = w.addBody({ type: 'static', position: [0, -0.5, 0], shapes: [{ type: 'box', halfExtents: [1, 0.5, 1], friction: 0 }] });
      const ball = w.addBody({ position: [0.6, 0.1, 0], shapes: [{ type: 'sphere', radius: 0.1, density: sphereDensity(1, 0.1), friction: 0 }] });
      w.setVelocity(ball, [4, 0, 0]);
      const sensor = w.addContactSensor(ball, { capacity: 4 });
      const m = w.getMass(ball).mass, h = w.timestep, mgh = m * G * h;
      let ended = 0;
      for (let s = 0; s < 30; s++) {
        const v0 = Array.from(w.getLinearVelocity(ball));
        w.step();
        const v1 = Array.from(w.getLinearVelocity(ball));
        const j = [m * (v1[0] - v0[0]), m * (v1[1] - v0[1]) + mgh, m * (v1[2] - v0[2])];
        nearVec(w.netContactWrench(ball).force.map((f) => f * h), j, 1e-3 * mgh, `step ${s}: impulse (N·s)`);
        nearVec(w.netContactWrench(ball, { with: plat }).force.map((f) => f * h), j, 1e-3 * mgh, `step ${s}: with the platform`);
        nearVec(w.readContactSensor(sensor).force.map((f) => f * h), j, 1e-3 * mgh, `step ${s}: sensor`);
        if (w.contacts.count === 0 && j[1] > 0.05 * mgh) ended++;
      }
      assert.ok(ended >= 1, 'a step whose contact ended before its last substep');
      w.free();
    });

    it('a contact sensor keeps the last samples of the body force', () => {
      const { w, ball } = restingSphere(tribo);
      w.step(60);
      const s = w.addContactSensor(ball, { capacity: 16 });
      const ring = w.addContactSensor(ball, { capacity: 4, with: 'static' });
      assert.throws(() => w.readContactSensor(s), /no sample yet/);
      w.step(10);
      const h = w.contactSensorHistory(s);
      assert.equal(h.count, 10);
      for (let i = 0; i < 10; i++) {
        near(assert, h.forces[3 * i + 1], 3 * G, 0.005 * 3 * G, `sample ${i} (N)`);
        assert.equal(h.valid[i], true);
        if (i) assert.equal(h.steps[i], h.steps[i - 1] + 1);
      }
      const r = w.contactSensorHistory(ring);
      assert.equal(r.count, 4);
      assert.deepEqual(Array.from(r.forces), Array.from(h.forces.subarray(18, 30)), 'newest 4, oldest first');
      assert.deepEqual(w.readContactSensor(s).force, w.netContactWrench(ball, { excludeSelf: true }).force);
      w.removeContactSensor(ring);
      assert.throws(() => w.readContactSensor(ring), RangeError);
      assert.throws(() => w.addContactSensor(ball, { capacity: 0 }), /capacity must be in \[1, \d+\] \(got 0\)/);
      w.free();
    });

    it('events: a ball lands (begin once, force above), rests (persist), is lifted (end once, force below)', () => {
      const m = 2;
      const w = tribo.createWorld();
      w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      const ball = w.addBody({ position: [0, 0.6, 0], shapes: [{ type: 'sphere', radius: 0.2, density: sphereDensity(m, 0.2) }] });
      w.setEventCapacity(32);
      w.setForceThreshold(0.5 * m * G);
      const n = { begin: 0, persist: 0, end: 0, forceAbove: 0, forceBelow: 0, sleep: 0, wake: 0 };
      let inContact = 0;
      for (let i = 0; i < 90; i++) {
        w.step();
        const ev = w.events;
        assert.equal(ev.overflowed, false);
        for (const e of ev.list) n[e.type]++;
        if (w.contacts.count > 0) inContact++;
        const landing = ev.list.find((e) => e.type === 'forceAbove');
        if (landing) { assert.equal(landing.body1, ball); assert.ok(landing.normalForce >= 0.5 * m * G); }
      }
      // the resting ball falls asleep once (PhysX sleep); its kept contact persists, never ends
      assert.deepEqual(n, { begin: 1, persist: inContact - 1, end: 0, forceAbove: 1, forceBelow: 0, sleep: 1, wake: 0 });
      assert.equal(w.isSleeping(ball), true);
      w.setPose(ball, [0, 2, 0]); // wakes it
      w.setVelocity(ball, [0, 0, 0]);
      w.step();
      const ev = w.events;
      assert.deepEqual(ev.list.map((e) => e.type).sort(), ['end', 'forceBelow', 'wake']);
      assert.equal(ev.list.find((e) => e.type === 'wake').body0, ball);
      w.step();
      assert.equal(w.events.count, 0);
      w.free();
    });
  });
}

describe('observation through a worker', () => {
  it('the same calls resolve with the same values', async () => {
    const tribo = await engine('simd');
    const sim = await tribo.createWorkerWorld({ timestep: 1 / 60 });
    await sim.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
    const ball = await sim.addBody({ position: [0, 0.2, 0], shapes: [{ type: 'sphere', radius: 0.2, density: sphereDensity(3, 0.2) }] });
    await sim.step(60);
    const s = await sim.addContactSensor(ball, { capacity: 8 });
    await sim.setEventCapacity(8);
    await sim.step(10);
    const net = await sim.netContactWrench(ball);
    near(assert, net.force[1], 3 * G, 0.005 * 3 * G, 'net force y through the worker (N)');
    assert.equal(net.readback.perContactForce, true);
    const h = await sim.contactSensorHistory(s);
    assert.equal(h.count, 8);
    assert.deepEqual(Array.from(h.forces.subarray(21, 24)), (await sim.readContactSensor(s)).force);
    const ev = await sim.events;
    assert.equal(ev.list.length, 1);
    assert.equal(ev.list[0].type, 'persist');
    assert.equal((await sim.convertContacts('genesis')).count, 1);
    assert.deepEqual(await sim.bodyContacts(ball), [0]);
    near(assert, (await sim.netContactWrenches()).force[3 * (await sim.bodySlot(ball)) + 1], 3 * G, 0.005 * 3 * G, 'all bodies through the worker');
    assert.equal((await sim.readbackInfo).valid, true);
    await assert.rejects(sim.netContactWrench(ball, { with: 999999 }), RangeError);
    await sim.free();
  });
});

describe('per-body totals after the solver changes', () => {
  for (const build of BUILDS) {
    it(`${build}: the penalty solve's published per-body totals are not reported after a PhysX solve`, async () => {
      const tribo = await engine(build);
      const w = tribo.createWorld({ preset: 'newton-semi', timestep: 1 / 60 });
      w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      const r = 0.2, m = 3;
      const ball = w.addBody({ position: [0, r, 0], shapes: [{ type: 'sphere', radius: r, density: sphereDensity(m, r) }] });
      w.step(60);
      near(assert, w.netContactWrench(ball).force[1], m * G, 0.05 * m * G, 'resting under penalty (per-body total)');
      /* the ball lifted 1 m clear of the ground and a PhysX step: no contact, so no contact force */
      w.setOptions({ solver: 'pgs' });
      w.setPose(ball, [0, 1 + r, 0]);
      w.step(1);
      assert.equal(w.contacts.count, 0);
      const f = w.netContactWrench(ball).force;
      for (let i = 0; i < 3; i++) assert.equal(f[i], 0, `force[${i}] with no contact after a pgs step (got ${f[i]})`);
      w.free();
    });
  }
});
