/**
 * The worker side of WorkerWorld: owns one World and answers the client's messages.
 * Runs as a Web Worker (module) or a Node worker_threads worker.
 * @module tribo/worker_host
 */
import { init, World } from './index.js';
import { frameHeader, frameLayout, writeFrame } from './frame.js';
import { engineTables } from './fields.js';

import { isNode, nodePlatform } from './platform.js';

// No top-level await: bundlers may emit this worker as a classic script.
const portReady = isNode
  ? nodePlatform().then((p) => p.workerPort())
  : Promise.resolve({ post: (m, t) => self.postMessage(m, t), on: (fn) => { self.onmessage = (e) => fn(e.data); } });

let tribo = null;
let world = null;
let steps = 0;
// Shared frames: two buffers used in turn, so the client's current frame is never overwritten
// by the step that follows it.
const slots = [null, null];
let slot = 0;
let shared = false;
/* stop requests of a running step: a shared flag (Int32Array, set by the client) or a 'stop' message */
let stopFlag = null;
let stopMessage = false;
const stopRequested = () => stopMessage || (stopFlag !== null && Atomics.load(stopFlag, 0) === 1);
/* without a shared flag, a step yields to the message queue this often (ms) to see a 'stop' */
const CHUNK_MS = 10;
const now = () => (typeof performance === 'object' ? performance.now() : Date.now());
function yieldToMessages() {
  if (typeof setImmediate === 'function') return new Promise((r) => setImmediate(r));
  const ch = new MessageChannel();
  return new Promise((r) => { ch.port1.onmessage = () => { ch.port1.close(); r(); }; ch.port2.postMessage(0); });
}

/* Results the client receives as plain arrays rather than typed-array copies. */
const AS_ARRAY = new Set(['getState', 'getPosition', 'getRotation', 'getLinearVelocity', 'getAngularVelocity', 'bodyContacts']);

const ops = {
  async create(options, stop) {
    stopFlag = stop ?? null;
    const { build, files, wasmBinary, wasmModule, snapshot, ...worldOptions } = options;
    tribo = await init({ build, files, wasmBinary, wasmModule });
    const baseBytes = tribo.liveBytes();
    world = snapshot === undefined ? tribo.createWorld(worldOptions) : tribo.createWorldFromSnapshot(snapshot, worldOptions);
    shared = tribo.build === 'threads' && typeof SharedArrayBuffer === 'function';
    return { build: tribo.build, threads: world.threads, shared, timestep: world.timestep, fields: tribo.fields,
      constants: engineTables(tribo._M).constants, api: worldApi(), baseBytes };
  },
  /** Any public World method or getter that has no dedicated operation. */
  call(name, args) {
    const kind = worldApi()[name];
    if (!kind) throw new Error(`${name}: not a World method`);
    const v = kind === 'get' ? world[name] : world[name](...args);
    return AS_ARRAY.has(name) ? Array.from(v) : detach(v);
  },
  liveBytes: () => tribo.liveBytes(),
  /** World.restore; answers the restored timestep (s). */
  restore(bytes) {
    world.restore(bytes);
    return world.timestep;
  },
  collide() {
    world.collide();
    return makeFrame();
  },
  solve() {
    world.solve();
    steps += 1;
    return makeFrame();
  },
  /** n timesteps, one at a time so that free() or terminate() can stop them between two. */
  async step(n) {
    let yielded = now();
    for (let i = 0; i < n; i++) {
      if (stopRequested()) throw new Error(`step: stopped by free() or terminate() after ${i} of ${n} timesteps`);
      world.step(1);
      steps += 1;
      if (stopFlag === null && now() - yielded > CHUNK_MS) {
        await yieldToMessages();
        yielded = now();
      }
    }
    return makeFrame();
  },
  frame: () => makeFrame(),
  free() {
    world.free();
    world = null;
    return tribo.liveBytes();
  },
};

/** Public World methods ('call') and getters ('get') by name, from World's prototype. */
let api = null;
function worldApi() {
  if (!api) {
    api = {};
    for (const [name, d] of Object.entries(Object.getOwnPropertyDescriptors(World.prototype))) {
      if (name === 'constructor' || name.startsWith('_')) continue;
      if (d.get) api[name] = 'get';
      else if (typeof d.value === 'function') api[name] = 'call';
    }
  }
  return api;
}

/** A result without views over engine memory (typed arrays are copied; cloning a view would copy the whole heap). */
function detach(v) {
  if (ArrayBuffer.isView(v)) return v.slice();
  if (Array.isArray(v)) return v.map(detach);
  if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    const out = {};
    for (const [k, x] of Object.entries(v)) out[k] = detach(x);
    return out;
  }
  return v;
}

/** @returns {{ value: object, transfer: ArrayBuffer[] }} */
function makeFrame() {
  const layout = frameLayout(world);
  const header = frameHeader(world, steps);
  if (shared) {
    slot ^= 1;
    let fresh = null;
    if (!slots[slot] || slots[slot].byteLength < layout.bytes) {
      slots[slot] = new SharedArrayBuffer(Math.max(1024, 2 * layout.bytes));
      fresh = slots[slot];
    }
    writeFrame(world, layout, slots[slot]);
    return { value: { header, layout, slot, buffer: fresh }, transfer: [] };
  }
  const buffer = new ArrayBuffer(layout.bytes);
  writeFrame(world, layout, buffer);
  return { value: { header, layout, slot: -1, buffer }, transfer: [buffer] };
}

/* Operations run one after the other in arrival order; 'stop' is seen at once (between timesteps). */
const port = { post: () => {} };
let queue = Promise.resolve();
portReady.then((p) => {
  port.post = p.post;
  p.on((msg) => {
    if (msg.op === 'stop') {
      stopMessage = true;
      return;
    }
    queue = queue.then(() => answer(msg));
  });
});

async function answer(msg) {
  const { seq, op, args } = msg;
  try {
    if (!ops[op]) throw new Error(`worker: unknown operation ${op}`);
    if (op !== 'create' && !world) throw new Error(`${op}: this world was freed`);
    let value = await ops[op](...(args ?? []));
    let transfer = [];
    if (value && value.transfer) ({ value, transfer } = value);
    port.post({ seq, ok: true, value }, transfer);
  } catch (e) {
    port.post({ seq, ok: false, error: { name: e.name, message: e.message, reason: e.reason } });
  }
}
