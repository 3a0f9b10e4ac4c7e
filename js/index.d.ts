/**
 * Tribo: rigid-body contact dynamics in WebAssembly. TypeScript declarations for `js/index.js`.
 *
 * ```ts
 * import { init } from 'tribo';
 * const tribo = await init();            // threads when it can, single-threaded SIMD otherwise
 * const world = tribo.createWorld({ gravity: [0, -9.81, 0], timestep: 1 / 60 });
 * world.addBody({ type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0], offset: 0 }] });
 * const ball = world.addBody({ position: [0, 1, 0], shapes: [{ type: 'sphere', radius: 0.5 }] });
 * world.step();
 * const c = world.contacts;              // views over engine memory: read now, re-read after the next step
 * for (let i = 0; i < c.count; i++) console.log(c.force[3 * i + 1]); // N, on body1 by body0
 * ```
 *
 * Conventions (every quantity, every function):
 * - SI units: m, kg, s, N, N·s, rad, rad/s. Right-handed world frame; gravity is a world vector.
 * - Rotations are unit quaternions stored (x, y, z, w).
 * - Bodies and shapes are integer ids, never objects. An id packs a slot index (low 20 bits,
 *   `id & 0xFFFFF`, see {@link World.bodySlot}) and a generation; a removed id is rejected. Each
 *   world's generations start at its own salt, so an id of another world is rejected too ("an id
 *   of another world"); only a module's first world hands out 0, 1, 2, …
 * - Contact normal points from shape0 to shape1. Separation is signed (m, < 0 = penetration).
 *   Normal impulse >= 0 is applied to body1 along +normal and to body0 along -normal.
 *
 * Errors: invalid input throws a `RangeError` (out-of-range or unknown value, unknown option key,
 * id that does not exist, capacity exceeded) or a `TypeError` (wrong type, missing required
 * field) whose message names the function, the field and the offending value, e.g.
 * `addBody: shapes[0]: radius must be finite and in [1e-6, 1e6] (got -1)`. Every id parameter is
 * checked before the engine sees it: anything but a number (a BigInt, a string, `null`, …) is a
 * `TypeError`; NaN, ±Infinity, a fraction, a negative number or one ≥ 2³¹ a `RangeError`; an id
 * that names no live body / shape / joint / sensor of the world a `RangeError` ("does not exist
 * in this world" with the reason: removed, never created, an id of another world).
 * Integers are checked against int32 (never wrapped); reals must be finite in float32 and in
 * their meaning's range ({@link LIMITS} for sizes, density, mass, inertia, query capacities).
 * Other failures (out of memory, invalid state such as solve() without collide(), use after
 * free()) throw a plain `Error`. A call that throws leaves the world unchanged.
 *
 * @module tribo
 */

/* The view fields and the members of the public structs (units and docs) and the enum unions
 * come from the engine's tables: js/generated.d.ts, written by tools/gen_types.mjs. Everything
 * else here is written by hand. */
import type * as Engine from './generated.js';
export type { BodyFields, ContactFields } from './generated.js';

/** A 3-vector: an array of exactly 3 numbers (checked at run time). */
export type Vec3 = readonly [number, number, number] | Float32Array | Float64Array;
/** A unit quaternion (x, y, z, w); its length must be within 1e-3 of 1 (checked at run time). */
export type Quat = readonly [number, number, number, number] | Float32Array | Float64Array;

/** The two WebAssembly builds. */
export type Build = 'threads' | 'simd';
/**
 * Presets: one choice on every axis (solver, combine rule, readback convention, filtering, distance
 * rule, matching); each axis can then be set on its own ({@link WorldOptions}, {@link World.setOptions}).
 * A preset whose solver is not in this version throws a `RangeError` naming the available ones.
 */
export type Preset = Engine.Preset;
/** Solver families: PhysX PGS and TGS, Newton XPBD, Newton penalty with semi-implicit Euler. */
export type SolverType = Engine.Solver;
/** Per-contact readback conventions (see docs/observation.md). */
export type ReadbackConvention = Engine.Readback;
/**
 * Candidate-pair generators; all give the same pairs in the same order (sorted by shape slots):
 * `'sap'` incremental sweep and prune (the pairs of fat boxes, each AABB grown by 5 % of its largest
 * extent, kept between steps; only shapes that leave theirs are tested again), `'all-pairs'` every
 * shape against every shape,
 * `'explicit'` only the pairs of {@link World.setExplicitPairs} (their AABBs must still overlap).
 */
export type BroadPhase = Engine.BroadPhase;
/**
 * Filtering rules. Every rule skips shapes of one body and pairs without an awake dynamic body.
 * - `'newton'`: `world` and `collisionGroup` of {@link ShapeFilterDesc}, shape-pair exclusions ({@link World.excludePair}).
 * - `'mujoco'`: `contype`/`conaffinity`, parent/child bodies, `exclude` body pairs; explicit pairs ({@link World.setContactPair}) bypass these.
 * - `'physx'`: `filterData` and `trigger`; per-pair detect / solve / notify.
 * - `'genesis'`: adjacency (parent/child), `contype`/`conaffinity`; `maxCollisionPairs`.
 */
export type FilterRule = Engine.FilterRule;
/**
 * Distance rules: `'newton'` (margins on both sides, kept when d <= gap0 + gap1, normal response
 * when d < 0), `'mujoco'` (detected when dist < m + g, active when dist < m, gap-only contacts
 * excluded), `'physx'` (generated within the contact offsets, rest distance = rest offsets).
 */
export type DistanceRule = Engine.DistanceRule;
/**
 * Contact matching across collide() calls: `'latest'` uses the new points; `'sticky'` keeps a
 * matched contact's previous body-local points while the new ones stay within `matchDistance`.
 */
export type Matching = Engine.Matching;

/** The solver and collision axes; settable at creation and between steps ({@link World.setOptions}). */
export interface AxisOptions {
  /** Position iterations (same as `substeps`), integer in [1, 64]. */
  positionIterations?: number;
  /** Solver family. Default: the preset's. */
  solver?: SolverType;
  /** How two shapes' materials combine into a contact's parameters (see {@link ShapeMaterial}). Default: the preset's. */
  combineRule?: CombineRule;
  /** Modes of the `'kamino'` rule; omitted ones are kept. Default `{ friction: 'average', restitution: 'min' }`. */
  kaminoCombine?: KaminoCombine;
  /** Readback convention. Default: the preset's. */
  readback?: ReadbackConvention;
  /** Candidate-pair generator. Default `'sap'`. */
  broadPhase?: BroadPhase;
  /** Filtering rule. Default: the preset's. */
  filterRule?: FilterRule;
  /** Distance rule. Default: the preset's. */
  distanceRule?: DistanceRule;
  /** Contact matching across frames. Default `'latest'`. */
  matching?: Matching;
  /** Contact reduction bound: points kept per shape pair, integer in [1, 4]. Default `4`. */
  maxPointsPerPair?: number;
  /**
   * m, finite and >= 0: a contact whose feature changed matches the nearest previous point of its
   * shape pair within this distance; sticky anchors are kept while within it. Default `0.01`.
   */
  matchDistance?: number;
  /**
   * PhysX's persistent contact manifolds (PCM): a box–box or capsule–box pair whose relative pose
   * moved less than PhysX's thresholds since its last full generation refreshes its previous
   * points instead (docs/presets.md; `stepStats.refreshedPairs` / `regeneratedPairs` count them).
   * Default: `true` in `'physx-pgs'` and `'physx-tgs'`, `false` in the other presets.
   */
  persistentManifolds?: boolean;
  /**
   * Newton distance rule only: keep a candidate when d <= gap0 + gap1 + min(|Δv|·h,
   * `maxSpeculativeExtension`), Δv = relative velocity of the two bodies (m/s), h = the time to the
   * next collide (s): the timestep, or timestep / `xpbdSubsteps` under the XPBD solver.
   * Default `false` (newton-e3 §2: kept when d <= gap0 + gap1).
   */
  speculativeWidening?: boolean;
  /** m, finite and >= 0: cap of the speculative widening (Newton's max_speculative_extension). Default `0.1`. */
  maxSpeculativeExtension?: number;
  /** m, finite and >= 0: Newton distance rule only: a constant distance added to gap0 + gap1. Default `0`. */
  constantGap?: number;
  /* -- filtering -- */
  /**
   * Genesis `max_collision_pairs`, integer >= 0 (0 = unlimited). Default `0`. A step whose
   * candidate pairs (after filtering) exceed it throws a `RangeError` naming the count and limit
   * and does not run; nothing is truncated and the world stays usable.
   */
  maxCollisionPairs?: number;

  /* -- Newton solvers: stored for every preset, read by the solver named in each comment -- */
  /** `'newton-xpbd'`: fixed position iterations per step (no tolerance), integer in [1, 64]. Default `2`. */
  iterations?: number;
  /** `'newton-xpbd'`: contact relaxation ω in (0, 2); p_n = ω(−d)/(h·w). Default `0.8`. */
  relaxation?: number;
  /** `'newton-xpbd'`: divide each body's correction by its active contact count N. Default `true`. */
  contactWeighting?: boolean;
  /** `'newton-xpbd'`: run the restitution velocity pass (not part of the readback). Default `false`. */
  restitution?: boolean;
  /** `'newton-xpbd'`: restitution iterations of 8 Gauss-Seidel sweeps each, integer in [1, 64]. Default `2`. */
  restitutionIterations?: number;
  /**
   * `'newton-xpbd'`: replace the velocities after the iterations by the step's pose change
   * (Newton's deprecated `compute_body_velocity_from_position_delta`). Default `false`: the
   * velocities follow every correction, as in Newton 1.6.
   */
  velocityFromPositions?: boolean;
  /**
   * `'newton-xpbd'`: substeps per step, integer in [1, 1024]. Default `10` (Newton's XPBD
   * examples, `sim_substeps = 10`). Each substep collides again and solves over timestep / n, as
   * Newton's examples call `collide()` inside their substep loop; the contact readback of the
   * step sums the substeps' impulses (a contact followed through the matching; force = Σ impulse
   * / timestep, `readbackInfo.substeps` = n).
   */
  xpbdSubsteps?: number;
  /** `'newton-semi'`: semi-implicit Euler substeps per step, integer in [1, 1024]. Default `8`. */
  penaltySubsteps?: number;
  /** `'newton-semi'`: normal stiffness, N/m, > 0, used when the shapes carry none. Default `1e4`. */
  ke?: number;
  /** `'newton-semi'`: normal damping, N·s/m, >= 0 (only while penetrating). Default `100`. */
  kd?: number;
  /** `'newton-semi'`: friction viscosity, N·s/m, >= 0. Default `100`. */
  kf?: number;
  /** `'newton-semi'`: adhesion range, m, >= 0: for 0 <= d < ka the contact pulls with ke·d. Default `0`. */
  ka?: number;
  /** `'newton-semi'`: Huber δ of the slip norm, m/s, > 0. Default `1`. */
  frictionSmoothing?: number;
  /** `'mujoco'`: friction cone, independent of the solver. Default `'pyramidal'`. */
  cone?: Engine.MujocoCone;
  /** `'mujoco'`: constraint solver. Default `'newton'`. */
  mujocoSolver?: Engine.MujocoAlgorithm;
  /** `'mujoco'`: `'implicitfast'` is implicit in joint damping; joints have none, so the same as `'euler'`. Default `'euler'`. */
  integrator?: Engine.MujocoIntegrator;
  /** `'mujoco'`: most solver iterations per step, integer in [1, 1000]. Default `100`. */
  mujocoIterations?: number;
  /** `'mujoco'`: stop when the scaled cost improvement or gradient (cost / trace(M), 1/s²) is below, >= 0. Default `1e-8`. */
  tolerance?: number;
  /** `'mujoco'`: most line-search iterations (CG, Newton), integer in [1, 100]. Default `50`. */
  lsIterations?: number;
  /** `'mujoco'`: line-search slope tolerance as a fraction of `tolerance`, > 0. Default `0.01`. */
  lsTolerance?: number;
  /** `'mujoco'`: friction-to-normal impedance ratio (friction R = normal R / impratio), > 0. Default `1`. */
  impratio?: number;
  /** `'mujoco'`: raise a positive solref time constant to at least 2·timestep. Default `true`. */
  refsafe?: boolean;
  /** `'mujoco'`: start each solve from the previous step's accelerations of the same bodies when they cost less than the unconstrained ones (MuJoCo's warmstart flag). Default `true`. */
  warmstart?: boolean;
  /** `'mujoco'`, `'genesis'`: solref time constant (s, > 0) a new shape's material starts with (its `solref[0]` unless the shape sets `solref`) and that of every joint's rows; raised to 2·timestep by `refsafe`. Default `0.02` (MuJoCo's geom default); `genesis`: `0.01` (Genesis `constraint_timeconst`). */
  defaultTimeconst?: number;
  /** `'kamino'`: PADMM iterations at most per step, integer in [1, 10000]; running out is not convergence. Default `200`. */
  maxIterations?: number;
  /** `'kamino'`: tolerance on the primal residual r_p = ‖x − y‖∞, N·s (impulse), > 0. Default `1e-6`. */
  primalTolerance?: number;
  /** `'kamino'`: tolerance on the dual residual r_d = ‖η(x − x_prev) + ρ(y − y_prev)‖∞, m/s (velocity), > 0. Default `1e-6`. */
  dualTolerance?: number;
  /** `'kamino'`: tolerance on the complementarity residual r_c = max_c |λ_c·v_c|, J, > 0. Default `1e-6`. */
  complementarityTolerance?: number;
  /** `'kamino'`: proximal regularisation η of the preconditioned Delassus problem (dimensionless), > 0. Default `1e-5`. */
  eta?: number;
  /** `'kamino'`: fixed ADMM penalty ρ of the preconditioned problem (dimensionless), >= 1e-6 (below it the iteration diverges in float32). Default `1`. */
  rho?: number;
  /** `'kamino'`: factor in [0, 1] on the previous step's matched impulses that start the iterations (with `kaminoWarmStart`). Default `0.9`. */
  warmStartScale?: number;
  /** `'kamino'`: share γ in [0, 1] of a penetration removed per step (Baumgarte bias γ·d/h). Default `0.01`. */
  stabilization?: number;
  /** `'kamino'`: m, >= 0: a contact distance within ±deadZone counts as touching. Default `1e-6`. */
  deadZone?: number;
  /** `'kamino'`: start from the previous step's matched impulses and keep this step's for the next. Default `true`. */
  kaminoWarmStart?: boolean;
  /**
   * Automatic sleep rule (docs/sleeping.md): `'genesis'` hibernation, `'physx'` wake counter, or
   * `'off'`. Default: `'physx'` in the physx presets, `'genesis'` in `'genesis'`, else `'off'`.
   */
  sleep?: Engine.SleepMode;
  /** `'genesis'` rule: m/s, > 0: a body is ready when its largest DOF speed (rotations times its sweep radius) stays below. Default `2e-3`. */
  sleepVelocityThreshold?: number;
  /** `'genesis'` rule: consecutive steps below the threshold, integer in [1, 1000]. Default `10`. */
  sleepSteps?: number;
  /** `'physx'` rule: m²/s² (J/kg), > 0: mass-normalised kinetic energy threshold (PhysX sleepThreshold). Default `5e-3`. */
  sleepEnergyThreshold?: number;
  /** `'physx'` rule: s, > 0: wake counter reset value; a resting body sleeps after it runs down. Default `0.4`. */
  wakeCounter?: number;
}
/** Body types. */
export type BodyType = Engine.BodyType;
/** Shape types. */
export type ShapeType = ShapeDesc['type'];

/** Options of {@link init}. */
export interface InitOptions {
  /**
   * Forces one build. Default: `'threads'` in Node and on cross-origin isolated pages (pthreads +
   * SIMD128; needs SharedArrayBuffer), `'simd'` otherwise (single-threaded SIMD128; works on every
   * page). Asking for `'threads'` without SharedArrayBuffer throws an `Error`; any other value
   * throws a `RangeError`.
   */
  build?: Build;
  /**
   * URL of a package file by name, for hosts that move them: `'tribo_simd.wasm'`,
   * `'tribo_mt.wasm'`, `'tribo_mt.web.mjs'`, `'tribo_mt.worker.js'`. Return `undefined` to keep the
   * package's own URL (`new URL('../dist/<name>', import.meta.url)`, which bundlers rewrite).
   */
  locateFile?: (name: string) => string | URL | undefined;
  /** URL of the chosen build's `.wasm` (shorthand for a `locateFile` of that one file). */
  wasmURL?: string | URL;
}

/**
 * Loads the engine (one of the two WebAssembly builds).
 * @throws {RangeError} unknown `build`
 * @throws {Error} `build: 'threads'` without SharedArrayBuffer (serve the page with COOP/COEP headers)
 */
export function init(options?: InitOptions): Promise<Tribo>;

/**
 * Creates a world stepped in a worker without loading the engine on this thread (a page only
 * renders): the worker loads the threaded build when this context is cross-origin isolated (or in
 * Node), the single-threaded build otherwise; `build` forces one.
 */
export function createWorkerWorld(options?: WorkerWorldOptions): Promise<WorkerWorld>;

/** One entry of the engine's field table (generated from `src/core/fields.h`). */
export interface FieldInfo {
  /** Index in the engine's field list. */
  readonly index: number;
  /** camelCase name used in JS (the key in {@link BodyViews} / {@link ContactViews}). */
  readonly name: string;
  /** snake_case name used in C. */
  readonly cName: string;
  /** Unit, e.g. `"m"`, `"N·s"`, `"1"` (dimensionless), `"id"`, `"enum"`, `"m, 1"`. */
  readonly unit: string;
  /** Frame, sign convention and reference point. */
  readonly doc: string;
  /** Element type: `f32` → Float32Array, `i32` → Int32Array, `u32` → Uint32Array. */
  readonly type: 'f32' | 'i32' | 'u32';
  /** Values per element. */
  readonly components: number;
}

/** The body and contact field tables. */
export interface FieldTables {
  /** transform, linearVelocity, angularVelocity, bodyType. */
  readonly body: readonly FieldInfo[];
  /** The contact fields of `tribo.fields.contact`, each a view below. */
  readonly contact: readonly FieldInfo[];
}

/** A loaded engine build. Obtain one with {@link init}. */
export class Tribo {
  private constructor();
  /** The build that was loaded. */
  readonly build: Build;
  /**
   * Why the default threaded build was not used (its pthread workers could not start, e.g. a
   * blocked worker script; or tribo/compat on an isolated page), or `null`. init() then loads
   * `'simd'` instead of failing, and notes it once on the console.
   */
  readonly fallback: string | null;
  /** Largest thread count a world may use in this build (caller included); 1 in the `'simd'` build. */
  readonly maxThreads: number;
  /**
   * Threads a world uses unless told otherwise: hardware threads clamped to [1, maxThreads], and
   * always 1 on a page's main thread (which may not block on thread joins).
   */
  readonly defaultThreads: number;
  /** Field tables (name, unit, doc, type, components) of the body and contact views. */
  readonly fields: FieldTables;
  /**
   * Creates an in-process world.
   * @throws {RangeError | TypeError} invalid option (the message names the option and value)
   */
  createWorld(options?: WorldOptions): World;
  /**
   * Creates a world stepped in a worker (Web Worker or worker_threads). Same options, plus
   * `build` for the worker (default: this Tribo's build). All methods are async.
   */
  createWorkerWorld(options?: WorkerWorldOptions): Promise<WorkerWorld>;
  /**
   * Creates an in-process world from `World.snapshot()` bytes (of an in-process or worker world,
   * either build, any thread count): stepping it is bitwise stepping the saved world.
   * @throws {SnapshotError} malformed or foreign bytes (`reason` says why)
   * @throws {TypeError} bytes not a Uint8Array
   */
  createWorldFromSnapshot(bytes: Uint8Array, options?: { threads?: number; adaptiveThreads?: boolean }): World;
  /** The same in a worker. */
  createWorkerWorldFromSnapshot(bytes: Uint8Array, options?: { threads?: number; adaptiveThreads?: boolean; build?: 'threads' | 'simd' }): Promise<WorkerWorld>;
  /** Bytes currently allocated by the engine (returns to its earlier value after `free()`). */
  liveBytes(): number;
}

/**
 * Options of {@link Tribo.createWorld}. Unknown keys throw a `RangeError`. Options not given keep
 * the preset's value.
 */
export interface WorldOptions extends AxisOptions {
  /** Preset. Default `'physx-tgs'`. */
  preset?: Preset;
  /** Gravity, m/s², world vector, each component within ±`LIMITS.gravity`. Default `[0, -9.81, 0]`. */
  gravity?: Vec3;
  /** Timestep, s, in [1e-12, 1e12] (outside it one step's h², 1/h² and g·h² leave float32). Default `1/60`. */
  timestep?: number;
  /** Same as `positionIterations` (an older name); give one of the two. */
  substeps?: number;
  /**
   * Position iterations per step, integer in [1, 64]; PhysX presets: per island the largest
   * request of its bodies (see {@link BodyDesc.solverIterations}). TGS: internal step = timestep / N.
   * Default `4`.
   */
  positionIterations?: number;
  /** Velocity iterations (no bias; TGS: no pose advance), integer in [0, 64]; at least one runs. Default `1`. */
  velocityIterations?: number;
  /** m/s, finite and >= 0: restitution applies only when the contact closes faster than this. Default `2` (PhysX 0.2·10 m/s). */
  bounceThreshold?: number;
  /** PGS: friction rows in every position iteration instead of the last three. Default `false`. */
  frictionEveryIteration?: boolean;
  /** TGS: gravity a·h/N before each internal step instead of a·h once per step. Default `false`. */
  externalForcesEveryIteration?: boolean;
  /** In (0, 1]: share of a penetration (and of a kept friction anchor's drift) removed per iteration step by the bias. Default `0.8`. */
  biasCoefficient?: number;
  /** m/s, finite and > 0, or `null` for no cap: cap on the push-out speed from penetration. Default `null`: no cap, as PhysX bodies (PGS moves a pose by 0.8·d per step, so a cap c binds from d > c·h/0.8). Read back as `null` when there is none. */
  maxDepenetrationVelocity?: number | null;
  /** m, finite and >= 0: PhysX distance rule: contacts are kept (speculatively) up to this separation beyond the contact offsets (Newton rule: `constantGap`). Default `0.02`. */
  speculativeDistance?: number;
  /**
   * Initial contact points the store holds, integer >= 1. The store grows in a step that finds
   * more ({@link ContactStatus.grew}); nothing is dropped. Default `256`. Reserve ahead with
   * {@link World.setContactCapacity}.
   */
  contactCapacity?: number;
  /** Initial broad-phase candidate pairs, integer >= 1; the pair arrays grow in a step that finds more ({@link ContactStatus.pairsGrew}). Default `128`. */
  pairCapacity?: number;
  /** Initial body capacity, integer >= 1; grows as bodies are added. Default `64`. */
  bodyCapacity?: number;
  /**
   * Threads (caller included), integer in [1, {@link Tribo.maxThreads}]; 1 = serial. Default
   * {@link Tribo.defaultThreads}. Must be 1 on a page's main thread (use
   * {@link Tribo.createWorkerWorld} there).
   */
  threads?: number;
  /**
   * With `threads` > 1: `step()` times itself and every 8 to 64 steps (up to 1 024 while a probe
   * costs more than 2 % of the steps between probes) probes the other mode (on
   * the caller alone, or on every thread while serial); when the probe beats the steps around it
   * by 3 % (to serial) or 10 % (back to threads) twice in a row, the world switches (beside
   * another busy process, threads that share a core are slower than one; README "Threads").
   * Same results in either mode. `false`: always `threads`. Not saved in snapshots. Default `true`.
   */
  adaptiveThreads?: boolean;
}

/* -- filtering: broad phase, filter rules, shape filter fields, queries -- */

/** Per-shape filter fields; each rule reads only its own. Also settable later with {@link World.setShapeFilter}. */
export interface ShapeFilterDesc {
  /** Newton shape world: -1 shared with every world; two different worlds >= 0 never collide. Integer >= -1. Default `-1`. */
  world?: number;
  /** Newton collision group: 0 none; > 0 with the same group or any negative; < 0 with all but the same negative. Default `1`. */
  collisionGroup?: number;
  /** MuJoCo / Genesis: compatible when (contype0 & conaffinity1) or (contype1 & conaffinity0) is non-zero. uint32. Default `1`. Also the target of query masks. */
  contype?: number;
  /** MuJoCo / Genesis bitmask, uint32. Default `1`. */
  conaffinity?: number;
  /**
   * PhysX filter words (4 uint32). word0 = own group bits, word1 = groups it collides with (tested
   * only when both shapes have word0 and word1 non-zero: kept when (w0a & w1b) and (w0b & w1a));
   * word2 = groups whose contacts it reports (notify); word3 free. Default `[1, 0, 0xFFFFFFFF, 0]`
   * (every pair reports; word2 = 0 on both shapes gives PhysX's contact default without reports).
   */
  filterData?: readonly [number, number, number, number];
  /** PhysX trigger: contacts detected and reported, never a response (no impulse). Default `false`. */
  trigger?: boolean;
}

/** A shape's filter fields as stored. */
export interface ShapeFilter extends Engine.ShapeFilterStruct {}

/** Parameters of a MuJoCo explicit pair ({@link World.setContactPair}). */
export interface ContactPairParams {
  /** m, finite: contacts act when dist < margin (replaces the shapes' margins). Default `0`. */
  margin?: number;
  /** m, >= 0: detected without force when margin <= dist < margin + gap. Default `0`. */
  gap?: number;
  /** MuJoCo order: sliding ×2 (1), torsional (m), rolling ×2 (m); each >= 0. Default `[1, 1, 0.005, 0.0001, 0.0001]`. */
  friction?: readonly [number, number, number, number, number];
  /** Contact dimensionality 1, 3, 4 or 6. Default `3`. */
  condim?: number;
  /** (timeconst s, dampratio 1) when the first is > 0, else direct (−stiffness 1/s², −damping 1/s); finite. Default `[0.02, 1]`. */
  solref?: readonly [number, number];
  /** Same formats, for the elliptic friction rows; `[0, 0]` = unset (solref applies). Default `[0, 0]`. */
  solreffriction?: readonly [number, number];
  /** dmin, dmax in (0, 1), width (m) >= 0, midpoint in [0, 1], power >= 1. Default `[0.9, 0.95, 0.001, 0.5, 2]`. */
  solimp?: readonly [number, number, number, number, number];
  /** N, finite and >= 0: the reported net normal force is fn − adhesion. Default `0`. */
  adhesion?: number;
}

/** Filter of a query: shapes of `skipBody` are ignored, and shapes whose `contype` has no bit of `mask`. */
export interface QueryFilter {
  /** Body id whose shapes are ignored. */
  skipBody?: number;
  /** uint32; default all bits. */
  mask?: number;
}

/** Options of {@link World.rayCast} / {@link World.rayCastAll}. */
export interface RayCastOptions extends QueryFilter {
  /** m along the normalized direction, > 0. Default `Infinity`. */
  maxDistance?: number;
  /** rayCastAll only: most hits returned (the nearest), integer in [0, LIMITS.queryCapacity]. Default `64`. */
  capacity?: number;
}

/** A ray hit. Shapes are posed from the current body poses (no step needed). */
export interface RayHit extends Engine.RayHitStruct {}

/** Result of {@link World.rayCastAll}. */
export interface RayCastAllResult {
  /** Nearest first (ties: lower shape slot first); at most `capacity`. */
  hits: RayHit[];
  /** Hits found. */
  requested: number;
  /** requested > capacity: only the nearest `capacity` are in `hits`. */
  overflowed: boolean;
}

/** Options of {@link World.overlap}. */
export interface OverlapOptions extends QueryFilter {
  /** Query shape position, world, m. Default `[0, 0, 0]`. */
  position?: Vec3;
  /** Query shape rotation, unit quaternion. Default identity. */
  rotation?: Quat;
  /** Most shape ids returned, integer in [0, LIMITS.queryCapacity]. Default `64`. */
  capacity?: number;
}

/** Options of {@link World.shapeDistance}. */
export interface ShapeDistanceOptions {
  /** m, in [0, LIMITS.length.max]: farther apart than this, the answer is null. Default `LIMITS.length.max`. */
  maxDistance?: number;
}

/**
 * The routine that answered a {@link World.shapeDistance}: `'analytic'` the exact routine of a
 * sphere/capsule/box pair, `'gjk'` apart, `'mpr'` overlapping and MPR's portal converged and was
 * minimal, `'epa'` overlapping otherwise (MPR did not converge or was not minimal, or the overlap
 * is shallow).
 */
export type PairMethod = Engine.PairMethod;

/** Result of {@link World.shapeDistance}: the pair as the narrow phase finds its first (deepest) point. */
export interface ShapeDistance extends Engine.PairDistanceStruct {}

/** Result of {@link World.shapeSupport}: a hull's support vertex along a direction, by its support field and by the exact scan. */
export interface ShapeSupport extends Engine.SupportQueryStruct {}

/** Result of {@link World.overlap}. */
export interface OverlapResult {
  /** Ids of overlapping shapes (penetrating or touching), ascending slot order; at most `capacity`. */
  shapes: number[];
  /** Overlapping shapes found. */
  requested: number;
  overflowed: boolean;
}

/** A query shape: the geometry fields of a shape descriptor. */
export type QueryShape =
  | Pick<PlaneDesc, 'type' | 'normal' | 'offset'>
  | Pick<SphereDesc, 'type' | 'radius'>
  | Pick<CapsuleDesc, 'type' | 'radius' | 'halfHeight'>
  | Pick<BoxDesc, 'type' | 'halfExtents'>
  | Pick<CylinderDesc, 'type' | 'radius' | 'halfHeight'>
  | Pick<EllipsoidDesc, 'type' | 'radii'>;

/**
 * Material combine rules:
 * - `'physx'`: each shape names a {@link CombineMode} per quantity and the pair uses the larger
 *   enum (average < min < multiply < max); static and dynamic friction combine separately, then
 *   `μd = max(μd, 0)`, `μs = max(μs, μd)`; `disableFriction` on either shape removes friction;
 *   compliant shapes give spring contacts (exactly one compliant: its stiffness wins (min of the
 *   PhysX restitutions) and damping is the max of both; both compliant: their modes, with an
 *   acceleration spring winning over a force spring).
 * - `'mean'` (Newton XPBD / penalty): arithmetic means of μ (`dynamicFriction`), restitution,
 *   torsional and rolling friction, ke, kd, kf, ka.
 * - `'vbd'` (Newton VBD): ke, kd means; μ = sqrt(μ0·μ1).
 * - `'kamino'`: μ and restitution by {@link KaminoCombine} (average / min by default).
 * - `'mujoco'`: a higher `priority` side gives every parameter; at equal priority condim max,
 *   friction (slide = `dynamicFriction`, spin = `torsionalFriction`, roll = `rollingFriction`)
 *   elementwise max, solimp mixed by the solmix weight w = s0/(s0+s1) (both < 1e-15: 1/2; one:
 *   the other side gets 1), solref mixed the same way when both solref[0] > 0 else elementwise
 *   min, adhesion summed; each friction at least 1e-5.
 */
export type CombineRule = Engine.CombineRule;
/** Scalar combine of two values a, b: (a+b)/2, min, a·b, max. */
export type CombineMode = Engine.CombineMode;
/** Modes of the `'kamino'` combine rule. */
export interface KaminoCombine {
  /** Mode of μ (`dynamicFriction`). Default `'average'`. */
  friction?: CombineMode;
  /** Mode of restitution. Default `'min'`. */
  restitution?: CombineMode;
}

/** Compliant (spring) contact of a shape: PhysX's negative restitution (restitution = −stiffness). */
export interface CompliantDesc {
  /** Stiffness, finite and >= 0: N/m, or 1/s² with `accelerationSpring`; 0 = rigid. Default `0`. */
  stiffness?: number;
  /** Damping, finite and >= 0: N·s/m, or 1/s with `accelerationSpring`. Default `0`. */
  damping?: number;
  /** Stiffness and damping are accelerations (independent of the effective mass). Default `false`. */
  accelerationSpring?: boolean;
}

/**
 * A shape's contact material. Which fields a contact uses depends on the world's
 * {@link CombineRule}; the combined values of each contact are in {@link ContactViews}
 * (`staticFriction` ... `materialFlags`). In {@link World.setMaterial} the fields given replace the
 * current ones and the others are kept. Unknown keys throw a `RangeError`.
 */
export interface ShapeMaterial {
  /** Coulomb μ for sticking (`'physx'` rule), finite and >= 0. Default: the shape's `friction`. */
  staticFriction?: number;
  /** Coulomb μ while sliding; the μ of the other rules. Finite and >= 0. Default: the shape's `friction`. */
  dynamicFriction?: number;
  /** Rigid restitution in [0, 1]. Default: the shape's `restitution`. */
  restitution?: number;
  /** `'physx'` rule: mode of static and dynamic friction. Default `'average'`. */
  frictionCombine?: CombineMode;
  /** `'physx'` rule: mode of restitution (and of compliant stiffness). Default `'average'`. */
  restitutionCombine?: CombineMode;
  /** `'physx'` rule: mode of compliant damping. Default `'average'`. */
  dampingCombine?: CombineMode;
  /** `'physx'` rule: the pair gets no friction. Default `false`. */
  disableFriction?: boolean;
  /** `'physx'` rule: no friction memory across frames. Default `false`. */
  disableStrongFriction?: boolean;
  /** `'physx'` rule: a compliant (spring) contact instead of a rigid one. */
  compliant?: CompliantDesc;
  /** m, finite and >= 0: torsional friction (normal force -> torque limit), `'mean'` rule. Default `0.005`. */
  torsionalFriction?: number;
  /** m, finite and >= 0: rolling friction, `'mean'` rule. Default `0.0001`. */
  rollingFriction?: number;
  /** N/m, finite and >= 0: penalty normal stiffness (`'mean'`, `'vbd'`). Default `2500`. */
  ke?: number;
  /** N·s/m, finite and >= 0: penalty normal damping (`'mean'`, `'vbd'`). Default `100`. */
  kd?: number;
  /** N·s/m, finite and >= 0: penalty friction gain (`'mean'`). Default `1000`. */
  kf?: number;
  /** m, finite and >= 0: adhesion distance (`'mean'`). Default `0`. */
  ka?: number;
  /** `'mujoco'` rule: the higher priority side's parameters win. Integer. Default `0`. */
  priority?: number;
  /** `'mujoco'` rule: contact dimensionality 1, 3, 4 or 6. Default `3`. */
  condim?: number;
  /** `'mujoco'` rule, finite and >= 0: weight of this side's solref/solimp. Default `1`. */
  solmix?: number;
  /**
   * `'mujoco'` rule: (timeconst s, dampratio) when solref[0] > 0, else direct (−stiffness 1/s²,
   * −damping 1/s); finite. Default `[0.02, 1]`.
   */
  solref?: readonly [number, number];
  /**
   * `'mujoco'` rule: impedance dmin, dmax in (0, 1), width (m) >= 0, midpoint in [0, 1], power >= 1.
   * Default `[0.9, 0.95, 0.001, 0.5, 2]`.
   */
  solimp?: readonly [number, number, number, number, number];
  /** `'mujoco'` rule, N, finite and >= 0: adhesion (net normal force fn − adhesion). Default `0`. */
  adhesion?: number;
}

/** A shape's full material as reported by {@link World.getMaterial}. */
export type ShapeMaterialInfo = Required<Omit<ShapeMaterial, 'compliant' | 'solref' | 'solimp'>> & {
  compliant: Required<CompliantDesc>;
  solref: number[];
  solimp: number[];
};

/** Options of {@link Tribo.createWorkerWorld}: world options plus the worker's build. */
export interface WorkerWorldOptions extends WorldOptions {
  /** Build loaded in the worker. Default: the build of the Tribo that creates it. */
  build?: Build;
  /** See {@link InitOptions.locateFile} (resolved on this thread for both builds). */
  locateFile?: (name: string) => string | URL | undefined;
  /** See {@link InitOptions.wasmURL}. */
  wasmURL?: string | URL;
}

/** Per-shape distances (m) used by the world's distance rule; all default to `0`. */
export interface DistanceDesc {
  /** Newton / MuJoCo surface offset, finite and >= 0, summed over the two shapes. */
  margin?: number;
  /** Newton: kept when d <= gap0 + gap1; MuJoCo: detected when dist < m + g. Finite and >= 0. */
  gap?: number;
  /** PhysX: contacts generated when the separation <= the sum of contact offsets (+ speculativeDistance). Finite and >= 0. */
  contactOffset?: number;
  /** PhysX: the solver drives separation - (sum of rest offsets) to >= 0. Finite and <= contactOffset. */
  restOffset?: number;
}

/** Material fields shared by every shape. */
export interface MaterialDesc {
  /**
   * Coulomb friction coefficient μ, finite and >= 0: sets `material.staticFriction` and
   * `material.dynamicFriction` (fields given in `material` win). Default `0.5`.
   */
  friction?: number;
  /** Restitution in [0, 1]: sets `material.restitution` (unless given there). Default `0`. */
  restitution?: number;
  /** The full contact material; combined per contact by the world's {@link CombineRule}. */
  material?: ShapeMaterial;
  /** Density, kg/m³, finite and > 0; gives the body's mass properties. Default `1000`. */
  density?: number;
}

/** Local pose of a shape relative to its body's origin (body frame). */
export interface ShapePose {
  /** Shape origin in the body frame, m. Default `[0, 0, 0]`. */
  position?: Vec3;
  /** Shape rotation relative to the body, unit quaternion (x, y, z, w). Default `[0, 0, 0, 1]`. */
  rotation?: Quat;
}

/** Half-space `normal · x <= offset` in the shape frame. Static bodies only. */
export interface PlaneDesc extends MaterialDesc, DistanceDesc, ShapePose {
  type: 'plane';
  /** Unit outward normal, shape frame. Default `[0, 1, 0]`. */
  normal?: Vec3;
  /** Offset along the normal, m. Default `0`. */
  offset?: number;
}

/** Sphere centred on the shape origin. */
export interface SphereDesc extends MaterialDesc, DistanceDesc, ShapePose {
  type: 'sphere';
  /** Radius, m, > 0. Required. */
  radius: number;
}

/** Capsule: a segment along the shape's local y axis, swept by a sphere. */
export interface CapsuleDesc extends MaterialDesc, DistanceDesc, ShapePose {
  type: 'capsule';
  /** Radius, m, > 0. Required. */
  radius: number;
  /** Half length of the segment along local y, m, > 0 (total height = 2·halfHeight + 2·radius). Required. */
  halfHeight: number;
}

/** Box centred on the shape origin. */
export interface BoxDesc extends MaterialDesc, DistanceDesc, ShapePose {
  type: 'box';
  /** Half extents along local x, y, z, m, each > 0. Required. */
  halfExtents: Vec3;
}

/**
 * Heightfield (static bodies only): `rows × cols` heights, m, along the shape's local +y, row-major
 * (`heights[r * cols + c]`). Sample (r, c) sits at local x = (c − (cols − 1)/2)·cellSize[0],
 * z = (r − (rows − 1)/2)·cellSize[1]: the grid is centred on the shape origin. Each cell is two
 * triangles split along the diagonal from sample (r, c) to (r + 1, c + 1). Solid below the surface;
 * several contacts per cell. Errors name the field, e.g.
 * `addBody: shapes[0]: heightfield heights[4] must be finite (got nan)`.
 */
export interface HeightfieldDesc extends Omit<MaterialDesc, 'density'>, ShapePose {
  type: 'heightfield';
  /** Samples along local z, integer in [2, 4096]. Required. */
  rows: number;
  /** Samples along local x, integer in [2, 4096]. Required. */
  cols: number;
  /** `rows * cols` finite heights, m. Required. */
  heights: ArrayLike<number>;
  /** Cell size [x, z], m, each finite and > 0. Required. */
  cellSize: readonly [number, number];
}

/**
 * Static triangle mesh with a BVH (static bodies only). A triangle's front side is the side of
 * (v1 − v0) × (v2 − v0) (counter-clockwise seen from the front); contacts push shapes to the front.
 * Degenerate (zero-area) triangles, indices out of range and non-finite vertices are rejected
 * with the element named. With heightfields and meshes a shape pair has one contact normal (the
 * deepest point's), at most 4 points (deepest first, then the largest area), and flat internal
 * edges give the face normal (no ghost contacts).
 */
export interface MeshDesc extends Omit<MaterialDesc, 'density'>, ShapePose {
  type: 'mesh';
  /** Vertex positions x, y, z, ..., m, shape frame (length a multiple of 3, >= 9). Required. */
  vertices: ArrayLike<number>;
  /** Three vertex indices per triangle (integers, length a multiple of 3, >= 3). Required. */
  indices: ArrayLike<number>;
}

/** Cylinder along the shape's local y axis, centred on the shape origin. */
export interface CylinderDesc extends MaterialDesc, ShapePose {
  type: 'cylinder';
  /** Radius, m, > 0. Required. */
  radius: number;
  /** Half height along local y, m, > 0 (total height = 2·halfHeight). Required. */
  halfHeight: number;
}

/** Ellipsoid centred on the shape origin. */
export interface EllipsoidDesc extends MaterialDesc, ShapePose {
  type: 'ellipsoid';
  /** Semi-axes along local x, y, z, m, each > 0. Required. */
  radii: Vec3;
}

/** Support field options of a hull (directions on a res × res latitude/longitude grid). */
export interface SupportFieldDesc {
  /** -1 = default (180 when the hull has >= 64 vertices, else the exact vertex scan), 0 = exact scan, 8..1024 = always a field of this resolution. */
  resolution: number;
}

/**
 * Convex hull of a point cloud (quickhull; coplanar faces merged; points within about 1e-6 of
 * the largest coordinate count as on the hull). Between 4 and 100000 points; coplanar, collinear
 * or non-finite input throws a `RangeError` naming the problem, and so do points that span no
 * solid within that tolerance (a few points near one far away: a needle). Mass properties are exact for
 * the polyhedron. Vertices stay in the shape frame (the hull is not re-centred).
 */
export interface HullDesc extends MaterialDesc, ShapePose {
  type: 'hull';
  /** Flat x, y, z coordinates of the points, m, shape frame (length a multiple of 3). Required. */
  points: readonly number[] | Float32Array;
  /** Support field resolution; default: a 180 × 180 field for hulls of >= 64 vertices. */
  supportField?: SupportFieldDesc;
}

/** Hull statistics from {@link World.hullInfo}. */
export interface HullInfo extends Engine.HullInfoStruct {}

/** A shape of a body, discriminated by `type`. Unknown keys throw a `RangeError`. */
export type ShapeDesc = (PlaneDesc | SphereDesc | CapsuleDesc | BoxDesc | CylinderDesc | EllipsoidDesc | HullDesc |
  HeightfieldDesc | MeshDesc) & ShapeFilterDesc;

/** Mass properties given to {@link World.setMass} (or `BodyDesc.mass`); dynamic bodies only. */
export interface MassDesc {
  /** Mass, kg, finite and > 0. Required. */
  mass: number;
  /** Centre of mass in the body frame, m. Default `[0, 0, 0]`. */
  center?: Vec3;
  /** Principal moments of inertia about the centre of mass, body axes, kg·m², each > 0. Required. */
  inertia: Vec3;
}

/** Mass properties as reported by {@link World.getMass}. */
export interface MassProperties {
  /** Mass, kg. */
  mass: number;
  /** Centre of mass in the body frame, m. */
  center: [number, number, number];
  /** Inertia tensor about the centre of mass, body axes, kg·m², 3×3 row-major (9 numbers). */
  inertia: number[];
}

/** Description of a body for {@link World.addBody}. Unknown keys throw a `RangeError`. */
export interface BodyDesc {
  /** Default `'dynamic'`. */
  type?: BodyType;
  /** Body origin, world frame, m. Default `[0, 0, 0]`. */
  position?: Vec3;
  /** Body to world rotation, unit quaternion (x, y, z, w). Default `[0, 0, 0, 1]`. */
  rotation?: Quat;
  /** Velocity of the centre of mass, world axes, m/s, each component within ±`LIMITS.speed`. Default zero. Not allowed on static bodies. */
  linearVelocity?: Vec3;
  /** Angular velocity, world axes, rad/s, each component within ±`LIMITS.angularSpeed`. Default zero. Not allowed on static bodies. */
  angularVelocity?: Vec3;
  /** Linear damping, 1/s, in [0, `LIMITS.damping`] (explicit in the Newton presets: see docs/presets.md). Default `0`. */
  linearDamping?: number;
  /** Angular damping, 1/s, in [0, `LIMITS.damping`]. Default `0`. */
  angularDamping?: number;
  /** Overrides the mass properties computed from shape densities (dynamic bodies only). */
  mass?: MassDesc;
  /** Shapes of the body. Default `[]`. */
  shapes?: readonly ShapeDesc[];
  /** Parent body id (MuJoCo parent/child, Genesis adjacency filtering). See {@link World.setParent}. */
  parent?: number;
  /** Start asleep. See {@link World.setSleeping}. */
  sleeping?: boolean;
  /**
   * PhysX maxContactImpulse, N·s per contact point and step, > 0 (`Infinity` = no cap, the
   * default). A pair of two non-static bodies uses the smaller cap; with a static body, this one.
   */
  maxContactImpulse?: number;
  /**
   * PhysX solver iteration requests (position in [1, 255], velocity in [0, 255]; omitted = the
   * world's). Each island of dynamic bodies linked by contacts runs the largest request.
   */
  solverIterations?: { position?: number; velocity?: number };
}

/** Status of the last solve (PhysX presets). */
export interface SolverStatus extends Engine.SolverStatusStruct {
  /** Whether the solver has a convergence test (a tolerance): `true` for `'mujoco'` (its `tolerance`)
   * and `'kamino'`; `false` for PGS, TGS and XPBD (fixed iteration counts) and penalty (does not
   * iterate). `converged` is `null` exactly when this is false. */
  convergenceDefined: boolean;
}

/**
 * A dynamic body's automatic-sleep counters after the last step (World.sleepState, docs/sleeping.md):
 * `rule` is the world's `sleep` option; `wakeCounter` and `clusterFactor` are those of the PhysX rule
 * (`sleepEnergyThreshold` scaled by the factor), `stepsBelow` that of the Genesis rule (the body may
 * sleep at `sleepSteps`); the counters of a rule not in use are null.
 */
export interface SleepState extends Engine.SleepStateStruct {}

/** Statistics of the last step. */
export interface StepStats extends Engine.StepStatsStruct {}

/**
 * What the contact readback of a preset contains. The engine's flags (tb_world_readback_info:
 * convention, valid, includesFriction, includesRestitution, includesTorsional, substeps, scale)
 * are present after an observation call and absent in READBACK_INFO.
 */
export interface ReadbackInfo extends Partial<Readonly<Omit<Engine.ReadbackInfoStruct, 'perContactForce' | 'perBodyForce'>>> {
  readonly preset: Preset;
  /** What `normalImpulse` holds. */
  readonly normalImpulse: string;
  /** What `tangentImpulse` holds. */
  readonly tangentImpulse: string;
  /** What `force` holds. */
  readonly force: string;
  /** What the readback leaves out (PhysX presets: the torsional friction row, which they do not have). */
  readonly excludes: readonly string[];
  /** True when `force` is reported per contact point (from the engine after a solve; the preset's expectation in READBACK_INFO). */
  readonly perContactForce: boolean;
  /** mujoco preset: what each convertContacts convention holds ('newton' corrected, 'newton-mujoco-adapter' as Newton's adapter). */
  readonly conventions?: { readonly [convention: string]: string };
}

/** A wrench: force (N, world axes) and torque (N·m, world axes) about `point` (m, world). */
export interface Wrench extends Engine.WrenchStruct {}

/** A wrench as input: any 3-number arrays. */
export interface WrenchInput {
  readonly force: ArrayLike<number>;
  readonly torque: ArrayLike<number>;
  readonly point: ArrayLike<number>;
}

/** A wrench read from the engine, with the readback flags it was computed from. */
export interface ObservedWrench extends Wrench {
  readonly readback: ReadbackInfo;
}

/** Joint types: the engine's names (tb_joint_type). See docs/joints.md. */
export type JointType = Engine.JointType;

/**
 * A joint: frame1 on `body1` (the child) tied to frame0 on `body0` (the parent); the frame's x axis
 * is the joint axis. Give the frames as one world `anchor` / `axis` (converted into both bodies'
 * frames at their current poses) or per body: `anchor0`, `anchor1` (m, body frame; world for the
 * world side), `axis0`, `axis1` (body frame, nonzero, default x) or `rotation0`, `rotation1`.
 */
export interface JointDesc {
  /** Default 'revolute'. */
  type?: JointType;
  /** Parent body id; -1, 'world' or absent = the world. Not the same body as body1. */
  body0?: number | 'world';
  /** Child body id; -1 / 'world' = the world (not both sides). */
  body1?: number | 'world';
  /** World point (m), both frames' origin at the current poses. */
  anchor?: Vec3;
  /** World axis (nonzero; normalised), both frames' x axis at the current poses. */
  axis?: Vec3;
  anchor0?: Vec3;
  anchor1?: Vec3;
  axis0?: Vec3;
  axis1?: Vec3;
  /** Unit quaternion (x, y, z, w): the frame's rotation in its body's frame (instead of axis0). */
  rotation0?: Quat;
  rotation1?: Quat;
  /** Contacts between the two bodies (default false: their shape pairs are filtered out). */
  collideConnected?: boolean;
  /**
   * Limit on the joint coordinate: revolute θ (rad, in [−π, π]), prismatic s (m), distance length
   * (m, >= 0); spherical: `cone` (rad, (0, π]) on the swing of the x axis and lower/upper on the twist.
   */
  limit?: { lower?: number; upper?: number; cone?: number };
  /** Revolute / prismatic motor: target speed (rad/s or m/s of body1 relative to body0) with a bound (N·m or N, >= 0). */
  motor?: { speed?: number; maxForce: number };
  /** Distance joint rest length, m (default 1). */
  length?: number;
  /** Distance joint spring: stiffness N/m (> 0), damping N·s/m (>= 0). */
  spring?: { stiffness: number; damping?: number };
  /** N, > 0: the joint breaks when its readback force exceeds it (default Infinity). */
  breakForce?: number;
  /** N·m, > 0: the same for the readback torque. */
  breakTorque?: number;
}

/** A joint's definition as stored (body-frame anchors, rotations and their x axes). */
export interface JointInfo {
  type: JointType;
  body0: number;
  body1: number;
  anchor0: number[];
  anchor1: number[];
  rotation0: number[];
  rotation1: number[];
  axis0: number[];
  axis1: number[];
  collideConnected: boolean;
  length: number;
  breakForce: number;
  breakTorque: number;
  limit?: { lower: number; upper: number; cone: number };
  motor?: { speed: number; maxForce: number };
  spring?: { stiffness: number; damping: number };
}

/**
 * A joint after the last step. `wrench` is the reaction in the solver's `convention` (average
 * over the step, N and N·m, world axes): `'physx'` (PGS / TGS, PxConstraint::getForce) the force
 * the constraint applied to body0, torque about frame0's origin at the start of the step, motor
 * excluded; `'newton'` (XPBD / penalty / Kamino, body_parent_f) the total wrench from body0 through the
 * joint on body1 about body1's centre of mass at the end of the step, motor included; `'mujoco'`
 * (MuJoCo / Genesis, efc_force) the force on body1 of the joint's equality and limit rows plus its
 * distance spring, torque about body1's centre of mass at the start of the step, motor excluded.
 * A world or static side is reported about its frame origin.
 */
export interface JointState {
  type: JointType;
  convention: 'physx' | 'newton' | 'mujoco';
  /** False before the first step, when nothing on the joint can move, and once broken. */
  valid: boolean;
  broken: boolean;
  /** Revolute θ (rad), prismatic s (m), distance length (m), spherical twist (rad), fixed 0; at the current poses. */
  position: number;
  /** θ̇ (rad/s), ṡ (m/s) or the length's rate (m/s); 0 for spherical and fixed. */
  speed: number;
  /** Motor force (N) or torque (N·m) on body1 along / about the axis, average over the step. */
  motorForce: number;
  wrench: Wrench;
}

/** Moves a wrench to `to` (m, world): τ_to = τ + (point − to) × f. @throws {RangeError} non-finite input */
export function wrenchShift(wrench: WrenchInput, to: Vec3): Wrench;
/**
 * Reaction of a pairwise action: `on0` on body0 about C0 → the wrench on body1 about `c1`:
 * f1 = −f0, τ_C1 = −τ_C0 − (C0 − C1) × f0 (never a plain sign flip).
 */
export function wrenchReaction(on0: WrenchInput, c1: Vec3): Wrench;
/**
 * Time average about the fixed point P of samples with durations h[k] > 0 (s):
 * f̄ = Σ h_k f_k / T, τ̄_P = Σ h_k [τ_k + (O_k − P) × f_k] / T, T = Σ h_k (O_k = samples[k].point).
 */
export function wrenchAverage(samples: readonly WrenchInput[], h: ArrayLike<number>, point: Vec3): Wrench;

/** Counterpart filter of the observation calls. */
export interface ContactFilter {
  /** Only contacts with this body id, or 'static' (any static body; the contacts' body id -1). Default: any. */
  with?: number | 'static';
  /** Drop contacts between two shapes of the same body. */
  excludeSelf?: boolean;
}

/** Net contact wrenches of all body slots. */
export interface NetContactWrenches {
  readonly slotCount: number;
  /** N, world axes, 3 per slot (zeros: no contact or a free slot). */
  readonly force: Float32Array;
  /** N·m, world axes, about each body's centre of mass at the end of the step, 3 per slot. */
  readonly torque: Float32Array;
  readonly readback: ReadbackInfo;
}

/** The contact store in another engine's convention (Float32Arrays of 3 values per contact). */
export type ConvertedContacts =
  | { readonly convention: 'newton'; readonly count: number; readonly readback: ReadbackInfo;
      /** N: by body1 on body0, world axes. */ readonly force: Float32Array;
      /** N·m: about body0's centre of mass (a static body0: its origin), world axes; after a MuJoCo solve it
       * includes the torsional and rolling torques: τ_C0 = τ_P + (P − C0) × f0. */ readonly torque: Float32Array }
  | { readonly convention: 'newton-mujoco-adapter'; readonly count: number; readonly readback: ReadbackInfo;
      /** N: on body0 (the MuJoCo contact force negated), world axes. */ readonly force: Float32Array;
      /** N·m: the contact's torsional and rolling torques on body0, world axes, about the contact point (Newton's
       * MuJoCo adapter leaves them there; not about body0's centre of mass). */ readonly torque: Float32Array }
  | { readonly convention: 'genesis'; readonly count: number; readonly readback: ReadbackInfo;
      /** N on shape0 at the contact point, world. */ readonly forceA: Float32Array;
      /** N on shape1 = −forceA. */ readonly forceB: Float32Array }
  | { readonly convention: 'physx'; readonly count: number; readonly readback: ReadbackInfo;
      /** Unit, world, from shape1 towards shape0 (PhysX's direction). */ readonly normal: Float32Array;
      /** N·s on shape0 over the step: normalImpulse · normal. */ readonly impulse: Float32Array;
      /** N·s on shape0 over the step, world; anchored at the contact point. */ readonly frictionImpulse: Float32Array };

/** Contact sensor options. */
export interface ContactSensorOptions {
  /** Only contacts with this body id or 'static'. Default: any. */
  with?: number | 'static';
  /** Samples kept (ring buffer), 1..2^20. Default 64. */
  capacity?: number;
}

/** A contact sensor's history, oldest first. */
export interface ContactSensorHistory {
  readonly count: number;
  /** N, world axes, 3 per sample: the contact force on the body averaged over each step (NaN when not available). */
  readonly forces: Float32Array;
  /** False for a step whose readback was not available. */
  readonly valid: boolean[];
  /** solve() counter of each sample. */
  readonly steps: Int32Array;
}

/** A contact event. */
export interface ContactEvent extends Readonly<Engine.ContactEventStruct> {}

/** Events of the last solve(). */
export interface ContactEvents extends Readonly<Engine.EventStatusStruct> {
  readonly list: ContactEvent[];
  /** Newton presets: what {@link World.netContactWrench} returns without a `with` filter. */
  readonly perBodyForce?: string;
}

/** Readback description per preset. */
export const READBACK_INFO: Readonly<Record<Preset, ReadbackInfo>>;

/** Material defaults (PhysX-like): μ 0.5, restitution 0, density 1000 kg/m³. */
export const DEFAULT_MATERIAL: Readonly<{ friction: 0.5; restitution: 0; density: 1000 }>;

/**
 * Ranges checked before the engine is called, so that a body's float32 mass properties and their
 * inverses stay finite and normal; outside them a call throws a `RangeError` naming the field.
 */
export const LIMITS: Readonly<{
  /** m: radius, halfHeight, halfExtents, radii, and the magnitude of hull point coordinates. */
  length: Readonly<{ min: 1e-6; max: 1e6 }>;
  /** m: largest |coordinate| of a body position (world frame, each axis) in addBody and setPose. */
  position: 1e6;
  /** m/s: largest |component| of a body's linear velocity (world frame, each axis) in addBody and setVelocity. */
  speed: 1e6;
  /** rad/s: largest |component| of a body's angular velocity (world frame, each axis) in addBody and setVelocity. */
  angularSpeed: 1e6;
  /** kg/m³: shape density. */
  density: Readonly<{ min: 1e-6; max: 1e6 }>;
  /** kg: setMass, addBody `mass`, and the mass a dynamic body's shapes give. */
  mass: Readonly<{ min: 1e-30; max: 1e30 }>;
  /** kg·m²: principal moments (setMass) and the inertia diagonal a dynamic body's shapes give. */
  inertia: Readonly<{ min: 1e-30; max: 1e30 }>;
  /** m/s²: largest |component| of the world's gravity (createWorld, setGravity). */
  gravity: 1e6;
  /** 1/s: largest body damping (addBody `linearDamping`, `angularDamping`). */
  damping: 1e6;
  /** s: a world's timestep (createWorld, setTimestep). */
  timestep: Readonly<{ min: 1e-12; max: 1e12 }>;
  /** Most results of one rayCastAll / overlap (their `capacity`): bounds the query's scratch memory. */
  queryCapacity: 65536;
}>;

/**
 * Body views over engine memory, indexed by slot (`slot = world.bodySlot(id)`, i.e.
 * `id & 0xFFFFF`); each array holds `components × slotCount` values. Slots of removed bodies have
 * `bodyType === -1`.
 *
 * Valid until the next call that changes the world (step, collide, solve, addBody, removeBody,
 * setContactCapacity, free): engine memory may move or grow, leaving old arrays detached or stale.
 * Growth caused by another world of the same Tribo (they share one WebAssembly memory) can also
 * detach them. setPose / setVelocity / setMass write in place and keep views valid.
 * Read `world.bodies` again after such a call; copy (e.g. `Float32Array.from`) to keep values.
 *
 * For reading: a value written into a view changes the body's array but nothing the engine keeps
 * beside it (a sleeping body is not woken, a static or sleeping body's bounds and collision data
 * stay where they were). Move and push bodies with setPose and setVelocity.
 */
export interface BodyViews extends Engine.BodyFields {
  /** Body slots in use (some may be free, see `bodyType`). */
  readonly slotCount: number;
}

/** Contact store status after the last collide() (or step()). */
export interface ContactStatus extends Readonly<Engine.ContactStatusStruct> {}

/**
 * Contact views over engine memory: `count` elements each (see {@link Tribo.fields} `.contact`
 * for units and conventions); element `i` of a field with `k` components is at `[k*i .. k*i+k-1]`.
 *
 * Valid until the next call that changes the world (step, collide, solve, addBody, removeBody,
 * setContactCapacity, free): engine memory may move or grow, leaving old arrays detached or stale.
 * Growth caused by another world of the same Tribo (they share one WebAssembly memory) can also
 * detach them. setPose / setVelocity / setMass write in place and keep views valid.
 * Read `world.contacts` again after such a call; copy to keep values.
 */
export interface ContactViews extends ContactStatus, Engine.ContactFields {}

/** Per-contact overrides of the penalty solver ({@link World.setContactOverride}); 0 = unset. */
export interface ContactOverride {
  /** N/m, finite and >= 0: replaces ke when > 0. Default `0`. */
  stiffness?: number;
  /** N·s/m, finite and >= 0: replaces kd when > 0. Default `0`. */
  damping?: number;
  /** Finite and >= 0: multiplies μ when > 0. Default `0`. */
  frictionScale?: number;
}

/**
 * A simulation world living in the engine's memory. Only the world is ever freed; bodies and
 * contacts are plain ids and typed arrays. Every method throws a plain `Error` after `free()`.
 */
export class World {
  /**
   * Same as `tribo.createWorld(options)`.
   * @throws {RangeError | TypeError} invalid option (the message names the option and value)
   */
  constructor(tribo: Tribo, options?: WorldOptions);
  /** The solver preset in use. */
  readonly preset: Preset;
  /** Timestep, s. */
  readonly timestep: number;
  /** Threads the world uses (caller included). */
  readonly threads: number;
  /** {@link WorldOptions.adaptiveThreads}. */
  readonly adaptiveThreads: boolean;
  /** Adaptive threads now: the setting, `serial` while the mode runs steps on the caller alone (a probe's steps aside: {@link World.stepStats} `threadsUsed` says what the last step did), `switches` (mode changes so far). */
  readonly threadMode: { adaptive: boolean; serial: boolean; switches: number };

  /**
   * Adds a body with its shapes and returns its id. On any error nothing is added.
   * @throws {RangeError | TypeError} the message names the field and value, e.g.
   *   `addBody: shapes[1].halfExtents is required for a box`
   */
  addBody(desc?: BodyDesc): number;
  /**
   * Removes a body, its shapes and its joints; its id is rejected afterwards. Returns the ids of
   * the joints removed with it. @throws {RangeError} unknown id
   */
  removeBody(id: number): number[];
  /**
   * Adds a joint and returns its id; on any error nothing is added. See docs/joints.md.
   * @throws {RangeError | TypeError} e.g. `addJoint: axis must have a nonzero finite length`,
   *   `addJoint: body 3 is joined to itself`, `addJoint: limit.lower must be <= limit.upper`
   */
  addJoint(desc: JointDesc): number;
  /** Removes a joint; its id is rejected afterwards. @throws {RangeError} unknown id */
  removeJoint(id: number): void;
  /** A joint's definition. @throws {RangeError} unknown id */
  getJoint(id: number): JointInfo;
  /** A joint after the last step. @throws {RangeError} unknown id */
  jointState(id: number): JointState;
  /**
   * The joint's reaction on side 0 (body0) or 1 (body1), N and N·m, world axes, about `point`
   * (m, world; default: that body's centre of mass, a world or static side's frame origin).
   * @throws {Error} when the state is not valid (never zeros)
   */
  jointWrench(id: number, side: 0 | 1, point?: Vec3): Wrench;
  /** Joint ids of a body (as body0 or body1). */
  jointsOf(body: number): number[];
  /** Every joint id of the world. */
  readonly joints: number[];
  /** Shape ids of a body in creation order (the order of `addBody`'s `shapes`). @throws {RangeError} unknown id */
  shapesOf(bodyId: number): number[];
  /**
   * Changes the given fields of a shape's material; the others are kept. On error the shape keeps
   * its material. @throws {RangeError | TypeError} e.g. `setMaterial: material.staticFriction must be finite and >= 0 (got -1)`
   */
  setMaterial(shapeId: number, material: ShapeMaterial): void;
  /** A shape's full material. @throws {RangeError} unknown id */
  getMaterial(shapeId: number): ShapeMaterialInfo;
  /** Sets the body origin position (m, world) and rotation (unit quaternion x, y, z, w; default identity). */
  setPose(id: number, position: Vec3, rotation?: Quat): void;
  /**
   * Sets the linear velocity of the centre of mass (m/s) and angular velocity (rad/s, default
   * zero), world axes; each component within ±`LIMITS.speed` m/s, ±`LIMITS.angularSpeed` rad/s.
   * @throws {RangeError} static body, a component not finite or beyond its limit
   */
  setVelocity(id: number, linear: Vec3, angular?: Vec3): void;
  /** Overrides the mass properties (dynamic bodies only). @throws {RangeError} not dynamic, mass or inertia <= 0 */
  setMass(id: number, mass: MassDesc): void;
  /** Sets gravity (m/s², world axes) for the following steps. */
  setGravity(gravity: Vec3): void;
  /** Sets the timestep (s, in [1e-12, 1e12]) of the following steps; `timestep` is updated (as float32). */
  setTimestep(timestep: number): void;
  /** Mass properties: mass (kg), centre (body frame, m), inertia (3×3 row-major about the centre, body axes, kg·m²). */
  getMass(id: number): MassProperties;
  /**
   * Hull statistics of a body's `index`-th hull shape (default 0), in the order of its shapes.
   * @throws RangeError when the body has no such hull.
   */
  hullInfo(body: number, index?: number): HullInfo;
  /**
   * Full state into `out` (13 values: position (m, world) [0..2], rotation x, y, z, w [3..6],
   * linear velocity of the centre of mass (m/s) [7..9], angular velocity (rad/s) [10..12]).
   * No allocation when `out` is given; returns `out`.
   */
  getState<T extends Float32Array | Float64Array | number[] = Float32Array>(id: number, out?: T): T;
  /** Body origin position (m, world) into `out` (3 values); returns `out`. */
  getPosition<T extends Float32Array | Float64Array | number[] = Float32Array>(id: number, out?: T): T;
  /** Rotation quaternion (x, y, z, w; body to world) into `out` (4 values); returns `out`. */
  getRotation<T extends Float32Array | Float64Array | number[] = Float32Array>(id: number, out?: T): T;
  /** Linear velocity of the centre of mass (m/s, world) into `out` (3 values); returns `out`. */
  getLinearVelocity<T extends Float32Array | Float64Array | number[] = Float32Array>(id: number, out?: T): T;
  /** Angular velocity (rad/s, world) into `out` (3 values); returns `out`. */
  getAngularVelocity<T extends Float32Array | Float64Array | number[] = Float32Array>(id: number, out?: T): T;
  /**
   * Slot of a body id in the body views (`id & 0xFFFFF`; 7 transform floats per slot). The id
   * must be an integer in [0, 2³¹); a removed id gives the slot it had.
   */
  bodySlot(id: number): number;

  /** Advances the world by `n` timesteps (collide + solve each). Default 1. */
  step(n?: number): void;
  /** Collision stage only: contacts from the current state (impulses not yet available: `readbackValid` false). */
  collide(): void;
  /** Solver stage only, on the contacts of the preceding collide(). @throws {Error} without a preceding collide() */
  solve(): void;
  /** Reserves room in the contact store, integer >= 1 (optional: a step grows it as needed); never shrinks; the contacts of the last step stay as they were. */
  setContactCapacity(capacity: number): void;
  /** Reserves room in the broad-phase pair arrays (optional: a step grows them as needed; see `contacts.pairsGrew`); the pairs and contacts of the last step stay as they were. @throws {RangeError} capacity < 1 */
  setPairCapacity(capacity: number): void;

  /** Body views over engine memory; see {@link BodyViews} for how long they stay valid. */
  readonly bodies: BodyViews;
  /** Contact views over engine memory; see {@link ContactViews} for how long they stay valid. */
  readonly contacts: ContactViews;
  /** Statistics of the last step. */
  readonly stepStats: StepStats;
  /** What the contact readback of the last solve() includes: the engine's flags with the preset's description. */
  readonly readbackInfo: ReadbackInfo;
  /** Switches every axis to a preset's choice between steps; bodies and shapes are kept. @throws {RangeError} unavailable preset */
  setPreset(preset: Preset): void;
  /**
   * Sets solver and collision options between steps (names as in {@link WorldOptions}). On error
   * nothing changes. @throws {RangeError} unknown option, bad value (the message names it)
   */
  setOptions(options: AxisOptions & Pick<WorldOptions, 'substeps' | 'velocityIterations' | 'bounceThreshold' |
    'maxDepenetrationVelocity' | 'speculativeDistance'>): void;
  /** The world's current options, every axis by name. */
  readonly options: Required<AxisOptions> & { preset: Preset; threads: number; adaptiveThreads: boolean; gravity: number[]; timestep: number;
    substeps?: never; velocityIterations: number; bounceThreshold: number; maxDepenetrationVelocity: number | null;
    speculativeDistance: number;
    bodyCapacity: number; contactCapacity: number; pairCapacity: number };

  /* -- filtering: filter fields, sleep, pair lists, queries (broadPhase, filterRule and
   * maxCollisionPairs are options: {@link World.setOptions}) -- */
  /** Shape ids of a body, in creation order. @throws {RangeError} unknown body */
  shapeIds(body: number): number[];
  /** Sets some of a shape's filter fields. @throws {RangeError | TypeError} naming the field */
  setShapeFilter(shape: number, filter: ShapeFilterDesc): void;
  /** A shape's filter fields. */
  getShapeFilter(shape: number): ShapeFilter;
  /** Parent body (-1 clears): shapes of a body and its parent never collide under `'mujoco'` and `'genesis'`. */
  setParent(id: number, parent: number): void;
  /** Parent body id, -1 none. */
  getParent(id: number): number;
  /**
   * Puts a dynamic or kinematic body to sleep (its velocities are zeroed; it is not integrated; its
   * pairs with sleeping or static bodies are skipped) or wakes it. With `sleep: 'off'` the body
   * alone, acting as static in contacts with awake bodies, and nothing wakes it automatically;
   * under automatic sleep its whole island, woken again by contacts, joints and the setters
   * (docs/sleeping.md). @throws {RangeError} static body
   */
  setSleeping(id: number, sleeping: boolean): void;
  /** Whether the body sleeps. */
  isSleeping(id: number): boolean;
  /**
   * The island of a dynamic body after the last step: the id of the body that names it (equal
   * values: one island); -1 for static and kinematic bodies and for a body put to sleep alone.
   */
  island(id: number): number;
  /**
   * A dynamic body's automatic-sleep counters after the last step (docs/sleeping.md), what the
   * world's rule decides on; the other rule's values are null (not computed).
   * @throws {RangeError} static or kinematic body
   */
  sleepState(id: number): SleepState;
  /**
   * Excludes a pair (`excluded` false re-admits it): `{ shapes: [a, b] }` Newton shape-pair
   * exclusion, `{ bodies: [a, b] }` MuJoCo `exclude` body pair.
   */
  excludePair(pair: { shapes: readonly [number, number] } | { bodies: readonly [number, number] }, excluded?: boolean): void;
  /** Pair list of broadPhase `'explicit'`: replaces the previous list; removed shapes leave it. */
  setExplicitPairs(pairs: readonly (readonly [number, number])[]): void;
  /** MuJoCo explicit pair with its own parameters (`null` removes it). */
  setContactPair(a: number, b: number, params: ContactPairParams | null): void;
  /**
   * Closest hit of a ray (direction need not be unit), or null: every shape type; heightfields and
   * meshes by the front sides of their triangles. @throws {RangeError} zero direction, maxDistance <= 0
   */
  rayCast(origin: Vec3, direction: Vec3, options?: RayCastOptions): RayHit | null;
  /** Every hit of a ray, nearest first, up to `capacity`. */
  rayCastAll(origin: Vec3, direction: Vec3, options?: RayCastOptions): RayCastAllResult;
  /** Shapes overlapping a query shape at a world pose (through the narrow phase). */
  overlap(shape: QueryShape, options?: OverlapOptions): OverlapResult;
  /**
   * Signed distance of two convex shapes (sphere, capsule, box, cylinder, ellipsoid, hull) at the
   * current body poses, with the routine that answered; null when farther apart than maxDistance.
   * @throws RangeError for a plane, mesh or heightfield, or a == b.
   */
  shapeDistance(a: number, b: number, options?: ShapeDistanceOptions): ShapeDistance | null;
  /**
   * A hull shape's support vertex along a world direction (any length > 0) at its current pose.
   * @throws RangeError when the shape is not a hull or the direction is zero.
   */
  shapeSupport(shape: number, direction: Vec3): ShapeSupport;

  /* -- observation (docs/observation.md); calls that read forces throw an Error whose `readback` property holds the flags when the readback is not available -- */
  /**
   * Net contact wrench on a body over the last step about its centre of mass (force N, torque N·m,
   * world). Under newton-xpbd substeps it also sums the contacts that ended before the last
   * substep (no longer in `contacts`). Under newton-semi (per-body totals only) `with` and
   * `excludeSelf: true` throw "not available".
   */
  netContactWrench(body: number, options?: ContactFilter): ObservedWrench;
  /** Net contact wrench of every body slot (index by `bodySlot(id)`), 3 values per slot each. */
  netContactWrenches(options?: { excludeSelf?: boolean }): NetContactWrenches;
  /** Contact-store indices of a body's contacts. */
  bodyContacts(body: number, options?: ContactFilter): Int32Array;
  /** Wrench of one contact on side 0 (shape0) or 1 (shape1) about `point` (default: that body's centre of mass). */
  contactWrench(index: number, side: 0 | 1, point?: Vec3): ObservedWrench;
  /** Contacts [first, first + count) in another engine's convention. */
  convertContacts(convention: 'newton' | 'genesis' | 'physx' | 'newton-mujoco-adapter', first?: number, count?: number): ConvertedContacts;
  /** Adds a contact sensor on a body; returns its id. */
  addContactSensor(body: number, options?: ContactSensorOptions): number;
  removeContactSensor(id: number): void;
  /** Latest sensor value (N, world). @throws {Error} no sample yet or not available */
  readContactSensor(id: number): { readonly force: number[]; readonly readback: ReadbackInfo };
  contactSensorHistory(id: number): ContactSensorHistory;
  /** Events kept per step; 0 (the default) turns events off. */
  setEventCapacity(capacity: number): void;
  /** World force threshold (N, >= 0; 0 = off). */
  setForceThreshold(newtons: number): void;
  /** Force threshold of one shape pair (N; -1 removes it). */
  setPairForceThreshold(shape0: number, shape1: number, newtons: number): void;
  /** Events of the last solve(). */
  readonly events: ContactEvents;

  /* -- Newton presets -- */
  /**
   * Per-contact overrides of the penalty solver for contact `index` of the last collide(),
   * 0 = unset; between collide() and solve(), for that solve() only.
   * @throws {RangeError} negative or non-finite value, index out of range @throws {Error} no collide() before
   */
  setContactOverride(index: number, override: ContactOverride): void;
  /** Status of the last solve: iterations used and residuals ('physx-pgs', 'physx-tgs': computed
   * when first read after the step, the same values; a step nobody reads them after costs nothing for them). */
  readonly solverStatus: SolverStatus;
  /** Clears the solver's history across steps (`'kamino'`: the warm-start cache; `'mujoco'`: the last accelerations); the next step starts cold. */
  resetSolver(): void;
  /** PhysX maxContactImpulse of a body (N·s per contact point and step, > 0; `Infinity` = none). @throws {RangeError} not > 0 */
  setMaxContactImpulse(id: number, maxImpulse: number): void;
  /** PhysX solver iteration requests of a body (-1 = the world's). @throws {RangeError} out of range */
  setSolverIterations(id: number, positionIterations?: number, velocityIterations?: number): void;

  /**
   * The whole state as bytes: definition, bodies, shapes and their geometry, ids with their
   * generations and free lists, candidate pairs, contacts, matching frames, pair lists, the PhysX
   * friction-anchor cache, sensors, events and this object's preset name and id lists. A 32-byte
   * header (magic `TRIBOSNP`, version, sizes, layout hash, FNV-1a checksum) leads.
   */
  snapshot(): Uint8Array;
  /**
   * Replaces the whole state by a snapshot's (the thread count is kept); stepping then continues
   * bitwise as from the saved world. On any error nothing changes.
   * @throws {SnapshotError} malformed or foreign bytes (`reason` says why)
   * @throws {TypeError} bytes not a Uint8Array
   */
  restore(bytes: Uint8Array): void;

  /** Frees the world and all its memory. The object is unusable afterwards; calling it again is a no-op. */
  free(): void;
}

/**
 * Why a snapshot was refused. 'corrupt': the checksum matches but the content does not hold
 * together, or a stored value is one that creating or setting it refuses (a NaN position, a sphere
 * radius <= 0, a negative friction, a MuJoCo pair override's NaN margin, a pair list naming a
 * removed shape, a NaN point of the contact matching); the message names the body, shape, joint
 * or pair slot and the value where a setter would.
 */
export type SnapshotErrorReason = 'truncated' | 'trailing-bytes' | 'bad-magic' | 'bad-version' | 'foreign' | 'bad-checksum' | 'corrupt';
/** A snapshot that cannot be restored ('foreign': written by a build with another storage layout). */
export class SnapshotError extends Error {
  readonly name: 'SnapshotError';
  readonly reason: SnapshotErrorReason;
}

/**
 * Body arrays of a {@link Frame}: the fields of {@link BodyViews} (same names, units and
 * conventions), copied at the end of a step; their validity is the frame's (see {@link Frame}).
 */
export type FrameBodies = BodyViews;

/**
 * Contact arrays and status of a {@link Frame}: the fields of {@link ContactViews} (same names,
 * units and conventions), copied at the end of a step; their validity is the frame's.
 */
export type FrameContacts = ContactViews;

/**
 * A copy of a worker world's body and contact views at the end of a step, packed into one buffer.
 * Fields, units and conventions are those of {@link BodyViews} and {@link ContactViews}.
 *
 * Validity:
 * - with shared memory ({@link WorkerWorld.shared}, threaded build) the arrays view a
 *   SharedArrayBuffer written by the worker, with no copy on this side; a frame stays intact until
 *   the step after the next one starts (two buffers used in turn), and is never seen half-written.
 *   Copy it to keep it longer.
 * - without shared memory the worker transfers a fresh buffer per frame, owned by the caller.
 */
export interface Frame {
  /** Steps taken by the worker world so far (this frame is at the end of that step). */
  readonly step: number;
  readonly bodies: FrameBodies;
  readonly contacts: FrameContacts;
}

/**
 * The World API stepped in a worker (Web Worker in browsers, worker_threads in Node). Every call
 * is async; errors reject with the `RangeError` / `TypeError` / `Error` and message the same call
 * throws in process (id arguments are checked before posting). An argument that cannot be sent
 * (a function, a symbol) rejects with a `TypeError` "`method`: an argument cannot be sent to the
 * worker". When the worker exits, fails or is terminated, every pending call rejects with an
 * `Error` naming its method and the cause (e.g. "step: the worker world was terminated",
 * "step: the worker exited (code 1)"), and so does every later call. Create with
 * {@link Tribo.createWorkerWorld}.
 */
/** A World member as a worker world offers it: methods resolve asynchronously, getters are promises. */
export type AsyncMember<T> = T extends (...a: infer A) => infer R ? (...a: A) => Promise<Awaited<R>> : Promise<T>;
/** World members forwarded to the worker as they are (typed arrays arrive as copies). */
export type ForwardedWorldMembers = 'setPreset' | 'setOptions' | 'options' | 'adaptiveThreads' | 'threadMode';
export interface WorkerWorld extends Readonly<{ [K in ForwardedWorldMembers]: AsyncMember<World[K]> }> {}

export class WorkerWorld {
  private constructor();
  /** Creates the worker and its world; same as {@link Tribo.createWorkerWorld}. */
  static create(options?: WorkerWorldOptions): Promise<WorkerWorld>;
  /** The build running in the worker. */
  readonly build: Build;
  /** Threads the worker's world uses (caller included). */
  readonly threads: number;
  /** True when frames arrive over shared memory without copies. */
  readonly shared: boolean;
  /** Timestep, s. */
  readonly timestep: number;
  /** Field tables of the worker's engine. */
  readonly fields: FieldTables;
  /** The worker engine's live bytes before this world was created (`free()` resolves with it again). */
  readonly baseBytes: number;

  /** See {@link World.addBody}. Resolves with the body id. */
  addBody(desc?: BodyDesc): Promise<number>;
  /** See {@link World.removeBody}. Resolves with the ids of the joints removed with it. */
  removeBody(id: number): Promise<number[]>;
  /** See {@link World.addJoint}. Resolves with the joint id. */
  addJoint(desc: JointDesc): Promise<number>;
  /** See {@link World.removeJoint}. */
  removeJoint(id: number): Promise<void>;
  /** See {@link World.getJoint}. */
  getJoint(id: number): Promise<JointInfo>;
  /** See {@link World.jointState}. */
  jointState(id: number): Promise<JointState>;
  /** See {@link World.jointWrench}. */
  jointWrench(id: number, side: 0 | 1, point?: Vec3): Promise<Wrench>;
  /** See {@link World.jointsOf}. */
  jointsOf(body: number): Promise<number[]>;
  /** See {@link World.joints}. */
  readonly joints: Promise<number[]>;
  /** See {@link World.setPose}. */
  setPose(id: number, position: Vec3, rotation?: Quat): Promise<void>;
  /** See {@link World.setVelocity}. */
  setVelocity(id: number, linear: Vec3, angular?: Vec3): Promise<void>;
  /** See {@link World.setMass}. */
  setMass(id: number, mass: MassDesc): Promise<void>;
  /** Body origin position (m, world). */
  getPosition(id: number): Promise<number[]>;
  /** Rotation quaternion (x, y, z, w). */
  getRotation(id: number): Promise<number[]>;
  /** Linear velocity of the centre of mass (m/s, world). */
  getLinearVelocity(id: number): Promise<number[]>;
  /** Angular velocity (rad/s, world). */
  getAngularVelocity(id: number): Promise<number[]>;
  /** Grows the contact store (contact points it can report). */
  setContactCapacity(capacity: number): Promise<void>;
  /** Grows the broad-phase pair capacity. */
  setPairCapacity(capacity: number): Promise<void>;
  /** What the contact readback of the world's preset includes and excludes. */
  readonly readbackInfo: Promise<ReadbackInfo>;
  /* -- observation: see World -- */
  netContactWrench(body: number, options?: ContactFilter): Promise<ObservedWrench>;
  netContactWrenches(options?: { excludeSelf?: boolean }): Promise<NetContactWrenches>;
  bodyContacts(body: number, options?: ContactFilter): Promise<number[]>;
  contactWrench(index: number, side: 0 | 1, point?: Vec3): Promise<ObservedWrench>;
  convertContacts(convention: 'newton' | 'genesis' | 'physx' | 'newton-mujoco-adapter', first?: number, count?: number): Promise<ConvertedContacts>;
  addContactSensor(body: number, options?: ContactSensorOptions): Promise<number>;
  removeContactSensor(id: number): Promise<void>;
  readContactSensor(id: number): Promise<{ readonly force: number[]; readonly readback: ReadbackInfo }>;
  contactSensorHistory(id: number): Promise<ContactSensorHistory>;
  setEventCapacity(capacity: number): Promise<void>;
  setForceThreshold(newtons: number): Promise<void>;
  setPairForceThreshold(shape0: number, shape1: number, newtons: number): Promise<void>;
  /** Events of the last solve() (a getter that returns a promise). */
  readonly events: Promise<ContactEvents>;
  /** See {@link World.shapesOf}. */
  shapesOf(bodyId: number): Promise<number[]>;
  /** See {@link World.setMaterial}. */
  setMaterial(shapeId: number, material: ShapeMaterial): Promise<void>;
  /** See {@link World.getMaterial}. */
  getMaterial(shapeId: number): Promise<ShapeMaterialInfo>;
  /** See {@link World.setContactOverride}. */
  setContactOverride(index: number, override: ContactOverride): Promise<void>;
  /** Status of the last solve: iterations used and residuals. */
  readonly solverStatus: Promise<SolverStatus>;
  /** Clears the solver's history across steps (`'kamino'`: the warm-start cache; `'mujoco'`: the last accelerations). */
  resetSolver(): Promise<void>;
  /** PhysX maxContactImpulse of a body (N·s per contact point and step). */
  setMaxContactImpulse(id: number, maxImpulse: number): Promise<void>;
  /** PhysX solver iteration requests of a body (-1 = the world's). */
  setSolverIterations(id: number, positionIterations?: number, velocityIterations?: number): Promise<void>;
  /** Collision stage only; the frame's contacts have no impulses yet (`readbackValid` false). */
  collide(): Promise<Frame>;
  /** Solver stage only, on the contacts of the preceding collide(). */
  solve(): Promise<Frame>;
  /** Sets gravity (m/s², world axes). */
  setGravity(gravity: Vec3): Promise<void>;
  /** Sets the timestep (s) of the following steps. */
  setTimestep(timestep: number): Promise<void>;
  /** See {@link World.getMass}. */
  getMass(id: number): Promise<MassProperties>;
  /** See {@link World.hullInfo}. */
  hullInfo(body: number, index?: number): Promise<HullInfo>;
  /** 13 numbers: position (m), rotation (x, y, z, w), linear velocity (m/s), angular velocity (rad/s); world frame. */
  getState(id: number): Promise<number[]>;
  /** Statistics of the last step (a getter that returns a promise). */
  readonly stepStats: Promise<StepStats>;
  /** Bytes currently allocated by the worker's engine. */
  liveBytes(): Promise<number>;
  /**
   * Steps `n` timesteps (default 1) in the worker; resolves with the frame of the last one.
   * `free()` and `terminate()` stop it between two timesteps: it then rejects with an `Error`
   * ("step: stopped by free() or terminate() after k of n timesteps", or the termination).
   */
  step(n?: number): Promise<Frame>;
  /** The current state as a frame, without stepping. */
  frame(): Promise<Frame>;
  /* -- filtering: see the World methods of the same names -- */
  shapeIds(body: number): Promise<number[]>;
  setShapeFilter(shape: number, filter: ShapeFilterDesc): Promise<void>;
  getShapeFilter(shape: number): Promise<ShapeFilter>;
  setParent(id: number, parent: number): Promise<void>;
  getParent(id: number): Promise<number>;
  setSleeping(id: number, sleeping: boolean): Promise<void>;
  isSleeping(id: number): Promise<boolean>;
  island(id: number): Promise<number>;
  sleepState(id: number): Promise<SleepState>;
  excludePair(pair: { shapes: readonly [number, number] } | { bodies: readonly [number, number] }, excluded?: boolean): Promise<void>;
  setExplicitPairs(pairs: readonly (readonly [number, number])[]): Promise<void>;
  setContactPair(a: number, b: number, params: ContactPairParams | null): Promise<void>;
  rayCast(origin: Vec3, direction: Vec3, options?: RayCastOptions): Promise<RayHit | null>;
  rayCastAll(origin: Vec3, direction: Vec3, options?: RayCastOptions): Promise<RayCastAllResult>;
  overlap(shape: QueryShape, options?: OverlapOptions): Promise<OverlapResult>;
  shapeDistance(a: number, b: number, options?: ShapeDistanceOptions): Promise<ShapeDistance | null>;
  shapeSupport(shape: number, direction: Vec3): Promise<ShapeSupport>;

  snapshot(): Promise<Uint8Array>;
  /** World.restore in the worker. @throws {SnapshotError} */
  restore(bytes: Uint8Array): Promise<void>;

  /**
   * Frees the world and stops the worker; a running step stops at its next timestep (within one
   * timestep's time, plus 10 ms without shared memory). Resolves with the engine's live bytes
   * after freeing (0 if already freed).
   */
  free(): Promise<number>;
  /**
   * Stops the worker at once without waiting for it: every pending call rejects with
   * "`method`: the worker world was terminated", and every later call too. The world's memory
   * goes with the worker. Calling it again does nothing.
   */
  terminate(): void;
}
