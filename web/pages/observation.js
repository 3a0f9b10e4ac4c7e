/**
 * Course page 13, force observation: a box resting off-centre on another. The impulse a step
 * reports against the average force (impulse / h), the top box's net contact wrench about its
 * centre of mass, and the reaction on the bottom box about its own centre (not a sign flip).
 * @module tribo/web/pages/observation
 */
import { wrenchReaction } from '../../js/index.js';
import { G, boxDensity, tailMean } from '../course_model.js';

const HALF = [0.3, 0.15, 0.3]; /* m, bottom box */
const TOP = [0.12, 0.12, 0.12]; /* m, top box */
const M_TOP = 2; /* kg */

const v3 = (a) => `(${Array.from(a, (x) => x.toFixed(2)).join(', ')})`;

export default {
  id: 'observation',
  title: 'Force observation: impulses, average forces, wrenches and reactions',
  params: [
    { key: 'offset', label: 'top box offset from the centre', unit: 'm', min: 0, max: 0.15, step: 0.01, value: 0.1 },
    { key: 'hz', label: 'step rate 1/h', unit: 'Hz', min: 30, max: 240, step: 30, value: 60 },
    { key: 'substeps', label: 'substeps (position iterations)', unit: '', min: 1, max: 16, step: 1, value: 4 },
    { key: 'drop', label: 'top box dropped from', unit: 'm', min: 0, max: 0.3, step: 0.05, value: 0 },
    { key: 'plotted', label: 'plotted', options: [{ value: 'net', label: 'net F_y / (m g)' }, { value: 'sensor', label: 'contact sensor F_y (N)' }], value: 'net' },
  ],
  presets: ['physx-tgs', 'physx-pgs', 'newton-xpbd'],
  timestep: (p) => 1 / p.hz,
  duration: 1,
  view: { center: [0, 0.3], metersAcross: 1.6 },
  newtonsPerMeter: 60,
  world: (p, preset) => (preset === 'newton-xpbd' ? { iterations: p.substeps } : { positionIterations: p.substeps }),
  build(world, p) {
    world.addBody({ type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0], offset: 0 }] });
    const base = { type: 'box', halfExtents: HALF, density: boxDensity(8, HALF) };
    const top = { type: 'box', halfExtents: TOP, density: boxDensity(M_TOP, TOP) };
    const bottom = world.addBody({ position: [0, HALF[1], 0], shapes: [base] });
    const id = world.addBody({ position: [p.offset, 2 * HALF[1] + TOP[1] + p.drop, 0], shapes: [top] });
    /* a contact sensor on the top box, counting only its contacts with the bottom box, and events */
    const sensor = world.addContactSensor(id, { with: bottom, capacity: 8 });
    world.setEventCapacity(64);
    return { bodies: [{ id: bottom, shape: base }, { id, shape: top }], planes: [{ normal: [0, 1, 0], offset: 0 }], id, bottom, sensor, log: [], counts: { begin: 0, persist: 0, end: 0 }, last: null, pos: new Float32Array(3) };
  },
  /** The top box's net contact force over its weight; keeps its impulse and the reaction wrench. */
  sample(world, s, p) {
    const h = world.timestep;
    /* events of this step between the two boxes: begin / persist / end, kept for the table */
    const ev = world.events;
    for (const e of ev.list ?? []) {
      const ours = (e.body0 === s.id && e.body1 === s.bottom) || (e.body0 === s.bottom && e.body1 === s.id);
      if (!ours || !(e.type in s.counts)) continue;
      s.counts[e.type]++;
      if (e.type !== 'persist') s.log.push({ step: ev.step, type: e.type, force: e.normalForce });
    }
    s.sensorForce = world.readContactSensor(s.sensor).force;
    const w = world.netContactWrench(s.id); /* force N, torque N·m about the top box's centre of mass */
    const c1 = Array.from(world.getPosition(s.bottom, s.pos));
    const r = wrenchReaction({ force: w.force, torque: w.torque, point: w.point }, c1);
    s.last = { impulse: w.force[1] * h, force: w.force, torque: w.torque, reaction: r, flip: w.torque.map((x) => -x) };
    return p.plotted === 'sensor' ? s.sensorForce[1] : w.force[1] / (M_TOP * G);
  },
  reference: (p) => (p.plotted === 'sensor' ? M_TOP * G : 1),
  /** The event log: the boxes' contact events (begin and end listed, persist counted) per lane. */
  table: () => '<h2>Contact events between the two boxes (world.events), and the sensor</h2><table class="truth" id="events"></table>',
  tableDraw(root, lanes) {
    const t = root.querySelector('#events');
    if (!t) return;
    t.innerHTML = '<tr><th>lane</th><th>begin</th><th>persist</th><th>end</th><th>last begin / end events (solve step, normal force)</th><th>sensor F (N)</th></tr>' + lanes.filter((l) => l.scene).map((l) => {
      const s = l.scene, log = s.log.slice(-4).map((e) => `${e.type} @${e.step} (${Number.isFinite(e.force) ? e.force.toFixed(2) : 'n/a'} N)`).join(', ');
      return `<tr><th>${l.preset}</th><td>${s.counts.begin}</td><td>${s.counts.persist}</td><td>${s.counts.end}</td><td>${log}</td><td>${s.sensorForce ? v3(s.sensorForce) : ''}</td></tr>`;
    }).join('');
  },
  headline(lane) {
    return tailMean(lane.samples, 1 / 2);
  },
  headlineReference: (p) => (p.plotted === 'sensor' ? M_TOP * G : 1),
  headlineLabel: 'the plotted value, mean of the run\'s second half',
  headlineReferenceLabel: 'its weight (1, or m g in N)',
  formula: 'force = impulse / h; reaction about C₁: τ₁ = −τ₀ − (C₀ − C₁) × f₀',
  digits: 4,
  note(lane) {
    const l = lane.scene.last;
    if (!l) return '';
    return `impulse ${l.impulse.toFixed(4)} N·s = F·h; reaction on the bottom box about its centre: torque ${v3(l.reaction.torque)} N·m, a sign flip would say ${v3(l.flip)}`;
  },
  plot: { title: 'net contact force on the top box over its weight, or its contact sensor\'s F_y in N, per preset (its weight dashed)', x: 't (s)', y: 'F_y / (m g) or N', reference: 'weight' },
  explanation: `
<p>A solver works in impulses: what a contact delivers over one step, in N·s. Dividing by the step h
gives the <em>average force</em> over that step, the number to compare with a weight: a 2 kg box at rest
reports an impulse of <span class="formula">m g h</span>, which halves when the step rate doubles, while
its average force stays <span class="formula">m g</span>, whatever the step or the substeps.</p>
<p>A force acts at a point; moved to another point it carries a torque:
<span class="formula">τ_P = τ + (O − P) × f</span>. Tribo reports a body's net contact wrench about its
centre of mass. The reaction on the other body is not the same wrench with its sign flipped: about
that body's centre C₁ it is <span class="formula">f₁ = −f₀, τ₁ = −τ₀ − (C₀ − C₁) × f₀</span> — move the
top box off-centre and the two torques in the lane's text part ways.</p>
<p>XPBD's count-weighted readback scales a contact between two moving bodies by
<span class="formula">2/(N_A + N_B)</span>: the top box (4 contacts) on the bottom box (8) reads
2·4/12 ≈ 0.67 of its weight, although it rests — the readback is the solver's weighted corrections,
not the static force.</p>
<p>Per-contact values, per-body totals (<code>netContactWrench</code>), sensors and events all read the same
store; <code>readbackInfo</code> says what a preset's impulses include. A <em>contact sensor</em>
(<code>addContactSensor(top, { with: bottom })</code>) keeps the force on the top box from its contacts with
the bottom box, averaged over each step — choose "contact sensor" to plot it. <em>Events</em>
(<code>setEventCapacity</code>, then <code>world.events</code>) say when each contact point begins, persists
and ends: drop the top box and the table below lists its touch-down and any bounce.</p>`,
};
