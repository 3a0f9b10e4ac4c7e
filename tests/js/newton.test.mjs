// Newton presets (XPBD and penalty) through the JS API, on both WebAssembly builds.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { BUILDS, engine, sphereDensity, near } from './helpers.mjs';

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
        const w = tribo.createWorld({ preset: 'newton-xpbd', timestep: 1 / 60, restitution });
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
