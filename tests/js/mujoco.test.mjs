// The `mujoco` preset through the JS API: options, the MuJoCo-convention readback, status, both
// builds and a worker world.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { engine, sphereDensity, near } from './helpers.mjs';

/* resting penetration of the default soft contact: g(1 − I)/(I²K) = −r, I the solimp curve */
function restingR() {
  const K = 1 / (0.95 ** 2 * 0.02 ** 2);
  const imp = (r) => { const x = Math.min(1, Math.abs(r) / 0.001); const y = x <= 0.5 ? x * x / 0.5 : 1 - (1 - x) ** 2 / 0.5; return 0.9 + 0.05 * y; };
  let lo = -0.01, hi = 0;
  for (let i = 0; i < 100; i++) { const r = (lo + hi) / 2, I = imp(r); if (9.81 * (1 - I) / (I * I * K) + r > 0) hi = r; else lo = r; }
  return (lo + hi) / 2;
}

for (const build of ['simd', 'threads']) {
  describe(`mujoco preset (${build} build)`, () => {
    for (const [cone, mujocoSolver] of [['pyramidal', 'newton'], ['elliptic', 'cg'], ['elliptic', 'pgs']]) {
      it(`a resting sphere reports m·g in mujocoForce and rests at the soft penetration (${cone}, ${mujocoSolver})`, async () => {
        const tribo = await engine(build);
        const w = tribo.createWorld({ preset: 'mujoco', timestep: 0.002, cone, mujocoSolver });
        w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
        const r = 0.1;
        // μ = 1: the pyramid's normal impedance then equals the elliptic one (Rpy = 2μ²R₀ over 2(dim − 1) edges)
        const id = w.addBody({ position: [0, r, 0], shapes: [{ type: 'sphere', radius: r, friction: 1, density: sphereDensity(2, r) }] });
        w.step(1500);
        const c = w.contacts;
        assert.equal(c.count, 1);
        near(assert, c.mujocoForce[0], 2 * 9.81, 1e-3 * 2 * 9.81, 'mujocoForce normal (N)');
        near(assert, c.force[1], 2 * 9.81, 1e-3 * 2 * 9.81, 'force y (N)');
        assert.equal(c.efcAddress[0], 0);
        near(assert, w.getState(id)[1], r + restingR(), 0.01 * Math.abs(restingR()), 'centre height (m)');
        const s = w.solverStatus;
        assert.equal(s.solver, 'mujoco');
        assert.equal(s.converged, true);
        assert.equal(w.readbackInfo.convention, 'mujoco');
        assert.ok(w.readbackInfo.force.includes('mj_contactForce'));
        w.free();
      });
    }
    it('refuses bad MuJoCo options naming them and keeps the world', async () => {
      const tribo = await engine(build);
      const w = tribo.createWorld({ preset: 'mujoco' });
      assert.throws(() => w.setOptions({ impratio: 0 }), /impratio/);
      assert.throws(() => w.setOptions({ cone: 'round' }), /cone/);
      assert.equal(w.solverStatus.solver !== undefined, true);
      w.free();
    });
    it('runs in a worker world', async () => {
      const tribo = await engine(build);
      const sim = await tribo.createWorkerWorld({ preset: 'mujoco', timestep: 0.002 });
      await sim.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      await sim.addBody({ position: [0, 0.1, 0], shapes: [{ type: 'sphere', radius: 0.1, density: sphereDensity(2, 0.1) }] });
      const frame = await sim.step(1000);
      near(assert, frame.contacts.force[1], 2 * 9.81, 1e-3 * 2 * 9.81, 'worker contact force y (N)');
      await sim.free?.();
      sim.terminate?.();
    });
  });
}
