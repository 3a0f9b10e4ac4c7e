// @dimforge/rapier3d-compat: Rapier's scalar wasm build (wasm embedded in the JS, `await init()`).
import { makeRapierEngine } from './rapier-common.mjs';

export const id = 'rapier';
export const packageName = '@dimforge/rapier3d-compat';

export async function load() {
  const RAPIER = (await import('@dimforge/rapier3d-compat')).default;
  await RAPIER.init();
  return makeRapierEngine(RAPIER, { id, notes: 'scalar wasm; default 4 solver iterations, 1 PGS' });
}
