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
    it("Newton's MuJoCo-adapter convention leaves the torque at the contact point; 'newton' moves it to body0's centre", async () => {
      const tribo = await engine(build);
      const w = tribo.createWorld({ preset: 'mujoco', timestep: 0.002, cone: 'elliptic' });
      const ms = { material: { condim: 4, torsionalFriction: 0.02 }, friction: 1 };
      // the static ground's origin is off the contact, so (P − C0) × f0 is not zero
      w.addBody({ type: 'static', position: [2, 0, 1], shapes: [{ type: 'plane', ...ms }] });
      const ball = w.addBody({ position: [0, 0.0996, 0], shapes: [{ type: 'sphere', radius: 0.1, density: 1000, ...ms }] }); // at its soft rest depth
      w.setVelocity(ball, [0.3, 0, 0], [0, 10, 0]);
      w.step(30); // spinning and sliding: torsion and friction both act
      const c = w.contacts;
      assert.equal(c.count, 1);
      const tors = c.mujocoForce[3];
      assert.ok(Math.abs(tors) > 0.1, `torsion torque ${tors} N·m`);
      const f1 = Array.from(c.force.subarray(0, 3)), n = Array.from(c.normal.subarray(0, 3));
      const P = Array.from(c.point.subarray(0, 3));
      const mf = c.mujocoForce, t0 = c.tangent0, t1 = c.tangent1;
      // torque on body1 about P from the contact-frame torques (torsion about n, rolling about t0, t1)
      const tauP1 = [0, 1, 2].map((i) => mf[3] * n[i] + mf[4] * t0[i] + mf[5] * t1[i]);
      const onBody0 = c.body0[0] === -1 ? 'ground' : 'ball'; // body0 -1: the static ground
      const C0 = onBody0 === 'ground' ? [2, 0, 1] : Array.from(w.getPosition(ball));
      const a = w.convertContacts('newton-mujoco-adapter');
      for (let i = 0; i < 3; i++) {
        near(assert, a.force[i], -f1[i], 1e-6, `adapter force[${i}] = −force (N)`);
        near(assert, a.torque[i], -tauP1[i], 1e-6, `adapter torque[${i}] = −τ_P, at the contact point (N·m)`);
      }
      const nw = w.convertContacts('newton');
      const r = P.map((x, i) => x - C0[i]), f0 = f1.map((x) => -x);
      const cross = [r[1] * f0[2] - r[2] * f0[1], r[2] * f0[0] - r[0] * f0[2], r[0] * f0[1] - r[1] * f0[0]];
      for (let i = 0; i < 3; i++) {
        near(assert, nw.force[i], f0[i], 1e-6, `newton force[${i}] (N)`);
        near(assert, nw.torque[i], -tauP1[i] + cross[i], 1e-4, `newton torque[${i}] = τ_P + (P − C0) × f0 (N·m)`);
      }
      // the two differ by the moved moment, here several N·m
      assert.ok(Math.hypot(...cross) > 1, `(P − C0) × f0 = ${cross}`);
      assert.match(w.readbackInfo.conventions['newton-mujoco-adapter'], /contact point/);
      assert.match(w.readbackInfo.conventions.newton, /τ_C0 = τ_P \+ \(P − C0\) × f0/);
      w.free();
      // other solvers have no MuJoCo readback to reproduce: refused by name
      const x = tribo.createWorld({ preset: 'physx-tgs' });
      x.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      x.addBody({ position: [0, 0.09, 0], shapes: [{ type: 'sphere', radius: 0.1 }] });
      x.step(1);
      assert.throws(() => x.convertContacts('newton-mujoco-adapter'), /newton-mujoco-adapter.*mujoco/);
      x.free();
    });
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
