/**
 * Shapes: descriptors checked and turned into engine calls (primitive parameters, heightfield and
 * mesh arrays, convex hulls), distances and material at creation, the body's shape list, hull
 * statistics. Shape type names come from the engine (tb_shape_type).
 * @module tribo/shapes
 */
import { errorFor } from './errors.js';
import { checkKeys, vec, finiteVec, real, int, need, show, FLT_MAX, INT32_MAX } from './check.js';
import { engineTables, heapBuffer, readValues } from './fields.js';
import { LIMITS } from './limits.js';
import { DEFAULT_MATERIAL, materialWriter, applyMaterial } from './materials.js';
import { FILTER_KEYS, filterValues, applyShapeFilter } from './filtering.js';

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

const length = (where, field, v) => real(where, field, v, { min: LIMITS.length.min, max: LIMITS.length.max });
const lengths = (where, field, v) => {
  vec(where, field, v, 3);
  return [0, 1, 2].map((i) => length(where, `${field}[${i}]`, v[i]));
};

/** Shape parameters (4 numbers) of a shape descriptor; `where` names the caller and entry. */
export function shapeParams(M, where, s) {
  shapeType(M, where, s.type);
  switch (s.type) {
    case 'plane': {
      const n = finiteVec(where, 'normal', s.normal, 3, [0, 1, 0]);
      return [n[0], n[1], n[2], real(where, 'offset', s.offset, { fallback: 0 })];
    }
    case 'sphere': return [length(where, 'radius', need(where, s, 'radius')), 0, 0, 0];
    case 'capsule':
    case 'cylinder': return [length(where, 'radius', need(where, s, 'radius')), length(where, 'halfHeight', need(where, s, 'halfHeight')), 0, 0];
    case 'ellipsoid': return [...lengths(where, 'radii', need(where, s, 'radii')), 0];
    case 'hull':
    case 'heightfield':
    case 'mesh': throw new RangeError(`${where}.type ${s.type} is built from data, not parameters`);
    default: return [...lengths(where, 'halfExtents', need(where, s, 'halfExtents')), 0];
  }
}

/** The engine's message of a failed shape call, said as `where` (the descriptor). */
function shapeError(world, status, where, cName) {
  const msg = world._M.UTF8ToString(world._M._tb_last_error(world._id)).replace(new RegExp(`^${cName}: `), '');
  return errorFor(status, `${where}: ${msg}`);
}

/* the material numbers of a descriptor, checked (restitution in [0, 1] before float32 rounding) */
function surface(where, s) {
  return {
    friction: real(where, 'friction', s.friction, { fallback: DEFAULT_MATERIAL.friction, min: 0 }),
    restitution: real(where, 'restitution', s.restitution, { fallback: DEFAULT_MATERIAL.restitution, min: 0, max: 1 }),
    density: s.density === undefined ? DEFAULT_MATERIAL.density
      : real(where, 'density', s.density, { min: LIMITS.density.min, max: LIMITS.density.max }),
  };
}

/**
 * Checks shape descriptor `s` without calling the engine; returns the function that adds it to
 * a body and returns the shape id (addBody checks every shape before it creates the body).
 */
export function prepareShape(world, where, s) {
  if (s == null || typeof s !== 'object') throw new TypeError(`${where} must be an object (got ${show(s)})`);
  checkKeys(where, '', s, SHAPE_OPTIONS);
  const M = world._M;
  shapeType(M, where, s.type);
  const pose = [finiteVec(where, 'position', s.position, 3, [0, 0, 0]), finiteVec(where, 'rotation', s.rotation, 4, [0, 0, 0, 1])];
  const filter = FILTER_KEYS.some((k) => s[k] !== undefined) ? filterValues(where, s) : null;
  const material = s.material !== undefined ? materialWriter(M, `${where}.material`, s.material) : null;
  const distances = s.margin !== undefined || s.gap !== undefined || s.contactOffset !== undefined || s.restOffset !== undefined
    ? ['margin', 'gap', 'contactOffset', 'restOffset'].map((k) => real(where, k, s[k], { fallback: 0 })) : null;
  let create;
  if (s.type === 'heightfield' || s.type === 'mesh') create = prepareStaticGeometry(world, s, where, pose);
  else if (s.type === 'hull') create = prepareHull(world, s, where, pose);
  else {
    const params = shapeParams(M, where, s);
    const { friction, restitution, density } = surface(where, s);
    create = (body) => {
      const r = M._tb_shape_create(world._id, body, engineTables(M).enums.shapeType.indexOf(s.type), world._put(0, params),
        world._put(4, pose[0]), world._put(8, pose[1]), friction, restitution, density);
      if (r < 0) throw shapeError(world, -r, where, 'addShape');
      return r;
    };
  }
  return (body) => {
    const r = create(body);
    if (distances) {
      const status = M._tb_shape_set_distances(world._id, r, ...distances);
      if (status !== 0) throw shapeError(world, status, where, 'setShapeDistances');
    }
    if (material) applyMaterial(world, r, material, `${where}.material`);
    if (filter) applyShapeFilter(world, where, r, filter);
    let list = world._shapeIds.get(body);
    if (!list) world._shapeIds.set(body, (list = []));
    list.push(r);
    return r;
  };
}

/* numbers of an array field, checked: finite (float32), or int32 indices in [0, 2^31) */
function numbers(where, field, v, multiple, isInt) {
  if (v == null || typeof v.length !== 'number' || typeof v === 'string') {
    throw new TypeError(`${where}.${field} must be an array of numbers (got ${show(v)})`);
  }
  if (v.length % multiple !== 0) throw new RangeError(`${where}.${field} length must be a multiple of ${multiple} (got ${v.length})`);
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (typeof x !== 'number') throw new TypeError(`${where}.${field}[${i}] must be a number (got ${show(x)})`);
    if (isInt ? !(Number.isInteger(x) && x >= 0 && x <= INT32_MAX) : !(Math.abs(x) <= FLT_MAX)) {
      throw new RangeError(`${where}.${field}[${i}] must be ${isInt ? 'an integer in [0, 2^31)' : 'finite'} (got ${show(x)})`);
    }
  }
  return v;
}

/* heightfield and mesh shapes: arrays copied into engine memory for the call */
function prepareStaticGeometry(world, s, where, pose) {
  const M = world._M;
  if (s.density !== undefined) throw new RangeError(`${where}.density does not apply to a ${s.type} (static shapes have no mass)`);
  const { friction, restitution } = surface(where, s);
  let rows, cols, heights, cell, vertices, indices;
  if (s.type === 'heightfield') {
    rows = int(where, 'rows', need(where, s, 'rows'));
    cols = int(where, 'cols', need(where, s, 'cols'));
    heights = numbers(where, 'heights', need(where, s, 'heights'), 1, false);
    if (rows >= 2 && cols >= 2 && heights.length !== rows * cols) {
      throw new RangeError(`${where}.heights must hold rows × cols = ${rows * cols} values (got ${heights.length})`);
    }
    cell = finiteVec(where, 'cellSize', need(where, s, 'cellSize'), 2);
  } else {
    vertices = numbers(where, 'vertices', need(where, s, 'vertices'), 3, false);
    indices = numbers(where, 'indices', need(where, s, 'indices'), 3, true);
  }
  return (body) => {
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
      const lp = world._put(0, pose[0]), lr = world._put(4, pose[1]);
      if (s.type === 'heightfield') {
        const hp = copy(heights.length === rows * cols ? heights : [], Float32Array);
        r = M._tb_shape_create_heightfield(world._id, body, rows, cols, hp, cell[0], cell[1], lp, lr, friction, restitution);
      } else {
        const vp = copy(vertices, Float32Array), ip = copy(indices, Int32Array);
        r = M._tb_shape_create_mesh(world._id, body, vp, vertices.length / 3, ip, indices.length / 3, lp, lr, friction, restitution);
      }
    } finally {
      for (const p of blocks) M._free(p);
    }
    if (r < 0) throw shapeError(world, -r, where, 'addShape');
    return r;
  };
}

/** Convex hull shape from a flat array (or Float32Array) of x, y, z point coordinates (m, shape frame). */
function prepareHull(world, s, where, pose) {
  if (s.points === undefined) throw new TypeError(`${where}.points is required for a hull`);
  const points = s.points;
  if (points == null || typeof points.length !== 'number' || typeof points === 'string') {
    throw new TypeError(`${where}.points must be an array or Float32Array of x, y, z numbers (got ${show(points)})`);
  }
  if (points.length % 3 !== 0) {
    throw new RangeError(`${where}.points length must be a multiple of 3 (x, y, z per point) (got ${points.length})`);
  }
  for (let i = 0; i < points.length; i++) {
    const x = points[i];
    if (typeof x !== 'number') throw new TypeError(`${where}.points[${i}] must be a number (got ${show(x)})`);
    if (!(Math.abs(x) <= LIMITS.length.max)) {
      throw new RangeError(`${where}.points[${i}] must be a finite coordinate within ±${LIMITS.length.max} m (got ${show(x)})`);
    }
  }
  let res = -1;
  if (s.supportField !== undefined) {
    checkKeys(`${where}.supportField`, '', s.supportField, SUPPORT_FIELD_OPTIONS);
    res = int(`${where}: supportField`, 'resolution', s.supportField.resolution);
  }
  const { friction, restitution, density } = surface(where, s);
  const M = world._M;
  return (body) => {
    const ptr = M._malloc(4 * Math.max(points.length, 1));
    if (!ptr) throw new RangeError(`${where}: out of memory for ${points.length / 3} hull points`);
    let r;
    try {
      new Float32Array(heapBuffer(M), ptr, points.length).set(points);
      r = M._tb_shape_create_hull_ex(world._id, body, ptr, points.length / 3, res, world._put(4, pose[0]), world._put(8, pose[1]),
        friction, restitution, density);
    } finally {
      M._free(ptr);
    }
    if (r < 0) throw shapeError(world, -r, where, 'addHull');
    if (!world._hulls.has(body)) world._hulls.set(body, []);
    world._hulls.get(body).push(r);
    return r;
  };
}

/** World.hullInfo: tb_hull_info of a body's `index`-th hull shape. */
export function hullInfo(world, body, index = 0) {
  const fn = 'hullInfo';
  int(fn, 'index', index);
  const list = world._hulls.get(body);
  if (!list || !Number.isInteger(index) || index < 0 || index >= list.length) {
    throw new RangeError(`${fn}: body ${body} has no hull shape number ${index} (it has ${list ? list.length : 0})`);
  }
  const M = world._M;
  world._check(M._tb_shape_get_hull(world._id, list[index], world._t._scratch));
  return readValues(M, engineTables(M).layouts.hullInfo, world._t._scratch);
}

/** World.shapesOf: shape ids of a body from the engine, in creation order. */
export function shapesOf(world, bodyId) {
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
