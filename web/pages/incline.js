/**
 * Course page 7, stick and slip: a box on an incline. Measured acceleration along the slope
 * against g(sin θ − μ cos θ) (0 while tan θ ≤ μ), per preset; the penalty solver's creep shown.
 * @module tribo/web/pages/incline
 */
import { G, deg, aboutZ, boxDensity, slope } from '../course_model.js';

const HALF = [0.2, 0.1, 0.2]; /* m */
const MASS = 2; /* kg */
const START = 1.4; /* m up the slope from the origin */

/** Closed-form acceleration down the slope (m/s²): g(sin θ − μ cos θ) when it slides, else 0. */
export function closedForm(thetaDeg, mu) {
  const th = deg(thetaDeg);
  return Math.max(0, G * (Math.sin(th) - mu * Math.cos(th)));
}

export default {
  id: 'incline',
  title: 'Stick and slip: a box on an incline',
  params: [
    { key: 'theta', label: 'incline angle θ', unit: '°', min: 0, max: 40, step: 1, value: 30 },
    { key: 'mu', label: 'friction μ (both shapes)', unit: '', min: 0, max: 1, step: 0.05, value: 0.3 },
  ],
  presets: ['physx-pgs', 'physx-tgs', 'newton-xpbd', 'newton-semi'],
  duration: 1.2,
  view: { center: [0, 0.3], metersAcross: 4 },
  build(world, p) {
    const th = deg(p.theta);
    const n = [-Math.sin(th), Math.cos(th), 0], up = [Math.cos(th), Math.sin(th), 0];
    world.addBody({ type: 'static', shapes: [{ type: 'plane', normal: n, offset: 0, friction: p.mu }] });
    const shape = { type: 'box', halfExtents: HALF, density: boxDensity(MASS, HALF), friction: p.mu };
    const pos = [0, 1, 2].map((i) => START * up[i] + HALF[1] * n[i]);
    const id = world.addBody({ position: pos, rotation: aboutZ(th), shapes: [shape] });
    return { bodies: [{ id, shape }], planes: [{ normal: n, offset: 0 }], id, down: up.map((x) => -x), v: new Float32Array(3) };
  },
  /** Velocity down the slope (m/s). */
  sample(world, s) {
    const v = world.getLinearVelocity(s.id, s.v);
    return v[0] * s.down[0] + v[1] * s.down[1] + v[2] * s.down[2];
  },
  reference: (p, t) => closedForm(p.theta, p.mu) * t,
  /** Acceleration: least-squares slope of the velocity over the second half of the run (m/s²). */
  headline: (lane) => slope(lane.samples, lane.t / 2, lane.t),
  headlineReference: (p) => closedForm(p.theta, p.mu),
  headlineLabel: 'measured a (m/s²)',
  headlineReferenceLabel: 'g(sin θ − μ cos θ)',
  formula: 'a = g(sin θ − μ cos θ) if tan θ > μ, else 0',
  /** What the box did, measured, honestly: sticks, creeps (with the creep law's value) or slides. */
  note(lane, p) {
    const v = lane.samples.at(-1)?.[1];
    if (v == null || lane.t < 0.3) return '';
    const a = lane.headline(), ref = closedForm(p.theta, p.mu);
    if (Math.abs(v) < 1e-4) return 'sticks';
    if (ref > 0 && a > 0.5 * ref) return 'slides';
    const creep = lane.preset === 'newton-semi'
      ? ` (creep law m·g·sinθ/(N·kf) = ${((MASS * G * Math.sin(deg(p.theta))) / (lane.world.contacts.count * 1000) * 1000).toFixed(2)} mm/s)` : '';
    return `creeps at ${(v * 1000).toFixed(1)} mm/s${creep}${ref > 0 ? '; the closed form slides' : ''}`;
  },
  plot: { title: 'velocity down the slope: each preset against the closed form a·t (dashed)', x: 't (s)', y: 'v (m/s)', reference: 'g(sinθ−μcosθ)·t' },
  explanation: `
<p>A box on a slope of angle θ feels gravity's component <span class="formula">m g sin θ</span> along
the slope and presses on it with <span class="formula">N = m g cos θ</span>. Coulomb friction can hold
it with any force up to <span class="formula">μ N</span>, so the box sticks while
<span class="formula">tan θ ≤ μ</span> and otherwise slides with
<span class="formula">a = g (sin θ − μ cos θ)</span>.</p>
<p>The PhysX solvers (PGS, TGS) treat friction as a constraint: a sticking box stays exactly at rest,
and a sliding one accelerates at the closed form. XPBD limits each friction correction by μ times the
normal correction of the same iteration, which gives the same answer on this scene.</p>
<p>The penalty solver (<code>newton-semi</code>) has no sticking at all. Its friction is Newton's
<span class="formula">f = v/s(v) · min(k<sub>f</sub> s, μ f<sub>n</sub>)</span> with the Huber norm
<span class="formula">s(v) = ½|v|²</span> below δ = 1 m/s, so at low speed it is viscous
(<span class="formula">k<sub>f</sub> v</span>: the box creeps at about
<span class="formula">v = m g sin θ / (N k<sub>f</sub>)</span> for N contacts, k<sub>f</sub> = 1000 N·s/m)
and above that the factor v/s = 2/|v| makes it larger than μ f<sub>n</sub>: a box starting at rest creeps
even where the closed form slides. XPBD and TGS creep a little when sticking too. The table says
"creeps" when a lane does: that is each model, shown as it is.</p>`,
};
