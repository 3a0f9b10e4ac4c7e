/**
 * Bodies: addBody with its shapes and settings (all or nothing), removal, pose, velocity, mass
 * and state, and the PhysX per-body solver settings.
 * @module tribo/bodies
 */
import { errorFor } from './errors.js';
import { checkKeys, vec, finiteVec, withinVec, real, int, boolean, show } from './check.js';
import { engineTables, heapBuffer } from './fields.js';
import { LIMITS } from './limits.js';
import { bodyOrNone } from './ids.js';
import { prepareShape } from './shapes.js';
import { checkAs, setParent, setSleeping } from './filtering.js';

const BODY_OPTIONS = new Set(['type', 'position', 'rotation', 'linearVelocity', 'angularVelocity',
  'linearDamping', 'angularDamping', 'mass', 'shapes', 'maxContactImpulse', 'solverIterations',
  /* filtering */ 'parent', 'sleeping']);
const MASS_OPTIONS = new Set(['mass', 'center', 'inertia']);
const ITERATION_OPTIONS = new Set(['position', 'velocity']);

/** World.addBody: returns the id. Every field is checked before the body is created; on any error nothing is added. */
export function addBody(world, desc = {}) {
  const fn = 'addBody';
  world._alive(fn);
  checkKeys(fn, '', desc, BODY_OPTIONS);
  const M = world._M;
  const type = desc.type ?? 'dynamic';
  const typeIndex = engineTables(M).enums.bodyType.indexOf(type);
  if (typeIndex < 0) throw new RangeError(`${fn}: type must be 'static', 'kinematic' or 'dynamic' (got ${show(type)})`);
  const position = withinVec(fn, 'position', desc.position, LIMITS.position, 'm', [0, 0, 0]);
  const rotation = finiteVec(fn, 'rotation', desc.rotation, 4, [0, 0, 0, 1]);
  const shapes = desc.shapes ?? [];
  if (!Array.isArray(shapes)) throw new TypeError(`${fn}: shapes must be an array (got ${show(shapes)})`);
  const makers = shapes.map((s, i) => prepareShape(world, `${fn}: shapes[${i}]`, s));
  const lv = withinVec(fn, 'linearVelocity', desc.linearVelocity, LIMITS.speed, 'm/s', null);
  const av = withinVec(fn, 'angularVelocity', desc.angularVelocity, LIMITS.angularSpeed, 'rad/s', null);
  const damping = desc.linearDamping !== undefined || desc.angularDamping !== undefined
    ? ['linearDamping', 'angularDamping'].map((k) => real(fn, k, desc[k], { fallback: 0, min: 0, max: LIMITS.damping })) : null;
  const mass = desc.mass !== undefined ? massArgs(fn, desc.mass, 'mass.') : null;
  if (desc.parent !== undefined) bodyOrNone(world, fn, 'parent', desc.parent);
  if (desc.sleeping !== undefined) boolean(fn, 'sleeping', desc.sleeping);
  const maxImpulse = desc.maxContactImpulse !== undefined ? impulseCap(fn, desc.maxContactImpulse) : null;
  let iterations = null;
  if (desc.solverIterations !== undefined) {
    const it = desc.solverIterations;
    if (it == null || typeof it !== 'object') throw new TypeError(`${fn}: solverIterations must be { position, velocity } (got ${show(it)})`);
    checkKeys(`${fn}: solverIterations`, '', it, ITERATION_OPTIONS);
    iterations = [int(fn, 'solverIterations.position', it.position, -1), int(fn, 'solverIterations.velocity', it.velocity, -1)];
  }
  const id = M._tb_body_create(world._id, typeIndex, world._put(0, position), world._put(4, rotation));
  if (id < 0) world._check(-id);
  world._version++;
  try {
    for (const make of makers) make(id);
    if (lv || av) {
      world._check(M._tb_body_set_velocity(world._id, id, world._put(0, lv ?? [0, 0, 0]), world._put(4, av ?? [0, 0, 0])));
    }
    if (damping) world._check(M._tb_body_set_damping(world._id, id, ...damping));
    if (mass) applyMass(world, fn, id, mass);
    else if (typeIndex === engineTables(M).enums.bodyType.indexOf('dynamic') && shapes.length > 0) checkComputedMass(world, fn, id);
    if (desc.parent !== undefined) setParent(world, id, desc.parent, fn);
    if (desc.sleeping !== undefined) setSleeping(world, id, desc.sleeping, fn);
    if (maxImpulse !== null) world._check(M._tb_body_set_max_contact_impulse(world._id, id, maxImpulse));
    if (iterations) world._check(M._tb_body_set_solver_iterations(world._id, id, ...iterations));
  } catch (e) {
    /* takes the creation back with its shapes: no id or slot consumed */
    if (M._tb_body_discard(world._id, id) !== 0) M._tb_body_destroy(world._id, id);
    world._shapeIds.delete(id);
    world._hulls.delete(id);
    throw e;
  }
  return id;
}

/* mass (kg) and principal inertia (kg·m²) within LIMITS; centre finite */
function massArgs(fn, m, at = '') {
  if (m == null || typeof m !== 'object') throw new TypeError(`${fn}: ${at || 'mass properties'} must be { mass, center?, inertia } (got ${show(m)})`);
  checkKeys(fn, at, m, MASS_OPTIONS);
  const center = finiteVec(fn, `${at}center`, m.center, 3, [0, 0, 0]);
  vec(fn, `${at}inertia`, m.inertia, 3);
  const inertia = [0, 1, 2].map((i) => real(fn, `${at}inertia[${i}]`, m.inertia[i], LIMITS.inertia));
  return { mass: real(fn, `${at}mass`, m.mass, LIMITS.mass), center, inertia };
}

function applyMass(world, fn, id, m) {
  const c = world._put(0, m.center), i = world._put(4, m.inertia);
  checkAs(world, fn, 'setMass', world._M._tb_body_set_mass(world._id, id, m.mass, c, i));
}

/* The mass properties the engine computed from a dynamic body's shapes, within LIMITS. */
function checkComputedMass(world, fn, id) {
  const { mass, inertia } = getMass(world, id);
  const inRange = (x, r) => x >= r.min && x <= r.max;
  const diag = [inertia[0], inertia[4], inertia[8]];
  if (!inRange(mass, LIMITS.mass) || !diag.every((x) => inRange(x, LIMITS.inertia))) {
    throw new RangeError(`${fn}: the shapes give mass ${mass} kg and inertia diagonal [${diag.join(', ')}] kg·m², ` +
      `outside [${LIMITS.mass.min}, ${LIMITS.mass.max}] kg / [${LIMITS.inertia.min}, ${LIMITS.inertia.max}] kg·m² (check radius, halfExtents, density)`);
  }
}

/* maxContactImpulse: N·s, > 0; Infinity = no cap */
const impulseCap = (fn, v) => real(fn, 'maxContactImpulse', v, { min: 0, above: true, infinite: true });

export function removeBody(world, id) {
  world._check(world._M._tb_body_destroy(world._id, id));
  world._shapeIds.delete(id);
  world._hulls.delete(id);
  world._version++;
}

export function setPose(world, id, position, rotation = [0, 0, 0, 1]) {
  const p = world._put(0, withinVec('setPose', 'position', position, LIMITS.position, 'm'));
  const q = world._put(4, finiteVec('setPose', 'rotation', rotation, 4));
  world._check(world._M._tb_body_set_pose(world._id, id, p, q));
}

export function setVelocity(world, id, linear, angular = [0, 0, 0]) {
  const l = world._put(0, withinVec('setVelocity', 'linear', linear, LIMITS.speed, 'm/s'));
  const a = world._put(4, withinVec('setVelocity', 'angular', angular, LIMITS.angularSpeed, 'rad/s'));
  world._check(world._M._tb_body_set_velocity(world._id, id, l, a));
}

export function setMass(world, id, m) {
  applyMass(world, 'setMass', id, massArgs('setMass', m));
}

/** tb_body_get_mass's 13 floats: mass, centre (3), inertia (3x3 row-major). */
export function getMass(world, id) {
  world._check(world._M._tb_body_get_mass(world._id, id, world._t._scratch));
  const v = new Float32Array(heapBuffer(world._M), world._t._scratch, 13);
  return { mass: v[0], center: [v[1], v[2], v[3]], inertia: Array.from(v.subarray(4, 13)) };
}

/** Values [first, first + n) of tb_body_get_state's 13 (position, rotation, linear, angular velocity) into out. */
export function stateSlice(world, fn, id, first, n, out) {
  const M = world._M;
  const status = M._tb_body_get_state(world._id, id, world._t._scratch);
  if (status !== 0) {
    throw errorFor(status, M.UTF8ToString(M._tb_last_error(world._id)).replace(/^getState:/, `${fn}:`));
  }
  const v = new Float32Array(heapBuffer(M), world._t._scratch + 4 * first, n);
  for (let i = 0; i < n; i++) out[i] = v[i];
  return out;
}

/** Slot of a body id in the body views (the engine's id index mask). */
export function bodySlot(world, id) {
  return id & engineTables(world._M).constants.idIndexMask;
}

export function setMaxContactImpulse(world, id, maxImpulse) {
  world._check(world._M._tb_body_set_max_contact_impulse(world._id, id, impulseCap('setMaxContactImpulse', maxImpulse)));
}

export function setSolverIterations(world, id, position = -1, velocity = -1) {
  const fn = 'setSolverIterations';
  world._check(world._M._tb_body_set_solver_iterations(world._id, id, int(fn, 'positionIterations', position),
    int(fn, 'velocityIterations', velocity)));
}
