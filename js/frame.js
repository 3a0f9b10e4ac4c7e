/**
 * Frames: a copy of a world's body and contact views at the end of a step, packed into one
 * buffer so a worker can hand it over (shared, or transferred).
 * @module tribo/frame
 */

import { ARRAYS } from './fields.js';

function kindOf(view) {
  if (view instanceof Float32Array) return 'f32';
  if (view instanceof Int32Array) return 'i32';
  return 'u32';
}

/**
 * Byte layout of a frame for a world's current views.
 * @returns {{ entries: Array<[string, string, string, number, number]>, bytes: number }}
 *   entries: [group, field, kind, byteOffset, length]
 */
export function frameLayout(world) {
  const entries = [];
  let bytes = 0;
  for (const [group, views] of [['bodies', world.bodies], ['contacts', world.contacts]]) {
    for (const [name, v] of Object.entries(views)) {
      if (!ArrayBuffer.isView(v)) continue;
      entries.push([group, name, kindOf(v), bytes, v.length]);
      bytes += 4 * v.length;
    }
  }
  return { entries, bytes };
}

/** Copies the world's views into `buffer` at the layout's offsets. */
export function writeFrame(world, layout, buffer) {
  const groups = { bodies: world.bodies, contacts: world.contacts };
  for (const [group, name, kind, offset, length] of layout.entries) {
    new ARRAYS[kind](buffer, offset, length).set(groups[group][name]);
  }
}

/** Scalar parts of a frame (counts and flags). */
export function frameHeader(world, step) {
  const c = world.contacts;
  const header = { step, bodies: { slotCount: world.bodies.slotCount }, contacts: {} };
  for (const [k, v] of Object.entries(c)) if (!ArrayBuffer.isView(v)) header.contacts[k] = v;
  return header;
}

/** Builds the frame object (views over `buffer`) on the receiving side. */
export function readFrame(header, layout, buffer) {
  const frame = { step: header.step, bodies: { ...header.bodies }, contacts: { ...header.contacts } };
  for (const [group, name, kind, offset, length] of layout.entries) {
    frame[group][name] = new ARRAYS[kind](buffer, offset, length);
  }
  return frame;
}
