/**
 * Course page 5, margins, gaps and offsets: a sphere dropped onto a plane under each distance rule;
 * where a contact is detected, where it becomes active, where the sphere comes to rest (the force
 * starting before touching under a positive margin).
 * @module tribo/web/pages/margins
 */
import { sphereDensity, tailMean } from '../course_model.js';

const R = 0.1; /* m */
const START = 0.08; /* m of surface gap at the start */

/** Shape distance fields under each rule, from the page's margin and gap (m). */
const distances = (rule, margin, gap) => (rule === 'physx' ? { restOffset: margin, contactOffset: margin + gap } : { margin, gap });

export default {
  id: 'margins',
  title: 'Margins, gaps and offsets',
  params: [
    { key: 'margin', label: 'margin / rest offset', unit: 'mm', min: 0, max: 30, step: 1, value: 10 },
    { key: 'gap', label: 'gap (detection beyond it)', unit: 'mm', min: 0, max: 40, step: 1, value: 20 },
  ],
  presets: [
    { name: 'physx-tgs', preset: 'physx-tgs', options: {} },
    { name: 'newton-xpbd', preset: 'newton-xpbd', options: {} },
    { name: 'xpbd + mujoco rule', preset: 'newton-xpbd', options: { distanceRule: 'mujoco' }, color: '#a78bfa' },
  ],
  duration: 0.6,
  view: { center: [0, 0.1], metersAcross: 0.7 },
  build(world, p) {
    const rule = world.options.distanceRule;
    /* the margin and gap belong to the sphere alone (the plane's are 0): the sums are the sliders' values */
    const d = distances(rule, p.margin / 1000, p.gap / 1000);
    world.addBody({ type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0], offset: 0, ...distances(rule, 0, 0) }] });
    const shape = { type: 'sphere', radius: R, density: sphereDensity(1, R), ...d };
    const id = world.addBody({ position: [0, R + START, 0], shapes: [shape] });
    return { bodies: [{ id, shape }], planes: [{ normal: [0, 1, 0], offset: 0 }], id, rule, detected: null, active: null, excluded: false, pos: new Float32Array(3) };
  },
  /** Surface gap of the sphere (mm); records where a contact was first detected and first active. */
  sample(world, s) {
    const gapMm = (world.getPosition(s.id, s.pos)[1] - R) * 1000;
    const c = world.contacts;
    for (let i = 0; i < c.count; i++) {
      if (s.detected === null) s.detected = c.separation[i] * 1000;
      if (c.active[i] && s.active === null) s.active = c.separation[i] * 1000;
      if (c.excluded[i]) s.excluded = true;
    }
    s.last = c.count ? { distance: c.distance[0] * 1000, active: !!c.active[0], excluded: !!c.excluded[0] } : null;
    return gapMm;
  },
  reference: (p) => p.margin,
  /** Resting surface gap (mm): the mean over the last quarter of the run. */
  headline(lane) {
    return tailMean(lane.samples, 0.25);
  },
  headlineReference: (p) => p.margin,
  headlineLabel: 'rests at gap (mm)',
  headlineReferenceLabel: 'margin',
  formula: 'every rule drives the distance s − margin to ≥ 0',
  digits: 2,
  note(lane) {
    const s = lane.scene;
    const f = (v) => (v === null ? '—' : `${v.toFixed(1)} mm`);
    const now = s.last ? `now distance ${s.last.distance.toFixed(2)} mm${s.last.active ? ', active' : ''}${s.last.excluded ? ', excluded' : ''}` : 'no contact now';
    return `${s.rule} rule: detected at gap ${f(s.detected)}, active from ${f(s.active)}${s.excluded ? ', gap-only contact excluded' : ''}; ${now}`;
  },
  plot: { title: 'the sphere\'s surface gap over time: each rule, and the margin (dashed) where it should rest', x: 't (s)', y: 'gap (mm)', reference: 'margin' },
  explanation: `
<p>Engines do not wait for shapes to touch. Each contact carries the surface separation s and a
<em>margin</em>: the solver drives <span class="formula">s − margin</span> to zero or above, so with a
positive margin the sphere comes to rest that far above the plane, held by a force that starts before
the surfaces touch. A <em>gap</em> (PhysX: the contact offset beyond the rest offset) makes the
collision stage report contacts that are still farther away, so the solver sees them coming.</p>
<p>The three rules name the same idea differently. PhysX: <span class="formula">g = s − (restOffset₀ +
restOffset₁)</span>, contacts within the sum of the contact offsets, every contact gets a normal row.
Newton: <span class="formula">d = s − (m₀ + m₁)</span>, kept while d ≤ gap₀ + gap₁, XPBD acting only
while d &lt; 0. MuJoCo: detected while <span class="formula">dist &lt; m + g</span>, active while
dist &lt; m; a contact in the gap only is reported but <em>excluded</em> from the solver.</p>
<p>Each lane states where its contact was first detected, where it became active and where the sphere
rests. Detection happens even earlier than margin + gap: every rule adds a speculative distance and
one step of relative motion, so a falling sphere is caught in time — except the MuJoCo rule, which
has no speculative distance: with margin and gap 0 the sphere is found only after it has sunk in.</p>
<p>Watch the XPBD lanes: the contact reports <span class="formula">distance = s − margin</span> below zero
and active, yet the sphere rests at s ≈ 0: in this version the Newton solvers correct the separation of
the shapes' cores less their radii, without the shape margin, so the margin moves detection and the
reported distance but not the resting height.</p>`,
};
