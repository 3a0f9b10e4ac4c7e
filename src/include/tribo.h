/* Tribo: rigid-body contact dynamics. Public C API.
 *
 * Conventions (every quantity, every function):
 *   - SI units: m, kg, s, N, N·s, rad, rad/s. Right-handed world frame; gravity is a world vector.
 *   - Rotations are unit quaternions stored (x, y, z, w).
 *   - Objects are referred to by integer ids, never by pointers. A body or shape id packs an
 *     index (low 20 bits) and a generation (next 11 bits); a removed id is rejected afterwards.
 *   - Functions that can fail return a tb_status (or a negative tb_status in place of an id).
 *     tb_world_last_error() then holds a message naming the bad field and value. A failed call
 *     leaves the world unchanged.
 *   - Contact normal points from shape0 to shape1. Separation is signed (m, < 0 = penetration).
 *     Normal impulse >= 0 is applied to body1 along +normal and to body0 along -normal.
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

typedef enum tb_body_type { TB_BODY_STATIC = 0, TB_BODY_KINEMATIC = 1, TB_BODY_DYNAMIC = 2 } tb_body_type;

/* Shape parameters, by type (all in m, in the shape's local frame):
 *   PLANE:   params[0..2] = unit normal n, params[3] = offset d: the solid half-space
 *            n·x <= d in the shape frame. Static bodies only.
 *   SPHERE:  params[0] = radius
 *   BOX:     params[0..2] = half extents (x, y, z)
 *   CAPSULE: params[0] = radius, params[1] = half height of the segment along local y */
typedef enum tb_shape_type {
  TB_SHAPE_PLANE = 0,
  TB_SHAPE_SPHERE = 1,
  TB_SHAPE_CAPSULE = 2,
  TB_SHAPE_BOX = 3,
  TB_SHAPE_CYLINDER = 4,    /* params[0] = radius, params[1] = half height along local y */
  TB_SHAPE_ELLIPSOID = 5,   /* params[0..2] = semi-axes along local x, y, z */
  TB_SHAPE_HULL = 6,        /* convex hull of a point cloud: tb_shape_create_hull() */
  TB_SHAPE_HEIGHTFIELD = 7, /* static; tb_shape_create_heightfield() */
  TB_SHAPE_MESH = 8,        /* static triangle mesh with a BVH; tb_shape_create_mesh() */
  TB_SHAPE_TYPE_COUNT = 9
} tb_shape_type;

/* Most points a contact manifold of one shape pair keeps after reduction. */
#define TB_MAX_POINTS_PER_PAIR 4

/* ---- Presets: one choice on every axis below; each axis can then be set on its own. ---- */
typedef enum tb_preset {
  TB_PRESET_PHYSX_PGS = 0,
  TB_PRESET_PHYSX_TGS = 1,
  TB_PRESET_NEWTON_XPBD = 2,
  TB_PRESET_NEWTON_SEMI = 3,
  TB_PRESET_COUNT = 4
} tb_preset;

typedef enum tb_solver_type {
  TB_SOLVER_PGS = 0,     /* PhysX projected Gauss-Seidel: position iterations, then velocity iterations */
  TB_SOLVER_TGS = 1,     /* PhysX temporal Gauss-Seidel: internal steps h/N */
  TB_SOLVER_XPBD = 2,    /* Newton XPBD: position corrections, velocities from positions */
  TB_SOLVER_PENALTY = 3, /* Newton semi-implicit Euler with penalty contact forces */
  TB_SOLVER_TYPE_COUNT = 4
} tb_solver_type;

/* How two shapes' materials combine into a contact's parameters. */
typedef enum tb_combine_rule {
  TB_COMBINE_RULE_PHYSX = 0,  /* per-shape combine modes, the larger enum wins */
  TB_COMBINE_RULE_MEAN = 1,   /* Newton: arithmetic means */
  TB_COMBINE_RULE_VBD = 2,    /* Newton VBD: means, friction sqrt(mu0 mu1) */
  TB_COMBINE_RULE_KAMINO = 3, /* friction average, restitution min */
  TB_COMBINE_RULE_COUNT = 4
} tb_combine_rule;

/* Convention of the per-contact force readback. */
typedef enum tb_readback {
  TB_READBACK_PHYSX = 0,  /* normal impulse per point, friction impulse per anchor */
  TB_READBACK_NEWTON = 1, /* wrench by body1 on body0 at body0's centre of mass, world axes */
  TB_READBACK_COUNT = 2
} tb_readback;

typedef enum tb_broad_phase_type {
  TB_BROAD_PHASE_SAP = 0,       /* incremental sweep and prune */
  TB_BROAD_PHASE_ALL_PAIRS = 1, /* every shape against every shape */
  TB_BROAD_PHASE_EXPLICIT = 2,  /* only the pairs of the explicit pair list */
  TB_BROAD_PHASE_COUNT = 3
} tb_broad_phase_type;

typedef enum tb_filter_rule {
  TB_FILTER_NEWTON = 0,  /* shape world, collision group, same body, exclusion pairs */
  TB_FILTER_MUJOCO = 1,  /* contype/conaffinity, parent/child, exclude, explicit pairs */
  TB_FILTER_PHYSX = 2,   /* filter data, detect/solve/notify flags, triggers */
  TB_FILTER_GENESIS = 3, /* adjacency, contype/conaffinity, max candidate pairs */
  TB_FILTER_RULE_COUNT = 4
} tb_filter_rule;

typedef enum tb_distance_rule {
  TB_DISTANCE_NEWTON = 0, /* margins on both sides; kept when d <= gap0 + gap1 */
  TB_DISTANCE_MUJOCO = 1, /* detected when dist < m + g, active when dist < m */
  TB_DISTANCE_PHYSX = 2,  /* contactOffset sums generate, restOffset sums the rest distance */
  TB_DISTANCE_RULE_COUNT = 3
} tb_distance_rule;

typedef enum tb_matching { TB_MATCHING_LATEST = 0, TB_MATCHING_STICKY = 1, TB_MATCHING_COUNT = 2 } tb_matching;

/* Collision pipeline choices. */
typedef struct tb_collision_params {
  int32_t broad_phase;     /* tb_broad_phase_type */
  int32_t filter_rule;     /* tb_filter_rule */
  int32_t distance_rule;   /* tb_distance_rule */
  int32_t matching;        /* tb_matching */
  int32_t max_points_per_pair; /* contact reduction bound, 1..TB_MAX_POINTS_PER_PAIR */
  /* -- collision section: filtering -- */
  /* -- collision section: distances and matching -- */
} tb_collision_params;

/* Solver choices and parameters. */
typedef struct tb_solver_params {
  int32_t position_iterations;     /* substeps per step: internal step h/N (>= 1) */
  int32_t velocity_iterations;     /* relaxation passes per substep without bias (>= 0) */
  float bounce_threshold_velocity; /* m/s: restitution only when closing faster than this */
  float max_depenetration_velocity;/* m/s: cap on the push-out speed from penetration */
  float contact_hertz;             /* Hz: stiffness of the soft contact bias */
  float contact_damping_ratio;     /* 1: damping ratio of the soft contact bias */
  float linear_slop;               /* m: penetration allowed without push-out */
  float speculative_distance;      /* m: contacts are kept up to this separation */
  int32_t warm_starting;           /* 0/1 */
  int32_t solver;                  /* tb_solver_type */
  int32_t combine_rule;            /* tb_combine_rule */
  int32_t readback;                /* tb_readback */
  /* -- solver section: PhysX PGS / TGS -- */
  /* -- solver section: Newton XPBD / penalty -- */
  /* -- solver section: observation -- */
} tb_solver_params;

typedef struct tb_world_def {
  float gravity[3];                /* m/s² */
  float timestep;                  /* s, > 0 */
  int32_t body_capacity;           /* initial; grows between steps */
  int32_t contact_capacity;        /* contact points the store holds; overflow is reported */
  int32_t pair_capacity;           /* broad-phase candidate pairs; overflow is reported */
  int32_t thread_count;            /* worker threads incl. the caller; 1 = serial */
  tb_solver_params solver;
  tb_collision_params collision;
} tb_world_def;

typedef int32_t tb_world_id; /* >= 0 */
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
/* Grow the contact store / the broad-phase pair capacity (never shrink); between steps. After a
 * frame flagged overflowed, raise the capacity to at least the reported requested count. */
TB_API tb_status tb_world_set_contact_capacity(tb_world_id world, int32_t capacity);
TB_API tb_status tb_world_set_pair_capacity(tb_world_id world, int32_t capacity);

/* Bodies. position = body origin in world (m); rotation = unit quaternion (x, y, z, w). */
TB_API tb_body_id tb_body_create(tb_world_id world, tb_body_type type, const float position[3],
                                 const float rotation[4]);
TB_API tb_status tb_body_destroy(tb_world_id world, tb_body_id body);
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

/* Shapes. params as listed at tb_shape_type; local pose relative to the body origin;
 * friction >= 0 (Coulomb μ), restitution in [0, 1], density > 0 (kg/m³). */
TB_API tb_shape_id tb_shape_create(tb_world_id world, tb_body_id body, tb_shape_type type,
                                   const float params[4], const float local_position[3],
                                   const float local_rotation[4], float friction,
                                   float restitution, float density);
TB_API tb_status tb_shape_destroy(tb_world_id world, tb_shape_id shape);

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
 * impulses and forces of the contact store. step() = collide() + solve(). */
TB_API tb_status tb_world_collide(tb_world_id world);
TB_API tb_status tb_world_solve(tb_world_id world);
TB_API tb_status tb_world_step(tb_world_id world);

/* Field tables: one list (src/core/fields.h) defines the body and contact SoA fields; these calls
 * expose it so that bindings build views from the same list. */
typedef enum tb_field_set { TB_FIELDS_BODY = 0, TB_FIELDS_CONTACT = 1 } tb_field_set;
typedef enum tb_field_type { TB_F32 = 0, TB_I32 = 1, TB_U32 = 2 } tb_field_type;
typedef struct tb_field_info {
  const char* name;       /* snake_case */
  const char* unit;       /* "m", "N·s", "1", "id", ... */
  const char* doc;        /* frame, sign, reference point */
  int32_t type;           /* tb_field_type */
  int32_t components;     /* values per element */
} tb_field_info;
TB_API int32_t tb_field_count(tb_field_set set);
TB_API const tb_field_info* tb_field_get(tb_field_set set, int32_t index);
/* Base address of a field's array (components * capacity values); valid until the next call
 * that may grow storage (body creation, capacity change, step). */
TB_API void* tb_world_field(tb_world_id world, tb_field_set set, int32_t index);

/* Bodies are stored in slots; body_slot_count() is the number of slots in use (some may be free,
 * see tb_body_slot_alive). The body field arrays are indexed by slot = id & 0xFFFFF. */
TB_API int32_t tb_world_body_slot_count(tb_world_id world);
TB_API int32_t tb_body_slot_alive(tb_world_id world, int32_t slot);

/* Contact store status after the last collide(). requested > capacity means overflow: the store
 * holds the first `capacity` contacts in pair order and the frame is flagged invalid. */
typedef struct tb_contact_status {
  int32_t count;          /* contacts stored (<= capacity) */
  int32_t capacity;
  int32_t requested;      /* contacts found */
  int32_t overflowed;     /* 1 when requested > capacity */
  int32_t pair_count;     /* broad-phase candidate pairs stored */
  int32_t pair_capacity;
  int32_t pairs_requested;
  int32_t pairs_overflowed;
  int32_t readback_valid; /* 1 after solve() filled impulses/forces for this contact set */
} tb_contact_status;
TB_API tb_status tb_world_contact_status(tb_world_id world, tb_contact_status* out);

/* Step statistics: threads that executed jobs in the last step, constraint colours used. */
typedef struct tb_step_stats {
  int32_t threads_used;
  int32_t color_count;
  int32_t overflow_constraints; /* manifolds solved serially outside the colours */
  int32_t manifold_count;
  int32_t substeps;
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
} tb_readback_info;
TB_API tb_status tb_world_readback_info(tb_world_id world, tb_readback_info* out);

/* Solver status of the last solve(): iterations used and residuals where the solver defines
 * them (NaN where it does not). */
typedef struct tb_solver_status {
  int32_t solver;               /* tb_solver_type */
  int32_t position_iterations;  /* used (max over islands) */
  int32_t velocity_iterations;  /* used */
  int32_t converged;            /* 1 when a tolerance was met; 0 for fixed-iteration solvers */
  float residual_velocity;      /* m/s: largest normal velocity error after the last iteration, or NaN */
  float residual_penetration;   /* m: deepest penetration left after the step, or NaN */
  /* -- status section: more -- */
} tb_solver_status;
TB_API tb_status tb_world_solver_status(tb_world_id world, tb_solver_status* out);

/* Threads: size of the fixed pool (callers included). The threaded build supports > 1. */
TB_API int32_t tb_max_threads(void);

#ifdef __cplusplus
}
#endif
#endif /* TRIBO_H */
