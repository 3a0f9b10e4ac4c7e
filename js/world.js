/**
 * In-process World: bodies, shapes, stepping and typed-array views over engine memory.
 * @module tribo/world
 */
import { errorFor } from './errors.js';
import { ARRAYS, heapBuffer } from './fields.js';

const BODY_TYPES = { static: 0, kinematic: 1, dynamic: 2 };
const SHAPE_TYPES = { plane: 0, sphere: 1, capsule: 2, box: 3 };
/** Preset names and their tb_preset values. */
const PRESET_IDS = { 'physx-pgs': 0, 'physx-tgs': 1 };
const PRESETS = Object.keys(PRESET_IDS);
const ID_INDEX_MASK = 0xfffff;

/**
 * World options written into tb_world_def: [JS name, C field path, kind]. kind: 'f32', 'i32' or
 * 'bool' (0/1). Offsets come from the engine (tb_world_def_offset), not from a copied layout.
 */
const DEF_OPTIONS = [
  ['timestep', 'timestep', 'f32'],
  ['bodyCapacity', 'body_capacity', 'i32'],
  ['contactCapacity', 'contact_capacity', 'i32'],
  ['pairCapacity', 'pair_capacity', 'i32'],
  ['substeps', 'solver.position_iterations', 'i32'],
  ['positionIterations', 'solver.position_iterations', 'i32'],
  ['velocityIterations', 'solver.velocity_iterations', 'i32'],
  ['bounceThreshold', 'solver.bounce_threshold_velocity', 'f32'],
  ['maxDepenetrationVelocity', 'solver.max_depenetration_velocity', 'f32'],
  ['contactHertz', 'solver.contact_hertz', 'f32'],
  ['contactDampingRatio', 'solver.contact_damping_ratio', 'f32'],
  ['linearSlop', 'solver.linear_slop', 'f32'],
  ['speculativeDistance', 'solver.speculative_distance', 'f32'],
  ['warmStarting', 'solver.warm_starting', 'bool'],
  /* PhysX PGS / TGS */
  ['frictionEveryIteration', 'solver.friction_every_iteration', 'bool'],
  ['externalForcesEveryIteration', 'solver.external_forces_every_iteration', 'bool'],
  ['biasCoefficient', 'solver.bias_coefficient', 'f32'],
];
const WORLD_OPTIONS = new Set(['preset', 'gravity', 'threads', ...DEF_OPTIONS.map((o) => o[0])]);
const BODY_OPTIONS = new Set(['type', 'position', 'rotation', 'linearVelocity', 'angularVelocity',
  'linearDamping', 'angularDamping', 'mass', 'shapes', 'maxContactImpulse', 'solverIterations']);
const MASS_OPTIONS = new Set(['mass', 'center', 'inertia']);
const SHAPE_OPTIONS = new Set(['type', 'radius', 'halfExtents', 'halfHeight', 'normal', 'offset',
  'position', 'rotation', 'friction', 'restitution', 'density']);

/** Material defaults (PhysX-like): μ 0.5, restitution 0, density 1000 kg/m³. */
export const DEFAULT_MATERIAL = Object.freeze({ friction: 0.5, restitution: 0, density: 1000 });

/** The PhysX readback (seed physx-e3 §7), shared by both PhysX presets. */
function physxReadback(preset, solver) {
  return Object.freeze({
    preset,
    normalImpulse: `N·s per contact point over the whole step (${solver}): the accumulated normal impulse of the ` +
      'position and velocity iterations, restitution included; on body1 along +normal',
    tangentImpulse: 'N·s per friction anchor (at most two per patch, at the contact points with anchor 0 or 1) along ' +
      'tangent0 / tangent1 of the patch; zero at points that are not anchors (frictionAnchorImpulse is the same as a world vector)',
    force: 'N: (normalImpulse·normal + frictionAnchorImpulse) / timestep, on body1 by body0 at the contact point, world axes; ' +
      'body0 receives the opposite; summed over a patch it is the patch force',
    excludes: ['torsional friction (no torsional row)'],
    perContactForce: true,
  });
}

/** What the contact readback of each preset contains. */
export const READBACK_INFO = Object.freeze({
  'physx-pgs': physxReadback('physx-pgs', 'PGS: position iterations with bias, then velocity iterations'),
  'physx-tgs': physxReadback('physx-tgs', 'TGS: internal steps h/N, then velocity iterations'),
});

/** Byte offset of a tb_world_def field (C path), from the engine; cached per module. */
const defOffsets = new WeakMap();
function defOffset(M, scratch, path) {
  let cache = defOffsets.get(M);
  if (!cache) defOffsets.set(M, (cache = new Map()));
  let off = cache.get(path);
  if (off === undefined) {
    const p = scratch + ((M._tb_world_def_size() + 7) & ~7); // after the definition being filled
    const bytes = new Uint8Array(heapBuffer(M), p, path.length + 1);
    for (let i = 0; i < path.length; i++) bytes[i] = path.charCodeAt(i);
    bytes[path.length] = 0;
    off = M._tb_world_def_offset(p);
    if (off < 0) throw new Error(`createWorld: the engine has no world definition field ${path}`);
    cache.set(path, off);
  }
  return off;
}

function checkKeys(fn, what, obj, allowed) {
  if (obj == null || typeof obj !== 'object' || Array.isArray(obj)) {
    throw new TypeError(`${fn}: expected an options object (got ${JSON.stringify(obj)})`);
  }
  for (const k of Object.keys(obj)) {
    if (!allowed.has(k)) throw new RangeError(`${fn}: unknown option ${what}${k} (known: ${[...allowed].join(', ')})`);
  }
}

function vec(fn, field, v, n, fallback) {
  if (v === undefined) {
    if (fallback === undefined) throw new TypeError(`${fn}: ${field} is required (an array of ${n} numbers)`);
    return fallback;
  }
  if (v == null || typeof v.length !== 'number' || v.length !== n) {
    throw new TypeError(`${fn}: ${field} must be an array of ${n} numbers (got ${JSON.stringify(v)})`);
  }
  for (let i = 0; i < n; i++) {
    if (typeof v[i] !== 'number') throw new TypeError(`${fn}: ${field}[${i}] must be a number (got ${JSON.stringify(v[i])})`);
  }
  return v;
}

function num(fn, field, v, fallback) {
  if (v === undefined) {
    if (fallback === undefined) throw new TypeError(`${fn}: ${field} is required (a number)`);
    return fallback;
  }
  if (typeof v !== 'number') throw new TypeError(`${fn}: ${field} must be a number (got ${JSON.stringify(v)})`);
  return v;
}

function int(fn, field, v, fallback) {
  v = num(fn, field, v, fallback);
  if (!Number.isInteger(v)) throw new RangeError(`${fn}: ${field} must be an integer (got ${v})`);
  return v;
}

/** The engine names solver fields as in C; say them as the JS options are spelled. */
const C_TO_JS = {
  'solver.velocity_iterations': 'velocityIterations',
  'solver.friction_every_iteration': 'frictionEveryIteration',
  'solver.external_forces_every_iteration': 'externalForcesEveryIteration', 'solver.bias_coefficient': 'biasCoefficient',
  'solver.bounce_threshold_velocity': 'bounceThreshold', 'solver.max_depenetration_velocity': 'maxDepenetrationVelocity',
  'solver.contact_hertz': 'contactHertz', 'solver.contact_damping_ratio': 'contactDampingRatio',
  'solver.linear_slop': 'linearSlop', 'solver.speculative_distance': 'speculativeDistance',
  'body/contact/pair capacities': 'bodyCapacity/contactCapacity/pairCapacity',
};
function jsOptionNames(message, options = {}) {
  message = message.replace('solver.position_iterations', options.positionIterations !== undefined ? 'positionIterations' : 'substeps');
  for (const [c, js] of Object.entries(C_TO_JS)) message = message.replace(c, js);
  return message;
}

/**
 * A simulation world living in the engine's memory. Only the world is ever freed; bodies and
 * contacts are plain ids and typed arrays.
 */
export class World {
  /**
   * @param {import('./index.js').Tribo} tribo
   * @param {object} [options] see index.d.ts WorldOptions
   */
  constructor(tribo, options = {}) {
    const fn = 'createWorld';
    checkKeys(fn, '', options, WORLD_OPTIONS);
    const preset = options.preset ?? 'physx-tgs';
    if (!PRESETS.includes(preset)) {
      throw new RangeError(`${fn}: preset ${JSON.stringify(preset)} is not available in this version (available: ${PRESETS.join(', ')})`);
    }
    this._t = tribo;
    const M = (this._M = tribo._M);
    this.preset = preset;
    const threads = int(fn, 'threads', options.threads, tribo.defaultThreads);
    if (threads > 1 && tribo._windowThread) {
      throw new RangeError(`${fn}: threads must be 1 on a page's main thread (got ${threads}); use createWorkerWorld() for threads`);
    }
    if (options.substeps !== undefined && options.positionIterations !== undefined) {
      throw new RangeError(`${fn}: give substeps or positionIterations, not both (they are the same setting)`);
    }
    const d = tribo._scratch;
    M._tb_default_world_def_into(d);
    if (M._tb_preset_apply(PRESET_IDS[preset], d) !== 0) throw new Error(`${fn}: the engine has no preset ${preset}`);
    const f32 = new Float32Array(heapBuffer(M));
    const i32 = new Int32Array(heapBuffer(M));
    const g = vec(fn, 'gravity', options.gravity, 3, [0, -9.81, 0]);
    const go = (d + defOffset(M, d, 'gravity')) >> 2;
    f32[go] = g[0]; f32[go + 1] = g[1]; f32[go + 2] = g[2];
    i32[(d + defOffset(M, d, 'thread_count')) >> 2] = threads;
    for (const [name, path, kind] of DEF_OPTIONS) {
      const v = options[name];
      if (v === undefined) continue;
      const at = (d + defOffset(M, d, path)) >> 2;
      if (kind === 'f32') f32[at] = num(fn, name, v);
      else if (kind === 'i32') i32[at] = int(fn, name, v);
      else {
        if (typeof v !== 'boolean') throw new TypeError(`${fn}: ${name} must be a boolean (got ${JSON.stringify(v)})`);
        i32[at] = v ? 1 : 0;
      }
    }
    const timestep = f32[(d + defOffset(M, d, 'timestep')) >> 2];
    const id = M._tb_world_create(d);
    if (id < 0) throw errorFor(-id, jsOptionNames(M.UTF8ToString(M._tb_last_error(-1)), options));
    this._id = id;
    this.timestep = timestep;
    this.threads = threads;
    this._version = 0;
    this._bodyViews = null;
    this._contactViews = null;
  }

  _check(status) {
    if (status !== 0) throw errorFor(status, this._M.UTF8ToString(this._M._tb_last_error(this._id)));
  }

  _alive(fn) {
    if (this._id < 0) throw new Error(`${fn}: this world was freed`);
  }

  /** Writes numbers into the module's scratch area; returns its address. */
  _put(offsetFloats, values) {
    const p = this._t._scratch + 4 * offsetFloats;
    new Float32Array(heapBuffer(this._M), p, values.length).set(values);
    return p;
  }

  /**
   * Adds a body with its shapes. Returns its id. On any error nothing is added.
   * @param {import('./index.js').BodyDesc} desc
   * @returns {number}
   */
  addBody(desc = {}) {
    const fn = 'addBody';
    this._alive(fn);
    checkKeys(fn, '', desc, BODY_OPTIONS);
    const type = desc.type ?? 'dynamic';
    if (!(type in BODY_TYPES)) throw new RangeError(`${fn}: type must be 'static', 'kinematic' or 'dynamic' (got ${JSON.stringify(type)})`);
    const M = this._M;
    const pos = this._put(0, vec(fn, 'position', desc.position, 3, [0, 0, 0]));
    const rot = this._put(4, vec(fn, 'rotation', desc.rotation, 4, [0, 0, 0, 1]));
    const shapes = desc.shapes ?? [];
    if (!Array.isArray(shapes)) throw new TypeError(`${fn}: shapes must be an array (got ${JSON.stringify(shapes)})`);
    const lv = vec(fn, 'linearVelocity', desc.linearVelocity, 3, null);
    const av = vec(fn, 'angularVelocity', desc.angularVelocity, 3, null);
    const ld = num(fn, 'linearDamping', desc.linearDamping, 0);
    const ad = num(fn, 'angularDamping', desc.angularDamping, 0);
    const id = M._tb_body_create(this._id, BODY_TYPES[type], pos, rot);
    if (id < 0) this._check(-id);
    this._version++;
    try {
      shapes.forEach((s, i) => this._addShape(id, s, `${fn}: shapes[${i}]`));
      if (lv || av) {
        this._check(M._tb_body_set_velocity(this._id, id, this._put(0, lv ?? [0, 0, 0]), this._put(4, av ?? [0, 0, 0])));
      }
      if (ld || ad) this._check(M._tb_body_set_damping(this._id, id, ld, ad));
      if (desc.mass !== undefined) this.setMass(id, desc.mass);
      if (desc.maxContactImpulse !== undefined) this.setMaxContactImpulse(id, desc.maxContactImpulse);
      if (desc.solverIterations !== undefined) {
        const it = desc.solverIterations;
        if (it == null || typeof it !== 'object') throw new TypeError(`${fn}: solverIterations must be { position, velocity } (got ${JSON.stringify(it)})`);
        checkKeys(`${fn}: solverIterations`, '', it, new Set(['position', 'velocity']));
        this.setSolverIterations(id, it.position ?? -1, it.velocity ?? -1);
      }
    } catch (e) {
      M._tb_body_destroy(this._id, id);
      throw e;
    }
    return id;
  }

  _addShape(body, s, where) {
    if (s == null || typeof s !== 'object') throw new TypeError(`${where} must be an object (got ${JSON.stringify(s)})`);
    checkKeys(where, '', s, SHAPE_OPTIONS);
    if (!(s.type in SHAPE_TYPES)) {
      throw new RangeError(`${where}.type must be one of ${Object.keys(SHAPE_TYPES).join(', ')} (got ${JSON.stringify(s.type)})`);
    }
    const need = (field) => {
      if (s[field] === undefined) throw new TypeError(`${where}.${field} is required for a ${s.type}`);
      return s[field];
    };
    let params;
    switch (s.type) {
      case 'plane': {
        const n = vec(where, 'normal', s.normal, 3, [0, 1, 0]);
        params = [n[0], n[1], n[2], num(where, 'offset', s.offset, 0)];
        break;
      }
      case 'sphere': params = [num(where, 'radius', need('radius')), 0, 0, 0]; break;
      case 'capsule': params = [num(where, 'radius', need('radius')), num(where, 'halfHeight', need('halfHeight')), 0, 0]; break;
      default: { const h = vec(where, 'halfExtents', need('halfExtents'), 3); params = [h[0], h[1], h[2], 0]; }
    }
    const M = this._M;
    const pp = this._put(0, params);
    const lp = this._put(4, vec(where, 'position', s.position, 3, [0, 0, 0]));
    const lr = this._put(8, vec(where, 'rotation', s.rotation, 4, [0, 0, 0, 1]));
    const r = M._tb_shape_create(this._id, body, SHAPE_TYPES[s.type], pp, lp, lr,
      num(where, 'friction', s.friction, DEFAULT_MATERIAL.friction),
      num(where, 'restitution', s.restitution, DEFAULT_MATERIAL.restitution),
      num(where, 'density', s.density, DEFAULT_MATERIAL.density));
    if (r < 0) {
      const msg = M.UTF8ToString(M._tb_last_error(this._id)).replace(/^addShape: /, '');
      throw errorFor(-r, `${where}: ${msg}`);
    }
    return r;
  }

  /** Removes a body and its shapes; its id is rejected afterwards. */
  removeBody(id) {
    this._alive('removeBody');
    this._check(this._M._tb_body_destroy(this._id, id));
    this._version++;
  }

  /** Sets body origin position (m, world) and rotation (unit quaternion x, y, z, w). */
  setPose(id, position, rotation = [0, 0, 0, 1]) {
    this._alive('setPose');
    const p = this._put(0, vec('setPose', 'position', position, 3));
    const q = this._put(4, vec('setPose', 'rotation', rotation, 4));
    this._check(this._M._tb_body_set_pose(this._id, id, p, q));
  }

  /** Sets linear velocity of the centre of mass (m/s) and angular velocity (rad/s), world axes. */
  setVelocity(id, linear, angular = [0, 0, 0]) {
    this._alive('setVelocity');
    const l = this._put(0, vec('setVelocity', 'linear', linear, 3));
    const a = this._put(4, vec('setVelocity', 'angular', angular, 3));
    this._check(this._M._tb_body_set_velocity(this._id, id, l, a));
  }

  /** Sets gravity (m/s², world axes). */
  setGravity(gravity) {
    this._alive('setGravity');
    this._check(this._M._tb_world_set_gravity(this._id, this._put(0, vec('setGravity', 'gravity', gravity, 3))));
  }

  /** Sets the timestep (s, > 0) of the following steps. */
  setTimestep(timestep) {
    this._alive('setTimestep');
    this._check(this._M._tb_world_set_timestep(this._id, num('setTimestep', 'timestep', timestep)));
    this.timestep = Math.fround(timestep);
  }

  /**
   * Overrides the mass properties: { mass (kg), center (body frame, m), inertia (principal, body axes, kg·m²) }.
   */
  setMass(id, m) {
    const fn = 'setMass';
    this._alive(fn);
    if (m == null || typeof m !== 'object') throw new TypeError(`${fn}: expected { mass, center?, inertia } (got ${JSON.stringify(m)})`);
    checkKeys(fn, '', m, MASS_OPTIONS);
    const c = this._put(0, vec(fn, 'center', m.center, 3, [0, 0, 0]));
    const i = this._put(4, vec(fn, 'inertia', m.inertia, 3));
    this._check(this._M._tb_body_set_mass(this._id, id, num(fn, 'mass', m.mass), c, i));
  }

  /** Mass properties: { mass (kg), center (body frame, m), inertia (3x3 row-major about the centre, body axes, kg·m²) }. */
  getMass(id) {
    this._alive('getMass');
    this._check(this._M._tb_body_get_mass(this._id, id, this._t._scratch));
    const v = new Float32Array(heapBuffer(this._M), this._t._scratch, 13);
    return { mass: v[0], center: [v[1], v[2], v[3]], inertia: Array.from(v.subarray(4, 13)) };
  }

  /**
   * Full state into `out` (13 floats: position, rotation x y z w, linear velocity, angular velocity).
   * @param {number} id
   * @param {Float32Array|number[]} [out] caller-supplied output (no allocation when given)
   */
  getState(id, out = new Float32Array(13)) { return this._stateSlice('getState', id, 0, 13, out); }

  /** Body origin position (m, world) into `out`. */
  getPosition(id, out = new Float32Array(3)) { return this._stateSlice('getPosition', id, 0, 3, out); }
  /** Rotation quaternion (x, y, z, w) into `out`. */
  getRotation(id, out = new Float32Array(4)) { return this._stateSlice('getRotation', id, 3, 4, out); }
  /** Linear velocity of the centre of mass (m/s, world) into `out`. */
  getLinearVelocity(id, out = new Float32Array(3)) { return this._stateSlice('getLinearVelocity', id, 7, 3, out); }
  /** Angular velocity (rad/s, world) into `out`. */
  getAngularVelocity(id, out = new Float32Array(3)) { return this._stateSlice('getAngularVelocity', id, 10, 3, out); }

  /** Values [first, first + n) of tb_body_get_state's 13 into out; errors name the caller. */
  _stateSlice(fn, id, first, n, out) {
    this._alive(fn);
    const M = this._M;
    const status = M._tb_body_get_state(this._id, id, this._t._scratch);
    if (status !== 0) {
      throw errorFor(status, M.UTF8ToString(M._tb_last_error(this._id)).replace(/^getState:/, `${fn}:`));
    }
    const v = new Float32Array(heapBuffer(M), this._t._scratch + 4 * first, n);
    for (let i = 0; i < n; i++) out[i] = v[i];
    return out;
  }

  /** Slot of a body id in the body views (7 transform floats per slot). */
  bodySlot(id) { return id & ID_INDEX_MASK; }

  /** Advances the world by n timesteps (collide + solve each). */
  step(n = 1) {
    this._alive('step');
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`step: n must be an integer >= 0 (got ${n})`);
    for (let i = 0; i < n; i++) this._check(this._M._tb_world_step(this._id));
    this._version++;
  }

  /** Collision stage only: contacts from the current state (impulses not yet available). */
  collide() {
    this._alive('collide');
    this._check(this._M._tb_world_collide(this._id));
    this._version++;
  }

  /** Solver stage only, on the contacts of the preceding collide(). */
  solve() {
    this._alive('solve');
    this._check(this._M._tb_world_solve(this._id));
    this._version++;
  }

  _fresh(cache) {
    return cache && cache.version === this._version && cache.buffer === heapBuffer(this._M);
  }

  /**
   * Body views over engine memory, indexed by slot (see bodySlot). Valid until the next call that
   * changes the world (step, collide, solve, addBody, removeBody); re-read after those.
   */
  get bodies() {
    this._alive('bodies');
    if (this._fresh(this._bodyViews)) return this._bodyViews.views;
    const M = this._M;
    const slots = M._tb_world_body_slot_count(this._id);
    const views = { slotCount: slots };
    for (const f of this._t.fields.body) {
      views[f.name] = new ARRAYS[f.type](heapBuffer(M), M._tb_world_field(this._id, 0, f.index), slots * f.components);
    }
    this._bodyViews = { version: this._version, buffer: heapBuffer(M), views };
    return views;
  }

  /**
   * Contact views over engine memory (count elements each; see fields.contact for units and
   * conventions). Valid until the next call that changes the world.
   */
  get contacts() {
    this._alive('contacts');
    if (this._fresh(this._contactViews)) return this._contactViews.views;
    const M = this._M;
    const s = this._t._scratch;
    this._check(M._tb_world_contact_status(this._id, s));
    const st = new Int32Array(heapBuffer(M), s, 9);
    const views = {
      count: st[0], capacity: st[1], requested: st[2], overflowed: st[3] !== 0,
      pairCount: st[4], pairCapacity: st[5], pairsRequested: st[6], pairsOverflowed: st[7] !== 0,
      readbackValid: st[8] !== 0,
    };
    for (const f of this._t.fields.contact) {
      views[f.name] = new ARRAYS[f.type](heapBuffer(M), M._tb_world_field(this._id, 1, f.index), views.count * f.components);
    }
    this._contactViews = { version: this._version, buffer: heapBuffer(M), views };
    return views;
  }

  /** Grows the contact store (the count of contact points it can report). */
  setContactCapacity(capacity) {
    this._alive('setContactCapacity');
    this._check(this._M._tb_world_set_contact_capacity(this._id, int('setContactCapacity', 'capacity', capacity)));
    this._version++;
  }

  /** Grows the broad-phase pair capacity (candidate pairs a step can keep; see contacts.pairsOverflowed). */
  setPairCapacity(capacity) {
    this._alive('setPairCapacity');
    this._check(this._M._tb_world_set_pair_capacity(this._id, int('setPairCapacity', 'capacity', capacity)));
    this._version++;
  }

  /** Statistics of the last step: threads used, constraint colours, manifolds, substeps. */
  get stepStats() {
    this._alive('stepStats');
    const s = this._t._scratch;
    this._check(this._M._tb_world_step_stats(this._id, s));
    const v = new Int32Array(heapBuffer(this._M), s, 5);
    return { threadsUsed: v[0], colorCount: v[1], overflowConstraints: v[2], manifoldCount: v[3], substeps: v[4] };
  }

  /** What the contact readback of this world's preset includes and excludes. */
  get readbackInfo() { return READBACK_INFO[this.preset]; }

  /* -- PhysX per-body solver settings and the solver status -- */

  /**
   * PhysX maxContactImpulse of a body (N·s per contact point and step, > 0; Infinity = no cap).
   * A pair of two non-static bodies uses the smaller cap, a pair with a static body the other's.
   */
  setMaxContactImpulse(id, maxImpulse) {
    const fn = 'setMaxContactImpulse';
    this._alive(fn);
    this._check(this._M._tb_body_set_max_contact_impulse(this._id, int(fn, 'id', id), num(fn, 'maxContactImpulse', maxImpulse)));
  }

  /**
   * PhysX solver iteration requests of a body: position in [1, 255], velocity in [0, 255]; -1 = the
   * world's. Each island (dynamic bodies linked by contacts) runs the largest request of its bodies.
   */
  setSolverIterations(id, position = -1, velocity = -1) {
    const fn = 'setSolverIterations';
    this._alive(fn);
    this._check(this._M._tb_body_set_solver_iterations(this._id, int(fn, 'id', id), int(fn, 'positionIterations', position),
      int(fn, 'velocityIterations', velocity)));
  }

  /**
   * Status of the last solve(): solver, iterations used (largest over the islands; at least one
   * velocity iteration runs), converged (always false for fixed-iteration solvers), residuals:
   * residualVelocity (m/s) = largest normal velocity error after the last iteration,
   * residualPenetration (m) = deepest penetration left after the step.
   */
  get solverStatus() {
    this._alive('solverStatus');
    const s = this._t._scratch;
    this._check(this._M._tb_world_solver_status(this._id, s));
    const i = new Int32Array(heapBuffer(this._M), s, 6);
    const f = new Float32Array(heapBuffer(this._M), s, 6);
    const names = ['pgs', 'tgs', 'xpbd', 'penalty'];
    return {
      solver: names[i[0]], positionIterations: i[1], velocityIterations: i[2], converged: i[3] !== 0,
      residualVelocity: f[4], residualPenetration: f[5],
    };
  }

  /** Frees the world and all its memory. The object is unusable afterwards. */
  free() {
    if (this._id < 0) return;
    this._check(this._M._tb_world_destroy(this._id));
    this._id = -1;
  }
}
