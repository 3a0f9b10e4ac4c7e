/**
 * Scenes of the preset comparison: each builds the same bodies in a world and names the body
 * whose reported contact force is plotted. Pure functions of the world, so every preset gets the
 * identical scene.
 * @module tribo/web/preset_scenes
 */

import { G, aboutZ, sphereDensity } from './course_model.js';

/**
 * @typedef {object} SceneBody
 * @property {number} id body id
 * @property {object} shape the shape descriptor (drawing uses it)
 */

/**
 * @typedef {object} Scene
 * @property {string} title
 * @property {string} quantity what the plot shows, with its unit
 * @property {string} axis the plot's y-axis label (short)
 * @property {string} expect the value physics predicts, in words
 * @property {number} expected that value (the plot's reference line)
 * @property {SceneBody[]} bodies dynamic bodies to draw
 * @property {object[]} planes plane shapes to draw ({ normal, offset })
 * @property {number} focus body whose contact force is plotted
 * @property {number[]} up direction the plotted force is projected on (world unit vector)
 * @property {number} scale divisor of the plotted force (N), e.g. m·g
 * @property {(world) => number|null} [value] the plotted quantity when it is not a contact force (joint scenes)
 * @property {() => string} [note] what the lane adds under its value (joint scenes: the reaction at the bottom)
 * @property {(world) => number[][][]} [segments] world segments [[x, y, z], [x, y, z]] the side view draws (joints' rods)
 */

/** Penalty substeps of the light bodies below: explicit viscous friction is stable only when
 * (h/substeps)·Σkf/m <= 2 (the default 8 is refused for a 1 kg box with 8 contacts: 16.7), and
 * the modes that turn a box need about 4× more (docs/presets.md). */
const SEMI_SUBSTEPS = 128;

/* Joint scenes: a pendulum and a hanging chain, hinged about z (docs/joints.md). XPBD runs 8
 * iterations here: at 60 Hz its default 2 leave the pendulum's bottom reaction 7.5 % low (8: 0.4 %). */
const JOINT_OPTIONS = { 'newton-xpbd': { iterations: 8 }, 'newton-semi': { penaltySubsteps: SEMI_SUBSTEPS } };
export const PENDULUM = { mass: 1, inertia: 0.1, length: 1, pivot: [0, 1.3, 0], theta0: 1.5, radius: 0.08 }; /* kg, kg·m², m, m, rad, m */
export const CHAIN = { links: 10, length: 0.15, mass: 0.2, top: 1.45 }; /* links, m each, kg each, m */

/** A world segment from a joint's side (-1: its world anchor) to a body's position. */
const rod = (world, a, b) => [a, b].map((p) => (Array.isArray(p) ? p : Array.from(world.getPosition(p))));

/**
 * The pendulum's reaction at the bottom from the last sample before and after the bob crosses
 * below the pivot: the one nearer the vertical. `sample` is { step, angle (rad), along (N), expected (N), speed (m/s) }.
 */
function bottomOf(state, sample) {
  const prev = state.prev;
  state.prev = sample;
  if (state.bottom || !prev || (prev.angle > 0) === (sample.angle > 0)) return;
  state.bottom = Math.abs(prev.angle) < Math.abs(sample.angle) ? prev : sample;
}

export const SCENES = {
  /** A 3 kg sphere resting on the ground: the reported normal force should equal m·g. */
  resting: {
    label: 'resting sphere (m·g)',
    build(world) {
      world.addBody({ type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0], offset: 0 }] });
      const shape = { type: 'sphere', radius: 0.25, density: sphereDensity(3, 0.25) };
      const id = world.addBody({ position: [0, 0.25, 0], shapes: [shape] });
      return {
        title: '3 kg sphere at rest on the ground', quantity: 'Σ reported normal force / (m·g)', axis: 'Fn / (m·g)',
        expect: '1 (the ground carries the weight)', expected: 1,
        bodies: [{ id, shape }], planes: [{ normal: [0, 1, 0], offset: 0 }], focus: id, up: [0, 1, 0], scale: 3 * G,
      };
    },
  },
  /** A ball with restitution 0.6 dropped from 1 m: presets differ in whether the bounce impulse is reported. */
  bounce: {
    label: 'bouncing ball (restitution)',
    /* XPBD's restitution pass is off by default (as in Newton): turned on, so that the ball bounces
     * in every lane and the difference left is what the readback contains */
    worldOptions: { 'newton-xpbd': { restitution: true }, 'newton-semi': { penaltySubsteps: SEMI_SUBSTEPS } },
    build(world) {
      world.addBody({ type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0], offset: 0, restitution: 0.6 }] });
      const shape = { type: 'sphere', radius: 0.2, density: sphereDensity(1, 0.2), restitution: 0.6 };
      const id = world.addBody({ position: [0, 1.2, 0], shapes: [shape] });
      return {
        title: '1 kg ball, restitution 0.6, dropped from 1 m', quantity: 'Σ reported normal force / (m·g)', axis: 'Fn / (m·g)',
        expect: 'spikes at each impact; their size depends on whether the readback includes the restitution impulse', expected: 1,
        bodies: [{ id, shape }], planes: [{ normal: [0, 1, 0], offset: 0 }], focus: id, up: [0, 1, 0], scale: G,
      };
    },
  },
  /** A box on a 20° incline with μ = 0.5: it sticks (tan 20° < 0.5); friction carries m·g·sin θ. */
  incline: {
    label: 'box on a 20° incline (friction)',
    worldOptions: { 'newton-semi': { penaltySubsteps: SEMI_SUBSTEPS } },
    build(world) {
      const theta = (20 * Math.PI) / 180;
      const n = [-Math.sin(theta), Math.cos(theta), 0];
      world.addBody({ type: 'static', shapes: [{ type: 'plane', normal: n, offset: 0, friction: 0.5 }] });
      const shape = { type: 'box', halfExtents: [0.2, 0.1, 0.2], density: 2 / (0.4 * 0.2 * 0.4), friction: 0.5 };
      const id = world.addBody({ position: [n[0] * 0.1, n[1] * 0.1, 0], rotation: aboutZ(theta), shapes: [shape] });
      const t = [Math.cos(theta), Math.sin(theta), 0];
      return {
        title: '2 kg box on a 20° incline, μ = 0.5 (sticks)', quantity: 'Σ reported force along the slope (up-slope) / (m·g)', axis: 'F∥ / (m·g)',
        expect: `sin 20° = ${Math.sin(theta).toFixed(3)}`, expected: Math.sin(theta),
        bodies: [{ id, shape }], planes: [{ normal: n, offset: 0 }], focus: id, up: t, scale: 2 * G,
      };
    },
  },
  /** Three 1 kg boxes stacked: the bottom box's reported contacts carry the weight of all three. */
  stack: {
    label: 'stack of three boxes',
    worldOptions: { 'newton-semi': { penaltySubsteps: SEMI_SUBSTEPS } },
    build(world) {
      world.addBody({ type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0], offset: 0 }] });
      const shape = { type: 'box', halfExtents: [0.2, 0.2, 0.2], density: 1 / 0.064 };
      const ids = [0, 1, 2].map((k) => world.addBody({ position: [0, 0.2 + 0.4 * k, 0], shapes: [shape] }));
      return {
        title: 'three 1 kg boxes stacked', quantity: 'Σ reported force from the ground on the bottom box / (m·g of one box)', axis: 'F / (m·g box)',
        expect: '3 (the ground carries the whole stack)', expected: 3,
        bodies: ids.map((id) => ({ id, shape })), planes: [{ normal: [0, 1, 0], offset: 0 }],
        focus: ids[0], up: [0, 1, 0], scale: G, groundOnly: true,
      };
    },
  },
  /** A 1 kg bob (I = 0.1 kg·m²) on a 1 m hinge released from 1.5 rad: the joint's pull along the rod
   * against m·g·cos θ + m·v²/L at every step (1 by the bob's radial equation; v the bob's speed, θ
   * from the vertical), m·g + m·v²/L at the bottom. */
  pendulum: {
    label: 'pendulum (joint reaction)',
    worldOptions: JOINT_OPTIONS,
    build(world) {
      const P = PENDULUM, piv = P.pivot;
      const shape = { type: 'sphere', radius: P.radius };
      const id = world.addBody({ position: [P.length * Math.sin(P.theta0), piv[1] - P.length * Math.cos(P.theta0), 0],
        mass: { mass: P.mass, inertia: [P.inertia, P.inertia, P.inertia] }, shapes: [shape] });
      const joint = world.addJoint({ type: 'revolute', body0: 'world', body1: id, anchor: piv, axis: [0, 0, 1] });
      /* end: the closed form at the end of the last step (released at rest: m·g·cos θ0) */
      const state = { prev: null, bottom: null, steps: 0, end: P.mass * G * Math.cos(P.theta0) };
      return {
        title: `1 kg bob on a 1 m hinge released from ${P.theta0} rad`, quantity: 'joint pull along the rod / (m·g·cos θ + m·v²/L)', axis: 'F_rod / (m g cosθ + m v²/L)',
        expect: '1 (the rod supplies the centripetal force); at the bottom m·g + m·v²/L', expected: 1,
        bodies: [{ id, shape }], planes: [], focus: id, up: [0, 1, 0], scale: P.mass * G, joint, state,
        segments: (w) => [rod(w, piv, id)],
        /* the reaction on the bob (body1) about its centre, N, world; along the unit vector to the pivot.
         * The readback is the step's average, so it is set against the closed form averaged over the
         * step (its values at the start and the end: the force grows by up to 8 % per step mid-swing) */
        value(w) {
          const p = w.getPosition(id), v = w.getLinearVelocity(id), f = w.jointWrench(joint, 1).force;
          const u = [piv[0] - p[0], piv[1] - p[1], piv[2] - p[2]], r = Math.hypot(...u);
          const along = (f[0] * u[0] + f[1] * u[1] + f[2] * u[2]) / r;
          const speed = Math.hypot(v[0], v[1], v[2]);
          const expected = P.mass * G * (u[1] / r) + (P.mass * speed * speed) / P.length;
          const average = (state.end + expected) / 2;
          state.end = expected;
          bottomOf(state, { step: ++state.steps, angle: Math.atan2(p[0] - piv[0], piv[1] - p[1]), along, expected, speed });
          return along / average;
        },
        note: () => (state.bottom
          ? `at the bottom (step ${state.bottom.step}): ${state.bottom.along.toFixed(2)} N; m·g + m·v²/L = ${state.bottom.expected.toFixed(2)} N`
          : 'at the bottom: not reached yet'),
      };
    },
  },
  /** Ten hinged 0.2 kg links hanging from the world at rest: the top joint carries the hanging weight. */
  chain: {
    label: 'hinged chain of ten links',
    worldOptions: JOINT_OPTIONS,
    build(world) {
      const C = CHAIN, I = (C.mass * C.length ** 2) / 12;
      const shape = { type: 'box', halfExtents: [0.02, C.length / 2, 0.02] };
      const ids = [], joints = [];
      for (let k = 0; k < C.links; k++) {
        ids.push(world.addBody({ position: [0, C.top - (k + 0.5) * C.length, 0], mass: { mass: C.mass, inertia: [I, 1e-4, I] }, shapes: [shape] }));
        joints.push(world.addJoint({ type: 'revolute', body0: k ? ids[k - 1] : 'world', body1: ids[k], anchor: [0, C.top - k * C.length, 0], axis: [0, 0, 1] }));
      }
      const weight = C.links * C.mass * G;
      return {
        title: `${C.links} hinged links of ${C.mass} kg hanging from the world`, quantity: 'top joint\'s upward reaction on the top link / hanging weight', axis: 'F_top / (n m g)',
        expect: '1 (the top joint carries the whole chain)', expected: 1,
        bodies: ids.map((id) => ({ id, shape })), planes: [], focus: ids[0], up: [0, 1, 0], scale: weight, joints,
        segments: (w) => ids.slice(1).map((id, k) => rod(w, ids[k], id)),
        value: (w) => w.jointWrench(joints[0], 1).force[1] / weight,
        note: () => `bottom link ${((world.getPosition(ids.at(-1))[1] - (C.top - (C.links - 0.5) * C.length)) * 1000).toFixed(1)} mm from its rest place`,
      };
    },
  },
};

/**
 * The plotted quantity of a scene from one world's contact views: the sum over the focus body's
 * contacts of the force on it, projected on `up`, divided by `scale`. `force` is the force on
 * body1 by body0; a contact whose body0 is the focus contributes the opposite. Returns null when
 * the preset reports no per-contact force (never a zero in its place). A joint scene has its own
 * `value` (the joint readback).
 * @param {object} scene
 * @param {import('../js/index.js').World} world
 */
export function sceneValue(scene, world) {
  if (scene.value) return scene.value(world);
  if (!world.readbackInfo.perContactForce) return null;
  const c = world.contacts;
  if (!c.readbackValid) return null;
  let sum = 0;
  for (let i = 0; i < c.count; i++) {
    let sign = 0;
    if (c.body1[i] === scene.focus) sign = 1;
    else if (c.body0[i] === scene.focus) sign = -1;
    if (!sign) continue;
    if (scene.groundOnly && (sign === 1 ? c.body0[i] : c.body1[i]) !== -1) continue;
    const f = c.force;
    sum += sign * (f[3 * i] * scene.up[0] + f[3 * i + 1] * scene.up[1] + f[3 * i + 2] * scene.up[2]);
  }
  return sum / scene.scale;
}
