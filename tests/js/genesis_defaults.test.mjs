// The genesis preset's solver defaults (Genesis RigidOptions and geom sol_params, docs/presets.md):
// tolerance 1e-6 and a primitive geom's time constant max(constraint_timeconst 0.01 s, 2·dt),
// against the mujoco preset's geom default 0.02 s. Shown on the resting depth of a sphere, which
// the soft-constraint steady state fixes: g·(1 − I(r)) / (I(r)²·K) = r with K = 1/(dmax²·tc²·dr²).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { BUILDS, engine } from './helpers.mjs';

const G = 9.81;
const SOLIMP = [0.9, 0.95, 0.001, 0.5, 2]; // dmin, dmax, width (m), mid, power: MuJoCo defaults

/** MuJoCo's impedance I(r) at penetration depth r (m). */
function impedance(r) {
  const [dmin, dmax, width, mid, power] = SOLIMP;
  const x = Math.abs(r) / width;
  if (x >= 1) return dmax;
  const y = x <= mid ? x ** power / mid ** (power - 1) : 1 - (1 - x) ** power / (1 - mid) ** (power - 1);
  return dmin + y * (dmax - dmin);
}

/** The resting depth (m) of one frictionless-equivalent row at time constant tc (s), damping ratio 1. */
function restingDepth(tc) {
  const K = 1 / (SOLIMP[1] ** 2 * tc ** 2);
  const f = (r) => (G * (1 - impedance(r))) / (impedance(r) ** 2 * K) - r;
  let lo = 0, hi = 0.01; // f(lo) > 0 > f(hi)
  for (let i = 0; i < 200; i++) { const m = 0.5 * (lo + hi); if (f(m) > 0) lo = m; else hi = m; }
  return 0.5 * (lo + hi);
}

/** Resting depth of a 1 kg sphere (friction 1, pyramidal) after 2 s at dt = 2 ms. */
function simulatedDepth(tribo, preset) {
  const w = tribo.createWorld({ preset, timestep: 0.002, sleep: 'off' });
  w.addBody({ type: 'static', shapes: [{ type: 'plane', friction: 1 }] });
  const ball = w.addBody({ position: [0, 0.1, 0], shapes: [{ type: 'sphere', radius: 0.1, friction: 1 }] });
  w.step(1000);
  let depth = 0;
  for (let i = 0; i < w.contacts.count; i++) depth = Math.max(depth, -w.contacts.separation[i]);
  const solref = w.getMaterial(w.shapesOf(ball)[0]).solref;
  w.free();
  return { depth, solref };
}

for (const build of BUILDS) {
  describe(`genesis solver defaults (${build} build)`, () => {
    let tribo;
    before(async () => { tribo = await engine(build); });

    it('options: tolerance 1e-6, defaultTimeconst 0.01 s (mujoco: 1e-8, 0.02 s), named RangeError', () => {
      const g = tribo.createWorld({ preset: 'genesis' });
      assert.ok(Math.abs(g.options.tolerance - 1e-6) < 1e-12, `genesis tolerance ${g.options.tolerance}`);
      assert.ok(Math.abs(g.options.defaultTimeconst - 0.01) < 1e-9);
      const m = tribo.createWorld({ preset: 'mujoco' });
      assert.ok(Math.abs(m.options.tolerance - 1e-8) < 1e-14);
      assert.ok(Math.abs(m.options.defaultTimeconst - 0.02) < 1e-9);
      assert.throws(() => tribo.createWorld({ preset: 'genesis', defaultTimeconst: 0 }),
        { name: 'RangeError', message: /^createWorld: defaultTimeconst must be finite and > 0 \(got 0\)/ });
      assert.throws(() => tribo.createWorld({ preset: 'genesis', defaultTimeconst: NaN }),
        { name: 'RangeError', message: /^createWorld: defaultTimeconst must be a number, not NaN \(got NaN\)/ });
      g.free(); m.free();
    });

    it('a resting sphere sinks to the soft-constraint depth of its preset time constant (±1%)', () => {
      for (const [preset, tc] of [['genesis', 0.01], ['mujoco', 0.02]]) {
        const { depth, solref } = simulatedDepth(tribo, preset);
        assert.ok(Math.abs(solref[0] - tc) < 1e-7, `${preset}: a new shape's solref[0] ${solref[0]}, expected ${tc}`);
        const expected = restingDepth(tc);
        assert.ok(Math.abs(depth - expected) <= 0.01 * expected, `${preset}: resting depth ${depth} m, closed form ${expected} m`);
      }
    });
  });
}
