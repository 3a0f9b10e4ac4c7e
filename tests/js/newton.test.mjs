// Newton presets (XPBD and penalty) through the JS API, on both WebAssembly builds.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { BUILDS, engine, sphereDensity, axisAngle, near } from './helpers.mjs';

const G = 9.81;

for (const build of BUILDS) {
  describe(`newton presets (${build} build)`, () => {
    let tribo;
    before(async () => { tribo = await engine(build); });

    function restingSphere(preset, options = {}) {
      const w = tribo.createWorld({ preset, timestep: 1 / 60, ...options });
      w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      const r = 0.25;
      const ball = w.addBody({ position: [0, r, 0], shapes: [{ type: 'sphere', radius: r, density: sphereDensity(3, r) }] });
      return { w, ball };
    }

    it('newton-xpbd: a 3 kg sphere at rest reports m·g per contact (Newton wrench) and per body', () => {
      const { w, ball } = restingSphere('newton-xpbd');
      w.step(240);
      const c = w.contacts;
      const mg = 3 * G;
      assert.equal(c.count, 1);
      near(assert, c.force[1], mg, 0.005 * mg, 'force on body1 (the sphere), N');
      near(assert, c.wrench[1], -mg, 0.005 * mg, 'wrench by body1 on body0 (the ground), N');
      near(assert, c.normalImpulse[0] / w.timestep, mg, 0.005 * mg, 'normal impulse / h');
      near(assert, c.readbackScale[0], 1, 0, 'one contact against a static body: 1/N = 1');
      near(assert, w.netContactWrench(ball).force[1], mg, 0.005 * mg, 'per-body contact force');
      const info = w.readbackInfo;
      assert.equal(info.perContactForce, true);
      assert.match(info.excludes.join(' '), /restitution/);
      w.free();
    });

    it("newton-xpbd: a resting box's four contacts sum to m·g with no torque about its centre", () => {
      const w = tribo.createWorld({ preset: 'newton-xpbd', timestep: 1 / 60 });
      w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      const box = w.addBody({ position: [0, 0.1, 0], shapes: [{ type: 'box', halfExtents: [0.3, 0.1, 0.2], density: 500 }] });
      w.step(240);
      const mg = w.getMass(box).mass * G;
      const c = w.contacts;
      assert.equal(c.count, 4);
      let fy = 0;
      for (let i = 0; i < 4; i++) {
        fy += c.force[3 * i + 1];
        near(assert, c.readbackScale[i], 0.25, 1e-7, 'scale 1/N with N = 4');
      }
      near(assert, fy, mg, 0.005 * mg, 'sum of the contact forces');
      const wr = w.netContactWrench(box);
      near(assert, wr.force[1], mg, 0.005 * mg, 'per-body force');
      for (const k of [0, 1, 2]) near(assert, wr.torque[k], 0, 0.002 * mg * 0.3, `torque about the COM [${k}]`);
      w.free();
    });

    it('newton-xpbd: the restitution pass reverses the ball but is not in the readback', () => {
      const run = (restitution) => {
        // the 3 m/s approach from 0.01 m is caught by the speculative widening (off by default);
        // one collide and solve per step: the pass of one solve over h
        const w = tribo.createWorld({ preset: 'newton-xpbd', timestep: 1 / 60, restitution, speculativeWidening: true, xpbdSubsteps: 1 });
        w.addBody({ type: 'static', shapes: [{ type: 'plane', restitution: 0.6 }] });
        const b = w.addBody({
          position: [0, 0.11, 0], linearVelocity: [0, -3, 0],
          shapes: [{ type: 'sphere', radius: 0.1, density: sphereDensity(1, 0.1), restitution: 0.4 }],
        });
        w.step();
        const out = { v: w.getLinearVelocity(b)[1], pn: w.contacts.normalImpulse[0], m: w.getMass(b).mass };
        w.free();
        return out;
      };
      const on = run(true), off = run(false);
      const vold = -(3 + G / 60);
      near(assert, on.v, -0.5 * vold, 1e-3, 'leaves at e·|v_old| with e = mean(0.6, 0.4)');
      near(assert, on.pn, off.pn, 1e-6 * off.pn, 'same readback with and without the pass');
      near(assert, off.m * (off.v + 3 + G / 60), off.pn, 1e-3 * off.pn, 'readback = position-pass momentum change');
      assert.ok(on.m * (on.v - off.v) > 0.5, 'the pass added an impulse that the readback leaves out');
    });

    it('newton-semi: per-body force m·g, per-contact fields NaN and flagged unavailable', () => {
      const { w, ball } = restingSphere('newton-semi', { ke: 1e4, kd: 150 });
      w.step(180);
      const mg = 3 * G;
      near(assert, w.netContactWrench(ball).force[1], mg, 0.005 * mg, 'per-body contact force (N)');
      const c = w.contacts;
      assert.ok(Number.isNaN(c.normalImpulse[0]) && Number.isNaN(c.force[1]) && Number.isNaN(c.wrench[1]));
      assert.equal(w.readbackInfo.perContactForce, false);
      assert.match(w.readbackInfo.force, /not available/);
      // the solver's totals cannot be split: a counterpart filter or excludeSelf is refused by name
      assert.throws(() => w.netContactWrench(ball, { with: 'static' }), /not available: .*\bwith\b/);
      assert.throws(() => w.netContactWrench(ball, { excludeSelf: true }), /not available: .*excludeSelf/);
      near(assert, w.netContactWrench(ball, { excludeSelf: false }).force[1], mg, 0.005 * mg, 'the flag off: the totals');
      w.free();
    });

    it('newton-semi: a_n = ke·d + kd·min(v_n, 0), and a contact override replaces ke for one solve', () => {
      const w = tribo.createWorld({ preset: 'newton-semi', timestep: 1e-3, gravity: [0, 0, 0], ke: 2000, kd: 50, penaltySubsteps: 1 });
      w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      const b = w.addBody({ position: [0, 0.19, 0], linearVelocity: [0, -0.5, 0], shapes: [{ type: 'sphere', radius: 0.2 }] });
      w.collide();
      w.solve();
      near(assert, w.netContactWrench(b).force[1], 2000 * 0.01 + 50 * 0.5, 0.05, 'force on the sphere (N)');
      w.setPose(b, [0, 0.19, 0]);
      w.setVelocity(b, [0, -0.5, 0]);
      w.collide();
      w.setContactOverride(0, { stiffness: 5000 });
      assert.equal(w.contacts.overrideStiffness[0], 5000);
      w.solve();
      near(assert, w.netContactWrench(b).force[1], 5000 * 0.01 + 50 * 0.5, 0.05, 'stiffness override (N)');
      assert.throws(() => w.setContactOverride(0, { damping: -1 }), /damping must be finite and >= 0 \(0 = unset\) \(got -1\)/);
      w.free();
    });

    it('newton-xpbd in a worker: the same readback and per-body wrench', async () => {
      const sim = await tribo.createWorkerWorld({ preset: 'newton-xpbd', timestep: 1 / 60 });
      await sim.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      const ball = await sim.addBody({ position: [0, 0.25, 0], shapes: [{ type: 'sphere', radius: 0.25, density: sphereDensity(3, 0.25) }] });
      const frame = await sim.step(240);
      const mg = 3 * G;
      near(assert, frame.contacts.wrench[1], -mg, 0.005 * mg, 'wrench by the ball on the ground (N)');
      near(assert, (await sim.netContactWrench(ball)).force[1], mg, 0.005 * mg, 'per-body force (N)');
      assert.equal((await sim.options).iterations, 2);
      await sim.free();
    });

    // A 1 kg solid sphere (r = 0.1 m, I = 0.4·m·r²) on the ground, angular damping 0, with the
    // Newton torsional / rolling friction (m) given per shape; the mean rule combines them.
    function spinScene(preset, ground, ball, options = {}) {
      const w = tribo.createWorld({ preset, timestep: 1 / 60, ...options });
      w.addBody({ type: 'static', shapes: [{ type: 'plane', friction: 0.5, material: ground }] });
      const r = 0.1;
      const b = w.addBody({
        position: [0, r, 0], angularDamping: 0, linearDamping: 0,
        shapes: [{ type: 'sphere', radius: r, density: sphereDensity(1, r), friction: 0.5, material: ball }],
      });
      w.step(60); // settle: the step's normal impulse reaches m·g·h
      return { w, b, r };
    }

    it('newton-xpbd: torsional friction spins a sphere down at μ_t·m·g/I, μ_t the mean of the shapes', () => {
      // the torsional row is limited to μ_t·p_n every iteration (the spin wants far more), so
      // I·Δω per step = μ_t·Σp_n = μ_t·m·g·h; μ_t = mean(0.002, 0.008) = 0.005 m:
      // α = 0.005·9.81/0.004 = 12.26 rad/s² (min would give 4.9, max 19.6)
      const run = (tg, tb) => {
        const { w, b, r } = spinScene('newton-xpbd', { torsionalFriction: tg, rollingFriction: 0 }, { torsionalFriction: tb, rollingFriction: 0 });
        w.setVelocity(b, [0, 0, 0], [0, 20, 0]);
        const I = 0.4 * w.getMass(b).mass * r * r;
        w.step();
        const pn = w.contacts.normalImpulse[0];
        const spin1 = w.getAngularVelocity(b)[1];
        w.step(59);
        const out = { spin: w.getAngularVelocity(b)[1], step: I * (20 - spin1), pn };
        w.free();
        return out;
      };
      const alpha = 0.005 * G / 0.004;
      const on = run(0.002, 0.008);
      near(assert, on.step, 0.005 * on.pn, 1e-3 * 0.005 * on.pn, 'angular impulse of the first step = μ_t·p_n (N·m·s)');
      near(assert, on.spin, 20 - alpha, 0.01 * alpha, 'spin after 1 s (rad/s)');
      near(assert, run(0, 0).spin, 20, 1e-4, 'no torsional friction: spin kept (rad/s)');
    });

    it('newton-xpbd: rolling friction decelerates a rolling sphere at μ_r·g/(1.4·r); without it the roll is kept', () => {
      // resistive torque μ_r·m·g about the contact point: (I + m·r²)·dω/dt = −μ_r·m·g;
      // μ_r = mean(0.001, 0.003) = 0.002 m, r = 0.1 m: a = 0.1401 m/s²
      const run = (rg, rb) => {
        const { w, b, r } = spinScene('newton-xpbd', { torsionalFriction: 0, rollingFriction: rg }, { torsionalFriction: 0, rollingFriction: rb });
        w.setVelocity(b, [0.5, 0, 0], [0, 0, -0.5 / r]);
        w.step(60);
        const out = { v: w.getLinearVelocity(b)[0], slip: w.getLinearVelocity(b)[0] + w.getAngularVelocity(b)[2] * r };
        w.free();
        return out;
      };
      const a = (0.002 * G) / (1.4 * 0.1);
      const on = run(0.001, 0.003);
      near(assert, on.v, 0.5 - a, 0.02 * a, 'speed after 1 s (m/s)');
      near(assert, on.slip, 0, 0.01 * on.v, 'still rolling: contact-point speed (m/s)');
      // without rolling friction only the finite-rotation error of the surface anchor is left
      near(assert, run(0, 0).v, 0.5, 5e-4, 'no rolling friction: speed kept (m/s)');
    });

    it('newton-semi: a rolling sphere keeps its speed (the normal force acts below its centre)', () => {
      const { w, b, r } = spinScene('newton-semi', {}, {}, { ke: 2e4, kd: 200, kf: 100, penaltySubsteps: 16 });
      w.setVelocity(b, [0.5, 0, 0], [0, 0, -0.5 / r]);
      w.step(60);
      near(assert, w.getLinearVelocity(b)[0], 0.5, 5e-4, 'speed after 1 s (m/s)');
      w.free();
    });

    it('newton-semi: a box on an incline below tanθ = μ creeps at m·g·sinθ/(4·kf)', () => {
      // f_t = v_t/s·min(kf·s, −μ·a_n), s = huber(v_t, δ): at low slip kf·s is the smaller term and
      // f_t = kf·v_t (s cancels); four contacts: 4·kf·v = m·g·sinθ. m = 16 kg, θ = 20°, μ = 0.5,
      // kf = 100 N·s/m: v = 0.134 m/s (kf·v²/2 = 0.9 N ≪ μ·|a_n| ≈ 18 N per contact)
      const th = (20 * Math.PI) / 180;
      const creep = (kf, frictionSmoothing) => {
        const w = tribo.createWorld({ preset: 'newton-semi', timestep: 1 / 60, ke: 2e4, kd: 400, kf, frictionSmoothing, penaltySubsteps: 16 });
        const n = [-Math.sin(th), Math.cos(th), 0];
        w.addBody({ type: 'static', shapes: [{ type: 'plane', normal: n, friction: 0.5 }] });
        const box = w.addBody({
          position: [0.1 * n[0], 0.1 * n[1], 0], rotation: axisAngle([0, 0, 1], th),
          shapes: [{ type: 'box', halfExtents: [0.2, 0.1, 0.2], density: 500, friction: 0.5 }],
        });
        w.step(180);
        const v = w.getLinearVelocity(box);
        assert.equal(w.contacts.count, 4);
        const out = -(v[0] * Math.cos(th) + v[1] * Math.sin(th));
        w.free();
        return out;
      };
      const vc = (16 * G * Math.sin(th)) / (4 * 100);
      near(assert, creep(100, 1), vc, 0.01 * vc, 'creep speed down the slope, δ = 1 m/s (m/s)');
      near(assert, creep(200, 1), vc / 2, 0.005 * vc, 'kf doubled: half the speed (m/s)');
      near(assert, creep(100, 0.05), vc, 0.01 * vc, 'δ = 0.05 m/s below the speed: same creep (m/s)');
    });

    it('Newton options are checked and named', () => {
      assert.throws(() => tribo.createWorld({ preset: 'newton-xpbd', iterations: 0 }), /iterations must be in \[1, 64\] \(got 0\)/);
      assert.throws(() => tribo.createWorld({ preset: 'newton-xpbd', relaxation: 2.5 }), /relaxation must be in \(0, 2\) \(got 2.5\)/);
      assert.throws(() => tribo.createWorld({ preset: 'newton-semi', ke: -5 }), /ke must be finite and > 0 \(got -5\)/);
      const w = tribo.createWorld({ preset: 'newton-xpbd', iterations: 4, contactWeighting: false });
      assert.equal(w.options.iterations, 4);
      assert.equal(w.options.contactWeighting, false);
      assert.throws(() => w.netContactWrench(123456), /does not exist/);
      w.free();
    });
  });
}
