/**
 * Views and stepping: the typed-array views over the engine's body and contact fields (built
 * from the field tables, cached until the world changes), the pipeline calls that change them
 * (step, collide, solve, capacities, per-contact overrides) and the status structs of the last
 * step (tb_contact_status, tb_step_stats, tb_solver_status by the engine's layouts).
 * @module tribo/views
 */
import { checkKeys, real, int } from './check.js';
import { ARRAYS, engineTables, fieldSet, heapBuffer, readValues } from './fields.js';

const OVERRIDE_OPTIONS = new Set(['stiffness', 'damping', 'frictionScale']);

function fresh(world, cache) {
  return cache && cache.version === world._version && cache.buffer === heapBuffer(world._M);
}

/** World.bodies: views indexed by slot, valid until the next call that changes the world. */
export function bodyViews(world) {
  world._alive('bodies');
  if (fresh(world, world._bodyViews)) return world._bodyViews.views;
  const M = world._M;
  const set = fieldSet(M, 'body');
  const slots = M._tb_world_body_slot_count(world._id);
  const views = { slotCount: slots };
  for (const f of world._t.fields.body) {
    views[f.name] = new ARRAYS[f.type](heapBuffer(M), M._tb_world_field(world._id, set, f.index), slots * f.components);
  }
  world._bodyViews = { version: world._version, buffer: heapBuffer(M), views };
  return views;
}

/** World.contacts: the contact status and `count` elements of every contact field. */
export function contactViews(world) {
  world._alive('contacts');
  if (fresh(world, world._contactViews)) return world._contactViews.views;
  const M = world._M;
  const s = world._t._scratch;
  world._check(M._tb_world_contact_status(world._id, s));
  const views = readValues(M, engineTables(M).layouts.contactStatus, s);
  const set = fieldSet(M, 'contact');
  for (const f of world._t.fields.contact) {
    views[f.name] = new ARRAYS[f.type](heapBuffer(M), M._tb_world_field(world._id, set, f.index), views.count * f.components);
  }
  world._contactViews = { version: world._version, buffer: heapBuffer(M), views };
  return views;
}

/** Runs one engine pipeline call (step, collide, solve) `n` times; the views become stale. */
export function run(world, fn, call, n = 1) {
  world._alive(fn);
  int(fn, 'n', n, 1, 0);
  for (let i = 0; i < n; i++) world._check(world._M[call](world._id));
  world._version++;
}

export function setContactCapacity(world, capacity) {
  world._alive('setContactCapacity');
  world._check(world._M._tb_world_set_contact_capacity(world._id, int('setContactCapacity', 'capacity', capacity)));
  world._version++;
}

export function setPairCapacity(world, capacity) {
  world._alive('setPairCapacity');
  world._check(world._M._tb_world_set_pair_capacity(world._id, int('setPairCapacity', 'capacity', capacity)));
  world._version++;
}

/** Penalty-solver overrides of contact `index` of the last collide() (0 = unset), for the next solve(). */
export function setContactOverride(world, index, o = {}) {
  const fn = 'setContactOverride';
  world._alive(fn);
  checkKeys(fn, '', o, OVERRIDE_OPTIONS);
  world._check(world._M._tb_contact_set_override(world._id, int(fn, 'index', index),
    real(fn, 'stiffness', o.stiffness, { fallback: 0 }), real(fn, 'damping', o.damping, { fallback: 0 }),
    real(fn, 'frictionScale', o.frictionScale, { fallback: 0 })));
}

/** World.resetSolver: forgets the solver's history across steps (the MuJoCo and Kamino warm starts). */
export function resetSolver(world) {
  world._alive('resetSolver');
  world._check(world._M._tb_world_solver_reset(world._id));
}

export function stepStats(world) {
  world._alive('stepStats');
  const M = world._M;
  world._check(M._tb_world_step_stats(world._id, world._t._scratch));
  return readValues(M, engineTables(M).layouts.stepStats, world._t._scratch);
}

export function solverStatus(world) {
  world._alive('solverStatus');
  const M = world._M;
  world._check(M._tb_world_solver_status(world._id, world._t._scratch));
  const v = readValues(M, engineTables(M).layouts.solverStatus, world._t._scratch);
  /* converged: -1 (TB_CONVERGED_UNDEFINED) for a solver without a tolerance → null, never false */
  return { ...v, convergenceDefined: v.converged !== null };
}
