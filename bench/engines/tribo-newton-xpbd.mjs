// Tribo, the 'newton-xpbd' preset (createWorld({ preset: 'newton-xpbd' })), single-threaded SIMD128 wasm build.
import { loadTribo } from './tribo.mjs';

export const id = 'tribo-newton-xpbd';
export const packageName = null;
export const load = () => loadTribo({ build: 'simd', threads: 1, preset: 'newton-xpbd' });
