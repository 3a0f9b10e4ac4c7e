/**
 * WorkerWorld: the World API stepped in a worker (Web Worker in browsers, worker_threads in
 * Node). Every call is async. `step()` resolves with the frame of the completed step:
 *  - with shared memory (threaded build) the frame's arrays view a SharedArrayBuffer written by
 *    the worker: no copy on this side; a frame stays intact until the step after the next one
 *    starts (two buffers in turn), and is never seen half-written;
 *  - without it, the worker transfers a fresh buffer per frame (owned by the caller).
 * @module tribo/worker_world
 */
import { readFrame } from './frame.js';

const isNode = typeof process === 'object' && !!process.versions?.node && typeof window === 'undefined';

/**
 * Every public World method or getter without a dedicated WorkerWorld member is forwarded to the
 * worker: methods return a Promise of the result, getters a Promise of the value (typed arrays
 * arrive as copies).
 */
function withWorldApi(w, api) {
  return new Proxy(w, {
    get(target, name, receiver) {
      if (typeof name !== 'string' || name in target || !api?.[name]) return Reflect.get(target, name, receiver);
      if (api[name] === 'get') return target._call('call', [name, []]);
      return (...args) => target._call('call', [name, args]);
    },
  });
}

export class WorkerWorld {
  /** @private */
  constructor(worker, node) {
    this._worker = worker;
    this._seq = 0;
    this._pending = new Map();
    this._slots = [null, null];
    this._freed = false;
    const onMessage = (msg) => {
      const p = this._pending.get(msg.seq);
      if (!p) return;
      this._pending.delete(msg.seq);
      if (msg.ok) p.resolve(msg.value);
      else {
        const E = { RangeError, TypeError }[msg.error.name] ?? Error;
        p.reject(new E(msg.error.message));
      }
    };
    const onError = (e) => {
      for (const p of this._pending.values()) p.reject(e instanceof Error ? e : new Error(String(e.message ?? e)));
      this._pending.clear();
    };
    if (node) {
      worker.on('message', onMessage);
      worker.on('error', onError);
    } else {
      worker.onmessage = (e) => onMessage(e.data);
      worker.onerror = (e) => { e.preventDefault?.(); onError(new Error(e.message || 'worker error')); };
    }
  }

  /**
   * @param {object} options world options plus `build` ('threads' | 'simd')
   * @returns {Promise<WorkerWorld>}
   */
  static async create(options = {}) {
    const url = new URL('./worker_host.js', import.meta.url);
    let worker;
    if (isNode) {
      const { Worker } = await import('node:worker_threads');
      worker = new Worker(url);
    } else {
      worker = new Worker(url, { type: 'module' });
    }
    const w = new WorkerWorld(worker, isNode);
    let info;
    try {
      info = await w._call('create', [options]);
      /** 'threads' or 'simd': the build running in the worker. */
      w.build = info.build;
      w.threads = info.threads;
      /** true when frames arrive over shared memory without copies. */
      w.shared = info.shared;
      w.timestep = info.timestep;
      w.fields = info.fields;
    } catch (e) {
      w._terminate();
      throw e;
    }
    return withWorldApi(w, info.api);
  }

  _call(op, args = []) {
    if (this._freed) return Promise.reject(new Error(`${op}: this world was freed`));
    const seq = ++this._seq;
    return new Promise((resolve, reject) => {
      this._pending.set(seq, { resolve, reject });
      this._worker.postMessage({ seq, op, args });
    });
  }

  _frame(msg) {
    let buffer = msg.buffer;
    if (msg.slot >= 0) {
      if (buffer) this._slots[msg.slot] = buffer;
      buffer = this._slots[msg.slot];
    }
    return readFrame(msg.header, msg.layout, buffer);
  }

  addBody(desc) { return this._call('addBody', [desc]); }
  removeBody(id) { return this._call('removeBody', [id]); }
  setPose(id, position, rotation) { return this._call('setPose', [id, position, rotation]); }
  setVelocity(id, linear, angular) { return this._call('setVelocity', [id, linear, angular]); }
  setMass(id, m) { return this._call('setMass', [id, m]); }
  setGravity(gravity) { return this._call('setGravity', [gravity]); }
  async setTimestep(timestep) { await this._call('setTimestep', [timestep]); this.timestep = Math.fround(timestep); }
  getMass(id) { return this._call('getMass', [id]); }
  /** See World.hullInfo. */
  hullInfo(body, index = 0) { return this._call('hullInfo', [body, index]); }
  /** 13 numbers: position, rotation (x, y, z, w), linear velocity, angular velocity. */
  getState(id) { return this._call('getState', [id]); }
  get stepStats() { return this._call('stepStats'); }
  liveBytes() { return this._call('liveBytes'); }

  /** Body origin position (m, world): 3 numbers. */
  getPosition(id) { return this._call('getPosition', [id]); }
  /** Rotation quaternion x, y, z, w. */
  getRotation(id) { return this._call('getRotation', [id]); }
  /** Linear velocity of the centre of mass (m/s, world). */
  getLinearVelocity(id) { return this._call('getLinearVelocity', [id]); }
  /** Angular velocity (rad/s, world). */
  getAngularVelocity(id) { return this._call('getAngularVelocity', [id]); }
  /** Grows the contact store. */
  setContactCapacity(n) { return this._call('setContactCapacity', [n]); }
  /** Grows the broad-phase pair capacity. */
  setPairCapacity(n) { return this._call('setPairCapacity', [n]); }
  /** What the contact readback of the world's preset includes and excludes. */
  get readbackInfo() { return this._call('readbackInfo'); }

  /* -- observation (see World): resolve with the same values -- */
  netContactWrench(body, options) { return this._call('netContactWrench', [body, options]); }
  netContactWrenches(options) { return this._call('netContactWrenches', [options]); }
  bodyContacts(body, options) { return this._call('bodyContacts', [body, options]); }
  contactWrench(index, side, point) { return this._call('contactWrench', [index, side, point]); }
  convertContacts(convention, first, count) { return this._call('convertContacts', [convention, first, count]); }
  addContactSensor(body, options) { return this._call('addContactSensor', [body, options]); }
  removeContactSensor(id) { return this._call('removeContactSensor', [id]); }
  readContactSensor(id) { return this._call('readContactSensor', [id]); }
  contactSensorHistory(id) { return this._call('contactSensorHistory', [id]); }
  setEventCapacity(capacity) { return this._call('setEventCapacity', [capacity]); }
  setForceThreshold(newtons) { return this._call('setForceThreshold', [newtons]); }
  setPairForceThreshold(shape0, shape1, newtons) { return this._call('setPairForceThreshold', [shape0, shape1, newtons]); }
  /** Events of the last solve() (a getter that returns a promise). */
  get events() { return this._call('events'); }
  /** See World.setMaterial: changes the given fields of a shape's material. */
  setMaterial(shapeId, material) { return this._call('setMaterial', [shapeId, material]); }
  /** See World.getMaterial. */
  getMaterial(shapeId) { return this._call('getMaterial', [shapeId]); }
  /** See World.shapesOf: shape ids of a body in creation order. */
  shapesOf(bodyId) { return this._call('shapesOf', [bodyId]); }
  /** Newton penalty: per-contact overrides (0 = unset) between collide() and solve(). */
  setContactOverride(index, override) { return this._call('setContactOverride', [index, override]); }
  /** PhysX maxContactImpulse of a body (N·s per contact point and step; Infinity = none). */
  setMaxContactImpulse(id, maxImpulse) { return this._call('setMaxContactImpulse', [id, maxImpulse]); }
  /** PhysX solver iteration requests of a body (-1 = the world's). */
  setSolverIterations(id, position = -1, velocity = -1) { return this._call('setSolverIterations', [id, position, velocity]); }
  /** Status of the last solve (iterations used, residuals). */
  get solverStatus() { return this._call('solverStatus'); }
  /** Clears the solver's history across steps (Kamino: the warm-start cache). */
  resetSolver() { return this._call('resetSolver'); }
  /** Collision stage only; resolves with a frame whose contacts have no impulses yet (readbackValid false). */
  async collide() { return this._frame(await this._call('collide')); }
  /** Solver stage only, on the contacts of the preceding collide(); resolves with the frame. */
  async solve() { return this._frame(await this._call('solve')); }

  /** Steps n timesteps in the worker; resolves with the frame of the last one. */
  async step(n = 1) { return this._frame(await this._call('step', [n])); }
  /** The current state as a frame, without stepping. */
  async frame() { return this._frame(await this._call('frame')); }

  /** Frees the world and stops the worker. Resolves with the engine's live bytes after freeing. */
  async free() {
    if (this._freed) return 0;
    const live = await this._call('free');
    this._terminate();
    return live;
  }

  _terminate() {
    this._freed = true;
    this._worker.terminate();
  }
}
