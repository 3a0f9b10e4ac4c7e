/**
 * Course page 1, the collision pipeline: shapes falling into a pile; per stage, how many
 * bounding boxes, candidate pairs and contacts there are, per preset (their contact distances
 * differ); the contact store's overflow flag when its capacity slider is lowered.
 * @module tribo/web/pages/pipeline
 */
import { boxDensity, sphereDensity } from '../course_model.js';

const R = 0.15; /* m sphere radius */
const HALF = [0.15, 0.15, 0.15]; /* m box half extents */

export default {
  id: 'pipeline',
  title: 'The collision pipeline: bounding boxes, pairs, contacts',
  params: [
    { key: 'count', label: 'falling shapes', unit: '', min: 4, max: 40, step: 2, value: 20 },
    { key: 'capacity', label: 'contact store capacity', unit: 'contacts', min: 8, max: 256, step: 8, value: 256 },
  ],
  presets: ['physx-tgs', 'newton-xpbd'],
  duration: 2,
  view: { center: [0, 1.0], metersAcross: 3.6 },
  newtonsPerMeter: 200,
  world: (p) => ({ contactCapacity: p.capacity }),
  build(world, p) {
    world.addBody({ type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0], offset: 0 }] });
    const sphere = { type: 'sphere', radius: R, density: sphereDensity(1, R) };
    const box = { type: 'box', halfExtents: HALF, density: boxDensity(1, HALF) };
    const bodies = [];
    /* a deterministic column of shapes in a narrow chimney (x spread 1 m, z 0): they meet as they land */
    for (let k = 0; k < p.count; k++) {
      const shape = k % 2 ? box : sphere;
      const x = ((k * 7) % 5) * 0.22 - 0.44, y = 0.3 + 0.36 * k;
      bodies.push({ id: world.addBody({ position: [x, y, 0], shapes: [shape] }), shape });
    }
    return { bodies, planes: [{ normal: [0, 1, 0], offset: 0 }], stats: null };
  },
  /** Candidate pairs the broad phase hands on; keeps the other stage counts for the text. */
  sample(world, s) {
    const c = world.contacts;
    s.stats = { aabbs: s.bodies.length + 1, pairs: c.pairCount, contacts: c.count, requested: c.requested, overflowed: c.overflowed };
    return c.pairCount;
  },
  /** n(n − 1)/2 over the n dynamic shapes plus n ground pairs: what an all-pairs test starts from. */
  reference: (p) => (p.count * (p.count - 1)) / 2 + p.count,
  headline: (lane) => lane.scene.stats?.pairs ?? null,
  headlineReference: (p) => (p.count * (p.count - 1)) / 2 + p.count,
  headlineReferenceLabel: 'all pairs n(n−1)/2 + n',
  headlineLabel: 'candidate pairs now',
  formula: 'sweep and prune keeps the pairs whose bounding boxes overlap on every axis',
  digits: 0,
  note(lane) {
    const s = lane.scene.stats;
    if (!s) return '';
    return `${s.aabbs} bounding boxes → ${s.pairs} pairs → ${s.requested} contacts found, ${s.contacts} stored` +
      (s.overflowed ? ' — OVERFLOWED: the frame is incomplete (readback invalid)' : '');
  },
  plot: { title: 'candidate pairs handed to the narrow phase, per preset; all n(n−1)/2 + n pairs (dashed) for comparison', x: 't (s)', y: 'pairs', reference: 'n(n−1)/2 + n' },
  explanation: `
<p>Collision detection runs in stages so that the expensive exact test sees few pairs. Each shape gets
an axis-aligned bounding box (AABB) from its pose, grown by the contact distance. The <em>broad phase</em>
finds the pairs of boxes that overlap: testing all of them costs
<span class="formula">n(n−1)/2</span> pair tests, while <em>sweep and prune</em> keeps the boxes sorted along
an axis and only looks at neighbours whose intervals overlap, nearly linear when the bodies move
little between steps.</p>
<p>The <em>narrow phase</em> then runs the exact routine of each candidate pair (analytic for spheres,
capsules, boxes and planes; GJK, MPR and EPA for other convex pairs) and writes contact points into the
contact store. Falling shapes start far apart: almost no box overlaps, and the pairs grow as the
pile forms. The <code>broadPhase</code> option ('sap' or 'all-pairs') changes the cost, never the pairs;
what changes them is how far each preset grows the boxes — PhysX by the contact offset and the
speculative distance, Newton by the gap and one step of motion — so the two lanes hand on different
numbers of pairs and contacts from the same pile.</p>
<p>Lower the store's capacity below the contacts the pile needs: <code>requested</code> exceeds
<code>capacity</code>, the store keeps the first contacts in pair order and the frame is flagged
<code>overflowed</code>, its readback invalid — never silently incomplete.</p>`,
};
