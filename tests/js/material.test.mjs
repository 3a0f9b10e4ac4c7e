// Materials from JS: per-shape materials, the world's combine rule, the combined parameters each
// contact reports, the friction the solver actually applies, validation, and the worker API.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { BUILDS, engine, near } from './helpers.mjs';

const f32 = Math.fround;

/** A rubber ground plane (μ 0.9, restitution 0.4) and an ice sphere resting on it; returns the body ids. */
function iceOnRubber(world, ice = {}, rubber = {}) {
  const ground = world.addBody({
    type: 'static',
    shapes: [{ type: 'plane', friction: 0.9, restitution: 0.4, material: { frictionCombine: 'average', ...rubber } }],
  });
  const ball = world.addBody({
    position: [0, 0.49, 0],
    shapes: [{ type: 'sphere', radius: 0.5, material: { staticFriction: 0.05, dynamicFriction: 0.05, frictionCombine: 'min', restitution: 0.8, ...ice } }],
  });
  return { ground, ball };
}

for (const build of BUILDS) {
  describe(`materials (${build} build)`, () => {
    let tribo;
    before(async () => { tribo = await engine(build); });

    it('ice (0.05, min) on rubber (0.9, average): the larger mode MIN wins, per contact', () => {
      const w = tribo.createWorld();
      assert.equal(w.options.combineRule, 'physx');
      iceOnRubber(w);
      w.collide();
      const c = w.contacts;
      assert.equal(c.count, 1);
      assert.equal(c.staticFriction[0], f32(0.05));
      assert.equal(c.dynamicFriction[0], f32(0.05));
      near(assert, c.restitution[0], 0.6, 1e-6, 'restitution average (0.4 + 0.8)/2');
      assert.ok(Number.isNaN(c.stiffness[0]) && Number.isNaN(c.damping[0]), 'a rigid PhysX contact has no spring');
      assert.ok(Number.isNaN(c.spinFriction[0]) && Number.isNaN(c.penaltyFriction[1]), 'no Newton parameters under the PhysX rule');
      assert.equal(c.materialFlags[0], 0);
      // the other rules on the same scene
      w.setOptions({ combineRule: 'mean' });
      w.collide();
      near(assert, w.contacts.dynamicFriction[0], 0.475, 1e-6, 'mean (0.05 + 0.9)/2');
      near(assert, w.contacts.spinFriction[0], 0.005, 1e-9, 'torsional mean of the defaults');
      assert.equal(w.contacts.stiffness[0], 2500, 'unset ke: the Newton ke of the world (N/m)');
      w.setOptions({ combineRule: 'vbd' });
      w.collide();
      near(assert, w.contacts.dynamicFriction[0], Math.sqrt(0.05 * 0.9), 1e-6, 'vbd sqrt(μ0·μ1)');
      assert.ok(Number.isNaN(w.contacts.restitution[0]));
      w.setOptions({ combineRule: 'kamino' });
      w.collide();
      near(assert, w.contacts.dynamicFriction[0], 0.475, 1e-6, 'kamino friction average');
      near(assert, w.contacts.restitution[0], 0.4, 1e-6, 'kamino restitution min');
      w.setOptions({ combineRule: 'kamino', kaminoCombine: { friction: 'multiply', restitution: 'max' } });
      assert.deepEqual(w.options.kaminoCombine, { friction: 'multiply', restitution: 'max' });
      w.collide();
      near(assert, w.contacts.dynamicFriction[0], 0.045, 1e-6, 'kamino friction multiply');
      near(assert, w.contacts.restitution[0], 0.8, 1e-6, 'kamino restitution max');
      w.free();
    });

    it('the combineRule option, static/dynamic clamp, disableFriction and compliant contacts', () => {
      const w = tribo.createWorld({ combineRule: 'physx' });
      // μs (0.1 + 0.1)/2 = 0.1 below μd (0.5 + 0.7)/2 = 0.6: raised to 0.6
      const { ground, ball } = iceOnRubber(w, { staticFriction: 0.1, dynamicFriction: 0.5, frictionCombine: 'average' },
        { staticFriction: 0.1, dynamicFriction: 0.7 });
      w.collide();
      near(assert, w.contacts.dynamicFriction[0], 0.6, 1e-6, 'μd');
      near(assert, w.contacts.staticFriction[0], 0.6, 1e-6, 'μs raised to μd');
      const [g] = w.shapesOf(ground);
      const [s] = w.shapesOf(ball);
      w.setMaterial(g, { disableFriction: true });
      w.collide();
      assert.equal(w.contacts.staticFriction[0], 0);
      assert.equal(w.contacts.dynamicFriction[0], 0);
      assert.equal(w.contacts.materialFlags[0], 1 | 2, 'no friction and no strong friction');
      // one compliant side (k = 2e4 N/m, d = 30): its stiffness, damping max(30, 45)
      w.setMaterial(g, { disableFriction: false, compliant: { stiffness: 2e4, damping: 30 } });
      w.setMaterial(s, { compliant: { damping: 45 } });
      w.collide();
      assert.equal(w.contacts.stiffness[0], 2e4);
      assert.equal(w.contacts.damping[0], 45);
      assert.ok(Number.isNaN(w.contacts.restitution[0]), 'a spring contact has no restitution');
      assert.equal(w.contacts.materialFlags[0], 4);
      // both compliant, the ball an acceleration spring: its k and d win
      w.setMaterial(s, { compliant: { stiffness: 80, damping: 6, accelerationSpring: true } });
      w.collide();
      assert.equal(w.contacts.stiffness[0], 80);
      assert.equal(w.contacts.damping[0], 6);
      assert.equal(w.contacts.materialFlags[0], 4 | 8);
      const m = w.getMaterial(s);
      assert.deepEqual(m.compliant, { stiffness: 80, damping: 6, accelerationSpring: true });
      assert.equal(m.frictionCombine, 'average');
      w.free();
      const k = tribo.createWorld({ combineRule: 'kamino', kaminoCombine: { restitution: 'max' } });
      assert.equal(k.options.combineRule, 'kamino');
      assert.deepEqual(k.options.kaminoCombine, { friction: 'average', restitution: 'max' });
      k.free();
    });

    it('mujoco rule: priority, condim/friction max, solmix-weighted solref/solimp, adhesion', () => {
      const w = tribo.createWorld({ combineRule: 'mujoco' });
      const { ground, ball } = iceOnRubber(w, { torsionalFriction: 0.02, solref: [0.04, 0.5], solimp: [0.8, 0.9, 0.002, 0.3, 3], solmix: 3, adhesion: 1.5, condim: 6 });
      w.collide();
      let c = w.contacts;
      // shape0 is the plane: weight 1/(1+3) on its defaults, 3/4 on the ball's values
      assert.equal(c.condim[0], 6);
      near(assert, c.dynamicFriction[0], 0.9, 1e-6, 'slide max(0.05, 0.9)');
      near(assert, c.spinFriction[0], 0.02, 1e-8, 'spin max(0.005, 0.02)');
      near(assert, c.solref[0], 0.25 * 0.02 + 0.75 * 0.04, 1e-7, 'solref[0]');
      near(assert, c.solref[1], 0.25 * 1 + 0.75 * 0.5, 1e-7, 'solref[1]');
      near(assert, c.solimp[4], 0.25 * 2 + 0.75 * 3, 1e-6, 'solimp power');
      near(assert, c.adhesion[0], 1.5, 0, 'adhesion sum 0 + 1.5');
      assert.ok(Number.isNaN(c.restitution[0]));
      // the ground gets a higher priority: all of its parameters win
      w.setMaterial(w.shapesOf(ground)[0], { priority: 1, adhesion: 0.5 });
      w.collide();
      c = w.contacts;
      assert.equal(c.condim[0], 3);
      near(assert, c.spinFriction[0], 0.005, 1e-9, 'spin of the ground');
      near(assert, c.solref[0], 0.02, 1e-9, 'solref of the ground');
      near(assert, c.adhesion[0], 0.5, 0, 'adhesion of the ground');
      const m = w.getMaterial(w.shapesOf(ball)[0]);
      assert.deepEqual(m.solimp.map(Math.fround), [0.8, 0.9, 0.002, 0.3, 3].map(Math.fround));
      assert.throws(() => w.setMaterial(w.shapesOf(ball)[0], { condim: 2 }), /setMaterial: material\.condim must be 1, 3, 4 or 6 \(got 2\)/);
      assert.throws(() => w.setMaterial(w.shapesOf(ball)[0], { solimp: [0.9, 1, 0.001, 0.5, 2] }), /material\.solimp\[1\] must be in \(0, 1\) \(got 1\)/);
      assert.throws(() => w.setMaterial(w.shapesOf(ball)[0], { solref: [1] }), TypeError);
      w.setOptions({ combineRule: 'physx' });
      w.collide();
      assert.equal(w.contacts.condim[0], 0);
      assert.ok(Number.isNaN(w.contacts.solref[0]) && Number.isNaN(w.contacts.adhesion[0]));
      w.free();
    });

    it('a sliding box decelerates at the combined μ·g of the rule in use', () => {
      // v(t) = v0 − μ g t while sliding: after 0.5 s from 3 m/s the drop is μ·9.81·0.5
      for (const [rule, mu] of [['physx', 0.1], ['mean', 0.5]]) {
        const w = tribo.createWorld({ preset: 'physx-pgs', combineRule: rule });
        w.addBody({ type: 'static', shapes: [{ type: 'plane', friction: 0.9 }] });
        const box = w.addBody({
          position: [0, 0.25, 0], linearVelocity: [3, 0, 0],
          shapes: [{ type: 'box', halfExtents: [0.25, 0.25, 0.25], friction: 0.1, material: { frictionCombine: 'min' } }],
        });
        w.step(30);
        w.collide();
        near(assert, w.contacts.dynamicFriction[0], mu, 1e-6, `${rule} combined μ`);
        const drop = 3 - w.getLinearVelocity(box)[0];
        near(assert, drop, mu * 9.81 * 0.5, 0.05 * mu * 9.81 * 0.5, `${rule}: velocity drop after 0.5 s`);
        w.free();
      }
    });

    it('a ball bounces with the restitution of the larger combine mode (ball 0.9 on ground 0.1)', () => {
      // no gravity: the rebound speed is e·4 m/s for the combined e
      for (const [mode, e] of [['average', 0.5], ['min', 0.1], ['multiply', 0.09], ['max', 0.9]]) {
        const w = tribo.createWorld({ gravity: [0, 0, 0] });
        w.addBody({ type: 'static', shapes: [{ type: 'plane', restitution: 0.1 }] });
        const ball = w.addBody({
          position: [0, 0.6, 0], linearVelocity: [0, -4, 0],
          shapes: [{ type: 'sphere', radius: 0.5, restitution: 0.9, material: { restitutionCombine: mode } }],
        });
        w.step(20);
        near(assert, w.getLinearVelocity(ball)[1], 4 * e, 0.03 * 4 * e, `${mode}: rebound speed`);
        w.free();
      }
    });

    it('shapesOf lists a body\'s shapes in order; each gets its own material', () => {
      const w = tribo.createWorld();
      const b = w.addBody({
        shapes: [
          { type: 'sphere', radius: 0.2, friction: 0.3 },
          { type: 'box', halfExtents: [0.1, 0.1, 0.1], position: [0, 0.5, 0], material: { ke: 4000, torsionalFriction: 0.02 } },
          { type: 'capsule', radius: 0.1, halfHeight: 0.2, restitution: 0.5, material: { restitution: 0.25 } },
        ],
      });
      const ids = w.shapesOf(b);
      assert.equal(ids.length, 3);
      assert.equal(new Set(ids).size, 3);
      const [a, box, cap] = ids.map((id) => w.getMaterial(id));
      assert.equal(a.staticFriction, f32(0.3));
      assert.equal(a.dynamicFriction, f32(0.3));
      assert.equal(box.ke, 4000);
      assert.equal(box.torsionalFriction, f32(0.02));
      assert.equal(box.kd, 0, 'kd unset (0): the Newton kd of the world applies');
      assert.equal(cap.restitution, 0.25, 'material fields win over the shorthand');
      assert.deepEqual(w.shapesOf(w.addBody({})), []);
      w.free();
    });

    it('rejects bad materials with messages naming the field; the shape keeps its material', () => {
      const w = tribo.createWorld();
      const b = w.addBody({ shapes: [{ type: 'sphere', radius: 0.5, friction: 0.3 }] });
      const [s] = w.shapesOf(b);
      const before = w.getMaterial(s);
      const cases = [
        [() => w.setMaterial(s, { staticFriction: -1 }), RangeError, /setMaterial: material\.staticFriction must be finite and >= 0 \(got -1\)/],
        [() => w.setMaterial(s, { dynamicFriction: NaN }), RangeError, /material\.dynamicFriction must be finite and >= 0 \(got nan\)/],
        [() => w.setMaterial(s, { restitution: 1.5 }), RangeError, /material\.restitution must be finite and in \[0, 1\] \(got 1\.5\)/],
        [() => w.setMaterial(s, { compliant: { stiffness: -3 } }), RangeError, /material\.compliant\.stiffness must be finite and >= 0 \(got -3\)/],
        [() => w.setMaterial(s, { compliant: { damping: Infinity } }), RangeError, /material\.compliant\.damping must be finite and >= 0 \(got inf\)/],
        [() => w.setMaterial(s, { ka: -0.1 }), RangeError, /material\.ka must be finite and >= 0 \(got -0\.1\)/],
        [() => w.setMaterial(s, { frictionCombine: 'avg' }), RangeError, /material\.frictionCombine must be one of 'average', 'min', 'multiply', 'max' \(got "avg"\)/],
        [() => w.setMaterial(s, { disableFriction: 1 }), TypeError, /material\.disableFriction must be true or false \(got 1\)/],
        [() => w.setMaterial(s, { ke: '5' }), TypeError, /material\.ke must be a number \(got "5"\)/],
        [() => w.setMaterial(s, { mu: 1 }), RangeError, /unknown option mu/],
        [() => w.setMaterial(s, { compliant: { k: 1 } }), RangeError, /material\.compliant: unknown option k/],
        [() => w.setMaterial(s, null), TypeError, /setMaterial: material must be an object \(got null\)/],
        [() => w.setMaterial(987654, { ke: 1 }), RangeError, /setMaterial: shapeId: shape 987654 does not exist/],
        [() => w.getMaterial(987654), RangeError, /getMaterial: shapeId: shape 987654 does not exist/],
        [() => w.shapesOf(987654), RangeError, /shapesOf: bodyId: body 987654 does not exist/],
        [() => w.addBody({ shapes: [{ type: 'sphere', radius: 1, material: { kd: -2 } }] }), RangeError, /addBody: shapes\[0\]\.material\.kd must be finite and >= 0 \(got -2\)/],
        [() => w.setOptions({ combineRule: 'newton' }), RangeError, /setOptions: combineRule must be one of "physx", "mean", "vbd", "kamino", "mujoco" \(got "newton"\)/],
        [() => w.setOptions({ combineRule: 'kamino', kaminoCombine: { restitution: 'least' } }), RangeError, /kaminoCombine\.restitution must be one of/],
        [() => tribo.createWorld({ combineRule: 'max' }), RangeError, /createWorld: combineRule must be one of/],
      ];
      for (const [fn, type, pattern] of cases) {
        assert.throws(fn, (e) => e instanceof type && pattern.test(e.message), `expected ${type.name} matching ${pattern}`);
      }
      // a multi-field update that fails on one field changes nothing
      assert.throws(() => w.setMaterial(s, { staticFriction: 0.9, kf: -1 }), /kf/);
      assert.deepEqual(w.getMaterial(s), before);
      assert.equal(w.options.combineRule, 'physx');
      w.step(2);
      w.free();
    });
  });
}

describe('materials in a worker', () => {
  it('setMaterial / shapesOf / setOptions reach the worker; frames carry the combined values', async () => {
    const sim = await (await engine('simd')).createWorkerWorld({ combineRule: 'physx' });
    try {
      await sim.addBody({ type: 'static', shapes: [{ type: 'plane', friction: 0.9 }] });
      const ball = await sim.addBody({ position: [0, 0.49, 0], shapes: [{ type: 'sphere', radius: 0.5 }] });
      const [s] = await sim.shapesOf(ball);
      await sim.setMaterial(s, { staticFriction: 0.05, dynamicFriction: 0.05, frictionCombine: 'min' });
      assert.equal((await sim.getMaterial(s)).frictionCombine, 'min');
      let frame = await sim.collide();
      assert.equal(frame.contacts.dynamicFriction[0], f32(0.05));
      await sim.setOptions({ combineRule: 'mean' });
      assert.equal((await sim.options).combineRule, 'mean');
      frame = await sim.collide();
      near(assert, frame.contacts.dynamicFriction[0], 0.475, 1e-6, 'mean in the worker');
      await assert.rejects(sim.setMaterial(s, { restitution: 2 }), /setMaterial: material\.restitution must be finite and in \[0, 1\] \(got 2\)/);
    } finally {
      await sim.free();
    }
  });
});
