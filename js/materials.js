/**
 * Materials: a shape's tb_material read and written member by member through the engine's
 * layout table; combine modes by the engine's names (tb_combine_mode).
 * @module tribo/materials
 */
import { errorFor } from './errors.js';
import { checkKeys, numAt, boolAt, objectAt, real, show, INT32_MIN, INT32_MAX } from './check.js';
import { engineTables, member, readStruct, writeStruct } from './fields.js';

/** Material defaults (PhysX-like): μ 0.5, restitution 0, density 1000 kg/m³. */
export const DEFAULT_MATERIAL = Object.freeze({ friction: 0.5, restitution: 0, density: 1000 });

const MATERIAL_OPTIONS = new Set(['staticFriction', 'dynamicFriction', 'restitution', 'frictionCombine',
  'restitutionCombine', 'dampingCombine', 'disableFriction', 'disableStrongFriction', 'compliant',
  'torsionalFriction', 'rollingFriction', 'ke', 'kd', 'kf', 'ka',
  'priority', 'condim', 'solmix', 'solref', 'solimp', 'adhesion']);
const COMPLIANT_OPTIONS = new Set(['stiffness', 'damping', 'accelerationSpring']);
/* descriptor fields that are tb_material members of the same name */
const NUMBERS = ['staticFriction', 'dynamicFriction', 'restitution', 'torsionalFriction', 'rollingFriction', 'ke', 'kd', 'kf', 'ka', 'solmix', 'adhesion'];
const INTEGERS = ['priority', 'condim'];
const ARRAYS = [['solref', 2], ['solimp', 5]];
const COMBINES = ['frictionCombine', 'restitutionCombine', 'dampingCombine'];
/** C field names of tb_material as the JS descriptor spells them. */
const MATERIAL_C_TO_JS = {
  static_friction: 'staticFriction', dynamic_friction: 'dynamicFriction', restitution: 'restitution',
  compliant_stiffness: 'compliant.stiffness', compliant_damping: 'compliant.damping',
  torsional_friction: 'torsionalFriction', rolling_friction: 'rollingFriction', ke: 'ke', kd: 'kd', kf: 'kf', ka: 'ka',
  solmix: 'solmix', adhesion: 'adhesion', condim: 'condim', solref: 'solref', solimp: 'solimp',
};

/** Material flag bits from the engine's constants. */
function flagBits(M) {
  const c = engineTables(M).constants;
  return { disableFriction: c.materialDisableFriction, disableStrongFriction: c.materialDisableStrongFriction,
    accelerationSpring: c.materialCompliantAccelerationSpring };
}

/** tb_combine_mode of a mode name. */
export function combineMode(M, where, field, v) {
  const modes = engineTables(M).enums.combineMode;
  const i = modes.indexOf(v);
  if (i < 0) throw new RangeError(`${where}.${field} must be one of ${modes.map((m) => `'${m}'`).join(', ')} (got ${JSON.stringify(v)})`);
  return i;
}

/**
 * Checks a material descriptor; returns the function that writes it over a tb_material at p
 * (the fields not given are kept). `where` names the caller and the descriptor in messages.
 */
export function materialWriter(M, where, m) {
  objectAt(where, m);
  checkKeys(where, '', m, MATERIAL_OPTIONS);
  const layout = engineTables(M).layouts.material;
  const values = {}; /* member -> number or array, all checked */
  for (const k of NUMBERS) {
    if (m[k] === undefined) continue;
    values[k] = k === 'restitution' ? real(where, k, m[k], { min: 0, max: 1, dot: true }) : numAt(where, k, m[k]);
  }
  for (const k of INTEGERS) {
    if (m[k] === undefined) continue;
    if (typeof m[k] !== 'number') throw new TypeError(`${where}.${k} must be an integer (got ${show(m[k])})`);
    if (!Number.isInteger(m[k]) || m[k] < INT32_MIN || m[k] > INT32_MAX) throw new RangeError(`${where}.${k} must be an integer in [-2^31, 2^31) (got ${show(m[k])})`);
    values[k] = m[k];
  }
  for (const [k, n] of ARRAYS) {
    const v = m[k];
    if (v === undefined) continue;
    if (v == null || typeof v.length !== 'number' || v.length !== n) {
      throw new TypeError(`${where}.${k} must be an array of ${n} numbers (got ${show(v)})`);
    }
    values[k] = Array.from({ length: n }, (_, j) => numAt(where, `${k}[${j}]`, v[j]));
  }
  for (const k of COMBINES) if (m[k] !== undefined) values[k] = combineMode(M, where, k, m[k]);
  const flags = {}; /* flag name -> boolean */
  if (m.disableFriction !== undefined) flags.disableFriction = boolAt(where, 'disableFriction', m.disableFriction);
  if (m.disableStrongFriction !== undefined) flags.disableStrongFriction = boolAt(where, 'disableStrongFriction', m.disableStrongFriction);
  if (m.compliant !== undefined) {
    const c = objectAt(`${where}.compliant`, m.compliant);
    checkKeys(`${where}.compliant`, '', c, COMPLIANT_OPTIONS);
    if (c.stiffness !== undefined) values.compliantStiffness = numAt(where, 'compliant.stiffness', c.stiffness);
    if (c.damping !== undefined) values.compliantDamping = numAt(where, 'compliant.damping', c.damping);
    if (c.accelerationSpring !== undefined) flags.accelerationSpring = boolAt(`${where}.compliant`, 'accelerationSpring', c.accelerationSpring);
  }
  const bits = flagBits(M);
  return (p) => {
    writeStruct(M, layout, p, values);
    const at = member(M, layout, p, 'flags');
    for (const [name, on] of Object.entries(flags)) at[0] = on ? at[0] | bits[name] : at[0] & ~bits[name];
  };
}

/**
 * Changes the given fields of a shape's material (the others are kept): `write` from
 * materialWriter. On error the shape keeps its material.
 */
export function applyMaterial(world, shape, write, where) {
  const M = world._M;
  const p = world._t._scratch;
  const fn = where.replace(/:.*$/, '');
  const st = M._tb_shape_get_material(world._id, shape, p);
  if (st !== 0) throw errorFor(st, M.UTF8ToString(M._tb_last_error(world._id)).replace(/^getMaterial:/, `${fn}:`));
  write(p);
  const r = M._tb_shape_set_material(world._id, shape, p);
  if (r !== 0) {
    const msg = M.UTF8ToString(M._tb_last_error(world._id))
      .replace(/^setMaterial: ([a-z_]+)/, (_, f) => `${where}.${MATERIAL_C_TO_JS[f] ?? f}`);
    throw errorFor(r, msg);
  }
}

/** World.setMaterial. */
export function setMaterial(world, shape, m, where) {
  applyMaterial(world, shape, materialWriter(world._M, where, m), where);
}

/** A shape's full material (see index.d.ts ShapeMaterial). */
export function getMaterial(world, shape) {
  world._alive('getMaterial');
  const M = world._M;
  const { layouts, enums } = engineTables(M);
  const p = world._t._scratch;
  world._check(M._tb_shape_get_material(world._id, shape, p));
  const v = readStruct(M, layouts.material, p);
  const bits = flagBits(M);
  const has = (name) => (v.flags & bits[name]) !== 0;
  return {
    staticFriction: v.staticFriction, dynamicFriction: v.dynamicFriction, restitution: v.restitution,
    frictionCombine: enums.combineMode[v.frictionCombine], restitutionCombine: enums.combineMode[v.restitutionCombine],
    dampingCombine: enums.combineMode[v.dampingCombine],
    disableFriction: has('disableFriction'), disableStrongFriction: has('disableStrongFriction'),
    compliant: { stiffness: v.compliantStiffness, damping: v.compliantDamping, accelerationSpring: has('accelerationSpring') },
    torsionalFriction: v.torsionalFriction, rollingFriction: v.rollingFriction,
    ke: v.ke, kd: v.kd, kf: v.kf, ka: v.ka,
    priority: v.priority, condim: v.condim, solmix: v.solmix, solref: v.solref, solimp: v.solimp, adhesion: v.adhesion,
  };
}
