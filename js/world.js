/**
 * In-process World: bodies, shapes, stepping and typed-array views over engine memory.
 * @module tribo/world
 */
import { errorFor } from './errors.js';
import { ARRAYS, heapBuffer } from './fields.js';

const BODY_TYPES = { static: 0, kinematic: 1, dynamic: 2 };
const SHAPE_TYPES = { plane: 0, sphere: 1, capsule: 2, box: 3, heightfield: 7, mesh: 8 };
const PRESETS = ['physx-tgs'];
const ID_INDEX_MASK = 0xfffff;

const WORLD_OPTIONS = new Set(['preset', 'gravity', 'timestep', 'substeps', 'velocityIterations',
  'bounceThreshold', 'maxDepenetrationVelocity', 'contactHertz', 'contactDampingRatio', 'linearSlop',
  'speculativeDistance', 'warmStarting', 'contactCapacity', 'pairCapacity', 'bodyCapacity', 'threads']);
const BODY_OPTIONS = new Set(['type', 'position', 'rotation', 'linearVelocity', 'angularVelocity',
  'linearDamping', 'angularDamping', 'mass', 'shapes']);
const MASS_OPTIONS = new Set(['mass', 'center', 'inertia']);
const SHAPE_OPTIONS = new Set(['type', 'radius', 'halfExtents', 'halfHeight', 'normal', 'offset',
  'position', 'rotation', 'friction', 'restitution', 'density',
  /* heightfield and mesh */
  'rows', 'cols', 'heights', 'cellSize', 'vertices', 'indices']);
/* -- shape types section: convex (cylinder, ellipsoid, hull) -- */
Object.assign(SHAPE_TYPES, { cylinder: 4, ellipsoid: 5, hull: 6 });
for (const k of ['radii', 'points', 'supportField']) SHAPE_OPTIONS.add(k);
const SUPPORT_FIELD_OPTIONS = new Set(['resolution']);

/** Material defaults (PhysX-like): μ 0.5, restitution 0, density 1000 kg/m³. */
export const DEFAULT_MATERIAL = Object.freeze({ friction: 0.5, restitution: 0, density: 1000 });

/** What the contact readback of each preset contains. */
export const READBACK_INFO = Object.freeze({
  'physx-tgs': Object.freeze({
    preset: 'physx-tgs',
    normalImpulse: 'N·s per contact point over the whole step: sum of the impulses of every substep ' +
      '(position iteration), relaxation passes and the restitution pass',
    tangentImpulse: 'N·s per contact point over the step along tangent0 / tangent1 (Coulomb disc, μ = mean of the two shapes)',
    force: 'N: (normalImpulse·normal + tangentImpulse·tangents) / timestep, on body1 by body0 at the contact point, world axes; ' +
      'body0 receives the opposite',
    excludes: [],
    perContactForce: true,
  }),
});

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
  'solver.position_iterations': 'substeps', 'solver.velocity_iterations': 'velocityIterations',
  'solver.bounce_threshold_velocity': 'bounceThreshold', 'solver.max_depenetration_velocity': 'maxDepenetrationVelocity',
  'solver.contact_hertz': 'contactHertz', 'solver.contact_damping_ratio': 'contactDampingRatio',
  'solver.linear_slop': 'linearSlop', 'solver.speculative_distance': 'speculativeDistance',
  'body/contact/pair capacities': 'bodyCapacity/contactCapacity/pairCapacity',
};
function jsOptionNames(message) {
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
    const d = tribo._scratch;
    M._tb_default_world_def_into(d);
    const f32 = new Float32Array(heapBuffer(M), d, 17);
    const i32 = new Int32Array(heapBuffer(M), d, 17);
    const g = vec(fn, 'gravity', options.gravity, 3, [0, -9.81, 0]);
    f32[0] = g[0]; f32[1] = g[1]; f32[2] = g[2];
    f32[3] = num(fn, 'timestep', options.timestep, f32[3]);
    i32[4] = int(fn, 'bodyCapacity', options.bodyCapacity, i32[4]);
    i32[5] = int(fn, 'contactCapacity', options.contactCapacity, i32[5]);
    i32[6] = int(fn, 'pairCapacity', options.pairCapacity, i32[6]);
    i32[7] = threads;
    i32[8] = int(fn, 'substeps', options.substeps, i32[8]);
    i32[9] = int(fn, 'velocityIterations', options.velocityIterations, i32[9]);
    f32[10] = num(fn, 'bounceThreshold', options.bounceThreshold, f32[10]);
    f32[11] = num(fn, 'maxDepenetrationVelocity', options.maxDepenetrationVelocity, f32[11]);
    f32[12] = num(fn, 'contactHertz', options.contactHertz, f32[12]);
    f32[13] = num(fn, 'contactDampingRatio', options.contactDampingRatio, f32[13]);
    f32[14] = num(fn, 'linearSlop', options.linearSlop, f32[14]);
    f32[15] = num(fn, 'speculativeDistance', options.speculativeDistance, f32[15]);
    if (options.warmStarting !== undefined) i32[16] = options.warmStarting ? 1 : 0;
    const id = M._tb_world_create(d);
    if (id < 0) throw errorFor(-id, jsOptionNames(M.UTF8ToString(M._tb_last_error(-1))));
    this._id = id;
    this.timestep = f32[3];
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
    if (s.type === 'heightfield' || s.type === 'mesh') return this._addStaticGeometry(body, s, where, need);
    let params;
    switch (s.type) {
      case 'plane': {
        const n = vec(where, 'normal', s.normal, 3, [0, 1, 0]);
        params = [n[0], n[1], n[2], num(where, 'offset', s.offset, 0)];
        break;
      }
      case 'sphere': params = [num(where, 'radius', need('radius')), 0, 0, 0]; break;
      case 'capsule': params = [num(where, 'radius', need('radius')), num(where, 'halfHeight', need('halfHeight')), 0, 0]; break;
      case 'cylinder': params = [num(where, 'radius', need('radius')), num(where, 'halfHeight', need('halfHeight')), 0, 0]; break;
      case 'ellipsoid': { const r = vec(where, 'radii', need('radii'), 3); params = [r[0], r[1], r[2], 0]; break; }
      case 'hull': return this._addHull(body, s, where, need('points'));
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

  /* ---- heightfield and mesh shapes: arrays copied into engine memory for the call ---- */
  _addStaticGeometry(body, s, where, need) {
    const M = this._M;
    const numbers = (field, v, multiple, isInt) => {
      if (v == null || typeof v.length !== 'number' || typeof v === 'string') {
        throw new TypeError(`${where}.${field} must be an array of numbers (got ${JSON.stringify(v)})`);
      }
      if (v.length % multiple !== 0) throw new RangeError(`${where}.${field} length must be a multiple of ${multiple} (got ${v.length})`);
      if (!ArrayBuffer.isView(v) || isInt) {
        for (let i = 0; i < v.length; i++) {
          if (typeof v[i] !== 'number') throw new TypeError(`${where}.${field}[${i}] must be a number (got ${JSON.stringify(v[i])})`);
          if (isInt && !Number.isInteger(v[i])) throw new RangeError(`${where}.${field}[${i}] must be an integer (got ${v[i]})`);
        }
      }
      return v;
    };
    if (s.density !== undefined) throw new RangeError(`${where}.density does not apply to a ${s.type} (static shapes have no mass)`);
    const lp = this._put(0, vec(where, 'position', s.position, 3, [0, 0, 0]));
    const lr = this._put(4, vec(where, 'rotation', s.rotation, 4, [0, 0, 0, 1]));
    const friction = num(where, 'friction', s.friction, DEFAULT_MATERIAL.friction);
    const restitution = num(where, 'restitution', s.restitution, DEFAULT_MATERIAL.restitution);
    const blocks = [];
    const copy = (values, Type) => {
      const p = M._malloc(Math.max(4, 4 * values.length));
      if (!p) throw new RangeError(`${where}: out of memory for ${values.length} values`);
      blocks.push(p);
      new Type(heapBuffer(M), p, values.length).set(values);
      return p;
    };
    let r;
    try {
      if (s.type === 'heightfield') {
        const rows = int(where, 'rows', need('rows')), cols = int(where, 'cols', need('cols'));
        const heights = numbers('heights', need('heights'), 1, false);
        if (rows >= 2 && cols >= 2 && heights.length !== rows * cols) {
          throw new RangeError(`${where}.heights must hold rows × cols = ${rows * cols} values (got ${heights.length})`);
        }
        const cell = vec(where, 'cellSize', need('cellSize'), 2);
        const hp = copy(heights.length === rows * cols ? heights : [], Float32Array);
        r = M._tb_shape_create_heightfield(this._id, body, rows, cols, hp, cell[0], cell[1], lp, lr, friction, restitution);
      } else {
        const vertices = numbers('vertices', need('vertices'), 3, false);
        const indices = numbers('indices', need('indices'), 3, true);
        const vp = copy(vertices, Float32Array), ip = copy(indices, Int32Array);
        r = M._tb_shape_create_mesh(this._id, body, vp, vertices.length / 3, ip, indices.length / 3, lp, lr, friction, restitution);
      }
    } finally {
      for (const p of blocks) M._free(p);
    }
    if (r < 0) {
      const msg = M.UTF8ToString(M._tb_last_error(this._id)).replace(/^addShape: /, '');
      throw errorFor(-r, `${where}: ${msg}`);
    }
    return r;
  }

  /** Convex hull shape from a flat array (or Float32Array) of x, y, z point coordinates (m, shape frame). */
  _addHull(body, s, where, points) {
    if (points == null || typeof points.length !== 'number' || typeof points === 'string') {
      throw new TypeError(`${where}.points must be an array or Float32Array of x, y, z numbers (got ${JSON.stringify(points)})`);
    }
    if (points.length % 3 !== 0) {
      throw new RangeError(`${where}.points length must be a multiple of 3 (x, y, z per point) (got ${points.length})`);
    }
    if (!(points instanceof Float32Array)) {
      for (let i = 0; i < points.length; i++) {
        if (typeof points[i] !== 'number') throw new TypeError(`${where}.points[${i}] must be a number (got ${JSON.stringify(points[i])})`);
      }
    }
    let res = -1;
    if (s.supportField !== undefined) {
      checkKeys(`${where}.supportField`, '', s.supportField, SUPPORT_FIELD_OPTIONS);
      res = num(`${where}.supportField`, 'resolution', s.supportField.resolution);
      if (!Number.isInteger(res)) throw new RangeError(`${where}: supportField.resolution must be an integer (got ${res})`);
    }
    const M = this._M;
    const lp = this._put(4, vec(where, 'position', s.position, 3, [0, 0, 0]));
    const lr = this._put(8, vec(where, 'rotation', s.rotation, 4, [0, 0, 0, 1]));
    const friction = num(where, 'friction', s.friction, DEFAULT_MATERIAL.friction);
    const restitution = num(where, 'restitution', s.restitution, DEFAULT_MATERIAL.restitution);
    const density = num(where, 'density', s.density, DEFAULT_MATERIAL.density);
    const bytes = 4 * Math.max(points.length, 1);
    const ptr = M._malloc(bytes);
    if (!ptr) throw new RangeError(`${where}: out of memory for ${points.length / 3} hull points`);
    let r;
    try {
      new Float32Array(heapBuffer(M), ptr, points.length).set(points);
      r = M._tb_shape_create_hull_ex(this._id, body, ptr, points.length / 3, res, lp, lr, friction, restitution, density);
    } finally {
      M._free(ptr);
    }
    if (r < 0) {
      const msg = M.UTF8ToString(M._tb_last_error(this._id)).replace(/^addHull: /, '');
      throw errorFor(-r, `${where}: ${msg}`);
    }
    if (!this._hulls) this._hulls = new Map();
    if (!this._hulls.has(body)) this._hulls.set(body, []);
    this._hulls.get(body).push(r);
    return r;
  }

  /**
   * The convex hull of a body's `index`-th hull shape (in the order of its `shapes`): vertex, edge
   * and face counts (V − E + F = 2), support field resolution (0 = exact vertex scan) and memory.
   * @param {number} body
   * @param {number} [index]
   */
  hullInfo(body, index = 0) {
    const fn = 'hullInfo';
    this._alive(fn);
    const list = this._hulls?.get(body);
    if (!list || !Number.isInteger(index) || index < 0 || index >= list.length) {
      throw new RangeError(`${fn}: body ${body} has no hull shape number ${index} (it has ${list ? list.length : 0})`);
    }
    const M = this._M;
    this._check(M._tb_shape_get_hull(this._id, list[index], this._t._scratch));
    const buf = heapBuffer(M);
    const i = new Int32Array(buf, this._t._scratch, 10);
    const f = new Float32Array(buf, this._t._scratch, 10);
    /* tb_hull_info: 4 int32, 2 int64 (little-endian, below 2^53), 1 float */
    return {
      vertexCount: i[0], faceCount: i[1], edgeCount: i[2], supportFieldResolution: i[3],
      supportFieldBytes: i[4] + i[5] * 2 ** 32, totalBytes: i[6] + i[7] * 2 ** 32, radius: f[8],
    };
  }

  /** Removes a body and its shapes; its id is rejected afterwards. */
  removeBody(id) {
    this._alive('removeBody');
    this._check(this._M._tb_body_destroy(this._id, id));
    this._hulls?.delete(id);
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

  /** Frees the world and all its memory. The object is unusable afterwards. */
  free() {
    if (this._id < 0) return;
    this._check(this._M._tb_world_destroy(this._id));
    this._id = -1;
  }
}
