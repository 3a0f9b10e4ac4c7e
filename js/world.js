/**
 * In-process World: the engine world's handle and lifecycle, and the public methods, each one
 * line delegating to the module that does the job:
 *   options.js (definition, options, gravity, timestep), presets.js, bodies.js, shapes.js,
 *   materials.js, filtering.js, queries.js, views.js (views, stepping, statuses), observe.js, joints.js.
 * @module tribo/world
 */
import { errorFor } from './errors.js';
import { boolean, checkKeys, int } from './check.js';
import { heapBuffer } from './fields.js';
import * as options from './options.js';
import * as presets from './presets.js';
import * as bodies from './bodies.js';
import * as shapes from './shapes.js';
import * as materials from './materials.js';
import * as filtering from './filtering.js';
import * as queries from './queries.js';
import * as views from './views.js';
import * as observe from './observe.js';
import * as joints from './joints.js';
import { ID_PARAMETERS, checkIds } from './ids.js';
import * as snapshots from './snapshot.js';

const SNAPSHOT_OPTIONS = new Set(['threads', 'adaptiveThreads']);

export { READBACK_INFO } from './presets.js';
export { DEFAULT_MATERIAL } from './materials.js';
const { READBACK_INFO } = presets;

/**
 * A simulation world living in the engine's memory. Only the world is ever freed; bodies and
 * contacts are plain ids and typed arrays.
 */
export class World {
  /**
   * @param {import('./index.js').Tribo} tribo
   * @param {object} [opts] see index.d.ts WorldOptions
   * @param {Uint8Array} [bytes] a snapshot the world is made from (then opts holds `threads` only)
   */
  constructor(tribo, opts = {}, bytes = undefined) {
    const fn = bytes === undefined ? 'createWorld' : 'createWorldFromSnapshot';
    checkKeys(fn, '', opts, bytes === undefined ? options.WORLD_OPTIONS : SNAPSHOT_OPTIONS);
    const M = tribo._M;
    const preset = opts.preset ?? 'physx-tgs';
    presets.presetIndex(M, fn, preset);
    this._t = tribo;
    this._M = M;
    this.preset = preset;
    const threads = int(fn, 'threads', opts.threads, tribo.defaultThreads);
    if (threads > 1 && tribo._windowThread) {
      throw new RangeError(`${fn}: threads must be 1 on a page's main thread (got ${threads}); use createWorkerWorld() for threads`);
    }
    this.threads = threads;
    const adaptive = opts.adaptiveThreads === undefined ? true : boolean(fn, 'adaptiveThreads', opts.adaptiveThreads);
    this._version = 0; /* bumped by every call that may move or change the views */
    this._bodyViews = null;
    this._contactViews = null;
    this._shapeIds = new Map(); /* body id -> its shape ids, in creation order */
    this._hulls = new Map(); /* body id -> its hull shape ids, in creation order */
    this._sensorCapacity = new Map(); /* sensor id -> history capacity */
    if (bytes !== undefined) {
      const made = snapshots.createFromSnapshot(M, fn, bytes, threads);
      this._id = made.id;
      made.adopt(this);
      if (!adaptive) this._check(M._tb_world_set_adaptive_threads(this._id, 0));
      return;
    }
    const d = options.worldDef(tribo, preset, opts, threads, fn);
    const id = M._tb_world_create(d);
    if (id < 0) throw errorFor(-id, options.jsOptionNames(M.UTF8ToString(M._tb_last_error(-1)), opts));
    this._id = id;
    this.timestep = options.readDef(tribo, d, 'timestep')[0];
    if (!adaptive) this._check(M._tb_world_set_adaptive_threads(id, 0));
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

  /* -- bodies (bodies.js) -- */
  /** Adds a body with its shapes; returns its id. On any error nothing is added. */
  addBody(desc) { return bodies.addBody(this, desc); }
  /** Removes a body, its shapes and its joints; its id is rejected afterwards. Returns the ids of the joints removed with it. */
  removeBody(id) { return joints.removeBody(this, id, () => bodies.removeBody(this, id)); }
  /** Sets body origin position (m, world) and rotation (unit quaternion x, y, z, w). */
  setPose(id, position, rotation) { bodies.setPose(this, id, position, rotation); }
  /** Sets linear velocity of the centre of mass (m/s) and angular velocity (rad/s), world axes. */
  setVelocity(id, linear, angular) { bodies.setVelocity(this, id, linear, angular); }
  /** Overrides the mass properties: { mass (kg), center (body frame, m), inertia (principal, body axes, kg·m²) }. */
  setMass(id, m) { bodies.setMass(this, id, m); }
  /** Mass properties: { mass (kg), center (body frame, m), inertia (3x3 row-major about the centre, body axes, kg·m²) }. */
  getMass(id) { return bodies.getMass(this, id); }
  /** Full state into `out` (13 floats: position, rotation x y z w, linear velocity, angular velocity). */
  getState(id, out = new Float32Array(13)) { return bodies.stateSlice(this, 'getState', id, 0, 13, out); }
  /** Body origin position (m, world) into `out`. */
  getPosition(id, out = new Float32Array(3)) { return bodies.stateSlice(this, 'getPosition', id, 0, 3, out); }
  /** Rotation quaternion (x, y, z, w) into `out`. */
  getRotation(id, out = new Float32Array(4)) { return bodies.stateSlice(this, 'getRotation', id, 3, 4, out); }
  /** Linear velocity of the centre of mass (m/s, world) into `out`. */
  getLinearVelocity(id, out = new Float32Array(3)) { return bodies.stateSlice(this, 'getLinearVelocity', id, 7, 3, out); }
  /** Angular velocity (rad/s, world) into `out`. */
  getAngularVelocity(id, out = new Float32Array(3)) { return bodies.stateSlice(this, 'getAngularVelocity', id, 10, 3, out); }
  /** Slot of a body id in the body views. */
  bodySlot(id) { return bodies.bodySlot(this, id); }
  /** PhysX maxContactImpulse of a body (N·s per contact point and step, > 0; Infinity = no cap). */
  setMaxContactImpulse(id, maxImpulse) { bodies.setMaxContactImpulse(this, id, maxImpulse); }
  /** PhysX solver iteration requests of a body: position in [1, 255], velocity in [0, 255]; -1 = the world's. */
  setSolverIterations(id, position, velocity) { bodies.setSolverIterations(this, id, position, velocity); }

  /* -- joints (joints.js, docs/joints.md) -- */
  /** Adds a joint ({ type, body0, body1, anchor/axis (world) or anchor0/anchor1/axis0/axis1 (body frames), limit, motor, spring, ... }); returns its id. */
  addJoint(desc) { return joints.addJoint(this, desc); }
  /** Removes a joint; its id is rejected afterwards. */
  removeJoint(id) { joints.removeJoint(this, id); }
  /** A joint's definition (body-frame anchors, rotations and axes). */
  getJoint(id) { return joints.getJoint(this, id); }
  /** A joint after the last step: { type, convention, valid, broken, position, speed, motorForce, wrench (the preset's readback) }. */
  jointState(id) { return joints.jointState(this, id); }
  /** The joint's reaction on side 0 (body0) or 1 (body1), N and N·m about `point` (default: that body's centre of mass). */
  jointWrench(id, side, point) { return joints.jointWrench(this, id, side, point); }
  /** Joint ids of a body (as body0 or body1). */
  jointsOf(body) { return joints.jointsOf(this, body); }
  /** Every joint id of the world. */
  get joints() { return joints.joints(this); }

  /* -- shapes and materials (shapes.js, materials.js) -- */
  /** Shape ids of a body from the engine, in creation order (the order of `addBody`'s `shapes`). */
  shapesOf(bodyId) { return shapes.shapesOf(this, bodyId); }
  /** The convex hull of a body's `index`-th hull shape: counts, support field resolution and memory. */
  hullInfo(body, index) { return shapes.hullInfo(this, body, index); }
  /** Changes the given fields of a shape's material (see index.d.ts ShapeMaterial); on error nothing changes. */
  setMaterial(shapeId, material) { this._alive('setMaterial'); materials.setMaterial(this, shapeId, material, 'setMaterial: material'); }
  /** A shape's full material (see index.d.ts ShapeMaterial). */
  getMaterial(shapeId) { return materials.getMaterial(this, shapeId); }

  /* -- filtering (filtering.js) -- */
  /** Shape ids of a body, in creation order. */
  shapeIds(body) { return filtering.shapeIds(this, body); }
  /** Sets some of a shape's filter fields: { world, collisionGroup, contype, conaffinity, filterData, trigger }. */
  setShapeFilter(shape, f) { filtering.setShapeFilter(this, shape, f); }
  /** A shape's filter fields. */
  getShapeFilter(shape) { return filtering.getShapeFilter(this, shape); }
  /** Parent body (MuJoCo parent/child and Genesis adjacency filtering); -1 clears. */
  setParent(id, parent) { filtering.setParent(this, id, parent); }
  /** Parent body id, -1 none. */
  getParent(id) { return filtering.getParent(this, id); }
  /** Puts a body (under automatic sleep: its island) to sleep or wakes it (docs/sleeping.md). */
  setSleeping(id, asleep) { filtering.setSleeping(this, id, asleep); }
  /** Whether a body sleeps. */
  isSleeping(id) { return filtering.isSleeping(this, id); }
  /** The island of a dynamic body after the last step: the id of the body naming it; -1 static, kinematic or alone asleep. */
  island(id) { return filtering.island(this, id); }
  /** A dynamic body's sleep-rule counters after the last step: { wakeCounter, clusterFactor, stepsBelow } (docs/sleeping.md). */
  sleepState(id) { return filtering.sleepState(this, id); }
  /** Excludes (excluded = false: re-admits) { shapes: [a, b] } or { bodies: [a, b] }. */
  excludePair(pair, excluded) { filtering.excludePair(this, pair, excluded); }
  /** The pair list of broadPhase 'explicit': an array of [shapeA, shapeB]; replaces the previous list. */
  setExplicitPairs(pairs) { filtering.setExplicitPairs(this, pairs); }
  /** MuJoCo explicit pair { margin (m), gap (m, >= 0), friction (5, MuJoCo order) }; null removes it. */
  setContactPair(a, b, params) { filtering.setContactPair(this, a, b, params); }

  /* -- queries (queries.js) -- */
  /** Closest hit of a ray, or null: { shape, body (-1 static), point, normal (world), distance (m) }. */
  rayCast(origin, direction, opts) { return queries.rayCast(this, origin, direction, opts); }
  /** Every hit of a ray, nearest first: { hits, requested, overflowed }. */
  rayCastAll(origin, direction, opts) { return queries.rayCastAll(this, origin, direction, opts); }
  /** Shapes overlapping (separation <= 0) a query shape at options.position / rotation: { shapes, requested, overflowed }. */
  overlap(shape, opts) { return queries.overlap(this, shape, opts); }
  /** Signed distance of two convex shapes at the current poses, with the routine that answered (GJK, MPR, EPA, analytic), or null beyond options.maxDistance. */
  shapeDistance(a, b, opts) { return queries.shapeDistance(this, a, b, opts); }
  /** A hull shape's support vertex along a world direction: support field lookup against the exact scan. */
  shapeSupport(shape, direction) { return queries.shapeSupport(this, shape, direction); }

  /* -- stepping and views (views.js) -- */
  /** Advances the world by n timesteps (collide + solve each). */
  step(n) { views.run(this, 'step', '_tb_world_step', n); }
  /** Collision stage only: contacts from the current state (impulses not yet available). */
  collide() { views.run(this, 'collide', '_tb_world_collide'); }
  /** Solver stage only, on the contacts of the preceding collide(). */
  solve() { views.run(this, 'solve', '_tb_world_solve'); }
  /** Body views over engine memory, indexed by slot; valid until the next call that changes the world. */
  get bodies() { return views.bodyViews(this); }
  /** Contact views over engine memory (count elements each); valid until the next call that changes the world. */
  get contacts() { return views.contactViews(this); }
  /** Reserves room in the contact store (a step grows it as needed). */
  setContactCapacity(capacity) { views.setContactCapacity(this, capacity); }
  /** Reserves room in the broad-phase pair arrays (a step grows them as needed; see contacts.pairsGrew). */
  setPairCapacity(capacity) { views.setPairCapacity(this, capacity); }
  /** Penalty-solver overrides of contact `index` (stiffness N/m, damping N·s/m, frictionScale; 0 = unset) for the next solve(). */
  setContactOverride(index, o) { views.setContactOverride(this, index, o); }
  /** Statistics of the last step: threads used, constraint colours, manifolds, substeps. */
  get stepStats() { return views.stepStats(this); }
  /** Whether step() may run on the caller alone while that is faster (README "Threads"); the engine's setting. */
  get adaptiveThreads() { return this.threadMode.adaptive; }
  /**
   * Adaptive threads: `adaptive` is the setting (adaptiveThreads), `serial` is true while this
   * world's mode runs its steps on the caller alone although it has more threads (beside another
   * busy process that is faster; a probe's steps aside); `switches` counts mode changes so far.
   * @returns {{ adaptive: boolean, serial: boolean, switches: number }}
   */
  get threadMode() {
    this._alive('threadMode');
    const M = this._M, p = this._t._scratch;
    this._check(M._tb_world_thread_mode(this._id, p, p + 4, p + 8));
    const heap = heapBuffer(M), i = new Int32Array(heap, p, 2);
    return { adaptive: i[0] !== 0, serial: i[1] !== 0, switches: new Float64Array(heap, p + 8, 1)[0] };
  }
  /** Status of the last solve(): solver, iterations used, converged (null where the solver has no tolerance), residuals (m/s, m). */
  get solverStatus() { return views.solverStatus(this); }
  /** Clears the solver's history across steps (Kamino: the warm-start cache); the next step starts cold. */
  resetSolver() { views.resetSolver(this); }

  /* -- options and presets (options.js, presets.js) -- */
  /** Sets gravity (m/s², world axes). */
  setGravity(gravity) { options.setGravity(this, gravity); }
  /** Sets the timestep (s, > 0) of the following steps. */
  setTimestep(timestep) { options.setTimestep(this, timestep); }
  /** Switches every axis to a preset's choice, between steps; bodies, shapes and capacities are kept. */
  setPreset(preset) { presets.setPreset(this, preset); }
  /** Sets solver and collision options between steps (world option names); on error nothing changes. */
  setOptions(opts) { options.setOptions(this, opts); }
  /** The world's current options (every definition field under its JS name; enums as names). */
  get options() { return options.getOptions(this); }

  /* -- observation (observe.js) -- */
  /** What the contact readback of the last solve() includes, with the preset's description. */
  get readbackInfo() { this._alive('readbackInfo'); return observe.readbackInfo(this, READBACK_INFO[this.preset]); }
  /** Net contact wrench on a body over the last step about its centre of mass; options.with, options.excludeSelf. */
  netContactWrench(body, o) { this._alive('netContactWrench'); return observe.netContactWrench(this, READBACK_INFO[this.preset], body, o); }
  /** Net contact wrench of every body slot: { slotCount, force, torque, readback }; options.excludeSelf. */
  netContactWrenches(o) { this._alive('netContactWrenches'); return observe.netContactWrenches(this, READBACK_INFO[this.preset], o); }
  /** Contact-store indices of a body's contacts (same options as netContactWrench). */
  bodyContacts(body, o) { this._alive('bodyContacts'); return observe.bodyContacts(this, body, o); }
  /** Wrench of contact `index` on side 0 (shape0) or 1 (shape1) about `point` (default: that body's centre of mass). */
  contactWrench(index, side, point) { this._alive('contactWrench'); return observe.contactWrench(this, READBACK_INFO[this.preset], index, side, point); }
  /** The contact store in the 'newton', 'genesis' or 'physx' convention (see docs/observation.md). */
  convertContacts(convention, first, count) { this._alive('convertContacts'); return observe.convertContacts(this, READBACK_INFO[this.preset], convention, first, count); }
  /** Adds a contact sensor on a body: { with?, capacity? (samples, default 64) }; returns its id. */
  addContactSensor(body, o) { this._alive('addContactSensor'); return observe.addContactSensor(this, body, o); }
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

  /* -- snapshots (snapshot.js) -- */
  /** The whole state as bytes (versioned, checksummed); restore() or createWorldFromSnapshot() continue from it bitwise. */
  snapshot() { return snapshots.snapshot(this); }
  /** Replaces the whole state by a snapshot's (its thread count is kept); a SnapshotError names why bytes are refused, and nothing changes. */
  restore(bytes) { snapshots.restore(this, bytes); }

  /** Frees the world and all its memory. The object is unusable afterwards. */
  free() {
    if (this._id < 0) return;
    this._check(this._M._tb_world_destroy(this._id));
    this._id = -1;
  }
}

/* The id check in front of every method with id parameters (ids.js ID_PARAMETERS): the world is
 * alive and each id names a live body, shape or sensor of it, before the method runs. */
for (const name of Object.keys(ID_PARAMETERS)) {
  const method = World.prototype[name];
  if (typeof method !== 'function') throw new Error(`ids.js names ${name}, which is not a World method`);
  Object.defineProperty(World.prototype, name, {
    value: { [name](...args) { this._alive(name); checkIds(this, name, args); return method.apply(this, args); } }[name],
    writable: true, configurable: true, enumerable: false,
  });
}
