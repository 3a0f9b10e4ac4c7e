/**
 * The one id check: every id parameter of every public World method passes through it before the
 * engine sees the number. An id must be a number (TypeError otherwise), an integer in [0, 2^31)
 * (RangeError otherwise), and name a live body, shape, joint or sensor of this world by the
 * engine's own check (tb_id_check: slot in use, generation matching, generation not ahead of the
 * world's, so an id of another world is named as such). The message gives the reason by the
 * engine's id_state names: removed, never created, an id of another world.
 * ID_PARAMETERS lists the positional id parameters of the World methods; World applies the checks
 * to them, and WorkerWorld runs the engine-free part (idValue) before posting.
 * @module tribo/ids
 */
import { show } from './check.js';
import { engineTables } from './fields.js';

/** The part of the check that needs no engine. `none` (e.g. -1) is accepted as is when given. */
export function idValue(fn, field, v, none) {
  if (none !== undefined && v === none) return v;
  const what = none === undefined ? 'an id' : `an id or ${none}`;
  if (typeof v !== 'number') throw new TypeError(`${fn}: ${field} must be ${what} (an integer) (got ${show(v)})`);
  if (!Number.isInteger(v) || v < 0 || v > 0x7fffffff) {
    throw new RangeError(`${fn}: ${field} must be ${what} (an integer in [0, 2^31)) (got ${show(v)})`);
  }
  return v;
}

/* Why an id is not live, by the engine's tb_id_state names (enums.idState). */
const REASONS = { removed: 'removed', 'never-created': 'never created', foreign: 'an id of another world' };

function live(world, fn, field, v, kind, none) {
  idValue(fn, field, v, none);
  const { enums } = engineTables(world._M);
  const state = enums.idState[world._M._tb_id_check(world._id, enums.idKind.indexOf(kind), v)];
  if (state !== 'live') {
    const what = kind === 'sensor' ? 'contact sensor' : kind;
    throw new RangeError(`${fn}: ${field}: ${what} ${v} does not exist in this world (${REASONS[state] ?? state})`);
  }
  return v;
}

export const bodyId = (world, fn, field, v) => live(world, fn, field, v, 'body');
export const shapeId = (world, fn, field, v) => live(world, fn, field, v, 'shape');
export const sensorId = (world, fn, field, v) => live(world, fn, field, v, 'sensor');
export const jointId = (world, fn, field, v) => live(world, fn, field, v, 'joint');
/** A body id or -1 (none: no parent, no skipped body). */
export const bodyOrNone = (world, fn, field, v) => (v === -1 ? v : live(world, fn, field, v, 'body', -1));

/* 'value': an id whose slot is wanted even after removal (bodySlot) */
const KINDS = { body: bodyId, shape: shapeId, sensor: sensorId, joint: jointId, bodyOrNone, value: (world, fn, field, v) => idValue(fn, field, v) };

/** Positional id parameters of the World methods: name -> [[argument index, parameter name, kind]]. */
export const ID_PARAMETERS = Object.freeze(Object.fromEntries([
  ...['removeBody', 'setPose', 'setVelocity', 'setMass', 'getMass', 'getState', 'getPosition', 'getRotation',
    'getLinearVelocity', 'getAngularVelocity', 'setMaxContactImpulse', 'setSolverIterations',
    'getParent', 'setSleeping', 'isSleeping', 'island', 'sleepState'].map((m) => [m, [[0, 'id', 'body']]]),
  ['bodySlot', [[0, 'id', 'value']]],
  ['setParent', [[0, 'id', 'body'], [1, 'parent', 'bodyOrNone']]],
  ['shapesOf', [[0, 'bodyId', 'body']]],
  ...['hullInfo', 'shapeIds', 'netContactWrench', 'bodyContacts', 'addContactSensor'].map((m) => [m, [[0, 'body', 'body']]]),
  ...['setMaterial', 'getMaterial'].map((m) => [m, [[0, 'shapeId', 'shape']]]),
  ...['setShapeFilter', 'getShapeFilter'].map((m) => [m, [[0, 'shape', 'shape']]]),
  ...['setContactPair', 'shapeDistance'].map((m) => [m, [[0, 'a', 'shape'], [1, 'b', 'shape']]]),
  ['shapeSupport', [[0, 'shape', 'shape']]],
  ['setPairForceThreshold', [[0, 'shape0', 'shape'], [1, 'shape1', 'shape']]],
  ...['removeContactSensor', 'readContactSensor', 'contactSensorHistory'].map((m) => [m, [[0, 'id', 'sensor']]]),
  ...['removeJoint', 'getJoint', 'jointState', 'jointWrench'].map((m) => [m, [[0, 'id', 'joint']]]),
  ['jointsOf', [[0, 'body', 'body']]],
].map(([m, p]) => [m, Object.freeze(p)])));

/** Runs the checks of method `fn`'s id parameters on `args` (in process: liveness included). */
export function checkIds(world, fn, args) {
  for (const [i, field, kind] of ID_PARAMETERS[fn] ?? []) KINDS[kind](world, fn, field, args[i]);
}

/** The engine-free part of checkIds (WorkerWorld, before posting). */
export function checkIdValues(fn, args) {
  for (const [i, field, kind] of ID_PARAMETERS[fn] ?? []) idValue(fn, field, args[i], kind === 'bodyOrNone' ? -1 : undefined);
}
