// Scene descriptions shared by every engine adapter (bench/engines/*.mjs) and mirrored by
// bench/native_bench.c. Units: m, kg, s. y is up. Rotations are quaternions (x, y, z, w).
//
// A scene is { name, steps, window: [from, to), bodies: [...], checks }.
// A body is { type: 'static' | 'dynamic', position, rotation, shape } with one shape per body:
//   { type: 'box', halfExtents }, { type: 'sphere', radius },
//   { type: 'capsule', radius, halfHeight }   (halfHeight = half length of the segment, axis = local y)
// plus material { friction, restitution } and, for dynamic bodies, density (kg/m³).
// Dynamic bodies are listed after static ones; adapters report positions for dynamic bodies only,
// in list order.

export const GRAVITY = [0, -9.81, 0];
export const DT = 1 / 60;
export const FRICTION = 0.6;
export const RESTITUTION = 0;

const IDENTITY = [0, 0, 0, 1];

function staticBox(position, halfExtents) {
  return { type: 'static', position, rotation: IDENTITY, shape: { type: 'box', halfExtents },
    friction: FRICTION, restitution: RESTITUTION };
}

function dynamic(position, shape, density = 1) {
  return { type: 'dynamic', position, rotation: IDENTITY, shape, density,
    friction: FRICTION, restitution: RESTITUTION };
}

/** Ground: a large static box whose top face is the plane y = 0. */
function ground(half = 50) {
  return staticBox([0, -0.5, 0], [half, 0.5, half]);
}

/** Volume of a shape (m³); mass = density · volume. */
export function shapeVolume(s) {
  switch (s.type) {
    case 'box': return 8 * s.halfExtents[0] * s.halfExtents[1] * s.halfExtents[2];
    case 'sphere': return (4 / 3) * Math.PI * s.radius ** 3;
    case 'capsule': return Math.PI * s.radius ** 2 * (2 * s.halfHeight) + (4 / 3) * Math.PI * s.radius ** 3;
    default: throw new Error(`no volume for ${s.type}`);
  }
}

/**
 * pyramid: 20 rows, 210 unit cubes (1 kg: density 1, half extent 0.5), touching side by side,
 * bottom row resting on the ground (y = 0.5). Stands if the top cube's height stays within
 * 0.1 m of its start and no cube moved more than 0.25 m horizontally.
 */
export function pyramid({ rows = 20, steps = 600 } = {}) {
  const bodies = [ground()];
  for (let r = 0; r < rows; r++) {
    const n = rows - r;
    for (let i = 0; i < n; i++) {
      bodies.push(dynamic([(i - (n - 1) / 2) * 1.0, 0.5 + r * 1.0, 0], { type: 'box', halfExtents: [0.5, 0.5, 0.5] }));
    }
  }
  return {
    name: 'pyramid', steps, window: windowFor(steps), bodies,
    description: `${rows} rows, ${rows * (rows + 1) / 2} unit cubes on a static ground box`,
  };
}

/**
 * pile: 1000 bodies (sphere r 0.5, cube half 0.5, capsule r 0.3 half-height 0.4, cycling in that
 * order; density 1) on a 10×10×10 grid 1.5 m apart, lowest layer at y = 2, centred over a static
 * container 16×16 m inside (floor top at y = 0, walls 1 m thick and 20 m high).
 * Each body gets a small deterministic horizontal offset (±0.05 m, same in every engine) so that
 * the columns do not stay in perfect unstable balance.
 * `side` columns per side (default n) with n layers: the scaling table's piles (side 5, 10, 20, 40
 * give 250, 1000, 4000, 16 000 bodies), in a container whose inside half-width is side·spacing/2 +
 * 0.5 m (8 m for side 10), so every size has the same bodies per m² of floor.
 */
export function pile({ n = 10, side = n, spacing = 1.5, steps = 600 } = {}) {
  const inner = side * spacing / 2 + 0.5, wall = 0.5, height = 20;
  const bodies = [
    staticBox([0, -0.5, 0], [inner + 2 * wall, 0.5, inner + 2 * wall]),            // floor
    staticBox([inner + wall, height / 2, 0], [wall, height / 2, inner + 2 * wall]),  // +x wall
    staticBox([-(inner + wall), height / 2, 0], [wall, height / 2, inner + 2 * wall]),
    staticBox([0, height / 2, inner + wall], [inner, height / 2, wall]),             // +z wall
    staticBox([0, height / 2, -(inner + wall)], [inner, height / 2, wall]),
  ];
  const shapes = [
    { type: 'sphere', radius: 0.5 },
    { type: 'box', halfExtents: [0.5, 0.5, 0.5] },
    { type: 'capsule', radius: 0.3, halfHeight: 0.4 },
  ];
  let seed = 12345;
  const rnd = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return ((seed >>> 8) / (1 << 24)) * 2 - 1; };
  const off = (side - 1) * spacing / 2;
  let k = 0;
  for (let y = 0; y < n; y++) {
    for (let z = 0; z < side; z++) {
      for (let x = 0; x < side; x++) {
        const jx = 0.05 * rnd(), jz = 0.05 * rnd();
        bodies.push(dynamic([x * spacing - off + jx, 2 + y * spacing, z * spacing - off + jz], shapes[k % 3]));
        k++;
      }
    }
  }
  return {
    name: 'pile', steps, window: windowFor(steps), bodies, container: { inner, height }, side,
    description: `${k} bodies (sphere, box, capsule) dropped into a ${2 * inner}×${2 * inner} m box container`,
  };
}

/**
 * tray: one dynamic plate (0.1 m thick, 1 000 kg/m³) on the ground carrying side × side boxes
 * (0.24 × 0.2 × 0.24 m) and spheres (r 0.14 m), 500 kg/m³, 0.32 m apart: the plate is in side² + 1
 * contact patches, so most of them are beyond any constraint-graph colouring (Tribo solves the
 * patches past 24 colours in order on one thread). Mirrored by native_bench's tray; by name only
 * (bench/ab.mjs), not in run.mjs's default set.
 */
export function tray({ side = 20, steps = 600 } = {}) {
  const half = 0.16 * side + 0.1;
  const bodies = [ground(half + 1),
    dynamic([0, 0.05, 0], { type: 'box', halfExtents: [half, 0.05, half] }, 1000)];
  for (let i = 0; i < side * side; i++) {
    const box = i % 2 === 1;
    const x = -0.16 * (side - 1) + 0.32 * (i % side), z = -0.16 * (side - 1) + 0.32 * Math.floor(i / side);
    const y = 0.1 + (box ? 0.1 : 0.14) + 0.01 * (i % 3);
    bodies.push(dynamic([x, y, z], box ? { type: 'box', halfExtents: [0.12, 0.1, 0.12] } : { type: 'sphere', radius: 0.14 }, 500));
  }
  return {
    name: 'tray', steps, window: windowFor(steps), bodies, side,
    description: `a plate carrying ${side * side} boxes and spheres: ${side * side + 1} contact patches on one body`,
  };
}

/**
 * level: static geometry, a floor of tiles × tiles touching static unit boxes (top face y = 0),
 * and `balls` spheres (r 0.3 m, 500 kg/m³) resting on every other tile, 30 to a row. Two static
 * shapes never make a pair; an engine that updates or pairs its static shapes every step pays for
 * the tiles. Mirrored by native_bench's level; by name only (bench/ab.mjs).
 */
export function level({ tiles = 100, balls = 1000, steps = 600 } = {}) {
  const bodies = [];
  for (let i = 0; i < tiles * tiles; i++) bodies.push(staticBox([i % tiles, -0.5, Math.floor(i / tiles)], [0.5, 0.5, 0.5]));
  for (let i = 0; i < balls; i++) bodies.push(dynamic([2 * (i % 30), 0.31, 2 * Math.floor(i / 30)], { type: 'sphere', radius: 0.3 }, 500));
  return {
    name: 'level', steps, window: windowFor(steps), bodies, side: tiles,
    description: `${balls} spheres resting on a floor of ${tiles * tiles} touching static tiles`,
  };
}

/** readback: one 1 kg sphere (r 0.5) resting on the ground, 120 steps. */
export function readback({ steps = 120 } = {}) {
  const r = 0.5;
  const density = 1 / shapeVolume({ type: 'sphere', radius: r });   // 1 kg
  return {
    name: 'readback', steps, window: [steps - 1, steps], expected: 1 * 9.81,
    bodies: [ground(), dynamic([0, r, 0], { type: 'sphere', radius: r }, density)],
    description: '1 kg sphere (r 0.5) resting on the ground; contact normal impulse / dt vs m·g',
  };
}

/** Timing window: steps 300–600 of 600 (the second half), scaled for shorter runs. */
export function windowFor(steps) {
  return [Math.floor(steps / 2), steps];
}

export function dynamicBodies(scene) {
  return scene.bodies.filter((b) => b.type === 'dynamic');
}
