/**
 * Tribo: rigid-body contact dynamics in WebAssembly.
 *
 *   const tribo = await init();            // threads when it can, single-threaded SIMD otherwise
 *   const world = tribo.createWorld({ gravity: [0, -9.81, 0], timestep: 1 / 60 });
 *
 * @module tribo
 */
import { defaultBuild, isWindowThread, loadBuild, BUILD_FILES, fileLocator } from './loader.js';
import { isNode, nodePlatform } from './platform.js';
import { fieldSet, readFieldTable } from './fields.js';
import { World, READBACK_INFO, DEFAULT_MATERIAL } from './world.js';
import { WorkerWorld } from './worker_world.js';

export { World, WorkerWorld, READBACK_INFO, DEFAULT_MATERIAL };
export { SnapshotError } from './errors.js';
export { wrenchShift, wrenchReaction, wrenchAverage } from './observe.js';
export { LIMITS } from './limits.js';

/* Scratch for small call arguments (world definition, states); checked against the engine's sizes. */
const SCRATCH_BYTES = 4096;

/** A loaded engine build. */
export class Tribo {
  constructor(M, build, defaultThreads) {
    this._M = M;
    /** 'threads' or 'simd': the build that was loaded. */
    this.build = build;
    /** Largest thread count a world may use in this build (caller included). */
    this.maxThreads = M._tb_max_threads();
    this._windowThread = isWindowThread();
    /** Threads a world uses unless told otherwise. */
    this.defaultThreads = this._windowThread ? 1 : Math.max(1, Math.min(defaultThreads, this.maxThreads));
    this._scratch = M._malloc(SCRATCH_BYTES);
    if (M._tb_world_def_size() > SCRATCH_BYTES) throw new Error(`init: the engine's world definition (${M._tb_world_def_size()} bytes) exceeds the scratch area`);
    /** Field tables (name, unit, doc, components) of the body and contact views. */
    this.fields = Object.freeze({ body: readFieldTable(M, fieldSet(M, 'body')), contact: readFieldTable(M, fieldSet(M, 'contact')) });
  }

  /** Creates an in-process world. */
  createWorld(options) { return new World(this, options); }

  /** Creates an in-process world from World.snapshot() bytes; options: { threads }. */
  createWorldFromSnapshot(bytes, options) { return new World(this, options, bytes); }

  /**
   * Creates a world stepped in a worker (Web Worker or worker_threads). Same API, async.
   * @param {object} [options] world options, plus `build` for the worker
   */
  createWorkerWorld(options = {}) { return WorkerWorld.create({ build: this.build, files: this._files, ...options }); }

  /** A worker world made from World.snapshot() bytes (in process or from a worker); options: { threads }. */
  createWorkerWorldFromSnapshot(bytes, options = {}) { return this.createWorkerWorld({ ...options, snapshot: bytes }); }

  /** Bytes currently allocated by the engine (returns to its earlier value after free()). */
  liveBytes() { return Number(this._M._tb_live_bytes()); }
}

async function hardwareThreads() {
  if (isNode) return (await nodePlatform()).hardwareThreads();
  if (typeof navigator === 'object' && navigator.hardwareConcurrency) return navigator.hardwareConcurrency;
  return 1;
}

/** File URLs of both builds as strings (a worker receives them; functions cannot be posted). */
function fileTable(options) {
  if (!options.locateFile && options.wasmURL === undefined) return undefined;
  const files = {};
  for (const build of ['simd', 'threads']) {
    const locate = fileLocator(options, build);
    for (const name of BUILD_FILES[build]) files[name] = locate(name);
  }
  return files;
}

let fallbackNoted = false;

/**
 * Creates a world stepped in a worker without loading the engine on this thread (a page only
 * renders): the worker loads the threaded build when this context is cross-origin isolated (or
 * in Node), the single-threaded build otherwise.
 * @param {object} [options] world options, plus `build` ('threads' | 'simd') to force one
 * @returns {Promise<WorkerWorld>}
 */
export function createWorkerWorld(options = {}) {
  const { locateFile, wasmURL, ...rest } = options;
  return WorkerWorld.create({ build: defaultBuild(), files: fileTable({ locateFile, wasmURL }), ...rest });
}

/**
 * Loads the engine.
 * @param {{ build?: 'threads'|'simd', locateFile?: (name: string) => string|URL|undefined,
 *   wasmURL?: string|URL, files?: Record<string, string> }} [options]
 *   build: force one build (default: 'threads' when cross-origin isolated or in Node, 'simd'
 *   otherwise); locateFile: URL of a dist file by name (tribo_simd.wasm, tribo_mt.wasm,
 *   tribo_mt.web.mjs, tribo_mt.worker.js) for hosts that move them; wasmURL: the chosen build's wasm.
 *   When the threaded build was chosen by default and its pthread workers cannot start, the
 *   simd build is loaded instead: `build` says 'simd' and `fallback` says why (one console note).
 * @returns {Promise<Tribo>}
 */
export async function init(options = {}) {
  if (options === null || typeof options !== 'object') throw new TypeError('init: options must be an object');
  const { build: requested, files, wasmBinary, wasmModule, ...locate } = options;
  if (files) locate.locateFile = (name) => files[name];
  const build = requested ?? defaultBuild();
  let M;
  let fallback = null;
  try {
    M = await loadBuild(build, { ...locate, wasmBinary, wasmModule });
  } catch (e) {
    if (requested || build !== 'threads' || isNode) throw e;
    fallback = e.message;
    if (!fallbackNoted) {
      fallbackNoted = true;
      console.info(`tribo: using the single-threaded 'simd' build — ${e.message}`);
    }
    M = await loadBuild('simd', locate);
  }
  const tribo = new Tribo(M, fallback ? 'simd' : build, await hardwareThreads());
  /** Why the threaded build was not used although it was the default (null when it was not needed). */
  tribo.fallback = fallback;
  tribo._files = files ?? fileTable(locate);
  return tribo;
}
