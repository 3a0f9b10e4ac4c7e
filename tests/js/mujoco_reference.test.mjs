// The `mujoco` preset against numbers from the official MuJoCo WebAssembly build (MuJoCo 3.3.8,
// npm mujoco-js), stored in fixtures/mujoco_reference.json by tools/mujoco_reference.mjs. The same
// scenes at margin = gap = 0, Newton solver, Euler, h = 2 ms; MuJoCo's z-up axes turned to y-up.
// The pair-* scenes run an explicit pair (setContactPair, MJCF <pair>) with its own five friction
// numbers, condim, solref, solreffriction and solimp over geoms that say otherwise.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { engine, near } from './helpers.mjs';

const ref = JSON.parse(readFileSync(new URL('./fixtures/mujoco_reference.json', import.meta.url), 'utf8'));

/* tolerances: the same rows, impedance, reference and Newton solver, so the numbers agree to
 * rounding; what is left is Tribo's float32 state (a position near 0.1 m has a 7.5e-9 m ulp) */
const TOL = {
  force: 1e-5,        // resting normal force, relative (seen: 2e-7)
  dist: 1e-3,         // resting penetration and sink, relative (seen: 3e-5 spheres, 3e-3 boxes), plus DIST_ABS
  slip: 1e-4,         // sliding box: position and speed after 1 s, relative (seen: 6e-7)
  creep: 1e-3,        // sticking box: soft-friction creep distance and speed (mm, mm/s), relative (seen: 3e-5)
  creepSpeed: 1e-2,   // the creep speed alone: under the pyramid it rocks between 3.8 and 4.9 mm/s (seen: 3.4e-3, pair scene)
  spin: 1e-5,         // spin rate, relative to the initial 10 rad/s (seen: 3e-7)
};
const DIST_ABS = 1e-7; // m: about a dozen float32 ulps of a 0.1 m position (box corners: seen 5e-8)

/* the scene's world: plane and one body sharing the contact parameters (so every combine rule
 * gives exactly them), margin = gap = 0 */
function scene(tribo, s, gravity) {
  const w = tribo.createWorld({ preset: 'mujoco', timestep: ref.timestep, cone: s.cone, mujocoSolver: 'newton', gravity });
  const c = s.contact;
  const material = { torsionalFriction: c.friction[1], rollingFriction: c.friction[2], condim: c.condim, solref: c.solref, solimp: c.solimp };
  /* with an explicit pair the geoms' own collision is off (contype 0), as in the MJCF */
  const surface = { friction: c.friction[0], material, margin: 0, gap: 0, ...(s.pair ? { contype: 0, conaffinity: 0 } : {}) };
  const floor = w.addBody({ type: 'static', shapes: [{ type: 'plane', ...surface }] });
  const shape = s.shape === 'sphere' || s.kind === 'spin' ? { type: 'sphere', radius: 0.1 } : { type: 'box', halfExtents: [0.1, 0.1, 0.1] };
  const id = w.addBody({ position: [0, 0.1, 0], shapes: [{ ...shape, density: 1000, ...surface }] });
  if (s.pair) {
    const { condim, friction, solref, solreffriction, solimp } = s.pair;
    w.setContactPair(w.shapesOf(floor)[0], w.shapesOf(id)[0], { condim, friction, solref, solreffriction, solimp, margin: 0, gap: 0 });
  }
  return { w, id };
}

for (const build of ['simd', 'threads']) {
  describe(`mujoco preset against MuJoCo 3.3.8 (${ref.source}; ${build} build)`, () => {
    for (const s of ref.scenes.filter((x) => x.kind === 'rest')) {
      it(`${s.name}: resting normal force and penetration`, async () => {
        const tribo = await engine(build);
        const { w, id } = scene(tribo, s);
        near(assert, w.getMass(id).mass, s.mass, 1e-6 * s.mass, 'mass (kg)');
        w.step(s.steps);
        const c = w.contacts;
        assert.equal(c.count, s.contacts, 'contact count');
        let fn = 0, dist = 0;
        for (let k = 0; k < c.count; k++) { fn += c.mujocoForce[6 * k]; dist += c.distance[k]; }
        near(assert, fn, s.normalForce, TOL.force * s.normalForce, 'normal force (N)');
        near(assert, dist / c.count, s.dist, TOL.dist * Math.abs(s.dist) + DIST_ABS, 'mean contact distance (m)');
        near(assert, w.getPosition(id)[1], s.height, TOL.dist * Math.abs(s.height - 0.1) + DIST_ABS, 'centre height (m)');
        w.free();
      });
    }
    for (const s of ref.scenes.filter((x) => x.kind === 'slope')) {
      it(`${s.name}: box on tan θ = ${s.tan}, μ = ${(s.pair ?? s.contact).friction[0]}`, async () => {
        const tribo = await engine(build);
        const th = Math.atan(s.tan);
        const { w, id } = scene(tribo, { ...s, shape: 'box' }, [9.81 * Math.sin(th), -9.81 * Math.cos(th), 0]);
        w.step(s.steps);
        const st = w.getState(id);
        const tol = s.tan < (s.pair ?? s.contact).friction[0] && (s.pair ?? s.contact).condim > 1 ? TOL.creep : TOL.slip;
        near(assert, st[0], s.x, tol * Math.abs(s.x), 'down-slope position (m)');
        near(assert, st[7], s.vx, (tol === TOL.creep ? TOL.creepSpeed : tol) * Math.abs(s.vx), 'down-slope speed (m/s)');
        w.free();
      });
    }
    for (const s of ref.scenes.filter((x) => x.kind === 'spin')) {
      it(`${s.name}: torsional friction slows a spinning sphere as MuJoCo does`, async () => {
        const tribo = await engine(build);
        const { w, id } = scene(tribo, s);
        w.setVelocity(id, [0, 0, 0], [0, s.omega0, 0]);
        for (let i = 0; i < s.omega.length; i++) {
          w.step(s.every);
          near(assert, w.getAngularVelocity(id)[1], s.omega[i], TOL.spin * s.omega0, `spin rate after ${(i + 1) * s.every} steps (rad/s)`);
        }
        w.free();
      });
    }
  });
}
