/**
 * Tables read from the engine at init, so JS copies no list, name or offset by hand:
 *  - field tables (tb_field_get): the body and contact SoA fields of src/core/fields.h, which drive
 *    both the C storage and the typed-array views, the world definition, and the layouts of the
 *    public structs (member offsets by name);
 *  - enum name tables (tb_enum_name): the X-lists of tribo.h, in engine order;
 *  - API constants (tb_constant_value): id mask, observation flags, material flag bits.
 * @module tribo/fields
 */

/** Typed-array constructor per field type name (tb_field_type). */
export const ARRAYS = Object.freeze({ f32: Float32Array, i32: Int32Array, u32: Uint32Array, i64: BigInt64Array });

/** snake_case -> camelCase */
export function camel(name) {
  return name.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
}

/** The current wasm memory buffer (it is replaced when memory grows). */
export function heapBuffer(M) {
  return M.wasmMemory ? M.wasmMemory.buffer : M.HEAPU8.buffer;
}

const cache = new WeakMap();

/* The API constants of the first engine this context loaded or a worker world reported: tribo.h's
 * compile-time values, the same in every build. */
let knownConstantsOf = null;

/** Notes the constants of a loaded engine or of a worker world's engine (WorkerWorld.create). */
export function noteConstants(constants) {
  knownConstantsOf ??= constants;
}

/**
 * The engine's API constants (engineTables().constants) where no engine runs on this thread, as
 * on a page that renders a worker's world (web/renderer.js: the body slot of an id).
 * @throws {Error} before an engine was loaded here or a worker world was created from here
 */
export function knownConstants() {
  if (!knownConstantsOf) throw new Error('tribo: the engine\'s constants are known once an engine is loaded or a worker world created');
  return knownConstantsOf;
}

/**
 * @typedef {object} EngineTables
 * @property {Record<string, readonly string[]>} enums value names by enum (camelCase: shapeType,
 *   preset, solver, combineRule, combineMode, readback, broadPhase, filterRule, distanceRule,
 *   matching, convention, eventType, bodyType, fieldSet, fieldType)
 * @property {Record<string, number>} constants camelCase name -> value (idIndexMask, anyBody, ...)
 * @property {Record<string, Layout>} layouts struct layouts by field set (material, rayHit, ...)
 */
/**
 * @typedef {object} Layout
 * @property {number} size bytes
 * @property {Record<string, FieldInfo>} fields by camelCase member name
 */

/** @returns {EngineTables} the engine's tables (read once per module). */
export function engineTables(M) {
  let t = cache.get(M);
  if (t) return t;
  const enums = {};
  for (let e = 0; e < M._tb_enum_list_count(); e++) {
    const names = [];
    for (let i = 0; i < M._tb_enum_count(e); i++) names.push(M.UTF8ToString(M._tb_enum_name(e, i)));
    enums[camel(M.UTF8ToString(M._tb_enum_list_name(e)))] = Object.freeze(names);
  }
  const constants = {};
  for (let i = 0; i < M._tb_constant_count(); i++) constants[camel(M.UTF8ToString(M._tb_constant_name(i)))] = M._tb_constant_value(i);
  t = { enums: Object.freeze(enums), constants: Object.freeze(constants), layouts: {} };
  cache.set(M, t);
  noteConstants(t.constants);
  enums.fieldSet.forEach((name, set) => {
    const size = M._tb_field_set_size(set);
    if (size === 0) return; /* the SoA sets */
    const fields = {};
    for (const f of readFieldTable(M, set)) fields[f.name] = f;
    t.layouts[camel(name)] = Object.freeze({ size, fields: Object.freeze(fields) });
  });
  Object.freeze(t.layouts);
  return Object.freeze(t);
}

/** Index of a field set by its engine name ('body', 'contact', 'world_def', 'material', ...). */
export function fieldSet(M, name) {
  const i = engineTables(M).enums.fieldSet.indexOf(name);
  if (i < 0) throw new Error(`the engine has no field set ${name}`);
  return i;
}

/**
 * @typedef {object} FieldInfo
 * @property {number} index   index in the engine's field list
 * @property {string} name    camelCase name used in JS
 * @property {string} cName   snake_case name used in C
 * @property {string} unit
 * @property {string} doc     frame, sign and reference point
 * @property {'f32'|'i32'|'u32'|'i64'} type element type (see ARRAYS)
 * @property {number} components values per element
 * @property {number} offset  byte offset in the struct (-1 for the SoA sets)
 */

/**
 * @param {object} M Emscripten module
 * @param {number} set a tb_field_set (see fieldSet)
 * @returns {FieldInfo[]}
 */
export function readFieldTable(M, set) {
  const types = engineTables(M).enums.fieldType;
  const n = M._tb_field_count(set);
  const out = [];
  for (let i = 0; i < n; i++) {
    const p = M._tb_field_get(set, i);
    const u32 = new Uint32Array(heapBuffer(M), p, 6);
    const i32 = new Int32Array(heapBuffer(M), p, 6);
    const cName = M.UTF8ToString(u32[0]);
    out.push({
      index: i, name: camel(cName), cName,
      unit: M.UTF8ToString(u32[1]), doc: M.UTF8ToString(u32[2]),
      type: types[i32[3]], components: i32[4], offset: i32[5],
    });
  }
  return out;
}

/** Typed view of member `name` of a struct with `layout` at address p. */
export function member(M, layout, p, name) {
  const f = layout.fields[name];
  if (!f) throw new Error(`the engine's struct has no member ${name}`);
  return new ARRAYS[f.type](heapBuffer(M), p + f.offset, f.components);
}

/** Members of a struct at p as plain values (numbers; arrays for several components). */
export function readStruct(M, layout, p, names = Object.keys(layout.fields)) {
  const out = {};
  for (const name of names) {
    const v = member(M, layout, p, name);
    const plain = v instanceof BigInt64Array ? Array.from(v, Number) : Array.from(v);
    out[name] = plain.length === 1 ? plain[0] : plain;
  }
  return out;
}

/**
 * The engine enum of an "enum" member of a struct layout: its doc starts with the enum's C name
 * (tb_pair_method -> 'pairMethod', tb_solver_type -> 'solver'); undefined when none matches.
 */
export function memberEnum(enums, f) {
  const c = /^tb_(\w+)/.exec(f.doc);
  return c ? [camel(c[1]), camel(c[1].replace(/_type$/, ''))].find((n) => n in enums && n !== 'fieldSet') : undefined;
}

/** Whether a struct member may be not available (unit "<unit> | null": NaN or -1 in C). */
export function optionalMember(f) {
  return f.unit.endsWith(' | null');
}

/**
 * A struct at p as the World getters return it (the rule tools/gen_types.mjs writes the
 * `...Struct` types by): readStruct's values with a 0/1 member as a boolean, a -1/0/1 member as
 * null (undefined, -1) or a boolean, an enum member as its name, and a "| null" member as null
 * when not available (NaN, or -1 for an integer count).
 */
export function readValues(M, layout, p) {
  const { enums } = engineTables(M);
  const out = readStruct(M, layout, p);
  for (const f of Object.values(layout.fields)) {
    const v = out[f.name];
    if (f.unit === '0/1') out[f.name] = v !== 0;
    else if (f.unit === '-1/0/1') out[f.name] = v < 0 ? null : v !== 0;
    else if (f.unit === 'enum') out[f.name] = enums[memberEnum(enums, f)]?.[v] ?? v;
    else if (optionalMember(f)) out[f.name] = Number.isNaN(v) || (f.type !== 'f32' && v < 0) ? null : v;
  }
  return out;
}

/** Writes numbers (or arrays of numbers) into members of a struct at p. */
export function writeStruct(M, layout, p, values) {
  for (const [name, v] of Object.entries(values)) {
    const view = member(M, layout, p, name);
    if (typeof v === 'number') view[0] = v;
    else view.set(v);
  }
}
