/**
 * Course page 2, GJK, EPA and MPR: two convex shapes placed by sliders or by dragging B, the collision stage alone
 * (collide()); the signed distance and the two surface points — closest points when apart,
 * penetration depth and normal when overlapping — for a pair the general convex routines answer
 * (hull–ellipsoid) and for one with an exact closed form (sphere–sphere).
 * @module tribo/web/pages/distance
 */
import { deg, aboutZ } from '../course_model.js';

/* a pentagonal prism along z (the side view shows the pentagon), radius 0.3 m */
const PENTAGON = [];
for (let k = 0; k < 5; k++) for (const z of [-0.2, 0.2]) PENTAGON.push([0.3 * Math.cos((2 * Math.PI * k) / 5 + Math.PI / 2), 0.3 * Math.sin((2 * Math.PI * k) / 5 + Math.PI / 2), z]);
const RA = 0.3, RB = 0.2; /* m, the spheres */
const FAR = 2; /* m: contact offset of each shape, so separated shapes still get a record */
const ELLIPSOID = [0.35, 0.18, 0.18];

/* the support-field lane: a hull of 200 points of a sphere of 0.4 m, and 400 directions to ask */
const fib = (n, r) => Array.from({ length: n }, (_, i) => {
  const z = 1 - (2 * i + 1) / n, q = Math.sqrt(1 - z * z), t = 2.399963229728653 * i;
  return [r * q * Math.cos(t), r * q * Math.sin(t), r * z];
});
const BALL = fib(200, 0.4);
const DIRECTIONS = fib(400, 1).map(([x, y, z]) => [x + 1e-3, y, z]);
const SUPPORT = 'support field: mean lookup error (mm)';

/** Lookup error of the hull's support field against the exact scan over DIRECTIONS: mean and worst (mm), directions that differ, ties. */
export function supportStats(world, shape) {
  let sum = 0, worst = 0, differ = 0, tied = 0;
  for (const d of DIRECTIONS) {
    const q = world.shapeSupport(shape, d);
    sum += q.error; worst = Math.max(worst, q.error);
    if (q.fieldVertex !== q.scanVertex) differ++;
    if (q.ties > 1) tied++;
  }
  return { mean: (1000 * sum) / DIRECTIONS.length, worst: 1000 * worst, differ, tied, n: DIRECTIONS.length };
}

const SWEEP_X = Array.from({ length: 41 }, (_, k) => -1 + k * 0.05);
const minSeparation = (c) => { let d = null; for (let i = 0; i < c.count; i++) if (d === null || c.separation[i] < d) d = c.separation[i]; return d; };

/** Closed-form signed distance (m) of two spheres: |c_B − c_A| − r_A − r_B. */
export const sphereDistance = (p) => Math.hypot(p.x, p.y) - RA - RB;

export default {
  id: 'distance',
  title: 'GJK, EPA and MPR: distance, closest points, depth and normal',
  params: [
    { key: 'x', label: 'shape B centre x', unit: 'm', min: -1, max: 1, step: 0.01, value: 0.7 },
    { key: 'y', label: 'shape B centre y', unit: 'm', min: -0.6, max: 0.6, step: 0.01, value: 0.15 },
    { key: 'angle', label: 'shape B turned about z', unit: '°', min: 0, max: 180, step: 5, value: 30 },
    { key: 'res', label: 'support field resolution (the ball hull)', options: [{ value: 0, label: '0 (exact scan)' }, 8, 16, 32, 64, 180], value: 16 },
  ],
  presets: [
    { name: 'hull – ellipsoid (GJK / MPR / EPA)', preset: 'physx-tgs', options: { gravity: [0, 0, 0] }, color: '#34d399' },
    { name: 'sphere – sphere (analytic)', preset: 'physx-tgs', options: { gravity: [0, 0, 0] }, color: '#60a5fa' },
    { name: SUPPORT, preset: 'physx-tgs', options: { gravity: [0, 0, 0] }, color: '#fbbf24' },
  ],
  collideOnly: true,
  /* drag on a side view to move shape B (its centre to the pointer) */
  drag: {
    keys: ['x', 'y'],
    apply(lane, p) {
      const s = lane.scene;
      if (s.idB === undefined) return;
      lane.world.setPose(s.idB, [p.x, p.y, 0], aboutZ(deg(p.angle)));
      s.curve = null;
    },
  },
  duration: 0.25,
  view: { center: [0.2, 0], metersAcross: 2.6 },
  build(world, p, name) {
    if (name === SUPPORT) {
      const shape = { type: 'hull', points: BALL.flat(), supportField: { resolution: p.res } };
      const id = world.addBody({ position: [0, 0, 0], shapes: [shape] });
      return { bodies: [{ id, shape: { type: 'hull', points: BALL } }], planes: [], support: world.shapesOf(id)[0], stats: null, curve: null };
    }
    const far = { contactOffset: FAR, restOffset: 0 };
    const general = name.startsWith('hull');
    const a = general ? { type: 'hull', points: PENTAGON.flat(), ...far } : { type: 'sphere', radius: RA, ...far };
    const b = general ? { type: 'ellipsoid', radii: ELLIPSOID, ...far } : { type: 'sphere', radius: RB, ...far };
    const idA = world.addBody({ position: [0, 0, 0], shapes: [a] });
    const idB = world.addBody({ position: [p.x, p.y, 0], rotation: aboutZ(deg(p.angle)), shapes: [b] });
    const drawA = general ? { type: 'hull', points: PENTAGON } : a;
    return { bodies: [{ id: idA, shape: drawA }, { id: idB, shape: b }], planes: [], closestPoints: true, last: null, idB, shapeA: world.shapesOf(idA)[0], shapeB: world.shapesOf(idB)[0], curve: null };
  },
  /** Signed distance of the pair (m): the smallest separation of its records; keeps the normal and
   * asks World.shapeDistance which routine answered. The support lane: its mean lookup error (mm). */
  sample(world, s) {
    if (s.support !== undefined) {
      s.stats ??= supportStats(world, s.support);
      return s.stats.mean;
    }
    s.answer = world.shapeDistance(s.shapeA, s.shapeB);
    const c = world.contacts;
    if (!c.count) { s.last = null; return null; }
    let k = 0;
    for (let i = 1; i < c.count; i++) if (c.separation[i] < c.separation[k]) k = i; /* the deepest record */
    /* the normal points from shape0 to shape1; the narrow phase may order the pair either way */
    const sign = c.shape0[k] === s.shapeA ? 1 : -1;
    s.last = { d: c.separation[k], n: [0, 1, 2].map((j) => sign * c.normal[3 * k + j]), points: c.count };
    return c.separation[k];
  },
  /** Signed distance against B's x (the other sliders as set), once per scene: B moved, collide() each time. */
  sweep(lanes, p) {
    const xs = SWEEP_X;
    const ys = lanes.map((lane) => {
      const s = lane.scene, w = lane.world;
      if (!s || !w || s.support !== undefined) return xs.map(() => null);
      if (!s.curve) {
        const q = aboutZ(deg(p.angle));
        s.curve = xs.map((x) => { w.setPose(s.idB, [x, p.y, 0], q); w.collide(); return minSeparation(w.contacts); });
        w.setPose(s.idB, [p.x, p.y, 0], q);
        w.collide();
      }
      return s.curve;
    });
    return { xs, ys, ref: xs.map((x) => sphereDistance({ x, y: p.y })) };
  },
  reference: (p) => sphereDistance(p),
  headline: (lane) => lane.samples.at(-1)?.[1] ?? null,
  headlineReference: (p) => sphereDistance(p),
  headlineLabel: 'signed distance (m)',
  headlineReferenceLabel: 'spheres: |c_B − c_A| − r_A − r_B',
  formula: '> 0 apart (GJK), < 0 overlapping (MPR, or EPA: see the text)',
  digits: 4,
  note(lane) {
    const st = lane.scene.stats;
    if (lane.scene.support !== undefined) {
      if (!st) return '';
      return `worst ${st.worst.toFixed(3)} mm; ${st.differ} of ${st.n} directions differ from the exact scan${st.tied ? `, ${st.tied} tied (the engine scans there)` : ''}`;
    }
    const l = lane.scene.last, ans = lane.scene.answer;
    if (!l) return 'no record';
    const by = ans ? `answered by ${ans.method.toUpperCase()}${ans.refined ? ' (refined by GJK: shallow)' : ''}; ` : '';
    const n = l.n.map((v) => v.toFixed(3)).join(', ');
    return `${by}${l.d >= 0 ? `apart by ${l.d.toFixed(4)} m` : `overlapping, depth ${(-l.d).toFixed(4)} m`}, normal (${n}) from A to B, ${l.points} point${l.points > 1 ? 's' : ''}`;
  },
  plot: { title: 'signed distance against B\'s x at the chosen y and angle: each pair (points), the spheres\' closed form (dashed)', x: 'B x (m)', y: 'd (m)', reference: 'sphere closed form' },
  explanation: `
<p>Every convex shape is known to the narrow phase only through its <em>support function</em>: the point
of the shape farthest along a direction. GJK works on the Minkowski difference A − B (whose support is
the difference of the two supports): the distance between A and B is the distance from the origin to
that set, and GJK walks a simplex of support points towards the origin until it cannot come closer. It
answers with the distance and the two <em>closest points</em> (the cyan segment) while the shapes are
apart.</p>
<p>When they overlap, the origin lies inside A − B and the distance is zero: what the solver needs is the
<em>penetration depth</em> and the normal along which to push them apart. MPR (Minkowski portal
refinement) finds a portal of the difference that the ray from its interior to the origin crosses and
refines it to the surface; EPA expands GJK's final simplex into a polytope until its nearest face is
the boundary. Tribo runs MPR and falls back to GJK + EPA when MPR does not converge, when its portal is not the
minimal one along the shapes' axes, or when the overlap is shallow (the portal normal is arbitrary near zero depth).</p>
<p>Spheres, capsules, boxes and planes have exact routines of their own: the sphere lane shows the closed
form <span class="formula">d = |c_B − c_A| − r_A − r_B</span>, reached to float precision; the hull–ellipsoid
lane goes through the general routines. Each contact record's <code>point0</code>, <code>point1</code> are the
two surface points; <code>separation</code> is d, negative when overlapping. The record does not say
which of GJK, MPR or EPA produced it; <code>world.shapeDistance(a, b)</code> answers the pair the same way
and says which routine did (<code>method</code>: analytic, gjk, mpr or epa), which each lane shows.</p>
<p>Support functions are the inner loop of all three. A hull with many vertices can answer from a
<em>support field</em> (Genesis): the support vertex precomputed on a res × res grid of directions, looked
up in the 4 cells around a direction. Between grid directions the lookup can return a vertex that
reaches a little less far than the exact scan; the yellow lane asks <code>world.shapeSupport</code> along
400 directions on a 200-vertex ball hull and reports how much less, in mm — it falls as the resolution
grows, and is 0 for the exact scan (resolution 0). Where the 4 cells hold tied vertices, the engine
falls back to the scan.</p>`,
};
