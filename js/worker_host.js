/**
 * The worker side of WorkerWorld: owns one World and answers the client's messages.
 * Runs as a Web Worker (module) or a Node worker_threads worker.
 * @module tribo/worker_host
 */
import { init, World } from './index.js';
import { frameHeader, frameLayout, writeFrame } from './frame.js';

let port;
if (typeof self === 'object' && typeof self.postMessage === 'function' && typeof window === 'undefined' && !globalThis.process?.versions?.node) {
  port = { post: (m, t) => self.postMessage(m, t), on: (fn) => { self.onmessage = (e) => fn(e.data); } };
} else {
  const { parentPort } = await import('node:worker_threads');
  port = { post: (m, t) => parentPort.postMessage(m, t), on: (fn) => parentPort.on('message', fn) };
}

let tribo = null;
let world = null;
let steps = 0;
// Shared frames: two buffers used in turn, so the client's current frame is never overwritten
// by the step that follows it.
const slots = [null, null];
let slot = 0;
let shared = false;

const ops = {
  async create(options) {
    const { build, ...worldOptions } = options;
    tribo = await init({ build });
    world = tribo.createWorld(worldOptions);
    shared = tribo.build === 'threads' && typeof SharedArrayBuffer === 'function';
    return { build: tribo.build, threads: world.threads, shared, timestep: world.timestep, fields: tribo.fields, api: worldApi() };
  },
  /** Any public World method or getter that has no dedicated operation. */
  call(name, args) {
    const kind = worldApi()[name];
    if (!kind) throw new Error(`${name}: not a World method`);
    return detach(kind === 'get' ? world[name] : world[name](...args));
  },
  addBody: (desc) => world.addBody(desc),
  removeBody: (id) => world.removeBody(id),
  setPose: (id, p, q) => world.setPose(id, p, q),
  setVelocity: (id, l, a) => world.setVelocity(id, l, a),
  setMass: (id, m) => world.setMass(id, m),
  setGravity: (g) => world.setGravity(g),
  setTimestep: (h) => world.setTimestep(h),
  getMass: (id) => world.getMass(id),
  /* -- convex: hull statistics -- */
  hullInfo: (id, index) => world.hullInfo(id, index),
  getState: (id) => Array.from(world.getState(id)),
  stepStats: () => world.stepStats,
  liveBytes: () => tribo.liveBytes(),
  getPosition: (id) => Array.from(world.getPosition(id)),
  getRotation: (id) => Array.from(world.getRotation(id)),
  getLinearVelocity: (id) => Array.from(world.getLinearVelocity(id)),
  getAngularVelocity: (id) => Array.from(world.getAngularVelocity(id)),
  setContactCapacity: (n) => world.setContactCapacity(n),
  setPairCapacity: (n) => world.setPairCapacity(n),
  readbackInfo: () => world.readbackInfo,
  /* -- ops section: distances and matching -- */
  // observation
  netContactWrench: (body, o) => world.netContactWrench(body, o),
  netContactWrenches: (o) => world.netContactWrenches(o),
  bodyContacts: (body, o) => Array.from(world.bodyContacts(body, o)),
  contactWrench: (i, side, p) => world.contactWrench(i, side, p),
  convertContacts: (c, first, count) => world.convertContacts(c, first, count),
  addContactSensor: (body, o) => world.addContactSensor(body, o),
  removeContactSensor: (id) => world.removeContactSensor(id),
  readContactSensor: (id) => world.readContactSensor(id),
  contactSensorHistory: (id) => world.contactSensorHistory(id),
  setEventCapacity: (n) => world.setEventCapacity(n),
  setForceThreshold: (n) => world.setForceThreshold(n),
  setPairForceThreshold: (a, b, n) => world.setPairForceThreshold(a, b, n),
  events: () => world.events,
  setMaterial: (shape, m) => world.setMaterial(shape, m),
  getMaterial: (shape) => world.getMaterial(shape),
  shapesOf: (body) => world.shapesOf(body),
  // Newton presets
  setContactOverride: (i, o) => world.setContactOverride(i, o),
  /* PhysX per-body solver settings and the solver status */
  setMaxContactImpulse: (id, v) => world.setMaxContactImpulse(id, v),
  setSolverIterations: (id, p, v) => world.setSolverIterations(id, p, v),
  solverStatus: () => world.solverStatus,
  resetSolver: () => world.resetSolver(),
  collide() {
    world.collide();
    return makeFrame();
  },
  solve() {
    world.solve();
    steps += 1;
    return makeFrame();
  },
  step(n) {
    world.step(n);
    steps += n;
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

port.on(async (msg) => {
  const { seq, op, args } = msg;
  try {
    if (!ops[op]) throw new Error(`worker: unknown operation ${op}`);
    if (op !== 'create' && !world) throw new Error(`${op}: this world was freed`);
    let value = await ops[op](...(args ?? []));
    let transfer = [];
    if (value && value.transfer) ({ value, transfer } = value);
    port.post({ seq, ok: true, value }, transfer);
  } catch (e) {
    port.post({ seq, ok: false, error: { name: e.name, message: e.message } });
  }
});

