/**
 * Course page 11, penalty contact: a sphere resting on springs (newton-semi). Penetration against
 * m·g/ke, the damper kd, and the explicit step's stability limit ω·h_s < 2 shown when crossed.
 * @module tribo/web/pages/penalty
 */
import { G, sphereDensity, tailMean } from '../course_model.js';

const R = 0.1; /* m */

const MU = 0.5; /* both shapes */
const V0 = 4; /* m/s, the sliding lane's launch speed */
const DELTA = 1; /* m/s, the Huber norm's knee */

/**
 * Newton's Huber-smoothed friction at slip speed v (m/s): f = v/s(v) · min(kf·s(v), μ·fₙ) with
 * s = ½v² below δ = 1 m/s and |v| − ½ above; returns the force (N) and its regime.
 */
export function huber(v, kf, muFn) {
  const a = Math.abs(v), s = a < DELTA ? 0.5 * a * a : a - 0.5 * DELTA;
  if (a < 1e-4) return { f: kf * a, regime: 'at rest (slip < 0.1 mm/s)' };
  const viscous = kf * s < muFn;
  return { f: (a / s) * Math.min(kf * s, muFn), regime: viscous ? 'viscous (kf·v: never sticks)' : `bounded: μ·fₙ·v/s = ${(a / s).toFixed(2)}·μ·fₙ` };
}

/** ω·h_s of the contact spring: √(ke/m)·h/substeps; semi-implicit Euler is stable below 2 (undamped). */
export const stability = (ke, m, hz, substeps) => (Math.sqrt(ke / m) / hz) / substeps;

export default {
  id: 'penalty',
  title: 'Penalty contact: springs, dampers and the explicit step',
  params: [
    { key: 'ke', label: 'contact stiffness ke', unit: 'N/m', options: [500, 1000, 2500, 10000, 100000, 1000000], value: 2500 },
    { key: 'kd', label: 'contact damping kd', unit: 'N·s/m', options: [0, 1, 10, 100, 1000], value: 100 },
    { key: 'mass', label: 'sphere mass m', unit: 'kg', min: 0.1, max: 5, step: 0.1, value: 1 },
    { key: 'substeps', label: 'penalty substeps', unit: '', min: 1, max: 32, step: 1, value: 4 },
    { key: 'kf', label: 'friction gain kf (sliding lane)', unit: 'N·s/m', options: [10, 50, 100, 1000], value: 100 },
  ],
  presets: ['newton-semi', { name: 'newton-semi, sliding (kf)', preset: 'newton-semi', color: '#f59e0b' }, 'physx-tgs'],
  duration: 1.5,
  view: { center: [0, 0.1], metersAcross: 0.6 },
  newtonsPerMeter: 100,
  /* the resting lane: kf 0 (the normal spring alone); the sliding lane: the chosen kf, which the
   * engine refuses by name when the explicit friction step would be unstable */
  world: (p, lane) => (lane === 'newton-semi' ? { ke: p.ke, kd: p.kd, kf: 0, penaltySubsteps: p.substeps }
    : lane.startsWith('newton-semi') ? { ke: p.ke, kd: p.kd, kf: p.kf, penaltySubsteps: p.substeps } : {}),
  build(world, p, lane) {
    world.addBody({ type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0], offset: 0, friction: MU }] });
    const shape = { type: 'sphere', radius: R, density: sphereDensity(p.mass, R), friction: MU };
    const sliding = lane.startsWith('newton-semi,');
    const id = world.addBody({ position: [sliding ? -0.2 : 0, R + 0.02, 0], linearVelocity: sliding ? [V0, 0, 0] : [0, 0, 0], shapes: [shape] });
    /* the sliding sphere gets a very large moment of inertia, so that friction slows its slide
     * instead of spinning it up into rolling: the slip is then its speed */
    if (sliding) world.setMass(id, { mass: p.mass, inertia: [1e4, 1e4, 1e4] });
    return { bodies: [{ id, shape }], planes: [{ normal: [0, 1, 0], offset: 0 }], id, pos: new Float32Array(3), sliding, v: new Float32Array(3), w: new Float32Array(3), friction: null };
  },
  /** Penetration of the sphere into the ground (mm, > 0 = below the surface). */
  sample(world, s) {
    if (s.sliding && world.contacts.count) {
      /* the penalty solver has body forces only: the step's average contact force on the sphere */
      const v = world.getLinearVelocity(s.id, s.v), w = world.getAngularVelocity(s.id, s.w), f = world.netContactWrench(s.id).force;
      /* slip of the contact point: v + ω × (−R ŷ), along x */
      s.friction = { slip: v[0] + w[2] * R, ft: Math.abs(f[0]), fn: f[1] };
    }
    return (R - world.getPosition(s.id, s.pos)[1]) * 1000;
  },
  reference: (p) => ((p.mass * G) / p.ke) * 1000,
  /** The mean penetration over the last third of the run (mm). */
  headline(lane) {
    return tailMean(lane.samples, 1 / 3);
  },
  headlineReference: (p) => ((p.mass * G) / p.ke) * 1000,
  headlineLabel: 'penetration (mm)',
  headlineReferenceLabel: 'm·g / ke',
  formula: 'spring at rest: ke·δ = m·g',
  digits: 3,
  note(lane, p) {
    if (lane.preset.startsWith('newton-semi,')) {
      const f = lane.scene?.friction;
      if (!f) return `kf·h_s/m = ${(p.kf / 60 / p.substeps / p.mass).toFixed(2)} (the explicit limit is 2)`;
      const h = huber(f.slip, p.kf, MU * f.fn);
      return `slip ${f.slip.toFixed(3)} m/s: friction ${f.ft.toFixed(2)} N; Huber law ${h.f.toFixed(2)} N, ${h.regime}`;
    }
    if (lane.preset !== 'newton-semi') return 'rigid contact: no spring';
    const wh = stability(p.ke, p.mass, 60, p.substeps);
    const zeta = p.kd / (2 * Math.sqrt(p.ke * p.mass));
    return `ω·h_s = ${wh.toFixed(2)} (${wh < 2 ? 'stable' : 'beyond the limit 2'}), damping ratio ζ = kd/(2√(ke·m)) = ${zeta.toFixed(2)}`;
  },
  plot: { title: 'penetration of the resting sphere: the penalty spring against m·g/ke (dashed), and a rigid solver', x: 't (s)', y: 'δ (mm)', reference: 'm·g/ke' },
  explanation: `
<p>A penalty method does not forbid penetration: it pushes back in proportion to it. Each contact is a
spring and a damper along the normal, <span class="formula">f_n = −(ke·d + kd·min(v_n, 0))</span> for
d &lt; 0 (the damper only while closing), so a body at rest sinks until the spring carries its weight:
<span class="formula">δ = m g / ke</span>. Stiffer springs sink less; a damper kd near
<span class="formula">2√(ke m)</span> (ζ = 1) stops the bounce.</p>
<p>The forces act by semi-implicit Euler over <code>penaltySubsteps</code> substeps of
<span class="formula">h_s = h / N</span>. An undamped spring integrated that way is stable only while
<span class="formula">ω h_s &lt; 2</span> with <span class="formula">ω = √(ke/m)</span>: pick ke = 10⁶ N/m with
a light sphere and few substeps and the step blows up. Tribo does not hide it: the failing step is
undone, the lane says why, and more substeps (or a heavier body, or a softer spring) bring it back.</p>
<p>Friction in this model is Newton's Huber-smoothed law,
<span class="formula">f = v/s · min(kf·s, μ|fₙ|)</span> with the Huber norm
<span class="formula">s = ½v²</span> below δ = 1 m/s and <span class="formula">|v| − ½δ</span> above. The
orange lane launches the sphere sliding at 4 m/s with the chosen kf and shows both regimes as it slows:
while <span class="formula">kf·s ≥ μ|fₙ|</span> the force is bounded, μ|fₙ| times v/s (which exceeds
1 below a few m/s); once <span class="formula">kf·s &lt; μ|fₙ|</span> it is viscous,
<span class="formula">f = kf·v</span>, so a penalty contact never sticks exactly.</p>
<p>Friction is explicit too: the step refuses, by name and before moving anything, a body whose
<span class="formula">h_s·Σkf/m &gt; 2</span>. Choose kf = 1000 N·s/m at 4 substeps and the orange lane
shows the engine's refusal with the substep count it needs; raise the substeps and it runs.</p>`,
};
