// Scene description for the Tribo demo: a box pyramid on a ground plane, with spheres and capsules
// dropped onto it. Pure data (no three.js, no tribo): each entry is a body definition in the form
// sim.addBody() takes, plus a `tag` the renderer uses for colour.
//
// Units: m, kg/m³. Boxes are 0.5 m cubes of density 200 kg/m³ (25 kg, weight ≈ 245 N), so a
// resting pyramid of 7 rows puts a few hundred newtons on each ground contact point.

export const BOX_HALF = 0.25;
export const BOX_GAP = 0.01; // m between neighbours in a row, so that no pair starts in contact

/** Deterministic PRNG (mulberry32) so that a reset replays the same drop. */
export function rng(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function axisAngleQuat(ax, ay, az, angle) {
  const n = Math.hypot(ax, ay, az) || 1;
  const s = Math.sin(angle / 2) / n;
  return [ax * s, ay * s, az * s, Math.cos(angle / 2)];
}

export function groundDef() {
  return {
    tag: 'ground',
    def: {
      type: 'static',
      shapes: [{ type: 'plane', normal: [0, 1, 0], offset: 0, friction: 0.6, restitution: 0 }],
    },
  };
}

export function pyramidDefs(rows = 7) {
  const out = [];
  const pitch = 2 * BOX_HALF + BOX_GAP;
  for (let row = 0; row < rows; row++) {
    const n = rows - row;
    const y = BOX_HALF + row * 2 * BOX_HALF;
    for (let i = 0; i < n; i++) {
      const x = (i - (n - 1) / 2) * pitch;
      out.push({
        tag: 'box',
        def: {
          type: 'dynamic',
          position: [x, y, 0],
          rotation: [0, 0, 0, 1],
          shapes: [{ type: 'box', halfExtents: [BOX_HALF, BOX_HALF, BOX_HALF], density: 200, friction: 0.6, restitution: 0 }],
        },
      });
    }
  }
  return out;
}

/** One falling sphere or capsule above the pyramid. */
export function dropDef(random, { height = 6, kind } = {}) {
  const k = kind ?? (random() < 0.5 ? 'sphere' : 'capsule');
  const x = (random() - 0.5) * 2.2;
  const z = (random() - 0.5) * 0.8;
  const y = height + random() * 2;
  const rotation = axisAngleQuat(random() - 0.5, random() - 0.5, random() - 0.5, random() * Math.PI);
  const shape = k === 'sphere'
    ? { type: 'sphere', radius: 0.2 + random() * 0.12, density: 300, friction: 0.5, restitution: 0.1 }
    : { type: 'capsule', radius: 0.14 + random() * 0.06, halfHeight: 0.25 + random() * 0.15, density: 300, friction: 0.5, restitution: 0.1 };
  return { tag: k, def: { type: 'dynamic', position: [x, y, z], rotation, shapes: [shape] } };
}

/** The full initial scene: ground, pyramid, and a staggered rain of spheres and capsules. */
export function demoScene({ rows = 7, drops = 10, seed = 7 } = {}) {
  const random = rng(seed);
  const bodies = [groundDef(), ...pyramidDefs(rows)];
  const top = rows * 2 * BOX_HALF;
  for (let i = 0; i < drops; i++) {
    // staggered heights: they arrive one after another over the first seconds
    bodies.push(dropDef(random, { height: top + 1.5 + i * 1.2, kind: i % 2 ? 'capsule' : 'sphere' }));
  }
  return { bodies, random };
}

/* Joint scenes of the demo's scene selector (docs/joints.md): bodies as above, and joints whose
 * body0 / body1 are indices into `bodies` (-1: the world), resolved to ids by the page. */
export const SCENE_NAMES = ['pyramid', 'pendulum', 'chain'];
const PIVOT = [0, 3.2, 0]; // m, world
const BOB = { mass: 5, radius: 0.25, length: 2, theta0: 1.2 }; // kg, m, m, rad from the vertical
const LINK = { count: 10, halfHeight: 0.12, radius: 0.06, mass: 1 }; // capsules along y, m, kg

/** A pendulum: a 5 kg ball on a 2 m hinge about z, released from 1.2 rad. A thin capsule from the
 * ball to the pivot is drawn with it (not simulated: the rod is the joint). */
function pendulumScene() {
  const pos = [BOB.length * Math.sin(BOB.theta0), PIVOT[1] - BOB.length * Math.cos(BOB.theta0), 0];
  const ball = { type: 'sphere', radius: BOB.radius, density: BOB.mass / ((4 / 3) * Math.PI * BOB.radius ** 3), friction: 0.5 };
  const up = [PIVOT[0] - pos[0], PIVOT[1] - pos[1], 0].map((c) => c / BOB.length);
  const rod = { type: 'capsule', radius: 0.02, halfHeight: BOB.length / 2, position: up.map((c) => (c * BOB.length) / 2),
    rotation: axisAngleQuat(0, 0, 1, Math.atan2(-up[0], up[1])) };
  const bob = { tag: 'sphere', def: { position: pos, shapes: [ball] } };
  bob.display = { ...bob.def, shapes: [ball, rod] }; /* what the renderer draws */
  return { bodies: [groundDef(), bob], joints: [{ type: 'revolute', body0: -1, body1: 1, anchor: PIVOT, axis: [0, 0, 1] }] };
}

/** A chain of ten 1 kg capsule links hinged about z end to end, hung from the world and released
 * horizontal: it swings down past the vertical. */
function chainScene() {
  const len = 2 * (LINK.halfHeight + LINK.radius);
  const shape = { type: 'capsule', radius: LINK.radius, halfHeight: LINK.halfHeight, density: LINK.mass / (Math.PI * LINK.radius ** 2 * (2 * LINK.halfHeight + (4 / 3) * LINK.radius)), friction: 0.5 };
  const lying = axisAngleQuat(0, 0, 1, Math.PI / 2); // local y along world x
  const bodies = [groundDef()], joints = [];
  for (let k = 0; k < LINK.count; k++) {
    bodies.push({ tag: 'capsule', def: { position: [PIVOT[0] + (k + 0.5) * len, PIVOT[1], 0], rotation: lying, shapes: [shape] } });
    joints.push({ type: 'revolute', body0: k ? k : -1, body1: k + 1, anchor: [PIVOT[0] + k * len, PIVOT[1], 0], axis: [0, 0, 1] });
  }
  return { bodies, joints };
}

/**
 * The scene of the demo's selector: 'pyramid' (demoScene), 'pendulum' or 'chain'.
 * @returns {{ bodies: object[], joints: object[], random: () => number }}
 */
export function sceneOf(name, opts = {}) {
  if (name === 'pyramid') return { ...demoScene(opts), joints: [] };
  const s = name === 'pendulum' ? pendulumScene() : name === 'chain' ? chainScene() : null;
  if (!s) throw new RangeError(`scene must be one of ${SCENE_NAMES.join(', ')} (got ${name})`);
  return { ...s, random: rng(opts.seed ?? 7) };
}
