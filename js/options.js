/**
 * World options: the table of options stored in the engine's world definition (tb_world_def),
 * reading and writing them through the engine's definition table (never by offset), the world
 * definition of createWorld, and setOptions / options between steps.
 * @module tribo/options
 */
import { errorFor } from './errors.js';
import { checkKeys, finiteVec, withinVec, real, int, boolean, enumIndex } from './check.js';
import { engineTables, fieldSet, heapBuffer, readFieldTable } from './fields.js';
import { combineMode } from './materials.js';
import { presetIndex } from './presets.js';
import { LIMITS } from './limits.js';

/**
 * World options stored in the engine's world definition: JS name -> [C field path, kind].
 * Kinds: 'num', 'int', 'bool', 'vec3', 'kaminoCombine', 'cap' (a number, or null for none: the
 * engine's default value, which means no cap), or the name of an engine enum
 * (engineTables().enums: solver, combineRule, readback, broadPhase, filterRule, distanceRule, matching,
 * mujocoCone, mujocoAlgorithm, mujocoIntegrator, sleepMode).
 */
export const DEF_OPTIONS = {
  gravity: ['gravity', 'vec3'],
  timestep: ['timestep', 'num'],
  bodyCapacity: ['body_capacity', 'int'],
  contactCapacity: ['contact_capacity', 'int'],
  pairCapacity: ['pair_capacity', 'int'],
  substeps: ['solver.position_iterations', 'int'],
  positionIterations: ['solver.position_iterations', 'int'],
  velocityIterations: ['solver.velocity_iterations', 'int'],
  bounceThreshold: ['solver.bounce_threshold_velocity', 'num'],
  maxDepenetrationVelocity: ['solver.max_depenetration_velocity', 'cap'],
  speculativeDistance: ['solver.speculative_distance', 'num'],
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
  persistentManifolds: ['collision.persistent_manifolds', 'bool'],
  /* Newton speculative contacts (m) */
  speculativeWidening: ['collision.speculative_widening', 'bool'],
  maxSpeculativeExtension: ['collision.max_speculative_extension', 'num'],
  constantGap: ['collision.constant_gap', 'num'],
  /* -- filtering -- */
  maxCollisionPairs: ['collision.max_collision_pairs', 'int'],
  /* Newton XPBD */
  iterations: ['solver.newton.iterations', 'int'],
  relaxation: ['solver.newton.relaxation', 'num'],
  contactWeighting: ['solver.newton.contact_weighting', 'bool'],
  restitution: ['solver.newton.restitution', 'bool'],
  restitutionIterations: ['solver.newton.restitution_iterations', 'int'],
  velocityFromPositions: ['solver.newton.velocity_from_positions', 'bool'],
  xpbdSubsteps: ['solver.newton.xpbd_substeps', 'int'],
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
  /* MuJoCo soft constraints */
  cone: ['solver.mujoco.cone', 'mujocoCone'],
  mujocoSolver: ['solver.mujoco.algorithm', 'mujocoAlgorithm'],
  integrator: ['solver.mujoco.integrator', 'mujocoIntegrator'],
  mujocoIterations: ['solver.mujoco.iterations', 'int'],
  tolerance: ['solver.mujoco.tolerance', 'num'],
  lsIterations: ['solver.mujoco.ls_iterations', 'int'],
  lsTolerance: ['solver.mujoco.ls_tolerance', 'num'],
  impratio: ['solver.mujoco.impratio', 'num'],
  refsafe: ['solver.mujoco.refsafe', 'bool'],
  warmstart: ['solver.mujoco.warmstart', 'bool'],
  defaultTimeconst: ['solver.mujoco.default_timeconst', 'num'],
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
  kaminoWarmStart: ['solver.kamino.warm_start', 'bool'],
  /* islands and sleep */
  sleep: ['solver.sleep.mode', 'sleepMode'],
  sleepVelocityThreshold: ['solver.sleep.velocity_threshold', 'num'],
  sleepSteps: ['solver.sleep.steps', 'int'],
  sleepEnergyThreshold: ['solver.sleep.energy_threshold', 'num'],
  wakeCounter: ['solver.sleep.wake_counter', 'num'],
};
/** Options that may change between steps (solver and collision axes). */
const RUNTIME_OPTIONS = new Set(Object.keys(DEF_OPTIONS).filter((k) => /^(solver|collision)\./.test(DEF_OPTIONS[k][0])));
export const WORLD_OPTIONS = new Set(['preset', 'threads', 'adaptiveThreads', ...Object.keys(DEF_OPTIONS)]);
const KAMINO_OPTIONS = new Set(['friction', 'restitution']);

/** The engine names definition fields as in C; say them as the JS options are spelled. */
export function jsOptionNames(message, options = {}) {
  message = message.replace('body/contact/pair capacities', 'bodyCapacity/contactCapacity/pairCapacity');
  const done = new Set();
  /* the name the caller used wins; otherwise the first JS name of a field */
  /* longest C path first, so a path is never replaced inside a longer one */
  const entries = Object.entries(DEF_OPTIONS).sort(([a, [ca]], [b, [cb]]) => (b in options) - (a in options) || cb.length - ca.length);
  for (const [js, [c]] of entries) {
    /* dotted paths and snake_case fields (contact_capacity); single words such as gravity are already JS */
    if (!/[._]/.test(c) || done.has(c)) continue;
    done.add(c);
    message = message.split(c).join(js);
  }
  return message;
}

/**
 * Field info of the world definition by C path, from the engine's table, and the stored value of
 * each 'cap' option that means no cap: the engine's default (tribo.h TB_NO_DEPENETRATION_CAP).
 * Cached per module; read before any view of the heap is taken, as it allocates.
 */
function defTable(tribo) {
  if (!tribo._defTable) {
    const M = tribo._M;
    const map = new Map();
    for (const f of readFieldTable(M, fieldSet(M, 'world_def'))) map.set(f.cName, f);
    tribo._defTable = map;
    const d = M._malloc(engineTables(M).layouts.worldDef.size);
    M._tb_default_world_def_into(d);
    tribo._noCap = new Map(Object.values(DEF_OPTIONS).filter(([, kind]) => kind === 'cap').map(([path]) => [path, readDef(tribo, d, path)[0]]));
    M._free(d);
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
  const { enums } = engineTables(M);
  for (const key of keys) {
    const v = options[key];
    if (v === undefined || !DEF_OPTIONS[key]) continue;
    const [path, kind] = DEF_OPTIONS[key];
    if (kind === 'kaminoCombine') {
      /* { friction, restitution } combine modes of the Kamino rule; omitted ones are kept */
      checkKeys(fn, 'kaminoCombine.', v, KAMINO_OPTIONS);
      for (const k of ['friction', 'restitution']) {
        if (v[k] === undefined) continue;
        new Int32Array(heapBuffer(M), d + table.get(`solver.combine.kamino_${k}`).offset, 1)[0] = combineMode(M, `${fn}: kaminoCombine`, k, v[k]);
      }
      continue;
    }
    const f = table.get(path);
    if (!f) throw new Error(`${fn}: the engine has no field ${path}`);
    const buf = heapBuffer(M);
    if (kind === 'vec3') new Float32Array(buf, d + f.offset, 3).set(finiteVec(fn, key, v, 3));
    else if (kind === 'num') new Float32Array(buf, d + f.offset, 1)[0] = real(fn, key, v, { infinite: true });
    else if (kind === 'cap') new Float32Array(buf, d + f.offset, 1)[0] = v === null ? tribo._noCap.get(path) : real(fn, key, v, { infinite: true });
    else if (kind === 'int') new Int32Array(buf, d + f.offset, 1)[0] = int(fn, key, v);
    else if (kind === 'bool') new Int32Array(buf, d + f.offset, 1)[0] = boolean(fn, key, v) ? 1 : 0;
    else new Int32Array(buf, d + f.offset, 1)[0] = enumIndex(fn, key, enums[kind], v);
  }
}

/** Reads one definition field (C path) at address d. */
export function readDef(tribo, d, path) {
  const f = defTable(tribo).get(path);
  const buf = heapBuffer(tribo._M);
  return f.type === 'f32' ? new Float32Array(buf, d + f.offset, f.components) : new Int32Array(buf, d + f.offset, f.components);
}

/**
 * The world definition of createWorld at the module's scratch: defaults, the preset, the options
 * (their keys already checked against WORLD_OPTIONS).
 * @returns {number} its address
 */
export function worldDef(tribo, preset, options, threads, fn) {
  const M = tribo._M;
  if (options.substeps !== undefined && options.positionIterations !== undefined) {
    throw new RangeError(`${fn}: give substeps or positionIterations, not both (they are the same setting)`);
  }
  const d = tribo._scratch;
  M._tb_default_world_def_into(d);
  if (M._tb_preset_apply(presetIndex(M, fn, preset), d) !== 0) throw new Error(`${fn}: preset ${preset} rejected by the engine`);
  writeDef(tribo, d, options, Object.keys(options), fn);
  readDef(tribo, d, 'thread_count')[0] = threads;
  return d;
}

/** World.setOptions: solver and collision options between steps; on error nothing changes. */
export function setOptions(world, options) {
  const fn = 'setOptions';
  world._alive(fn);
  checkKeys(fn, '', options, RUNTIME_OPTIONS);
  const M = world._M;
  const d = world._t._scratch;
  const old = d + 2048; /* the current definition, to undo the first call if the second fails */
  world._check(M._tb_world_get_def(world._id, d));
  world._check(M._tb_world_get_def(world._id, old));
  writeDef(world._t, d, options, Object.keys(options), fn);
  const table = defTable(world._t);
  const solverAt = (base) => base + table.get('solver.position_iterations').offset;
  const collisionAt = (base) => base + table.get('collision.broad_phase').offset;
  const fail = (status) => errorFor(status, jsOptionNames(M.UTF8ToString(M._tb_last_error(world._id)), options)
    .replace(/^set(Solver|Collision):/, `${fn}:`));
  let status = M._tb_world_set_collision(world._id, collisionAt(d));
  if (status !== 0) throw fail(status);
  status = M._tb_world_set_solver(world._id, solverAt(d));
  if (status !== 0) {
    const err = fail(status);
    M._tb_world_set_collision(world._id, collisionAt(old));
    throw err;
  }
}

/** World.options: every definition field under its JS name; enums as names. */
export function getOptions(world) {
  world._alive('options');
  const adaptiveThreads = world.adaptiveThreads; /* before the def: both are read through the scratch */
  const d = world._t._scratch;
  world._check(world._M._tb_world_get_def(world._id, d));
  const { enums } = engineTables(world._M);
  const out = { preset: world.preset, threads: world.threads, adaptiveThreads };
  for (const [js, [path, kind]] of Object.entries(DEF_OPTIONS)) {
    if (js === 'substeps') continue;
    if (kind === 'kaminoCombine') {
      out[js] = { friction: enums.combineMode[readDef(world._t, d, 'solver.combine.kamino_friction')[0]],
        restitution: enums.combineMode[readDef(world._t, d, 'solver.combine.kamino_restitution')[0]] };
      continue;
    }
    const v = readDef(world._t, d, path);
    if (kind === 'cap') out[js] = v[0] === world._t._noCap.get(path) ? null : v[0];
    else out[js] = kind === 'vec3' ? Array.from(v) : kind === 'bool' ? v[0] !== 0 : enums[kind] ? enums[kind][v[0]] : v[0];
  }
  return out;
}

/** World.setGravity (m/s², world axes). */
export function setGravity(world, gravity) {
  world._alive('setGravity');
  const g = withinVec('setGravity', 'gravity', gravity, LIMITS.gravity, 'm/s²');
  world._check(world._M._tb_world_set_gravity(world._id, world._put(0, g)));
}

/** World.setTimestep (s, in [LIMITS.timestep.min, LIMITS.timestep.max]) of the following steps. */
export function setTimestep(world, timestep) {
  world._alive('setTimestep');
  world._check(world._M._tb_world_set_timestep(world._id, real('setTimestep', 'timestep', timestep, LIMITS.timestep)));
  world.timestep = Math.fround(timestep);
}
