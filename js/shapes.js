/**
 * Shapes: descriptors checked and turned into engine calls (primitive parameters, heightfield and
 * mesh arrays, convex hulls), distances and material at creation, the body's shape list, hull
 * statistics. Shape type names come from the engine (tb_shape_type).
 * @module tribo/shapes
 */
import { errorFor } from './errors.js';
import { checkKeys, vec, num, int, need } from './check.js';
import { engineTables, heapBuffer, readStruct } from './fields.js';
import { DEFAULT_MATERIAL, setMaterial } from './materials.js';
import { FILTER_KEYS, writeShapeFilter } from './filtering.js';

const SHAPE_OPTIONS = new Set(['type', 'radius', 'halfExtents', 'halfHeight', 'normal', 'offset',
  'position', 'rotation', 'friction', 'restitution', 'density',
  /* filtering */ 'world', 'collisionGroup', 'contype', 'conaffinity', 'filterData', 'trigger',
  /* distances */ 'margin', 'gap', 'contactOffset', 'restOffset', 'material',
  /* heightfield and mesh */ 'rows', 'cols', 'heights', 'cellSize', 'vertices', 'indices',
  /* convex */ 'radii', 'points', 'supportField']);
/** Keys of a query shape (World.overlap): the shapes described by parameters alone. */
export const PARAM_SHAPE_OPTIONS = new Set(['type', 'radius', 'halfExtents', 'halfHeight', 'normal', 'offset', 'radii']);
const SUPPORT_FIELD_OPTIONS = new Set(['resolution']);

/** tb_shape_type of a descriptor's type name. */
export function shapeType(M, where, type) {
  const names = engineTables(M).enums.shapeType;
  const i = names.indexOf(type);
  if (i < 0) throw new RangeError(`${where}.type must be one of ${names.join(', ')} (got ${JSON.stringify(type)})`);
  return i;
}

/** Shape parameters (4 numbers) of a shape descriptor; `where` names the caller and entry. */
export function shapeParams(M, where, s) {
  shapeType(M, where, s.type);
  switch (s.type) {
    case 'plane': {
      const n = vec(where, 'normal', s.normal, 3, [0, 1, 0]);
      return [n[0], n[1], n[2], num(where, 'offset', s.offset, 0)];
    }
    case 'sphere': return [num(where, 'radius', need(where, s, 'radius')), 0, 0, 0];
    case 'capsule':
    case 'cylinder': return [num(where, 'radius', need(where, s, 'radius')), num(where, 'halfHeight', need(where, s, 'halfHeight')), 0, 0];
    case 'ellipsoid': { const r = vec(where, 'radii', need(where, s, 'radii'), 3); return [r[0], r[1], r[2], 0]; }
    case 'hull':
    case 'heightfield':
    case 'mesh': throw new RangeError(`${where}.type ${s.type} is built from data, not parameters`);
    default: { const h = vec(where, 'halfExtents', need(where, s, 'halfExtents'), 3); return [h[0], h[1], h[2], 0]; }
  }
}

/** The engine's message of a failed shape call, said as `where` (the descriptor). */
function shapeError(world, status, where, cName) {
  const msg = world._M.UTF8ToString(world._M._tb_last_error(world._id)).replace(new RegExp(`^${cName}: `), '');
  return errorFor(status, `${where}: ${msg}`);
}

/** Adds shape descriptor `s` to a body; returns the shape id (addBody removes the body on error). */
export function addShape(world, body, s, where) {
  if (s == null || typeof s !== 'object') throw new TypeError(`${where} must be an object (got ${JSON.stringify(s)})`);
  checkKeys(where, '', s, SHAPE_OPTIONS);
  if (s.type === 'heightfield' || s.type === 'mesh') return shapeAdded(world, where, body, s, addStaticGeometry(world, body, s, where));
  if (s.type === 'hull') {
    if (s.points === undefined) throw new TypeError(`${where}.points is required for a hull`);
    return shapeAdded(world, where, body, s, addHull(world, body, s, where, s.points));
  }
  const M = world._M;
  const params = shapeParams(M, where, s);
  const pp = world._put(0, params);
  const lp = world._put(4, vec(where, 'position', s.position, 3, [0, 0, 0]));
  const lr = world._put(8, vec(where, 'rotation', s.rotation, 4, [0, 0, 0, 1]));
  const r = M._tb_shape_create(world._id, body, engineTables(M).enums.shapeType.indexOf(s.type), pp, lp, lr,
    num(where, 'friction', s.friction, DEFAULT_MATERIAL.friction),
    num(where, 'restitution', s.restitution, DEFAULT_MATERIAL.restitution),
    num(where, 'density', s.density, DEFAULT_MATERIAL.density));
  if (r < 0) throw shapeError(world, -r, where, 'addShape');
  if (s.margin !== undefined || s.gap !== undefined || s.contactOffset !== undefined || s.restOffset !== undefined) {
    const status = M._tb_shape_set_distances(world._id, r, num(where, 'margin', s.margin, 0), num(where, 'gap', s.gap, 0),
      num(where, 'contactOffset', s.contactOffset, 0), num(where, 'restOffset', s.restOffset, 0));
    if (status !== 0) throw shapeError(world, status, where, 'setShapeDistances');
  }
  if (s.material !== undefined) setMaterial(world, r, s.material, `${where}.material`);
  return shapeAdded(world, where, body, s, r);
}

/* a created shape's filter fields, and its id in the body's list */
function shapeAdded(world, where, body, s, r) {
  if (FILTER_KEYS.some((k) => s[k] !== undefined)) writeShapeFilter(world, where, r, s);
  let list = world._shapeIds.get(body);
  if (!list) world._shapeIds.set(body, (list = []));
  list.push(r);
  return r;
}

/* heightfield and mesh shapes: arrays copied into engine memory for the call */
function addStaticGeometry(world, body, s, where) {
  const M = world._M;
  const numbers = (field, v, multiple, isInt) => {
    if (v == null || typeof v.length !== 'number' || typeof v === 'string') {
      throw new TypeError(`${where}.${field} must be an array of numbers (got ${JSON.stringify(v)})`);
    }
    if (v.length % multiple !== 0) throw new RangeError(`${where}.${field} length must be a multiple of ${multiple} (got ${v.length})`);
    if (!ArrayBuffer.isView(v) || isInt) {
      for (let i = 0; i < v.length; i++) {
        if (typeof v[i] !== 'number') throw new TypeError(`${where}.${field}[${i}] must be a number (got ${JSON.stringify(v[i])})`);
        if (isInt && !Number.isInteger(v[i])) throw new RangeError(`${where}.${field}[${i}] must be an integer (got ${v[i]})`);
      }
    }
    return v;
  };
  if (s.density !== undefined) throw new RangeError(`${where}.density does not apply to a ${s.type} (static shapes have no mass)`);
  const lp = world._put(0, vec(where, 'position', s.position, 3, [0, 0, 0]));
  const lr = world._put(4, vec(where, 'rotation', s.rotation, 4, [0, 0, 0, 1]));
  const friction = num(where, 'friction', s.friction, DEFAULT_MATERIAL.friction);
  const restitution = num(where, 'restitution', s.restitution, DEFAULT_MATERIAL.restitution);
  const blocks = [];
  const copy = (values, Type) => {
    const p = M._malloc(Math.max(4, 4 * values.length));
    if (!p) throw new RangeError(`${where}: out of memory for ${values.length} values`);
    blocks.push(p);
    new Type(heapBuffer(M), p, values.length).set(values);
    return p;
  };
  let r;
  try {
    if (s.type === 'heightfield') {
      const rows = int(where, 'rows', need(where, s, 'rows')), cols = int(where, 'cols', need(where, s, 'cols'));
      const heights = numbers('heights', need(where, s, 'heights'), 1, false);
      if (rows >= 2 && cols >= 2 && heights.length !== rows * cols) {
        throw new RangeError(`${where}.heights must hold rows × cols = ${rows * cols} values (got ${heights.length})`);
      }
      const cell = vec(where, 'cellSize', need(where, s, 'cellSize'), 2);
      const hp = copy(heights.length === rows * cols ? heights : [], Float32Array);
      r = M._tb_shape_create_heightfield(world._id, body, rows, cols, hp, cell[0], cell[1], lp, lr, friction, restitution);
    } else {
      const vertices = numbers('vertices', need(where, s, 'vertices'), 3, false);
      const indices = numbers('indices', need(where, s, 'indices'), 3, true);
      const vp = copy(vertices, Float32Array), ip = copy(indices, Int32Array);
      r = M._tb_shape_create_mesh(world._id, body, vp, vertices.length / 3, ip, indices.length / 3, lp, lr, friction, restitution);
    }
  } finally {
    for (const p of blocks) M._free(p);
  }
  if (r < 0) throw shapeError(world, -r, where, 'addShape');
  return r;
}

/** Convex hull shape from a flat array (or Float32Array) of x, y, z point coordinates (m, shape frame). */
function addHull(world, body, s, where, points) {
  if (points == null || typeof points.length !== 'number' || typeof points === 'string') {
    throw new TypeError(`${where}.points must be an array or Float32Array of x, y, z numbers (got ${JSON.stringify(points)})`);
  }
  if (points.length % 3 !== 0) {
    throw new RangeError(`${where}.points length must be a multiple of 3 (x, y, z per point) (got ${points.length})`);
  }
  if (!(points instanceof Float32Array)) {
    for (let i = 0; i < points.length; i++) {
      if (typeof points[i] !== 'number') throw new TypeError(`${where}.points[${i}] must be a number (got ${JSON.stringify(points[i])})`);
    }
  }
  let res = -1;
  if (s.supportField !== undefined) {
    checkKeys(`${where}.supportField`, '', s.supportField, SUPPORT_FIELD_OPTIONS);
    res = num(`${where}.supportField`, 'resolution', s.supportField.resolution);
    if (!Number.isInteger(res)) throw new RangeError(`${where}: supportField.resolution must be an integer (got ${res})`);
  }
  const M = world._M;
  const lp = world._put(4, vec(where, 'position', s.position, 3, [0, 0, 0]));
  const lr = world._put(8, vec(where, 'rotation', s.rotation, 4, [0, 0, 0, 1]));
  const friction = num(where, 'friction', s.friction, DEFAULT_MATERIAL.friction);
  const restitution = num(where, 'restitution', s.restitution, DEFAULT_MATERIAL.restitution);
  const density = num(where, 'density', s.density, DEFAULT_MATERIAL.density);
  const ptr = M._malloc(4 * Math.max(points.length, 1));
  if (!ptr) throw new RangeError(`${where}: out of memory for ${points.length / 3} hull points`);
  let r;
  try {
    new Float32Array(heapBuffer(M), ptr, points.length).set(points);
    r = M._tb_shape_create_hull_ex(world._id, body, ptr, points.length / 3, res, lp, lr, friction, restitution, density);
  } finally {
    M._free(ptr);
  }
  if (r < 0) throw shapeError(world, -r, where, 'addHull');
  if (!world._hulls.has(body)) world._hulls.set(body, []);
  world._hulls.get(body).push(r);
  return r;
}

/** World.hullInfo: tb_hull_info of a body's `index`-th hull shape. */
export function hullInfo(world, body, index = 0) {
  const fn = 'hullInfo';
  world._alive(fn);
  const list = world._hulls.get(body);
  if (!list || !Number.isInteger(index) || index < 0 || index >= list.length) {
    throw new RangeError(`${fn}: body ${body} has no hull shape number ${index} (it has ${list ? list.length : 0})`);
  }
  const M = world._M;
  world._check(M._tb_shape_get_hull(world._id, list[index], world._t._scratch));
  return readStruct(M, engineTables(M).layouts.hullInfo, world._t._scratch);
}

/** World.shapesOf: shape ids of a body from the engine, in creation order. */
export function shapesOf(world, bodyId) {
  world._alive('shapesOf');
  const M = world._M;
  const n = M._tb_body_get_shapes(world._id, bodyId, 0, 0);
  if (n < 0) world._check(-n);
  const big = 4 * n > 4096;
  const p = big ? M._malloc(4 * n) : world._t._scratch;
  try {
    const r = M._tb_body_get_shapes(world._id, bodyId, p, n);
    if (r < 0) world._check(-r);
    return Array.from(new Int32Array(heapBuffer(M), p, n));
  } finally {
    if (big) M._free(p);
  }
}
