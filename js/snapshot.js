/**
 * Snapshots of an in-process World: the engine's bytes (tb_world_snapshot: every array of the
 * world, versioned, with a layout hash and a checksum) followed by a trailer with the World's own
 * state (preset name, shape and hull id lists, sensor capacities) as checksummed JSON:
 *   engine snapshot | 'TBJS' | u32 length | JSON (UTF-8) | u32 FNV-1a of the JSON
 * Restoring replaces the whole state, so stepping continues bitwise as from the saved world.
 * @module tribo/snapshot
 */
import { SnapshotError } from './errors.js';
import { engineTables, heapBuffer } from './fields.js';

const HEADER = 32; /* TB_SNAPSHOT_HEADER_SIZE */
const TRAILER_MAGIC = 0x534a4254; /* 'TBJS' little-endian */

function fnv1a(bytes) {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 16777619) >>> 0;
  return h >>> 0;
}

/** World.snapshot(): a Uint8Array owned by the caller. */
export function snapshot(world) {
  const fn = 'snapshot';
  world._alive(fn);
  const M = world._M;
  const size = M._tb_world_snapshot(world._id, 0, 0);
  if (size < 0) world._check(-size);
  const js = new TextEncoder().encode(JSON.stringify({
    preset: world.preset,
    shapeIds: [...world._shapeIds], hulls: [...world._hulls], sensorCapacity: [...world._sensorCapacity],
  }));
  const p = M._malloc(size);
  if (!p) throw new RangeError(`${fn}: out of memory for a snapshot of ${size} bytes`);
  try {
    const written = M._tb_world_snapshot(world._id, p, size);
    if (written < 0) world._check(-written);
    const out = new Uint8Array(size + 12 + js.length);
    out.set(new Uint8Array(heapBuffer(M), p, size));
    const dv = new DataView(out.buffer);
    dv.setUint32(size, TRAILER_MAGIC, true);
    dv.setUint32(size + 4, js.length, true);
    out.set(js, size + 8);
    dv.setUint32(size + 8 + js.length, fnv1a(js), true);
    return out;
  } finally {
    M._free(p);
  }
}

function reasonName(M, code) {
  return engineTables(M).enums.snapshotError[code] ?? 'corrupt';
}

/** Splits and checks bytes: { engineSize, state } or a TypeError / SnapshotError naming fn. */
function parse(M, fn, bytes) {
  if (!(bytes instanceof Uint8Array)) {
    throw new TypeError(`${fn}: bytes must be a Uint8Array (got ${bytes === null ? 'null' : typeof bytes})`);
  }
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < HEADER) throw new SnapshotError('truncated', `${fn}: snapshot truncated: ${bytes.length} bytes is shorter than its header`);
  const engineSize = HEADER + dv.getUint32(16, true);
  const fail = (reason, why) => new SnapshotError(reason, `${fn}: snapshot ${reason}: ${why}`);
  if (engineSize + 12 > bytes.length) {
    /* let the engine name a bad header (magic, version) before calling it truncated */
    const code = checkEngine(M, bytes, Math.min(bytes.length, engineSize));
    if (code !== 0 && reasonName(M, code) !== 'truncated') throw fail(reasonName(M, code), 'the engine refused its header');
    throw fail('truncated', `it is shorter than its header says (${bytes.length} bytes)`);
  }
  if (dv.getUint32(engineSize, true) !== TRAILER_MAGIC) throw fail('bad-magic', 'the World state trailer is missing');
  const n = dv.getUint32(engineSize + 4, true);
  if (engineSize + 12 + n < bytes.length) throw fail('trailing-bytes', 'it is longer than its header says');
  if (engineSize + 12 + n > bytes.length) throw fail('truncated', 'the World state trailer is cut short');
  const js = bytes.subarray(engineSize + 8, engineSize + 8 + n);
  if (fnv1a(js) !== dv.getUint32(engineSize + 8 + n, true)) throw fail('bad-checksum', 'the World state trailer changed after it was written');
  let state;
  try {
    state = JSON.parse(new TextDecoder().decode(js));
  } catch {
    throw fail('corrupt', 'the World state trailer is not JSON');
  }
  if (typeof state?.preset !== 'string' || !Array.isArray(state.shapeIds) || !Array.isArray(state.hulls) ||
      !Array.isArray(state.sensorCapacity)) throw fail('corrupt', 'the World state trailer lacks its fields');
  return { engineSize, state };
}

/** tb_snapshot_check of the first `size` bytes (copied into engine memory). */
function checkEngine(M, bytes, size) {
  const p = M._malloc(Math.max(size, 1));
  try {
    new Uint8Array(heapBuffer(M), p, size).set(bytes.subarray(0, size));
    return M._tb_snapshot_check(p, size);
  } finally {
    M._free(p);
  }
}

/** Calls f(pointer) with the engine part of bytes copied into engine memory. */
function withEngineBytes(M, fn, bytes, size, f) {
  const p = M._malloc(size);
  if (!p) throw new RangeError(`${fn}: out of memory for a snapshot of ${size} bytes`);
  try {
    new Uint8Array(heapBuffer(M), p, size).set(bytes.subarray(0, size));
    return f(p);
  } finally {
    M._free(p);
  }
}

function engineError(M, fn, status, message) {
  if (status === 1) return new SnapshotError(reasonName(M, M._tb_snapshot_last_error()), message);
  return new Error(message);
}

function adopt(world, state) {
  world.preset = state.preset;
  world._shapeIds = new Map(state.shapeIds);
  world._hulls = new Map(state.hulls);
  world._sensorCapacity = new Map(state.sensorCapacity);
  world.timestep = world.options.timestep;
  world._version++;
}

/** World.restore(bytes): the whole state replaced; on any error nothing changes. */
export function restore(world, bytes) {
  const fn = 'restore';
  world._alive(fn);
  const M = world._M;
  const { engineSize, state } = parse(M, fn, bytes);
  withEngineBytes(M, fn, bytes, engineSize, (p) => {
    const st = M._tb_world_restore(world._id, p, engineSize);
    if (st !== 0) throw engineError(M, fn, st, M.UTF8ToString(M._tb_last_error(world._id)));
  });
  adopt(world, state);
}

/** The engine world id of a new world made from bytes, and the World state to adopt. */
export function createFromSnapshot(M, fn, bytes, threads) {
  const { engineSize, state } = parse(M, fn, bytes);
  const id = withEngineBytes(M, fn, bytes, engineSize, (p) => M._tb_world_create_from_snapshot(p, engineSize, threads));
  if (id < 0) throw engineError(M, fn, -id, M.UTF8ToString(M._tb_last_error(-1)));
  return { id, adopt: (world) => adopt(world, state) };
}
