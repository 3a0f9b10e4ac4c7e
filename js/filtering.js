/**
 * Filtering: per-shape filter fields (tb_shape_filter by the engine's layout), body parents,
 * sleep, pair exclusions, the explicit pair list and MuJoCo contact pairs.
 * @module tribo/filtering
 */
import { errorFor } from './errors.js';
import { checkKeys, vec, finiteVec, real, int, uint32, boolean } from './check.js';
import { bodyId, shapeId } from './ids.js';
import { engineTables, heapBuffer, readValues, writeStruct } from './fields.js';

/** Descriptor keys that are shape filter fields (addBody shapes and setShapeFilter). */
export const FILTER_KEYS = ['world', 'collisionGroup', 'contype', 'conaffinity', 'filterData', 'trigger'];
const SHAPE_FILTER_OPTIONS = new Set(FILTER_KEYS);
const CONTACT_PAIR_OPTIONS = new Set(['margin', 'gap', 'friction', 'condim', 'solref', 'solreffriction', 'solimp', 'adhesion']);
/** MuJoCo's default friction of an explicit pair: sliding ×2, torsional (m), rolling ×2 (m). */
const MUJOCO_PAIR_FRICTION = [1, 1, 0.005, 0.0001, 0.0001];

/** Errors of the engine, renamed from the C API's name `cName` to the calling JS function. */
export function checkAs(world, fn, cName, status) {
  if (status === 0) return;
  const M = world._M;
  const msg = M.UTF8ToString(M._tb_last_error(world._id));
  throw errorFor(status, fn === cName ? msg : msg.replace(new RegExp(`^${cName}:`), `${fn}:`));
}

/** Checks the filter fields given in `f`; returns them as tb_shape_filter members. Errors name `fn`. */
export function filterValues(fn, f) {
  const v = {};
  if (f.world !== undefined) v.world = int(fn, 'world', f.world);
  if (f.collisionGroup !== undefined) v.collisionGroup = int(fn, 'collisionGroup', f.collisionGroup);
  if (f.contype !== undefined) v.contype = uint32(fn, 'contype', f.contype);
  if (f.conaffinity !== undefined) v.conaffinity = uint32(fn, 'conaffinity', f.conaffinity);
  if (f.filterData !== undefined) {
    const d = vec(fn, 'filterData', f.filterData, 4);
    v.filterData = d.map((x, k) => uint32(fn, `filterData[${k}]`, x));
  }
  if (f.trigger !== undefined) v.trigger = boolean(fn, 'trigger', f.trigger) ? 1 : 0;
  return v;
}

/** Writes checked filter members `v` (filterValues) over the shape's current ones; errors name `fn`. */
export function applyShapeFilter(world, fn, shape, v) {
  const M = world._M;
  const layout = engineTables(M).layouts.shapeFilter;
  const p = world._t._scratch;
  const st = M._tb_shape_get_filter(world._id, shape, p);
  if (st !== 0) checkAs(world, fn, 'getShapeFilter', st);
  writeStruct(M, layout, p, v);
  const status = M._tb_shape_set_filter(world._id, shape, p);
  if (status !== 0) {
    const msg = M.UTF8ToString(M._tb_last_error(world._id)).replace(/^setShapeFilter: /, '');
    throw errorFor(status, `${fn}: ${msg}`);
  }
}

export function setShapeFilter(world, shape, f) {
  const fn = 'setShapeFilter';
  world._alive(fn);
  checkKeys(fn, '', f, SHAPE_FILTER_OPTIONS);
  applyShapeFilter(world, fn, shape, filterValues(fn, f));
}

export function getShapeFilter(world, shape) {
  const fn = 'getShapeFilter';
  world._alive(fn);
  const M = world._M;
  checkAs(world, fn, fn, M._tb_shape_get_filter(world._id, shape, world._t._scratch));
  return readValues(M, engineTables(M).layouts.shapeFilter, world._t._scratch);
}

/** Shape ids of a body as this world added them, in creation order. */
export function shapeIds(world, body) {
  world._alive('shapeIds');
  const list = world._shapeIds.get(body);
  if (!list) throw new RangeError(`shapeIds: body ${body} does not exist (never created or removed)`);
  return list.slice();
}

export function setParent(world, id, parent, fn = 'setParent') {
  checkAs(world, fn, 'setParent', world._M._tb_body_set_parent(world._id, id, parent));
}

export function getParent(world, id) {
  world._alive('getParent');
  const p = world._t._scratch;
  checkAs(world, 'getParent', 'getParent', world._M._tb_body_get_parent(world._id, id, p));
  return new Int32Array(heapBuffer(world._M), p, 1)[0];
}

export function setSleeping(world, id, asleep, fn = 'setSleeping') {
  boolean(fn, 'sleeping', asleep);
  checkAs(world, fn, 'setSleeping', world._M._tb_body_set_sleeping(world._id, id, asleep ? 1 : 0));
}

export function isSleeping(world, id) {
  world._alive('isSleeping');
  const r = world._M._tb_body_is_sleeping(world._id, id);
  if (r < 0) checkAs(world, 'isSleeping', 'isSleeping', -r);
  return r === 1;
}

/** The island of a dynamic body after the last step: the id of the body naming it, -1 none. */
export function island(world, id) {
  world._alive('island');
  const r = world._M._tb_body_island(world._id, id);
  if (r < -1) checkAs(world, 'island', 'island', -r);
  return r;
}

/**
 * A dynamic body's automatic-sleep counters after the last step, what its world's rule decides on
 * (docs/sleeping.md; tb_sleep_state by the engine's layout, members and units in js/generated.d.ts):
 * the rule, and the counters of that rule; the other rule's counters are null (not computed).
 */
export function sleepState(world, id) {
  const fn = 'sleepState';
  world._alive(fn);
  const M = world._M, p = world._t._scratch;
  world._check(M._tb_body_sleep_state(world._id, id, p));
  return readValues(M, engineTables(M).layouts.sleepState, p);
}

/** { shapes: [a, b] } (Newton shape pair) or { bodies: [a, b] } (MuJoCo exclude) in or out of the exclusions. */
export function excludePair(world, pair, excluded = true) {
  const fn = 'excludePair';
  world._alive(fn);
  if (pair == null || typeof pair !== 'object' || (pair.shapes === undefined) === (pair.bodies === undefined) ||
      Object.keys(pair).length !== 1) {
    throw new TypeError(`${fn}: expected { shapes: [a, b] } or { bodies: [a, b] } (got ${JSON.stringify(pair)})`);
  }
  boolean(fn, 'excluded', excluded);
  const M = world._M;
  if (pair.shapes !== undefined) {
    const [a, b] = vec(fn, 'shapes', pair.shapes, 2);
    shapeId(world, fn, 'shapes[0]', a);
    shapeId(world, fn, 'shapes[1]', b);
    checkAs(world, fn, 'excludeShapePair', M._tb_world_set_shape_pair_excluded(world._id, a, b, excluded ? 1 : 0));
  } else {
    const [a, b] = vec(fn, 'bodies', pair.bodies, 2);
    bodyId(world, fn, 'bodies[0]', a);
    bodyId(world, fn, 'bodies[1]', b);
    checkAs(world, fn, 'excludeBodyPair', M._tb_world_set_body_pair_excluded(world._id, a, b, excluded ? 1 : 0));
  }
}

/** The pair list of broadPhase 'explicit' (replaces the previous list). */
export function setExplicitPairs(world, pairs) {
  const fn = 'setExplicitPairs';
  world._alive(fn);
  if (!Array.isArray(pairs)) throw new TypeError(`${fn}: pairs must be an array of [shapeA, shapeB] (got ${JSON.stringify(pairs)})`);
  const M = world._M;
  const n = pairs.length;
  const p = M._malloc(Math.max(8, 8 * n));
  try {
    const ids = new Int32Array(heapBuffer(M), p, 2 * n);
    pairs.forEach((pr, i) => {
      const [a, b] = vec(fn, `pairs[${i}]`, pr, 2);
      ids[2 * i] = shapeId(world, fn, `pairs[${i}][0]`, a);
      ids[2 * i + 1] = shapeId(world, fn, `pairs[${i}][1]`, b);
    });
    checkAs(world, fn, fn, M._tb_world_set_explicit_pairs(world._id, p, n));
  } finally {
    M._free(p);
  }
}

/** MuJoCo explicit pair of two shapes with its own tb_contact_pair_params; params null removes it. */
export function setContactPair(world, a, b, params) {
  const fn = 'setContactPair';
  world._alive(fn);
  const M = world._M;
  let p = 0;
  if (params !== null) {
    checkKeys(fn, '', params, CONTACT_PAIR_OPTIONS);
    p = world._t._scratch;
    /* MuJoCo's pair defaults; the engine validates the ranges and names the field */
    writeStruct(M, engineTables(M).layouts.contactPair, p, { margin: real(fn, 'margin', params.margin, { fallback: 0 }),
      gap: real(fn, 'gap', params.gap, { fallback: 0 }), friction: finiteVec(fn, 'friction', params.friction, 5, MUJOCO_PAIR_FRICTION),
      condim: int(fn, 'condim', params.condim, 3), solref: finiteVec(fn, 'solref', params.solref, 2, [0.02, 1]),
      solreffriction: finiteVec(fn, 'solreffriction', params.solreffriction, 2, [0, 0]),
      solimp: finiteVec(fn, 'solimp', params.solimp, 5, [0.9, 0.95, 0.001, 0.5, 2]),
      adhesion: real(fn, 'adhesion', params.adhesion, { fallback: 0 }) });
  }
  checkAs(world, fn, fn, M._tb_world_set_contact_pair(world._id, a, b, p));
}

