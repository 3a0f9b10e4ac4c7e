/**
 * Queries: ray casts and shape overlaps against the current body poses, with the query filter
 * (tb_query_filter) and hits (tb_ray_hit) read through the engine's layouts.
 * @module tribo/queries
 */
import { checkKeys, finiteVec, real, int, uint32 } from './check.js';
import { bodyOrNone } from './ids.js';
import { LIMITS } from './limits.js';
import { engineTables, heapBuffer, readValues, writeStruct } from './fields.js';
import { checkAs } from './filtering.js';
import { PARAM_SHAPE_OPTIONS, shapeParams, shapeType } from './shapes.js';

const QUERY_OPTIONS = new Set(['maxDistance', 'skipBody', 'mask', 'capacity']);
const OVERLAP_OPTIONS = new Set(['position', 'rotation', 'skipBody', 'mask', 'capacity']);
/* scratch layout (floats): origin or params at 0, direction or position at 4, rotation at 8;
 * the filter after them, then the single hit or the requested count */
const FILTER_AFTER_RAY = 8, FILTER_AFTER_OVERLAP = 12;

/** Writes a tb_query_filter into scratch (offset in floats); returns its address or 0. */
function queryFilter(world, fn, o, offset) {
  if (o.skipBody === undefined && o.mask === undefined) return 0;
  const M = world._M;
  const p = world._t._scratch + 4 * offset;
  writeStruct(M, engineTables(M).layouts.queryFilter, p,
    { skipBody: o.skipBody === undefined ? -1 : bodyOrNone(world, fn, 'skipBody', o.skipBody), mask: uint32(fn, 'mask', o.mask ?? 0xffffffff) });
  return p;
}

/** Address after the filter (a filter is written there or not). */
function afterFilter(world, offset) {
  return world._t._scratch + 4 * offset + engineTables(world._M).layouts.queryFilter.size;
}

/* results a query may return: its scratch memory is allocated for them, so it is bounded */
function capacity(fn, options) {
  return int(fn, 'capacity', options.capacity, 64, 0, LIMITS.queryCapacity);
}

/* engine memory for a query's results; a named error instead of a NULL the engine would refuse */
function scratch(world, fn, bytes) {
  const p = world._M._malloc(Math.max(4, bytes));
  if (!p) throw new RangeError(`${fn}: out of memory for the results (${bytes} bytes): lower capacity`);
  return p;
}

/** World.rayCast: the closest hit or null. */
export function rayCast(world, origin, direction, options = {}) {
  const fn = 'rayCast';
  world._alive(fn);
  checkKeys(fn, '', options, QUERY_OPTIONS);
  if (options.capacity !== undefined) throw new RangeError(`${fn}: capacity applies to rayCastAll only`);
  const M = world._M;
  const o = world._put(0, finiteVec(fn, 'origin', origin, 3));
  const d = world._put(4, finiteVec(fn, 'direction', direction, 3));
  const f = queryFilter(world, fn, options, FILTER_AFTER_RAY);
  const hit = afterFilter(world, FILTER_AFTER_RAY);
  const r = M._tb_world_ray_cast(world._id, o, d, real(fn, 'maxDistance', options.maxDistance, { fallback: Infinity, min: 0, above: true, infinite: true }), f, hit);
  if (r < 0) checkAs(world, fn, fn, -r);
  return r === 1 ? readValues(M, engineTables(M).layouts.rayHit, hit) : null;
}

/** World.rayCastAll: every hit, nearest first, at most `capacity`. */
export function rayCastAll(world, origin, direction, options = {}) {
  const fn = 'rayCastAll';
  world._alive(fn);
  checkKeys(fn, '', options, QUERY_OPTIONS);
  const cap = capacity(fn, options);
  const M = world._M;
  const layout = engineTables(M).layouts.rayHit;
  const o = world._put(0, finiteVec(fn, 'origin', origin, 3));
  const d = world._put(4, finiteVec(fn, 'direction', direction, 3));
  const f = queryFilter(world, fn, options, FILTER_AFTER_RAY);
  const req = afterFilter(world, FILTER_AFTER_RAY);
  const buf = scratch(world, fn, layout.size * cap);
  try {
    const n = M._tb_world_ray_cast_all(world._id, o, d, real(fn, 'maxDistance', options.maxDistance, { fallback: Infinity, min: 0, above: true, infinite: true }), f, buf, cap, req);
    if (n < 0) checkAs(world, fn, fn, -n);
    const hits = [];
    for (let i = 0; i < n; i++) hits.push(readValues(M, layout, buf + layout.size * i));
    const requested = new Int32Array(heapBuffer(M), req, 1)[0];
    return { hits, requested, overflowed: requested > cap };
  } finally {
    M._free(buf);
  }
}

/** World.overlap: shapes overlapping a query shape at a world pose. */
export function overlap(world, shape, options = {}) {
  const fn = 'overlap';
  world._alive(fn);
  if (shape == null || typeof shape !== 'object') throw new TypeError(`${fn}: shape must be a shape descriptor (got ${JSON.stringify(shape)})`);
  checkKeys(`${fn}: shape`, '', shape, PARAM_SHAPE_OPTIONS);
  checkKeys(fn, '', options, OVERLAP_OPTIONS);
  const cap = capacity(fn, options);
  const M = world._M;
  const params = world._put(0, shapeParams(M, `${fn}: shape`, shape));
  const pos = world._put(4, finiteVec(fn, 'position', options.position, 3, [0, 0, 0]));
  const rot = world._put(8, finiteVec(fn, 'rotation', options.rotation, 4, [0, 0, 0, 1]));
  const f = queryFilter(world, fn, options, FILTER_AFTER_OVERLAP);
  const req = afterFilter(world, FILTER_AFTER_OVERLAP);
  const buf = scratch(world, fn, 4 * cap);
  try {
    const n = M._tb_world_overlap(world._id, shapeType(M, `${fn}: shape`, shape.type), params, pos, rot, f, buf, cap, req);
    if (n < 0) checkAs(world, fn, fn, -n);
    const shapes = Array.from(new Int32Array(heapBuffer(M), buf, n));
    const requested = new Int32Array(heapBuffer(M), req, 1)[0];
    return { shapes, requested, overflowed: requested > cap };
  } finally {
    M._free(buf);
  }
}

const DISTANCE_OPTIONS = new Set(['maxDistance']);

/** World.shapeDistance: signed distance of two convex shapes and the routine that answered, or null. */
export function shapeDistance(world, a, b, options = {}) {
  const fn = 'shapeDistance';
  world._alive(fn);
  checkKeys(fn, '', options, DISTANCE_OPTIONS);
  const M = world._M;
  const max = real(fn, 'maxDistance', options.maxDistance, { fallback: LIMITS.length.max, min: 0, max: LIMITS.length.max });
  const out = world._t._scratch;
  const r = M._tb_world_shape_distance(world._id, a, b, max, out);
  if (r < 0) checkAs(world, fn, fn, -r);
  return r === 0 ? null : readValues(M, engineTables(M).layouts.pairDistance, out);
}

/** World.shapeSupport: a hull's support vertex along a world direction, support field against exact scan. */
export function shapeSupport(world, shape, direction) {
  const fn = 'shapeSupport';
  world._alive(fn);
  const M = world._M;
  const d = world._put(0, finiteVec(fn, 'direction', direction, 3));
  const out = world._t._scratch + 16;
  checkAs(world, fn, fn, M._tb_shape_support(world._id, shape, d, out));
  return readValues(M, engineTables(M).layouts.supportQuery, out);
}
