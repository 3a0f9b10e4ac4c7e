// Tribo, the 'physx-tgs' preset (createWorld({ preset: 'physx-tgs' })), single-threaded SIMD128 wasm build.
import { loadTribo } from './tribo.mjs';

export const id = 'tribo-physx-tgs';
export const packageName = null;
export const load = () => loadTribo({ build: 'simd', threads: 1, preset: 'physx-tgs' });
