// @dimforge/rapier3d-simd-compat: Rapier's wasm build with SIMD128 enabled.
import { makeRapierEngine } from './rapier-common.mjs';

export const id = 'rapier-simd';
export const packageName = '@dimforge/rapier3d-simd-compat';

export async function load() {
  const RAPIER = (await import('@dimforge/rapier3d-simd-compat')).default;
  await RAPIER.init();
  return makeRapierEngine(RAPIER, { id, notes: 'SIMD128 wasm; default 4 solver iterations, 1 PGS' });
}
