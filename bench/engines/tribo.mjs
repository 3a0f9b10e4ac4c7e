// Tribo through its ESM API (js/index.js), one module for every Tribo entry of the bench. run.mjs
// names an entry `tribo:<param>:…` and hands the parameters to load() and engineId():
//   simd | threads       the wasm build (default simd); simd runs 1 thread, threads runs 2
//   preset=<name>        createWorld({ preset }) with the preset's own defaults (one of PRESETS)
//   fixed                with threads: createWorld({ adaptiveThreads: false }), every step on both
//                        threads (the default adapts: README "Threads")
//   one                  with threads: createWorld({ threads: 1 }): the threads build on the caller
//                        alone, as the adaptive world runs beside a busy process (against tribo:simd:
//                        what the threads build costs when it does not use its threads)
//   read                 reads world.contacts after every step, as an app that draws its contacts
//                        each frame does: the store's records are written then (README "Contacts")
// Row names in the report: tribo-simd, tribo-threads, tribo-<preset> (simd build),
// tribo-threads-<preset> (threads build), tribo-threads-fixed(-<preset>), tribo-threads-one(-<preset>).
// The contract with js/index.js:
//   const tribo = await init({ build: 'simd' | 'threads' });
//   const world = tribo.createWorld({ gravity, timestep, threads, preset, sleep: 'off' });
//   world.addBody({ type, position, rotation, shapes: [{ type, ..., density, friction, restitution }] })
//   world.step(); world.getPosition(id, out); world.contacts; world.free();
// Solver settings are the preset's defaults (no substeps/iterations passed) with sleeping off; without a preset the
// world is Tribo's default (the physx-tgs preset).
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

/** Names of Tribo's presets (createWorld({ preset })), one bench entry each (tribo:preset=<name>). */
export const PRESETS = ['physx-pgs', 'physx-tgs', 'newton-xpbd', 'newton-semi', 'mujoco', 'kamino', 'genesis'];

/**
 * The configuration of the parameters of a bench name (`tribo:threads` → { threads: true }):
 * build 'simd' | 'threads', threads = worker count passed to createWorld, preset = one of PRESETS
 * or undefined for the default world. Throws a RangeError naming an unknown parameter.
 */
function configOf(params = {}) {
  if ('simd' in params && 'threads' in params) throw new RangeError('tribo: simd and threads name two builds; give one');
  let build = 'simd', preset, fixed = false, read = false, one = false;
  for (const [key, value] of Object.entries(params)) {
    if ((key === 'simd' || key === 'threads') && value === true) build = key;
    else if (key === 'fixed' && value === true) fixed = true;
    else if (key === 'one' && value === true) one = true;
    else if (key === 'read' && value === true) read = true;
    else if (key === 'preset' && PRESETS.includes(value)) preset = value;
    else if (key === 'preset') throw new RangeError(`tribo: preset must be one of ${PRESETS.join(', ')} (got ${JSON.stringify(value)})`);
    else throw new RangeError(`tribo: unknown parameter ${value === true ? key : `${key}=${value}`} (known: simd, threads, fixed, one, read, preset=<name>)`);
  }
  if ((fixed || one) && build !== 'threads') throw new RangeError(`tribo: ${fixed ? 'fixed' : 'one'} applies to the threads build only`);
  if (fixed && one) throw new RangeError('tribo: fixed (both threads) and one (the caller alone) exclude each other');
  return { build, threads: build === 'threads' && !one ? 2 : 1, preset, fixed, read, one };
}

/** Row name of the entry in the report tables: tribo-simd, tribo-threads, tribo-<preset>, tribo-threads-<preset>. */
export function engineId(params) {
  const { build, preset, fixed, read, one } = configOf(params);
  const b = fixed ? `${build}-fixed` : one ? `${build}-one` : build;
  const id = preset ? (build === 'simd' ? `tribo-${preset}` : `tribo-${b}-${preset}`) : `tribo-${b}`;
  return read ? `${id}-read` : id;
}

export const packageName = null;

export async function load(params) {
  return loadFrom(ROOT, params);
}

/** load() from the checkout at root (its js/ and dist/); bench/ab.mjs compares two checkouts. */
export async function loadFrom(root, params) {
  const { build, threads, preset, fixed, read, one } = configOf(params);
  const entry = path.join(root, 'js/index.js');
  if (!fs.existsSync(entry)) throw new Unavailable('js/index.js does not exist yet (Tribo JS API not written)');
  const dist = path.join(root, 'dist');
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
    id: engineId(params),
    version: null,
    preset: preset ?? 'physx-tgs',
    notes: `${build === 'simd' ? 'single-threaded SIMD128 wasm' : 'pthreads wasm'}, threads: ${threads}${build === 'simd' ? '' : fixed ? ' (fixed)' : one ? ' (the caller alone)' : ' (adaptive)'}; ` +
      (preset ? `preset ${preset} with its default parameters` : 'Tribo default solver (preset physx-tgs)') +
      (read ? '; world.contacts read after every step' : ''),
    createWorld(scene) {
      // sleeping off, as for every engine of the bench (the physx presets sleep by default)
      const opts = { gravity: GRAVITY, timestep: DT, threads, sleep: 'off' };
      if (fixed) opts.adaptiveThreads = false;
      if (preset) opts.preset = preset;
      const world = tribo.createWorld(opts);
      const dyn = [];
      for (const b of scene.bodies) {
        const id = world.addBody({ type: b.type, position: b.position, rotation: b.rotation, shapes: [shapeDesc(b)] });
        if (typeof id !== 'number' || id < 0) throw new Error(`tribo addBody returned ${id}`);
        if (b.type === 'dynamic') dyn.push(id);
      }
      const tmp = new Float32Array(3);
      let sink = 0;
      return {
        step() {
          world.step();
          if (read) sink += world.contacts.normalImpulse.length; // the views: the records written
        },
        readPositions(out) {
          for (let i = 0; i < dyn.length; i++) {
            world.getPosition(dyn[i], tmp);
            out[3 * i] = tmp[0]; out[3 * i + 1] = tmp[1]; out[3 * i + 2] = tmp[2];
          }
        },
        mass() { return undefined; },
        /**
         * Sum of contacts.normalImpulse (N·s over the step) over the contacts that involve the body;
         * unavailable when the preset's solver computes no per-contact force (newton-semi).
         */
        contactNormalImpulse(i) {
          const rb = world.readbackInfo;
          if (rb && rb.perContactForce === false) {
            return { unavailable: `preset ${world.preset}: the solver computes no per-contact force (readbackInfo.perContactForce false; contacts.normalImpulse is NaN)` };
          }
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
        /**
         * Net contact force on the body over the last step (N, world axes; y up, so a resting body
         * reads +m·g in y): world.netContactWrench(id).force, from per-body totals where the solver
         * keeps them (newton-semi) or the sum of the per-contact readback.
         */
        netContactForce(i) {
          if (typeof world.netContactWrench !== 'function') return { unavailable: 'world.netContactWrench is missing' };
          try {
            const w = world.netContactWrench(dyn[i]);
            return { force: [w.force[0], w.force[1], w.force[2]], source: 'world.netContactWrench(id).force' };
          } catch (err) {
            return { unavailable: `netContactWrench: ${err.message}` };
          }
        },
        /**
         * Threads that executed jobs in the last step (Tribo's step statistics); for an adaptive
         * threads world the governor's mode at the end and its switches (a round at one thread's
         * speed: a serial choice, or a worker that waited); bytes Tribo holds.
         */
        info() {
          const st = world.stepStats;
          const tm = build === 'threads' && !fixed ? world.threadMode : null;
          return { ...(st ? { threadsUsed: st.threadsUsed } : {}),
            ...(tm ? { serial: tm.serial, switches: tm.switches } : {}), liveBytes: tribo.liveBytes?.() };
        },
        free() { world.free(); },
      };
    },
    close() { tribo.terminate?.(); },
  };
}
