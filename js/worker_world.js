/**
 * WorkerWorld: the World API stepped in a worker (Web Worker in browsers, worker_threads in
 * Node). Every call is async. `step()` resolves with the frame of the completed step:
 *  - with shared memory (threaded build) the frame's arrays view a SharedArrayBuffer written by
 *    the worker: no copy on this side; a frame stays intact until the step after the next one
 *    starts (two buffers in turn), and is never seen half-written;
 *  - without it, the worker transfers a fresh buffer per frame (owned by the caller).
 * @module tribo/worker_world
 */
import { SnapshotError } from './errors.js';
import { readFrame } from './frame.js';
import { int } from './check.js';
import { checkIdValues } from './ids.js';
import { noteConstants } from './fields.js';
import { isNode, nodePlatform } from './platform.js';
import { sameOriginScript, unbundledURL } from './loader.js';

const HOST = './worker_host.js';
const DEV_HOST = '../js/worker_host.js'; // from node_modules/.vite/deps/ (Vite dev server)

/** Starts the browser worker instead of the package's worker_host.js (tribo/compat: an inlined script). */
let startBrowserWorker = null;
export function setWorkerStarter(start) { startBrowserWorker = start; }

/**
 * Every public World method or getter without a dedicated WorkerWorld member is forwarded to the
 * worker: methods return a Promise of the result, getters a Promise of the value (typed arrays
 * arrive as copies).
 */
function withWorldApi(w, api) {
  return new Proxy(w, {
    get(target, name, receiver) {
      if (typeof name !== 'string' || name in target || !api?.[name]) return Reflect.get(target, name, receiver);
      if (api[name] === 'get') return target._call('call', [name, []], name);
      return (...args) => target._send(name, args);
    },
  });
}

/**
 * A step runs in chunks between which the worker looks for a stop request (free, terminate):
 * through a shared flag when SharedArrayBuffer exists (read between timesteps), otherwise the
 * worker yields to its message queue every CHUNK_MS.
 */
const STOP_FLAG = typeof SharedArrayBuffer === 'function' && (isNode || globalThis.crossOriginIsolated === true);

export class WorkerWorld {
  /** @private */
  constructor(worker, node, url) {
    this._worker = worker;
    this._url = url;
    this._seq = 0;
    this._pending = new Map(); /* seq -> { resolve, reject, name } */
    this._slots = [null, null];
    this._freed = false;
    this._dead = null; /* the reason the worker can answer no more (an Error message), or null */
    this._stop = STOP_FLAG ? new Int32Array(new SharedArrayBuffer(4)) : null;
    const onMessage = (msg) => {
      const p = this._pending.get(msg.seq);
      if (!p) return;
      this._pending.delete(msg.seq);
      this._idle();
      if (msg.ok) p.resolve(msg.value);
      else {
        if (msg.error.name === 'SnapshotError') p.reject(new SnapshotError(msg.error.reason, msg.error.message));
        else p.reject(new ({ RangeError, TypeError }[msg.error.name] ?? Error)(msg.error.message));
      }
    };
    if (node) {
      worker.on('message', onMessage);
      worker.on('error', (e) => this._die(`the worker failed: ${e?.message ?? e}`));
      worker.on('messageerror', (e) => this._die(`a message from the worker could not be read: ${e?.message ?? e}`));
      worker.on('exit', (code) => this._die(`the worker exited (code ${code})`));
    } else {
      worker.onmessage = (e) => onMessage(e.data);
      worker.onerror = (e) => {
        e.preventDefault?.();
        const where = e.filename ? ` at ${e.filename}:${e.lineno}` : '';
        this._die(e.message
          ? `the worker (${url}) threw${where}: ${e.message}`
          : `the worker script ${url} failed to load (a 404, a MIME type that is not JavaScript, or a CORS/COEP block of it or of a module it imports)`);
      };
      worker.onmessageerror = () => this._die(`a message from the worker (${url}) could not be deserialised`);
    }
  }

  /**
   * The worker can answer no more: every pending call rejects with an Error naming its method
   * and `reason`, and so does every later call.
   */
  _die(reason) {
    if (this._dead) return;
    this._dead = reason;
    this._freed = true;
    const pending = [...this._pending.values()];
    this._pending.clear();
    this._idle();
    for (const p of pending) p.reject(new Error(`${p.name}: ${reason}`));
  }

  /**
   * @param {object} options world options plus `build` ('threads' | 'simd'), or `snapshot` (World.snapshot() bytes) and `threads`
   * @returns {Promise<WorkerWorld>}
   */
  static async create(options = {}) {
    let worker;
    let url;
    if (isNode) {
      url = new URL(HOST, import.meta.url);
      worker = (await nodePlatform()).startWorker(url);
      worker.unref(); // ref'd again while a call is pending (see _call)
    } else {
      // Not a literal: only the constructor's literal below is for bundlers to emit as a worker.
      url = new URL(HOST, import.meta.url).href;
      const viteDev = /\/node_modules\/\.vite\/deps/.test(import.meta.url);
      if (startBrowserWorker) [worker, url] = startBrowserWorker();
      else if (viteDev) worker = new Worker((url = unbundledURL(new URL(DEV_HOST, import.meta.url).href)), { type: 'module' });
      else try {
        worker = new Worker(new URL('./worker_host.js', import.meta.url), { type: 'module' });
      } catch (e) {
        // A script from another origin (a CDN) cannot be a worker: start a same-origin module
        // that imports it instead (needs CORS on that origin).
        if (e?.name !== 'SecurityError') throw new Error(`WorkerWorld: cannot start the worker ${url}: ${e.message}`);
        worker = new Worker(sameOriginScript(url, true), { type: 'module' });
      }
    }
    const w = new WorkerWorld(worker, isNode, url);
    let info;
    try {
      info = await w._call('create', [options, w._stop], 'createWorkerWorld');
      /** 'threads' or 'simd': the build running in the worker. */
      w.build = info.build;
      w.threads = info.threads;
      /** true when frames arrive over shared memory without copies. */
      w.shared = info.shared;
      w.timestep = info.timestep;
      w.fields = info.fields;
      noteConstants(info.constants);
      /** The worker engine's live bytes before this world was created (free() returns to it). */
      w.baseBytes = info.baseBytes;
    } catch (e) {
      w.terminate();
      throw e;
    }
    return withWorldApi(w, info.api);
  }

  /** A World method: its id arguments checked here (the same check as in process), then posted. */
  _send(name, args) {
    try {
      checkIdValues(name, args);
    } catch (e) {
      return Promise.reject(e);
    }
    return this._call('call', [name, args], name);
  }

  /** Posts an operation; `name` is the World method it stands for (in error messages). */
  _call(op, args = [], name = op) {
    if (this._dead) return Promise.reject(new Error(`${name}: ${this._dead}`));
    const seq = ++this._seq;
    return new Promise((resolve, reject) => {
      if (this._pending.size === 0) this._worker.ref?.();
      this._pending.set(seq, { resolve, reject, name });
      try {
        this._worker.postMessage({ seq, op, args });
      } catch (e) {
        /* DataCloneError: nothing was posted */
        this._pending.delete(seq);
        this._idle();
        reject(new TypeError(`${name}: an argument cannot be sent to the worker (${e.message})`));
      }
    });
  }

  /** Node: a worker with nothing pending does not keep the process alive. */
  _idle() { if (this._pending.size === 0) this._worker.unref?.(); }

  _frame(msg) {
    let buffer = msg.buffer;
    if (msg.slot >= 0) {
      if (buffer) this._slots[msg.slot] = buffer;
      buffer = this._slots[msg.slot];
    }
    return readFrame(msg.header, msg.layout, buffer);
  }

  /* Every other World method and getter is forwarded by withWorldApi (see worker_host.js `call`). */
  async setTimestep(timestep) { await this._send('setTimestep', [timestep]); this.timestep = Math.fround(timestep); }
  /** World.restore in the worker: the whole state replaced by a snapshot's (a SnapshotError names why bytes are refused). */
  async restore(bytes) { this.timestep = await this._call('restore', [bytes], 'restore'); }
  /** Bytes the worker's engine has allocated. */
  liveBytes() { return this._call('liveBytes'); }
  /** Collision stage only; resolves with a frame whose contacts have no impulses yet (readbackValid false). */
  async collide() { return this._frame(await this._call('collide')); }
  /** Solver stage only, on the contacts of the preceding collide(); resolves with the frame. */
  async solve() { return this._frame(await this._call('solve')); }

  /**
   * Steps n timesteps in the worker; resolves with the frame of the last one. free() and
   * terminate() stop it between timesteps (it then rejects naming why).
   */
  async step(n = 1) {
    int('step', 'n', n, 1, 0);
    return this._frame(await this._call('step', [n]));
  }
  /** The current state as a frame, without stepping. */
  async frame() { return this._frame(await this._call('frame')); }

  /**
   * Frees the world and stops the worker; a step in progress stops at its next timestep and
   * rejects. Resolves with the engine's live bytes after freeing.
   */
  async free() {
    if (this._freed) return 0;
    this._requestStop();
    const live = await this._call('free');
    this._shutdown('this world was freed');
    return live;
  }

  /**
   * Stops the worker now, without waiting for it: every pending call rejects with an Error
   * naming its method ("… terminated"), and every later call too. The world's memory goes with
   * the worker.
   */
  terminate() {
    this._requestStop();
    this._shutdown('the worker world was terminated');
  }

  _shutdown(reason) {
    this._freed = true;
    this._die(reason);
    this._worker.terminate();
  }

  /* asks a running step to stop at its next timestep */
  _requestStop() {
    if (this._stop) Atomics.store(this._stop, 0, 1);
    else if (!this._dead) {
      try { this._worker.postMessage({ seq: 0, op: 'stop' }); } catch { /* the worker is gone */ }
    }
  }
}
