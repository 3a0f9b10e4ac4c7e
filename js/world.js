/**
 * In-process World: bodies, shapes, stepping and typed-array views over engine memory.
 * @module tribo/world
 */
import { errorFor } from './errors.js';
import { ARRAYS, heapBuffer, readFieldTable } from './fields.js';
import * as observe from './observe.js';

const BODY_TYPES = { static: 0, kinematic: 1, dynamic: 2 };
const SHAPE_TYPES = { plane: 0, sphere: 1, capsule: 2, box: 3, heightfield: 7, mesh: 8 };
/** Preset names in engine order (tb_preset). */
const PRESETS = ['physx-pgs', 'physx-tgs', 'newton-xpbd', 'newton-semi', 'mujoco', 'kamino'];
/** Presets whose solver exists in this version. */
const AVAILABLE_PRESETS = ['physx-pgs', 'physx-tgs', 'newton-xpbd', 'newton-semi', 'kamino'];
const ID_INDEX_MASK = 0xfffff;

/** Names of the enum-valued world options, in engine order. */
const ENUMS = {
  solver: ['pgs', 'tgs', 'xpbd', 'penalty', null /* mujoco */, 'kamino'],
  combineRule: ['physx', 'mean', 'vbd', 'kamino', 'mujoco'],
  readback: ['physx', 'newton'],
  broadPhase: ['sap', 'all-pairs', 'explicit'],
  filterRule: ['newton', 'mujoco', 'physx', 'genesis'],
  distanceRule: ['newton', 'mujoco', 'physx'],
  matching: ['latest', 'sticky'],
};

/**
 * World options stored in the engine's world definition: JS name -> [C field path, kind].
 * Fields are located through the engine's definition table (TB_FIELDS_WORLD_DEF), never by offset.
 * Kinds: 'num', 'int', 'bool', 'vec3', or an ENUMS key.
 */
const DEF_OPTIONS = {
  gravity: ['gravity', 'vec3'],
  timestep: ['timestep', 'num'],
  bodyCapacity: ['body_capacity', 'int'],
  contactCapacity: ['contact_capacity', 'int'],
  pairCapacity: ['pair_capacity', 'int'],
  substeps: ['solver.position_iterations', 'int'],
  positionIterations: ['solver.position_iterations', 'int'],
  velocityIterations: ['solver.velocity_iterations', 'int'],
  bounceThreshold: ['solver.bounce_threshold_velocity', 'num'],
  maxDepenetrationVelocity: ['solver.max_depenetration_velocity', 'num'],
  contactHertz: ['solver.contact_hertz', 'num'],
  contactDampingRatio: ['solver.contact_damping_ratio', 'num'],
  linearSlop: ['solver.linear_slop', 'num'],
  speculativeDistance: ['solver.speculative_distance', 'num'],
  warmStarting: ['solver.warm_starting', 'bool'],
  solver: ['solver.solver', 'solver'],
  combineRule: ['solver.combine_rule', 'combineRule'],
  kaminoCombine: ['solver.combine', 'kaminoCombine'],
  readback: ['solver.readback', 'readback'],
  broadPhase: ['collision.broad_phase', 'broadPhase'],
  filterRule: ['collision.filter_rule', 'filterRule'],
  distanceRule: ['collision.distance_rule', 'distanceRule'],
  matching: ['collision.matching', 'matching'],
  maxPointsPerPair: ['collision.max_points_per_pair', 'int'],
  matchDistance: ['collision.match_distance', 'num'],
  /* -- filtering -- */
  maxCollisionPairs: ['collision.max_collision_pairs', 'int'],
  /* Newton XPBD */
  iterations: ['solver.newton.iterations', 'int'],
  relaxation: ['solver.newton.relaxation', 'num'],
  contactWeighting: ['solver.newton.contact_weighting', 'bool'],
  restitution: ['solver.newton.restitution', 'bool'],
  restitutionIterations: ['solver.newton.restitution_iterations', 'int'],
  velocityFromPositions: ['solver.newton.velocity_from_positions', 'bool'],
  /* Newton penalty */
  penaltySubsteps: ['solver.newton.substeps', 'int'],
  ke: ['solver.newton.ke', 'num'],
  kd: ['solver.newton.kd', 'num'],
  kf: ['solver.newton.kf', 'num'],
  ka: ['solver.newton.ka', 'num'],
  frictionSmoothing: ['solver.newton.friction_smoothing', 'num'],
  /* PhysX PGS / TGS */
  frictionEveryIteration: ['solver.friction_every_iteration', 'bool'],
  externalForcesEveryIteration: ['solver.external_forces_every_iteration', 'bool'],
  biasCoefficient: ['solver.bias_coefficient', 'num'],
  /* Kamino PADMM */
  maxIterations: ['solver.kamino.max_iterations', 'int'],
  primalTolerance: ['solver.kamino.primal_tolerance', 'num'],
  dualTolerance: ['solver.kamino.dual_tolerance', 'num'],
  complementarityTolerance: ['solver.kamino.complementarity_tolerance', 'num'],
  eta: ['solver.kamino.eta', 'num'],
  rho: ['solver.kamino.rho', 'num'],
  warmStartScale: ['solver.kamino.warm_start_scale', 'num'],
  stabilization: ['solver.kamino.stabilization', 'num'],
  deadZone: ['solver.kamino.dead_zone', 'num'],
};
/** Options that may change between steps (solver and collision axes). */
const RUNTIME_OPTIONS = new Set(Object.keys(DEF_OPTIONS).filter((k) => /^(solver|collision)\./.test(DEF_OPTIONS[k][0])));
const WORLD_OPTIONS = new Set(['preset', 'threads', ...Object.keys(DEF_OPTIONS)]);
const BODY_OPTIONS = new Set(['type', 'position', 'rotation', 'linearVelocity', 'angularVelocity',
  'linearDamping', 'angularDamping', 'mass', 'shapes', 'maxContactImpulse', 'solverIterations',
  /* filtering */ 'parent', 'sleeping']);
const MASS_OPTIONS = new Set(['mass', 'center', 'inertia']);
const SHAPE_OPTIONS = new Set(['type', 'radius', 'halfExtents', 'halfHeight', 'normal', 'offset',
  'position', 'rotation', 'friction', 'restitution', 'density',
  /* filtering */ 'world', 'collisionGroup', 'contype', 'conaffinity', 'filterData', 'trigger',
  /* -- shape options section: distances -- */
  'margin', 'gap', 'contactOffset', 'restOffset', 'material',
  /* heightfield and mesh */
  'rows', 'cols', 'heights', 'cellSize', 'vertices', 'indices']);

/* -- Newton presets: XPBD and penalty (semi-implicit Euler) -- */
/** tb_preset values of the Newton presets. */
const OVERRIDE_OPTIONS = new Set(['stiffness', 'damping', 'frictionScale']);
/* -- shape types section: convex (cylinder, ellipsoid, hull) -- */
Object.assign(SHAPE_TYPES, { cylinder: 4, ellipsoid: 5, hull: 6 });
for (const k of ['radii', 'points', 'supportField']) SHAPE_OPTIONS.add(k);
const SUPPORT_FIELD_OPTIONS = new Set(['resolution']);

/* -- filtering: broad phase, filter rules, per-shape filter fields, queries -- */
const FILTER_KEYS = ['world', 'collisionGroup', 'contype', 'conaffinity', 'filterData', 'trigger'];
const SHAPE_FILTER_OPTIONS = new Set(FILTER_KEYS);
const QUERY_OPTIONS = new Set(['maxDistance', 'skipBody', 'mask', 'capacity']);
const OVERLAP_OPTIONS = new Set(['position', 'rotation', 'skipBody', 'mask', 'capacity']);
const CONTACT_PAIR_OPTIONS = new Set(['margin', 'gap', 'friction']);
/** MuJoCo's default friction of an explicit pair: sliding ×2, torsional (m), rolling ×2 (m). */
const MUJOCO_PAIR_FRICTION = [1, 1, 0.005, 0.0001, 0.0001];
const RAY_HIT_WORDS = 9; /* tb_ray_hit: shape, body, point[3], normal[3], distance */

function uint32(fn, field, v) {
  if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) {
    throw new RangeError(`${fn}: ${field} must be an integer in [0, 2^32) (got ${JSON.stringify(v)})`);
  }
  return v >>> 0;
}

/** Shape parameters (4 numbers) of a shape descriptor; `where` names the caller and entry. */
function shapeParams(where, s) {
  if (!(s.type in SHAPE_TYPES)) {
    throw new RangeError(`${where}.type must be one of ${Object.keys(SHAPE_TYPES).join(', ')} (got ${JSON.stringify(s.type)})`);
  }
  const need = (field) => {
    if (s[field] === undefined) throw new TypeError(`${where}.${field} is required for a ${s.type}`);
    return s[field];
  };
  switch (s.type) {
    case 'plane': {
      const n = vec(where, 'normal', s.normal, 3, [0, 1, 0]);
      return [n[0], n[1], n[2], num(where, 'offset', s.offset, 0)];
    }
    case 'sphere': return [num(where, 'radius', need('radius')), 0, 0, 0];
    case 'capsule':
    case 'cylinder': return [num(where, 'radius', need('radius')), num(where, 'halfHeight', need('halfHeight')), 0, 0];
    case 'ellipsoid': { const r = vec(where, 'radii', need('radii'), 3); return [r[0], r[1], r[2], 0]; }
    case 'hull':
    case 'heightfield':
    case 'mesh': throw new RangeError(`${where}.type ${s.type} is built from data, not parameters`);
    default: { const h = vec(where, 'halfExtents', need('halfExtents'), 3); return [h[0], h[1], h[2], 0]; }
  }
}

/** Material defaults (PhysX-like): μ 0.5, restitution 0, density 1000 kg/m³. */
export const DEFAULT_MATERIAL = Object.freeze({ friction: 0.5, restitution: 0, density: 1000 });

/* ---- materials: combine rules and modes, the tb_material layout ---- */
/** World combine rules (tb_combine_rule order). */
export const COMBINE_RULES = Object.freeze(['physx', 'mean', 'vbd', 'kamino', 'mujoco']);
/** Combine modes (tb_combine_mode order: the PhysX rule uses the larger one of the two shapes). */
export const COMBINE_MODES = Object.freeze(['average', 'min', 'multiply', 'max']);
const MATERIAL_OPTIONS = new Set(['staticFriction', 'dynamicFriction', 'restitution', 'frictionCombine',
  'restitutionCombine', 'dampingCombine', 'disableFriction', 'disableStrongFriction', 'compliant',
  'torsionalFriction', 'rollingFriction', 'ke', 'kd', 'kf', 'ka',
  'priority', 'condim', 'solmix', 'solref', 'solimp', 'adhesion']);
const COMPLIANT_OPTIONS = new Set(['stiffness', 'damping', 'accelerationSpring']);
const KAMINO_OPTIONS = new Set(['friction', 'restitution']);
const MATERIAL_FLAGS = { disableFriction: 1, disableStrongFriction: 2, accelerationSpring: 4 };
/* tb_material: 26 four-byte words (ints: the combines, flags, priority, condim) */
const MAT = {
  staticFriction: 0, dynamicFriction: 1, restitution: 2, frictionCombine: 3, restitutionCombine: 4,
  dampingCombine: 5, flags: 6, stiffness: 7, damping: 8, torsionalFriction: 9, rollingFriction: 10,
  ke: 11, kd: 12, kf: 13, ka: 14, priority: 15, condim: 16, solmix: 17, solref: 18, solimp: 20,
  adhesion: 25, WORDS: 26,
};
/** C field names of tb_material as the JS descriptor spells them. */
const MATERIAL_C_TO_JS = {
  static_friction: 'staticFriction', dynamic_friction: 'dynamicFriction', restitution: 'restitution',
  compliant_stiffness: 'compliant.stiffness', compliant_damping: 'compliant.damping',
  torsional_friction: 'torsionalFriction', rolling_friction: 'rollingFriction', ke: 'ke', kd: 'kd', kf: 'kf', ka: 'ka',
  solmix: 'solmix', adhesion: 'adhesion', condim: 'condim', solref: 'solref', solimp: 'solimp',
};

function combineMode(where, field, v) {
  const i = COMBINE_MODES.indexOf(v);
  if (i < 0) throw new RangeError(`${where}.${field} must be one of ${COMBINE_MODES.map((m) => `'${m}'`).join(', ')} (got ${JSON.stringify(v)})`);
  return i;
}

function matNum(where, field, v) {
  if (typeof v !== 'number') throw new TypeError(`${where}.${field} must be a number (got ${JSON.stringify(v)})`);
  return v;
}

function bool(where, field, v) {
  if (typeof v !== 'boolean') throw new TypeError(`${where}.${field} must be true or false (got ${JSON.stringify(v)})`);
  return v;
}

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
  'newton-xpbd': Object.freeze({
    preset: 'newton-xpbd',
    normalImpulse: 'N·s per contact over the step: the position-correction impulses p_n = ω(−d)/(h·w) of the fixed ' +
      'iterations, each multiplied by the contact-count weighting scale of its iteration (1/N when one side has a ' +
      'body, 2/(NA+NB) when both do; see readbackScale); an approximation of the two sides\' actual corrections, which ' +
      'are divided by each body\'s own N',
    tangentImpulse: 'N·s per contact over the step along tangent0 / tangent1 on body1: the friction corrections, each ' +
      'limited by μ·p_n of its iteration (μ = mean of the two shapes), weighted like normalImpulse',
    force: 'N: the total weighted impulse on body1 / timestep, world axes; wrench (Newton convention): by body1 on ' +
      'body0, force then torque (N·m) about body0\'s centre of mass (static body0: its origin), torques accumulated ' +
      'with each iteration\'s arms plus torsional and rolling friction',
    excludes: ['the restitution velocity pass (restitution: true) is not in the readback'],
    perContactForce: true,
    perBodyForce: 'netContactWrench(id): sum of the weighted readback of the body\'s contacts / timestep, about its centre of mass',
  }),
  'newton-semi': Object.freeze({
    preset: 'newton-semi',
    normalImpulse: 'not available: the penalty solver computes body forces only (NaN)',
    tangentImpulse: 'not available (NaN)',
    force: 'not available (NaN in force and wrench): use netContactWrench(id), the time average over the step of the ' +
      'penalty forces a_n = ke·d + kd·min(v_n, 0) and the Huber-smoothed friction on the body, N and N·m about its ' +
      'centre of mass, world axes',
    excludes: ['per-contact forces (the solver has none)'],
    perContactForce: false,
    perBodyForce: 'netContactWrench(id) (no `with` filter): average contact force (N) and torque about the centre of mass (N·m) over the step',
  }),
  kamino: Object.freeze({
    preset: 'kamino',
    normalImpulse: 'N·s per contact over the step: the normal component of the PADMM solution λ (the cone-projected ' +
      'slack y of the last iteration, unscaled), on body1 along +normal; with restitution (e·pre-step normal velocity) ' +
      'and the Baumgarte push-out γ·penetration/h in it',
    tangentImpulse: 'N·s per contact along tangent0 / tangent1 on body1: the friction components of λ, inside the Coulomb ' +
      'cone |λt| <= μ·λn (μ = average of the two shapes)',
    force: 'N: λ / timestep on body1 by body0 at the contact, world axes (the solver applies it at point0 on body0 and ' +
      'point1 on body1); wrench (Newton\'s Kamino conversion): by body1 on body0, force then torque (N·m) ' +
      '(point0 − C0) × f0 about body0\'s centre of mass C0 after the step; zero torque for a static body0. If the ' +
      'solve stopped on its iteration budget (solverStatus.converged false) the impulses are not converged: ' +
      'see residualPrimal / residualDual / residualComplementarity',
    excludes: ['torsional and rolling friction (no such rows)'],
    perContactForce: true,
    perBodyForce: 'netContactWrench(id): sum of the body\'s contact impulses / timestep, about its centre of mass',
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

/** The engine names definition fields as in C; say them as the JS options are spelled. */
function jsOptionNames(message, options = {}) {
  message = message.replace('body/contact/pair capacities', 'bodyCapacity/contactCapacity/pairCapacity');
  const done = new Set();
  /* the name the caller used wins; otherwise the first JS name of a field */
  /* longest C path first, so a path is never replaced inside a longer one */
  const entries = Object.entries(DEF_OPTIONS).sort(([a, [ca]], [b, [cb]]) => (b in options) - (a in options) || cb.length - ca.length);
  for (const [js, [c]] of entries) {
    if (!c.includes('.') || done.has(c)) continue;
    done.add(c);
    message = message.split(c).join(js);
  }
  return message;
}

/** Field info of the world definition by C path, from the engine's table (cached per module). */
function defTable(tribo) {
  if (!tribo._defTable) {
    const map = new Map();
    for (const f of readFieldTable(tribo._M, 2)) map.set(f.cName, f);
    tribo._defTable = map;
  }
  return tribo._defTable;
}

/**
 * Writes options into the world definition at address d (already filled with defaults).
 * @param {string[]} keys the option names to write (others are ignored)
 */
function writeDef(tribo, d, options, keys, fn) {
  const M = tribo._M;
  const table = defTable(tribo);
  for (const key of keys) {
    const v = options[key];
    if (v === undefined || !DEF_OPTIONS[key]) continue;
    const [path, kind] = DEF_OPTIONS[key];
    if (kind === 'kaminoCombine') {
      /* { friction, restitution } combine modes of the Kamino rule; omitted ones are kept */
      checkKeys(fn, 'kaminoCombine.', v, KAMINO_OPTIONS);
      for (const k of ['friction', 'restitution']) {
        if (v[k] === undefined) continue;
        new Int32Array(heapBuffer(M), d + table.get(`solver.combine.kamino_${k}`).offset, 1)[0] = combineMode(`${fn}: kaminoCombine`, k, v[k]);
      }
      continue;
    }
    const f = table.get(path);
    if (!f) throw new Error(`${fn}: the engine has no field ${path}`);
    const buf = heapBuffer(M);
    if (kind === 'vec3') new Float32Array(buf, d + f.offset, 3).set(vec(fn, key, v, 3));
    else if (kind === 'num') new Float32Array(buf, d + f.offset, 1)[0] = num(fn, key, v);
    else if (kind === 'int') new Int32Array(buf, d + f.offset, 1)[0] = int(fn, key, v);
    else if (kind === 'bool') {
      if (typeof v !== 'boolean') throw new TypeError(`${fn}: ${key} must be a boolean (got ${JSON.stringify(v)})`);
      new Int32Array(buf, d + f.offset, 1)[0] = v ? 1 : 0;
    }
    else {
      const names = ENUMS[kind];
      const i = typeof v === 'string' ? names.indexOf(v) : -1; /* null marks a value not built in */
      if (i < 0) throw new RangeError(`${fn}: ${key} must be one of ${names.filter((n) => n !== null).map((n) => JSON.stringify(n)).join(', ')} (got ${JSON.stringify(v)})`);
      new Int32Array(buf, d + f.offset, 1)[0] = i;
    }
  }
}

/** Reads one definition field (C path) at address d. */
function readDef(tribo, d, path) {
  const f = defTable(tribo).get(path);
  const buf = heapBuffer(tribo._M);
  return f.type === 'f32' ? new Float32Array(buf, d + f.offset, f.components) : new Int32Array(buf, d + f.offset, f.components);
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
    if (!AVAILABLE_PRESETS.includes(preset)) {
      throw new RangeError(`${fn}: preset ${JSON.stringify(preset)} is not available in this version (available: ${AVAILABLE_PRESETS.join(', ')})`);
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
    if (M._tb_preset_apply(PRESETS.indexOf(preset), d) !== 0) throw new Error(`${fn}: preset ${preset} rejected by the engine`);
    if (options.substeps !== undefined && options.positionIterations !== undefined) {
      throw new RangeError(`${fn}: give substeps or positionIterations, not both`);
    }
    writeDef(tribo, d, options, Object.keys(options), fn);
    readDef(tribo, d, 'thread_count')[0] = threads;
    const id = M._tb_world_create(d);
    if (id < 0) throw errorFor(-id, jsOptionNames(M.UTF8ToString(M._tb_last_error(-1)), options));
    this._id = id;
    this.timestep = readDef(tribo, d, 'timestep')[0];
    this.threads = threads;
    this._version = 0;
    this._bodyViews = null;
    this._contactViews = null;
    this._shapeIds = new Map(); /* filtering: body id -> its shape ids, in creation order */
    this._sensorCapacity = new Map(); // observation: history capacity per sensor id
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
      if (desc.parent !== undefined) this.setParent(id, desc.parent, fn);
      if (desc.sleeping !== undefined) this.setSleeping(id, desc.sleeping, fn);
      if (desc.maxContactImpulse !== undefined) this.setMaxContactImpulse(id, desc.maxContactImpulse);
      if (desc.solverIterations !== undefined) {
        const it = desc.solverIterations;
        if (it == null || typeof it !== 'object') throw new TypeError(`${fn}: solverIterations must be { position, velocity } (got ${JSON.stringify(it)})`);
        checkKeys(`${fn}: solverIterations`, '', it, new Set(['position', 'velocity']));
        this.setSolverIterations(id, it.position ?? -1, it.velocity ?? -1);
      }
    } catch (e) {
      M._tb_body_destroy(this._id, id);
      this._shapeIds.delete(id);
      throw e;
    }
    return id;
  }

  _addShape(body, s, where) {
    if (s == null || typeof s !== 'object') throw new TypeError(`${where} must be an object (got ${JSON.stringify(s)})`);
    checkKeys(where, '', s, SHAPE_OPTIONS);
    if (s.type === 'heightfield' || s.type === 'mesh') {
      const need = (field) => {
        if (s[field] === undefined) throw new TypeError(`${where}.${field} is required for a ${s.type}`);
        return s[field];
      };
      return this._shapeAdded(where, body, s, this._addStaticGeometry(body, s, where, need));
    }
    if (s.type === 'hull') {
      if (s.points === undefined) throw new TypeError(`${where}.points is required for a hull`);
      return this._shapeAdded(where, body, s, this._addHull(body, s, where, s.points));
    }
    const params = shapeParams(where, s);
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
    /* -- shape section: distances (the body and its shapes are removed by addBody on error) -- */
    if (s.margin !== undefined || s.gap !== undefined || s.contactOffset !== undefined || s.restOffset !== undefined) {
      const status = M._tb_shape_set_distances(this._id, r, num(where, 'margin', s.margin, 0), num(where, 'gap', s.gap, 0),
        num(where, 'contactOffset', s.contactOffset, 0), num(where, 'restOffset', s.restOffset, 0));
      if (status !== 0) {
        const msg = M.UTF8ToString(M._tb_last_error(this._id)).replace(/^setShapeDistances: /, '');
        throw errorFor(status, `${where}: ${msg}`);
      }
    }
    if (s.material !== undefined) this._setMaterial(r, s.material, `${where}.material`);
    return this._shapeAdded(where, body, s, r);
  }

  /* filtering: a created shape's filter fields, and its id in the body's list */
  _shapeAdded(where, body, s, r) {
    if (FILTER_KEYS.some((k) => s[k] !== undefined)) this._setShapeFilter(where, r, s);
    let list = this._shapeIds.get(body);
    if (!list) this._shapeIds.set(body, (list = []));
    list.push(r);
    return r;
  }

  /* ---- materials ---- */

  /**
   * Changes a shape's material: the fields given replace the current ones, the others are kept
   * (see index.d.ts ShapeMaterial). On error the shape keeps its material.
   */
  setMaterial(shapeId, material) {
    this._alive('setMaterial');
    this._setMaterial(shapeId, material, 'setMaterial: material');
  }

  _setMaterial(shape, m, where) {
    if (m == null || typeof m !== 'object' || Array.isArray(m)) throw new TypeError(`${where} must be an object (got ${JSON.stringify(m)})`);
    checkKeys(where, '', m, MATERIAL_OPTIONS);
    const M = this._M;
    const p = this._t._scratch;
    const fn = where.replace(/:.*$/, '');
    const st = M._tb_shape_get_material(this._id, shape, p);
    if (st !== 0) throw errorFor(st, M.UTF8ToString(M._tb_last_error(this._id)).replace(/^getMaterial:/, `${fn}:`));
    const f32 = new Float32Array(heapBuffer(M), p, MAT.WORDS);
    const i32 = new Int32Array(heapBuffer(M), p, MAT.WORDS);
    for (const k of ['staticFriction', 'dynamicFriction', 'restitution', 'torsionalFriction', 'rollingFriction', 'ke', 'kd', 'kf', 'ka', 'solmix', 'adhesion']) {
      if (m[k] !== undefined) f32[MAT[k]] = matNum(where, k, m[k]);
    }
    for (const k of ['priority', 'condim']) {
      if (m[k] === undefined) continue;
      if (!Number.isInteger(m[k])) throw new TypeError(`${where}.${k} must be an integer (got ${JSON.stringify(m[k])})`);
      i32[MAT[k]] = m[k];
    }
    for (const [k, n] of [['solref', 2], ['solimp', 5]]) {
      const v = m[k];
      if (v === undefined) continue;
      if (v == null || typeof v.length !== 'number' || v.length !== n) {
        throw new TypeError(`${where}.${k} must be an array of ${n} numbers (got ${JSON.stringify(v)})`);
      }
      for (let j = 0; j < n; j++) f32[MAT[k] + j] = matNum(where, `${k}[${j}]`, v[j]);
    }
    for (const k of ['frictionCombine', 'restitutionCombine', 'dampingCombine']) {
      if (m[k] !== undefined) i32[MAT[k]] = combineMode(where, k, m[k]);
    }
    let flags = i32[MAT.flags];
    const flag = (name, v) => { flags = v ? flags | MATERIAL_FLAGS[name] : flags & ~MATERIAL_FLAGS[name]; };
    if (m.disableFriction !== undefined) flag('disableFriction', bool(where, 'disableFriction', m.disableFriction));
    if (m.disableStrongFriction !== undefined) flag('disableStrongFriction', bool(where, 'disableStrongFriction', m.disableStrongFriction));
    if (m.compliant !== undefined) {
      const c = m.compliant;
      if (c == null || typeof c !== 'object' || Array.isArray(c)) throw new TypeError(`${where}.compliant must be an object (got ${JSON.stringify(c)})`);
      checkKeys(`${where}.compliant`, '', c, COMPLIANT_OPTIONS);
      if (c.stiffness !== undefined) f32[MAT.stiffness] = matNum(where, 'compliant.stiffness', c.stiffness);
      if (c.damping !== undefined) f32[MAT.damping] = matNum(where, 'compliant.damping', c.damping);
      if (c.accelerationSpring !== undefined) flag('accelerationSpring', bool(`${where}.compliant`, 'accelerationSpring', c.accelerationSpring));
    }
    i32[MAT.flags] = flags;
    const r = M._tb_shape_set_material(this._id, shape, p);
    if (r !== 0) {
      const msg = M.UTF8ToString(M._tb_last_error(this._id))
        .replace(/^setMaterial: ([a-z_]+)/, (_, f) => `${where}.${MATERIAL_C_TO_JS[f] ?? f}`);
      throw errorFor(r, msg);
    }
  }

  /** A shape's full material (see index.d.ts ShapeMaterial). */
  getMaterial(shapeId) {
    this._alive('getMaterial');
    const M = this._M;
    const p = this._t._scratch;
    this._check(M._tb_shape_get_material(this._id, shapeId, p));
    const f = new Float32Array(heapBuffer(M), p, MAT.WORDS);
    const i = new Int32Array(heapBuffer(M), p, MAT.WORDS);
    const flags = i[MAT.flags];
    return {
      staticFriction: f[MAT.staticFriction], dynamicFriction: f[MAT.dynamicFriction], restitution: f[MAT.restitution],
      frictionCombine: COMBINE_MODES[i[MAT.frictionCombine]], restitutionCombine: COMBINE_MODES[i[MAT.restitutionCombine]],
      dampingCombine: COMBINE_MODES[i[MAT.dampingCombine]],
      disableFriction: (flags & 1) !== 0, disableStrongFriction: (flags & 2) !== 0,
      compliant: { stiffness: f[MAT.stiffness], damping: f[MAT.damping], accelerationSpring: (flags & 4) !== 0 },
      torsionalFriction: f[MAT.torsionalFriction], rollingFriction: f[MAT.rollingFriction],
      ke: f[MAT.ke], kd: f[MAT.kd], kf: f[MAT.kf], ka: f[MAT.ka],
      priority: i[MAT.priority], condim: i[MAT.condim], solmix: f[MAT.solmix],
      solref: Array.from(f.subarray(MAT.solref, MAT.solref + 2)), solimp: Array.from(f.subarray(MAT.solimp, MAT.solimp + 5)),
      adhesion: f[MAT.adhesion],
    };
  }

  /** Shape ids of a body, in creation order (the order of `addBody`'s `shapes`). */
  shapesOf(bodyId) {
    this._alive('shapesOf');
    const M = this._M;
    const n = M._tb_body_get_shapes(this._id, bodyId, 0, 0);
    if (n < 0) this._check(-n);
    const big = 4 * n > 4096;
    const p = big ? M._malloc(4 * n) : this._t._scratch;
    try {
      const r = M._tb_body_get_shapes(this._id, bodyId, p, n);
      if (r < 0) this._check(-r);
      return Array.from(new Int32Array(heapBuffer(M), p, n));
    } finally {
      if (big) M._free(p);
    }
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
    this._shapeIds.delete(id);
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

  /**
   * What the contact readback of the last solve() includes: the engine's flags
   * (tb_world_readback_info: convention, valid, perContactForce, includesFriction,
   * includesRestitution, includesTorsional, substeps, scale) with the preset's description.
   */
  get readbackInfo() {
    this._alive('readbackInfo');
    return observe.readbackInfo(this, READBACK_INFO[this.preset]);
  }

  /* -- observation: contact totals, wrenches, conventions, sensors, events (js/observe.js) -- */

  /**
   * Net contact wrench on a body over the last step: force (N, world) and torque (N·m, world) about
   * its centre of mass (`point`); options.with: a body id or 'static' (default any);
   * options.excludeSelf drops self-contacts. Throws when the readback is not available.
   */
  netContactWrench(body, options) { this._alive('netContactWrench'); return observe.netContactWrench(this, READBACK_INFO[this.preset], body, options); }
  /**
   * Net contact wrench of every body slot (index by bodySlot(id)): { slotCount, force, torque
   * (3 per slot; N and N·m about each centre of mass, world), readback }; options.excludeSelf.
   */
  netContactWrenches(options) { this._alive('netContactWrenches'); return observe.netContactWrenches(this, READBACK_INFO[this.preset], options); }
  /** Contact-store indices of a body's contacts (same options as netContactWrench). */
  bodyContacts(body, options) { this._alive('bodyContacts'); return observe.bodyContacts(this, body, options); }
  /** Wrench of contact `index` on side 0 (shape0) or 1 (shape1) about `point` (default: that body's centre of mass). */
  contactWrench(index, side, point) { this._alive('contactWrench'); return observe.contactWrench(this, READBACK_INFO[this.preset], index, side, point); }
  /** The contact store in the 'newton', 'genesis' or 'physx' convention (see docs/observation.md). */
  convertContacts(convention, first, count) { this._alive('convertContacts'); return observe.convertContacts(this, READBACK_INFO[this.preset], convention, first, count); }
  /** Adds a contact sensor on a body: { with?, capacity? (samples, default 64) }; returns its id. */
  addContactSensor(body, options) { this._alive('addContactSensor'); return observe.addContactSensor(this, body, options); }
  /** Removes a contact sensor. */
  removeContactSensor(id) { this._alive('removeContactSensor'); observe.removeContactSensor(this, id); }
  /** Latest sensor value: { force (N, world), readback }; throws when not available. */
  readContactSensor(id) { this._alive('readContactSensor'); return observe.readContactSensor(this, READBACK_INFO[this.preset], id); }
  /** Sensor history, oldest first: { count, forces (3 per sample, N, world), valid, steps }. */
  contactSensorHistory(id) { this._alive('contactSensorHistory'); return observe.contactSensorHistory(this, id); }
  /** Capacity of the event buffer per step (0 = events off, the default). */
  setEventCapacity(capacity) { this._alive('setEventCapacity'); observe.setEventCapacity(this, capacity); }
  /** World force threshold (N, >= 0, 0 = off) of the force events. */
  setForceThreshold(newtons) { this._alive('setForceThreshold'); observe.setForceThreshold(this, newtons); }
  /** Force threshold of one shape pair (N; -1 removes it). */
  setPairForceThreshold(shape0, shape1, newtons) { this._alive('setPairForceThreshold'); observe.setPairForceThreshold(this, shape0, shape1, newtons); }
  /** Events of the last solve(): { count, capacity, requested, overflowed, forceAvailable, step, list }. */
  get events() { this._alive('events'); return observe.readEvents(this); }

  /**
   * Switches every axis (solver, combine rule, readback, filtering, distances, matching) to a
   * preset's choice, between steps. Bodies, shapes and capacities are kept.
   * @param {string} preset
   */
  setPreset(preset) {
    const fn = 'setPreset';
    this._alive(fn);
    if (!AVAILABLE_PRESETS.includes(preset)) {
      throw new RangeError(`${fn}: preset ${JSON.stringify(preset)} is not available in this version (available: ${AVAILABLE_PRESETS.join(', ')})`);
    }
    this._check(this._M._tb_world_set_preset(this._id, PRESETS.indexOf(preset)));
    this.preset = preset;
  }

  /**
   * Sets solver and collision options between steps (the same names as the world options, e.g.
   * `{ solver: 'pgs', positionIterations: 8, broadPhase: 'all-pairs' }`). On error nothing changes.
   * @param {object} options
   */
  setOptions(options) {
    const fn = 'setOptions';
    this._alive(fn);
    checkKeys(fn, '', options, RUNTIME_OPTIONS);
    const M = this._M;
    const d = this._t._scratch;
    const old = d + 2048; /* the current definition, to undo the first call if the second fails */
    this._check(M._tb_world_get_def(this._id, d));
    this._check(M._tb_world_get_def(this._id, old));
    writeDef(this._t, d, options, Object.keys(options), fn);
    const table = defTable(this._t);
    const solverAt = (base) => base + table.get('solver.position_iterations').offset;
    const collisionAt = (base) => base + table.get('collision.broad_phase').offset;
    const fail = (status) => errorFor(status, jsOptionNames(M.UTF8ToString(M._tb_last_error(this._id)), options)
      .replace(/^set(Solver|Collision):/, `${fn}:`));
    let status = M._tb_world_set_collision(this._id, collisionAt(d));
    if (status !== 0) throw fail(status);
    status = M._tb_world_set_solver(this._id, solverAt(d));
    if (status !== 0) {
      const err = fail(status);
      M._tb_world_set_collision(this._id, collisionAt(old));
      throw err;
    }
  }

  /** The world's current options (every definition field under its JS name; enums as names). */
  get options() {
    const fn = 'options';
    this._alive(fn);
    const d = this._t._scratch;
    this._check(this._M._tb_world_get_def(this._id, d));
    const out = { preset: this.preset, threads: this.threads };
    for (const [js, [path, kind]] of Object.entries(DEF_OPTIONS)) {
      if (js === 'substeps') continue;
      if (kind === 'kaminoCombine') {
        out[js] = { friction: COMBINE_MODES[readDef(this._t, d, 'solver.combine.kamino_friction')[0]],
          restitution: COMBINE_MODES[readDef(this._t, d, 'solver.combine.kamino_restitution')[0]] };
        continue;
      }
      const v = readDef(this._t, d, path);
      out[js] = kind === 'vec3' ? Array.from(v) : kind === 'bool' ? v[0] !== 0 : ENUMS[kind] ? ENUMS[kind][v[0]] : v[0];
    }
    return out;
  }

  /* -- filtering: broad phase, filter rules, filter fields, sleep, queries -- */

  /** Errors of the engine, renamed to the calling JS function. */
  _checkAs(fn, cName, status) {
    if (status === 0) return;
    const M = this._M;
    const msg = M.UTF8ToString(M._tb_last_error(this._id));
    throw errorFor(status, fn === cName ? msg : msg.replace(new RegExp(`^${cName}:`), `${fn}:`));
  }

  /** Shape ids of a body, in creation order. */
  shapeIds(body) {
    this._alive('shapeIds');
    const list = this._shapeIds.get(body);
    if (!list) throw new RangeError(`shapeIds: body ${body} does not exist (never created or removed)`);
    return list.slice();
  }

  _setShapeFilter(fn, shape, f) {
    const M = this._M;
    const p = this._t._scratch;
    const st = M._tb_shape_get_filter(this._id, shape, p);
    if (st !== 0) this._checkAs(fn, 'getShapeFilter', st);
    const i32 = new Int32Array(heapBuffer(M), p, 9);
    const u32 = new Uint32Array(heapBuffer(M), p, 9);
    if (f.world !== undefined) i32[0] = int(fn, 'world', f.world);
    if (f.collisionGroup !== undefined) {
      const g = int(fn, 'collisionGroup', f.collisionGroup);
      if (g < -0x80000000 || g > 0x7fffffff) throw new RangeError(`${fn}: collisionGroup must be a 32-bit integer (got ${g})`);
      i32[1] = g;
    }
    if (f.contype !== undefined) u32[2] = uint32(fn, 'contype', f.contype);
    if (f.conaffinity !== undefined) u32[3] = uint32(fn, 'conaffinity', f.conaffinity);
    if (f.filterData !== undefined) {
      const d = vec(fn, 'filterData', f.filterData, 4);
      for (let k = 0; k < 4; k++) u32[4 + k] = uint32(fn, `filterData[${k}]`, d[k]);
    }
    if (f.trigger !== undefined) {
      if (typeof f.trigger !== 'boolean') throw new TypeError(`${fn}: trigger must be a boolean (got ${JSON.stringify(f.trigger)})`);
      i32[8] = f.trigger ? 1 : 0;
    }
    const status = M._tb_shape_set_filter(this._id, shape, p);
    if (status !== 0) {
      const msg = M.UTF8ToString(M._tb_last_error(this._id)).replace(/^setShapeFilter: /, '');
      throw errorFor(status, `${fn}: ${msg}`);
    }
  }

  /** Sets some of a shape's filter fields: { world, collisionGroup, contype, conaffinity, filterData, trigger }. */
  setShapeFilter(shape, f) {
    const fn = 'setShapeFilter';
    this._alive(fn);
    checkKeys(fn, '', f, SHAPE_FILTER_OPTIONS);
    this._setShapeFilter(fn, shape, f);
  }

  /** A shape's filter fields. */
  getShapeFilter(shape) {
    const fn = 'getShapeFilter';
    this._alive(fn);
    const M = this._M;
    this._checkAs(fn, fn, M._tb_shape_get_filter(this._id, shape, this._t._scratch));
    const i32 = new Int32Array(heapBuffer(M), this._t._scratch, 9);
    const u32 = new Uint32Array(heapBuffer(M), this._t._scratch, 9);
    return { world: i32[0], collisionGroup: i32[1], contype: u32[2], conaffinity: u32[3],
      filterData: [u32[4], u32[5], u32[6], u32[7]], trigger: i32[8] !== 0 };
  }

  /** Parent body (MuJoCo parent/child and Genesis adjacency filtering); -1 clears. */
  setParent(id, parent, fn = 'setParent') {
    this._alive(fn);
    this._checkAs(fn, 'setParent', this._M._tb_body_set_parent(this._id, id, int(fn, 'parent', parent)));
  }

  /** Parent body id, -1 none. */
  getParent(id) {
    this._alive('getParent');
    const p = this._t._scratch;
    this._checkAs('getParent', 'getParent', this._M._tb_body_get_parent(this._id, id, p));
    return new Int32Array(heapBuffer(this._M), p, 1)[0];
  }

  /** Puts a body to sleep (velocities zeroed, not integrated, static to awake bodies) or wakes it. */
  setSleeping(id, asleep, fn = 'setSleeping') {
    this._alive(fn);
    if (typeof asleep !== 'boolean') throw new TypeError(`${fn}: sleeping must be a boolean (got ${JSON.stringify(asleep)})`);
    this._checkAs(fn, 'setSleeping', this._M._tb_body_set_sleeping(this._id, id, asleep ? 1 : 0));
  }

  /** Whether a body sleeps. */
  isSleeping(id) {
    this._alive('isSleeping');
    const r = this._M._tb_body_is_sleeping(this._id, id);
    if (r < 0) this._checkAs('isSleeping', 'isSleeping', -r);
    return r === 1;
  }

  /**
   * Excludes (or with excluded = false, re-admits) a pair: { shapes: [a, b] } for Newton's
   * shape-pair exclusions, { bodies: [a, b] } for MuJoCo's `exclude` body pairs.
   */
  excludePair(pair, excluded = true) {
    const fn = 'excludePair';
    this._alive(fn);
    if (pair == null || typeof pair !== 'object' || (pair.shapes === undefined) === (pair.bodies === undefined) ||
        Object.keys(pair).length !== 1) {
      throw new TypeError(`${fn}: expected { shapes: [a, b] } or { bodies: [a, b] } (got ${JSON.stringify(pair)})`);
    }
    if (typeof excluded !== 'boolean') throw new TypeError(`${fn}: excluded must be a boolean (got ${JSON.stringify(excluded)})`);
    const M = this._M;
    if (pair.shapes !== undefined) {
      const [a, b] = vec(fn, 'shapes', pair.shapes, 2);
      this._checkAs(fn, 'excludeShapePair', M._tb_world_set_shape_pair_excluded(this._id, a, b, excluded ? 1 : 0));
    } else {
      const [a, b] = vec(fn, 'bodies', pair.bodies, 2);
      this._checkAs(fn, 'excludeBodyPair', M._tb_world_set_body_pair_excluded(this._id, a, b, excluded ? 1 : 0));
    }
  }

  /** The pair list of broadPhase 'explicit': an array of [shapeA, shapeB]; replaces the previous list. */
  setExplicitPairs(pairs) {
    const fn = 'setExplicitPairs';
    this._alive(fn);
    if (!Array.isArray(pairs)) throw new TypeError(`${fn}: pairs must be an array of [shapeA, shapeB] (got ${JSON.stringify(pairs)})`);
    const M = this._M;
    const n = pairs.length;
    const p = M._malloc(Math.max(8, 8 * n));
    try {
      const ids = new Int32Array(heapBuffer(M), p, 2 * n);
      pairs.forEach((pr, i) => {
        const [a, b] = vec(fn, `pairs[${i}]`, pr, 2);
        ids[2 * i] = int(fn, `pairs[${i}][0]`, a);
        ids[2 * i + 1] = int(fn, `pairs[${i}][1]`, b);
      });
      this._checkAs(fn, fn, M._tb_world_set_explicit_pairs(this._id, p, n));
    } finally {
      M._free(p);
    }
  }

  /**
   * MuJoCo explicit `pair` of two shapes, bypassing contype/conaffinity, parent/child and body
   * exclusion, with its own { margin (m), gap (m, >= 0), friction (5 numbers, MuJoCo order) };
   * params null removes it.
   */
  setContactPair(a, b, params) {
    const fn = 'setContactPair';
    this._alive(fn);
    const M = this._M;
    let p = 0;
    if (params !== null) {
      checkKeys(fn, '', params, CONTACT_PAIR_OPTIONS);
      p = this._put(0, [num(fn, 'margin', params.margin, 0), num(fn, 'gap', params.gap, 0),
        ...vec(fn, 'friction', params.friction, 5, MUJOCO_PAIR_FRICTION)]);
    }
    this._checkAs(fn, fn, M._tb_world_set_contact_pair(this._id, int(fn, 'a', a), int(fn, 'b', b), p));
  }

  /** Writes a tb_query_filter into scratch (offset in floats); returns its address or 0. */
  _queryFilter(fn, o, offset) {
    if (o.skipBody === undefined && o.mask === undefined) return 0;
    const p = this._t._scratch + 4 * offset;
    const i32 = new Int32Array(heapBuffer(this._M), p, 2);
    i32[0] = int(fn, 'skipBody', o.skipBody, -1);
    new Uint32Array(heapBuffer(this._M), p + 4, 1)[0] = uint32(fn, 'mask', o.mask ?? 0xffffffff);
    return p;
  }

  _readHit(p) {
    const M = this._M;
    const i32 = new Int32Array(heapBuffer(M), p, 2);
    const f32 = new Float32Array(heapBuffer(M), p + 8, 7);
    return { shape: i32[0], body: i32[1], point: [f32[0], f32[1], f32[2]], normal: [f32[3], f32[4], f32[5]], distance: f32[6] };
  }

  /**
   * Closest hit of a ray, or null. options: maxDistance (m, default Infinity), skipBody (id),
   * mask (shapes whose contype has no bit of it are ignored). Hit: { shape, body (-1 static),
   * point (world, m), normal (world, out of the shape; -direction when starting inside),
   * distance (m along the normalized direction) }.
   */
  rayCast(origin, direction, options = {}) {
    const fn = 'rayCast';
    this._alive(fn);
    checkKeys(fn, '', options, QUERY_OPTIONS);
    if (options.capacity !== undefined) throw new RangeError(`${fn}: capacity applies to rayCastAll only`);
    const o = this._put(0, vec(fn, 'origin', origin, 3));
    const d = this._put(4, vec(fn, 'direction', direction, 3));
    const f = this._queryFilter(fn, options, 8);
    const hit = this._t._scratch + 48;
    const r = this._M._tb_world_ray_cast(this._id, o, d, num(fn, 'maxDistance', options.maxDistance, Infinity), f, hit);
    if (r < 0) this._checkAs(fn, fn, -r);
    return r === 1 ? this._readHit(hit) : null;
  }

  /**
   * Every hit of a ray, nearest first: { hits, requested, overflowed }; at most `capacity`
   * (default 64) hits are returned, the nearest ones; requested counts all.
   */
  rayCastAll(origin, direction, options = {}) {
    const fn = 'rayCastAll';
    this._alive(fn);
    checkKeys(fn, '', options, QUERY_OPTIONS);
    const cap = int(fn, 'capacity', options.capacity, 64);
    if (cap < 0) throw new RangeError(`${fn}: capacity must be >= 0 (got ${cap})`);
    const M = this._M;
    const o = this._put(0, vec(fn, 'origin', origin, 3));
    const d = this._put(4, vec(fn, 'direction', direction, 3));
    const f = this._queryFilter(fn, options, 8);
    const req = this._t._scratch + 48;
    const buf = M._malloc(Math.max(4, 4 * RAY_HIT_WORDS * cap));
    try {
      const n = M._tb_world_ray_cast_all(this._id, o, d, num(fn, 'maxDistance', options.maxDistance, Infinity), f, buf, cap, req);
      if (n < 0) this._checkAs(fn, fn, -n);
      const hits = [];
      for (let i = 0; i < n; i++) hits.push(this._readHit(buf + 4 * RAY_HIT_WORDS * i));
      const requested = new Int32Array(heapBuffer(M), req, 1)[0];
      return { hits, requested, overflowed: requested > cap };
    } finally {
      M._free(buf);
    }
  }

  /**
   * Shapes overlapping (separation <= 0) a query shape { type, radius | halfExtents | ... } placed
   * at options.position / rotation (world): { shapes (ids, ascending slot), requested, overflowed }.
   */
  overlap(shape, options = {}) {
    const fn = 'overlap';
    this._alive(fn);
    if (shape == null || typeof shape !== 'object') throw new TypeError(`${fn}: shape must be a shape descriptor (got ${JSON.stringify(shape)})`);
    checkKeys(`${fn}: shape`, '', shape, new Set(['type', 'radius', 'halfExtents', 'halfHeight', 'normal', 'offset', 'radii']));
    checkKeys(fn, '', options, OVERLAP_OPTIONS);
    const cap = int(fn, 'capacity', options.capacity, 64);
    if (cap < 0) throw new RangeError(`${fn}: capacity must be >= 0 (got ${cap})`);
    const M = this._M;
    const params = this._put(0, shapeParams(`${fn}: shape`, shape));
    const pos = this._put(4, vec(fn, 'position', options.position, 3, [0, 0, 0]));
    const rot = this._put(8, vec(fn, 'rotation', options.rotation, 4, [0, 0, 0, 1]));
    const f = this._queryFilter(fn, options, 12);
    const req = this._t._scratch + 56;
    const buf = M._malloc(Math.max(4, 4 * cap));
    try {
      const n = M._tb_world_overlap(this._id, SHAPE_TYPES[shape.type], params, pos, rot, f, buf, cap, req);
      if (n < 0) this._checkAs(fn, fn, -n);
      const shapes = Array.from(new Int32Array(heapBuffer(M), buf, n));
      const requested = new Int32Array(heapBuffer(M), req, 1)[0];
      return { shapes, requested, overflowed: requested > cap };
    } finally {
      M._free(buf);
    }
  }

  /* -- Newton presets: options, per-body contact wrench, per-contact overrides -- */





  /**
   * Per-contact overrides of the penalty solver (newton-semi), 0 = unset: stiffness (N/m)
   * replaces ke, damping (N·s/m) replaces kd, frictionScale multiplies μ. Between collide() and
   * solve(), for contact index i of that collide(); they hold for that solve() only.
   */
  setContactOverride(index, o = {}) {
    const fn = 'setContactOverride';
    this._alive(fn);
    checkKeys(fn, '', o, OVERRIDE_OPTIONS);
    const st = this._M._tb_contact_set_override(this._id, int(fn, 'index', index),
      num(fn, 'stiffness', o.stiffness, 0), num(fn, 'damping', o.damping, 0), num(fn, 'frictionScale', o.frictionScale, 0));
    this._check(st);
  }

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
   * residualPenetration (m) = deepest penetration left after the step. Kamino PADMM: iterations
   * (= positionIterations), converged (all three residuals within their tolerances; false when the
   * budget ran out), residualPrimal (N·s), residualDual (m/s), residualComplementarity (J); NaN for
   * the other solvers.
   */
  get solverStatus() {
    this._alive('solverStatus');
    const s = this._t._scratch;
    this._check(this._M._tb_world_solver_status(this._id, s));
    const i = new Int32Array(heapBuffer(this._M), s, 9);
    const f = new Float32Array(heapBuffer(this._M), s, 9);
    const names = ['pgs', 'tgs', 'xpbd', 'penalty', 'mujoco', 'kamino'];
    return {
      solver: names[i[0]], positionIterations: i[1], velocityIterations: i[2], converged: i[3] !== 0,
      residualVelocity: f[4], residualPenetration: f[5],
      iterations: i[1], residualPrimal: f[6], residualDual: f[7], residualComplementarity: f[8],
    };
  }

  /** Clears the solver's history across steps (Kamino: the warm-start cache); the next step starts cold. */
  resetSolver() {
    this._alive('resetSolver');
    this._check(this._M._tb_world_solver_reset(this._id));
  }

  /** Frees the world and all its memory. The object is unusable afterwards. */
  free() {
    if (this._id < 0) return;
    this._check(this._M._tb_world_destroy(this._id));
    this._id = -1;
  }
}
