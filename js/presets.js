/**
 * Presets: the engine's preset names (tb_preset), the text of what each preset's contact
 * readback contains, and switching a world's preset between steps.
 * @module tribo/presets
 */
import { engineTables } from './fields.js';

/** tb_preset of a preset name; a RangeError naming the available ones otherwise. */
export function presetIndex(M, fn, preset) {
  const names = engineTables(M).enums.preset;
  const i = names.indexOf(preset);
  if (i < 0) throw new RangeError(`${fn}: preset ${JSON.stringify(preset)} is not available in this version (available: ${names.join(', ')})`);
  return i;
}

/** World.setPreset: every axis to the preset's choice, between steps; bodies, shapes and capacities are kept. */
export function setPreset(world, preset) {
  const fn = 'setPreset';
  world._alive(fn);
  const i = presetIndex(world._M, fn, preset);
  world._check(world._M._tb_world_set_preset(world._id, i));
  world.preset = preset;
}

/** The PhysX readback (seed physx-e3 §7), shared by both PhysX presets. */
function physxReadback(preset, solver) {
  return Object.freeze({
    preset,
    normalImpulse: `N·s per contact point over the whole step (${solver}): the accumulated normal impulse of the ` +
      'position and velocity iterations, restitution included; on body1 along +normal',
    tangentImpulse: 'N·s per friction anchor (at most two per patch, at the contact points with anchor 0 or 1) along ' +
      'tangent0 / tangent1 of the patch; zero at points that are not anchors (frictionAnchorImpulse is the same as a world vector)',
    force: 'N: (normalImpulse·normal + frictionAnchorImpulse) / timestep, on body1 by body0 at the contact point, world axes; ' +
      'body0 receives the opposite; summed over a patch it is the patch force',
    excludes: ['torsional friction (no torsional row)'],
    perContactForce: true,
  });
}

/** What the contact readback of each preset contains. */
export const READBACK_INFO = Object.freeze({
  'physx-pgs': physxReadback('physx-pgs', 'PGS: position iterations with bias, then velocity iterations'),
  'physx-tgs': physxReadback('physx-tgs', 'TGS: internal steps h/N, then velocity iterations'),
  'newton-xpbd': Object.freeze({
    preset: 'newton-xpbd',
    normalImpulse: 'N·s per contact over the step: the position-correction impulses p_n = ω(−d)/(h·w) of the fixed ' +
      'iterations of every substep (xpbdSubsteps rounds of collide and solve over h = timestep / n, summed along the ' +
      'contact\'s matched records; a contact that ended before the last substep is not listed), each multiplied by the contact-count weighting scale of its iteration (1/N when one side has a ' +
      'body, 2/(NA+NB) when both do; see readbackScale); an approximation of the two sides\' actual corrections, which ' +
      'are divided by each body\'s own N',
    tangentImpulse: 'N·s per contact over the step along tangent0 / tangent1 on body1: the friction corrections, each ' +
      'limited by μ·p_n of its iteration (μ = mean of the two shapes), weighted like normalImpulse',
    force: 'N: the total weighted impulse on body1 / timestep, world axes; wrench (Newton convention): by body1 on ' +
      'body0, force then torque (N·m) about body0\'s centre of mass (static body0: its origin), torques accumulated ' +
      'with each iteration\'s arms plus torsional and rolling friction',
    excludes: ['the restitution velocity pass (restitution: true) is not in the readback'],
    perContactForce: true,
    perBodyForce: 'netContactWrench(id): N and N·m, world: sum over the body\'s contacts in the list after the step (those ' +
      'alive in the last substep, each with its chain\'s weighted impulses / timestep) at their points, torque about its ' +
      'centre of mass at the end of the step; a touch that ended before the last substep is not in it',
  }),
  'newton-semi': Object.freeze({
    preset: 'newton-semi',
    normalImpulse: 'not available: the penalty solver computes body forces only (NaN)',
    tangentImpulse: 'not available (NaN)',
    force: 'not available (NaN in force and wrench): use netContactWrench(id), the time average over the step of the ' +
      'penalty forces a_n = ke·d + kd·min(v_n, 0) and the Huber-smoothed friction on the body, N and N·m about its ' +
      'centre of mass, world axes',
    excludes: ['per-contact forces (the solver has none)'],
    perContactForce: false,
    perBodyForce: 'netContactWrench(id) (no `with` filter): average contact force (N) and torque about the centre of mass (N·m) over the step',
  }),
  mujoco: Object.freeze({
    preset: 'mujoco',
    normalImpulse: 'N·s per contact over the step: h times the net normal force fn − adhesion of the soft-constraint ' +
      'solution (pyramidal: the sum of the edge forces); negative only with adhesion; on body1 along +normal',
    tangentImpulse: 'N·s per contact along tangent0 / tangent1: h times the friction forces (pyramidal: μᵢ(λ₊ − λ₋))',
    force: 'N: (fn·normal + f1·tangent0 + f2·tangent1), on body1 by body0 at the contact point (the midpoint), world ' +
      'axes; mujocoForce: the contact-frame force [normal, tangent0, tangent1 (N), torsion, roll0, roll1 (N·m)] as ' +
      'mj_contactForce gives it, components beyond condim 0; efcAddress: first solver row, -1 when the contact has none',
    excludes: ['torsional and rolling torques are in mujocoForce and in convertContacts (\'newton\', ' +
      '\'newton-mujoco-adapter\'), not in force, contactWrench or the per-body totals (r × f of force only)',
      'no restitution (MuJoCo has none: bounce comes from solref / solimp)'],
    perContactForce: true,
    conventions: Object.freeze({
      newton: 'corrected: by body1 on body0, force f0 = −force, torque about body0\'s centre of mass C0 (after the step; ' +
        'a static body0: its origin): τ_C0 = τ_P + (P − C0) × f0, τ_P the contact\'s torsional and rolling torques on ' +
        'body0 at the contact point P',
      'newton-mujoco-adapter': 'reproduces Newton\'s MuJoCo adapter (newton-e3, fixed versions): the contact force and ' +
        'torque negated into contacts.force, the torque left at the contact point (τ_P only), not moved to body0\'s ' +
        'centre of mass; its torque is not a COM wrench: use \'newton\' for that',
    }),
  }),
  kamino: Object.freeze({
    preset: 'kamino',
    normalImpulse: 'N·s per contact over the step: the normal component of the PADMM solution λ (the cone-projected ' +
      'slack y of the last iteration, unscaled), on body1 along +normal; with restitution (e·pre-step normal velocity) ' +
      'and the Baumgarte push-out γ·penetration/h in it',
    tangentImpulse: 'N·s per contact along tangent0 / tangent1 on body1: the friction components of λ, inside the Coulomb ' +
      'cone |λt| <= μ·λn (μ = average of the two shapes)',
    force: 'N: λ / timestep on body1 by body0 at the contact, world axes (the solver applies it at point0 on body0 and ' +
      'point1 on body1); wrench (Newton\'s Kamino conversion): by body1 on body0, force then torque (N·m) ' +
      '(point0 − C0) × f0 about body0\'s centre of mass C0 after the step; zero torque for a static body0. If the ' +
      'solve stopped on its iteration budget (solverStatus.converged false) the impulses are not converged: ' +
      'see residualPrimal / residualDual / residualComplementarity',
    excludes: ['torsional and rolling friction (no such rows)'],
    perContactForce: true,
    perBodyForce: 'netContactWrench(id): sum of the body\'s contact impulses / timestep, about its centre of mass',
  }),
  genesis: Object.freeze({
    preset: 'genesis',
    normalImpulse: 'N·s per contact over the step: h times the net normal force of the MuJoCo-style soft-constraint ' +
      'solution (Genesis\'s Newton solver, 50 iterations, pyramidal cones), on body1 along +normal',
    tangentImpulse: 'N·s per contact along tangent0 / tangent1: h times the friction forces',
    force: 'N per point, Genesis get_contacts(): contactsIn(\'genesis\') gives force_a (on shape0, geom A) and force_b ' +
      '(on shape1, geom B) = −force_a, world axes, applied at point; force is force_b; mujocoForce the contact-frame force',
    excludes: ['torsional and rolling torques are in mujocoForce only', 'no restitution (soft contacts, as MuJoCo)'],
    perContactForce: true,
    perBodyForce: 'netContactWrench(id) (Genesis get_links_net_contact_force): sum of the body\'s contact forces; a sleeping ' +
      'body keeps the records of the step it fell asleep (contacts.sleeping)',
  }),
});
