/**
 * tribo/compat: the same API with the single-threaded build's wasm inlined (base64) and the
 * worker inlined as a script, so that one file works from a CDN, in a one-script page and in any
 * bundler with no configuration. It always runs the 'simd' build in a page; on a cross-origin
 * isolated page `tribo.fallback` says so (the threaded build needs the files of `tribo`).
 * Built into dist/tribo_compat.mjs by tools/build_compat.mjs.
 * @module tribo/compat
 */
import { init as initFiles, createWorkerWorld as createWorkerWorldFiles } from './index.js';
import { setWorkerStarter } from './worker_world.js';
import { SIMD_WASM_BASE64, WORKER_SOURCE } from 'tribo-compat-inline';

export * from './index.js';

let wasm = null;
/** The inlined wasm's bytes (decoded once; each init and worker gets a copy). */
function wasmBytes() {
  if (!wasm) {
    const bin = atob(SIMD_WASM_BASE64);
    wasm = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) wasm[i] = bin.charCodeAt(i);
  }
  return wasm.slice();
}

let workerURL = null;
setWorkerStarter(() => {
  workerURL ??= URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'text/javascript' }));
  return [new Worker(workerURL, { type: 'module' }), 'tribo/compat (inlined worker)'];
});

const ONLY_SIMD = "tribo/compat inlines the single-threaded 'simd' build only (import 'tribo' for threads)";
let noted = false;

/** See init in tribo: same options; the build is always 'simd'. */
export async function init(options = {}) {
  const tribo = await initFiles({ ...options, build: 'simd', wasmBinary: wasmBytes() });
  if (globalThis.crossOriginIsolated === true) {
    tribo.fallback = ONLY_SIMD;
    if (!noted) { noted = true; console.info(`tribo: ${ONLY_SIMD}`); }
  }
  tribo.createWorkerWorld = (o = {}) => createWorkerWorld(o);
  return tribo;
}

/** See createWorkerWorld in tribo: the worker runs the inlined 'simd' build. */
export function createWorkerWorld(options = {}) {
  return createWorkerWorldFiles({ ...options, build: 'simd', wasmBinary: wasmBytes() });
}
