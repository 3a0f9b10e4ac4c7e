/* Tribo: rigid-body contact dynamics. Public C API.
 *
 * Conventions (every quantity, every function):
 *   - SI units: m, kg, s, N, N·s, rad, rad/s. Right-handed world frame; gravity is a world vector.
 *   - Rotations are unit quaternions stored (x, y, z, w).
 *   - Objects are referred to by integer ids, never by pointers. A body, shape, joint or sensor id
 *     packs an index (low 20 bits) and a generation (next 11 bits); a removed id is rejected
 *     afterwards and never handed out again (a slot whose 2048 generations are used up is
 *     retired). Each world starts its generations at its own offset (32 × its registry slot), so
 *     an id of another world is rejected too (tb_id_check, TB_ID_FOREIGN; see there for the bound).
 *   - Functions that can fail return a tb_status (or a negative tb_status in place of an id).
 *     tb_world_last_error() then holds a message naming the bad field and value. A failed call
 *     leaves the world unchanged.
 *   - Contact normal points from shape0 to shape1. Separation is signed (m, < 0 = penetration).
 *     Normal impulse >= 0 is applied to body1 along +normal and to body0 along -normal.
 *
 * One header, over the ~600 lines a source file keeps to, on purpose (as MuJoCo's mujoco.h): it
 * is the whole contract a binding reads, and the tools read it as one file (tools/exports.mjs
 * the export list, tools/check_api.mjs the API wall); its X-lists (enums, constants, field sets)
 * are the single source of C messages and JS tables. Every function declared TB_API here is
 * defined in src/api/.
 */
#ifndef TRIBO_H
#define TRIBO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__EMSCRIPTEN__)
#include <emscripten/emscripten.h>
#define TB_API EMSCRIPTEN_KEEPALIVE
#else
#define TB_API
#endif

typedef enum tb_status {
  TB_OK = 0,
  TB_ERR_INVALID_ARGUMENT = 1, /* NaN/Inf, non-positive size, unknown enum value */
  TB_ERR_NOT_FOUND = 2,        /* an id that does not exist or was removed */
  TB_ERR_CAPACITY = 3,         /* a count over a fixed capacity */
  TB_ERR_OUT_OF_MEMORY = 4,
  TB_ERR_INVALID_STATE = 5     /* e.g. solve() without a preceding collide() */
} tb_status;

/* Enums are X-lists: X(constant, "name"). The values are the list order from 0; "name" is the
 * spelling of C messages and of the JS API, exposed by tb_enum_name() (see "Enum name tables"
 * below), so C messages and bindings share this one list. */
#define TB_ENUM_CONSTANT(c, name) c,

#define TB_BODY_TYPES(X) X(TB_BODY_STATIC, "static") X(TB_BODY_KINEMATIC, "kinematic") X(TB_BODY_DYNAMIC, "dynamic")
typedef enum tb_body_type { TB_BODY_TYPES(TB_ENUM_CONSTANT) TB_BODY_TYPE_COUNT } tb_body_type;

/* Shape parameters, by type (all in m, in the shape's local frame):
 *   PLANE:   params[0..2] = unit normal n, params[3] = offset d: the solid half-space
 *            n·x <= d in the shape frame. Static bodies only.
 *   SPHERE:  params[0] = radius
 *   BOX:     params[0..2] = half extents (x, y, z)
 *   CAPSULE: params[0] = radius, params[1] = half height of the segment along local y */
#define TB_SHAPE_TYPES(X)                                                                          \
  X(TB_SHAPE_PLANE, "plane")             /* 0 */                                                  \
  X(TB_SHAPE_SPHERE, "sphere")           /* 1 */                                                  \
  X(TB_SHAPE_CAPSULE, "capsule")         /* 2 */                                                  \
  X(TB_SHAPE_BOX, "box")                 /* 3 */                                                  \
  X(TB_SHAPE_CYLINDER, "cylinder")       /* 4: params[0] = radius, params[1] = half height along local y */ \
  X(TB_SHAPE_ELLIPSOID, "ellipsoid")     /* 5: params[0..2] = semi-axes along local x, y, z */    \
  X(TB_SHAPE_HULL, "hull")               /* 6: convex hull of a point cloud: tb_shape_create_hull() */ \
  X(TB_SHAPE_HEIGHTFIELD, "heightfield") /* 7: static; tb_shape_create_heightfield() */           \
  X(TB_SHAPE_MESH, "mesh")               /* 8: static triangle mesh with a BVH; tb_shape_create_mesh() */
typedef enum tb_shape_type { TB_SHAPE_TYPES(TB_ENUM_CONSTANT) TB_SHAPE_TYPE_COUNT } tb_shape_type;

/* Most points a contact manifold of one shape pair keeps after reduction. */
#define TB_MAX_POINTS_PER_PAIR 4

/* ---- Presets: one choice on every axis below; each axis can then be set on its own. ---- */
#define TB_PRESETS(X)                                                                              \
  X(TB_PRESET_PHYSX_PGS, "physx-pgs")                                                              \
  X(TB_PRESET_PHYSX_TGS, "physx-tgs")                                                              \
  X(TB_PRESET_NEWTON_XPBD, "newton-xpbd")                                                          \
  X(TB_PRESET_NEWTON_SEMI, "newton-semi")                                                          \
  X(TB_PRESET_MUJOCO, "mujoco")                                                                    \
  X(TB_PRESET_KAMINO, "kamino")                                                                    \
  X(TB_PRESET_GENESIS, "genesis") /* Genesis rules, MuJoCo-style solver, hibernation on */
typedef enum tb_preset { TB_PRESETS(TB_ENUM_CONSTANT) TB_PRESET_COUNT } tb_preset;

#define TB_SOLVER_TYPES(X)                                                                         \
  X(TB_SOLVER_PGS, "pgs")         /* PhysX projected Gauss-Seidel: position iterations, then velocity iterations */ \
  X(TB_SOLVER_TGS, "tgs")         /* PhysX temporal Gauss-Seidel: internal steps h/N */          \
  X(TB_SOLVER_XPBD, "xpbd")       /* Newton XPBD: position corrections, velocities from positions */ \
  X(TB_SOLVER_PENALTY, "penalty") /* Newton semi-implicit Euler with penalty contact forces */    \
  X(TB_SOLVER_MUJOCO, "mujoco")   /* MuJoCo soft constraints: PGS, CG or Newton over regularised contact rows */ \
  X(TB_SOLVER_KAMINO, "kamino")   /* Newton Kamino: PADMM on the contact rows' Delassus problem, then Euler */
typedef enum tb_solver_type { TB_SOLVER_TYPES(TB_ENUM_CONSTANT) TB_SOLVER_TYPE_COUNT } tb_solver_type;

/* How two shapes' materials combine into a contact's parameters. */
#define TB_COMBINE_RULES(X)                                                                        \
  X(TB_COMBINE_RULE_PHYSX, "physx")   /* per-shape combine modes, the larger enum wins */          \
  X(TB_COMBINE_RULE_MEAN, "mean")     /* Newton: arithmetic means */                               \
  X(TB_COMBINE_RULE_VBD, "vbd")       /* Newton VBD: means, friction sqrt(mu0 mu1) */              \
  X(TB_COMBINE_RULE_KAMINO, "kamino") /* friction average, restitution min */                      \
  X(TB_COMBINE_RULE_MUJOCO, "mujoco") /* higher priority wins; equal: condim/friction max, solmix-weighted solref/solimp */
typedef enum tb_combine_rule { TB_COMBINE_RULES(TB_ENUM_CONSTANT) TB_COMBINE_RULE_COUNT } tb_combine_rule;

/* ---- Materials: combine modes (PhysX rule) and the Kamino rule's configuration ---- */
/* Scalar combine of two shapes' values a, b. Under TB_COMBINE_RULE_PHYSX each shape names a mode
 * and the pair uses the larger enum value (AVERAGE < MIN < MULTIPLY < MAX), not the larger
 * coefficient. */
#define TB_COMBINE_MODES(X)                                                                        \
  X(TB_COMBINE_AVERAGE, "average")   /* (a + b) / 2 */                                             \
  X(TB_COMBINE_MIN, "min")           /* min(a, b) */                                               \
  X(TB_COMBINE_MULTIPLY, "multiply") /* a · b */                                                   \
  X(TB_COMBINE_MAX, "max")           /* max(a, b) */
typedef enum tb_combine_mode { TB_COMBINE_MODES(TB_ENUM_CONSTANT) TB_COMBINE_MODE_COUNT } tb_combine_mode;

/* Configuration of TB_COMBINE_RULE_KAMINO (ignored by the other rules). */
typedef struct tb_combine_params {
  int32_t kamino_friction;    /* tb_combine_mode of μ (dynamic_friction); default TB_COMBINE_AVERAGE */
  int32_t kamino_restitution; /* tb_combine_mode of restitution; default TB_COMBINE_MIN */
} tb_combine_params;

/* Convention of the per-contact force readback. */
#define TB_READBACKS(X)                                                                            \
  X(TB_READBACK_PHYSX, "physx")   /* normal impulse per point, friction impulse per anchor */      \
  X(TB_READBACK_NEWTON, "newton") /* wrench by body1 on body0 at body0's centre of mass, world axes */ \
  X(TB_READBACK_MUJOCO, "mujoco") /* contact-frame force [normal, tangent0, tangent1, torsion, roll0, roll1] on body1 */
typedef enum tb_readback { TB_READBACKS(TB_ENUM_CONSTANT) TB_READBACK_COUNT } tb_readback;

#define TB_BROAD_PHASE_TYPES(X)                                                                    \
  X(TB_BROAD_PHASE_SAP, "sap")             /* incremental sweep and prune */                       \
  X(TB_BROAD_PHASE_ALL_PAIRS, "all-pairs") /* every shape against every shape */                   \
  X(TB_BROAD_PHASE_EXPLICIT, "explicit")   /* only the pairs of the explicit pair list */
typedef enum tb_broad_phase_type { TB_BROAD_PHASE_TYPES(TB_ENUM_CONSTANT) TB_BROAD_PHASE_COUNT } tb_broad_phase_type;

#define TB_FILTER_RULES(X)                                                                         \
  X(TB_FILTER_NEWTON, "newton")   /* shape world, collision group, same body, exclusion pairs */   \
  X(TB_FILTER_MUJOCO, "mujoco")   /* contype/conaffinity, parent/child, exclude, explicit pairs */ \
  X(TB_FILTER_PHYSX, "physx")     /* filter data, detect/solve/notify flags, triggers */           \
  X(TB_FILTER_GENESIS, "genesis") /* adjacency, contype/conaffinity, max candidate pairs */
typedef enum tb_filter_rule { TB_FILTER_RULES(TB_ENUM_CONSTANT) TB_FILTER_RULE_COUNT } tb_filter_rule;

#define TB_DISTANCE_RULES(X)                                                                       \
  X(TB_DISTANCE_NEWTON, "newton") /* margins on both sides; kept when d <= gap0 + gap1 */          \
  X(TB_DISTANCE_MUJOCO, "mujoco") /* detected when dist < m + g, active when dist < m */           \
  X(TB_DISTANCE_PHYSX, "physx")   /* contactOffset sums generate, restOffset sums the rest distance */
typedef enum tb_distance_rule { TB_DISTANCE_RULES(TB_ENUM_CONSTANT) TB_DISTANCE_RULE_COUNT } tb_distance_rule;

#define TB_MATCHINGS(X) X(TB_MATCHING_LATEST, "latest") X(TB_MATCHING_STICKY, "sticky")
typedef enum tb_matching { TB_MATCHINGS(TB_ENUM_CONSTANT) TB_MATCHING_COUNT } tb_matching;

/* Collision pipeline choices. */
typedef struct tb_collision_params {
  int32_t broad_phase;     /* tb_broad_phase_type */
  int32_t filter_rule;     /* tb_filter_rule */
  int32_t distance_rule;   /* tb_distance_rule */
  int32_t matching;        /* tb_matching */
  int32_t max_points_per_pair; /* contact reduction bound, 1..TB_MAX_POINTS_PER_PAIR */
  /* -- collision section: filtering -- */
  int32_t max_collision_pairs; /* Genesis: most candidate pairs after filtering; 0 = unlimited. More
                                  stops collide()/step() with TB_ERR_CAPACITY (nothing truncated) */
  /* -- collision section: distances and matching -- */
  /* m, >= 0: a contact whose feature id changed matches the nearest previous contact of its shape
   * pair when their body-local points are this close; with TB_MATCHING_STICKY a matched contact
   * keeps its previous body-local points while the new points stay this close to them. */
  float match_distance;
  /* -- collision section: Newton speculative contacts (TB_DISTANCE_NEWTON only) -- */
  int32_t speculative_widening;    /* 0/1: keep a candidate when d <= gap0 + gap1 + min(|Δv|·h,
                                      max_speculative_extension), Δv = relative velocity of the two
                                      bodies (m/s), h = timestep; default 0 (the seed: d <= gap0 + gap1) */
  float max_speculative_extension; /* m, finite, >= 0: cap of that widening; default 0.1 (Newton) */
  float constant_gap;              /* m, finite, >= 0: a constant distance added to gap0 + gap1 (not
                                      velocity-dependent); default 0 */
  /* -- collision section: persistent manifolds -- */
  int32_t persistent_manifolds;    /* 0/1: box–box and capsule–box pairs whose relative pose moved less
                                      than PhysX's PCM thresholds refresh their previous points instead
                                      of a full generation (docs/presets.md); 1 in physx-pgs / physx-tgs
                                      (PxSceneFlag::eENABLE_PCM is on by default), 0 in the others */
} tb_collision_params;

/* ---- Newton XPBD / penalty parameters (the `newton-xpbd` and `newton-semi` presets). ---- */
typedef struct tb_newton_params {
  int32_t iterations;             /* XPBD: fixed position iterations per step, [1, 64]; no tolerance. Default 2 */
  float relaxation;               /* XPBD: contact relaxation ω, dimensionless, (0, 2). Default 0.8 */
  int32_t contact_weighting;      /* XPBD 0/1: divide each body's correction by its active contact count N. Default 1 */
  int32_t restitution;            /* XPBD 0/1: run the restitution velocity pass (its impulse is not in the readback). Default 0 */
  int32_t restitution_iterations; /* XPBD: outer restitution iterations (8 Gauss-Seidel sweeps each), [1, 64]. Default 2 */
  int32_t substeps;               /* penalty: semi-implicit Euler substeps per step, [1, 1024]. Default 8 */
  int32_t xpbd_substeps;          /* XPBD: substeps of length h/n per step on the step's contacts, [1, 1024]. Default 10 */
  float ke;                       /* penalty N/m: normal stiffness when the pair material carries none (material ke = 0) */
  float kd;                       /* penalty N·s/m: normal damping (same fallback), >= 0 */
  float kf;                       /* penalty N·s/m: friction viscosity (same fallback), >= 0 */
  float ka;                       /* penalty m: adhesion range (same fallback), >= 0 */
  float friction_smoothing;       /* penalty m/s: Huber δ of the tangential slip norm, > 0. Default 1 */
  int32_t velocity_from_positions;/* XPBD 0/1: 1 recomputes v, ω from the step's pose change after the iterations
                                   * (Newton's deprecated compute_body_velocity_from_position_delta); 0 keeps the
                                   * velocities updated with every correction (Newton 1.6). Default 0 */
} tb_newton_params;

/* ---- MuJoCo soft-constraint parameters (the `mujoco` preset; seed mujoco §4, §6). ---- */
#define TB_MUJOCO_CONES(X) X(TB_MUJOCO_PYRAMIDAL, "pyramidal") X(TB_MUJOCO_ELLIPTIC, "elliptic")
typedef enum tb_mujoco_cone { TB_MUJOCO_CONES(TB_ENUM_CONSTANT) TB_MUJOCO_CONE_COUNT } tb_mujoco_cone;
#define TB_MUJOCO_ALGORITHMS(X)                                                                    \
  X(TB_MUJOCO_PGS, "pgs")      /* dual projected Gauss-Seidel on the forces */                     \
  X(TB_MUJOCO_CG, "cg")        /* primal conjugate gradient (Polak-Ribiere, M-preconditioned) on the accelerations */ \
  X(TB_MUJOCO_NEWTON, "newton") /* primal Newton with an exact line search on the accelerations */
typedef enum tb_mujoco_algorithm { TB_MUJOCO_ALGORITHMS(TB_ENUM_CONSTANT) TB_MUJOCO_ALGORITHM_COUNT } tb_mujoco_algorithm;
#define TB_MUJOCO_INTEGRATORS(X)                                                                   \
  X(TB_MUJOCO_EULER, "euler")               /* v += h·a, then x += h·v */                          \
  X(TB_MUJOCO_IMPLICITFAST, "implicitfast") /* implicit in joint damping; joints have none: the same as Euler */
typedef enum tb_mujoco_integrator { TB_MUJOCO_INTEGRATORS(TB_ENUM_CONSTANT) TB_MUJOCO_INTEGRATOR_COUNT } tb_mujoco_integrator;
typedef struct tb_mujoco_params {
  int32_t cone;          /* tb_mujoco_cone; default pyramidal */
  int32_t algorithm;     /* tb_mujoco_algorithm; default Newton */
  int32_t integrator;    /* tb_mujoco_integrator; default Euler */
  int32_t iterations;    /* most solver iterations per step, [1, 1000]; default 100 */
  float tolerance;       /* 1, >= 0: stop when the scaled cost improvement or gradient is below; default 1e-8 */
  int32_t ls_iterations; /* most line-search iterations (CG, Newton), [1, 100]; default 50 */
  float ls_tolerance;    /* 1, > 0: line search stops at a scaled slope below tolerance·ls_tolerance; default 0.01 */
  float impratio;        /* 1, > 0: ratio of friction to normal impedance (friction R = normal R / impratio); default 1 */
  int32_t refsafe;       /* 0/1: a positive solref timeconst is raised to at least 2·timestep; default 1 */
  int32_t warmstart;     /* 0/1: start from the previous step's accelerations when they cost less than
                            the unconstrained ones (MuJoCo's warmstart flag); default 1 */
  float default_timeconst; /* s, > 0: solref[0] a new shape's material starts with, and the solref
                              timeconst of joint rows; default 0.02 (MuJoCo's geom and eq_ default),
                              genesis preset 0.01 (Genesis constraint_timeconst) */
} tb_mujoco_params;

/* ---- Kamino PADMM parameters (the `kamino` preset; Newton Kamino PADMMSolverConfig defaults). ---- */
/* Kamino's smallest ADMM penalty: below it the iteration diverges in float32 (tb_kamino_params.rho). */
#define TB_KAMINO_MIN_RHO 1e-6f
typedef struct tb_kamino_params {
  int32_t max_iterations;          /* PADMM iterations at most per step, [1, 10000]. Default 200 */
  float primal_tolerance;          /* N·s, > 0: on r_p = ||λ − proj_K(λ)||∞ of the ADMM split (x − y). Default 1e-6 */
  float dual_tolerance;            /* m/s, > 0: on r_d = ||η(x − x_prev) + ρ(y − y_prev)||∞. Default 1e-6 */
  float complementarity_tolerance; /* J, > 0: on r_c = max over contacts |λ_c · v_c|. Default 1e-6 */
  float eta;                       /* proximal regularisation η of the preconditioned Delassus problem, > 0. Default 1e-5 */
  float rho;                       /* ADMM penalty ρ (fixed) of the preconditioned problem, >= TB_KAMINO_MIN_RHO (1e-6). Default 1 */
  float warm_start_scale;          /* [0, 1]: factor on the previous step's matched impulses. Default 0.9 */
  float stabilization;             /* [0, 1]: share γ of a penetration removed per step (Baumgarte). Default 0.01 */
  float dead_zone;                 /* m, >= 0: |distance| below it counts as touching. Default 1e-6 */
  int32_t warm_start;              /* 0/1: start from the previous step's matched impulses (and keep
                                      this step's for the next). Default 1 */
} tb_kamino_params;

/* ---- Automatic sleep (src/solver/island.c, docs/sleeping.md) ----
 * Islands are the connected components of dynamic bodies linked by touching solved contacts and
 * joints (static and kinematic bodies do not link). A rule decides per step which awake bodies are
 * ready to sleep; an island whose bodies are all ready sleeps at once, its velocities zeroed. */
#define TB_SLEEP_MODES(X)                                                                          \
  X(TB_SLEEP_OFF, "off")         /* no automatic sleep (tb_body_set_sleeping still works) */       \
  X(TB_SLEEP_GENESIS, "genesis") /* Genesis hibernation: max over the 6 DOF velocities, rotations  \
                                    weighted by the body's sweep radius, < velocity_threshold for  \
                                    `steps` consecutive steps */                                   \
  X(TB_SLEEP_PHYSX, "physx")     /* PhysX: wake counter (s) runs down by the timestep; reset while \
                                    the mass-normalised kinetic energy is >= energy_threshold */
typedef enum tb_sleep_mode { TB_SLEEP_MODES(TB_ENUM_CONSTANT) TB_SLEEP_MODE_COUNT } tb_sleep_mode;
typedef struct tb_sleep_params {
  int32_t mode;             /* tb_sleep_mode; physx presets: physx, genesis preset: genesis, else off */
  float velocity_threshold; /* m/s, > 0: Genesis hibernation_thresh_vel. Default 2e-3 */
  int32_t steps;            /* Genesis: consecutive steps below the threshold, [1, 1000]. Default 10 */
  float energy_threshold;   /* m²/s² (J/kg), > 0: PhysX sleepThreshold, 5e-5·(scale.speed 10 m/s)². Default 5e-3 */
  float wake_counter;       /* s, > 0: PhysX wakeCounterResetValue (20 · 0.02 s). Default 0.4 */
} tb_sleep_params;

/* m/s: the max_depenetration_velocity that means no cap, as PhysX's maxPenBias -1e32 (the JS
 * option reads it back as null). */
#define TB_NO_DEPENETRATION_CAP 1e32f

/* Solver choices and parameters. */
typedef struct tb_solver_params {
  int32_t position_iterations;     /* substeps per step: internal step h/N (>= 1) */
  int32_t velocity_iterations;     /* relaxation passes per substep without bias (>= 0) */
  float bounce_threshold_velocity; /* m/s: restitution only when closing faster than this */
  float max_depenetration_velocity;/* m/s, > 0: cap on the push-out speed from penetration; default
                                      TB_NO_DEPENETRATION_CAP (none) */
  float speculative_distance;      /* m: PhysX rule: contacts are kept up to this separation beyond the
                                      contact offsets (Newton rule: collision.constant_gap) */
  int32_t solver;                  /* tb_solver_type */
  int32_t combine_rule;            /* tb_combine_rule */
  int32_t readback;                /* tb_readback */
  /* -- solver section: PhysX PGS / TGS -- */
  /* PGS / TGS (physx presets): position_iterations = position iterations per step (TGS: internal
   * steps h/N), velocity_iterations = velocity iterations (at least one runs; status reports it). */
  int32_t friction_every_iteration;        /* 0/1: PGS friction in every position iteration (else the last 3) */
  int32_t external_forces_every_iteration; /* 0/1: TGS gravity a·h/N before each internal step (else a·h once) */
  float bias_coefficient;                  /* 1, (0, 1]: share of the penetration removed per step by the bias */
  /* -- solver section: Newton XPBD / penalty -- */
  tb_newton_params newton;         /* Newton XPBD / penalty parameters (see tb_newton_params) */
  /* -- solver section: observation -- */
  tb_combine_params combine;       /* configuration of the combine rule (materials) */
  /* -- solver section: MuJoCo soft constraints -- */
  tb_mujoco_params mujoco;         /* the `mujoco` preset's solver (see tb_mujoco_params) */
  /* -- solver section: Kamino PADMM -- */
  tb_kamino_params kamino;         /* Kamino PADMM parameters (see tb_kamino_params) */
  /* -- solver section: islands and sleep -- */
  tb_sleep_params sleep;           /* automatic sleep (see tb_sleep_params) */
} tb_solver_params;

typedef struct tb_world_def {
  float gravity[3];                /* m/s² */
  float timestep;                  /* s, in [TB_MIN_TIMESTEP, TB_MAX_TIMESTEP] */
  int32_t body_capacity;           /* initial; grows between steps */
  int32_t contact_capacity;        /* initial contact points of the store; it grows as needed */
  int32_t pair_capacity;           /* initial broad-phase candidate pairs; the arrays grow as needed */
  int32_t thread_count;            /* worker threads incl. the caller; 1 = serial */
  tb_solver_params solver;
  tb_collision_params collision;
} tb_world_def;

/* Largest capacity of every store and buffer counted in elements: body_capacity (and bodies, shapes,
 * sensors in a world) at most TB_MAX_BODIES; contact_capacity, pair_capacity, the event capacity,
 * query and history capacities and pair lists at most TB_MAX_CAPACITY. A larger value fails with
 * TB_ERR_CAPACITY and a message naming the field and the bound, so no size computed from it can
 * overflow (in wasm32 size_t is 32 bits); memory that runs out below it fails with
 * TB_ERR_OUT_OF_MEMORY. Either way the world is unchanged. */
#define TB_MAX_BODIES ((1 << 20) - 1)
#define TB_MAX_CAPACITY (1 << 24)

/* Largest |coordinate| (m) of a body position on each axis (tb_body_create, tb_body_set_pose):
 * with shape sizes up to 1e6 m too, bounds, offsets and their products (up to ~1e13 m²) stay far
 * inside float32, and mass properties about the origin stay finite. A position outside, or not
 * finite, fails with TB_ERR_INVALID_ARGUMENT naming the component. float32 spacing at 1e6 m is
 * 0.0625 m: keep scenes well inside it for accurate contacts. */
#define TB_MAX_COORDINATE_INT 1000000
#define TB_MAX_COORDINATE ((float)TB_MAX_COORDINATE_INT) /* the checks' float form of the table's int */
/* s: the timestep's range (createWorld, setTimestep). Outside it a step's h², 1/h² and g·h² leave
 * float32 in ordinary scenes (a denormal step, 1e-40 s, made every XPBD step non-finite). */
#define TB_MIN_TIMESTEP 1e-12f
#define TB_MAX_TIMESTEP 1e12f
/* Largest |component| of a body's linear (m/s) and angular (rad/s) velocity, world axes, that
 * tb_body_set_velocity accepts: one step of the largest timestep keeps the pose finite (5e21 rad/s
 * overflowed the rotation's norm in the next step). A snapshot's velocities need only be finite
 * (a step may reach beyond). */
#define TB_MAX_SPEED_INT 1000000
#define TB_MAX_SPEED ((float)TB_MAX_SPEED_INT)
#define TB_MAX_ANGULAR_SPEED_INT 1000000
#define TB_MAX_ANGULAR_SPEED ((float)TB_MAX_ANGULAR_SPEED_INT)
/* Largest |component| of the world's gravity (m/s², tb_world_create, tb_world_set_gravity) and
 * largest body damping (1/s, tb_body_set_damping; restore checks both): 3e38 m/s² or 1/s were
 * taken and made every PGS, TGS, XPBD, penalty or Kamino step fail (g·h or c·h overflowed). */
#define TB_MAX_GRAVITY_INT 1000000
#define TB_MAX_GRAVITY ((float)TB_MAX_GRAVITY_INT)
#define TB_MAX_DAMPING_INT 1000000
#define TB_MAX_DAMPING ((float)TB_MAX_DAMPING_INT)

typedef int32_t tb_world_id; /* >= 0: registry slot and generation packed, so a destroyed world's id stays invalid */
typedef int32_t tb_body_id;  /* >= 0; static "no body" in contacts is -1 */
typedef int32_t tb_shape_id; /* >= 0 */

/* Memory: one allocator hook for every allocation Tribo makes. */
typedef void* (*tb_alloc_fn)(size_t size, void* user);
typedef void (*tb_free_fn)(void* ptr, size_t size, void* user);
TB_API void tb_set_allocator(tb_alloc_fn alloc_fn, tb_free_fn free_fn, void* user);
TB_API int64_t tb_live_bytes(void); /* bytes currently allocated by Tribo */

/* Default world: the `physx-tgs` preset. */
TB_API tb_world_def tb_default_world_def(void);
/* Sets every axis of def->solver and def->collision to the preset's choice (other fields kept). */
TB_API tb_status tb_preset_apply(tb_preset preset, tb_world_def* def);
TB_API void tb_default_world_def_into(tb_world_def* out);
TB_API int32_t tb_world_def_size(void); /* sizeof(tb_world_def), for bindings */ /* same, for callers that cannot return structs */
/* Returns a world id >= 0, or -tb_status. Error text via tb_last_error(). */
TB_API tb_world_id tb_world_create(const tb_world_def* def);
TB_API tb_status tb_world_destroy(tb_world_id world);
/* Message of the last failed call on this world (or of tb_world_create when world < 0). */
TB_API const char* tb_last_error(tb_world_id world);
TB_API tb_status tb_world_set_gravity(tb_world_id world, const float gravity[3]);
TB_API tb_status tb_world_set_solver(tb_world_id world, const tb_solver_params* params);
TB_API tb_status tb_world_set_collision(tb_world_id world, const tb_collision_params* params);
/* Applies a preset to the world's solver and collision axes (between steps). */
TB_API tb_status tb_world_set_preset(tb_world_id world, tb_preset preset);
/* The world's current definition (capacities as created; solver and collision as set). */
TB_API tb_status tb_world_get_def(tb_world_id world, tb_world_def* out);
TB_API tb_status tb_world_set_timestep(tb_world_id world, float timestep);
/* Reserve room in the contact store / the broad-phase pair arrays (never shrink); between steps.
 * Optional: collide() grows both as needed; reserving ahead avoids the growth in a step. The world
 * keeps its pairs, contacts and readback: nothing but the room changes. */
TB_API tb_status tb_world_set_contact_capacity(tb_world_id world, int32_t capacity);
TB_API tb_status tb_world_set_pair_capacity(tb_world_id world, int32_t capacity);

/* ---- Snapshots: the whole state of a world as bytes (src/api/snapshot.c) ----
 * Everything the next step reads: definition, bodies and shapes (every stored array, with id
 * generations and free lists; hull geometry as built, meshes and heightfields rebuilt from their
 * vertices, indices and heights), capacities, broad-phase order, candidate pairs and manifolds,
 * contact store, matching frames, pair lists, the PhysX friction-anchor cache, the MuJoCo and Kamino
 * warm starts, sensors and event state. Stepping a restored world gives bitwise the results of the world that was saved, in any
 * build and thread count. Layout: a 32-byte header (magic "TRIBOSNP", version, header size,
 * payload size, layout hash of the build's storage, FNV-1a checksum of the payload), then the
 * payload. */
#define TB_SNAPSHOT_VERSION 6 /* 2: the MuJoCo and Kamino warm starts; 3: islands and sleep; 4: the id salt;
                                * 5: contact chains that ended before a step's last round; 6: matching
                                * frames with their points in record order */
#define TB_SNAPSHOT_HEADER_SIZE 32
/* Why a snapshot is refused (tb_snapshot_check). */
#define TB_SNAPSHOT_ERRORS(X)                                                                      \
  X(TB_SNAPSHOT_OK, "ok")                                                                          \
  X(TB_SNAPSHOT_TRUNCATED, "truncated")       /* shorter than its header says */                   \
  X(TB_SNAPSHOT_BAD_MAGIC, "bad-magic")       /* not a Tribo snapshot */                           \
  X(TB_SNAPSHOT_BAD_VERSION, "bad-version")   /* another snapshot format version */                \
  X(TB_SNAPSHOT_FOREIGN, "foreign")           /* written by a build with another storage layout */ \
  X(TB_SNAPSHOT_BAD_CHECKSUM, "bad-checksum") /* payload changed after it was written */           \
  X(TB_SNAPSHOT_CORRUPT, "corrupt")           /* checksum right, content inconsistent or a value  \
                                               * that creation refuses (a NaN, a size <= 0,        \
                                               * a pair naming a removed shape) */                 \
  X(TB_SNAPSHOT_TRAILING, "trailing-bytes")   /* longer than its header says */
typedef enum tb_snapshot_error { TB_SNAPSHOT_ERRORS(TB_ENUM_CONSTANT) TB_SNAPSHOT_ERROR_COUNT } tb_snapshot_error;
/* Writes the snapshot into bytes (capacity bytes; NULL = only measure) and returns its size in
 * bytes, or -tb_status (TB_ERR_CAPACITY when capacity is too small: nothing written). */
TB_API int32_t tb_world_snapshot(tb_world_id world, void* bytes, int32_t capacity);
/* The header and checksum check alone: TB_SNAPSHOT_OK or the reason. Restore checks the payload
 * further (TB_SNAPSHOT_CORRUPT): its links and counts, and every live body, shape and joint
 * value as creating and setting it would check it, the message naming the slot and the value. */
TB_API int32_t tb_snapshot_check(const void* bytes, int32_t size);
/* Replaces the whole state of `world` by the snapshot's (its thread count is kept). On any error
 * (TB_ERR_INVALID_ARGUMENT naming the tb_snapshot_error, TB_ERR_OUT_OF_MEMORY) the world is
 * unchanged; tb_snapshot_last_error() gives the reason. */
TB_API tb_status tb_world_restore(tb_world_id world, const void* bytes, int32_t size);
/* A new world with the snapshot's state; thread_count <= 0 keeps the saved one. */
TB_API tb_world_id tb_world_create_from_snapshot(const void* bytes, int32_t size, int32_t thread_count);
/* tb_snapshot_error of the last failed restore / create_from_snapshot (any world). */
TB_API int32_t tb_snapshot_last_error(void);

/* Bodies. position = body origin in world (m); rotation = unit quaternion (x, y, z, w). */
TB_API tb_body_id tb_body_create(tb_world_id world, tb_body_type type, const float position[3],
                                 const float rotation[4]);
TB_API tb_status tb_body_destroy(tb_world_id world, tb_body_id body);
/* Takes back the creation of `body` with the shapes created on it since, when it is the last body
 * created and no body, shape or sensor was created elsewhere or removed, no joint was created and
 * no collide() ran since (the rollback of a composite creation, such as the JS addBody whose third
 * shape is rejected): slots and generations return, so the ids handed out afterwards equal those of a
 * world that never saw the creation. Otherwise TB_ERR_INVALID_STATE and nothing changes. */
TB_API tb_status tb_body_discard(tb_world_id world, tb_body_id body);
TB_API tb_status tb_body_set_pose(tb_world_id world, tb_body_id body, const float position[3],
                                  const float rotation[4]);
/* Linear velocity of the centre of mass (m/s) and angular velocity (rad/s), world frame. */
TB_API tb_status tb_body_set_velocity(tb_world_id world, tb_body_id body, const float linear[3],
                                      const float angular[3]);
/* out[0..6] = position, rotation; out[7..9] = linear velocity; out[10..12] = angular velocity. */
TB_API tb_status tb_body_get_state(tb_world_id world, tb_body_id body, float out[13]);
TB_API tb_status tb_body_set_damping(tb_world_id world, tb_body_id body, float linear_per_s,
                                     float angular_per_s);
/* Overrides the mass properties computed from shape densities: mass (kg), centre of mass in the
 * body frame (m), principal inertia about the centre of mass in the body axes (kg·m²). */
TB_API tb_status tb_body_set_mass(tb_world_id world, tb_body_id body, float mass,
                                  const float center[3], const float inertia[3]);
/* out[0] = mass (kg), out[1..3] = centre (body frame, m), out[4..12] = inertia about the centre
 * in body axes (kg·m², row-major 3x3). */
TB_API tb_status tb_body_get_mass(tb_world_id world, tb_body_id body, float out[13]);

/* PhysX per-body solver settings (used by the physx-pgs / physx-tgs solvers).
 * Max contact impulse (N·s per step, > 0; INFINITY = no cap, the default): caps the normal impulse
 * of each contact point of this body; a pair of two non-static bodies uses the smaller cap, a pair
 * with a static body the dynamic side's. Solver iterations (PhysX setSolverIterationCounts):
 * position in [1, 255], velocity in [0, 255]; -1 = the world's solver.position_iterations /
 * velocity_iterations (the default). Each island (dynamic bodies linked by contacts; static bodies
 * do not link) uses the maximum over its bodies; tb_world_solver_status reports the largest. */
TB_API tb_status tb_body_set_max_contact_impulse(tb_world_id world, tb_body_id body, float max_impulse);
TB_API tb_status tb_body_set_solver_iterations(tb_world_id world, tb_body_id body, int32_t position_iterations,
                                               int32_t velocity_iterations);

/* Shapes. params as listed at tb_shape_type; local pose relative to the body origin;
 * friction >= 0 (Coulomb μ), restitution in [0, 1], density > 0 (kg/m³). */
TB_API tb_shape_id tb_shape_create(tb_world_id world, tb_body_id body, tb_shape_type type,
                                   const float params[4], const float local_position[3],
                                   const float local_rotation[4], float friction,
                                   float restitution, float density);
TB_API tb_status tb_shape_destroy(tb_world_id world, tb_shape_id shape);

/* Per-shape distances (m), used by the world's collision.distance_rule; all default to 0, which
 * keeps contacts as without them (PhysX: up to the speculative distance):
 *   margin         Newton / MuJoCo: surface offset, summed over the two shapes; Newton's
 *                  d = separation - (m0 + m1) and MuJoCo's force threshold dist < m1 + m2.
 *   gap            Newton: a candidate is kept when d <= gap0 + gap1; MuJoCo: detected when
 *                  dist < m + g1 + g2 (gap-only contacts are flagged excluded).
 *   contact_offset PhysX: contacts are generated when the separation <= co0 + co1 + the
 *                  speculative distance (+ relative motion of one step).
 *   rest_offset    PhysX: the solver drives separation - (r0 + r1) to >= 0.
 * margin, gap, contact_offset must be finite and >= 0; rest_offset finite and <= contact_offset. */
TB_API tb_status tb_shape_set_distances(tb_world_id world, tb_shape_id shape, float margin, float gap,
                                        float contact_offset, float rest_offset);
/* out[0..3] = margin, gap, contact_offset, rest_offset (m). */
TB_API tb_status tb_shape_get_distances(tb_world_id world, tb_shape_id shape, float out[4]);
/* ---- Materials (per shape) ----
 * A shape's contact material. tb_shape_create's friction sets static = dynamic friction and its
 * restitution sets restitution; the rest starts at the defaults listed here. Which fields a
 * contact uses depends on the world's solver.combine_rule (see tb_combine_rule and the contact
 * fields static_friction ... material_flags, which report the combined values per contact). */
enum {
  TB_MATERIAL_DISABLE_FRICTION = 1,        /* PhysX: the pair gets no friction (μs = μd = 0) and no strong friction */
  TB_MATERIAL_DISABLE_STRONG_FRICTION = 2, /* PhysX: no friction anchor memory across frames */
  TB_MATERIAL_COMPLIANT_ACCELERATION_SPRING = 4, /* PhysX: compliant_stiffness / damping are accelerations
                                                    (1/s², 1/s), independent of the effective mass */
  TB_MATERIAL_FLAGS_ALL = 7
};
typedef struct tb_material {
  float static_friction;      /* 1, >= 0: Coulomb μ for sticking (PhysX rule) */
  float dynamic_friction;     /* 1, >= 0: Coulomb μ while sliding; the μ of every other rule */
  float restitution;          /* 1, in [0, 1]: rigid bounce coefficient (default 0) */
  int32_t friction_combine;   /* tb_combine_mode of static and dynamic friction (PhysX rule); default AVERAGE */
  int32_t restitution_combine;/* tb_combine_mode of restitution / compliant stiffness (PhysX rule); default AVERAGE */
  int32_t damping_combine;    /* tb_combine_mode of compliant_damping (PhysX rule); default AVERAGE */
  int32_t flags;              /* TB_MATERIAL_* bits; default 0 */
  float compliant_stiffness;  /* PhysX compliant contact: > 0 makes the shape compliant (PhysX stores it as
                                 restitution = -stiffness); N/m, or 1/s² with the acceleration-spring flag;
                                 0 = rigid (default) */
  float compliant_damping;    /* >= 0: damping of a compliant contact, N·s/m (or 1/s with the
                                 acceleration-spring flag); default 0 */
  float torsional_friction;   /* m, >= 0: Newton μ_torsional (normal force -> torque limit); default 0.005 */
  float rolling_friction;     /* m, >= 0: Newton μ_rolling; default 0.0001 */
  float ke;                   /* N/m, >= 0: Newton penalty normal stiffness; default 0 = unset: when the
                                 combined ke is 0 the world's solver.newton ke, kd, kf, ka apply */
  float kd;                   /* N·s/m, >= 0: Newton penalty normal damping; default 0 (unset) */
  float kf;                   /* N·s/m, >= 0: Newton penalty friction gain; default 0 (unset) */
  float ka;                   /* m, >= 0: Newton adhesion distance; default 0 (unset) */
  /* MuJoCo rule (geom parameters; friction = dynamic_friction, torsional_friction, rolling_friction) */
  int32_t priority;           /* higher priority side's parameters win; default 0 */
  int32_t condim;             /* 1, 3, 4 or 6: contact dimensionality; default 3 */
  float solmix;               /* >= 0: weight of this side's solref/solimp at equal priority; default 1 */
  float solref[2];            /* finite: (timeconst s, dampratio 1) when solref[0] > 0, else direct
                                 (-stiffness 1/s², -damping 1/s); default (0.02, 1) */
  float solimp[5];            /* dmin, dmax in (0, 1), width m >= 0, midpoint in [0, 1], power >= 1;
                                 default (0.9, 0.95, 0.001, 0.5, 2) */
  float adhesion;             /* N, >= 0: MuJoCo geom adhesion (net force fn - adhesion); default 0 */
} tb_material;
/* The default material with static = dynamic friction = `friction` and the given restitution. */
TB_API void tb_material_default_into(float friction, float restitution, tb_material* out);
/* Replaces a shape's material (between steps). Every field is validated; an error names the field
 * and value and leaves the shape unchanged. */
TB_API tb_status tb_shape_set_material(tb_world_id world, tb_shape_id shape, const tb_material* material);
TB_API tb_status tb_shape_get_material(tb_world_id world, tb_shape_id shape, tb_material* out);
/* Shape ids of a body in creation order. Returns the count (>= 0) or -tb_status. With out = NULL
 * and capacity 0 it only counts; a count above `capacity` otherwise fails with TB_ERR_CAPACITY. */
TB_API int32_t tb_body_get_shapes(tb_world_id world, tb_body_id body, tb_shape_id* out, int32_t capacity);
/* Heightfield (static bodies only): rows x cols heights (m, along the shape's local +y), row-major
 * heights[r * cols + c]. Sample (r, c) sits at local x = (c - (cols - 1) / 2) * cell_x,
 * z = (r - (rows - 1) / 2) * cell_z (the grid is centred on the shape origin); cell_x, cell_z > 0
 * (m). Each cell is two triangles split along the diagonal from sample (r, c) to (r + 1, c + 1).
 * The terrain is solid below the surface (front side = local +y); several contacts per cell.
 * rows, cols in [2, TB_HEIGHTFIELD_MAX_SAMPLES]. Errors: non-static body, NaN/Inf height (names
 * the index), sizes out of range. */
#define TB_HEIGHTFIELD_MAX_SAMPLES 4096
TB_API tb_shape_id tb_shape_create_heightfield(tb_world_id world, tb_body_id body, int32_t rows, int32_t cols,
                                               const float* heights, float cell_x, float cell_z,
                                               const float local_position[3], const float local_rotation[4],
                                               float friction, float restitution);
/* Triangle mesh with a BVH (static bodies only): vertex_count vertices (x, y, z in m, shape frame)
 * and triangle_count triangles of 3 vertex indices each. A triangle's front side is the side of
 * (v1 - v0) x (v2 - v0) (counter-clockwise seen from the front); contacts push convex shapes to
 * the front. Copied; counts in [3 | 1, TB_MESH_MAX_ELEMENTS]. Errors: non-static body, NaN/Inf
 * vertex, index out of range, degenerate (zero-area) triangle, each naming the element. */
/* Contacts with heightfields and meshes: one normal per shape pair, the deepest candidate's; the
 * other points' separations are measured along it; at most max_points_per_pair points are kept
 * (deepest first, then the largest area). Contacts on flat or concave internal edges and vertices
 * take the triangle's face normal (no ghost contacts when sliding or rolling across triangles).
 * Triangles are one-sided: a mesh detects penetration up to the convex shape's size behind a
 * face, a heightfield at any depth below its surface. */
#define TB_MESH_MAX_ELEMENTS (1 << 24)
TB_API tb_shape_id tb_shape_create_mesh(tb_world_id world, tb_body_id body, const float* vertices,
                                        int32_t vertex_count, const int32_t* indices, int32_t triangle_count,
                                        const float local_position[3], const float local_rotation[4],
                                        float friction, float restitution);
/* Convex hull shape of a point cloud: points = point_count (x, y, z) triples in the shape frame
 * (m); 4 <= point_count <= 100000. Quickhull with a relative tolerance (about 1e-6 of the largest
 * coordinate); points within it of the hull count as on it; coplanar faces are merged. Fails
 * with TB_ERR_INVALID_ARGUMENT for NaN/Inf, fewer than 4 non-degenerate points, collinear or
 * coplanar input; TB_ERR_CAPACITY over 100000 points. Mass: exact polyhedral integration. The
 * vertices stay in the shape frame (not re-centred). Support queries use a support field when
 * the hull has >= 64 vertices (resolution 180), else the exact vertex scan. */
TB_API tb_shape_id tb_shape_create_hull(tb_world_id world, tb_body_id body, const float* points,
                                        int32_t point_count, const float local_position[3],
                                        const float local_rotation[4], float friction,
                                        float restitution, float density);
/* Same with the support field resolution: -1 = default (as above), 0 = exact scan always,
 * 8..1024 = a field of res × res directions always. */
TB_API tb_shape_id tb_shape_create_hull_ex(tb_world_id world, tb_body_id body, const float* points,
                                           int32_t point_count, int32_t support_field_resolution,
                                           const float local_position[3], const float local_rotation[4],
                                           float friction, float restitution, float density);
typedef struct tb_hull_info {
  int32_t vertex_count;             /* hull vertices (input points inside or on a face dropped) */
  int32_t face_count;               /* polygonal faces after merging coplanar triangles */
  int32_t edge_count;               /* V − E + F = 2 */
  int32_t support_field_resolution; /* 0 = no support field (exact scan) */
  int64_t support_field_bytes;      /* memory of the support field */
  int64_t total_bytes;              /* memory of the hull incl. the field */
  float radius;                     /* m: largest vertex distance from the vertex centroid */
} tb_hull_info;
TB_API tb_status tb_shape_get_hull(tb_world_id world, tb_shape_id shape, tb_hull_info* out);

/* Pipeline. collide(): AABBs, broad and narrow phase, contact store, from the current state.
 * solve(): rows, iterations, integration over one timestep, then the readback that fills the
 * impulses and forces of the contact store. step() = collide() + solve(). A collide() that fails
 * (out of memory, a capacity limit) leaves the bodies as they were and no pairs and no contact
 * records (count 0) until the next collide(). The records' values (and, after a PhysX solve(),
 * their impulses and forces) are written into the store when something first reads it: any call
 * on the world except the pipeline calls, tb_world_destroy and the calls that neither read the
 * contacts nor change anything (body state and mass, the world's settings, step statistics,
 * solver status, tb_world_contact_status, the thread mode, id checks, tb_world_field of a
 * non-contact set, ray, overlap and shape queries); an observer (sensor, events) or an island
 * falling asleep reads them within the step. Read or not, the values are the same bits: a step
 * whose contacts no one reads does not pay for writing them. */
TB_API tb_status tb_world_collide(tb_world_id world);
TB_API tb_status tb_world_solve(tb_world_id world);
TB_API tb_status tb_world_step(tb_world_id world);
/* Adaptive threads (default 1, with a thread count above 1): step() times itself and, every 8
 * to 64 steps (up to 1 024 while a probe costs more than 2 % of the steps between probes), probes
 * the other mode (the caller alone, or every thread while serial): a warm-up step, a timed one, a
 * step back and two timed steps after. Two probes in a row faster than the
 * mean of the steps before and after them, by 3 % (to serial) or 10 % (back to threads), switch
 * the world to that mode (src/core/jobs.h). Beside another busy process, threads that share a
 * core make a step slower than one thread; this keeps the faster. The results are the same bits
 * in either mode. 0: always the world's thread count. Not saved in snapshots; collide() and
 * solve() called on their own keep the current mode. */
TB_API tb_status tb_world_set_adaptive_threads(tb_world_id world, int32_t adaptive);
/* *adaptive: the setting above (kept by tb_world_restore); *serial: 1 while the world's mode runs
 * its steps on the caller alone although it has more threads (a probe's steps aside: stepStats'
 * threads_used says what the last step did); *switches: mode changes so far (a count). */
TB_API tb_status tb_world_thread_mode(tb_world_id world, int32_t* adaptive, int32_t* serial, double* switches);

/* Field tables: one list (src/core/fields.h) defines the body and contact SoA fields; these calls
 * expose it so that bindings build views from the same list. The other sets are the layouts of
 * the public structs below (member name, type, components, byte offset), so bindings locate
 * members by name instead of copying offsets; their units and meanings are the comments here. */
#define TB_FIELD_SETS(X)                                                                           \
  X(TB_FIELDS_BODY, "body")                       /* body SoA fields, per slot */                 \
  X(TB_FIELDS_CONTACT, "contact")                 /* contact SoA fields, per contact */           \
  X(TB_FIELDS_WORLD_DEF, "world_def")             /* tb_world_def, paths such as solver.solver */ \
  X(TB_FIELDS_MATERIAL, "material")               /* tb_material */                               \
  X(TB_FIELDS_RAY_HIT, "ray_hit")                 /* tb_ray_hit */                                \
  X(TB_FIELDS_QUERY_FILTER, "query_filter")       /* tb_query_filter */                           \
  X(TB_FIELDS_SHAPE_FILTER, "shape_filter")       /* tb_shape_filter */                           \
  X(TB_FIELDS_CONTACT_PAIR, "contact_pair")       /* tb_contact_pair_params */                    \
  X(TB_FIELDS_CONTACT_STATUS, "contact_status")   /* tb_contact_status */                         \
  X(TB_FIELDS_STEP_STATS, "step_stats")           /* tb_step_stats */                             \
  X(TB_FIELDS_READBACK_INFO, "readback_info")     /* tb_readback_info */                          \
  X(TB_FIELDS_SOLVER_STATUS, "solver_status")     /* tb_solver_status */                          \
  X(TB_FIELDS_HULL_INFO, "hull_info")             /* tb_hull_info */                              \
  X(TB_FIELDS_WRENCH, "wrench")                   /* tb_wrench */                                 \
  X(TB_FIELDS_CONTACT_EVENT, "contact_event")     /* tb_contact_event */                          \
  X(TB_FIELDS_EVENT_STATUS, "event_status")       /* tb_event_status */                           \
  X(TB_FIELDS_JOINT_DEF, "joint_def")             /* tb_joint_def */                              \
  X(TB_FIELDS_JOINT_STATE, "joint_state")         /* tb_joint_state */                            \
  X(TB_FIELDS_PAIR_DISTANCE, "pair_distance")     /* tb_pair_distance */                          \
  X(TB_FIELDS_SUPPORT_QUERY, "support_query")     /* tb_support_query */       \
  X(TB_FIELDS_SLEEP_STATE, "sleep_state")         /* tb_sleep_state */
typedef enum tb_field_set { TB_FIELD_SETS(TB_ENUM_CONSTANT) TB_FIELD_SET_COUNT } tb_field_set;
#define TB_FIELD_TYPES(X) X(TB_F32, "f32") X(TB_I32, "i32") X(TB_U32, "u32") X(TB_I64, "i64")
typedef enum tb_field_type { TB_FIELD_TYPES(TB_ENUM_CONSTANT) TB_FIELD_TYPE_COUNT } tb_field_type;
typedef struct tb_field_info {
  const char* name;       /* snake_case */
  const char* unit;       /* "m", "N·s", "1", "id", "0/1", ...; one per component group when they differ */
  const char* doc;        /* meaning with frame, sign, reference point */
  int32_t type;           /* tb_field_type */
  int32_t components;     /* values per element */
  int32_t offset;         /* byte offset in the struct; -1 for the SoA sets (body, contact) */
} tb_field_info;
TB_API int32_t tb_field_count(tb_field_set set);
TB_API const tb_field_info* tb_field_get(tb_field_set set, int32_t index);
/* sizeof the set's struct (bytes); 0 for the SoA sets and unknown sets. */
TB_API int32_t tb_field_set_size(tb_field_set set);
/* Base address of a field's array (components * capacity values); valid until the next call
 * that may grow storage (body creation, capacity change, step). For TB_FIELDS_CONTACT the last
 * step's records are written first (tb_world_collide). For reading: a write through it changes
 * the array only (a sleeping body is not woken, a static or sleeping body's bounds and collision
 * data stay); move bodies with tb_body_set_pose and tb_body_set_velocity. */
TB_API void* tb_world_field(tb_world_id world, tb_field_set set, int32_t index);

/* Bodies are stored in slots; body_slot_count() is the number of slots in use (some may be free,
 * see tb_body_slot_alive). The body field arrays are indexed by slot = id & 0xFFFFF. */
TB_API int32_t tb_world_body_slot_count(tb_world_id world);
TB_API int32_t tb_body_slot_alive(tb_world_id world, int32_t slot);
/* 1 when the id names a live body / shape of the world (slot in use and the generation
 * matching), else 0. Neither changes the world nor its last error: bindings check ids with them
 * before a call (tb_sensor_alive for sensors). */
TB_API int32_t tb_body_alive(tb_world_id world, tb_body_id body);
TB_API int32_t tb_shape_alive(tb_world_id world, tb_shape_id shape);

/* Why an id is or is not live in a world, for messages (changes nothing, like tb_body_alive).
 * Generations of a world start at its id offset (TB_ID_WORLD_BAND × its registry slot, carried by
 * snapshots) and count up modulo 2048, so an id whose generation lies ahead of its slot's current
 * one was never handed out by this world: TB_ID_FOREIGN. Two live worlds never share an id as long
 * as the slot has been reused fewer than TB_ID_WORLD_BAND (32) times in each; beyond that the
 * generations of the two worlds may meet and a foreign id can read as removed or, when both
 * generations coincide, as live. A world restored from a snapshot takes the snapshot's offset. */
#define TB_ID_KINDS(X) X(TB_ID_BODY, "body") X(TB_ID_SHAPE, "shape") X(TB_ID_JOINT, "joint") X(TB_ID_SENSOR, "sensor")
typedef enum tb_id_kind { TB_ID_KINDS(TB_ENUM_CONSTANT) TB_ID_KIND_COUNT } tb_id_kind;
#define TB_ID_STATES(X)                                                                            \
  X(TB_ID_LIVE, "live")                   /* names a live object of the world */                  \
  X(TB_ID_REMOVED, "removed")             /* handed out by this world, since removed */           \
  X(TB_ID_NEVER_CREATED, "never-created") /* negative, or a slot this world never handed out */   \
  X(TB_ID_FOREIGN, "foreign")             /* a generation this world has not reached: another world's id */
typedef enum tb_id_state { TB_ID_STATES(TB_ENUM_CONSTANT) TB_ID_STATE_COUNT } tb_id_state;
/* The id's state; TB_ID_NEVER_CREATED for a world id that does not exist or an unknown kind. */
TB_API int32_t tb_id_check(tb_world_id world, tb_id_kind kind, int32_t id);

/* Contact store status after the last collide(). The pair arrays and the contact store grow
 * between stages to hold every pair and point, so no frame is truncated: count == requested and
 * pair_count == pairs_requested; grew / pairs_grew say that this collide() enlarged them. The
 * one limit that fails a step is a non-zero max_collision_pairs (TB_ERR_CAPACITY). */
typedef struct tb_contact_status {
  int32_t count;          /* contacts stored (== requested) */
  int32_t capacity;       /* contacts the store holds now */
  int32_t requested;      /* contacts found */
  int32_t overflowed;     /* always 0: the store grows instead of dropping contacts */
  int32_t pair_count;     /* broad-phase candidate pairs stored (== pairs_requested) */
  int32_t pair_capacity;  /* pairs the pair arrays hold now */
  int32_t pairs_requested;
  int32_t pairs_overflowed; /* always 0: the pair arrays grow instead of dropping pairs */
  int32_t readback_valid; /* 1 after solve() filled impulses/forces for this contact set */
  int32_t grew;           /* 1 when this collide() grew the contact store */
  int32_t pairs_grew;     /* 1 when this collide() grew the pair arrays */
} tb_contact_status;
TB_API tb_status tb_world_contact_status(tb_world_id world, tb_contact_status* out);

/* Step statistics: threads that executed jobs in the last step, constraint colours used. */
typedef struct tb_step_stats {
  int32_t threads_used;
  int32_t color_count;
  int32_t overflow_constraints; /* manifolds solved serially outside the colours */
  int32_t manifold_count;
  int32_t substeps;
  /* islands and sleep, after the step */
  int32_t island_count;     /* islands of dynamic bodies, awake and asleep */
  int32_t sleeping_islands; /* of them asleep */
  int32_t sleeping_bodies;  /* dynamic bodies asleep: not integrated, not solved, bounds not updated */
  int32_t skipped_shapes;   /* shapes whose bounds collide() did not update (their body sleeps) */
  int32_t sleeping_pairs;   /* shape pairs of sleeping bodies kept from their last readback, not collided */
  int32_t sleeping_contacts;/* contact records kept (flagged `sleeping`), at the end of the store */
  /* persistent manifolds (collision.persistent_manifolds), the last collide() of the step */
  int32_t refreshed_pairs;  /* pairs whose previous points were refreshed (no full generation) */
  int32_t regenerated_pairs;/* pairs of the refreshed types that ran the full generation */
  /* every preset, the last collide() of the step */
  int32_t apart_pairs;      /* pairs left without a test: apart at their last one, by more than their
                               shapes have moved since (the test would have found no point) */
} tb_step_stats;
TB_API tb_status tb_world_step_stats(tb_world_id world, tb_step_stats* out);

/* What the per-contact readback of the last solve() contains (completeness flags). A field that
 * the solver does not compute is reported here as not available, never as zeros. */
typedef struct tb_readback_info {
  int32_t convention;           /* tb_readback of the solver that filled it */
  int32_t valid;                /* 1 after solve() filled this contact set; 0 after an overflow */
  int32_t per_contact_force;    /* 1 when normal_impulse / tangent_impulse / force are computed */
  int32_t includes_friction;    /* 1 when the tangent impulses are part of the readback */
  int32_t includes_restitution; /* 1 when the restitution impulse is included (XPBD: 0) */
  int32_t includes_torsional;   /* 1 when a torsional friction row is included */
  int32_t substeps;             /* impulses are sums over this many substeps of one step */
  float scale;                  /* factor already applied for contact-count weighting (1 = none) */
  /* -- readback section: more flags -- */
  int32_t per_body_force;       /* 1 when the solver keeps per-body contact totals: tb_body_contact_wrench()
                                   * without a counterpart filter works even when per_contact_force = 0 */
} tb_readback_info;
TB_API tb_status tb_world_readback_info(tb_world_id world, tb_readback_info* out);

/* tb_solver_status.converged of a solver without a convergence test (no tolerance): not defined,
 * never 0 (which would claim "ran and did not converge"). */
#define TB_CONVERGED_UNDEFINED (-1)
/* Solver status of the last solve(): iterations used and residuals where the solver defines
 * them (NaN where it does not). PGS and TGS compute their residuals when the status is first read
 * after the solve (tb_world_solver_status, a snapshot, or any call that looks the world up), from
 * the rows and velocities the solve left, which stay until the next solve: the same values as at
 * the solve's end, and a step nobody reads them after costs nothing for them. */
typedef struct tb_solver_status {
  int32_t solver;               /* tb_solver_type */
  int32_t position_iterations;  /* used (max over islands) */
  int32_t velocity_iterations;  /* used */
  int32_t converged;            /* 1 a tolerance was met, 0 it was not; TB_CONVERGED_UNDEFINED (-1) when
                                   the solver has no tolerance: PGS, TGS and XPBD run fixed iteration
                                   counts (physx-e3 §5.3, newton-e3 §4), penalty does not iterate;
                                   MuJoCo and Kamino have one */
  float residual_velocity;      /* m/s: largest normal velocity error after the last iteration, or NaN */
  float residual_penetration;   /* m: deepest penetration left after the step, or NaN */
  /* -- status section: more -- */
  /* MuJoCo solver: iterations = position_iterations; improvement = last scaled cost decrease
   * (cost / trace of the mass matrix, 1/s²); gradient = scaled norm of the cost gradient (CG, Newton;
   * NaN for PGS); converged = 1 when one of them fell below the tolerance within the iterations. NaN
   * for the other solvers. */
  float improvement;
  float gradient;
  /* Kamino PADMM (NaN for the other solvers): the residuals of the last iteration, infinity norms over
   * the world's contact rows; position_iterations = PADMM iterations used; converged = 1 when all three
   * met their tolerances (checked after the second iteration on), 0 when the budget ran out */
  float residual_primal;          /* N·s: impulse, ||x − y||∞ (solution minus its cone projection) */
  float residual_dual;            /* m/s: velocity, ||η(x − x_prev) + ρ(y − y_prev)||∞ */
  float residual_complementarity; /* J = N·s·m/s: max over contacts |λ_c · v_c| */
} tb_solver_status;
TB_API tb_status tb_world_solver_status(tb_world_id world, tb_solver_status* out);
/* Clears the solver's history across steps (Kamino: the cached contact solution of the warm start,
 * as Newton's solver reset(); MuJoCo: the last step's accelerations); the next step starts cold. A
 * step whose solve leaves a non-finite state (and is undone) clears it too. */
TB_API tb_status tb_world_solver_reset(tb_world_id world);

/* ---- Filtering, sleep, broad-phase pair lists, queries ---- */

/* Per-shape filter parameters. Every rule reads only its own fields; the others are kept.
 * Defaults (tb_default_shape_filter): world -1, collision_group 1, contype 1, conaffinity 1,
 * filter_data {1, 0, 0xFFFFFFFF, 0}, trigger 0: all shapes collide under every rule, and under the
 * PhysX rule every pair reports (word2 = 0 on both shapes gives PhysX's eCONTACT_DEFAULT: detect
 * and solve without notification). */
typedef struct tb_shape_filter {
  int32_t world;           /* Newton shape world: -1 shared with every world; two different
                              non-negative worlds never collide. >= -1 */
  int32_t collision_group; /* Newton: 0 collides with nothing; > 0 with the same positive group and
                              any negative; < 0 with everything but the same negative group */
  uint32_t contype;        /* MuJoCo / Genesis: pair compatible when (contype0 & conaffinity1) or */
  uint32_t conaffinity;    /*   (contype1 & conaffinity0) is non-zero; also the query mask target */
  uint32_t filter_data[4]; /* PhysX words: word0 = own group bits, word1 = groups it collides with
                              (a pair with both word0 and word1 non-zero on both shapes is kept
                              only when (w0a & w1b) and (w0b & w1a)); word2 = groups whose contacts
                              it reports (NOTIFY when (w2a & w0b) or (w2b & w0a)); word3 free */
  int32_t trigger;         /* PhysX trigger shape (0/1): detect and report, never a response */
} tb_shape_filter;
TB_API void tb_default_shape_filter(tb_shape_filter* out);
TB_API tb_status tb_shape_set_filter(tb_world_id world, tb_shape_id shape, const tb_shape_filter* filter);
TB_API tb_status tb_shape_get_filter(tb_world_id world, tb_shape_id shape, tb_shape_filter* out);

/* Body parent (MuJoCo parent/child and Genesis adjacency filtering): shapes of a body and of its
 * parent never collide under those rules. parent = -1 clears. A body cannot be its own parent. */
TB_API tb_status tb_body_set_parent(tb_world_id world, tb_body_id body, tb_body_id parent);
/* *parent = the parent body id, -1 none. */
TB_API tb_status tb_body_get_parent(tb_world_id world, tb_body_id body, tb_body_id* parent);

/* Sleep (dynamic and kinematic bodies): a sleeping body is not integrated, its velocities are set
 * to zero when it is put to sleep. Pairs between two sleeping bodies, or a sleeping and a
 * static/kinematic body, are skipped by the broad phase.
 * With solver.sleep.mode off, nothing wakes a body automatically (call tb_body_set_sleeping(.., 0))
 * and it acts as a static body in contacts with awake bodies. With automatic sleep on, the call
 * puts the body's whole island to sleep (or wakes it), and an island wakes by itself on a new
 * contact or a joint with an awake body (before the solve of that step), tb_body_set_pose,
 * tb_body_set_velocity, tb_body_set_mass, a shape added or removed, or a touching body removed. */
TB_API tb_status tb_body_set_sleeping(tb_world_id world, tb_body_id body, int32_t asleep);
/* 1 asleep, 0 awake, or -tb_status. */
TB_API int32_t tb_body_is_sleeping(tb_world_id world, tb_body_id body);
/* The island of a dynamic body after the last solve(): the id of the body that names it (bodies
 * with the same value are in one island), -1 for static and kinematic bodies (and a body put to
 * sleep by tb_body_set_sleeping without automatic sleep), or -tb_status. Islands persist across
 * steps: a new link merges two at once, a lost one splits its island only when that matters
 * (before it sleeps; PhysX solvers: when its bodies request different iteration counts). */
TB_API int32_t tb_body_island(tb_world_id world, tb_body_id body);
/* A dynamic body's automatic-sleep counters after the last step (docs/sleeping.md), what the
 * world's sleep rule decides on. The counters of a rule the world does not run are not computed:
 * NaN (the floats) or -1 (steps_below), never 0. */
typedef struct tb_sleep_state {
  int32_t rule;         /* tb_sleep_mode the world runs (solver.sleep.mode) */
  float wake_counter;   /* s; PhysX rule: runs down by the timestep, the body may sleep at 0; else NaN */
  float cluster_factor; /* 1; PhysX rule: c = 1 + the body's counted shape pairs and joints at the
                           last check, the factor on energy_threshold; else NaN */
  int32_t steps_below;  /* Genesis rule: consecutive steps below velocity_threshold, the body may
                           sleep at `steps`; else -1 */
} tb_sleep_state;
/* Fills *out (layout TB_FIELDS_SLEEP_STATE). TB_ERR_INVALID_ARGUMENT for a static or kinematic
 * body or a NULL out. */
TB_API tb_status tb_body_sleep_state(tb_world_id world, tb_body_id body, tb_sleep_state* out);

/* Explicit pair list of TB_BROAD_PHASE_EXPLICIT: shape_ids holds 2 * pair_count shape ids
 * (a0, b0, a1, b1, ...); order within a pair and duplicates do not matter. Replaces the previous
 * list (unchanged when an id is bad); pair_count 0 clears it. The listed pairs
 * still need overlapping AABBs and pass the filter rule. A removed shape leaves the list. */
TB_API tb_status tb_world_set_explicit_pairs(tb_world_id world, const int32_t* shape_ids, int32_t pair_count);

/* Newton shape-pair exclusion (excluded 1 adds, 0 removes): the two shapes never collide under
 * TB_FILTER_NEWTON. */
TB_API tb_status tb_world_set_shape_pair_excluded(tb_world_id world, tb_shape_id a, tb_shape_id b, int32_t excluded);
/* MuJoCo `exclude` body pair (excluded 1 adds, 0 removes): no shape of one body collides with a
 * shape of the other under TB_FILTER_MUJOCO. */
TB_API tb_status tb_world_set_body_pair_excluded(tb_world_id world, tb_body_id a, tb_body_id b, int32_t excluded);

/* MuJoCo explicit `pair`: the two shapes are a candidate under TB_FILTER_MUJOCO whatever their
 * contype/conaffinity, parent/child relation or body exclusion, and carry their own parameters,
 * which replace the per-shape ones (mujoco §5: no geom mixing): margin and gap under
 * TB_DISTANCE_MUJOCO; friction, condim, solref, solreffriction, solimp and adhesion under
 * TB_COMBINE_RULE_MUJOCO (the contact fields friction, condim, solref, solref_friction, solimp,
 * adhesion report them). The broad phase still needs overlapping AABBs (fattened by the shapes'
 * own margins and gaps and the speculative distance). */
typedef struct tb_contact_pair_params {
  float margin;      /* m: contacts act when dist < margin (replaces m0 + m1); finite */
  float gap;         /* m: >= 0; detected (no force) when margin <= dist < margin + gap */
  float friction[5]; /* >= 0, MuJoCo order: sliding along tangent0 and tangent1 (1), torsional
                        (spin, m), rolling about tangent0 and tangent1 (m) */
  int32_t condim;    /* 1, 3, 4 or 6 (MuJoCo default 3) */
  float solref[2];   /* finite: (timeconst s, dampratio 1) when solref[0] > 0, else direct
                        (-stiffness 1/s², -damping 1/s); MuJoCo default (0.02, 1) */
  float solreffriction[2]; /* finite, same formats, for the elliptic friction rows; (0, 0) = unset
                              (MuJoCo default: solref applies) */
  float solimp[5];   /* dmin, dmax in (0, 1), width m >= 0, midpoint in [0, 1], power >= 1; MuJoCo
                        default (0.9, 0.95, 0.001, 0.5, 2) */
  float adhesion;    /* N, finite and >= 0: the reported net normal force is fn − adhesion; default 0 */
} tb_contact_pair_params;
/* MuJoCo's pair defaults: margin 0, gap 0, friction (1, 1, 0.005, 0.0001, 0.0001), condim 3,
 * solref (0.02, 1), solreffriction (0, 0), solimp (0.9, 0.95, 0.001, 0.5, 2), adhesion 0. */
TB_API void tb_contact_pair_default_into(tb_contact_pair_params* out);
/* params NULL removes the pair. */
TB_API tb_status tb_world_set_contact_pair(tb_world_id world, tb_shape_id a, tb_shape_id b,
                                           const tb_contact_pair_params* params);

/* Query filter: shapes of skip_body (-1 none) are ignored, and shapes whose contype has no bit of
 * mask (mask & contype == 0) are ignored. NULL filter = every shape. */
typedef struct tb_query_filter {
  tb_body_id skip_body;
  uint32_t mask;
} tb_query_filter;

/* A ray hit. Shapes are posed from the current body poses (no collide() needed). */
typedef struct tb_ray_hit {
  tb_shape_id shape;
  tb_body_id body;     /* -1 when the shape's body is static */
  float point[3];      /* world, m: origin + distance * unit direction */
  float normal[3];     /* world unit surface normal at the hit, pointing out of the shape;
                          -direction when the ray starts inside the shape */
  float distance;      /* m along the unit ray direction from the origin; 0 when starting inside */
} tb_ray_hit;

/* Closest hit of the ray origin + t * normalize(direction), 0 <= t <= max_distance (m, > 0, may
 * be +inf). Returns 1 hit (written to *hit), 0 miss, or -tb_status. Ties go to the lower shape
 * slot. Planes, spheres, capsules, boxes, cylinders, ellipsoids and hulls (face planes) are hit
 * analytically; heightfields (cells walked along the ray) and meshes (BVH) by their triangles'
 * front sides, as their contacts see them (a ray from below a terrain passes through). */
TB_API int32_t tb_world_ray_cast(tb_world_id world, const float origin[3], const float direction[3],
                                 float max_distance, const tb_query_filter* filter, tb_ray_hit* hit);
/* Every hit, nearest first (ties by shape slot). Writes min(count, capacity) hits; *requested =
 * hits found (overflow when > capacity: the nearest `capacity` are kept). Returns the number
 * written or -tb_status. */
TB_API int32_t tb_world_ray_cast_all(tb_world_id world, const float origin[3], const float direction[3],
                                     float max_distance, const tb_query_filter* filter, tb_ray_hit* hits,
                                     int32_t capacity, int32_t* requested);
/* Shapes overlapping (penetrating or touching, separation <= 0) a query shape of `type` with
 * params (as at tb_shape_type; plane, sphere, capsule, box, cylinder, ellipsoid — hulls, meshes
 * and heightfields need geometry a descriptor does not carry) at a world pose, through the
 * narrow phase (shape types without a routine for the pair are not reported). Writes up to capacity
 * shape ids in ascending slot order; *requested = overlapping shapes found. Returns the number
 * written or -tb_status. */
TB_API int32_t tb_world_overlap(tb_world_id world, tb_shape_type type, const float params[4],
                                const float position[3], const float rotation[4],
                                const tb_query_filter* filter, tb_shape_id* shape_ids, int32_t capacity,
                                int32_t* requested);

/* The routine that answered a pair query (tb_world_shape_distance): the exact routine of a
 * sphere/capsule/box pair, GJK (apart), MPR (overlapping, the portal converged and was minimal)
 * or EPA (overlapping otherwise: MPR did not converge, was not minimal, or the overlap is shallow). */
#define TB_PAIR_METHODS(X) X(TB_PAIR_ANALYTIC, "analytic") X(TB_PAIR_GJK, "gjk") X(TB_PAIR_MPR, "mpr") X(TB_PAIR_EPA, "epa")
typedef enum tb_pair_method { TB_PAIR_METHODS(TB_ENUM_CONSTANT) TB_PAIR_METHOD_COUNT } tb_pair_method;

/* Distance of two convex shapes, as the narrow phase finds a pair's first (deepest) point. */
typedef struct tb_pair_distance {
  float distance;   /* m, signed: dot(point_b − point_a, normal); > 0 the gap between the surfaces
                       (closest points), < 0 minus the penetration depth. Margins and offsets are
                       not applied. */
  float normal[3];  /* world unit vector from shape a towards shape b */
  float point_a[3]; /* world (m): on a's surface */
  float point_b[3]; /* world (m): on b's surface */
  int32_t method;   /* tb_pair_method that answered */
  int32_t refined;  /* 1: shallow or touching, so the normal or points were re-found by GJK with b
                       moved out along the normal (the narrow phase does the same) */
} tb_pair_distance;
/* Signed distance of convex shapes a and b (sphere, capsule, box, cylinder, ellipsoid, hull) at
 * the current body poses, up to max_distance (m, >= 0) apart. Returns 1 (written to *out), 0 when
 * farther apart than max_distance, or -tb_status (planes, meshes and heightfields: invalid
 * argument; a == b: invalid argument). */
TB_API int32_t tb_world_shape_distance(tb_world_id world, tb_shape_id a, tb_shape_id b, float max_distance,
                                       tb_pair_distance* out);

/* A hull's support vertex along one direction, by its support field and by the exact scan. */
typedef struct tb_support_query {
  int32_t field_vertex;   /* vertex of the 4-cell field lookup; -1 when the hull has no field */
  int32_t scan_vertex;    /* vertex of the exact scan (the first on ties) */
  int32_t ties;           /* distinct vertices of the 4 cells tied at the maximum (> 1: the engine
                             uses the scan there); 0 without a field */
  int32_t used_vertex;    /* the vertex the narrow phase uses (field unless tied, else scan) */
  float field_point[3];   /* world (m): the lookup's vertex (the scan's without a field) */
  float scan_point[3];    /* world (m): the scan's vertex */
  float error;            /* m, >= 0: dot(scan_point − field_point, unit direction), how much less
                             far the lookup's vertex reaches along the direction */
} tb_support_query;
/* Support of hull shape `shape` along world direction (any length > 0) at its current pose. */
TB_API tb_status tb_shape_support(tb_world_id world, tb_shape_id shape, const float direction[3],
                                  tb_support_query* out);

/* ---- Newton penalty: per-contact overrides (the Newton parameters are solver.newton, set with
 * tb_world_set_solver) ---- */
/* Per-contact overrides for the penalty solver, 0 = unset (Newton's sentinel): stiffness > 0
 * (N/m) replaces ke, damping > 0 (N·s/m) replaces kd, friction_scale > 0 multiplies μ. Call
 * between collide() and solve() with a contact index of that collide() (0 <= index < count); the
 * values hold for that solve() only and are visible in the contact fields stiffness, damping,
 * friction_scale until the next collide(). Each value must be finite and >= 0. */
TB_API tb_status tb_contact_set_override(tb_world_id world, int32_t contact, float stiffness, float damping,
                                        float friction_scale);

/* Threads: size of the fixed pool (callers included). The threaded build supports > 1. */
TB_API int32_t tb_max_threads(void);

/* ---- Observation (src/observe): wrenches, per-body contact totals, sensors, events ----
 *
 * Every quantity below is built from the contact store (tb_contact_fields) and so works for every
 * solver. Contact store convention: `force` (N) is the average over the last step of the force on
 * body1 by body0 applied at `point` (world); body0 receives the opposite. Getters that read forces
 * fail with TB_ERR_INVALID_STATE (message says why) when the readback is not available:
 * tb_readback_info.per_contact_force == 0 (the solver computes no per-contact force) or
 * valid == 0 (no solve() on this contact set, or the contact store overflowed). They never
 * report zeros in place of a missing measurement. Where a getter takes a tb_readback_info* it
 * copies the flags of the readback it used (NULL allowed). */

/* A wrench: force (N, world axes) and torque (N·m, world axes) about `point` (m, world). */
typedef struct tb_wrench {
  float force[3];
  float torque[3];
  float point[3];
} tb_wrench;

/* Moves a wrench to the reference point `to` (m, world): torque_to = torque + (point − to) × force;
 * the force is unchanged. */
TB_API tb_status tb_wrench_shift(const tb_wrench* in, const float to[3], tb_wrench* out);
/* Reaction of a pairwise action: `on0` is the wrench on body0 (usually about its centre of mass
 * C0); returns the wrench on body1 about `c1` (m, world): f1 = −f0,
 * τ_C1 = −τ_C0 − (C0 − C1) × f0 (shift to C1, then negate; never a plain sign flip). */
TB_API tb_status tb_wrench_reaction(const tb_wrench* on0, const float c1[3], tb_wrench* out);
/* Time average of `count` samples (e.g. substeps) with durations h[k] > 0 (s), about the fixed
 * point `point`: f̄ = Σ h_k f_k / T, τ̄_P = Σ h_k [τ_k + (O_k − P) × f_k] / T, T = Σ h_k, where
 * O_k = samples[k].point. Each torque is moved to P before averaging. */
TB_API tb_status tb_wrench_average(const tb_wrench* samples, const float* h, int32_t count, const float point[3],
                                   tb_wrench* out);

/* Wrench of contact `contact` (index into the contact store, < count) on side `side` (0 = on
 * body0 / shape0, 1 = on body1 / shape1), about `point` (m, world) or, when point is NULL, about
 * that side's body centre of mass at the end of the last step. Force: N, average over the step. */
TB_API tb_status tb_contact_wrench(tb_world_id world, int32_t contact, int32_t side, const float point[3],
                                   tb_wrench* out, tb_readback_info* info);

/* Conventions of other engines, converted from the contact store for contacts [first, first+count):
 *   NEWTON:  6 floats per contact: force (N) then torque (N·m) of the wrench by body1 on body0
 *            about body0's centre of mass (a static body0: its origin), world axes; under the
 *            MuJoCo readback the torque includes the contact's torsional and rolling torques τ_P:
 *            τ_C0 = τ_P + (P − C0) × f0 (newton-e3, corrected adapter torque).
 *   NEWTON_MUJOCO_ADAPTER: 6 floats per contact, only after a MuJoCo solve: what Newton's MuJoCo
 *            adapter writes into contacts.force: the contact force and torque negated (on body0,
 *            world axes) with the torque left at the contact point P (torsion and rolling only),
 *            not moved to body0's centre of mass (newton-e3 "MuJoCo adapter" torque gap).
 *   GENESIS: 6 floats per contact: force_a (N, on shape0) then force_b (N, on shape1) = −force_a,
 *            world axes, applied at `point`.
 *   PHYSX:   9 floats per contact: normal (unit, world, from shape1 towards shape0, PhysX's
 *            direction), impulse = normal_impulse · that normal (N·s on shape0 over the step), friction
 *            impulse (N·s on shape0, world, over the step) whose anchor is `point`. */
#define TB_CONTACT_CONVENTIONS(X)                                                                  \
  X(TB_CONVENTION_NEWTON, "newton") X(TB_CONVENTION_GENESIS, "genesis") X(TB_CONVENTION_PHYSX, "physx")      \
  X(TB_CONVENTION_NEWTON_MUJOCO_ADAPTER, "newton-mujoco-adapter")
typedef enum tb_contact_convention { TB_CONTACT_CONVENTIONS(TB_ENUM_CONSTANT) TB_CONVENTION_COUNT } tb_contact_convention;
/* Floats per contact written by tb_contacts_convert for a convention (0 for an unknown one). */
TB_API int32_t tb_contact_convention_stride(tb_contact_convention convention);
TB_API tb_status tb_contacts_convert(tb_world_id world, tb_contact_convention convention, int32_t first,
                                     int32_t count, float* out, tb_readback_info* info);

/* Body filter value meaning "any counterpart". A counterpart of -1 means any static body. */
#define TB_ANY_BODY (-2)
/* Observation flags. */
#define TB_OBSERVE_EXCLUDE_SELF 1 /* drop contacts between two shapes of the same body */

/* Net contact wrench on `body` (which may be static) from all its contacts of the last step.
 * When the solver has no per-contact force but keeps per-body totals (penalty: readback
 * per_body_force = 1), the totals are returned for with = TB_ANY_BODY and flags 0 (time averages
 * over the substeps, torque about the centre of mass); a counterpart filter or
 * TB_OBSERVE_EXCLUDE_SELF is then not available (TB_ERR_INVALID_STATE, naming it).
 * Otherwise, from the per-contact forces:
 * force (N, world) and torque (N·m, world) about the body's centre of mass at the end of the
 * step (out->point). A step of several collide() + solve() rounds (newton-xpbd substeps) also
 * sums the contacts that ended before its last round (not in the contact list): their force over
 * the step, applied at the point of their last record. `with`: TB_ANY_BODY, -1 (any static body) or a body id (only contacts
 * with that body; the body itself selects its self-contacts). flags: TB_OBSERVE_*. */
TB_API tb_status tb_body_contact_wrench(tb_world_id world, tb_body_id body, tb_body_id with, int32_t flags,
                                        tb_wrench* out, tb_readback_info* info);

/* Net contact wrench of every body slot at once (Genesis get_links_net_contact_force):
 * out[6 * slot + 0..2] = force (N, world), out[6 * slot + 3..5] = torque (N·m, world) about that
 * body's centre of mass at the end of the step; slots = tb_world_body_slot_count() (body id
 * & 0xFFFFF is the slot). Bodies without contacts and free slots get zeros (no contact: a measured
 * zero). The same contacts as tb_body_contact_wrench (with those that ended before the last round
 * of a step of several). flags: TB_OBSERVE_*. */
TB_API tb_status tb_world_body_contact_wrenches(tb_world_id world, int32_t flags, float* out, int32_t slots,
                                                tb_readback_info* info);

/* Contact-store indices of the contacts of `body` (same filter as above; they need no
 * readback): writes up to `max` indices into out and returns the total number (>= 0), or
 * -tb_status. A self-contact is listed once. */
TB_API int32_t tb_body_contacts(tb_world_id world, tb_body_id body, tb_body_id with, int32_t flags, int32_t* out,
                                int32_t max);

/* Contact sensors (Newton SensorContact-like): after every solve() the sensor adds the linear
 * contact force on its body (N, world, average over the step; only contacts with `with` unless
 * TB_ANY_BODY; self-contacts excluded) and pushes it into a ring buffer of `capacity` samples.
 * A step whose readback is not available stores NaN and a 0 valid flag. Returns an id >= 0 or
 * -tb_status. Sensors are created and removed between steps. */
typedef int32_t tb_sensor_id;
TB_API tb_sensor_id tb_sensor_create(tb_world_id world, tb_body_id body, tb_body_id with, int32_t capacity);
TB_API tb_status tb_sensor_destroy(tb_world_id world, tb_sensor_id sensor);
/* 1 when the id names a live sensor of the world, else 0 (changes nothing, like tb_body_alive). */
TB_API int32_t tb_sensor_alive(tb_world_id world, tb_sensor_id sensor);
/* Latest sample into force[3] (N, world). TB_ERR_INVALID_STATE when the sensor has no sample yet
 * or the latest is not available (its readback flags are copied to info either way). */
TB_API tb_status tb_sensor_read(tb_world_id world, tb_sensor_id sensor, float force[3], tb_readback_info* info);
/* History, oldest first: the newest min(max, stored) samples into forces (3 per sample, N, world), valid (1/0 per
 * sample, may be NULL) and steps (solve() counter of each sample, may be NULL). Returns the
 * number written (>= 0) or -tb_status. */
TB_API int32_t tb_sensor_history(tb_world_id world, tb_sensor_id sensor, float* forces, int32_t* valid,
                                 int32_t* steps, int32_t max);

/* Contact events, computed after every solve() when the event capacity is > 0 (default 0: off).
 * A contact is a shape pair (ids with their generations) and a feature id; the set of the last
 * solve() is compared with the set of the one before. Force-threshold events compare a pair's
 * total normal force (N, average over the step: Σ normal_impulse / timestep) with its threshold
 * (the per-pair one if set, else the world's; 0 = off) and fire on crossing it. */
#define TB_EVENT_TYPES(X)                                                                          \
  X(TB_EVENT_BEGIN, "begin")             /* contact present now, not in the previous solve() */   \
  X(TB_EVENT_PERSIST, "persist")         /* present in both */                                    \
  X(TB_EVENT_END, "end")                 /* present before, gone now (point and force: the previous ones) */ \
  X(TB_EVENT_FORCE_ABOVE, "forceAbove")  /* pair's total normal force rose to >= threshold */     \
  X(TB_EVENT_FORCE_BELOW, "forceBelow")  /* pair's total normal force fell below the threshold */ \
  X(TB_EVENT_SLEEP, "sleep")             /* body0 fell asleep with its island (shapes, body1: -1) */ \
  X(TB_EVENT_WAKE, "wake")               /* body0 woke with its island (shapes, body1: -1) */
typedef enum tb_event_type { TB_EVENT_TYPES(TB_ENUM_CONSTANT) TB_EVENT_TYPE_COUNT } tb_event_type;
typedef struct tb_contact_event {
  int32_t type;         /* tb_event_type */
  int32_t shape0, shape1; /* shape ids (with generation); the normal points from shape0 to shape1 */
  int32_t body0, body1;   /* body ids, -1 static */
  uint32_t feature_id;  /* contact events; 0 for force events */
  float normal_force;   /* N, >= 0: contact events the point's normal force, force events the pair's
                           total; NaN when the readback has no per-contact force */
  float point[3];       /* m, world: the contact point (force events: the first point of the pair) */
} tb_contact_event;
typedef struct tb_event_status {
  int32_t count;            /* events stored for the last solve() (<= capacity) */
  int32_t capacity;
  int32_t requested;        /* events produced; > capacity means overflow (the first ones are kept) */
  int32_t overflowed;
  int32_t force_available;  /* 0 when force events could not be computed (no per-contact force
                               or an invalid readback); contact events are still reported */
  int32_t step;             /* solve() counter of these events */
} tb_event_status;
/* Capacity of the event buffer (events of one solve()); 0 turns events off. Between steps. */
TB_API tb_status tb_world_set_event_capacity(tb_world_id world, int32_t capacity);
/* World threshold (N, >= 0; 0 = off) and per shape pair (order free; -1 removes the pair's own
 * threshold so the world's applies again). */
TB_API tb_status tb_world_set_force_threshold(tb_world_id world, float newtons);
TB_API tb_status tb_pair_set_force_threshold(tb_world_id world, tb_shape_id shape0, tb_shape_id shape1, float newtons);
TB_API tb_status tb_world_event_status(tb_world_id world, tb_event_status* out);
/* The events of the last solve(), `count` of them; valid until the next step or event call. */
TB_API const tb_contact_event* tb_world_events(tb_world_id world);

/* ---- Joints (src/api/joint.c; solved by every solver family, docs/joints.md) ----
 *
 * A joint ties frame1 (on body1, the child) to frame0 (on body0, the parent). A frame is a
 * position (m) and a rotation (unit quaternion x, y, z, w) in its body's frame (the body origin,
 * not the centre of mass); body0 or body1 may be -1, the world, whose frame is then in world
 * coordinates (either body may also be static). The frame's x axis is the joint axis: the hinge
 * axis of a revolute joint, the slide axis of a prismatic joint, the twist axis of a spherical
 * joint's limits. Coordinates of a joint: revolute angle θ (rad) of frame1's y axis from frame0's
 * y axis about frame0's x axis, in (−π, π]; prismatic slide s (m) of frame1's origin from
 * frame0's along frame0's x axis; distance: |p1 − p0| (m) between the two frame origins.
 *   REVOLUTE   origins coincide, x axes parallel; limit lower <= θ <= upper; motor on θ̇.
 *   PRISMATIC  frame1's origin on frame0's x axis, rotations equal; limit on s; motor on ṡ.
 *   SPHERICAL  origins coincide; limit: cone (swing of frame1's x axis from frame0's x axis <=
 *              cone_angle) and twist (lower <= twist about x <= upper).
 *   FIXED      origins coincide, rotations equal.
 *   DISTANCE   rigid at `length` when stiffness = 0 and the limit is off; with the limit on and
 *              stiffness = 0 free between lower and upper (a rope); with stiffness > 0 a spring
 *              (stiffness N/m, damping N·s/m) towards `length`, hard between lower and upper when the
 *              limit is on. */
#define TB_JOINT_TYPES(X)                                                                          \
  X(TB_JOINT_REVOLUTE, "revolute")                                                                 \
  X(TB_JOINT_PRISMATIC, "prismatic")                                                               \
  X(TB_JOINT_SPHERICAL, "spherical")                                                               \
  X(TB_JOINT_FIXED, "fixed")                                                                       \
  X(TB_JOINT_DISTANCE, "distance")
typedef enum tb_joint_type { TB_JOINT_TYPES(TB_ENUM_CONSTANT) TB_JOINT_TYPE_COUNT } tb_joint_type;
typedef int32_t tb_joint_id; /* >= 0: slot and generation packed, like body ids */
#define TB_WORLD_BODY (-1)   /* body0 / body1 of a joint anchored in the world */

typedef struct tb_joint_def {
  int32_t type;                 /* tb_joint_type */
  tb_body_id body0, body1;      /* parent, child; -1 = the world; not the same body */
  float position0[3];           /* m: frame0's origin in body0's frame (world when body0 = -1) */
  float rotation0[4];           /* unit quaternion x, y, z, w: frame0 in body0's frame */
  float position1[3];           /* m: frame1's origin in body1's frame */
  float rotation1[4];           /* unit quaternion: frame1 in body1's frame */
  int32_t collide_connected;    /* 0/1: contacts between body0 and body1 (default 0: their pairs are filtered out) */
  int32_t enable_limit;         /* 0/1 */
  float lower, upper;           /* limit: revolute θ (rad, in [−π, π]), prismatic s (m), spherical twist (rad,
                                 * in [−π, π]), distance length (m, >= 0); lower <= upper */
  float cone_angle;             /* rad, in (0, π]: spherical limit on the swing of frame1's x axis */
  int32_t enable_motor;         /* 0/1: revolute and prismatic */
  float motor_speed;            /* target θ̇ (rad/s) or ṡ (m/s) of body1 relative to body0 */
  float max_motor_force;        /* >= 0: N·m (revolute) or N (prismatic); the motor's bound */
  float length;                 /* m, finite and >= 0: distance joint rest length */
  float stiffness;              /* N/m, finite, 0 or >= 3e-39 (a finite inverse): distance joint spring;
                                 * 0 = rigid (or rope with the limit) */
  float damping;                /* N·s/m, finite and >= 0: distance joint spring damping */
  float break_force;            /* N, > 0: the joint breaks when |readback force| exceeds it; INFINITY = never */
  float break_torque;           /* N·m, > 0: the same for |readback torque| */
} tb_joint_def;

/* Defaults: revolute, world to nothing (body0 = body1 = -1: set them), identity frames, no
 * collision between the joined bodies, no limit (lower = −π, upper = π, cone π), no motor,
 * length 1, stiffness and damping 0, break force and torque INFINITY. */
TB_API void tb_joint_default_def_into(tb_joint_def* out);
/* Creates a joint between steps; returns its id >= 0 or -tb_status. Errors name the field: bodies
 * that do not exist, a body joined to itself, both bodies the world, NaN/Inf numbers, non-unit
 * rotations, lower > upper, limits out of range, negative stiffness, damping or motor force. */
TB_API tb_joint_id tb_joint_create(tb_world_id world, const tb_joint_def* def);
TB_API tb_status tb_joint_destroy(tb_world_id world, tb_joint_id joint);
/* 1 when the id names a live joint of the world, else 0 (changes nothing, like tb_body_alive). */
TB_API int32_t tb_joint_alive(tb_world_id world, tb_joint_id joint);
/* The definition the joint was created with (body ids as given). */
TB_API tb_status tb_joint_get_def(tb_world_id world, tb_joint_id joint, tb_joint_def* out);
/* Joint ids of a body (as body0 or body1), in slot order. Returns the count or -tb_status; with
 * out = NULL and capacity 0 it only counts. tb_body_destroy() removes these joints. */
TB_API int32_t tb_body_get_joints(tb_world_id world, tb_body_id body, tb_joint_id* out, int32_t capacity);
/* Every live joint id of the world in slot order; same count/capacity rules as tb_body_get_joints. */
TB_API int32_t tb_world_joints(tb_world_id world, tb_joint_id* out, int32_t capacity);
/* Removes a body like tb_body_destroy() and writes the ids of the joints removed with it
 * (up to capacity; out may be NULL). Returns the number of joints removed (>= 0) or -tb_status. */
TB_API int32_t tb_body_destroy_with_joints(tb_world_id world, tb_body_id body, tb_joint_id* out, int32_t capacity);

/* Joint state after the last solve(). The wrench is the joint reaction in the convention of the
 * world's solver (`convention`, a tb_readback):
 *   PHYSX  (PGS / TGS, PxConstraint::getForce): force (N) and torque (N·m) that the joint's
 *          constraint rows applied to body0 over the step (average), world axes, torque about
 *          wrench.point = frame0's origin at the start of the step; limit rows included, the
 *          motor row excluded (its force is motor_force).
 *   NEWTON (XPBD / penalty / Kamino, State.body_parent_f): total wrench from body0 through the
 *          joint on body1, world axes, about wrench.point = body1's centre of mass at the end of
 *          the step, motor included.
 *   MUJOCO (MuJoCo / Genesis, efc_force): force (N) and torque (N·m) on body1 of the joint's
 *          equality and limit rows (their efc_force mapped through Jᵀ) plus its distance spring's
 *          passive force, world axes, about wrench.point = body1's centre of mass at the start of
 *          the step; the motor (a velocity actuator) excluded (its force is motor_force).
 * With a world or static body on the reported side the point is that side's frame origin.
 * `valid` is 0 before the first solve() after the joint was created, and for a broken joint. */
typedef struct tb_joint_state {
  int32_t type;          /* tb_joint_type */
  int32_t convention;    /* tb_readback of the wrench */
  int32_t valid;         /* 1 when the wrench and motor_force are from the last solve() */
  int32_t broken;        /* 1 once the break force or torque was exceeded: no longer solved */
  float position;        /* revolute θ (rad), prismatic s (m), distance length (m), else 0; at the current poses */
  float speed;           /* θ̇ (rad/s), ṡ (m/s), d|p1 − p0|/dt (m/s), else 0 */
  float motor_force;     /* N·m or N, average over the step, on body1 about / along the axis */
  tb_wrench wrench;      /* the reaction, see above */
  int32_t sleeping;      /* 1: both sides rest (asleep, static or kinematic) and one sleeps: the
                            readback is the one of the step before it fell asleep, kept */
} tb_joint_state;
TB_API tb_status tb_joint_get_state(tb_world_id world, tb_joint_id joint, tb_joint_state* out);
/* The joint reaction on one side, whatever the solver's convention: side 0 = on body0, 1 = on
 * body1, about `point` (m, world) or, when NULL, that body's centre of mass at the end of the step
 * (a world or static side: its frame origin). Converted from the readback with
 * tb_wrench_shift / tb_wrench_reaction. TB_ERR_INVALID_STATE when the state is not valid. */
TB_API tb_status tb_joint_wrench(tb_world_id world, tb_joint_id joint, int32_t side, const float point[3],
                                 tb_wrench* out);

/* ---- Enum name tables: the X-lists above, for C messages and bindings ---- */
#define TB_ENUM_LISTS(X)                                                                           \
  X(TB_ENUM_BODY_TYPE, "body_type", TB_BODY_TYPES)                                                \
  X(TB_ENUM_SHAPE_TYPE, "shape_type", TB_SHAPE_TYPES)                                             \
  X(TB_ENUM_PRESET, "preset", TB_PRESETS)                                                         \
  X(TB_ENUM_SOLVER, "solver", TB_SOLVER_TYPES)                                                    \
  X(TB_ENUM_COMBINE_RULE, "combine_rule", TB_COMBINE_RULES)                                       \
  X(TB_ENUM_COMBINE_MODE, "combine_mode", TB_COMBINE_MODES)                                       \
  X(TB_ENUM_READBACK, "readback", TB_READBACKS)                                                   \
  X(TB_ENUM_BROAD_PHASE, "broad_phase", TB_BROAD_PHASE_TYPES)                                     \
  X(TB_ENUM_FILTER_RULE, "filter_rule", TB_FILTER_RULES)                                          \
  X(TB_ENUM_DISTANCE_RULE, "distance_rule", TB_DISTANCE_RULES)                                    \
  X(TB_ENUM_MATCHING, "matching", TB_MATCHINGS)                                                   \
  X(TB_ENUM_MUJOCO_CONE, "mujoco_cone", TB_MUJOCO_CONES)                                          \
  X(TB_ENUM_MUJOCO_ALGORITHM, "mujoco_algorithm", TB_MUJOCO_ALGORITHMS)                           \
  X(TB_ENUM_MUJOCO_INTEGRATOR, "mujoco_integrator", TB_MUJOCO_INTEGRATORS)                        \
  X(TB_ENUM_CONVENTION, "convention", TB_CONTACT_CONVENTIONS)                                     \
  X(TB_ENUM_EVENT_TYPE, "event_type", TB_EVENT_TYPES)                                             \
  X(TB_ENUM_JOINT_TYPE, "joint_type", TB_JOINT_TYPES)                                             \
  X(TB_ENUM_PAIR_METHOD, "pair_method", TB_PAIR_METHODS)                                          \
  X(TB_ENUM_SLEEP_MODE, "sleep_mode", TB_SLEEP_MODES)                                             \
  X(TB_ENUM_FIELD_SET, "field_set", TB_FIELD_SETS)                                                \
  X(TB_ENUM_FIELD_TYPE, "field_type", TB_FIELD_TYPES)                                             \
  X(TB_ENUM_SNAPSHOT_ERROR, "snapshot_error", TB_SNAPSHOT_ERRORS)                                   \
  X(TB_ENUM_ID_KIND, "id_kind", TB_ID_KINDS)                                                      \
  X(TB_ENUM_ID_STATE, "id_state", TB_ID_STATES)
#define TB_ENUM_LIST_CONSTANT(c, name, list) c,
typedef enum tb_enum { TB_ENUM_LISTS(TB_ENUM_LIST_CONSTANT) TB_ENUM_COUNT } tb_enum;
/* Number of enums (TB_ENUM_COUNT), the snake_case name of one, its value count and the name of
 * one of its values ("unknown" for a value out of range, NULL for an unknown enum). */
TB_API int32_t tb_enum_list_count(void);
TB_API const char* tb_enum_list_name(tb_enum e);
TB_API int32_t tb_enum_count(tb_enum e);
TB_API const char* tb_enum_name(tb_enum e, int32_t value);

/* ---- Constants of the API for bindings: X(name, value) ---- */
#define TB_ID_INDEX_BITS 20
#define TB_ID_INDEX_MASK ((1 << TB_ID_INDEX_BITS) - 1)
#define TB_ID_GEN_MASK 0x7FF  /* generation = (id >> TB_ID_INDEX_BITS) & mask */
#define TB_ID_WORLD_BAND 32   /* generations between the first ids of two world registry slots */
#define TB_CONSTANTS(X)                                                                            \
  X(id_index_mask, TB_ID_INDEX_MASK) /* body slot = id & mask (index into the body fields) */     \
  X(id_index_bits, TB_ID_INDEX_BITS) /* generation = (id >> bits) & id_generation_mask */          \
  X(id_generation_mask, TB_ID_GEN_MASK)                                                            \
  X(id_world_band, TB_ID_WORLD_BAND) /* a world's generations start at band × its registry slot */ \
  X(max_bodies, TB_MAX_BODIES)       /* largest body_capacity, most bodies / shapes per world */  \
  X(max_capacity, TB_MAX_CAPACITY)   /* largest contact / pair / event / query capacity */        \
  X(max_coordinate, TB_MAX_COORDINATE_INT) /* m: largest |body position| on each axis */          \
  X(max_speed, TB_MAX_SPEED_INT)     /* m/s: largest |linear velocity component| (setVelocity) */ \
  X(max_angular_speed, TB_MAX_ANGULAR_SPEED_INT) /* rad/s: largest |angular velocity component| */ \
  X(max_gravity, TB_MAX_GRAVITY_INT) /* m/s²: largest |gravity component| (createWorld, setGravity) */ \
  X(max_damping, TB_MAX_DAMPING_INT) /* 1/s: largest body damping (setDamping) */                \
  X(any_body, TB_ANY_BODY)                                                                         \
  X(observe_exclude_self, TB_OBSERVE_EXCLUDE_SELF)                                                 \
  X(material_disable_friction, TB_MATERIAL_DISABLE_FRICTION)                                       \
  X(material_disable_strong_friction, TB_MATERIAL_DISABLE_STRONG_FRICTION)                         \
  X(material_compliant_acceleration_spring, TB_MATERIAL_COMPLIANT_ACCELERATION_SPRING)             \
  X(max_points_per_pair, TB_MAX_POINTS_PER_PAIR)                                                   \
  X(heightfield_max_samples, TB_HEIGHTFIELD_MAX_SAMPLES)                                           \
  X(mesh_max_elements, TB_MESH_MAX_ELEMENTS)                                                      \
  X(world_body, TB_WORLD_BODY)
/* Constant `index` (< tb_constant_count()): its snake_case name (NULL out of range) and value. */
TB_API int32_t tb_constant_count(void);
TB_API const char* tb_constant_name(int32_t index);
TB_API int32_t tb_constant_value(int32_t index);

#ifdef __cplusplus
}
#endif
#endif /* TRIBO_H */
