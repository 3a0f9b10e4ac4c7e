/**
 * Argument checks shared by every module: each names the calling function and the field, throws
 * a TypeError (wrong kind) or RangeError (bad value), and returns the value.
 * `fn` forms say "fn: field ..."; `*At` forms say "where.field ..." (fields of a descriptor).
 * @module tribo/check
 */

const show = (v) => JSON.stringify(v);

/** Rejects anything but a plain options object, and keys outside `allowed` (a Set). */
export function checkKeys(fn, what, obj, allowed) {
  if (obj == null || typeof obj !== 'object' || Array.isArray(obj)) {
    throw new TypeError(`${fn}: expected an options object (got ${show(obj)})`);
  }
  for (const k of Object.keys(obj)) {
    if (!allowed.has(k)) throw new RangeError(`${fn}: unknown option ${what}${k} (known: ${[...allowed].join(', ')})`);
  }
}

/** An array (or typed array) of n numbers; `fallback` when undefined (required when not given). */
export function vec(fn, field, v, n, fallback) {
  if (v === undefined) {
    if (fallback === undefined) throw new TypeError(`${fn}: ${field} is required (an array of ${n} numbers)`);
    return fallback;
  }
  if (v == null || typeof v.length !== 'number' || v.length !== n) {
    throw new TypeError(`${fn}: ${field} must be an array of ${n} numbers (got ${show(v)})`);
  }
  for (let i = 0; i < n; i++) {
    if (typeof v[i] !== 'number') throw new TypeError(`${fn}: ${field}[${i}] must be a number (got ${show(v[i])})`);
  }
  return v;
}

/** Three finite numbers (points and wrench parts). */
export function finite3(fn, field, v) {
  if (v == null || typeof v.length !== 'number' || v.length !== 3) {
    throw new TypeError(`${fn}: ${field} must be an array of 3 numbers (got ${show(v)})`);
  }
  for (let i = 0; i < 3; i++) {
    if (typeof v[i] !== 'number' || !Number.isFinite(v[i])) {
      throw new RangeError(`${fn}: ${field}[${i}] must be a finite number (got ${v[i]})`);
    }
  }
  return v;
}

export function num(fn, field, v, fallback) {
  if (v === undefined) {
    if (fallback === undefined) throw new TypeError(`${fn}: ${field} is required (a number)`);
    return fallback;
  }
  if (typeof v !== 'number') throw new TypeError(`${fn}: ${field} must be a number (got ${show(v)})`);
  return v;
}

/** A number that is an integer (RangeError when not), with an optional fallback. */
export function int(fn, field, v, fallback) {
  v = num(fn, field, v, fallback);
  if (!Number.isInteger(v)) throw new RangeError(`${fn}: ${field} must be an integer (got ${v})`);
  return v;
}

/** An id or index argument: a TypeError for anything but an integer (the observation calls). */
export function id(fn, field, v) {
  if (!Number.isInteger(v)) throw new TypeError(`${fn}: ${field} must be an integer (got ${show(v)})`);
  return v;
}

export function uint32(fn, field, v) {
  if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) {
    throw new RangeError(`${fn}: ${field} must be an integer in [0, 2^32) (got ${show(v)})`);
  }
  return v >>> 0;
}

export function boolean(fn, field, v) {
  if (typeof v !== 'boolean') throw new TypeError(`${fn}: ${field} must be a boolean (got ${show(v)})`);
  return v;
}

/** Index of `v` in the engine's names of an enum. */
export function enumIndex(fn, field, names, v) {
  const i = names.indexOf(v);
  if (i < 0) throw new RangeError(`${fn}: ${field} must be one of ${names.map(show).join(', ')} (got ${show(v)})`);
  return i;
}

/** A number field of a descriptor. */
export function numAt(where, field, v) {
  if (typeof v !== 'number') throw new TypeError(`${where}.${field} must be a number (got ${show(v)})`);
  return v;
}

/** A boolean field of a descriptor. */
export function boolAt(where, field, v) {
  if (typeof v !== 'boolean') throw new TypeError(`${where}.${field} must be true or false (got ${show(v)})`);
  return v;
}

/** A plain-object field of a descriptor. */
export function objectAt(where, v) {
  if (v == null || typeof v !== 'object' || Array.isArray(v)) throw new TypeError(`${where} must be an object (got ${show(v)})`);
  return v;
}

/** A required field of a descriptor `s` of a kind (`s.type`). */
export function need(where, s, field) {
  if (s[field] === undefined) throw new TypeError(`${where}.${field} is required for a ${s.type}`);
  return s[field];
}
