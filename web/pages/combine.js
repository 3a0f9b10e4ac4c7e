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

/**
 * The other combined parameters each rule makes of materials a, b ({ e, kd, solref, solmix, priority }):
 * restitution e (PhysX: by the larger restitutionCombine mode, average here; Newton mean; Kamino:
 * min, the preset's mode; VBD and MuJoCo: none), damping (Newton mean and VBD: kd mean, N·s/m;
 * PhysX: only for compliant contacts, by max-enum), MuJoCo solref [timeconst, dampratio] mixed by
 * solmix w = s_A/(s_A + s_B), or the higher priority's whole.
 */
export function combinedOthers(rule, a, b) {
  const mean = (x, y) => (x + y) / 2;
  if (rule === 'physx') return { restitution: mean(a.e, b.e), damping: null, solref: null };
  if (rule === 'mean') return { restitution: mean(a.e, b.e), damping: mean(a.kd, b.kd), solref: null };
  if (rule === 'vbd') return { restitution: null, damping: mean(a.kd, b.kd), solref: null };
  if (rule === 'kamino') return { restitution: Math.min(a.e, b.e), damping: null, solref: null };
  if (rule === 'mujoco') {
    if (a.priority !== b.priority) return { restitution: null, damping: null, solref: (a.priority > b.priority ? a : b).solref };
    const w = a.solmix / (a.solmix + b.solmix);
    return { restitution: null, damping: null, solref: [0, 1].map((i) => w * a.solref[i] + (1 - w) * b.solref[i]) };
  }
  throw new RangeError(`combinedOthers: unknown rule ${rule}`);
}
const REF_B = [0.02, 1]; /* the ground's solref */
const materialsOf = (p) => ({
  a: { e: p.eA, ke: 2500, kd: p.kdA, solref: [p.timeconstA, 1], solmix: p.solmixA, priority: p.priorityA },
  b: { e: p.eB, ke: 2500, kd: 50, solref: REF_B, solmix: 1, priority: 0 },
});

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
    { key: 'eA', label: 'box restitution e_A (ground 0.5)', unit: '', min: 0, max: 1, step: 0.05, value: 0.1, table: true },
    { key: 'eB', label: 'ground restitution e_B', unit: '', min: 0, max: 1, step: 0.05, value: 0.5, table: true },
    { key: 'kdA', label: 'box kd (Newton; ground 50)', unit: 'N·s/m', min: 0, max: 200, step: 10, value: 10, table: true },
    { key: 'timeconstA', label: 'box solref timeconst (MuJoCo; ground 0.02)', unit: 's', min: 0.005, max: 0.1, step: 0.005, value: 0.05, table: true },
    { key: 'solmixA', label: 'box solmix (MuJoCo; ground 1)', unit: '', min: 0.1, max: 10, step: 0.1, value: 3, table: true },
    { key: 'priorityA', label: 'box priority (MuJoCo; ground 0)', options: [0, 1], value: 0, table: true },
  ],
  presets: [
    { name: 'physx-tgs', preset: 'physx-tgs', options: {} },
    { name: 'newton-xpbd (mean)', preset: 'newton-xpbd', options: {}, color: '#f472b6' },
    { name: 'vbd rule (√)', preset: 'newton-xpbd', options: { combineRule: 'vbd' }, color: '#fbbf24' },
    { name: 'mujoco rule (max)', preset: 'newton-xpbd', options: { combineRule: 'mujoco' }, color: '#a78bfa' },
    { name: 'kamino rule (mean; e min)', preset: 'newton-xpbd', options: { combineRule: 'kamino' }, color: '#fb923c' },
  ],
  duration: 2,
  view: { center: [1, 0.2], metersAcross: 3 },
  build(world, p) {
    const rule = world.options.combineRule;
    const { a, b } = materialsOf(p);
    world.addBody({ type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0], offset: 0, friction: p.muB, restitution: b.e,
      material: { frictionCombine: p.modeB, ke: b.ke, kd: b.kd, solref: b.solref, solmix: b.solmix, priority: b.priority } }] });
    const shape = { type: 'box', halfExtents: HALF, density: boxDensity(1, HALF), friction: p.muA, restitution: a.e,
      material: { frictionCombine: p.modeA, ke: a.ke, kd: a.kd, solref: a.solref, solmix: a.solmix, priority: a.priority } };
    const id = world.addBody({ position: [0, HALF[1], 0], linearVelocity: [V0, 0, 0], shapes: [shape] });
    return { bodies: [{ id, shape }], planes: [{ normal: [0, 1, 0], offset: 0 }], id, rule, mu: null, pos: new Float32Array(3) };
  },
  /** Distance slid (m); keeps the combined dynamic μ the contacts carry. */
  sample(world, s) {
    const c = world.contacts;
    if (c.count) s.mu = c.dynamicFriction[0];
    if (c.count) s.others = { restitution: c.restitution[0], damping: c.damping[0], solref: [c.solref[0], c.solref[1]] };
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
  /** The combined restitution, damping and solref each lane's contact carries, against each rule's formula. */
  table: () => `<h2>The other combined parameters (the contact views against each rule's formula)</h2><table class="truth" id="others"></table>
<p>The restitution, kd, solref, solmix and priority sliders set the box's material (the ground's are fixed: e 0.5, kd 50 N·s/m,
solref (0.02 s, 1), solmix 1, priority 0; both set ke = 2500 N/m, since Newton takes the world's ke and kd
for a pair whose materials set no ke). They do not change this slide; they change what each rule hands the solver.</p>`,
  tableDraw(root, lanes, p) {
    const t = root.querySelector('#others');
    if (!t) return;
    const { a, b } = materialsOf(p);
    const f = (v, d = 3) => (v == null ? '—' : Array.isArray(v) ? `(${v.map((x) => x.toFixed(d)).join(', ')})` : v.toFixed(d));
    const rows = lanes.filter((l) => l.scene).map((l) => {
      const want = combinedOthers(l.scene.rule, a, b), got = l.scene.others;
      const cell = (k) => `${want[k] == null ? '— (not used by this rule)' : `${f(got?.[k])} (rule ${f(want[k])})`}`;
      return `<tr><th>${l.preset}</th><td data-k="restitution">${cell('restitution')}</td><td data-k="damping">${cell('damping')}</td><td data-k="solref">${cell('solref')}</td></tr>`;
    });
    t.innerHTML = `<tr><th>lane</th><th>restitution</th><th>damping kd (N·s/m)</th><th>solref (s, 1)</th></tr>${rows.join('')}`;
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
lane states it next to the rule's formula. The table below does the same for the other combined
parameters: restitution (PhysX by the same max-enum of restitutionCombine modes, Newton the mean, Kamino
the minimum — its preset's mode), damping kd (Newton's mean and VBD's mean; PhysX combines damping only
for compliant contacts), and MuJoCo's solref, mixed by the solmix weight
<span class="formula">w = s_A/(s_A + s_B)</span> unless one side's priority is higher, which then gives
all of its parameters. (A step of semi-implicit Euler moves the box with the
velocity after friction, so each lane slides about <span class="formula">v₀h/2</span> = 17 mm less than the
closed form.)</p>`,
};
