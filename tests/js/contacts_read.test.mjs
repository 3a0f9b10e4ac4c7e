// The contact records of a step are written when something first reads them (README "Reading
// contact forces"): world.contacts read after every step or only every sixth step gives the same
// bits, with the PhysX presets (whose impulses are owed too) and MuJoCo (which writes them in the
// step), in both builds; and the resting pile's reported normal force still balances its weight.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { engine, BUILDS, twinId, CONTACT_ID_FIELDS } from './helpers.mjs';

const G = 9.81;

/** A pile of 12 boxes and spheres on the ground; returns the world and its first body id. */
function pile(tribo, preset) {
  const w = tribo.createWorld({ preset, gravity: [0, -G, 0], timestep: 1 / 60, sleep: 'off' });
  const first = w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
  for (let i = 0; i < 12; i++) {
    const position = [(i % 3) * 0.7, 0.3 + Math.floor(i / 3) * 0.65, ((i >> 1) % 2) * 0.2];
    const shape = i % 2 ? { type: 'sphere', radius: 0.3, density: 500 } : { type: 'box', halfExtents: [0.3, 0.25, 0.3], density: 500 };
    w.addBody({ position, shapes: [{ ...shape, friction: 0.6 }] });
  }
  return { w, first };
}

/** The contact views' bytes (ids as their twin in a world counted from `first`), copied. */
function snapshot(w, first) {
  const c = w.contacts, out = {};
  for (const [k, v] of Object.entries(c)) {
    if (!ArrayBuffer.isView(v)) continue;
    const values = CONTACT_ID_FIELDS.has(k) ? Int32Array.from(v, (id) => twinId(w, first, id)) : v;
    out[k] = new Uint8Array(values.buffer, values.byteOffset, values.byteLength).slice();
  }
  return { count: c.count, fields: out };
}

describe('contact records written when read', () => {
  for (const build of BUILDS) {
    for (const preset of ['physx-tgs', 'physx-pgs', 'mujoco']) {
      it(`${build} build, ${preset}: read every step or every sixth step, the same bits`, async () => {
        const tribo = await engine(build);
        const a = pile(tribo, preset), b = pile(tribo, preset);
        let compared = 0;
        for (let s = 1; s <= 300; s++) {
          a.w.step();
          b.w.step();
          const ra = snapshot(a.w, a.first); // read after every step
          if (s % 6) continue;
          const rb = snapshot(b.w, b.first); // the five steps before were not read
          assert.equal(rb.count, ra.count, `step ${s}: contact count`);
          for (const k of Object.keys(ra.fields)) assert.deepEqual(rb.fields[k], ra.fields[k], `step ${s}: field ${k}, bit for bit`);
          compared++;
        }
        assert.equal(compared, 50);
        // at rest after 5 s (settled from about 3 s on): the ground's reported force balances the weight
        const c = b.w.contacts;
        let fy = 0;
        for (let i = 0; i < c.count; i++) if (c.body0[i] < 0 || c.body1[i] < 0) fy += Math.abs(c.force[3 * i + 1]);
        let weight = 0;
        for (let id = b.first + 1; id < b.first + 13; id++) weight += b.w.getMass(id).mass * G;
        assert.ok(Math.abs(fy - weight) < 0.02 * weight, `ground force ${fy.toFixed(3)} N against the weight ${weight.toFixed(3)} N`);
        a.w.free();
        b.w.free();
      });
    }
  }
});
