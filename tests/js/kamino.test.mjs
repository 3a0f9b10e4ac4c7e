// The `kamino` preset (Newton Kamino PADMM) through the JS API, on both WebAssembly builds and in a worker.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { BUILDS, engine, near } from './helpers.mjs';

const G = 9.81;
const H = 1 / 60;

for (const build of BUILDS) {
  describe(`kamino preset (${build} build)`, () => {
    let tribo;
    before(async () => { tribo = await engine(build); });

    // a 2 kg unit cube resting on the ground (density 2 kg/m³ over 1 m³)
    function restingBox(options = {}) {
      const w = tribo.createWorld({ preset: 'kamino', timestep: H, ...options });
      w.addBody({ type: 'static', shapes: [{ type: 'plane', friction: 0.5 }] });
      const box = w.addBody({ position: [0, 0.5, 0], shapes: [{ type: 'box', halfExtents: [0.5, 0.5, 0.5], density: 2, friction: 0.5 }] });
      return { w, box };
    }

    it('a resting box converges below 1e-6 and reports m·g (contacts, wrench, per body)', () => {
      const { w, box } = restingBox();
      w.step(60);
      const s = w.solverStatus;
      assert.equal(s.solver, 'kamino');
      assert.equal(s.converged, true);
      assert.ok(s.positionIterations >= 2 && s.positionIterations <= 200, `iterations ${s.positionIterations}`);
      for (const k of ['residualPrimal', 'residualDual', 'residualComplementarity']) {
        assert.ok(s[k] >= 0 && s[k] <= 1e-6, `${k} = ${s[k]}`);
      }
      const c = w.contacts;
      const mg = 2 * G;
      let fy = 0, wy = 0, deepest = 0;
      for (let i = 0; i < c.count; i++) {
        fy += c.force[3 * i + 1];
        wy += c.wrench[6 * i + 1];
        deepest = Math.max(deepest, -c.distance[i]);
        near(assert, c.normalImpulse[i] / w.timestep, c.force[3 * i + 1], 1e-4, 'normal impulse / h = force (flat ground)');
      }
      // bias γ·pen/h² per unit mass and the velocity residual r_d/h (C test derives the same bound)
      const tol = 2 * (0.01 * deepest / (H * H) + s.residualDual / H) + 1e-5 * mg;
      near(assert, fy, mg, tol, 'ground force on the box (N)');
      near(assert, wy, -mg, tol, 'wrench on the ground by the box (N)');
      near(assert, w.netContactWrench(box).force[1], mg, tol, 'per-body force (N)');
      const info = w.readbackInfo;
      assert.equal(info.preset, 'kamino');
      assert.match(info.force, /Kamino conversion/);
      assert.equal(info.perContactForce, true);
      w.free();
    });

    it('maxIterations 3: not converged, residuals reported above the tolerance', () => {
      const { w } = restingBox({ maxIterations: 3 });
      w.step();
      const s = w.solverStatus;
      assert.equal(s.converged, false);
      assert.equal(s.positionIterations, 3);
      assert.ok([s.residualPrimal, s.residualDual, s.residualComplementarity].every(Number.isFinite));
      assert.ok(Math.max(s.residualPrimal, s.residualDual, s.residualComplementarity) > 1e-6);
      assert.equal(w.options.maxIterations, 3);
      w.setOptions({ maxIterations: 200 });
      w.step(30);
      assert.equal(w.solverStatus.converged, true);
      w.setPreset('newton-xpbd');
      w.step();
      assert.ok(Number.isNaN(w.solverStatus.residualPrimal), 'other solvers: NaN');
      w.free();
    });

    it('options are checked and named; resetSolver gives a cold start', () => {
      assert.throws(() => tribo.createWorld({ preset: 'kamino', dualTolerance: 0 }), (e) => e instanceof RangeError && /dualTolerance must be finite and > 0 \(got 0\)/.test(e.message));
      assert.throws(() => tribo.createWorld({ preset: 'kamino', warmStartScale: 2 }), /warmStartScale must be in \[0, 1\]/);
      assert.throws(() => tribo.createWorld({ solver: 'rk4' }), (e) => e instanceof RangeError && /solver must be one of .*"kamino"/.test(e.message));
      const { w } = restingBox();
      w.step(20);
      w.resetSolver();
      w.step();
      const reset = w.solverStatus.positionIterations;
      const { w: cold } = restingBox();
      cold.step(20);
      cold.setOptions({ kaminoWarmStart: false });
      cold.step();
      assert.equal(reset, cold.solverStatus.positionIterations, 'a reset step is a cold step');
      assert.deepEqual(Array.from(w.bodies.transform), Array.from(cold.bodies.transform));
      w.free();
      cold.free();
    });

    it('in a worker: the same status and readback', async () => {
      const sim = await tribo.createWorkerWorld({ preset: 'kamino', timestep: H });
      await sim.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      const box = await sim.addBody({ position: [0, 0.5, 0], shapes: [{ type: 'box', halfExtents: [0.5, 0.5, 0.5], density: 2 }] });
      const frame = await sim.step(60);
      const s = await sim.solverStatus;
      assert.equal(s.converged, true);
      assert.ok(s.residualDual <= 1e-6);
      let fy = 0;
      for (let i = 0; i < frame.contacts.count; i++) fy += frame.contacts.force[3 * i + 1];
      near(assert, fy, 2 * G, 1e-3 * 2 * G, 'ground force (N)');
      near(assert, (await sim.netContactWrench(box)).force[1], 2 * G, 1e-3 * 2 * G, 'per-body force (N)');
      await sim.resetSolver();
      await sim.free();
    });
  });
}

describe('kamino preset: builds and threads agree', () => {
  it('simd and threads builds, 1 and 3 threads: bitwise identical poses', async () => {
    const run = async (build, threads) => {
      const tribo = await engine(build);
      const w = tribo.createWorld({ preset: 'kamino', timestep: H, threads });
      w.addBody({ type: 'static', shapes: [{ type: 'plane', friction: 0.6 }] });
      for (let r = 0; r < 3; r++) {
        for (let k = 0; k < 3 - r; k++) {
          w.addBody({ position: [k - (2 - r) * 0.5, 0.5 + r, 0], shapes: [{ type: 'box', halfExtents: [0.5, 0.5, 0.5], density: 1, friction: 0.6 }] });
        }
      }
      w.step(40);
      const t = Array.from(w.bodies.transform);
      w.free();
      return t;
    };
    const a = await run('threads', 1);
    assert.deepEqual(await run('threads', 3), a);
    assert.deepEqual(await run('simd', 1), a);
  });
});
