// Tribo, single-threaded SIMD128 wasm build (dist/tribo_simd.mjs) through js/index.js.
import { loadTribo } from './tribo.mjs';

export const id = 'tribo-simd';
export const packageName = null;
export const load = () => loadTribo({ build: 'simd', threads: 1 });
