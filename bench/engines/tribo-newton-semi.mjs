// Tribo, the 'newton-semi' preset (createWorld({ preset: 'newton-semi' })), single-threaded SIMD128 wasm build.
import { loadTribo } from './tribo.mjs';

export const id = 'tribo-newton-semi';
export const packageName = null;
export const load = () => loadTribo({ build: 'simd', threads: 1, preset: 'newton-semi' });
