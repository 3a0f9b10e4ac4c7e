// Bad input catalogue: every public World method with every class of bad value. Each call must
// throw a TypeError or RangeError whose message names the method and the parameter, and leave
// the world bitwise unchanged: the same body and contact views as a twin world that never saw
// the call, the same id for the next body, and the same state after one more step.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { World } from '../../js/index.js';
import { LIMITS } from '../../js/limits.js';
import { heapBuffer } from '../../js/fields.js';
import { BUILDS, engine, buildPile, twinId, CONTACT_ID_FIELDS } from './helpers.mjs';

/** Values that are not ids (the removed id and `id + 2**32` are added per scene). */
const NOT_IDS = [['NaN', NaN], ['null', null], ['undefined', undefined], ['{}', {}], ['Infinity', Infinity],
  ['1e20', 1e20], ['1.5', 1.5], ['"1"', '1'], ['true', true], ['[1]', [1]], ['BigInt 1n', 1n], ['-7', -7]];

/**
 * The twin scene: ground, a box resting on it (after 5 steps), a sphere, a removed body (its
 * slot reused by no one), a sensor on the box.
 */
function scene(tribo) {
  const w = tribo.createWorld({ timestep: 1 / 60 });
  const ground = w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
  w._firstId = ground; /* twinId */
  const box = w.addBody({ position: [0, 0.5, 0], shapes: [{ type: 'box', halfExtents: [0.5, 0.5, 0.5] }] });
  const ball = w.addBody({ position: [2, 0.5, 0], shapes: [{ type: 'sphere', radius: 0.5 }] });
  const removed = w.addBody({ position: [5, 3, 0], shapes: [{ type: 'sphere', radius: 0.2 }] });
  const removedShape = w.shapesOf(removed)[0];
  w.removeBody(removed);
  const sensor = w.addContactSensor(box, { capacity: 8 });
  const removedSensor = w.addContactSensor(ball, { capacity: 8 });
  w.removeContactSensor(removedSensor);
  const joint = w.addJoint({ type: 'distance', body0: box, body1: ball, anchor0: [0, 0.5, 0], length: 2 });
  const removedJoint = w.addJoint({ type: 'spherical', body1: ball, anchor: [2, 3, 0] });
  w.removeJoint(removedJoint);
  w.step(5);
  const s = { ground, box, ball, removed, removedShape, sensor, removedSensor, joint, removedJoint,
    boxShape: w.shapesOf(box)[0], ballShape: w.shapesOf(ball)[0], groundShape: w.shapesOf(ground)[0] };
  return { w, s };
}

/** An id relative to its scene's first body (twinId): equal for the same object in twin worlds. */
const rel = (w, id) => twinId(w, w._firstId, id);

/** FNV-1a over the bytes of every body and contact view (ids as twinId), and the contact status scalars. */
function stateHash(w) {
  let h = 0x811c9dc5;
  const mix = (bytes) => { for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0; };
  for (const views of [w.bodies, w.contacts]) {
    for (const [k, v] of Object.entries(views).sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (views === w.contacts && CONTACT_ID_FIELDS.has(k)) mix(new Uint8Array(Int32Array.from(v, (id) => rel(w, id)).buffer));
      else if (ArrayBuffer.isView(v)) mix(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
      else mix(new TextEncoder().encode(`${k}=${v};`));
    }
  }
  return h;
}

const NEXT = { position: [-3, 0.5, 0], shapes: [{ type: 'sphere', radius: 0.3 }] };

/** Asserts the world equals its twin: views, the next body's id, and the state after a step. */
function assertSameAsTwin(w, twin, what) {
  assert.equal(stateHash(w), stateHash(twin), `${what}: body and contact views differ from the twin's`);
  assert.equal(rel(w, w.addBody(NEXT)), rel(twin, twin.addBody(NEXT)), `${what}: the next body's id differs from the twin's`);
  w.step(1);
  twin.step(1);
  assert.equal(stateHash(w), stateHash(twin), `${what}: the state one step later differs from the twin's`);
}

/**
 * Every id parameter of every public method: [method, parameter as messages name it, call with
 * the bad value x, whether undefined is a valid value (optional parameter)].
 */
const ID_CALLS = [
  ['removeBody', 'id', (w, s, x) => w.removeBody(x)],
  ['setPose', 'id', (w, s, x) => w.setPose(x, [0, 1, 0])],
  ['setVelocity', 'id', (w, s, x) => w.setVelocity(x, [1, 0, 0])],
  ['setMass', 'id', (w, s, x) => w.setMass(x, { mass: 2, inertia: [1, 1, 1] })],
  ['getMass', 'id', (w, s, x) => w.getMass(x)],
  ['getState', 'id', (w, s, x) => w.getState(x)],
  ['getPosition', 'id', (w, s, x) => w.getPosition(x)],
  ['getRotation', 'id', (w, s, x) => w.getRotation(x)],
  ['getLinearVelocity', 'id', (w, s, x) => w.getLinearVelocity(x)],
  ['getAngularVelocity', 'id', (w, s, x) => w.getAngularVelocity(x)],
  ['bodySlot', 'id', (w, s, x) => w.bodySlot(x)],
  ['setMaxContactImpulse', 'id', (w, s, x) => w.setMaxContactImpulse(x, 1)],
  ['setSolverIterations', 'id', (w, s, x) => w.setSolverIterations(x, 4, 1)],
  ['shapesOf', 'bodyId', (w, s, x) => w.shapesOf(x)],
  ['hullInfo', 'body', (w, s, x) => w.hullInfo(x, 0)],
  ['setMaterial', 'shapeId', (w, s, x) => w.setMaterial(x, { staticFriction: 0.9 })],
  ['getMaterial', 'shapeId', (w, s, x) => w.getMaterial(x)],
  ['shapeIds', 'body', (w, s, x) => w.shapeIds(x)],
  ['setShapeFilter', 'shape', (w, s, x) => w.setShapeFilter(x, { contype: 2 })],
  ['getShapeFilter', 'shape', (w, s, x) => w.getShapeFilter(x)],
  ['setParent', 'id', (w, s, x) => w.setParent(x, s.ball)],
  ['setParent', 'parent', (w, s, x) => w.setParent(s.box, x)],
  ['getParent', 'id', (w, s, x) => w.getParent(x)],
  ['setSleeping', 'id', (w, s, x) => w.setSleeping(x, true)],
  ['isSleeping', 'id', (w, s, x) => w.isSleeping(x)],
  ['island', 'id', (w, s, x) => w.island(x)],
  ['sleepState', 'id', (w, s, x) => w.sleepState(x)],
  ['excludePair', 'shapes[0]', (w, s, x) => w.excludePair({ shapes: [x, s.ballShape] })],
  ['excludePair', 'bodies[1]', (w, s, x) => w.excludePair({ bodies: [s.box, x] })],
  ['setExplicitPairs', 'pairs[0][1]', (w, s, x) => w.setExplicitPairs([[s.boxShape, x]])],
  ['setContactPair', 'a', (w, s, x) => w.setContactPair(x, s.ballShape, { margin: 0.01 })],
  ['setContactPair', 'b', (w, s, x) => w.setContactPair(s.boxShape, x, { margin: 0.01 })],
  ['rayCast', 'skipBody', (w, s, x) => w.rayCast([0, 5, 0], [0, -1, 0], { skipBody: x }), true],
  ['rayCastAll', 'skipBody', (w, s, x) => w.rayCastAll([0, 5, 0], [0, -1, 0], { skipBody: x }), true],
  ['overlap', 'skipBody', (w, s, x) => w.overlap({ type: 'sphere', radius: 1 }, { skipBody: x }), true],
  ['shapeDistance', 'a', (w, s, x) => w.shapeDistance(x, s.ballShape)],
  ['shapeDistance', 'b', (w, s, x) => w.shapeDistance(s.boxShape, x)],
  ['shapeSupport', 'shape', (w, s, x) => w.shapeSupport(x, [1, 0, 0])],
  ['netContactWrench', 'body', (w, s, x) => w.netContactWrench(x)],
  ['netContactWrench', 'with', (w, s, x) => w.netContactWrench(s.box, { with: x }), true],
  ['bodyContacts', 'body', (w, s, x) => w.bodyContacts(x)],
  ['bodyContacts', 'with', (w, s, x) => w.bodyContacts(s.box, { with: x }), true],
  ['addContactSensor', 'body', (w, s, x) => w.addContactSensor(x)],
  ['addContactSensor', 'with', (w, s, x) => w.addContactSensor(s.box, { with: x }), true],
  ['removeContactSensor', 'id', (w, s, x) => w.removeContactSensor(x), false, 'sensor'],
  ['readContactSensor', 'id', (w, s, x) => w.readContactSensor(x), false, 'sensor'],
  ['contactSensorHistory', 'id', (w, s, x) => w.contactSensorHistory(x), false, 'sensor'],
  ['setPairForceThreshold', 'shape0', (w, s, x) => w.setPairForceThreshold(x, s.groundShape, 5)],
  ['setPairForceThreshold', 'shape1', (w, s, x) => w.setPairForceThreshold(s.boxShape, x, 5)],
  ['addBody', 'parent', (w, s, x) => w.addBody({ parent: x, shapes: [{ type: 'sphere', radius: 0.1 }] }), true],
  ['addJoint', 'body0', (w, s, x) => w.addJoint({ body0: x, body1: s.ball }), true],
  ['addJoint', 'body1', (w, s, x) => w.addJoint({ body0: s.box, body1: x }), true],
  ['jointsOf', 'body', (w, s, x) => w.jointsOf(x)],
  ['removeJoint', 'id', (w, s, x) => w.removeJoint(x), false, 'joint'],
  ['getJoint', 'id', (w, s, x) => w.getJoint(x), false, 'joint'],
  ['jointState', 'id', (w, s, x) => w.jointState(x), false, 'joint'],
  ['jointWrench', 'id', (w, s, x) => w.jointWrench(x, 1), false, 'joint'],
];

/** Which live id of the scene a parameter takes, to build `id + 2**32` and the removed id. */
function liveAndRemoved(s, name, param, kind) {
  if (kind === 'sensor') return [s.sensor, s.removedSensor];
  if (kind === 'joint') return [s.joint, s.removedJoint];
  if (/shape|^a$|^b$|pairs/.test(param) || /Material|ShapeFilter/.test(name)) return [s.boxShape, s.removedShape];
  return [s.box, s.removed];
}

/** Integer options and arguments beyond their range: [method, parameter, call]. */
const INTEGER_CALLS = [
  ['setOptions', 'maxCollisionPairs', (w) => w.setOptions({ maxCollisionPairs: 1e20 })],
  ['setOptions', 'maxCollisionPairs', (w) => w.setOptions({ maxCollisionPairs: 2 ** 32 + 1 })],
  ['setOptions', 'positionIterations', (w) => w.setOptions({ positionIterations: 2 ** 32 + 4 })],
  ['setOptions', 'velocityIterations', (w) => w.setOptions({ velocityIterations: 2 ** 31 })],
  ['setOptions', 'maxPointsPerPair', (w) => w.setOptions({ maxPointsPerPair: 2 ** 32 + 4 })],
  ['addBody', 'world', (w) => w.addBody({ shapes: [{ type: 'sphere', radius: 0.1, world: 2 ** 32 }] })],
  ['addBody', 'collisionGroup', (w) => w.addBody({ shapes: [{ type: 'sphere', radius: 0.1, collisionGroup: 2 ** 32 + 1 }] })],
  ['addBody', 'indices[1]', (w) => w.addBody({ type: 'static', shapes: [{ type: 'mesh', vertices: [0, 0, 0, 1, 0, 0, 0, 0, 1], indices: [0, 2 ** 32 + 1, 2] }] })],
  ['addBody', 'rows', (w) => w.addBody({ type: 'static', shapes: [{ type: 'heightfield', rows: 2 ** 32 + 2, cols: 2, heights: [0, 0, 0, 0], cellSize: [1, 1] }] })],
  ['addBody', 'condim', (w) => w.addBody({ shapes: [{ type: 'sphere', radius: 0.1, material: { condim: 2 ** 32 + 3 } }] })],
  ['addBody', 'priority', (w) => w.addBody({ shapes: [{ type: 'sphere', radius: 0.1, material: { priority: 2 ** 31 } }] })],
  ['addBody', 'resolution', (w) => w.addBody({ shapes: [{ type: 'hull', points: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1], supportField: { resolution: 2 ** 32 + 180 } }] })],
  ['addBody', 'solverIterations.position', (w) => w.addBody({ solverIterations: { position: 2 ** 32 + 4 } })],
  ['setMaterial', 'condim', (w, s) => w.setMaterial(s.boxShape, { condim: 2 ** 32 + 3 })],
  ['setMaterial', 'priority', (w, s) => w.setMaterial(s.boxShape, { priority: 1e20 })],
  ['setShapeFilter', 'world', (w, s) => w.setShapeFilter(s.boxShape, { world: 2 ** 32 })],
  ['setSolverIterations', 'positionIterations', (w, s) => w.setSolverIterations(s.box, 2 ** 32 + 4, 1)],
  ['setSolverIterations', 'velocityIterations', (w, s) => w.setSolverIterations(s.box, 4, 2 ** 32)],
  ['setContactCapacity', 'capacity', (w) => w.setContactCapacity(2 ** 32 + 16)],
  ['setPairCapacity', 'capacity', (w) => w.setPairCapacity(1e20)],
  ['setEventCapacity', 'capacity', (w) => w.setEventCapacity(2 ** 32 + 8)],
  ['addContactSensor', 'capacity', (w, s) => w.addContactSensor(s.box, { capacity: 2 ** 32 + 8 })],
  ['rayCastAll', 'capacity', (w) => w.rayCastAll([0, 5, 0], [0, -1, 0], { capacity: 2 ** 32 + 1 })],
  ['setContactOverride', 'index', (w) => w.setContactOverride(2 ** 32, { stiffness: 1 })],
  ['contactWrench', 'index', (w) => w.contactWrench(2 ** 32, 0)],
  ['contactWrench', 'side', (w) => w.contactWrench(0, 2 ** 32 + 1)],
  ['convertContacts', 'first', (w) => w.convertContacts('newton', 2 ** 32)],
  ['convertContacts', 'count', (w) => w.convertContacts('newton', 0, 2 ** 32 + 1)],
  ['hullInfo', 'index', (w, s) => w.hullInfo(s.box, 2 ** 32)],
  ['jointWrench', 'side', (w, s) => w.jointWrench(s.joint, 2 ** 32 + 1)],
  ['step', 'n', (w) => w.step(1.5)],
  ['step', 'n', (w) => w.step(-1)],
];

/** Reals that are NaN, outside float32, or outside their meaning's range. */
const REAL_CALLS = [
  ['restore', 'bytes', (w) => w.restore([1, 2, 3])],
  ['restore', 'bytes', (w) => w.restore(null)],
  ['addBody', 'linearDamping', (w) => w.addBody({ linearDamping: NaN })],
  ['addBody', 'angularDamping', (w) => w.addBody({ angularDamping: NaN })],
  ['addBody', 'linearDamping', (w) => w.addBody({ linearDamping: -1 })],
  ['addBody', 'restitution', (w) => w.addBody({ shapes: [{ type: 'sphere', radius: 0.1, restitution: 1 + 1e-8 }] })],
  ['addBody', 'friction', (w) => w.addBody({ shapes: [{ type: 'sphere', radius: 0.1, friction: NaN }] })],
  ['addBody', 'radius', (w) => w.addBody({ shapes: [{ type: 'sphere', radius: 1e-30 }] })],
  ['addBody', 'radius', (w) => w.addBody({ shapes: [{ type: 'sphere', radius: 1e30 }] })],
  ['addBody', 'radius', (w) => w.addBody({ shapes: [{ type: 'sphere', radius: 1n }] })],
  ['addBody', 'halfHeight', (w) => w.addBody({ shapes: [{ type: 'capsule', radius: 0.1, halfHeight: 1e30 }] })],
  ['addBody', 'halfExtents[2]', (w) => w.addBody({ shapes: [{ type: 'box', halfExtents: [1, 1, 1e-30] }] })],
  ['addBody', 'radii[0]', (w) => w.addBody({ shapes: [{ type: 'ellipsoid', radii: [NaN, 1, 1] }] })],
  ['addBody', 'density', (w) => w.addBody({ shapes: [{ type: 'sphere', radius: 0.1, density: 1e38 }] })],
  ['addBody', 'points[3]', (w) => w.addBody({ shapes: [{ type: 'hull', points: [0, 0, 0, 1e30, 0, 0, 0, 1, 0, 0, 0, 1] }] })],
  ['addBody', 'position[0]', (w) => w.addBody({ position: [1e39, 0, 0] })],
  ['addBody', 'position[0]', (w) => w.addBody({ position: [3e38, 0, 0] })],
  ['addBody', 'position[2]', (w) => w.addBody({ type: 'static', position: [0, 0, -2e6] })],
  ['addBody', 'angularVelocity[1]', (w) => w.addBody({ type: 'kinematic', angularVelocity: [0, 1e39, 0] })],
  ['addBody', 'mass.mass', (w) => w.addBody({ mass: { mass: 1e-40, inertia: [1, 1, 1] } })],
  ['addBody', 'maxContactImpulse', (w) => w.addBody({ maxContactImpulse: NaN })],
  ['addBody', 'margin', (w) => w.addBody({ shapes: [{ type: 'sphere', radius: 0.1, margin: NaN }] })],
  ['addBody', 'material.restitution', (w) => w.addBody({ shapes: [{ type: 'sphere', radius: 0.1, material: { restitution: 1 + 1e-8 } }] })],
  ['setMass', 'mass', (w, s) => w.setMass(s.box, { mass: 1e-40, inertia: [1, 1, 1] })],
  ['setMass', 'mass', (w, s) => w.setMass(s.box, { mass: 1e38, inertia: [1, 1, 1] })],
  ['setMass', 'inertia[1]', (w, s) => w.setMass(s.box, { mass: 1, inertia: [1, 1e-40, 1] })],
  ['setMass', 'center[2]', (w, s) => w.setMass(s.box, { mass: 1, center: [0, 0, NaN], inertia: [1, 1, 1] })],
  ['setMaterial', 'restitution', (w, s) => w.setMaterial(s.boxShape, { restitution: 1 + 1e-8 })],
  ['setPose', 'position[1]', (w, s) => w.setPose(s.box, [0, NaN, 0])],
  ['setPose', 'position[0]', (w, s) => w.setPose(s.box, [1e6 + 1e3, 0, 0])],
  ['setPose', 'rotation[3]', (w, s) => w.setPose(s.box, [0, 1, 0], [0, 0, 0, 1e39])],
  ['setVelocity', 'angular[2]', (w, s) => w.setVelocity(s.box, [0, 0, 0], [0, 0, Infinity])],
  ['setMaxContactImpulse', 'maxContactImpulse', (w, s) => w.setMaxContactImpulse(s.box, NaN)],
  ['setGravity', 'gravity[1]', (w) => w.setGravity([0, -1e39, 0])],
  ['setTimestep', 'timestep', (w) => w.setTimestep(NaN)],
  ['setOptions', 'contactHertz', (w) => w.setOptions({ contactHertz: NaN })],
  ['setOptions', 'bounceThreshold', (w) => w.setOptions({ bounceThreshold: 1e39 })],
  ['setForceThreshold', 'newtons', (w) => w.setForceThreshold(NaN)],
  ['setPairForceThreshold', 'newtons', (w, s) => w.setPairForceThreshold(s.boxShape, s.groundShape, NaN)],
  ['setContactPair', 'margin', (w, s) => w.setContactPair(s.boxShape, s.ballShape, { margin: NaN })],
  ['setContactPair', 'friction[0]', (w, s) => w.setContactPair(s.boxShape, s.ballShape, { friction: [NaN, 1, 0, 0, 0] })],
  ['setContactOverride', 'stiffness', (w) => w.setContactOverride(0, { stiffness: NaN })],
  ['rayCast', 'maxDistance', (w) => w.rayCast([0, 5, 0], [0, -1, 0], { maxDistance: NaN })],
  ['rayCast', 'origin[0]', (w) => w.rayCast([1e39, 5, 0], [0, -1, 0])],
  ['overlap', 'radius', (w) => w.overlap({ type: 'sphere', radius: 1e30 })],
  ['addJoint', 'anchor0[1]', (w, s) => w.addJoint({ body1: s.ball, anchor0: [0, 1e39, 0] })],
  ['addJoint', 'axis[2]', (w, s) => w.addJoint({ body1: s.ball, axis: [0, 0, NaN] })],
  ['addJoint', 'axis', (w, s) => w.addJoint({ body1: s.ball, axis: [0, 0, 0] })],
  ['addJoint', 'limit.lower', (w, s) => w.addJoint({ body1: s.ball, limit: { lower: NaN } })],
  ['addJoint', 'limit.lower', (w, s) => w.addJoint({ body1: s.ball, limit: { lower: 1, upper: -1 } })],
  ['addJoint', 'motor.maxForce', (w, s) => w.addJoint({ body1: s.ball, motor: { speed: 1, maxForce: -1 } })],
  ['addJoint', 'spring.stiffness', (w, s) => w.addJoint({ type: 'distance', body1: s.ball, spring: { stiffness: 1e39 } })],
  ['addJoint', 'breakForce', (w, s) => w.addJoint({ body1: s.ball, breakForce: 0 })],
  ['jointWrench', 'point[0]', (w, s) => w.jointWrench(s.joint, 1, [1e39, 0, 0])],
  ['overlap', 'position[1]', (w) => w.overlap({ type: 'sphere', radius: 1 }, { position: [0, NaN, 0] })],
  ['shapeDistance', 'maxDistance', (w, s) => w.shapeDistance(s.boxShape, s.ballShape, { maxDistance: NaN })],
  ['shapeDistance', 'maxDistance', (w, s) => w.shapeDistance(s.boxShape, s.ballShape, { maxDistance: -1 })],
  ['shapeSupport', 'direction[1]', (w, s) => w.shapeSupport(s.boxShape, [0, NaN, 0])],
];

/** Query capacities beyond LIMITS.queryCapacity: a named RangeError, and engine memory does not grow. */
const CAPACITY_CALLS = [
  ['rayCastAll', 'capacity', (w) => w.rayCastAll([0, 5, 0], [0, -1, 0], { capacity: 1e9 })],
  ['overlap', 'capacity', (w) => w.overlap({ type: 'sphere', radius: 1 }, { capacity: 1e9 })],
  ['rayCastAll', 'capacity', (w) => w.rayCastAll([0, 5, 0], [0, -1, 0], { capacity: LIMITS.queryCapacity + 1 })],
];

/** Methods whose parameters all appear above, or that take none a caller could get wrong. */
const WITHOUT_BAD_VALUES = new Set(['collide', 'solve', 'free', 'bodies', 'contacts', 'stepStats', 'solverStatus',
  'options', 'readbackInfo', 'events', 'netContactWrenches', 'setPreset', 'snapshot', 'resetSolver', 'joints',
  'threadMode', 'adaptiveThreads']);

/** Asserts a TypeError or RangeError whose message names `fn` and `param`. */
function assertNamedError(call, fn, param, what) {
  const escape = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  assert.throws(call, (e) => {
    assert.ok(e instanceof TypeError || e instanceof RangeError, `${what}: expected a TypeError or RangeError, got ${e?.name}: ${e?.message}`);
    assert.match(e.message, new RegExp(`^${escape(fn)}: (.*\\W)?${escape(param)}(?!\\w)`), `${what}: the message names ${fn} and ${param}`);
    return true;
  }, `${what}: no error`);
}

/** Each call of `calls` on a fresh scene: a named error, and the world equal to its twin. */
function rejectsLikeTwin(tribo, calls) {
  for (const [fn, param, call] of calls) {
    const { w, s } = scene(tribo);
    const { w: twin } = scene(tribo);
    assertNamedError(() => call(w, s), fn, param, `${fn}(${param})`);
    assertSameAsTwin(w, twin, `${fn}(${param})`);
    w.free();
    twin.free();
  }
}

for (const build of BUILDS) {
  describe(`bad input catalogue (${build} build)`, () => {
    it('every public World method appears in the catalogue', () => {
      const covered = new Set([...ID_CALLS, ...INTEGER_CALLS, ...REAL_CALLS, ...CAPACITY_CALLS].map(([m]) => m));
      const missing = Object.getOwnPropertyNames(World.prototype)
        .filter((m) => m !== 'constructor' && !m.startsWith('_') && !covered.has(m) && !WITHOUT_BAD_VALUES.has(m));
      assert.deepEqual(missing, [], 'methods without a bad-input case');
    });

    it('ids: every id parameter rejects non-ids, ids beyond int32 and removed ids; the world equals its twin', async () => {
      const tribo = await engine(build);
      let checked = 0;
      for (const [fn, param, call, optional, kind] of ID_CALLS) {
        const { w, s } = scene(tribo);
        const { w: twin, s: twinScene } = scene(tribo);
        const [live, removed] = liveAndRemoved(s, fn, param, kind);
        const [foreign] = liveAndRemoved(twinScene, fn, param, kind); /* the twin's id of the same object */
        assert.notEqual(foreign, live);
        const values = [...NOT_IDS, ['id + 2**32', live + 2 ** 32]];
        if (fn !== 'bodySlot') values.push(["another world's id", foreign]);
        if (fn !== 'bodySlot') values.push(['a removed id', removed]);
        for (const [label, x] of values) {
          if (x === undefined && optional) continue;
          assertNamedError(() => call(w, s, x), fn, param, `${fn}(${param}: ${label})`);
          checked++;
        }
        assertSameAsTwin(w, twin, `${fn}(${param})`);
        w.free();
        twin.free();
      }
      assert.ok(checked > 500, `${checked} calls`);
    });

    it('integers beyond int32 or their own range are rejected by name, never wrapped; the world equals its twin', async () => {
      const tribo = await engine(build);
      rejectsLikeTwin(tribo, INTEGER_CALLS);
      for (const [param, v] of [['maxCollisionPairs', 1e20], ['maxCollisionPairs', 2 ** 32 + 1], ['threads', 2 ** 32 + 1],
        ['contactCapacity', 2 ** 32 + 64], ['pairCapacity', 1e20], ['iterations', 2 ** 32 + 4], ['substeps', 2 ** 32 + 4]]) {
        assertNamedError(() => tribo.createWorld({ [param]: v }), 'createWorld', param, `createWorld(${param}: ${v})`);
      }
    });

    it('reals: NaN, beyond float32, or outside their meaning are rejected by name; the world equals its twin', async () => {
      const tribo = await engine(build);
      rejectsLikeTwin(tribo, REAL_CALLS);
      // restitution exactly 1 and the size limits themselves are accepted
      const { w } = scene(tribo);
      w.addBody({ shapes: [{ type: 'sphere', radius: LIMITS.length.min * 10, restitution: 1, density: LIMITS.density.max }] });
      w.addBody({ position: [0, 50, 0], shapes: [{ type: 'sphere', radius: 10, density: LIMITS.density.min }] });
      w.step(1);
      for (const v of Object.values(w.bodies).filter(ArrayBuffer.isView)) {
        if (v instanceof Float32Array) assert.ok(v.every(Number.isFinite), 'finite state after a step with bodies at the limits');
      }
      w.free();
    });

    it('a finite real past float32 where ±Infinity passes is refused for its size, not as NaN; Infinity itself passes', async () => {
      const tribo = await engine(build);
      const { w, s } = scene(tribo);
      const range = '3\\.4028234663852886e38';
      for (const [call, fn, param, rest] of [
        [() => w.setOptions({ bounceThreshold: 1e39 }), 'setOptions', 'bounceThreshold', ' or ±Infinity'],
        [() => w.setOptions({ bounceThreshold: -1e39 }), 'setOptions', 'bounceThreshold', ' or ±Infinity'],
        [() => w.setMaxContactImpulse(s.box, 1e39), 'setMaxContactImpulse', 'maxContactImpulse', ' or Infinity, and > 0'],
        [() => w.addJoint({ body1: s.ball, breakForce: 1e39 }), 'addJoint', 'breakForce', ' or Infinity, and > 0'],
        [() => w.rayCast([0, 5, 0], [0, -1, 0], { maxDistance: 1e39 }), 'rayCast', 'maxDistance', ' or Infinity, and > 0'],
      ]) {
        const want = new RegExp(`^${fn}: ${param} must be finite within float32 range \\(\\|${param}\\| <= ${range}\\)` +
          `${rest} \\(got -?1e\\+39\\)$`);
        assert.throws(call, (e) => e instanceof RangeError && want.test(e.message) && !/NaN/.test(e.message),
          `${fn}(${param}): a RangeError naming it and the float32 range`);
      }
      w.setMaxContactImpulse(s.box, Infinity); /* the infinity the check lets through */
      w.free();
    });

    it('a vector component finite in float64 but past float32 is refused for its size, naming the component; the world equals its twin', async () => {
      const tribo = await engine(build);
      const range = '3\\.4028234663852886e38';
      for (const [fn, param, call] of [
        ['setGravity', 'gravity[1]', (w) => w.setGravity([0, -1e39, 0])],
        ['setVelocity', 'linear[0]', (w, s) => w.setVelocity(s.box, [1e39, 0, 0])],
        ['setPose', 'rotation[3]', (w, s) => w.setPose(s.box, [0, 0.5, 0], [0, 0, 0, 1e39])],
        ['rayCast', 'direction[2]', (w) => w.rayCast([0, 5, 0], [0, -1, 1e39])],
        ['addBody', 'linearVelocity[2]', (w) => w.addBody({ linearVelocity: [0, 0, 1e39], shapes: [{ type: 'sphere', radius: 0.1 }] })],
        ['contactWrench', 'point[0]', (w) => w.contactWrench(0, 0, [1e39, 0, 0])],
      ]) {
        const { w, s } = scene(tribo);
        const { w: twin } = scene(tribo);
        const p = param.replace(/[[\]]/g, '\\$&');
        const want = new RegExp(`^${fn}: ${p} must be finite within float32 range \\(\\|${p}\\| <= ${range}\\) \\(got -?1e\\+39\\)$`);
        assert.throws(() => call(w, s), (e) => e instanceof RangeError && want.test(e.message), `${fn}(${param}): the float32 range, not "must be finite"`);
        assertSameAsTwin(w, twin, `${fn}(${param})`);
        w.free();
        twin.free();
      }
      const { w, s } = scene(tribo);
      assert.throws(() => w.setVelocity(s.box, [0, NaN, 0]),
        (e) => e instanceof RangeError && e.message === 'setVelocity: linear[1] must be finite (got NaN)', 'NaN: not finite');
      w.free();
    });

    it('query capacities are bounded by LIMITS.queryCapacity: a named RangeError, and engine memory does not grow', async () => {
      const tribo = await engine(build);
      const { w, s } = scene(tribo);
      const { w: twin } = scene(tribo);
      const heap = () => heapBuffer(tribo._M).byteLength;
      const before = heap();
      for (const [fn, param, call] of CAPACITY_CALLS) assertNamedError(() => call(w, s), fn, param, `${fn}(${param})`);
      assert.equal(heap(), before, 'wasm memory size (bytes) after the rejected queries');
      // the largest capacity works for both queries
      const all = w.rayCastAll([0, 5, 0], [0, -1, 0], { capacity: LIMITS.queryCapacity });
      assert.deepEqual(all.hits.map((h) => h.body), [s.box, -1], 'the ray hits the box, then the ground');
      const over = w.overlap({ type: 'sphere', radius: 0.3 }, { position: [0, 0, 0], capacity: LIMITS.queryCapacity });
      assert.deepEqual(over.shapes.slice().sort((a, b) => a - b), [s.groundShape, s.boxShape].sort((a, b) => a - b));
      assertSameAsTwin(w, twin, 'queries');
      w.free();
      twin.free();
    });
  });
}

describe('bad input in a worker world', () => {
  for (const build of BUILDS) {
    it(`the same errors as in process, no pending entries; non-cloneable arguments reject by name (${build} build)`, async () => {
      const tribo = await engine(build);
      const { w, s } = scene(tribo);
      const sim = await tribo.createWorkerWorld({ timestep: 1 / 60 });
      try {
        // the same scene in the worker: the same ids up to the worlds' salts (rel)
        const ground = await sim.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
        const simIds = { _M: w._M, _firstId: ground, ground };
        simIds.box = await sim.addBody({ position: [0, 0.5, 0], shapes: [{ type: 'box', halfExtents: [0.5, 0.5, 0.5] }] });
        simIds.ball = await sim.addBody({ position: [2, 0.5, 0], shapes: [{ type: 'sphere', radius: 0.5 }] });
        simIds.removed = await sim.addBody({ position: [5, 3, 0], shapes: [{ type: 'sphere', radius: 0.2 }] });
        for (const k of ['ground', 'box', 'ball', 'removed']) assert.equal(rel(simIds, simIds[k]), rel(w, s[k]), k);
        await sim.removeBody(simIds.removed);
        /* each call with the ids of the world it goes to */
        const ids = (o) => (o === sim ? simIds : s);
        const cases = [
          ...[NaN, null, {}, 1.5, '1', 1n].map((x) => ['setPose', (o) => o.setPose(x, [0, 1, 0])]),
          ['setPose', (o) => o.setPose(ids(o).box + 2 ** 32, [0, 1, 0])],
          ['setPose', (o) => o.setPose(ids(o).removed, [0, 1, 0])],
          ...[NaN, 1e20].map((x) => ['removeBody', (o) => o.removeBody(x)]),
          ['getState', (o) => o.getState(ids(o).removed)],
          ['setParent', (o) => o.setParent(ids(o).box, 2 ** 32)],
          ['addBody', (o) => o.addBody({ linearDamping: NaN })],
          ['addBody', (o) => o.addBody({ shapes: [{ type: 'sphere', radius: 1e-30 }] })],
          ['setOptions', (o) => o.setOptions({ maxCollisionPairs: 2 ** 32 + 1 })],
          ['rayCastAll', (o) => o.rayCastAll([0, 5, 0], [0, -1, 0], { capacity: 1e9 })],
          ['step', (o) => o.step(1.5)],
        ];
        for (const [fn, call] of cases) {
          let local;
          try { call(w); } catch (e) { local = e; }
          assert.ok(local, `${fn}: throws in process`);
          await assert.rejects(Promise.resolve().then(() => call(sim)), (e) => {
            assert.equal(e.name, local.name, `${fn}: the same error type in the worker`);
            /* the same message, up to the ids in it */
          const noIds = (m) => m.replace(/\b\d{3,}\b/g, '<id>');
          assert.equal(noIds(e.message), noIds(local.message), `${fn}: the same message in the worker`);
            return true;
          });
          assert.equal(sim._pending.size, 0, `${fn}: no pending entry after the rejection`);
        }
        await assert.rejects(sim.addBody({ shapes: [{ type: 'sphere', radius: () => 1 }] }),
          (e) => e instanceof TypeError && /^addBody: an argument cannot be sent to the worker/.test(e.message));
        assert.equal(sim._pending.size, 0, 'no pending entry after a non-cloneable argument');
        // the worker world is unchanged and still answers
        const next = await sim.addBody(NEXT);
        assert.equal(rel(simIds, next), rel(w, w.addBody(NEXT)), 'the next id in the worker equals the in-process one');
      } finally {
        await sim.free();
        w.free();
      }
    });
  }
});

describe('worker world lifecycle', () => {
  /** A pile heavy enough that step(3000) runs for many seconds. */
  async function pileWorker(tribo) {
    const sim = await tribo.createWorkerWorld({ timestep: 1 / 60, threads: 1 });
    const local = tribo.createWorld({ timestep: 1 / 60, threads: 1 });
    buildPile(local, 200);
    // the same scene in the worker, body by body
    buildPile({ addBody: (d) => { sim.addBody(d); return 0; } }, 200);
    await sim.frame();
    local.free();
    return sim;
  }

  for (const build of BUILDS) {
    it(`terminate() mid-step rejects the pending calls and every later call, naming the method (${build} build)`, async () => {
      const tribo = await engine(build);
      const sim = await pileWorker(tribo);
      const stepping = sim.step(3000);
      const queued = sim.getState(0);
      await new Promise((r) => setTimeout(r, 200));
      const t0 = performance.now();
      sim.terminate();
      await assert.rejects(stepping, /^Error: step: the worker world was terminated$/);
      await assert.rejects(queued, /^Error: getState: the worker world was terminated$/);
      assert.ok(performance.now() - t0 < 100, 'the pending calls reject at once (ms)');
      await assert.rejects(sim.step(1), /^Error: step: the worker world was terminated$/);
      assert.equal(sim._pending.size, 0);
    });

    it(`a worker that exits rejects the pending calls with the exit named (${build} build)`, async () => {
      const tribo = await engine(build);
      const sim = await pileWorker(tribo);
      const stepping = sim.step(3000);
      await new Promise((r) => setTimeout(r, 100));
      sim._worker.terminate(); // the worker stops without the world asking (as a crash would)
      await assert.rejects(stepping, /^Error: step: the worker exited \(code \d+\)$/);
      await assert.rejects(sim.isSleeping(0), /^Error: isSleeping: the worker exited/);
    });

    it(`free() during step(3000) stops the step between timesteps and returns within 2 s (${build} build)`, async () => {
      const tribo = await engine(build);
      const sim = await pileWorker(tribo);
      const stepping = sim.step(3000);
      const outcome = stepping.then(() => 'finished', (e) => e.message);
      await new Promise((r) => setTimeout(r, 300));
      const t0 = performance.now();
      const live = await sim.free();
      const ms = performance.now() - t0;
      assert.ok(ms < 2000, `free() returned after ${ms.toFixed(0)} ms (bound 2000 ms)`);
      assert.match(await outcome, /^step: stopped by free\(\) or terminate\(\) after \d+ of 3000 timesteps$/);
      assert.equal(typeof live, 'number');
      await assert.rejects(sim.step(1), /^Error: step: this world was freed$/);
    });
  }
});
