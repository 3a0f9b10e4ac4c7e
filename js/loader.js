/**
 * Loads one of the two WebAssembly builds.
 *  - 'threads': pthreads + SIMD128; needs SharedArrayBuffer (cross-origin isolated pages, Node).
 *  - 'simd':    single-threaded SIMD128; works on every page.
 * @module tribo/loader
 */

const isNode = typeof process === 'object' && !!process.versions?.node && typeof window === 'undefined'
  && typeof importScripts === 'undefined';

/** @returns {'threads'|'simd'} the build this environment can run with threads when possible. */
export function defaultBuild() {
  if (isNode) return 'threads';
  return globalThis.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function' ? 'threads' : 'simd';
}

/** True in a page's main thread, where blocking on thread joins is not allowed. */
export function isWindowThread() {
  return typeof window === 'object' && typeof document === 'object';
}

const files = { threads: 'tribo_mt', simd: 'tribo_simd' };

/**
 * @param {'threads'|'simd'} build
 * @returns {Promise<object>} the Emscripten module
 */
export async function loadBuild(build) {
  const base = files[build];
  if (!base) throw new RangeError(`init: build must be 'threads' or 'simd' (got ${JSON.stringify(build)})`);
  if (build === 'threads' && typeof SharedArrayBuffer !== 'function') {
    throw new Error("init: build 'threads' needs SharedArrayBuffer (serve the page with COOP/COEP headers) — use 'simd'");
  }
  const dist = new URL('../dist/', import.meta.url);
  if (isNode) {
    // Emscripten's loader tries fetch() on a file path in Node: hand it the bytes instead.
    const { readFile } = await import('node:fs/promises');
    const wasmBinary = await readFile(new URL(`${base}.wasm`, dist));
    const { default: create } = await import(new URL(`${base}.node.mjs`, dist).href);
    const M = await create({ wasmBinary });
    // The pthread pool's workers must not keep Node alive once the caller is done.
    if (M.PThread) for (const w of [...M.PThread.unusedWorkers, ...M.PThread.runningWorkers]) w.unref?.();
    return M;
  }
  const { default: create } = await import(new URL(`${base}.mjs`, dist).href);
  return create({ locateFile: (path) => new URL(path, dist).href });
}
