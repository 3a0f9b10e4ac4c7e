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
 *   `id & 0xFFFFF`, see {@link World.bodySlot}) and a generation; a removed id is rejected.
 * - Contact normal points from shape0 to shape1. Separation is signed (m, < 0 = penetration).
 *   Normal impulse >= 0 is applied to body1 along +normal and to body0 along -normal.
 *
 * Errors: invalid input throws a `RangeError` (out-of-range or unknown value, unknown option key,
 * id that does not exist, capacity exceeded) or a `TypeError` (wrong type, missing required
 * field) whose message names the function, the field and the offending value, e.g.
 * `addBody: shapes[0]: sphere radius must be > 0 (got -1)`. Other failures (out of memory,
 * invalid state such as solve() without collide(), use after free()) throw a plain `Error`.
 * A call that throws leaves the world unchanged.
 *
 * @module tribo
 */

/** A 3-vector: an array of exactly 3 numbers (checked at run time). */
export type Vec3 = readonly [number, number, number] | Float32Array | Float64Array;
/** A unit quaternion (x, y, z, w); its length must be within 1e-3 of 1 (checked at run time). */
export type Quat = readonly [number, number, number, number] | Float32Array | Float64Array;

/** The two WebAssembly builds. */
export type Build = 'threads' | 'simd';
/** Solver presets; only `'physx-tgs'` exists in this version. */
export type Preset = 'physx-tgs';
/** Body types. */
export type BodyType = 'static' | 'kinematic' | 'dynamic';
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
  /** shape0, shape1, body0, body1, point, normal, separation, normalImpulse, tangentImpulse, tangent0, tangent1, force, featureId. */
  readonly contact: readonly FieldInfo[];
}

/** A loaded engine build. Obtain one with {@link init}. */
export class Tribo {
  private constructor();
  /** The build that was loaded. */
  readonly build: Build;
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
  /** Bytes currently allocated by the engine (returns to its earlier value after `free()`). */
  liveBytes(): number;
}

/**
 * Options of {@link Tribo.createWorld}. Unknown keys throw a `RangeError`. Solver parameters are
 * those of the substepped sequential-impulse solver of the `'physx-tgs'` preset.
 */
export interface WorldOptions {
  /** Solver preset. Default `'physx-tgs'` (the only one available). */
  preset?: Preset;
  /** Gravity, m/s², world vector. Default `[0, -9.81, 0]`. */
  gravity?: Vec3;
  /** Timestep, s, finite and > 0. Default `1/60`. */
  timestep?: number;
  /** Substeps per step (position iterations; internal step = timestep / substeps), integer in [1, 64]. Default `4`. */
  substeps?: number;
  /** Relaxation passes per substep without bias, integer in [0, 64]. Default `1`. */
  velocityIterations?: number;
  /** m/s, finite and >= 0: restitution applies only when the contact closes faster than this. Default `1`. */
  bounceThreshold?: number;
  /** m/s, finite and > 0: cap on the push-out speed from penetration. Default `3`. */
  maxDepenetrationVelocity?: number;
  /** Hz, finite and > 0: stiffness of the soft contact bias. Default `30`. */
  contactHertz?: number;
  /** Dimensionless, finite and >= 0: damping ratio of the soft contact bias. Default `10`. */
  contactDampingRatio?: number;
  /** m, finite and >= 0: penetration allowed without push-out. Default `0`. */
  linearSlop?: number;
  /** m, finite and >= 0: contacts are kept (speculatively) up to this separation. Default `0.02`. */
  speculativeDistance?: number;
  /** Warm-start impulses from the previous step (truthy/falsy). Default `true`. */
  warmStarting?: boolean;
  /**
   * Contact points the store holds, integer >= 1. Overflow is reported
   * ({@link ContactStatus.overflowed}), not an error. Default `65536`. Grow later with
   * {@link World.setContactCapacity}.
   */
  contactCapacity?: number;
  /** Broad-phase candidate pairs, integer >= 1; overflow is reported ({@link ContactStatus.pairsOverflowed}). Default `32768`. */
  pairCapacity?: number;
  /** Initial body capacity, integer >= 1; grows as bodies are added. Default `64`. */
  bodyCapacity?: number;
  /**
   * Threads (caller included), integer in [1, {@link Tribo.maxThreads}]; 1 = serial. Default
   * {@link Tribo.defaultThreads}. Must be 1 on a page's main thread (use
   * {@link Tribo.createWorkerWorld} there).
   */
  threads?: number;
}

/** Options of {@link Tribo.createWorkerWorld}: world options plus the worker's build. */
export interface WorkerWorldOptions extends WorldOptions {
  /** Build loaded in the worker. Default: the build of the Tribo that creates it. */
  build?: Build;
}

/** Material fields shared by every shape. */
export interface MaterialDesc {
  /** Coulomb friction coefficient μ, finite and >= 0. Default `0.5`. A contact uses the mean of its two shapes. */
  friction?: number;
  /** Restitution in [0, 1]. Default `0`. A contact uses the mean of its two shapes. */
  restitution?: number;
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
export interface PlaneDesc extends MaterialDesc, ShapePose {
  type: 'plane';
  /** Unit outward normal, shape frame. Default `[0, 1, 0]`. */
  normal?: Vec3;
  /** Offset along the normal, m. Default `0`. */
  offset?: number;
}

/** Sphere centred on the shape origin. */
export interface SphereDesc extends MaterialDesc, ShapePose {
  type: 'sphere';
  /** Radius, m, > 0. Required. */
  radius: number;
}

/** Capsule: a segment along the shape's local y axis, swept by a sphere. */
export interface CapsuleDesc extends MaterialDesc, ShapePose {
  type: 'capsule';
  /** Radius, m, > 0. Required. */
  radius: number;
  /** Half length of the segment along local y, m, > 0 (total height = 2·halfHeight + 2·radius). Required. */
  halfHeight: number;
}

/** Box centred on the shape origin. */
export interface BoxDesc extends MaterialDesc, ShapePose {
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
 * or non-finite input throws a `RangeError` naming the problem. Mass properties are exact for
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
export interface HullInfo {
  vertexCount: number;
  faceCount: number;
  /** V − E + F = 2. */
  edgeCount: number;
  /** 0 = support by the exact vertex scan. */
  supportFieldResolution: number;
  /** Bytes of the support field. */
  supportFieldBytes: number;
  /** Bytes of the hull including its support field. */
  totalBytes: number;
  /** Largest vertex distance from the vertex centroid, m. */
  radius: number;
}

/** A shape of a body, discriminated by `type`. Unknown keys throw a `RangeError`. */
export type ShapeDesc = PlaneDesc | SphereDesc | CapsuleDesc | BoxDesc | CylinderDesc | EllipsoidDesc | HullDesc |
  HeightfieldDesc | MeshDesc;

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
  /** Velocity of the centre of mass, world axes, m/s. Default zero. Not allowed on static bodies. */
  linearVelocity?: Vec3;
  /** Angular velocity, world axes, rad/s. Default zero. Not allowed on static bodies. */
  angularVelocity?: Vec3;
  /** Linear damping, 1/s, finite and >= 0. Default `0`. */
  linearDamping?: number;
  /** Angular damping, 1/s, finite and >= 0. Default `0`. */
  angularDamping?: number;
  /** Overrides the mass properties computed from shape densities (dynamic bodies only). */
  mass?: MassDesc;
  /** Shapes of the body. Default `[]`. */
  shapes?: readonly ShapeDesc[];
}

/** Statistics of the last step. */
export interface StepStats {
  /** Threads that executed jobs in the last step. */
  threadsUsed: number;
  /** Constraint colours used by the parallel solver. */
  colorCount: number;
  /** Manifolds solved serially outside the colours. */
  overflowConstraints: number;
  /** Contact manifolds (shape pairs in contact). */
  manifoldCount: number;
  /** Substeps per step. */
  substeps: number;
}

/** What the contact readback of a preset contains. */
export interface ReadbackInfo {
  readonly preset: Preset;
  /** What `normalImpulse` holds. */
  readonly normalImpulse: string;
  /** What `tangentImpulse` holds. */
  readonly tangentImpulse: string;
  /** What `force` holds. */
  readonly force: string;
  /** Impulses the readback leaves out (none for `'physx-tgs'`). */
  readonly excludes: readonly string[];
  /** True when `force` is reported per contact point. */
  readonly perContactForce: boolean;
}

/** Readback description per preset. */
export const READBACK_INFO: Readonly<Record<Preset, ReadbackInfo>>;

/** Material defaults (PhysX-like): μ 0.5, restitution 0, density 1000 kg/m³. */
export const DEFAULT_MATERIAL: Readonly<{ friction: 0.5; restitution: 0; density: 1000 }>;

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
 */
export interface BodyViews {
  /** Body slots in use (some may be free, see `bodyType`). */
  readonly slotCount: number;

  /**
   * Body origin position (world frame, m) then rotation quaternion x, y, z, w (unit, body to world).
   * Slot `s` holds position at `[7*s .. 7*s+2]` and the quaternion at `[7*s+3 .. 7*s+6]`.
   * The position is the body origin, not the centre of mass (see {@link World.getMass}).
   *
   * - Unit: m, 1
   * - Components per element: 7 (length 7 × slotCount)
   * - Valid: a view over engine memory, valid until the next call that changes the world (step, collide, solve, addBody, removeBody, setContactCapacity, free); read `world.bodies` / `world.contacts` again after such a call.
   */
  readonly transform: Float32Array;

  /**
   * Velocity of the centre of mass, world axes.
   *
   * - Unit: m/s
   * - Components per element: 3 (length 3 × slotCount)
   * - Valid: a view over engine memory, valid until the next call that changes the world (step, collide, solve, addBody, removeBody, setContactCapacity, free); read `world.bodies` / `world.contacts` again after such a call.
   */
  readonly linearVelocity: Float32Array;

  /**
   * Angular velocity, world axes.
   *
   * - Unit: rad/s
   * - Components per element: 3 (length 3 × slotCount)
   * - Valid: a view over engine memory, valid until the next call that changes the world (step, collide, solve, addBody, removeBody, setContactCapacity, free); read `world.bodies` / `world.contacts` again after such a call.
   */
  readonly angularVelocity: Float32Array;

  /**
   * Body type: `0` static, `1` kinematic, `2` dynamic; `-1` free slot (removed or never used).
   *
   * - Unit: enum
   * - Components per element: 1 (length slotCount)
   * - Valid: a view over engine memory, valid until the next call that changes the world (step, collide, solve, addBody, removeBody, setContactCapacity, free); read `world.bodies` / `world.contacts` again after such a call.
   */
  readonly bodyType: Int32Array;
}

/** Contact store status after the last collide() (or step()). */
export interface ContactStatus {
  /** Contact points stored (<= capacity); the length of each contact field in elements. */
  readonly count: number;
  /** Contact points the store can hold. */
  readonly capacity: number;
  /** Contact points found; more than `capacity` means overflow. */
  readonly requested: number;
  /** True when `requested > capacity`: the store holds the first `capacity` contacts in pair order. */
  readonly overflowed: boolean;
  /** Broad-phase candidate pairs stored. */
  readonly pairCount: number;
  /** Broad-phase pair capacity. */
  readonly pairCapacity: number;
  /** Broad-phase candidate pairs found. */
  readonly pairsRequested: number;
  /** True when `pairsRequested > pairCapacity` (some pairs were dropped). */
  readonly pairsOverflowed: boolean;
  /**
   * True after solve() (or step()) filled `normalImpulse`, `tangentImpulse` and `force` for this
   * contact set; false after a collide() alone.
   */
  readonly readbackValid: boolean;
}

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
export interface ContactViews extends ContactStatus {
  /**
   * First shape's id; the normal points away from it.
   *
   * - Unit: id
   * - Components per element: 1 (length count)
   * - Valid: a view over engine memory, valid until the next call that changes the world (step, collide, solve, addBody, removeBody, setContactCapacity, free); read `world.bodies` / `world.contacts` again after such a call.
   */
  readonly shape0: Int32Array;

  /**
   * Second shape's id.
   *
   * - Unit: id
   * - Components per element: 1 (length count)
   * - Valid: a view over engine memory, valid until the next call that changes the world (step, collide, solve, addBody, removeBody, setContactCapacity, free); read `world.bodies` / `world.contacts` again after such a call.
   */
  readonly shape1: Int32Array;

  /**
   * Body id of `shape0` (as returned by {@link World.addBody}); `-1` when that body is static.
   *
   * - Unit: id
   * - Components per element: 1 (length count)
   * - Valid: a view over engine memory, valid until the next call that changes the world (step, collide, solve, addBody, removeBody, setContactCapacity, free); read `world.bodies` / `world.contacts` again after such a call.
   */
  readonly body0: Int32Array;

  /**
   * Body id of `shape1` (as returned by {@link World.addBody}); `-1` when that body is static.
   *
   * - Unit: id
   * - Components per element: 1 (length count)
   * - Valid: a view over engine memory, valid until the next call that changes the world (step, collide, solve, addBody, removeBody, setContactCapacity, free); read `world.bodies` / `world.contacts` again after such a call.
   */
  readonly body1: Int32Array;

  /**
   * Contact point, world frame: the midpoint between the points on the two surfaces. This is the reference point at which `normalImpulse`, `tangentImpulse` and `force` act.
   *
   * - Unit: m
   * - Components per element: 3 (length 3 × count)
   * - Valid: a view over engine memory, valid until the next call that changes the world (step, collide, solve, addBody, removeBody, setContactCapacity, free); read `world.bodies` / `world.contacts` again after such a call.
   */
  readonly point: Float32Array;

  /**
   * World-frame unit vector from `shape0` towards `shape1`.
   *
   * - Unit: 1 (unit vector)
   * - Components per element: 3 (length 3 × count)
   * - Valid: a view over engine memory, valid until the next call that changes the world (step, collide, solve, addBody, removeBody, setContactCapacity, free); read `world.bodies` / `world.contacts` again after such a call.
   */
  readonly normal: Float32Array;

  /**
   * Signed distance along the normal; negative = penetration, positive = a speculative contact that is not touching yet.
   *
   * - Unit: m
   * - Components per element: 1 (length count)
   * - Valid: a view over engine memory, valid until the next call that changes the world (step, collide, solve, addBody, removeBody, setContactCapacity, free); read `world.bodies` / `world.contacts` again after such a call.
   */
  readonly separation: Float32Array;

  /**
   * Normal impulse over the last step (sum of substeps); always >= 0. Applied to body1 along +normal and to body0 along -normal.
   *
   * - Unit: N·s
   * - Components per element: 1 (length count)
   * - Meaningful only when `readbackValid` is true (after step() or solve()); zero after a collide() alone.
   * - Valid: a view over engine memory, valid until the next call that changes the world (step, collide, solve, addBody, removeBody, setContactCapacity, free); read `world.bodies` / `world.contacts` again after such a call.
   */
  readonly normalImpulse: Float32Array;

  /**
   * Friction impulse over the last step along `tangent0` (component 0) and `tangent1` (component 1); applied to body1, the opposite to body0.
   *
   * - Unit: N·s
   * - Components per element: 2 (length 2 × count)
   * - Meaningful only when `readbackValid` is true (after step() or solve()); zero after a collide() alone.
   * - Valid: a view over engine memory, valid until the next call that changes the world (step, collide, solve, addBody, removeBody, setContactCapacity, free); read `world.bodies` / `world.contacts` again after such a call.
   */
  readonly tangentImpulse: Float32Array;

  /**
   * World-frame unit vector perpendicular to the normal (first friction direction).
   *
   * - Unit: 1 (unit vector)
   * - Components per element: 3 (length 3 × count)
   * - Valid: a view over engine memory, valid until the next call that changes the world (step, collide, solve, addBody, removeBody, setContactCapacity, free); read `world.bodies` / `world.contacts` again after such a call.
   */
  readonly tangent0: Float32Array;

  /**
   * World-frame unit vector, `normal × tangent0` (second friction direction).
   *
   * - Unit: 1 (unit vector)
   * - Components per element: 3 (length 3 × count)
   * - Valid: a view over engine memory, valid until the next call that changes the world (step, collide, solve, addBody, removeBody, setContactCapacity, free); read `world.bodies` / `world.contacts` again after such a call.
   */
  readonly tangent1: Float32Array;

  /**
   * Average total contact force over the last step on body1 by body0, applied at `point`, world axes: `(normalImpulse·normal + tangentImpulse[0]·tangent0 + tangentImpulse[1]·tangent1) / timestep`. body0 receives the opposite force.
   *
   * - Unit: N
   * - Components per element: 3 (length 3 × count)
   * - Meaningful only when `readbackValid` is true (after step() or solve()); zero after a collide() alone.
   * - Valid: a view over engine memory, valid until the next call that changes the world (step, collide, solve, addBody, removeBody, setContactCapacity, free); read `world.bodies` / `world.contacts` again after such a call.
   */
  readonly force: Float32Array;

  /**
   * Geometric feature key; together with the shape pair (`shape0`, `shape1`) it matches a contact point across frames.
   *
   * - Unit: id
   * - Components per element: 1 (length count)
   * - Valid: a view over engine memory, valid until the next call that changes the world (step, collide, solve, addBody, removeBody, setContactCapacity, free); read `world.bodies` / `world.contacts` again after such a call.
   */
  readonly featureId: Uint32Array;
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

  /**
   * Adds a body with its shapes and returns its id. On any error nothing is added.
   * @throws {RangeError | TypeError} the message names the field and value, e.g.
   *   `addBody: shapes[1].halfExtents is required for a box`
   */
  addBody(desc?: BodyDesc): number;
  /** Removes a body and its shapes; its id is rejected afterwards. @throws {RangeError} unknown id */
  removeBody(id: number): void;
  /** Sets the body origin position (m, world) and rotation (unit quaternion x, y, z, w; default identity). */
  setPose(id: number, position: Vec3, rotation?: Quat): void;
  /**
   * Sets the linear velocity of the centre of mass (m/s) and angular velocity (rad/s, default
   * zero), world axes. @throws {RangeError} static body
   */
  setVelocity(id: number, linear: Vec3, angular?: Vec3): void;
  /** Overrides the mass properties (dynamic bodies only). @throws {RangeError} not dynamic, mass or inertia <= 0 */
  setMass(id: number, mass: MassDesc): void;
  /** Sets gravity (m/s², world axes) for the following steps. */
  setGravity(gravity: Vec3): void;
  /** Sets the timestep (s, > 0) of the following steps; `timestep` is updated (as float32). */
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
  /** Slot of a body id in the body views (`id & 0xFFFFF`; 7 transform floats per slot). Does not check the id. */
  bodySlot(id: number): number;

  /** Advances the world by `n` timesteps (collide + solve each). Default 1. */
  step(n?: number): void;
  /** Collision stage only: contacts from the current state (impulses not yet available: `readbackValid` false). */
  collide(): void;
  /** Solver stage only, on the contacts of the preceding collide(). @throws {Error} without a preceding collide() */
  solve(): void;
  /** Grows the contact store (contact points it can report), integer >= 1; never shrinks below the current count. */
  setContactCapacity(capacity: number): void;
  /** Grows the broad-phase pair capacity (candidate pairs a step keeps; see `contacts.pairsOverflowed`). @throws {RangeError} capacity < 1 */
  setPairCapacity(capacity: number): void;

  /** Body views over engine memory; see {@link BodyViews} for how long they stay valid. */
  readonly bodies: BodyViews;
  /** Contact views over engine memory; see {@link ContactViews} for how long they stay valid. */
  readonly contacts: ContactViews;
  /** Statistics of the last step. */
  readonly stepStats: StepStats;
  /** What the contact readback of this world's preset includes and excludes. */
  readonly readbackInfo: ReadbackInfo;

  /** Frees the world and all its memory. The object is unusable afterwards; calling it again is a no-op. */
  free(): void;
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
 * is async; errors reject with a `RangeError` / `TypeError` / `Error` carrying the engine's
 * message. Create with {@link Tribo.createWorkerWorld}.
 */
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

  /** See {@link World.addBody}. Resolves with the body id. */
  addBody(desc?: BodyDesc): Promise<number>;
  /** See {@link World.removeBody}. */
  removeBody(id: number): Promise<void>;
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
  /** Steps `n` timesteps (default 1) in the worker; resolves with the frame of the last one. */
  step(n?: number): Promise<Frame>;
  /** The current state as a frame, without stepping. */
  frame(): Promise<Frame>;
  /** Frees the world and stops the worker. Resolves with the engine's live bytes after freeing (0 if already freed). */
  free(): Promise<number>;
}
