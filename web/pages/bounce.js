/**
 * Course page 8, restitution and the bounce threshold: balls dropped at several impact speeds;
 * rebound speed against e·v above the threshold (0 below), per preset; how much of the momentum
 * change each preset's readback carries (XPBD's restitution pass is not in it).
 * @module tribo/web/pages/bounce
 */
import { G, sphereDensity } from '../course_model.js';

export const SPEEDS = [0.5, 1, 1.5, 2, 2.5, 3, 4]; /* m/s at impact */
const R = 0.08; /* m */
const MASS = 1; /* kg */
const SPACING = 0.3; /* m between balls */

/** Closed-form rebound speed (m/s): e·v above the threshold, 0 at or below it. */
export const rebound = (v, e, threshold) => (v > threshold ? e * v : 0);

export default {
  id: 'bounce',
  title: 'Restitution and the bounce threshold',
  params: [
    { key: 'e', label: 'restitution e (both shapes)', unit: '', min: 0, max: 1, step: 0.05, value: 0.6 },
    { key: 'threshold', label: 'bounce threshold (PhysX)', unit: 'm/s', min: 0, max: 3, step: 0.25, value: 2 },
  ],
  presets: ['physx-pgs', 'physx-tgs', 'newton-xpbd', 'newton-semi'],
  duration: 0.75,
  stepsPerFrame: 1,
  view: { center: [0.9, 0.4], metersAcross: 2.4 },
  /* XPBD's restitution pass is off by default (as in Newton): on here, so every lane can bounce */
  world: (p, preset) => (preset === 'newton-xpbd' ? { restitution: true } : preset.startsWith('physx') ? { bounceThreshold: p.threshold } : {}),
  build(world, p) {
    world.addBody({ type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0], offset: 0, restitution: p.e }] });
    const shape = { type: 'sphere', radius: R, density: sphereDensity(MASS, R), restitution: p.e };
    /* drop height for impact speed v: v²/(2g) above the touching height */
    const balls = SPEEDS.map((v, k) => ({
      v, id: world.addBody({ position: [k * SPACING, R + (v * v) / (2 * G), 0], shapes: [shape] }),
      impact: 0, up: 0, bounced: false, impulse: 0, vy0: 0,
    }));
    return { bodies: balls.map((b) => ({ id: b.id, shape })), planes: [{ normal: [0, 1, 0], offset: 0 }], balls, vel: new Float32Array(3), t: 0 };
  },
  /** Tracks each ball's impact speed, rebound speed and reported normal impulse (N·s). */
  sample(world, s, p, t) {
    const c = world.contacts, h = world.timestep;
    s.t = t;
    for (const b of s.balls) {
      const vy = world.getLinearVelocity(b.id, s.vel)[1];
      if (!b.bounced) {
        /* the closing speed the contact step meets: the last free-fall speed plus g·h */
        if (vy < 0) b.impact = Math.max(b.impact, -vy + G * h);
        if (vy > 1e-3 || (b.impact > 0 && vy >= 0 && touching(c, b.id))) b.bounced = true;
      }
      if (b.bounced) b.up = Math.max(b.up, vy);
      b.vy = vy;
    }
    if (world.readbackInfo.perContactForce && c.readbackValid) {
      for (let i = 0; i < c.count; i++) {
        /* force is on body1 by body0: the ball's share is +force as body1, −force as body0 */
        for (const b of s.balls) {
          if (c.body1[i] === b.id) b.impulse += c.force[3 * i + 1] * h;
          else if (c.body0[i] === b.id) b.impulse -= c.force[3 * i + 1] * h;
        }
      }
    }
    return null;
  },
  sweep(lanes, p) {
    return {
      xs: SPEEDS,
      ys: lanes.map((l) => (l.scene && !l.failed ? l.scene.balls.map((b) => (b.bounced && b.impact > 0 ? b.up / b.impact : null)) : SPEEDS.map(() => null))),
      ref: SPEEDS.map((v) => rebound(v, p.e, p.threshold) / v),
    };
  },
  /** Measured restitution of the fastest drop: rebound / impact speed. */
  headline(lane) {
    const b = lane.scene.balls.at(-1);
    return b.bounced && b.impact > 0 ? b.up / b.impact : null;
  },
  headlineReference: (p) => rebound(SPEEDS.at(-1), p.e, p.threshold) / SPEEDS.at(-1),
  headlineLabel: 'e measured at 4 m/s',
  headlineReferenceLabel: 'e (above the threshold)',
  formula: 'v_out = e·v_in when v_in > threshold, else 0',
  digits: 3,
  /** Slowest drop that bounced, and the share of the momentum change in the readback. */
  note(lane, p) {
    const s = lane.scene;
    if (s.t < 0.7) return '';
    const first = s.balls.find((b) => b.up > 0.05 * b.impact * Math.max(p.e, 0.05));
    const thr = first ? `bounces from ${first.v} m/s` : 'no bounce';
    if (!lane.world.readbackInfo.perContactForce) return `${thr}; no per-contact readback`;
    /* momentum balance of the fastest ball: J = m(v(T) − v(0)) + m g T */
    const b = s.balls.at(-1), J = MASS * b.vy + MASS * G * s.t;
    return `${thr}; readback carries ${((100 * b.impulse) / J).toFixed(0)} % of the 4 m/s ball's momentum change`;
  },
  plot: { title: 'measured restitution v_out / v_in against the impact speed: each preset (points), e above the PhysX threshold and 0 below it (dashed)', x: 'impact v (m/s)', y: 'v_out / v_in', reference: 'e above threshold' },
  explanation: `
<p>A ball meeting the ground at speed v (here: the last free-fall speed plus g·h, the closing speed the
contact step meets) leaves it at <span class="formula">e·v</span>, with e the
restitution of the pair (PhysX averages the two shapes' values by default, Newton takes the mean).
Real contacts at low speed do not bounce, and a solver that bounced every tiny impact would make
resting bodies jitter: PhysX applies restitution only when the contact closes faster than the
<span class="formula">bounceThreshold</span> (2 m/s by default), below it the ball simply stops.</p>
<p>Newton's XPBD runs a separate restitution pass after its position iterations (off by default, on
here) with the fixed threshold <span class="formula">2·g·h<sub>s</sub></span>, h<sub>s</sub> = h/10 its substep
(0.033 m/s at 60 Hz). The pass gives e exactly, but inside the substep the ball meets the ground in
(XPBD runs 10 per step): the page reads the speeds at step ends, so its impact speed (last speed + g·h)
counts gravity over the whole step and its rebound speed has lost g·h<sub>s</sub> for each substep left
after the bounce. The 4 m/s ball bounces in the 6th substep and XPBD reads
<span class="formula">(e(v₀ + 6g·h<sub>s</sub>) − 4g·h<sub>s</sub>) / (v₀ + g·h)</span> = 0.574 for e = 0.6,
v₀ its speed at the start of that step (0.542 to 0.600 by the substep of the bounce; the 0.5 m/s ball
reads 0.28, as g·h is a third of its speed); the same drops at
one substep of h/10, read at every substep, measure 0.600. It changes the
velocities, but the contact readback holds only the position corrections: the table shows the share
of the fastest ball's momentum change <span class="formula">m(v(T) − v(0)) + m g T</span> that each
readback carries: all of it in PhysX; in XPBD only the depth correction of the step the ball arrived
in, because here the pass both stops the ball and sends it back up at <span class="formula">e·v</span>.</p>
<p>The penalty solver has no restitution parameter: its bounce comes from the spring ke and the
damper kd, so it does not follow e at all.</p>`,
};

function touching(c, id) {
  for (let i = 0; i < c.count; i++) if ((c.body1[i] === id || c.body0[i] === id) && c.separation[i] < 1e-3) return true;
  return false;
}
