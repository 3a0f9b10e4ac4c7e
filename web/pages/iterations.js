/**
 * Course page 9, PGS vs TGS and iterations: a stack of boxes; the ground's force on the stack
 * against its weight, and the top box's sag, as the iteration count and the step rate change.
 * @module tribo/web/pages/iterations
 */
import { G, buildStack, tailMean } from '../course_model.js';

const HALF = [0.2, 0.2, 0.2]; /* m */
const MASS = 1; /* kg per box */

export default {
  id: 'iterations',
  title: 'PGS vs TGS and iterations',
  params: [
    { key: 'boxes', label: 'boxes in the stack', unit: '', min: 2, max: 12, step: 1, value: 8 },
    { key: 'iterations', label: 'iterations (PhysX position, XPBD)', unit: '', min: 1, max: 20, step: 1, value: 4 },
    { key: 'hz', label: 'step rate 1/h', unit: 'Hz', min: 30, max: 240, step: 30, value: 60 },
  ],
  presets: ['physx-pgs', 'physx-tgs', 'newton-xpbd'],
  timestep: (p) => 1 / p.hz,
  duration: 1.5,
  view: { center: [0, 1.55], metersAcross: 5.5 },
  newtonsPerMeter: 60,
  world: (p, preset) => (preset === 'newton-xpbd' ? { iterations: p.iterations } : { positionIterations: p.iterations }),
  build(world, p) {
    return { ...buildStack(world, p.boxes, HALF, MASS), top: HALF[1] * (2 * p.boxes - 1), pos: new Float32Array(3), sag: 0 };
  },
  /** Ground force on the bottom box over the whole stack's weight (1 = carried exactly). */
  sample(world, s, p) {
    s.sag = (world.getPosition(s.ids.at(-1), s.pos)[1] - s.top) * 1000;
    const f = world.netContactWrench(s.ids[0], { with: 'static' }).force[1];
    return f / (p.boxes * MASS * G);
  },
  reference: () => 1,
  /** The mean ratio over the last half of the run. */
  headline(lane) {
    return tailMean(lane.samples, 1 / 2);
  },
  headlineReference: () => 1,
  headlineLabel: 'ground force / (n m g)',
  headlineReferenceLabel: 'static answer',
  formula: 'Σ ground force = n·m·g',
  note: (lane) => `top box ${lane.scene.sag.toFixed(1)} mm from its resting height`,
  plot: { title: 'the ground\'s force on the stack over its weight: each solver, and the static answer 1 (dashed)', x: 't (s)', y: 'F / (n m g)', reference: 'static answer' },
  explanation: `
<p>A stack at rest is a system of contact constraints that must hold all at once: the ground carries
<span class="formula">n m g</span>, each box the weight of those above it. Iterative solvers reach that
answer by sweeping over the contacts one at a time, a fixed number of times per step, so what they
report depends on how many sweeps they get.</p>
<p>PGS (Gauss–Seidel on velocities, <code>physx-pgs</code>) starts each step from zero impulses and runs the
position iterations with a bias that removes penetration, friction in the last three only; with few
iterations on a tall stack the bottom contacts have not yet heard of the top boxes and the stack sags.
TGS (<code>physx-tgs</code>) spends the same count as <em>substeps</em> of h/N, integrating after each and
updating separations from the accumulated motion, which converges much faster on stacks. XPBD applies
position corrections <span class="formula">p = ω(−d)/(h w)</span> per iteration; its count-weighted readback
sums to the weight only when the stack has settled.</p>
<p>Raise the boxes, lower the iterations or the step rate, and watch the ratio leave 1 and the top box
sink: that is the solver's convergence, measured.</p>`,
};
