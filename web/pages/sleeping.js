/**
 * Course page 14, islands and sleeping: separate stacks of boxes settle on the ground, each stack
 * an island (coloured), each falling asleep under its preset's rule (drawn hatched); a sphere
 * dropped on one stack at a chosen time wakes that island alone. The headline is the step of the
 * last island's fall asleep; the table shows each stack's sleep counters as the engine keeps them
 * (World.sleepState: the PhysX wake counter and cluster factor, the Genesis count of quiet steps).
 * @module tribo/web/pages/sleeping
 */
import { boxDensity, sphereDensity } from '../course_model.js';

const HALF = [0.2, 0.2, 0.2]; /* m */
const PER_STACK = 3; /* boxes */
const GAP = 0.03; /* m, each box starts this far above the one below: the stack settles */
const SPACING = 1.2; /* m between stacks */
const R = 0.12; /* m, the dropped sphere */
const DROP_HEIGHT = 0.5; /* m above the stack's top face */
export const ISLAND_COLORS = ['#60a5fa', '#f472b6', '#fbbf24', '#34d399', '#a78bfa', '#fb923c'];

/** x (m) of stack k of n, centred on 0. */
const stackX = (k, n) => (k - (n - 1) / 2) * SPACING;
/**
 * The ground's vertical force (N) on a body from the contact records (kept ones included): the
 * mujoco solver of the genesis preset reports it per point as Genesis force_a / force_b.
 */
function groundForce(world, id) {
  if (!world.contacts.readbackValid) return NaN; /* before the first step */
  if (world.readbackInfo.perContactForce) return world.netContactWrench(id, { with: 'static' }).force[1];
  const c = world.contacts, g = world.convertContacts('genesis');
  let f = 0;
  for (let k = 0; k < c.count; k++) {
    if (c.body0[k] === id && c.body1[k] === -1) f += g.forceA[3 * k + 1];
    else if (c.body1[k] === id && c.body0[k] === -1) f += g.forceB[3 * k + 1];
  }
  return f;
}

/**
 * The engine's sleep counters of some bodies (World.sleepState): the largest PhysX wake counter (s)
 * and the range of cluster factors, or the smallest Genesis count of quiet steps.
 */
function counters(world, ids) {
  const st = ids.map((id) => world.sleepState(id));
  if (st[0].wakeCounter !== null) {
    const c = st.map((x) => x.clusterFactor);
    return { wakeCounter: Math.max(...st.map((x) => x.wakeCounter)), cluster: [Math.min(...c), Math.max(...c)] };
  }
  return { stepsBelow: Math.min(...st.map((x) => x.stepsBelow)) };
}

/** The counters in words. */
function countersText(c) {
  if (!c) return 'n/a';
  if (c.wakeCounter !== undefined) return `wake counter ${c.wakeCounter.toFixed(3)} s (cluster factor ${c.cluster[0] === c.cluster[1] ? c.cluster[0] : c.cluster.join('–')})`;
  return `${c.stepsBelow} quiet steps`;
}

export default {
  id: 'sleeping',
  title: 'Islands and sleeping',
  params: [
    { key: 'stacks', label: 'stacks (islands)', unit: '', min: 1, max: 4, step: 1, value: 3 },
    { key: 'velocity', label: 'Genesis threshold (sleepVelocityThreshold)', unit: 'm/s', min: 0.0005, max: 0.02, step: 0.0005, value: 0.002 },
    { key: 'energy', label: 'PhysX threshold (sleepEnergyThreshold)', unit: 'm²/s²', min: 0.0005, max: 0.05, step: 0.0005, value: 0.005 },
    { key: 'dropAt', label: 'sphere dropped at (0: none)', unit: 's', min: 0, max: 4, step: 0.25, value: 2.5 },
    { key: 'dropOn', label: 'on stack', unit: '', min: 1, max: 4, step: 1, value: 1 },
  ],
  presets: ['genesis', 'physx-tgs'],
  duration: 5,
  stepsPerFrame: 2,
  view: { center: [0, 0.7], metersAcross: 5.2 },
  world: (p) => ({ sleepVelocityThreshold: p.velocity, sleepEnergyThreshold: p.energy }),
  build(world, p) {
    world.addBody({ type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0], offset: 0 }] });
    const shape = { type: 'box', halfExtents: HALF, density: boxDensity(1, HALF) };
    const stacks = [], bodies = [];
    for (let s = 0; s < p.stacks; s++) {
      const ids = [];
      for (let k = 0; k < PER_STACK; k++) {
        /* each box a little off the one below and above it: the stack drops and rocks as it settles */
        const x = stackX(s, p.stacks) + 0.02 * (k % 2 ? 1 : -1) * (s + 1) / p.stacks;
        const id = world.addBody({ position: [x, HALF[1] * (2 * k + 1) + GAP * (k + 1), 0], shapes: [shape] });
        ids.push(id);
        bodies.push({ id, shape, stack: s });
      }
      stacks.push({ ids, slept: [], woke: [] });
    }
    const scene = {
      bodies, planes: [{ normal: [0, 1, 0], offset: 0 }], stacks, n: 0, sphere: -1,
      slept: [], asleep: new Set(), atSleep: null,
      /* the side view's colours: island colour, asleep hatched and dim */
      style: (id) => ({ color: scene.colorOf(id), asleep: world.isSleeping(id) }),
    };
    scene.colorOf = (id) => {
      const islands = [...new Set(bodies.map((b) => world.island(b.id)))].filter((x) => x >= 0).sort((a, b) => a - b);
      return ISLAND_COLORS[Math.max(0, islands.indexOf(world.island(id))) % ISLAND_COLORS.length];
    };
    return scene;
  },
  /** Drops the sphere at its time. */
  drive(world, s, p, t) {
    if (p.dropAt > 0 && s.sphere < 0 && t >= p.dropAt - 1e-9) {
      const k = Math.min(p.dropOn, p.stacks) - 1;
      const top = 2 * HALF[1] * PER_STACK;
      const shape = { type: 'sphere', radius: R, density: sphereDensity(1, R) };
      s.sphere = world.addBody({ position: [stackX(k, p.stacks), top + DROP_HEIGHT + R, 0], shapes: [shape] });
      s.dropStep = s.n + 1;
      s.bodies.push({ id: s.sphere, shape, stack: -1 });
    }
  },
  /** Bodies asleep after the step; records each stack's sleep and wake steps, and the engine's
   * sleep counters of the bodies that fell asleep in this step. */
  sample(world, s) {
    s.n++;
    const fell = [];
    for (const b of s.bodies) {
      const asleep = world.isSleeping(b.id), was = s.asleep.has(b.id);
      if (asleep && !was) { s.asleep.add(b.id); s.slept.push(s.n); fell.push(b.id); if (b.stack >= 0) s.stacks[b.stack].slept.push(s.n); }
      if (!asleep && was) { s.asleep.delete(b.id); if (b.stack >= 0) s.stacks[b.stack].woke.push(s.n); }
    }
    if (fell.length) s.atSleep = { step: s.n, ...counters(world, fell) };
    for (const st of s.stacks) { st.slept = [...new Set(st.slept)]; st.woke = [...new Set(st.woke)]; }
    return world.stepStats.sleepingBodies;
  },
  reference: (p) => p.stacks * PER_STACK,
  /** The step at which an island last fell asleep (null: none yet). */
  headline(lane) {
    return lane.scene.slept.at(-1) ?? null;
  },
  headlineReference: () => null,
  headlineLabel: 'step at which the last island fell asleep',
  headlineReferenceLabel: 'the engine\'s counters then (World.sleepState)',
  formula: 'in each lane\'s text',
  digits: 0,
  note(lane) {
    const s = lane.scene, st = lane.world.stepStats;
    return `counters then: ${countersText(s.atSleep)}; ${st.islandCount} islands, ${st.sleepingIslands} asleep, ${st.sleepingBodies} bodies asleep, ${st.sleepingContacts} kept contacts`;
  },
  /** Per stack: its island, whether it sleeps, the steps it fell asleep and woke. */
  table: () => '<h2>Islands per stack (world.island, world.isSleeping)</h2><table class="truth" id="islands"></table>',
  tableDraw(root, lanes) {
    const t = root.querySelector('#islands');
    if (!t) return;
    const steps = (a) => (a.length ? a.join(' ') : '—');
    t.innerHTML = '<tr><th>lane</th><th>stack</th><th>island</th><th>asleep</th><th>fell asleep at step</th><th>woke at step</th><th>kept ground force (N)</th><th>sleep counters now</th></tr>' + lanes.filter((l) => l.world).flatMap((l) => l.scene.stacks.map((st, k) => {
      const w = l.world, bottom = st.ids[0];
      const f = groundForce(w, bottom);
      return `<tr id="isl-${l.preset}-${k + 1}"><th>${l.preset}</th><td>${k + 1}</td><td style="color:${l.scene.colorOf(bottom)}">${w.island(bottom)}</td><td>${st.ids.every((id) => w.isSleeping(id)) ? 'yes' : 'no'}</td><td>${steps(st.slept)}</td><td>${steps(st.woke)}</td><td>${Number.isFinite(f) ? f.toFixed(2) : 'n/a'}</td><td>${countersText(counters(w, st.ids))}</td></tr>`;
    })).join('');
  },
  plot: { title: 'bodies asleep (stepStats.sleepingBodies) per preset; the boxes of all stacks dashed', x: 't (s)', y: 'bodies asleep', reference: 'all boxes' },
  explanation: `
<p>An <em>island</em> is a set of dynamic bodies linked by touching contacts and joints: the union of
every touching pair, found as connected components. Static and kinematic bodies do not link, so boxes
on the same ground in separate stacks are separate islands — each stack has its own colour.
<code>world.island(id)</code> names a body's island by one of its bodies' ids; the islands persist from
step to step, merging at once when a contact joins two of them.</p>
<p>A whole island falls asleep when every one of its bodies is ready, read from the step's motion
velocity (pose change over h). Genesis hibernation (<code>sleep: 'genesis'</code>): a body is ready after
<span class="formula">max(|v<sub>i</sub>|, r·|ω<sub>i</sub>|) &lt; 2·10⁻³ m/s</span> for 10 consecutive steps
(<code>sleepVelocityThreshold</code>, <code>sleepSteps</code>; r the largest distance from the centre of
mass to the shape, m). PhysX (<code>sleep: 'physx'</code>): a wake counter of 0.4 s runs down by h each
step; below half of it the motion is summed, and the energy
<span class="formula">E = ½(|Σv|² + Σω<sub>b</sub>ᵀ(I/m)Σω<sub>b</sub>)</span> at or above
<code>sleepEnergyThreshold</code>·c (5·10⁻³ m²/s²) sets it back to min(E/(c·threshold), 2)·0.2 s; the body is
ready at zero, at rest 24 steps at 60 Hz. The threshold is scaled by the <em>cluster factor</em>
c = 1 + the body's shape pairs and joints (more contacts, a higher threshold), and a reset adds h·(c − 1).
The table shows each stack's counters as the engine keeps them (<code>world.sleepState(id)</code>): the
largest wake counter of its boxes, or the fewest quiet steps.</p>
<p>A sleeping island is not collided, solved or integrated (drawn hatched and dim). Its contacts keep
their last readback, flagged <code>contacts.sleeping</code> = 1 — never a fresh zero: the table's ground
force of a sleeping stack is still its weight.</p>
<p>The sphere dropped on one stack at the chosen time wakes exactly that island when it touches it
(all of it, in that step), while the other stacks sleep on; the woken stack falls asleep again once
the sphere and boxes come to rest. Under <code>physx-tgs</code> the hit stack may keep jittering by a
few cm/s, its summed energy above the threshold, and stay awake: raise <code>sleepEnergyThreshold</code>
and it sleeps.</p>`,
};
