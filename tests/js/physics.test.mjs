// Physical facts, asserted on both WebAssembly builds.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { BUILDS, engine, sphereDensity, axisAngle, near, buildPile } from './helpers.mjs';

const G = 9.81;

for (const build of BUILDS) {
  describe(`physics (${build} build)`, () => {
    let tribo;
    before(async () => { tribo = await engine(build); });

    it('a 3 kg sphere at rest reports a normal force of m·g ± 0.5%', () => {
      const w = tribo.createWorld({ timestep: 1 / 60 });
      const ground = w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      const r = 0.25;
      const ball = w.addBody({ position: [0, r, 0], shapes: [{ type: 'sphere', radius: r, density: sphereDensity(3, r) }] });
      near(assert, w.getMass(ball).mass, 3, 1e-4, 'mass from density');
      w.step(120);
      const c = w.contacts;
      assert.equal(c.count, 1, 'one contact point');
      assert.ok(c.readbackValid, 'readback filled by the solve');
      const mg = 3 * G;
      near(assert, c.force[3 * 0 + 1], mg, 0.005 * mg, 'contact force y (N) from the readback');
      near(assert, c.normalImpulse[0] / w.timestep, mg, 0.005 * mg, 'normal impulse / h (N)');
      // the normal points from shape0 (the plane) to shape1 (the sphere): +y
      near(assert, c.normal[1], 1, 1e-6, 'normal y');
      assert.equal(c.body0[0], -1, 'static body reported as -1');
      assert.equal(c.body1[0], ball);
      assert.ok(ground >= 0);
      w.free();
    });

    it("the pile scene's walls are solid outside only: its first body (a sphere 0.45 m, 0.85 m from two walls) rests on the floor alone", () => {
      const w = tribo.createWorld({ timestep: 1 / 60 });
      const [ball] = buildPile(w, 1);
      const start = w.getPosition(ball);
      w.step(120);
      assert.equal(w.contacts.count, 1, 'one contact: the floor, no wall');
      const p = w.getPosition(ball);
      near(assert, p[1], 0.45, 0.01, 'rest height y (m) = radius');
      near(assert, p[0], start[0], 1e-3, 'x (m) unchanged: no wall pushes');
      near(assert, p[2], start[2], 1e-3, 'z (m) unchanged: no wall pushes');
      w.free();
    });

    it("a resting box's four contacts sum to m·g", () => {
      const w = tribo.createWorld();
      w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      const box = w.addBody({ position: [0, 0.5, 0], shapes: [{ type: 'box', halfExtents: [0.5, 0.5, 0.5], density: 2 }] });
      w.step(120);
      const c = w.contacts;
      assert.equal(c.count, 4);
      let fy = 0;
      for (let i = 0; i < 4; i++) fy += c.force[3 * i + 1];
      const mg = w.getMass(box).mass * G;
      near(assert, fy, mg, 0.005 * mg, 'sum of the four contact forces (N)');
      w.free();
    });

    for (const [deg, mu] of [[20, 0.5], [35, 0.5], [30, 0.3]]) {
      const th = (deg * Math.PI) / 180;
      const slides = Math.tan(th) > mu;
      it(`box on a ${deg}° incline with μ = ${mu} ${slides ? 'slides with a = g(sinθ − μcosθ) ± 3%' : 'sticks (tanθ < μ)'}`, () => {
        // the stored velocity is the result of the velocity iterations, not the motion of the step
        // (seed physx-e3 §6); one leaves ~2 cm/s of tipping on a box that does not move, four do not
        const w = tribo.createWorld(slides ? {} : { velocityIterations: 4 });
        const q = axisAngle([0, 0, 1], th);
        w.addBody({ type: 'static', rotation: q, shapes: [{ type: 'box', halfExtents: [30, 0.5, 5], friction: mu }] });
        const n = [-Math.sin(th), Math.cos(th), 0];
        const box = w.addBody({ position: [n[0], n[1], 0], rotation: q, shapes: [{ type: 'box', halfExtents: [0.5, 0.5, 0.5], friction: mu }] });
        w.step(30);
        const tangent = Float32Array.from(w.contacts.tangent0.subarray(0, 3));
        const v0 = w.getLinearVelocity(box, new Float32Array(3)).slice();
        const p0 = w.getPosition(box, new Float32Array(3)).slice();
        w.step(60);
        const v1 = w.getLinearVelocity(box, new Float32Array(3));
        const p1 = w.getPosition(box, new Float32Array(3));
        const down = [-Math.cos(th), -Math.sin(th), 0]; // down the slope
        const a = ((v1[0] - v0[0]) * down[0] + (v1[1] - v0[1]) * down[1]) / 1.0;
        if (slides) {
          const expected = G * (Math.sin(th) - mu * Math.cos(th));
          near(assert, a, expected, 0.03 * expected, `acceleration down the slope (m/s²)`);
        } else {
          // the contact frame does not flip between frames for a resting contact
          const t = w.contacts.tangent0;
          near(assert, t[0] * tangent[0] + t[1] * tangent[1] + t[2] * tangent[2], 1, 1e-4, 'tangent0 · tangent0 60 steps earlier');
          const moved = Math.hypot(p1[0] - p0[0], p1[1] - p0[1]);
          assert.ok(moved < 1e-3, `a sticking box moved ${moved} m in 1 s`);
          assert.ok(Math.hypot(...v1) < 1e-2, `a sticking box has speed ${Math.hypot(...v1)} m/s`);
        }
        w.free();
      });
    }

    function dropBall(height, { restitution = 0.5, bounceThreshold } = {}) {
      const w = tribo.createWorld({ timestep: 1 / 60, ...(bounceThreshold !== undefined ? { bounceThreshold } : {}) });
      w.addBody({ type: 'static', shapes: [{ type: 'plane', restitution }] });
      const r = 0.25;
      const ball = w.addBody({ position: [0, r + height, 0], shapes: [{ type: 'sphere', radius: r, restitution }] });
      let rising = false, peak = 0;
      const v = new Float32Array(3), p = new Float32Array(3);
      for (let s = 0; s < 240; s++) {
        w.step();
        w.getLinearVelocity(ball, v);
        w.getPosition(ball, p);
        if (v[1] > 0) rising = true;
        if (rising) peak = Math.max(peak, p[1] - r);
        if (rising && v[1] < 0) break;
      }
      w.free();
      return peak;
    }

    it('a ball with restitution 0.5 dropped from 1 m rebounds to (e·(v + g·h))² / 2g ± 5%', () => {
      // PhysX takes the approach speed after the step's gravity (seed physx-e3 §4.2, §6): the
      // rebound speed is e·(v + g·h), v = √(2g·1 m), not e·v (that would give 0.25 m)
      const v = Math.sqrt(2 * G * 1.0) + G / 60;
      const expected = (0.5 * v) ** 2 / (2 * G);
      near(assert, dropBall(1.0), expected, 0.05 * expected, 'rebound height (m)');
    });

    it('a ball hitting slower than the bounce threshold does not bounce', () => {
      // from 3 cm the impact speed is 0.77 m/s, below the 1 m/s threshold
      const peak = dropBall(0.03, { bounceThreshold: 1.0 });
      assert.ok(peak < 0.002, `rebound height ${peak} m, expected none`);
      // the same drop with a lower threshold does bounce: the threshold is what stopped it
      const bounced = dropBall(0.03, { bounceThreshold: 0.2 });
      assert.ok(bounced > 0.004, `with a 0.2 m/s threshold the ball rebounds (got ${bounced} m)`);
    });

    it('total momentum is conserved ± 1e-4 in a sphere–sphere collision without gravity', () => {
      const w = tribo.createWorld({ gravity: [0, 0, 0] });
      const a = w.addBody({ position: [-1, 0, 0], linearVelocity: [3, 0.5, 0], shapes: [{ type: 'sphere', radius: 0.5, density: 1000, restitution: 0.3 }] });
      const b = w.addBody({ position: [1, 0.3, 0.1], linearVelocity: [-1, 0, 0.2], shapes: [{ type: 'sphere', radius: 0.4, density: 700, restitution: 0.3 }] });
      const ma = w.getMass(a).mass, mb = w.getMass(b).mass;
      const momentum = () => {
        const va = w.getLinearVelocity(a), vb = w.getLinearVelocity(b);
        return [0, 1, 2].map((k) => ma * va[k] + mb * vb[k]);
      };
      const before = momentum();
      let touched = false;
      for (let s = 0; s < 120; s++) { w.step(); touched ||= w.contacts.count > 0 && w.contacts.normalImpulse[0] > 0; }
      assert.ok(touched, 'the spheres collided');
      const after = momentum();
      const scale = Math.hypot(...before);
      for (let k = 0; k < 3; k++) near(assert, after[k] / scale, before[k] / scale, 1e-4, `relative momentum component ${k}`);
      w.free();
    });

    it('a kinematic body moves at its set velocity, pushes a dynamic body and is never pushed back', () => {
      const w = tribo.createWorld({ gravity: [0, 0, 0] });
      const pusher = w.addBody({ type: 'kinematic', position: [0, 0, 0], linearVelocity: [1, 0, 0], shapes: [{ type: 'box', halfExtents: [0.5, 0.5, 0.5] }] });
      const ball = w.addBody({ position: [1.5, 0, 0], shapes: [{ type: 'sphere', radius: 0.4, density: 5000 }] });
      w.step(60);
      near(assert, w.getPosition(pusher)[0], 1.0, 1e-4, 'kinematic x after 1 s at 1 m/s (m)');
      near(assert, w.getLinearVelocity(pusher)[0], 1.0, 0, 'kinematic velocity unchanged (m/s)');
      assert.ok(w.getLinearVelocity(ball)[0] >= 0.99, `the pushed ball moves at least as fast as the pusher (${w.getLinearVelocity(ball)[0]} m/s)`);
      assert.ok(w.getPosition(ball)[0] - w.getPosition(pusher)[0] >= 0.9 - 0.01, 'the ball stays outside the pusher');
      w.free();
    });

    it('a 20-row pyramid of 210 unit cubes stands for 10 s', () => {
      // PhysX TGS starts every step's impulses from zero (no warm start, seed physx-e3 §4.3), so
      // a 20-high stack needs more than the default 4 position iterations (internal steps)
      const w = tribo.createWorld({ timestep: 1 / 60, positionIterations: 8 });
      w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      const ids = [], start = [];
      for (let row = 0; row < 20; row++) {
        for (let i = 0; i < 20 - row; i++) {
          const p = [i - (19 - row) / 2, 0.5 + row, 0];
          ids.push(w.addBody({ position: p, shapes: [{ type: 'box', halfExtents: [0.5, 0.5, 0.5], density: 1, friction: 0.6 }] }));
          start.push(p);
        }
      }
      assert.equal(ids.length, 210);
      w.step(600);
      const p = new Float32Array(3);
      let worst = 0;
      ids.forEach((id, k) => {
        w.getPosition(id, p);
        worst = Math.max(worst, Math.hypot(p[0] - start[k][0], p[2] - start[k][2]));
      });
      w.getPosition(ids[209], p);
      assert.ok(worst < 0.05, `largest horizontal drift ${worst} m (a standing pyramid stays < 0.05 m)`);
      assert.ok(Math.abs(p[1] - 19.5) < 0.2, `top cube at height ${p[1]} m, started at 19.5 m`);
      w.free();
    });
  });
}
