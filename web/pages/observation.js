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
    const id = world.addBody({ position: [p.offset, 2 * HALF[1] + TOP[1], 0], shapes: [top] });
    return { bodies: [{ id: bottom, shape: base }, { id, shape: top }], planes: [{ normal: [0, 1, 0], offset: 0 }], id, bottom, last: null, pos: new Float32Array(3) };
  },
  /** The top box's net contact force over its weight; keeps its impulse and the reaction wrench. */
  sample(world, s) {
    const h = world.timestep;
    const w = world.netContactWrench(s.id); /* force N, torque N·m about the top box's centre of mass */
    const c1 = Array.from(world.getPosition(s.bottom, s.pos));
    const r = wrenchReaction({ force: w.force, torque: w.torque, point: w.point }, c1);
    s.last = { impulse: w.force[1] * h, force: w.force, torque: w.torque, reaction: r, flip: w.torque.map((x) => -x) };
    return w.force[1] / (M_TOP * G);
  },
  reference: () => 1,
  headline(lane) {
    return tailMean(lane.samples, 1 / 2);
  },
  headlineReference: () => 1,
  headlineLabel: 'top box net F_y / (m g)',
  headlineReferenceLabel: 'its weight',
  formula: 'force = impulse / h; reaction about C₁: τ₁ = −τ₀ − (C₀ − C₁) × f₀',
  digits: 4,
  note(lane) {
    const l = lane.scene.last;
    if (!l) return '';
    return `impulse ${l.impulse.toFixed(4)} N·s = F·h; reaction on the bottom box about its centre: torque ${v3(l.reaction.torque)} N·m, a sign flip would say ${v3(l.flip)}`;
  },
  plot: { title: 'net contact force on the top box over its weight, per preset (1 = its weight, dashed)', x: 't (s)', y: 'F_y / (m g)', reference: 'weight' },
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
store; <code>readbackInfo</code> says what a preset's impulses include.</p>`,
};
