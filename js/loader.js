/**
 * Loads one of the two WebAssembly builds.
 *  - 'threads': pthreads + SIMD128; needs SharedArrayBuffer (cross-origin isolated pages, Node).
 *  - 'simd':    single-threaded SIMD128; works on every page.
 *
 * Every file is named by a literal `new URL('../dist/…', import.meta.url)` and every build by a
 * literal import so that bundlers (Vite, Rollup, webpack, Parcel) see, emit and rewrite them;
 * `locateFile(name)` overrides any of them for hosts that move files.
 * @module tribo/loader
 */
import { isNode, nodePlatform } from './platform.js';
// Static imports, not import(): a worker bundle may be a classic script without code splitting.
import createSimd from '../dist/tribo_simd.web.mjs';
import createThreads from '../dist/tribo_mt.web.mjs';

/** @returns {'threads'|'simd'} the build this environment can run with threads when possible. */
export function defaultBuild() {
  if (isNode) return 'threads';
  return globalThis.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function' ? 'threads' : 'simd';
}

/** True in a page's main thread, where blocking on thread joins is not allowed. */
export function isWindowThread() {
  return typeof window === 'object' && typeof document === 'object';
}

/**
 * The Vite dev server pre-bundles dependencies into node_modules/.vite/deps/ without moving their
 * files, so relative URLs there point into node_modules/.vite/: send them back to the package.
 */
export function unbundledURL(url) {
  return String(url).replace(/\/node_modules\/\.vite\/(?:deps(?:_temp_\w+)?\/)?(dist|js)\//, '/node_modules/tribo/$1/');
}

/** The package's own URL of a dist file (literal URLs, one per file). */
function packageURL(name) {
  switch (name) {
    case 'tribo_simd.wasm': return unbundledURL(new URL('../dist/tribo_simd.wasm', import.meta.url).href);
    case 'tribo_mt.wasm': return unbundledURL(new URL('../dist/tribo_mt.wasm', import.meta.url).href);
    case 'tribo_mt.web.mjs': return unbundledURL(new URL('../dist/tribo_mt.web.mjs', import.meta.url).href);
    case 'tribo_mt.worker.js': return undefined; // embedded in tribo_mt.web.mjs (a blob URL)
    default: throw new RangeError(`locateFile: unknown file ${name}`);
  }
}

/** Files a browser build needs, by name (what locateFile is asked for). */
export const BUILD_FILES = Object.freeze({
  simd: Object.freeze(['tribo_simd.wasm']),
  threads: Object.freeze(['tribo_mt.wasm', 'tribo_mt.web.mjs', 'tribo_mt.worker.js']),
});

/**
 * @param {{ locateFile?: (name: string) => string|URL|undefined, wasmURL?: string|URL }} options
 * @param {'threads'|'simd'} build
 * @returns {(name: string) => string} resolved URL of each file of the build
 */
export function fileLocator(options, build) {
  const { locateFile, wasmURL } = options;
  if (locateFile !== undefined && typeof locateFile !== 'function') throw new TypeError('init: locateFile must be a function (name) => URL');
  const wasmName = build === 'threads' ? 'tribo_mt.wasm' : 'tribo_simd.wasm';
  return (name) => {
    const u = (name === wasmName && wasmURL !== undefined) ? wasmURL : locateFile?.(name);
    return u !== undefined && u !== null ? String(u instanceof URL ? u.href : u) : packageURL(name);
  };
}

/** A same-origin worker script for a script on another origin (workers must be same-origin). */
export function sameOriginScript(url, module) {
  const base = globalThis.location?.href;
  if (!base || new URL(url, base).origin === new URL(base).origin || typeof Blob !== 'function') return url;
  const src = module ? `import ${JSON.stringify(url)};\n` : `importScripts(${JSON.stringify(url)});\n`;
  return URL.createObjectURL(new Blob([src], { type: 'text/javascript' }));
}

/**
 * @param {'threads'|'simd'} build
 * @param {object} [options] init options (locateFile, wasmURL)
 * @returns {Promise<object>} the Emscripten module
 */
export async function loadBuild(build, options = {}) {
  if (build !== 'threads' && build !== 'simd') throw new RangeError(`init: build must be 'threads' or 'simd' (got ${JSON.stringify(build)})`);
  if (build === 'threads' && typeof SharedArrayBuffer !== 'function') {
    throw new Error("init: build 'threads' needs SharedArrayBuffer (serve the page with COOP/COEP headers) — use 'simd'");
  }
  const locate = fileLocator(options, build);
  // A compiled module shared by several worlds (<tribo-scene>): no second fetch or compile.
  const shared = options.wasmModule ? {
    instantiateWasm: (imports, receive) => {
      WebAssembly.instantiate(options.wasmModule, imports).then((inst) => receive(inst, options.wasmModule));
      return {};
    },
  } : {};
  if (isNode) {
    const custom = options.locateFile || options.wasmURL !== undefined;
    return (await nodePlatform()).loadBuild(build, custom ? locate : undefined);
  }
  if (build === 'simd') {
    if (options.wasmBinary) return instantiate(createSimd, { wasmBinary: options.wasmBinary }, 'simd', 'inlined');
    const wasm = locate('tribo_simd.wasm');
    return instantiate(createSimd, { locateFile: () => wasm, ...shared }, 'simd', wasm);
  }
  const wasm = locate('tribo_mt.wasm');
  const custom = locate('tribo_mt.worker.js');
  const worker = custom ? sameOriginScript(custom, false) : undefined;
  // The pthread workers import the build's own module (unbundled) from this URL.
  const main = locate('tribo_mt.web.mjs');
  return instantiate(createThreads, {
    locateFile: () => wasm,
    pthreadWorkerURL: worker,
    mainScriptUrlOrBlob: main,
    ...shared,
  }, 'threads', wasm, worker);
}

/**
 * The global Worker while `run` runs, with an 'error' listener on every worker made meanwhile: the
 * threads build makes its pthread pool as it starts, but Emscripten attaches its own error handler
 * only once the wasm is compiled, so a worker script that failed to load before that went
 * unnoticed and init() never settled (seen in about 1 of 12 loads beside a busy process).
 */
function withWatchedWorkers(onError, run) {
  const Native = globalThis.Worker;
  if (typeof Native !== 'function') return run();
  globalThis.Worker = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('error', onError);
    }
  };
  try {
    return run();
  } finally {
    globalThis.Worker = Native;
  }
}

/** Runs an Emscripten factory; a failed fetch or a pthread worker that cannot start rejects, naming the file. */
function instantiate(create, moduleOptions, build, wasm, worker) {
  return new Promise((resolve, reject) => {
    const fail = (what) => reject(new Error(`init: the ${build} build failed to load: ${what}`));
    const workerFailed = (detail) => fail(`a pthread worker (${worker ?? 'tribo_mt.worker.js, embedded'}) did not start: ${detail || 'no details'}`);
    const printErr = (text) => {
      const s = String(text);
      if (s.startsWith('worker sent an error!')) workerFailed(s.slice(21).trim());
      else if (/failed to asynchronously prepare wasm|wasm streaming compile failed|both async and sync fetching/.test(s)) fail(`${s} (wasm: ${wasm})`);
      else console.warn(s);
    };
    try {
      const run = () => create({ ...moduleOptions, printErr });
      const started = build === 'threads' ? withWatchedWorkers((e) => workerFailed(e?.message), run) : run();
      started.then(resolve, (e) => fail(`${e?.message ?? e} (wasm: ${wasm})`));
    } catch (e) {
      fail(`${e?.message ?? e}${worker ? ` (pthread worker script: ${worker})` : ''}`);
    }
  });
}
