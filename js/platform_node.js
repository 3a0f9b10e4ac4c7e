/**
 * Node side of loading: the wasm is read from disk next to this file, worker worlds use
 * worker_threads, and no worker keeps the process alive by itself.
 * @module tribo/platform_node
 */
import { readFile } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { availableParallelism, cpus } from 'node:os';
import { fileURLToPath } from 'node:url';

/**
 * @param {'threads'|'simd'} build
 * @param {(file: string) => string|URL} [locate] where a dist file is (default: ../dist/)
 */
export async function loadBuild(build, locate) {
  const wasmName = build === 'threads' ? 'tribo_mt.wasm' : 'tribo_simd.wasm';
  const wasmURL = locate?.(wasmName) ?? (build === 'threads'
    ? new URL('../dist/tribo_mt.wasm', import.meta.url) : new URL('../dist/tribo_simd.wasm', import.meta.url));
  let wasmBinary;
  try {
    wasmBinary = await readFile(typeof wasmURL === 'string' && !wasmURL.startsWith('file:') ? wasmURL : fileURLToPath(wasmURL));
  } catch (e) {
    throw new Error(`init: cannot read the ${build} build's wasm at ${wasmURL} (${e.code ?? e.message}); run \`make wasm\` or pass locateFile`);
  }
  // Emscripten's loader tries fetch() on a file path in Node: hand it the bytes instead.
  const { default: create } = build === 'threads'
    ? await import('../dist/tribo_mt.node.mjs') : await import('../dist/tribo_simd.node.mjs');
  const M = await create({ wasmBinary });
  // The pthread pool's workers must not keep Node alive once the caller is done.
  if (M.PThread) for (const w of [...M.PThread.unusedWorkers, ...M.PThread.runningWorkers]) w.unref?.();
  return M;
}

/** A worker_threads Worker running the module at url. */
export function startWorker(url) { return new Worker(url); }

export function hardwareThreads() { return availableParallelism ? availableParallelism() : cpus().length; }

/** The worker side's message port. */
export async function workerPort() {
  const { parentPort } = await import('node:worker_threads');
  return { post: (m, t) => parentPort.postMessage(m, t), on: (fn) => parentPort.on('message', fn) };
}
