/**
 * Course page 10, XPBD relaxation and count weighting: a resting stack; the per-contact readback
 * of the ground contacts against the static answer n·m·g, with and without contact weighting,
 * as the relaxation ω and the iteration count change.
 * @module tribo/web/pages/relaxation
 */
import { G, buildStack, tailMean } from '../course_model.js';

const HALF = [0.2, 0.2, 0.2]; /* m */
const MASS = 1; /* kg per box */

export default {
  id: 'relaxation',
  title: 'XPBD relaxation and contact-count weighting',
  params: [
    { key: 'relaxation', label: 'relaxation ω', unit: '', min: 0.1, max: 1.9, step: 0.1, value: 0.8 },
    { key: 'iterations', label: 'XPBD iterations', unit: '', min: 1, max: 16, step: 1, value: 2 },
    { key: 'boxes', label: 'boxes in the stack', unit: '', min: 1, max: 5, step: 1, value: 3 },
  ],
  presets: [
    { name: 'xpbd, weighted', preset: 'newton-xpbd', options: { contactWeighting: true }, color: '#f472b6' },
    { name: 'xpbd, not weighted', preset: 'newton-xpbd', options: { contactWeighting: false }, color: '#fbbf24' },
    { name: 'physx-tgs', preset: 'physx-tgs', options: {} },
  ],
  duration: 2,
  view: { center: [0, 0.9], metersAcross: 3.2 },
  newtonsPerMeter: 30,
  world: (p, name) => (name.startsWith('xpbd') ? { relaxation: p.relaxation, iterations: p.iterations } : {}),
  build(world, p) {
    return { ...buildStack(world, p.boxes, HALF, MASS), net: null };
  },
  /** Σ of the reported ground-contact forces on the bottom box over n·m·g; keeps the body's net force. */
  sample(world, s, p) {
    const c = world.contacts, bottom = s.ids[0];
    if (!c.readbackValid) return null;
    let f = 0;
    for (let i = 0; i < c.count; i++) {
      if (c.body1[i] === bottom && c.body0[i] === -1) f += c.force[3 * i + 1];
      else if (c.body0[i] === bottom && c.body1[i] === -1) f -= c.force[3 * i + 1];
    }
    s.net = world.netContactWrench(bottom).force[1] / (MASS * G);
    return f / (p.boxes * MASS * G);
  },
  reference: () => 1,
  headline(lane) {
    return tailMean(lane.samples, 1 / 2);
  },
  headlineReference: () => 1,
  headlineLabel: 'ground contacts / (n m g)',
  headlineReferenceLabel: 'static answer',
  formula: 'p = ω(−d)/(h·w) per correction; weighted: p/N, readback ×1/N or ×2/(N_A+N_B)',
  note: (lane) => (lane.scene.net == null ? '' : `bottom box's net contact force ${lane.scene.net.toFixed(3)} m·g (its own weight: 1)`),
  plot: { title: 'reported force of the ground contacts under the bottom box, over the stack\'s weight (static answer 1, dashed)', x: 't (s)', y: 'F / (n m g)', reference: 'static answer' },
  explanation: `
<p>XPBD solves contacts as position corrections. For a contact penetrating by d &lt; 0 at the current
poses, one correction moves the bodies apart by the impulse
<span class="formula">p = ω (−d) / (h · w)</span> (N·s), with w the generalized inverse mass of the pair
along the normal, h the step and ω the <em>relaxation</em> (0.8 by default). The readback of a contact is
the sum of its corrections over the iterations, divided by h.</p>
<p>A box resting on several contacts would be pushed by each of them as if it were alone, so Newton
divides each body's correction by its number N of active contacts (<code>contactWeighting</code>) and
scales the readback by 1/N for a contact with one dynamic body, 2/(N_A + N_B) between two. The
bottom box of a stack has contacts with the ground and with the box above: the weighting splits its
load differently from the static answer, so the ground contacts read less than n·m·g while the box's
net contact force (in the lane's text) is exactly its own weight.</p>
<p>Move ω and the iteration count: under-relaxed, the stack sinks until the corrections catch up;
over-relaxed (ω &gt; 1), it overshoots. The PhysX lane shows the rigid-solver answer for comparison.</p>`,
};
