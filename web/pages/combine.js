/**
 * Course page 6, material combine rules: a box sliding on the ground with its own friction μ_A,
 * the ground's μ_B; each engine's rule gives the contact one μ, and the box slides v₀²/(2 μ g).
 * @module tribo/web/pages/combine
 */
import { G, boxDensity } from '../course_model.js';

const HALF = [0.2, 0.1, 0.2]; /* m */
const V0 = 2; /* m/s initial sliding speed */
const MODES = ['average', 'min', 'multiply', 'max'];

/** The combined μ each rule gives (PhysX: the larger of the two modes wins, average < min < multiply < max). */
export function combined(rule, a, b, modeA = 'average', modeB = 'average') {
  if (rule === 'physx') {
    const mode = MODES[Math.max(MODES.indexOf(modeA), MODES.indexOf(modeB))];
    return { average: (a + b) / 2, min: Math.min(a, b), multiply: a * b, max: Math.max(a, b) }[mode];
  }
  if (rule === 'mean' || rule === 'kamino') return (a + b) / 2;
  if (rule === 'vbd') return Math.sqrt(a * b);
  if (rule === 'mujoco') return Math.max(a, b);
  throw new RangeError(`combined: unknown rule ${rule}`);
}

/** Sliding distance (m) of a box launched at v₀ on friction μ: v₀²/(2 μ g). */
export const slideDistance = (mu) => (V0 * V0) / (2 * mu * G);

export default {
  id: 'combine',
  title: 'Material combine rules',
  params: [
    { key: 'muA', label: 'box friction μ_A', unit: '', min: 0.1, max: 1, step: 0.05, value: 0.2 },
    { key: 'muB', label: 'ground friction μ_B', unit: '', min: 0.1, max: 1, step: 0.05, value: 0.8 },
    { key: 'modeA', label: 'box frictionCombine (PhysX)', options: MODES, value: 'average' },
    { key: 'modeB', label: 'ground frictionCombine (PhysX)', options: MODES, value: 'average' },
  ],
  presets: [
    { name: 'physx-tgs', preset: 'physx-tgs', options: {} },
    { name: 'newton-xpbd (mean)', preset: 'newton-xpbd', options: {}, color: '#f472b6' },
    { name: 'vbd rule (√)', preset: 'newton-xpbd', options: { combineRule: 'vbd' }, color: '#fbbf24' },
    { name: 'mujoco rule (max)', preset: 'newton-xpbd', options: { combineRule: 'mujoco' }, color: '#a78bfa' },
  ],
  duration: 2,
  view: { center: [1, 0.2], metersAcross: 3 },
  build(world, p) {
    const rule = world.options.combineRule;
    world.addBody({ type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0], offset: 0, friction: p.muB, material: { frictionCombine: p.modeB } }] });
    const shape = { type: 'box', halfExtents: HALF, density: boxDensity(1, HALF), friction: p.muA, material: { frictionCombine: p.modeA } };
    const id = world.addBody({ position: [0, HALF[1], 0], linearVelocity: [V0, 0, 0], shapes: [shape] });
    return { bodies: [{ id, shape }], planes: [{ normal: [0, 1, 0], offset: 0 }], id, rule, mu: null, pos: new Float32Array(3) };
  },
  /** Distance slid (m); keeps the combined dynamic μ the contacts carry. */
  sample(world, s) {
    const c = world.contacts;
    if (c.count) s.mu = c.dynamicFriction[0];
    return world.getPosition(s.id, s.pos)[0];
  },
  reference: (p, t) => {
    const mu = combined('physx', p.muA, p.muB, p.modeA, p.modeB), stop = V0 / (mu * G), tt = Math.min(t, stop);
    return V0 * tt - 0.5 * mu * G * tt * tt;
  },
  headline: (lane) => lane.samples.at(-1)?.[1] ?? null,
  headlineReference: (p) => slideDistance(combined('physx', p.muA, p.muB, p.modeA, p.modeB)),
  headlineLabel: 'slid (m)',
  headlineReferenceLabel: 'v₀²/(2μg), PhysX μ',
  formula: 'each lane: v₀²/(2 μ g) with its rule\'s μ (note)',
  note(lane, p) {
    const s = lane.scene;
    if (s.mu == null) return '';
    const want = combined(s.rule, p.muA, p.muB, p.modeA, p.modeB);
    return `${s.rule}: μ = ${s.mu.toFixed(3)} (rule ${want.toFixed(3)}), v₀²/(2μg) = ${slideDistance(s.mu).toFixed(3)} m`;
  },
  plot: { title: `distance slid by a box launched at ${V0} m/s: each rule, and the PhysX rule's closed form (dashed)`, x: 't (s)', y: 'x (m)', reference: 'PhysX closed form' },
  explanation: `
<p>Friction belongs to a pair of surfaces, but engines store it per shape, so every contact needs a rule
that makes one μ of two. The box here is launched at v₀ = 2 m/s and slides until friction stops it,
after <span class="formula">x = v₀² / (2 μ g)</span>: the distance shows which μ the rule chose.</p>
<p>PhysX lets each shape name a mode — average, min, multiply, max — and the pair uses the
<em>larger mode</em> (in that order), not the larger value: a box saying "min" on a ground saying
"average" gets min(μ_A, μ_B). Newton's XPBD and penalty solvers take the arithmetic mean, the VBD solver
the geometric mean <span class="formula">√(μ_A μ_B)</span>, MuJoCo the elementwise maximum (unless a
shape's priority is higher: then it gives everything), Kamino the average.</p>
<p>The same two materials can therefore slide 0.5 m in one engine and twice as far in another; the
combined value each contact used is in the contact views (<code>contacts.dynamicFriction</code>), and each
lane states it next to the rule's formula. (A step of semi-implicit Euler moves the box with the
velocity after friction, so each lane slides about <span class="formula">v₀h/2</span> = 17 mm less than the
closed form.)</p>`,
};
