/**
 * Bodies: addBody with its shapes and settings (all or nothing), removal, pose, velocity, mass
 * and state, and the PhysX per-body solver settings.
 * @module tribo/bodies
 */
import { errorFor } from './errors.js';
import { checkKeys, vec, num, int } from './check.js';
import { engineTables, heapBuffer } from './fields.js';
import { addShape } from './shapes.js';
import { setParent, setSleeping } from './filtering.js';

const BODY_OPTIONS = new Set(['type', 'position', 'rotation', 'linearVelocity', 'angularVelocity',
  'linearDamping', 'angularDamping', 'mass', 'shapes', 'maxContactImpulse', 'solverIterations',
  /* filtering */ 'parent', 'sleeping']);
const MASS_OPTIONS = new Set(['mass', 'center', 'inertia']);
const ITERATION_OPTIONS = new Set(['position', 'velocity']);

/** World.addBody: returns the id; on any error nothing is added. */
export function addBody(world, desc = {}) {
  const fn = 'addBody';
  world._alive(fn);
  checkKeys(fn, '', desc, BODY_OPTIONS);
  const M = world._M;
  const type = desc.type ?? 'dynamic';
  const typeIndex = engineTables(M).enums.bodyType.indexOf(type);
  if (typeIndex < 0) throw new RangeError(`${fn}: type must be 'static', 'kinematic' or 'dynamic' (got ${JSON.stringify(type)})`);
  const pos = world._put(0, vec(fn, 'position', desc.position, 3, [0, 0, 0]));
  const rot = world._put(4, vec(fn, 'rotation', desc.rotation, 4, [0, 0, 0, 1]));
  const shapes = desc.shapes ?? [];
  if (!Array.isArray(shapes)) throw new TypeError(`${fn}: shapes must be an array (got ${JSON.stringify(shapes)})`);
  const lv = vec(fn, 'linearVelocity', desc.linearVelocity, 3, null);
  const av = vec(fn, 'angularVelocity', desc.angularVelocity, 3, null);
  const ld = num(fn, 'linearDamping', desc.linearDamping, 0);
  const ad = num(fn, 'angularDamping', desc.angularDamping, 0);
  const id = M._tb_body_create(world._id, typeIndex, pos, rot);
  if (id < 0) world._check(-id);
  world._version++;
  try {
    shapes.forEach((s, i) => addShape(world, id, s, `${fn}: shapes[${i}]`));
    if (lv || av) {
      world._check(M._tb_body_set_velocity(world._id, id, world._put(0, lv ?? [0, 0, 0]), world._put(4, av ?? [0, 0, 0])));
    }
    if (ld || ad) world._check(M._tb_body_set_damping(world._id, id, ld, ad));
    if (desc.mass !== undefined) setMass(world, id, desc.mass);
    if (desc.parent !== undefined) setParent(world, id, desc.parent, fn);
    if (desc.sleeping !== undefined) setSleeping(world, id, desc.sleeping, fn);
    if (desc.maxContactImpulse !== undefined) setMaxContactImpulse(world, id, desc.maxContactImpulse);
    if (desc.solverIterations !== undefined) {
      const it = desc.solverIterations;
      if (it == null || typeof it !== 'object') throw new TypeError(`${fn}: solverIterations must be { position, velocity } (got ${JSON.stringify(it)})`);
      checkKeys(`${fn}: solverIterations`, '', it, ITERATION_OPTIONS);
      setSolverIterations(world, id, it.position ?? -1, it.velocity ?? -1);
    }
  } catch (e) {
    /* takes the creation back with its shapes: no id or slot consumed */
    if (M._tb_body_discard(world._id, id) !== 0) M._tb_body_destroy(world._id, id);
    world._shapeIds.delete(id);
    world._hulls.delete(id);
    throw e;
  }
  return id;
}

export function removeBody(world, id) {
  world._alive('removeBody');
  world._check(world._M._tb_body_destroy(world._id, id));
  world._shapeIds.delete(id);
  world._hulls.delete(id);
  world._version++;
}

export function setPose(world, id, position, rotation = [0, 0, 0, 1]) {
  world._alive('setPose');
  const p = world._put(0, vec('setPose', 'position', position, 3));
  const q = world._put(4, vec('setPose', 'rotation', rotation, 4));
  world._check(world._M._tb_body_set_pose(world._id, id, p, q));
}

export function setVelocity(world, id, linear, angular = [0, 0, 0]) {
  world._alive('setVelocity');
  const l = world._put(0, vec('setVelocity', 'linear', linear, 3));
  const a = world._put(4, vec('setVelocity', 'angular', angular, 3));
  world._check(world._M._tb_body_set_velocity(world._id, id, l, a));
}

export function setMass(world, id, m) {
  const fn = 'setMass';
  world._alive(fn);
  if (m == null || typeof m !== 'object') throw new TypeError(`${fn}: expected { mass, center?, inertia } (got ${JSON.stringify(m)})`);
  checkKeys(fn, '', m, MASS_OPTIONS);
  const c = world._put(0, vec(fn, 'center', m.center, 3, [0, 0, 0]));
  const i = world._put(4, vec(fn, 'inertia', m.inertia, 3));
  world._check(world._M._tb_body_set_mass(world._id, id, num(fn, 'mass', m.mass), c, i));
}

/** tb_body_get_mass's 13 floats: mass, centre (3), inertia (3x3 row-major). */
export function getMass(world, id) {
  world._alive('getMass');
  world._check(world._M._tb_body_get_mass(world._id, id, world._t._scratch));
  const v = new Float32Array(heapBuffer(world._M), world._t._scratch, 13);
  return { mass: v[0], center: [v[1], v[2], v[3]], inertia: Array.from(v.subarray(4, 13)) };
}

/** Values [first, first + n) of tb_body_get_state's 13 (position, rotation, linear, angular velocity) into out. */
export function stateSlice(world, fn, id, first, n, out) {
  world._alive(fn);
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
  const fn = 'setMaxContactImpulse';
  world._alive(fn);
  world._check(world._M._tb_body_set_max_contact_impulse(world._id, int(fn, 'id', id), num(fn, 'maxContactImpulse', maxImpulse)));
}

export function setSolverIterations(world, id, position = -1, velocity = -1) {
  const fn = 'setSolverIterations';
  world._alive(fn);
  world._check(world._M._tb_body_set_solver_iterations(world._id, int(fn, 'id', id), int(fn, 'positionIterations', position),
    int(fn, 'velocityIterations', velocity)));
}
