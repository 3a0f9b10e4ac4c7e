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
 */

/** Penalty substeps of the light bodies below: explicit viscous friction is stable only when
 * (h/substeps)·Σkf/m <= 2 (the default 8 is refused for a 1 kg box with 8 contacts: 16.7), and
 * the modes that turn a box need about 4× more (docs/presets.md). */
const SEMI_SUBSTEPS = 128;

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
};

/**
 * The plotted quantity of a scene from one world's contact views: the sum over the focus body's
 * contacts of the force on it, projected on `up`, divided by `scale`. `force` is the force on
 * body1 by body0; a contact whose body0 is the focus contributes the opposite. Returns null when
 * the preset reports no per-contact force (never a zero in its place).
 * @param {object} scene
 * @param {import('../js/index.js').World} world
 */
export function sceneValue(scene, world) {
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
