/**
 * Argument checks shared by every module: each names the calling function and the field, throws
 * a TypeError (wrong kind) or RangeError (bad value), and returns the value.
 * `fn` forms say "fn: field ..."; `*At` forms say "where.field ..." (fields of a descriptor).
 * @module tribo/check
 */

/** A value as messages show it (NaN, Infinity and BigInt included, never throwing). */
export function show(v) {
  if (typeof v === 'number' || typeof v === 'boolean' || v === undefined || v === null) return String(v);
  if (typeof v === 'bigint') return `${v}n (a BigInt)`;
  if (typeof v === 'function') return 'a function';
  if (typeof v === 'symbol') return v.toString();
  try {
    return JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? `${x}n` : x)) ?? String(v);
  } catch {
    return Object.prototype.toString.call(v);
  }
}

/** Largest finite float32 (the engine stores every real number as float32). */
export const FLT_MAX = 3.4028234663852886e38;
export const INT32_MIN = -0x80000000, INT32_MAX = 0x7fffffff;

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

/**
 * Like vec, and every component finite in float32 (|x| <= FLT_MAX); a finite component past the
 * float32 range is refused as such, in real()'s words.
 */
export function finiteVec(fn, field, v, n, fallback) {
  v = vec(fn, field, v, n, fallback);
  if (v === fallback) return v;
  for (let i = 0; i < n; i++) {
    if (Math.abs(v[i]) <= FLT_MAX) continue;
    const need = Number.isFinite(v[i]) ? `finite within float32 range (|${field}[${i}]| <= ${fmt(FLT_MAX)})` : 'finite';
    throw new RangeError(`${fn}: ${field}[${i}] must be ${need} (got ${show(v[i])})`);
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

/**
 * A real number the engine stores as float32: never NaN; finite in float32 unless `infinite`
 * (then ±Infinity passes); within [min, max] (min excluded when `above`), compared before
 * rounding to float32 so that 1 + 1e-8 is not taken for 1. `dot`: a descriptor field ("where.field").
 * A finite number past the float32 range is refused as such (not as NaN or out of [min, max]).
 */
export function real(fn, field, v, { fallback, min = -Infinity, max = Infinity, above = false, infinite = false, dot = false } = {}) {
  v = num(fn, field, v, fallback);
  const ok = !Number.isNaN(v) && (Number.isFinite(v) ? Math.abs(v) <= FLT_MAX : infinite) && (above ? v > min : v >= min) && v <= max;
  if (!ok) {
    const range = min > -Infinity && max < Infinity ? `in ${above ? '(' : '['}${fmt(min)}, ${fmt(max)}]`
      : min > -Infinity ? `${above ? '>' : '>='} ${fmt(min)}` : max < Infinity ? `<= ${fmt(max)}` : '';
    let need;
    if (Number.isFinite(v) && Math.abs(v) > FLT_MAX) {
      /* finite in JS but not in float32: say so, with the infinities the range lets through */
      const inf = !infinite ? '' : min === -Infinity && max === Infinity ? ' or ±Infinity'
        : max === Infinity ? ' or Infinity' : min === -Infinity ? ' or -Infinity' : '';
      need = `finite within float32 range (|${field}| <= ${fmt(FLT_MAX)})${inf}${range ? `, and ${range}` : ''}`;
    } else {
      need = [infinite ? '' : 'finite', range].filter(Boolean).join(' and ') || 'a number, not NaN';
    }
    throw new RangeError(`${fn}${dot ? '.' : ': '}${field} must be ${need} (got ${show(v)})`);
  }
  return v;
}

/** A limit as messages show it: 1e-6, 1e6, 0.5. */
function fmt(x) {
  return x !== 0 && (Math.abs(x) >= 1e5 || Math.abs(x) < 1e-3) ? x.toExponential().replace('e+', 'e') : String(x);
}

/**
 * An integer within [min, max] (default: int32, what the engine stores), with an optional
 * fallback: a TypeError for anything but a number, a RangeError otherwise.
 */
export function int(fn, field, v, fallback, min = INT32_MIN, max = INT32_MAX) {
  v = num(fn, field, v, fallback);
  if (!Number.isInteger(v)) throw new RangeError(`${fn}: ${field} must be an integer (got ${show(v)})`);
  if (v < min || v > max) throw new RangeError(`${fn}: ${field} must be an integer in [${min}, ${max}] (got ${show(v)})`);
  return v;
}

export function uint32(fn, field, v) {
  if (typeof v !== 'number') throw new TypeError(`${fn}: ${field} must be an integer in [0, 2^32) (got ${show(v)})`);
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

/** A 3-vector (a body position m, velocity m/s or rad/s, gravity m/s²): finite and within ±limit on every axis. */
export function withinVec(fn, field, v, limit, unit, fallback) {
  v = finiteVec(fn, field, v, 3, fallback);
  for (let i = 0; v && i < 3; i++) {
    if (Math.abs(v[i]) > limit) throw new RangeError(`${fn}: ${field}[${i}] must be within ±${limit} ${unit} (got ${v[i]})`);
  }
  return v;
}
