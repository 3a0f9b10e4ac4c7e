// Tribo, the 'physx-pgs' preset (createWorld({ preset: 'physx-pgs' })), single-threaded SIMD128 wasm build.
import { loadTribo } from './tribo.mjs';

export const id = 'tribo-physx-pgs';
export const packageName = null;
export const load = () => loadTribo({ build: 'simd', threads: 1, preset: 'physx-pgs' });
