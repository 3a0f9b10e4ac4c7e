// Shared scene builders for the node tests (both WebAssembly builds).
import { init } from '../../js/index.js';
import { engineTables } from '../../js/fields.js';

export const BUILDS = ['simd', 'threads'];
const loaded = new Map();

/** The engine for one build, loaded once per test file. */
export async function engine(build) {
  if (!loaded.has(build)) loaded.set(build, await init({ build }));
  return loaded.get(build);
}

/** Density (kg/m³) that gives a sphere of radius r the mass m. */
/**
 * An id as a twin world would hand it out: slot, and generations counted from `first` (any id the
 * world handed out for a fresh slot, e.g. its first body). Every world starts its generations at
 * its own salt, so two worlds' ids of the same object differ by it; the layout comes from the
 * engine's constants (world._M: the world's module).
 */
export function twinId(world, first, id) {
  const { idIndexBits, idIndexMask, idGenerationMask } = engineTables(world._M).constants;
  if (id < 0) return id;
  const gen = ((id >>> idIndexBits) - (first >>> idIndexBits)) & idGenerationMask;
  return gen * 2 ** idIndexBits + (id & idIndexMask);
}

/** Contact view fields that hold shape or body ids (hashed as twinId). */
export const CONTACT_ID_FIELDS = new Set(['shape0', 'shape1', 'body0', 'body1']);

export const sphereDensity = (m, r) => m / ((4 / 3) * Math.PI * r ** 3);

/** Quaternion (x, y, z, w) for a rotation of `angle` rad about a unit axis. */
export function axisAngle(axis, angle) {
  const s = Math.sin(angle / 2);
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
}

/** Asserts |actual − expected| <= tol with a message giving all three. */
export function near(assert, actual, expected, tol, what) {
  assert.ok(Math.abs(actual - expected) <= tol,
    `${what}: expected ${expected} ± ${tol}, got ${actual} (off by ${Math.abs(actual - expected)})`);
}

/**
 * A pile of n bodies (spheres, boxes, capsules in turn) dropped on a ground plane inside four
 * walls, placed on a grid from a fixed formula so every run builds the same world. A plane's
 * solid side is n·x <= offset, so each wall has the inward normal −n and offset −half: solid
 * beyond |x| or |z| = half (m), free inside.
 */
export function buildPile(world, n, { spacing = 1.2, layer = 6 } = {}) {
  world.addBody({ type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0], offset: 0 }] });
  const half = (layer * spacing) / 2 + 0.5;
  for (const [nx, nz] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
    world.addBody({ type: 'static', shapes: [{ type: 'plane', normal: [-nx, 0, -nz], offset: -half }] });
  }
  const ids = [];
  for (let i = 0; i < n; i++) {
    const x = (i % layer) - (layer - 1) / 2, z = (Math.floor(i / layer) % layer) - (layer - 1) / 2;
    const y = 1 + Math.floor(i / (layer * layer)) * spacing;
    const q = axisAngle([0.6, 0.64, 0.48], 0.3 * i);
    const kind = i % 3;
    const shape = kind === 0 ? { type: 'sphere', radius: 0.45 }
      : kind === 1 ? { type: 'box', halfExtents: [0.4, 0.35, 0.3] }
        : { type: 'capsule', radius: 0.25, halfHeight: 0.3 };
    ids.push(world.addBody({ position: [x * spacing, y, z * spacing], rotation: q, shapes: [{ ...shape, friction: 0.6, density: 500 }] }));
  }
  return ids;
}
