/**
 * Course page 3, multi-point manifolds: a box and a hull resting on a plane and on a triangle
 * mesh, tilted by a slider; how many points each pair keeps (maxPointsPerPair) and the `reduced`
 * flag when points were dropped.
 * @module tribo/web/pages/manifolds
 */
import { deg, aboutZ, boxDensity } from '../course_model.js';

const HALF = [0.25, 0.15, 0.25]; /* m */
/* a hull: an octagonal prism (16 vertices) of radius 0.25 m, height 0.3 m */
const HULL = [];
for (let k = 0; k < 8; k++) for (const y of [-0.15, 0.15]) HULL.push([0.25 * Math.cos((k * Math.PI) / 4 + Math.PI / 8), y, 0.25 * Math.sin((k * Math.PI) / 4 + Math.PI / 8)]);
/* a square of ground as a mesh of two triangles (front side up) */
const MESH = { type: 'mesh', vertices: [[-3, 0, -3], [3, 0, -3], [3, 0, 3], [-3, 0, 3]].flat(), indices: [0, 2, 1, 0, 3, 2] };

export default {
  id: 'manifolds',
  title: 'Multi-point manifolds: how many points a resting pair keeps',
  params: [
    { key: 'maxPoints', label: 'maxPointsPerPair', unit: 'points', min: 1, max: 4, step: 1, value: 4 },
    { key: 'tilt', label: 'initial tilt about z', unit: '°', min: 0, max: 20, step: 1, value: 0 },
  ],
  presets: [
    { name: 'box on plane', preset: 'physx-tgs', options: {}, color: '#60a5fa' },
    { name: 'hull on plane', preset: 'physx-tgs', options: {}, color: '#34d399' },
    { name: 'box on mesh', preset: 'physx-tgs', options: {}, color: '#f472b6' },
    { name: 'hull on mesh', preset: 'physx-tgs', options: {}, color: '#fbbf24' },
  ],
  duration: 1.5,
  view: { center: [0, 0.25], metersAcross: 1.4 },
  world: (p) => ({ maxPointsPerPair: p.maxPoints }),
  build(world, p, name) {
    const onMesh = name.endsWith('mesh');
    world.addBody({ type: 'static', shapes: [onMesh ? MESH : { type: 'plane', normal: [0, 1, 0], offset: 0 }] });
    const shape = name.startsWith('hull')
      ? { type: 'hull', points: HULL.flat(), density: 500 }
      : { type: 'box', halfExtents: HALF, density: boxDensity(10, HALF) };
    const drawn = name.startsWith('hull') ? { type: 'hull', points: HULL } : shape;
    const lift = 0.15 + 0.25 * Math.sin(deg(p.tilt)) + 0.01;
    const id = world.addBody({ position: [0, lift, 0], rotation: aboutZ(deg(p.tilt)), shapes: [shape] });
    return { bodies: [{ id, shape: drawn }], planes: [{ normal: [0, 1, 0], offset: 0 }], id, reduced: false, requested: 0 };
  },
  /** Contact points of the pair now; keeps the reduced flag. */
  sample(world, s) {
    const c = world.contacts;
    let n = 0, reduced = false;
    for (let i = 0; i < c.count; i++) if (c.body1[i] === s.id || c.body0[i] === s.id) { n++; reduced ||= !!c.reduced[i]; }
    s.reduced = reduced;
    return n;
  },
  reference: (p) => p.maxPoints,
  headline: (lane) => lane.samples.at(-1)?.[1] ?? null,
  headlineReference: (p) => p.maxPoints,
  headlineLabel: 'points kept now',
  headlineReferenceLabel: 'maxPointsPerPair',
  formula: 'a face resting on a face needs ≥ 3 points; the deepest ones are kept',
  digits: 0,
  note: (lane) => (lane.scene.reduced ? 'reduced: points of this pair were dropped' : 'not reduced'),
  plot: { title: 'contact points of the resting pair over time (maxPointsPerPair dashed)', x: 't (s)', y: 'points', reference: 'maxPointsPerPair' },
  explanation: `
<p>One point of contact cannot hold a box flat: it would rock about it. A face resting on a face needs a
<em>manifold</em> of several points spanning the support area. Box–box and hull pairs get theirs by
clipping the incident face against the reference face; other convex pairs (found by GJK, MPR or EPA,
which give one point) by small perturbations of the pose about the first normal, collecting the points
each perturbed query finds.</p>
<p>Points cost solver rows, so a pair keeps at most <code>maxPointsPerPair</code> (up to 4), deepest first and
spread over the area; the contact record's <code>reduced</code> flag says when points were dropped. The
octagonal hull resting on its face has eight candidate corners and is reduced; the box has four.
Against a mesh the two triangles under the box each give points, more than the limit, so even the
box is reduced there — and no ghost contact appears on the internal edge between the triangles.</p>
<p>Lower the limit to 1 or 2 and watch the box tip or rock on what is left; tilt it and watch the
manifold grow from one corner to a face as it settles.</p>`,
};
