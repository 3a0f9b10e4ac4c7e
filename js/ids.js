/**
 * The one id check: every id parameter of every public World method passes through it before the
 * engine sees the number. An id must be a number (TypeError otherwise), an integer in [0, 2^31)
 * (RangeError otherwise), and name a live body, shape or sensor of this world by the engine's own
 * check (slot in use, generation matching: tb_body_alive, tb_shape_alive, tb_sensor_alive).
 * ID_PARAMETERS lists the positional id parameters of the World methods; World applies the checks
 * to them, and WorkerWorld runs the engine-free part (idValue) before posting.
 * @module tribo/ids
 */
import { show } from './check.js';

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

function live(world, fn, field, v, kind, call, none) {
  idValue(fn, field, v, none);
  if (!world._M[call](world._id, v)) throw new RangeError(`${fn}: ${field}: ${kind} ${v} does not exist in this world (never created, or removed)`);
  return v;
}

export const bodyId = (world, fn, field, v) => live(world, fn, field, v, 'body', '_tb_body_alive');
export const shapeId = (world, fn, field, v) => live(world, fn, field, v, 'shape', '_tb_shape_alive');
export const sensorId = (world, fn, field, v) => live(world, fn, field, v, 'contact sensor', '_tb_sensor_alive');
export const jointId = (world, fn, field, v) => live(world, fn, field, v, 'joint', '_tb_joint_alive');
/** A body id or -1 (none: no parent, no skipped body). */
export const bodyOrNone = (world, fn, field, v) => (v === -1 ? v : live(world, fn, field, v, 'body', '_tb_body_alive', -1));

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
