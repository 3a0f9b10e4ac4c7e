// Tribo through its ESM API (js/index.js), against the contract:
//   const tribo = await init({ build: 'simd' | 'threads' });
//   const world = tribo.createWorld({ gravity, timestep, threads });
//   world.addBody({ type, position, rotation, shapes: [{ type, ..., density, friction, restitution }] })
//   world.step(); world.getPosition(id, out); world.contacts; world.free();
// Solver settings are Tribo's defaults (no substeps/iterations passed).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DT, GRAVITY } from '../scenes.mjs';

// BENCH_TRIBO_ROOT: load js/ and dist/ from another checkout (used to test this adapter).
const ROOT = process.env.BENCH_TRIBO_ROOT
  ? path.resolve(process.env.BENCH_TRIBO_ROOT)
  : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export class Unavailable extends Error {}

function shapeDesc(b) {
  const s = b.shape, m = { friction: b.friction, restitution: b.restitution };
  if (b.type === 'dynamic') m.density = b.density;
  switch (s.type) {
    case 'box': return { type: 'box', halfExtents: s.halfExtents, ...m };
    case 'sphere': return { type: 'sphere', radius: s.radius, ...m };
    case 'capsule': return { type: 'capsule', radius: s.radius, halfHeight: s.halfHeight, ...m };
    default: throw new Error(`tribo: unsupported shape ${s.type}`);
  }
}

/** build: 'simd' | 'threads'; threads: worker count passed to createWorld. */
export async function loadTribo({ build, threads }) {
  const entry = path.join(ROOT, 'js/index.js');
  if (!fs.existsSync(entry)) throw new Unavailable('js/index.js does not exist yet (Tribo JS API not written)');
  const dist = path.join(ROOT, 'dist');
  const builds = fs.existsSync(dist) ? fs.readdirSync(dist).filter((f) => /\.(mjs|js|wasm)$/.test(f)) : [];
  if (builds.length === 0) throw new Unavailable('dist/ holds no wasm build yet (run the wasm build first)');
  let init;
  try {
    ({ init } = await import(pathToFileURL(entry).href));
  } catch (err) {
    throw new Unavailable(`importing js/index.js failed: ${err.message}`);
  }
  if (typeof init !== 'function') throw new Unavailable('js/index.js exports no init()');
  let tribo;
  try {
    tribo = await init({ build });
  } catch (err) {
    throw new Unavailable(`init({ build: '${build}' }) failed: ${err.message}`);
  }
  if (tribo.build && tribo.build !== build) {
    throw new Unavailable(`init({ build: '${build}' }) loaded the '${tribo.build}' build`);
  }
  return {
    id: `tribo-${build}`,
    version: null,
    notes: `${build === 'simd' ? 'single-threaded SIMD128 wasm' : 'pthreads wasm'}, threads: ${threads}; Tribo default solver`,
    createWorld(scene) {
      const world = tribo.createWorld({ gravity: GRAVITY, timestep: DT, threads });
      const dyn = [];
      for (const b of scene.bodies) {
        const id = world.addBody({ type: b.type, position: b.position, rotation: b.rotation, shapes: [shapeDesc(b)] });
        if (typeof id !== 'number' || id < 0) throw new Error(`tribo addBody returned ${id}`);
        if (b.type === 'dynamic') dyn.push(id);
      }
      const tmp = new Float32Array(3);
      return {
        step() { world.step(); },
        readPositions(out) {
          for (let i = 0; i < dyn.length; i++) {
            world.getPosition(dyn[i], tmp);
            out[3 * i] = tmp[0]; out[3 * i + 1] = tmp[1]; out[3 * i + 2] = tmp[2];
          }
        },
        mass() { return undefined; },
        /** Sum of contacts.normalImpulse (N·s over the step) over the contacts that involve the body. */
        contactNormalImpulse(i) {
          const c = world.contacts;
          if (!c || !c.normalImpulse || !c.body0 || !c.body1) {
            return { unavailable: 'world.contacts has no normalImpulse/body0/body1 views' };
          }
          const id = dyn[i];
          const slot = typeof world.bodySlot === 'function' ? world.bodySlot(id) : id;
          const sumFor = (key) => {
            let sum = 0, points = 0;
            for (let k = 0; k < c.count; k++) {
              if (c.body0[k] === key || c.body1[k] === key) { sum += c.normalImpulse[k]; points++; }
            }
            return { sum, points };
          };
          let r = sumFor(id);
          if (r.points === 0 && slot !== id) r = sumFor(slot); // body0/body1 may hold slots
          return { impulse: r.sum, points: r.points, source: 'world.contacts.normalImpulse' };
        },
        /** Threads that executed jobs in the last step (Tribo's step statistics). */
        info() {
          const st = world.stepStats;
          return st ? { threadsUsed: st.threadsUsed } : {};
        },
        free() { world.free(); },
      };
    },
    close() { tribo.terminate?.(); },
  };
}
