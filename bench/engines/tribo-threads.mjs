// Tribo, pthreads wasm build through js/index.js, with 2 threads (the caller included).
import { loadTribo } from './tribo.mjs';

export const id = 'tribo-threads';
export const packageName = null;
export const load = () => loadTribo({ build: 'threads', threads: 2 });
