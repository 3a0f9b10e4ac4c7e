/**
 * Field tables read from the engine (tb_field_get): the one list in src/core/fields.h drives both
 * the C storage and these typed-array views, so the two sides cannot drift.
 * @module tribo/fields
 */

const TYPE_NAMES = ['f32', 'i32', 'u32']; // tb_field_type order

/** Typed-array constructor per field type name. */
export const ARRAYS = Object.freeze({ f32: Float32Array, i32: Int32Array, u32: Uint32Array });

/** snake_case -> camelCase */
export function camel(name) {
  return name.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
}

/**
 * @typedef {object} FieldInfo
 * @property {number} index   index in the engine's field list
 * @property {string} name    camelCase name used in JS
 * @property {string} cName   snake_case name used in C
 * @property {string} unit
 * @property {string} doc     frame, sign and reference point
 * @property {'f32'|'i32'|'u32'} type element type (see ARRAYS)
 * @property {number} components values per element
 */

/**
 * @param {object} M Emscripten module
 * @param {number} set 0 = body fields, 1 = contact fields
 * @returns {FieldInfo[]}
 */
export function readFieldTable(M, set) {
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
      type: TYPE_NAMES[i32[3]], components: i32[4], offset: i32[5],
    });
  }
  return out;
}

/** The current wasm memory buffer (it is replaced when memory grows). */
export function heapBuffer(M) {
  return M.wasmMemory ? M.wasmMemory.buffer : M.HEAPU8.buffer;
}
