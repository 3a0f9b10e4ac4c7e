// One scene and one hash for the determinism checks, shared by Node (tests/js/determinism.test.mjs)
// and Chromium (tests/browser/determinism.test.mjs through tests/browser/pages/determinism.html):
// no Node or DOM imports. The hash is FNV-1a over the bytes of every body transform (position m,
// rotation quaternion; float32) and of every contact's normal impulse (N·s) after the last step,
// so two runs hash equal only when they are bitwise equal.

/** The cases every host runs: preset, bodies of the pile, steps. */
export const CASES = [
  { preset: 'physx-tgs', bodies: 120, steps: 200 },
  { preset: 'mujoco', bodies: 24, steps: 120 },
];

function axisAngle(axis, angle) {
  const n = Math.hypot(...axis), s = Math.sin(angle / 2) / n;
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
}

/**
 * A mixed pile (spheres, boxes, capsules, hulls) in a walled box, dropped so that every layer
 * lands on the one below. Works on a World (sync calls) and a WorkerWorld (async): each call is awaited.
 */
async function buildScene(world, bodies) {
  await world.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
  const layer = 4, spacing = 1.2, half = (layer * spacing) / 2 + 0.5;
  for (const [nx, nz] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
    await world.addBody({ type: 'static', shapes: [{ type: 'plane', normal: [-nx, 0, -nz], offset: -half }] });
  }
  const hull = [-0.3, -0.3, -0.3, 0.3, -0.3, -0.3, 0, 0.35, -0.3, 0, 0, 0.4, 0.1, -0.2, 0.3];
  for (let i = 0; i < bodies; i++) {
    const x = (i % layer) - (layer - 1) / 2, z = (Math.floor(i / layer) % layer) - (layer - 1) / 2;
    const y = 1 + Math.floor(i / (layer * layer)) * spacing;
    const kind = i % 4;
    const shape = kind === 0 ? { type: 'sphere', radius: 0.45 }
      : kind === 1 ? { type: 'box', halfExtents: [0.4, 0.35, 0.3] }
        : kind === 2 ? { type: 'capsule', radius: 0.25, halfHeight: 0.3 }
          : { type: 'hull', points: hull };
    await world.addBody({ position: [x * spacing, y, z * spacing], rotation: axisAngle([0.6, 0.64, 0.48], 0.3 * i),
      shapes: [{ ...shape, friction: 0.6, density: 500 }] });
  }
}

/** FNV-1a (32-bit) over the bytes of the given typed arrays, as 8 hex digits. */
export function fnv(...arrays) {
  let h = 2166136261;
  for (const a of arrays) {
    const b = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b[i], 16777619) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** The hash of a body and contact view set ({ transform }, { count, normalImpulse }) of `n` bodies. */
function viewsHash(bodies, contacts, n) {
  return fnv(bodies.transform.subarray(0, 7 * n), contacts.normalImpulse.subarray(0, contacts.count), new Int32Array([contacts.count]));
}

/**
 * Runs one case on `tribo` in process (worker false) or in a worker world; returns
 * { hash, contacts, threads } (threads: the threads the world was made with).
 */
export async function runCase(tribo, { preset, bodies, steps }, { threads = 1, worker = false } = {}) {
  const n = 5 + bodies;
  if (worker) {
    const sim = await tribo.createWorkerWorld({ preset, threads });
    try {
      await buildScene(sim, bodies);
      await sim.step(steps);
      const f = await sim.frame();
      return { hash: viewsHash(f.bodies, f.contacts, n), contacts: f.contacts.count, threads };
    } finally {
      sim.terminate();
    }
  }
  const w = tribo.createWorld({ preset, threads });
  try {
    await buildScene(w, bodies);
    w.step(steps);
    return { hash: viewsHash(w.bodies, w.contacts, n), contacts: w.contacts.count, threads };
  } finally {
    w.free();
  }
}

/** Thread counts a host checks: 1, 2 and its most, those the build allows. */
export const threadCounts = (tribo) => [...new Set([1, 2, 4].map((t) => Math.min(t, tribo.maxThreads)))];
