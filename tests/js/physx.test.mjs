// PhysX PGS and TGS presets through the JS API (seed physx-e3 §3–7), on both WebAssembly builds.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { BUILDS, engine, sphereDensity, axisAngle, near } from './helpers.mjs';

const G = 9.81;
const H = 1 / 60;
const PRESETS = ['physx-pgs', 'physx-tgs'];

for (const build of BUILDS) {
  describe(`physx presets (${build} build)`, () => {
    let tribo;
    before(async () => { tribo = await engine(build); });

    for (const preset of PRESETS) {
      it(`${preset}: a 3 kg resting sphere reports m·g ± 0.5% in its own readback; status and readback info`, () => {
        const w = tribo.createWorld({ preset, timestep: H });
        w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
        const r = 0.25;
        w.addBody({ position: [0, r, 0], shapes: [{ type: 'sphere', radius: r, density: sphereDensity(3, r) }] });
        w.step(120);
        const c = w.contacts;
        assert.equal(c.count, 1);
        near(assert, c.normalImpulse[0] / H, 3 * G, 0.005 * 3 * G, 'normal impulse / h (N)');
        near(assert, c.force[1], 3 * G, 0.005 * 3 * G, 'force y (N)');
        assert.equal(c.anchor[0], 0, 'the single point is the patch anchor');
        const st = w.solverStatus;
        assert.equal(st.solver, preset === 'physx-pgs' ? 'pgs' : 'tgs');
        assert.equal(st.positionIterations, 4);
        assert.equal(st.velocityIterations, 1);
        assert.equal(st.converged, null, "fixed iteration counts: convergence not defined");
        assert.equal(st.convergenceDefined, false);
        assert.ok(st.residualPenetration >= 0 && st.residualPenetration < 1e-3, `residual penetration ${st.residualPenetration} m`);
        assert.equal(w.readbackInfo.preset, preset);
        assert.ok(w.readbackInfo.excludes.some((e) => /torsional/.test(e)));
        w.free();
      });

      it(`${preset}: a resting box — four contacts sum to m·g, moments about the centre cancel, two anchors`, () => {
        const w = tribo.createWorld({ preset });
        w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
        const box = w.addBody({ position: [0, 0.25, 0], shapes: [{ type: 'box', halfExtents: [0.5, 0.25, 0.4], density: 500 }] });
        w.step(120);
        const c = w.contacts;
        assert.equal(c.count, 4);
        const x = w.getPosition(box);
        const m = w.getMass(box).mass;
        let fy = 0;
        const tau = [0, 0, 0];
        const anchors = [];
        for (let i = 0; i < 4; i++) {
          const r = [c.point[3 * i] - x[0], c.point[3 * i + 1] - x[1], c.point[3 * i + 2] - x[2]];
          const f = [c.force[3 * i], c.force[3 * i + 1], c.force[3 * i + 2]];
          fy += f[1];
          tau[0] += r[1] * f[2] - r[2] * f[1];
          tau[1] += r[2] * f[0] - r[0] * f[2];
          tau[2] += r[0] * f[1] - r[1] * f[0];
          if (c.anchor[i] >= 0) anchors.push(c.anchor[i]);
          else assert.equal(Math.hypot(c.frictionAnchorImpulse[3 * i], c.frictionAnchorImpulse[3 * i + 1], c.frictionAnchorImpulse[3 * i + 2]), 0);
        }
        near(assert, fy, m * G, 0.005 * m * G, 'sum of the contact forces (N)');
        assert.ok(Math.hypot(...tau) < 1e-3 * m * G * 1.0, `|τ| = ${Math.hypot(...tau)} N·m about the centre of mass`);
        assert.deepEqual(anchors.sort(), [0, 1], 'a patch has at most two friction anchors');
        w.free();
      });

      it(`${preset}: incline — sticks below tanθ = μ, slides above with g(sinθ − μ·cosθ) ± 3%`, () => {
        for (const tan of [0.4, 0.6]) {
          const th = Math.atan(tan), mu = 0.5;
          const w = tribo.createWorld({ preset });
          const q = axisAngle([0, 0, 1], th);
          w.addBody({ type: 'static', rotation: q, shapes: [{ type: 'plane', friction: mu }] });
          const n = [-Math.sin(th), Math.cos(th), 0];
          const box = w.addBody({ position: [0.1 * n[0], 0.1 * n[1], 0], rotation: q,
            shapes: [{ type: 'box', halfExtents: [0.2, 0.1, 0.2], friction: mu }] });
          const down = [-Math.cos(th), -Math.sin(th), 0];
          const along = (v) => v[0] * down[0] + v[1] * down[1] + v[2] * down[2];
          w.step(30);
          const x0 = along(w.getPosition(box)), v0 = along(w.getLinearVelocity(box));
          w.step(60);
          const x1 = along(w.getPosition(box)), v1 = along(w.getLinearVelocity(box));
          if (tan < mu) {
            assert.ok(Math.abs(x1 - x0) < 1e-3, `tanθ ${tan} < μ: moved ${x1 - x0} m in 1 s`);
          } else {
            const a = G * (Math.sin(th) - mu * Math.cos(th));
            near(assert, v1 - v0, a, 0.03 * a, 'acceleration down the slope (m/s²)');
          }
          w.free();
        }
      });

      it(`${preset}: a 125 kg box sliding at 3 m/s on flat ground, μ = 0.5 — decelerates at μ·g ± 1% over 0.5 s; each step's friction against the slip is μ·N ± 1%`, () => {
        const mu = 0.5;
        const w = tribo.createWorld({ preset, timestep: H });
        w.addBody({ type: 'static', shapes: [{ type: 'plane', friction: mu }] });
        const box = w.addBody({ position: [0, 0.25, 0], linearVelocity: [3, 0, 0],
          shapes: [{ type: 'box', halfExtents: [0.25, 0.25, 0.25], density: 1000, friction: mu }] });
        near(assert, w.getMass(box).mass, 125, 1e-3, 'mass (kg)');
        for (let s = 0; s < 30; s++) {
          w.step();
          const c = w.contacts;
          assert.equal(c.count, 4);
          let pn = 0;
          const ft = [0, 0, 0];
          for (let i = 0; i < c.count; i++) {
            pn += c.normalImpulse[i];
            for (let k = 0; k < 3; k++) ft[k] += c.frictionAnchorImpulse[3 * i + k];
          }
          // the slip is along +x; PGS clamps its two tangent rows one by one, TGS the pair
          near(assert, -ft[0] / pn, mu, 0.01 * mu, `step ${s}: friction impulse against the slip / normal impulse`);
          if (preset === 'physx-tgs') near(assert, Math.hypot(...ft) / pn, mu, 0.01 * mu, `step ${s}: |friction| / normal`);
        }
        const decel = (3 - w.getLinearVelocity(box)[0]) / (30 * H);
        near(assert, decel, mu * G, 0.01 * mu * G, 'deceleration (m/s²)');
        w.free();
      });

      it(`${preset}: restitution only above the bounce threshold (2 m/s by default)`, () => {
        for (const speed of [1.5, 3]) {
          const w = tribo.createWorld({ preset });
          w.addBody({ type: 'static', shapes: [{ type: 'plane', restitution: 0.5 }] });
          const b = w.addBody({ position: [0, 0.5, 0], linearVelocity: [0, -speed, 0],
            shapes: [{ type: 'sphere', radius: 0.5, restitution: 0.5 }] });
          w.step();
          const vn = speed + G * H; // approach speed after this step's gravity
          near(assert, w.getLinearVelocity(b)[1], vn > 2 ? 0.5 * vn : 0, 1e-4, `rebound speed from ${speed} m/s`);
          w.free();
        }
      });

      it(`${preset}: at least one velocity iteration runs when 0 is requested`, () => {
        const w = tribo.createWorld({ preset, velocityIterations: 0 });
        w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
        const b = w.addBody({ position: [0, 0.49, 0], shapes: [{ type: 'sphere', radius: 0.5 }] });
        w.step();
        assert.equal(w.solverStatus.velocityIterations, 1);
        assert.ok(w.getPosition(b)[1] > 0.4925, 'pushed out by the bias');
        near(assert, w.getLinearVelocity(b)[1], 0, 1e-4, 'no push-out velocity left by the unbiased pass');
        w.free();
      });

      it(`${preset}: maxContactImpulse caps the reported normal impulse`, () => {
        const w = tribo.createWorld({ preset });
        w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
        const cap = 0.5 * 3 * G * H;
        const b = w.addBody({ position: [0, 0.25, 0], maxContactImpulse: cap,
          shapes: [{ type: 'sphere', radius: 0.25, density: sphereDensity(3, 0.25) }] });
        w.step();
        near(assert, w.contacts.normalImpulse[0], cap, 1e-6, 'normal impulse (N·s)');
        near(assert, w.getLinearVelocity(b)[1], -0.5 * G * H, 1e-5, 'the capped sphere sinks (m/s)');
        assert.throws(() => w.setMaxContactImpulse(b, -1), /maxContactImpulse must be > 0/);
        w.free();
      });

      it(`${preset}: an island runs the largest iteration request of its bodies`, () => {
        const w = tribo.createWorld({ preset, gravity: [0, -10, 0], externalForcesEveryIteration: true });
        const s = (x) => w.addBody({ position: [x, 10, 0], shapes: [{ type: 'sphere', radius: 0.5, friction: 0 }] });
        const a = s(0), b = s(0.999), c = s(5);
        w.setSolverIterations(a, 8, 3);
        w.addBody({ position: [9, 10, 0], solverIterations: { position: 2 }, shapes: [{ type: 'sphere', radius: 0.5 }] });
        w.step();
        const st = w.solverStatus;
        assert.equal(st.positionIterations, 8);
        assert.equal(st.velocityIterations, 3);
        if (preset === 'physx-tgs') {
          // gravity a·h/N before each internal step: (N+1)/(2N)·a·h² with N of the island
          const fall = (n) => ((n + 1) / (2 * n)) * -10 * H * H;
          near(assert, w.getPosition(a)[1] - 10, fall(8), 1e-5, 'a (asks 8)');
          near(assert, w.getPosition(b)[1] - 10, fall(8), 1e-5, 'b (touches a)');
          near(assert, w.getPosition(c)[1] - 10, fall(4), 1e-5, 'c (alone, the world\'s 4)');
        }
        assert.throws(() => w.setSolverIterations(a, 0, 1), /positionIterations must be in \[1, 255\]/);
        w.free();
      });

      it(`${preset}: damping v·max(1 − d·h, 0) on a free body`, () => {
        const w = tribo.createWorld({ preset, gravity: [0, 0, 0] });
        const b = w.addBody({ linearVelocity: [2, 0, 0], angularVelocity: [0, 3, 0], linearDamping: 6, angularDamping: 90,
          shapes: [{ type: 'sphere', radius: 0.5 }] });
        w.step();
        near(assert, w.getLinearVelocity(b)[0], Math.fround(2 * Math.fround(1 - Math.fround(6 * Math.fround(H)))), 1e-6, 'linear (m/s)');
        assert.equal(w.getAngularVelocity(b)[1], 0, 'd·h = 1.5: clamped to zero');
        w.free();
      });
    }

    it('physx-tgs: free fall (N+1)/(2N)·a·h² with gravity every iteration, a·h² once per step', () => {
      for (const every of [false, true]) {
        const w = tribo.createWorld({ preset: 'physx-tgs', gravity: [0, -10, 0], positionIterations: 5, externalForcesEveryIteration: every });
        const b = w.addBody({ position: [0, 10, 0], shapes: [{ type: 'sphere', radius: 0.5 }] });
        w.step();
        const expected = every ? (6 / 10) * -10 * H * H : -10 * H * H;
        near(assert, w.getPosition(b)[1] - 10, expected, 1e-5 * Math.abs(expected) + 2e-6, `every iteration: ${every}`);
        w.free();
      }
    });

    it('physx-pgs: friction in the last three position iterations unless every iteration', () => {
      // a sphere with an anisotropic inertia turned about the normal couples its two tangent rows,
      // so the friction impulse depends on how many sweeps ran: 3 + 1 with 4 position iterations
      // equals 3 position iterations with friction in each (+ 1), and differs from 4 + 1
      const run = (positionIterations, frictionEveryIteration) => {
        const w = tribo.createWorld({ preset: 'physx-pgs', gravity: [0, -10, 0], positionIterations, frictionEveryIteration });
        w.addBody({ type: 'static', shapes: [{ type: 'plane', friction: 10 }] });
        w.addBody({ position: [0, 0.5, 0], rotation: axisAngle([0, 1, 0], 0.5), linearVelocity: [0.3, 0, 0],
          mass: { mass: 1, inertia: [0.02, 0.05, 0.2] }, shapes: [{ type: 'sphere', radius: 0.5, friction: 10 }] });
        w.step();
        const f = Array.from(w.contacts.frictionAnchorImpulse.subarray(0, 3));
        w.free();
        return f;
      };
      const last3 = run(4, false), every4 = run(4, true), every3 = run(3, true);
      for (let k = 0; k < 3; k++) near(assert, last3[k], every3[k], 1e-6, `component ${k}: 4 iterations (friction in 3) vs 3 (friction in each)`);
      assert.ok(Math.abs(last3[2] - every4[2]) > 1e-4, `friction in every one of 4 iterations differs (${last3[2]} vs ${every4[2]})`);
    });

    it('unknown preset and bad options are rejected with the option named', () => {
      assert.throws(() => tribo.createWorld({ preset: 'physx' }), /preset "physx" is not available/);
      assert.throws(() => tribo.createWorld({ biasCoefficient: 0 }), /biasCoefficient must be in \(0, 1\]/);
      assert.throws(() => tribo.createWorld({ frictionEveryIteration: 1 }), /frictionEveryIteration must be a boolean/);
      assert.throws(() => tribo.createWorld({ substeps: 4, positionIterations: 4 }), /not both/);
    });
  });
}

describe('physx-pgs in a worker', () => {
  it('per-body settings and the solver status cross the worker boundary', async () => {
    const tribo = await engine('simd');
    const sim = await tribo.createWorkerWorld({ preset: 'physx-pgs', timestep: H });
    await sim.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
    const r = 0.25;
    const id = await sim.addBody({ position: [0, r, 0], shapes: [{ type: 'sphere', radius: r, density: sphereDensity(3, r) }] });
    const cap = 0.5 * 3 * G * H;
    await sim.setMaxContactImpulse(id, cap);
    await sim.setSolverIterations(id, 6, 2);
    const frame = await sim.step(1);
    near(assert, frame.contacts.normalImpulse[0], cap, 1e-6, 'capped normal impulse (N·s)');
    assert.equal(frame.contacts.anchor[0], 0);
    const st = await sim.solverStatus;
    assert.equal(st.solver, 'pgs');
    assert.equal(st.positionIterations, 6);
    assert.equal(st.velocityIterations, 2);
    await assert.rejects(sim.setSolverIterations(id, 300, 1), (e) => e instanceof RangeError && /positionIterations/.test(e.message));
    await sim.free();
  });
});
