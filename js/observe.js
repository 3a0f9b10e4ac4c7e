/**
 * Observation: wrench tools (pure functions) and the World's observation calls (per-body contact
 * totals, contact wrenches, conventions of other engines, contact sensors, events), all read from
 * the engine's contact store. Units: N, N·m, N·s, m; world axes.
 * @module tribo/observe
 */
import { errorFor } from './errors.js';
import { checkKeys, finite3 as v3, finiteVec, int, real, show } from './check.js';
import { bodyId } from './ids.js';
import { engineTables, heapBuffer, readValues } from './fields.js';

/* the arrays tb_contacts_convert writes per contact, per convention (tribo.h) */
const CONVENTION_FIELDS = {
  newton: [['force', 3], ['torque', 3]],
  'newton-mujoco-adapter': [['force', 3], ['torque', 3]],
  genesis: [['forceA', 3], ['forceB', 3]],
  physx: [['normal', 3], ['impulse', 3], ['frictionImpulse', 3]],
};
/* scratch layout (bytes): a wrench at 0 (9 floats), points at 64, readback info at 128 (room for
 * fields added to tb_readback_info), event status at 256 */
const INFO_AT = 128;
const STATUS_AT = 256;

// ---- pure wrench tools --------------------------------------------------------------------

function wrenchArg(fn, field, w) {
  if (w == null || typeof w !== 'object') throw new TypeError(`${fn}: ${field} must be { force, torque, point } (got ${JSON.stringify(w)})`);
  return { force: v3(fn, `${field}.force`, w.force), torque: v3(fn, `${field}.torque`, w.torque), point: v3(fn, `${field}.point`, w.point) };
}

const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/** τ_to = τ + (from − to) × f: the one transfer rule. */
function shiftTorque(f, t, from, to) {
  const c = cross(sub(from, to), f);
  return [t[0] + c[0], t[1] + c[1], t[2] + c[2]];
}

/**
 * Moves a wrench { force (N), torque (N·m) about point (m) } to the point `to` (world):
 * τ_to = τ + (point − to) × f. Same rule as tb_wrench_shift.
 */
export function wrenchShift(wrench, to) {
  const w = wrenchArg('wrenchShift', 'wrench', wrench);
  const o = v3('wrenchShift', 'to', to);
  return { force: [...w.force], torque: shiftTorque(w.force, w.torque, w.point, o), point: [...o] };
}

/**
 * Reaction of a pairwise action: `on0` is the wrench on body0 about its centre of mass C0; returns
 * the wrench on body1 about `c1`: f1 = −f0, τ_C1 = −τ_C0 − (C0 − C1) × f0 (never a plain sign flip).
 */
export function wrenchReaction(on0, c1) {
  const w = wrenchArg('wrenchReaction', 'on0', on0);
  const c = v3('wrenchReaction', 'c1', c1);
  const t = shiftTorque(w.force, w.torque, w.point, c);
  return { force: w.force.map((x) => -x), torque: t.map((x) => -x), point: [...c] };
}

/**
 * Time average of samples { force, torque, point } with durations h[k] > 0 (s) about the fixed
 * point P: f̄ = Σ h_k f_k / T, τ̄_P = Σ h_k [τ_k + (O_k − P) × f_k] / T, T = Σ h_k.
 */
export function wrenchAverage(samples, h, point) {
  const fn = 'wrenchAverage';
  if (!Array.isArray(samples) || samples.length < 1) throw new RangeError(`${fn}: samples must be a non-empty array (got ${JSON.stringify(samples)})`);
  if (h == null || h.length !== samples.length) throw new RangeError(`${fn}: h must hold one duration per sample (${samples.length}) (got ${JSON.stringify(h)})`);
  const p = v3(fn, 'point', point);
  const f = [0, 0, 0], t = [0, 0, 0];
  let total = 0;
  samples.forEach((s, k) => {
    const w = wrenchArg(fn, `samples[${k}]`, s);
    if (typeof h[k] !== 'number' || !(h[k] > 0) || !Number.isFinite(h[k])) throw new RangeError(`${fn}: h[${k}] must be finite and > 0 (got ${h[k]})`);
    const tk = shiftTorque(w.force, w.torque, w.point, p);
    for (let i = 0; i < 3; i++) { f[i] += h[k] * w.force[i]; t[i] += h[k] * tk[i]; }
    total += h[k];
  });
  return { force: f.map((x) => x / total), torque: t.map((x) => x / total), point: [...p] };
}

// ---- world calls (World methods delegate here) ---------------------------------------------

/** The engine's readback flags at scratch + INFO_AT, with the preset's text. */
function readInfo(world, doc) {
  const M = world._M;
  /* perBodyForce stays the preset's text (doc) */
  const { perBodyForce, ...v } = readValues(M, engineTables(M).layouts.readbackInfo, world._t._scratch + INFO_AT);
  return { ...doc, ...v };
}

/** Engine readback flags (tb_world_readback_info) plus the preset's description. */
export function readbackInfo(world, doc) {
  world._check(world._M._tb_world_readback_info(world._id, world._t._scratch + INFO_AT));
  return readInfo(world, doc);
}

function readWrench(world) {
  return readValues(world._M, engineTables(world._M).layouts.wrench, world._t._scratch);
}

const checkOptions = (fn, options, allowed) => checkKeys(fn, '', options, new Set(allowed));
const anyBody = (world) => engineTables(world._M).constants.anyBody;
const excludeSelf = (world, options) => (options.excludeSelf ? engineTables(world._M).constants.observeExcludeSelf : 0);

/** `with` option: undefined = any body, 'static' or -1 = any static body, else a body id. */
function withArg(world, fn, w) {
  if (w === undefined) return anyBody(world);
  if (w === 'static' || w === -1) return -1;
  if (typeof w !== 'number') throw new TypeError(`${fn}: with must be a body id or 'static' (got ${show(w)})`);
  return bodyId(world, fn, 'with', w);
}

/** Throws the engine's message for a failed call; the readback flags ride on the error. */
function fail(world, status, info) {
  const e = errorFor(status, world._M.UTF8ToString(world._M._tb_last_error(world._id)));
  if (info) e.readback = info;
  return e;
}

export function netContactWrench(world, doc, body, options = {}) {
  const fn = 'netContactWrench';
  checkOptions(fn, options, ['with', 'excludeSelf']);
  const M = world._M, s = world._t._scratch;
  const st = M._tb_body_contact_wrench(world._id, body, withArg(world, fn, options.with),
    excludeSelf(world, options), s, s + INFO_AT);
  const info = readInfo(world, doc);
  if (st !== 0) throw fail(world, st, info);
  return { ...readWrench(world), readback: info };
}

export function netContactWrenches(world, doc, options = {}) {
  const fn = 'netContactWrenches';
  checkOptions(fn, options, ['excludeSelf']);
  const M = world._M, s = world._t._scratch;
  const slots = M._tb_world_body_slot_count(world._id);
  const p = slots > 0 ? M._malloc(24 * slots) : 0;
  try {
    const st = M._tb_world_body_contact_wrenches(world._id, excludeSelf(world, options), p, slots, s + INFO_AT);
    const info = readInfo(world, doc);
    if (st !== 0) throw fail(world, st, info);
    const flat = new Float32Array(heapBuffer(M), p, 6 * slots);
    const force = new Float32Array(3 * slots), torque = new Float32Array(3 * slots);
    for (let k = 0; k < slots; k++) {
      for (let c = 0; c < 3; c++) { force[3 * k + c] = flat[6 * k + c]; torque[3 * k + c] = flat[6 * k + 3 + c]; }
    }
    return { slotCount: slots, force, torque, readback: info };
  } finally {
    if (p) M._free(p);
  }
}

export function bodyContacts(world, body, options = {}) {
  const fn = 'bodyContacts';
  checkOptions(fn, options, ['with', 'excludeSelf']);
  const M = world._M;
  const b = body, w = withArg(world, fn, options.with), flags = excludeSelf(world, options);
  const n = M._tb_body_contacts(world._id, b, w, flags, 0, 0);
  if (n < 0) throw fail(world, -n);
  if (n === 0) return new Int32Array(0);
  const p = M._malloc(4 * n);
  try {
    M._tb_body_contacts(world._id, b, w, flags, p, n);
    return new Int32Array(heapBuffer(M), p, n).slice();
  } finally {
    M._free(p);
  }
}

export function contactWrench(world, doc, index, side, point) {
  const fn = 'contactWrench';
  const M = world._M, s = world._t._scratch;
  let pp = 0;
  if (point !== undefined) {
    pp = s + 64;
    new Float32Array(heapBuffer(M), pp, 3).set(finiteVec(fn, 'point', point, 3)); /* float32 in the engine */
  }
  const st = M._tb_contact_wrench(world._id, int(fn, 'index', index), int(fn, 'side', side), pp, s, s + INFO_AT);
  const info = readInfo(world, doc);
  if (st !== 0) throw fail(world, st, info);
  return { ...readWrench(world), readback: info };
}

export function convertContacts(world, doc, convention, first = 0, count) {
  const fn = 'convertContacts';
  const names = engineTables(world._M).enums.convention;
  const c = names.indexOf(convention);
  if (c < 0) throw new RangeError(`${fn}: convention must be one of ${names.join(', ')} (got ${JSON.stringify(convention)})`);
  const M = world._M, s = world._t._scratch;
  const total = world.contacts.count;
  int(fn, 'first', first, 0, 0);
  const n = count === undefined ? Math.max(0, total - first) : int(fn, 'count', count, undefined, 0);
  const stride = M._tb_contact_convention_stride(c);
  const p = n > 0 ? M._malloc(4 * stride * n) : 0;
  try {
    const st = M._tb_contacts_convert(world._id, c, first, n, p, s + INFO_AT);
    const info = readInfo(world, doc);
    if (st !== 0) throw fail(world, st, info);
    const flat = new Float32Array(heapBuffer(M), p, stride * n);
    const out = { convention, count: n, readback: info };
    let off = 0;
    for (const [name, comps] of CONVENTION_FIELDS[convention]) {
      const a = new Float32Array(comps * n);
      for (let k = 0; k < n; k++) for (let c = 0; c < comps; c++) a[comps * k + c] = flat[stride * k + off + c];
      out[name] = a;
      off += comps;
    }
    return out;
  } finally {
    if (p) M._free(p);
  }
}

export function addContactSensor(world, body, options = {}) {
  const fn = 'addContactSensor';
  checkOptions(fn, options, ['with', 'capacity']);
  const cap = int(fn, 'capacity', options.capacity, 64);
  const id = world._M._tb_sensor_create(world._id, body, withArg(world, fn, options.with), cap);
  if (id < 0) throw fail(world, -id);
  world._sensorCapacity.set(id, cap);
  return id;
}

export function removeContactSensor(world, id) {
  world._check(world._M._tb_sensor_destroy(world._id, id));
  world._sensorCapacity.delete(id);
}

export function readContactSensor(world, doc, id) {
  const M = world._M, s = world._t._scratch;
  const st = M._tb_sensor_read(world._id, id, s, s + INFO_AT);
  const info = readInfo(world, doc);
  if (st !== 0) throw fail(world, st, info);
  const v = new Float32Array(heapBuffer(M), s, 3);
  return { force: [v[0], v[1], v[2]], readback: info };
}

export function contactSensorHistory(world, id) {
  const fn = 'contactSensorHistory';
  const M = world._M;
  const n = M._tb_sensor_history(world._id, id, 0, 0, 0, 0);
  if (n < 0) throw fail(world, -n);
  const cap = world._sensorCapacity.get(id);
  const p = M._malloc(4 * 5 * cap); // forces (3), valid (1), steps (1) per sample
  try {
    const got = M._tb_sensor_history(world._id, id, p, p + 12 * cap, p + 16 * cap, cap);
    if (got < 0) throw fail(world, -got);
    const b = heapBuffer(M);
    return {
      count: got,
      forces: new Float32Array(b, p, 3 * got).slice(),
      valid: Array.from(new Int32Array(b, p + 12 * cap, got), (x) => x !== 0),
      steps: new Int32Array(b, p + 16 * cap, got).slice(),
    };
  } finally {
    M._free(p);
  }
}

export function setEventCapacity(world, capacity) {
  world._check(world._M._tb_world_set_event_capacity(world._id, int('setEventCapacity', 'capacity', capacity)));
}

export function setForceThreshold(world, newtons) {
  world._check(world._M._tb_world_set_force_threshold(world._id, real('setForceThreshold', 'newtons', newtons)));
}

export function setPairForceThreshold(world, shape0, shape1, newtons) {
  const fn = 'setPairForceThreshold';
  world._check(world._M._tb_pair_set_force_threshold(world._id, shape0, shape1, real(fn, 'newtons', newtons)));
}

/** Events of the last solve(), copied out of engine memory. */
export function readEvents(world) {
  const M = world._M, s = world._t._scratch + STATUS_AT;
  world._check(M._tb_world_event_status(world._id, s));
  const { layouts } = engineTables(M);
  const out = { ...readValues(M, layouts.eventStatus, s), list: [] };
  if (out.count === 0) return out;
  const p = M._tb_world_events(world._id);
  const size = layouts.contactEvent.size;
  for (let k = 0; k < out.count; k++) out.list.push(readValues(M, layouts.contactEvent, p + size * k));
  return out;
}

