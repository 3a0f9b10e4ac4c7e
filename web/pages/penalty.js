/**
 * Course page 11, penalty contact: a sphere resting on springs (newton-semi). Penetration against
 * m·g/ke, the damper kd, and the explicit step's stability limit ω·h_s < 2 shown when crossed.
 * @module tribo/web/pages/penalty
 */
import { G, sphereDensity, tailMean } from '../course_model.js';

const R = 0.1; /* m */

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
  ],
  presets: ['newton-semi', 'physx-tgs'],
  duration: 1.5,
  view: { center: [0, 0.1], metersAcross: 0.6 },
  newtonsPerMeter: 100,
  world: (p, preset) => (preset === 'newton-semi' ? { ke: p.ke, kd: p.kd, penaltySubsteps: p.substeps } : {}),
  build(world, p) {
    world.addBody({ type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0], offset: 0 }] });
    const shape = { type: 'sphere', radius: R, density: sphereDensity(p.mass, R) };
    const id = world.addBody({ position: [0, R + 0.02, 0], shapes: [shape] });
    return { bodies: [{ id, shape }], planes: [{ normal: [0, 1, 0], offset: 0 }], id, pos: new Float32Array(3) };
  },
  /** Penetration of the sphere into the ground (mm, > 0 = below the surface). */
  sample: (world, s) => (R - world.getPosition(s.id, s.pos)[1]) * 1000,
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
<p>Friction in this model is Newton's Huber-smoothed law (see the stick-and-slip page): viscous
<span class="formula">kf·v</span> at low slip, bounded by μ times the normal force above it, so a penalty
contact never sticks exactly.</p>`,
};
