/**
 * Tribo: rigid-body contact dynamics in WebAssembly.
 *
 *   const tribo = await init();            // threads when it can, single-threaded SIMD otherwise
 *   const world = tribo.createWorld({ gravity: [0, -9.81, 0], timestep: 1 / 60 });
 *
 * @module tribo
 */
import { defaultBuild, isWindowThread, loadBuild } from './loader.js';
import { fieldSet, readFieldTable } from './fields.js';
import { World, READBACK_INFO, DEFAULT_MATERIAL } from './world.js';
import { WorkerWorld } from './worker_world.js';

export { World, WorkerWorld, READBACK_INFO, DEFAULT_MATERIAL };
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

  /**
   * Creates a world stepped in a worker (Web Worker or worker_threads). Same API, async.
   * @param {object} [options] world options, plus `build` for the worker
   */
  createWorkerWorld(options = {}) { return WorkerWorld.create({ build: this.build, ...options }); }

  /** Bytes currently allocated by the engine (returns to its earlier value after free()). */
  liveBytes() { return Number(this._M._tb_live_bytes()); }
}

async function hardwareThreads() {
  if (typeof navigator === 'object' && navigator.hardwareConcurrency) return navigator.hardwareConcurrency;
  try {
    const os = await import('node:os');
    return os.availableParallelism ? os.availableParallelism() : os.cpus().length;
  } catch {
    return 1;
  }
}

/**
 * Creates a world stepped in a worker without loading the engine on this thread (a page only
 * renders): the worker loads the threaded build when this context is cross-origin isolated (or
 * in Node), the single-threaded build otherwise.
 * @param {object} [options] world options, plus `build` ('threads' | 'simd') to force one
 * @returns {Promise<WorkerWorld>}
 */
export function createWorkerWorld(options = {}) {
  return WorkerWorld.create({ build: defaultBuild(), ...options });
}

/**
 * Loads the engine.
 * @param {{ build?: 'threads'|'simd' }} [options] build: force one build (default: 'threads' when
 *   cross-origin isolated or in Node, 'simd' otherwise)
 * @returns {Promise<Tribo>}
 */
export async function init(options = {}) {
  const build = options.build ?? defaultBuild();
  const M = await loadBuild(build);
  return new Tribo(M, build, await hardwareThreads());
}
