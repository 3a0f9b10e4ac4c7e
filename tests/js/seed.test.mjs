// Seed conformance through the JS API: MuJoCo explicit pair parameters, Newton speculative
// options, solverStatus.converged where no solver defines it, the penalty friction refusal.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { BUILDS, engine } from './helpers.mjs';

for (const build of BUILDS) {
  describe(`seed conformance (${build} build)`, () => {
    let tribo;
    before(async () => { tribo = await engine(build); });

    it('an explicit pair carries five friction numbers, condim, solref, solreffriction, solimp, adhesion', () => {
      const w = tribo.createWorld({ combineRule: 'mujoco', filterRule: 'mujoco', distanceRule: 'mujoco' });
      const g = w.addBody({ type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0] }] });
      const b = w.addBody({ position: [0, 0.099, 0], shapes: [{ type: 'box', halfExtents: [0.1, 0.1, 0.1] }] });
      const [sg, sb] = [w.shapeIds(g)[0], w.shapeIds(b)[0]];
      const friction = [0.3, 0.7, 0.01, 0.002, 0.003];
      w.setContactPair(sg, sb, { friction, condim: 6, solref: [0.05, 0.8], solreffriction: [0.03, 1.2],
        solimp: [0.8, 0.9, 0.002, 0.4, 3], adhesion: 2 });
      w.collide();
      const c = w.contacts;
      assert.equal(c.count, 4);
      for (let i = 0; i < 5; i++) assert.ok(Math.abs(c.friction[i] - friction[i]) < 1e-7, `friction[${i}]`);
      assert.equal(c.condim[0], 6);
      assert.ok(Math.abs(c.solrefFriction[0] - 0.03) < 1e-7 && Math.abs(c.solrefFriction[1] - 1.2) < 1e-6);
      assert.ok(Math.abs(c.solref[0] - 0.05) < 1e-7 && Math.abs(c.solimp[4] - 3) < 1e-7 && c.adhesion[0] === 2);
      // validation names the field; the previous pair stays
      assert.throws(() => w.setContactPair(sg, sb, { condim: 2 }), /setContactPair: condim must be 1, 3, 4 or 6 \(got 2\)/);
      assert.throws(() => w.setContactPair(sg, sb, { condim: 3.5 }), /setContactPair: condim must be an integer/);
      assert.throws(() => w.setContactPair(sg, sb, { solimp: [1.5, 0.95, 0.001, 0.5, 2] }), /setContactPair: solimp\[0\] must be in \(0, 1\) \(got 1.5\)/);
      assert.throws(() => w.setContactPair(sg, sb, { adhesion: -1 }), /setContactPair: adhesion must be finite and >= 0/);
      assert.throws(() => w.setContactPair(sg, sb, { solreffriction: [0, 0, 0] }), /solreffriction/);
      assert.throws(() => w.setContactPair(sg, sb, { sol: 1 }), /sol/);
      w.collide();
      assert.equal(w.contacts.condim[0], 6);
      w.free();
    });

    it('Newton presets keep a contact only when d <= gap0 + gap1 unless widening is on', () => {
      const count = (options, gap, speed) => {
        const w = tribo.createWorld({ preset: 'newton-xpbd', ...options });
        w.addBody({ type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0] }] });
        w.addBody({ position: [0, 0.1 + gap, 0], linearVelocity: [0, -speed, 0], shapes: [{ type: 'sphere', radius: 0.1 }] });
        w.collide();
        const n = w.contacts.count;
        w.free();
        return n;
      };
      assert.equal(count({}, 0.005, 0), 0);
      assert.equal(count({}, 0.04, 3), 0);
      // one collide per step: |Δv|·h = 0.05 m
      assert.equal(count({ speculativeWidening: true, xpbdSubsteps: 1 }, 0.04, 3), 1);
      assert.equal(count({ speculativeWidening: true, xpbdSubsteps: 1, maxSpeculativeExtension: 0.03 }, 0.04, 3), 0);
      // the default 10 substeps collide every h/10: |Δv|·h/10 = 5 mm
      assert.equal(count({ speculativeWidening: true }, 0.004, 3), 1);
      assert.equal(count({ speculativeWidening: true }, 0.006, 3), 0);
      assert.equal(count({ constantGap: 0.02 }, 0.015, 0), 1);
      assert.throws(() => tribo.createWorld({ constantGap: -1 }), /constantGap must be finite and >= 0/);
      assert.throws(() => tribo.createWorld({ speculativeWidening: 1 }), TypeError);
    });

    it('solverStatus.converged is null where the solver has no tolerance', () => {
      for (const preset of ['physx-pgs', 'physx-tgs', 'newton-xpbd', 'newton-semi']) {
        const w = tribo.createWorld({ preset });
        w.addBody({ type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0] }] });
        // 2.1 kg: at the default density (524 kg) newton-semi refuses the sphere, which would sink
        // m·g/ke = 2 m into its springs, deeper than its radius
        w.addBody({ position: [0, 0.5, 0], shapes: [{ type: 'sphere', radius: 0.5, density: 4 }] });
        w.step();
        const st = w.solverStatus;
        assert.equal(st.convergenceDefined, false, preset);
        assert.equal(st.converged, null, preset);
        w.free();
      }
    });

    it('penalty: unstable explicit viscous friction is refused before the step', () => {
      // 1 kg box, 4 contacts: (h/8)·4kf/m = 8.3 > 2 at the defaults; 64 substeps: 1.04
      const make = (penaltySubsteps) => {
        const w = tribo.createWorld({ preset: 'newton-semi', penaltySubsteps });
        w.addBody({ type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0] }] });
        const b = w.addBody({ position: [0, 0.099, 0], shapes: [{ type: 'box', halfExtents: [0.1, 0.1, 0.1], density: 125 }] });
        return { w, b };
      };
      const { w, b } = make(8);
      const before = w.getPosition(b, new Float64Array(3))[1];
      assert.throws(() => w.step(), /penalty friction unstable .* > 2 .*penaltySubsteps\) to >= 34/);
      assert.equal(w.getPosition(b, new Float64Array(3))[1], before, 'the world is unchanged');
      w.free();
      const ok = make(64);
      ok.w.step(10);
      ok.w.free();
    });

    it('penalty: an unstable normal spring is refused before the step', () => {
      // 1 kg box 0.1 mm deep, 4 rows of ke 1e6 N/m at hs = 1/480 s: hs²·Σke/m + 2·hs·Σkd/m = 17.4 + 1.67 > 4
      const make = (penaltySubsteps) => {
        const w = tribo.createWorld({ preset: 'newton-semi', ke: 1e6, kd: 100, kf: 0, penaltySubsteps });
        w.addBody({ type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0] }] });
        const b = w.addBody({ position: [0, 0.0999, 0], shapes: [{ type: 'box', halfExtents: [0.1, 0.1, 0.1], density: 125 }] });
        return { w, b };
      };
      const { w, b } = make(8);
      const before = w.getPosition(b, new Float64Array(3))[1];
      assert.throws(() => w.step(), /penalty normal spring unstable for body \d+: .* = 19\.\d+ > 4.*penaltySubsteps\) to >= 19/);
      assert.equal(w.getPosition(b, new Float64Array(3))[1], before, 'the world is unchanged');
      w.free();
      // the bound is sharp: 18 substeps give 3.43 + 0.74 = 4.17 > 4, 19 give 3.08 + 0.70 = 3.78
      const at18 = make(18);
      assert.throws(() => at18.w.step(), /= 4\.1\d+ > 4/);
      at18.w.free();
      const at19 = make(19);
      at19.w.step();
      assert.ok(Number.isFinite(at19.w.getPosition(at19.b)[1]), 'the step at 19 substeps is taken');
      at19.w.free();
    });

    it('penalty: a body too heavy for its springs is refused in its first step, before it lands', () => {
      // the long-run pile's sphere: r 0.45 m, density 500 (191 kg) rests m·g/ke = 0.75 m deep on one
      // row of the default ke = 2500 N/m, beyond its radius; m·g/r = 4161 N/m would hold it
      const make = (options) => {
        const w = tribo.createWorld({ preset: 'newton-semi', ...options });
        w.addBody({ type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0] }] });
        const b = w.addBody({ position: [0, 3, 0], shapes: [{ type: 'sphere', radius: 0.45, density: 500 }] });
        return { w, b };
      };
      const { w, b } = make({});
      assert.throws(() => w.step(), /penalty spring too soft for body \d+: .* = 0\.749 m deep at rest > its half size 0\.45 m.*raise ke \(solver\.newton\.ke, JS ke\) to >= 416\d N\/m/);
      assert.equal(w.getPosition(b, new Float64Array(3))[1], 3, 'the world is unchanged');
      w.free();
      const ok = make({ ke: 4200 });
      ok.w.step(10);
      assert.ok(ok.w.getPosition(ok.b)[1] < 3, 'at ke 4200 N/m it falls');
      ok.w.free();
    });
  });
}
