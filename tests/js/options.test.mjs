// Presets and axis options: set at creation and between steps, read back by name, rejected with
// errors that name the option, and never half-applied.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { BUILDS, engine } from './helpers.mjs';

for (const build of BUILDS) {
  describe(`options (${build} build)`, () => {
    let tribo;
    before(async () => { tribo = await engine(build); });

    it('the physx-tgs preset sets the PhysX axes, and each axis can be overridden at creation', () => {
      const w = tribo.createWorld({ preset: 'physx-tgs', broadPhase: 'all-pairs', maxPointsPerPair: 2, positionIterations: 6 });
      const o = w.options;
      assert.equal(o.solver, 'tgs');
      assert.equal(o.combineRule, 'physx');
      assert.equal(o.readback, 'physx');
      assert.equal(o.filterRule, 'physx');
      assert.equal(o.distanceRule, 'physx');
      assert.equal(o.broadPhase, 'all-pairs');
      assert.equal(o.matching, 'latest');
      assert.equal(o.maxPointsPerPair, 2);
      assert.equal(o.positionIterations, 6);
      assert.deepEqual(o.gravity.map((g) => Math.fround(g)), [0, Math.fround(-9.81), 0]);
      w.free();
    });

    it('xpbdSubsteps: 10 by default (Newton\'s examples), the readback sums the substeps; bad values name the option', () => {
      const w = tribo.createWorld({ preset: 'newton-xpbd' });
      assert.equal(w.options.xpbdSubsteps, 10);
      w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      const m = 3, r = 0.1;
      w.addBody({ position: [0, r, 0], shapes: [{ type: 'sphere', radius: r, density: m / (4 / 3 * Math.PI * r ** 3) }] });
      w.step(120);
      assert.equal(w.readbackInfo.substeps, 10);
      const pn = w.contacts.normalImpulse[0];
      assert.ok(Math.abs(pn / w.timestep - m * 9.81) < 0.005 * m * 9.81, `Σ normal impulse / h = ${pn / w.timestep} N, m·g = ${m * 9.81} N`);
      for (const v of [0, 1025, 1.5, NaN, 2 ** 32 + 4]) {
        assert.throws(() => tribo.createWorld({ preset: 'newton-xpbd', xpbdSubsteps: v }), (e) => (e instanceof RangeError || e instanceof TypeError) && /xpbdSubsteps/.test(e.message), `xpbdSubsteps: ${v}`);
      }
      assert.throws(() => w.setOptions({ xpbdSubsteps: '4' }), (e) => (e instanceof RangeError || e instanceof TypeError) && /xpbdSubsteps/.test(e.message));
      assert.equal(w.options.xpbdSubsteps, 10);
      w.free();
    });

    it('setOptions changes axes between steps; a bad value names the option and changes nothing', () => {
      const w = tribo.createWorld();
      w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      const b = w.addBody({ position: [0, 0.5, 0], shapes: [{ type: 'sphere', radius: 0.5 }] });
      w.step();
      w.setOptions({ broadPhase: 'all-pairs', matching: 'sticky', velocityIterations: 3 });
      assert.equal(w.options.broadPhase, 'all-pairs');
      assert.equal(w.options.matching, 'sticky');
      assert.equal(w.options.velocityIterations, 3);
      const before = w.options;
      assert.throws(() => w.setOptions({ filterRule: 'bullet' }), { name: 'RangeError', message: /setOptions: filterRule must be one of "newton", "mujoco", "physx", "genesis" \(got "bullet"\)/ });
      // collision part valid, solver part invalid: neither is applied
      assert.throws(() => w.setOptions({ broadPhase: 'sap', positionIterations: 0 }), { name: 'RangeError', message: /positionIterations must be in \[1, 64\] \(got 0\)/ });
      assert.deepEqual(w.options, before);
      assert.throws(() => w.setOptions({ maxPointsPerPair: 5 }), { message: /maxPointsPerPair must be in \[1, 4\] \(got 5\)/ });
      assert.throws(() => w.setOptions({ timestep: 0.1 }), { name: 'RangeError', message: /unknown option timestep/ });
      w.step();
      assert.ok(w.getPosition(b)[1] > 0.45, 'the world keeps working');
      w.free();
    });

    it('maxDepenetrationVelocity: null is no cap (the default, read back as null), a number caps the push-out speed', () => {
      /* a sphere started 0.2 m deep in the floor: one PGS step removes the bias share 0.8 of the
       * depth without a cap (0.16 m), at most cap·h = 0.05 m with 3 m/s */
      const rise = (w) => {
        const b = w.addBody({ position: [0, 0.3, 0], shapes: [{ type: 'sphere', radius: 0.5 }] });
        w.step();
        const y = w.getPosition(b)[1] - 0.3;
        w.removeBody(b);
        return y;
      };
      const w = tribo.createWorld({ preset: 'physx-pgs' });
      w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      assert.equal(w.options.maxDepenetrationVelocity, null);
      assert.ok(Math.abs(rise(w) - 0.16) < 2e-3, 'uncapped: 0.8 of 0.2 m');
      w.setOptions({ maxDepenetrationVelocity: 3 });
      assert.equal(w.options.maxDepenetrationVelocity, 3);
      assert.ok(Math.abs(rise(w) - 3 * w.timestep) < 2e-3, 'capped at 3 m/s: 3·h');
      w.setOptions({ maxDepenetrationVelocity: null });
      assert.equal(w.options.maxDepenetrationVelocity, null);
      assert.ok(Math.abs(rise(w) - 0.16) < 2e-3, 'null: no cap again');
      const c = tribo.createWorld({ preset: 'physx-tgs', maxDepenetrationVelocity: 2 });
      assert.equal(c.options.maxDepenetrationVelocity, 2);
      assert.equal(tribo.createWorld({ maxDepenetrationVelocity: null }).options.maxDepenetrationVelocity, null);
      for (const bad of [0, -1, NaN, Infinity]) {
        assert.throws(() => w.setOptions({ maxDepenetrationVelocity: bad }),
          (e) => e instanceof RangeError && /^setOptions: maxDepenetrationVelocity must be/.test(e.message), String(bad));
        assert.throws(() => tribo.createWorld({ maxDepenetrationVelocity: bad }),
          (e) => e instanceof RangeError && /^createWorld: maxDepenetrationVelocity must be/.test(e.message), String(bad));
      }
      assert.throws(() => w.setOptions({ maxDepenetrationVelocity: '3' }), { name: 'TypeError', message: /maxDepenetrationVelocity must be a number/ });
      assert.equal(w.options.maxDepenetrationVelocity, null, 'a refused value changes nothing');
      w.free(); c.free();
    });

    it('setPreset switches the axes back to the preset and rejects unavailable presets by name', () => {
      const w = tribo.createWorld({ broadPhase: 'all-pairs', filterRule: 'newton' });
      w.setPreset('physx-tgs');
      assert.equal(w.options.broadPhase, 'sap');
      assert.equal(w.options.filterRule, 'physx');
      assert.throws(() => w.setPreset('bullet'), { name: 'RangeError', message: /setPreset: preset "bullet" is not available in this version \(available: / });
      assert.throws(() => tribo.createWorld({ solver: 'rk4' }), { message: /createWorld: solver must be one of "pgs", "tgs", "xpbd", "penalty", "mujoco", "kamino" \(got "rk4"\)/ });
      w.free();
    });
  });
}
