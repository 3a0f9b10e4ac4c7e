/**
 * Course page 12, soft constraints (MuJoCo): solref / solimp sliders; a sphere set on the ground
 * (one normal row, condim 1) against the soft-constraint equation integrated with the step's own
 * Euler rule, penetration or normal force over time; a box on a slope under the pyramidal and the
 * elliptic cone with the chosen condim. All lanes run the `mujoco` preset (docs/presets.md).
 * @module tribo/web/pages/soft
 */
import { G, deg, aboutZ, boxDensity, sphereDensity, slope } from '../course_model.js';

const H = 0.002; /* s, MuJoCo's default timestep */
const R = 0.1; /* m, the sphere */
const MASS = 1; /* kg, sphere and box */
const HALF = [0.15, 0.08, 0.15]; /* m, the box */
const START = 0.9; /* m up the slope */
const STEPS = 300; /* one run: 0.6 s */
const MID = 0.5, POWER = 2; /* solimp midpoint and power (MuJoCo's defaults) */

const clampImp = (v) => Math.min(0.9999, Math.max(0.0001, v));
/** MuJoCo's impedance I(r) of solimp (dmin, dmax, width m, mid, power) at distance r (m). */
export function impedance(p, r) {
  const dmin = clampImp(p.dmin), dmax = clampImp(p.dmax), width = p.width / 1000;
  const x = Math.abs(r) / width;
  if (!(width > 0) || x >= 1) return dmax;
  const y = x < MID ? x ** POWER / MID ** (POWER - 1) : 1 - (1 - x) ** POWER / (1 - MID) ** (POWER - 1);
  return dmin + y * (dmax - dmin);
}

/** Stiffness K (1/s²) and damping B (1/s) of solref (timeconst, dampratio), timeconst raised to 2h (refsafe). */
export function refCoefficients(p) {
  const t = Math.max(p.timeconst, 2 * H), dmax = clampImp(p.dmax);
  return { K: 1 / (dmax * dmax * t * t * p.dampratio * p.dampratio), B: 2 / (dmax * t) };
}

const odeCache = new Map();
/**
 * The soft constraint of one normal row for a sphere set on the ground at r = 0, v = 0: a row
 * exists while r < 0, and then the acceleration of the regularised problem is
 * a = −(1 − I)g + I·a_ref with a_ref = −B·v − K·I·r (for one row, D = m·I/(1 − I)), the force
 * fₙ = m(a + g). Integrated as the step does (v += h·a, then r += h·v). Returns per step k (1-based)
 * the penetration −r (mm) after it and the normal force fₙ (N) of it.
 */
export function softODE(p) {
  const key = JSON.stringify([p.timeconst, p.dampratio, p.dmin, p.dmax, p.width]);
  if (odeCache.has(key)) return odeCache.get(key);
  const { K, B } = refCoefficients(p);
  let r = 0, v = 0;
  const depth = [0], force = [0];
  for (let k = 1; k <= STEPS + 1; k++) {
    let a = -G, f = 0;
    if (r < 0) {
      const I = impedance(p, r);
      a = -(1 - I) * G + I * (-B * v - K * I * r);
      f = MASS * (a + G);
    }
    v += H * a;
    r += H * v;
    depth.push(-r * 1000);
    force.push(f);
  }
  const out = { depth, force };
  odeCache.set(key, out);
  return out;
}

/** Resting penetration (mm): the r < 0 with g(1 − I(r))/(I(r)²K) = −r, by bisection. */
export function restingDepth(p) {
  const { K } = refCoefficients(p);
  let lo = -0.1, hi = 0;
  for (let i = 0; i < 100; i++) {
    const r = 0.5 * (lo + hi), I = impedance(p, r);
    if ((G * (1 - I)) / (I * I * K) + r > 0) hi = r; else lo = r;
  }
  return -500 * (lo + hi);
}

const stepOf = (t) => Math.round(t / H);
const material = (p, condim, mu) => ({
  condim, solref: [p.timeconst, p.dampratio], solimp: [p.dmin, p.dmax, p.width / 1000, MID, POWER],
  staticFriction: mu, dynamicFriction: mu, torsionalFriction: 0.02, rollingFriction: 0.01,
});

export default {
  id: 'soft',
  title: 'Soft constraints (MuJoCo): solref, solimp, cones and condim',
  params: [
    { key: 'timeconst', label: 'solref timeconst', unit: 's', min: 0.005, max: 0.1, step: 0.005, value: 0.02 },
    { key: 'dampratio', label: 'solref dampratio ζ', unit: '', min: 0.2, max: 2, step: 0.1, value: 1 },
    { key: 'dmin', label: 'solimp dmin', unit: '', min: 0.5, max: 0.99, step: 0.01, value: 0.9 },
    { key: 'dmax', label: 'solimp dmax', unit: '', min: 0.5, max: 0.999, step: 0.001, value: 0.95 },
    { key: 'width', label: 'solimp width', unit: 'mm', min: 0.1, max: 10, step: 0.1, value: 1 },
    { key: 'quantity', label: 'plotted', options: [{ value: 'depth', label: 'penetration (mm)' }, { value: 'force', label: 'normal force (N)' }], value: 'depth' },
    { key: 'theta', label: 'slope angle θ', unit: '°', min: 0, max: 40, step: 1, value: 28 },
    { key: 'mu', label: 'slope friction μ', unit: '', min: 0, max: 1, step: 0.05, value: 0.5 },
    { key: 'condim', label: 'slope condim', options: [1, 3, 4, 6], value: 3 },
  ],
  presets: [
    { name: 'sphere, condim 1', preset: 'mujoco', color: '#a78bfa' },
    { name: 'slope, pyramidal', preset: 'mujoco', options: { cone: 'pyramidal' }, color: '#60a5fa' },
    { name: 'slope, elliptic', preset: 'mujoco', options: { cone: 'elliptic' }, color: '#34d399' },
  ],
  timestep: H,
  duration: STEPS * H,
  stepsPerFrame: 4,
  view: { center: [0, 0.25], metersAcross: 2.4 },
  newtonsPerMeter: 40,
  build(world, p, name) {
    if (name.startsWith('sphere')) {
      const m = material(p, 1, 1);
      world.addBody({ type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0], offset: 0, material: m }] });
      const shape = { type: 'sphere', radius: R, density: sphereDensity(MASS, R), material: m };
      const id = world.addBody({ position: [0, R, 0], shapes: [shape] });
      return { bodies: [{ id, shape }], planes: [{ normal: [0, 1, 0], offset: 0 }], id, sphere: true, pos: new Float32Array(3) };
    }
    const th = deg(p.theta), m = material(p, p.condim, p.mu);
    const n = [-Math.sin(th), Math.cos(th), 0], up = [Math.cos(th), Math.sin(th), 0];
    world.addBody({ type: 'static', shapes: [{ type: 'plane', normal: n, offset: 0, material: m }] });
    const shape = { type: 'box', halfExtents: HALF, density: boxDensity(MASS, HALF), material: m };
    const pos = [0, 1, 2].map((i) => START * up[i] + HALF[1] * n[i]);
    const id = world.addBody({ position: pos, rotation: aboutZ(th), shapes: [shape] });
    return { bodies: [{ id, shape }], planes: [{ normal: n, offset: 0 }], id, sphere: false, down: up.map((x) => -x), v: new Float32Array(3), speeds: [] };
  },
  /** Penetration (mm, the deepest contact's) or the summed normal force (N, mujocoForce), as plotted. */
  sample(world, s, p) {
    const c = world.contacts;
    if (!s.sphere) {
      const v = world.getLinearVelocity(s.id, s.v);
      s.speeds.push([s.speeds.length * H, v[0] * s.down[0] + v[1] * s.down[1] + v[2] * s.down[2]]);
    }
    if (p.quantity === 'force') {
      let f = 0;
      for (let i = 0; i < c.count; i++) f += c.mujocoForce[6 * i];
      return f;
    }
    if (s.sphere) return (R - world.getPosition(s.id, s.pos)[1]) * 1000;
    let d = 0;
    for (let i = 0; i < c.count; i++) d = Math.min(d, c.separation[i]);
    return -d * 1000;
  },
  reference: (p, t) => softODE(p)[p.quantity][stepOf(t)] ?? null,
  headline: (lane) => lane.samples.at(-1)?.[1] ?? null,
  headlineReference: (p) => softODE(p)[p.quantity][STEPS],
  headlineLabel: 'at the run\'s end',
  headlineReferenceLabel: 'soft-constraint equation (sphere)',
  digits: 4,
  formula: 'a = −(1 − I)g + I·(−B·v − K·I·r), fₙ = m(a + g)',
  note(lane, p) {
    const s = lane.scene;
    if (!s || lane.t < 0.1) return '';
    if (s.sphere) {
      return p.quantity === 'depth' ? `resting depth g(1−I)/(I²K) = ${restingDepth(p).toFixed(4)} mm` : `m·g = ${(MASS * G).toFixed(3)} N (the soft force reaches it only at rest)`;
    }
    const a = slope(s.speeds, lane.t / 2, lane.t), th = deg(p.theta);
    const coulomb = Math.max(0, G * (Math.sin(th) - p.mu * Math.cos(th)));
    const v = s.speeds.at(-1)?.[1] ?? 0;
    const what = Math.abs(v) < 1e-3 ? `holds (${(v * 1000).toFixed(2)} mm/s)`
      : Math.abs(a) < 0.05 ? `creeps at ${(v * 1000).toFixed(1)} mm/s (soft friction)` : `slides, a = ${a.toFixed(3)} m/s²`;
    return `${what}; Coulomb: ${coulomb > 0 ? `a = ${coulomb.toFixed(3)}` : 'sticks'}${p.condim === 1 ? ' — condim 1 has no friction: a = g sin θ' : ''}`;
  },
  plot: { title: 'the sphere against the soft-constraint equation (dashed), and the box on the slope under each cone', x: 't (s)', y: 'penetration (mm) or fₙ (N)', reference: 'soft constraint' },
  explanation: `
<p>MuJoCo does not make contacts hard. Each contact row solves for the force of a <em>soft</em>
constraint: it asks for a reference acceleration
<span class="formula">a_ref = −B·v − K·I(r)·r</span> of the penetration r, and trades it against the
unconstrained motion with a regulariser <span class="formula">R = (1 − I)/I · Â</span>. solref
(timeconst t, dampratio ζ) sets <span class="formula">K = 1/(d_max² t² ζ²)</span> and
<span class="formula">B = 2/(d_max t)</span> (t raised to 2h), a mass–spring–damper of time constant t;
solimp (d_min, d_max, width, midpoint, power) sets the impedance I(r), rising from d_min at r = 0 to
d_max beyond the width.</p>
<p>For one row (the sphere, condim 1) the regularised problem gives
<span class="formula">a = −(1 − I)g + I·a_ref</span> and <span class="formula">fₙ = m(a + g)</span>: the
dashed curve integrates exactly that, as the step does (v += h·a, then x += h·v). The sphere settles at
the depth where <span class="formula">g(1 − I)/(I² K) = −r</span> — the contact always sinks a little,
and the force passes m·g only once it has settled; a small timeconst makes it stiff, ζ &lt; 1 lets it ring.</p>
<p>Friction rows share the same softness. The <b>pyramidal</b> cone (default) replaces each friction
direction by two edge rows eₙ ± μeᵢ with λ ≥ 0; the <b>elliptic</b> cone keeps the rows and bounds
Σ(fᵢ/μᵢ)² ≤ fₙ². <b>condim</b> picks the rows: 1 normal only (no friction: the box slides at g sin θ),
3 adds the two tangents (Coulomb), 4 the torsion about the normal, 6 the two rolling torques. Under
either cone a soft friction row lets a holding box creep slowly: the row's force is the soft answer,
not an exact stop.</p>`,
};
