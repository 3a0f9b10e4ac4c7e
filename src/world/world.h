/* World storage (internal). Bodies, shapes and contacts are structures of arrays indexed by
 * slot; public ids pack slot and generation. */
#ifndef TB_WORLD_H
#define TB_WORLD_H

#include "../collision/contact_match.h"
#include "../collision/narrow_phase.h"
#include "../core/alloc.h"
#include "../core/fields.h"
#include "../core/math.h"
#include "../include/tribo.h"

#define TB_ID_INDEX_BITS 20
#define TB_ID_INDEX_MASK ((1 << TB_ID_INDEX_BITS) - 1)
#define TB_ID_GEN_MASK 0x7FF
#define TB_MAX_WORLDS 64
#define TB_ERROR_LEN 256

static inline int32_t tb_make_id(int32_t slot, int32_t gen) { return (int32_t)(((gen & TB_ID_GEN_MASK) << TB_ID_INDEX_BITS) | slot); }
static inline int32_t tb_id_slot(int32_t id) { return id & TB_ID_INDEX_MASK; }
static inline int32_t tb_id_gen(int32_t id) { return (id >> TB_ID_INDEX_BITS) & TB_ID_GEN_MASK; }

typedef struct tb_bodies {
  tb_body_fields f;          /* public fields (transform, velocities, type) */
  int32_t* generation;
  float* mass;               /* kg; 0 for static/kinematic */
  float* inv_mass;           /* 1/kg */
  tb_vec3* local_center;     /* centre of mass, body frame, m */
  tb_mat3* inv_inertia_local;/* about the centre of mass, body axes, 1/(kg·m²) */
  tb_mat3* inertia_local;    /* kg·m² */
  uint8_t* mass_explicit;    /* 1 when tb_body_set_mass overrides the shape densities */
  float* linear_damping;     /* 1/s */
  float* angular_damping;    /* 1/s */
  int32_t* first_shape;      /* slot of the first shape, -1 none */
  int32_t* solver_index;     /* index into the step's solver bodies, -1 when not solved */
  /* filtering and sleep (src/collision/filter.c) */
  int32_t* parent;           /* parent body slot (MuJoCo parent/child, Genesis adjacency), -1 none */
  uint8_t* sleeping;         /* 1: not integrated, static in contacts with awake bodies */
  /* PhysX per-body solver settings (tb_body_set_max_contact_impulse / _solver_iterations) */
  float* max_contact_impulse;    /* N·s per contact point and step; INFINITY = none */
  int32_t* position_iterations;  /* requested, -1 = the world's */
  int32_t* velocity_iterations;  /* requested, -1 = the world's */
  int32_t count;             /* slots in use (highest live slot + 1) */
  int32_t capacity;
  int32_t free_head;         /* free slot list through first_shape, -1 none */
} tb_bodies;

typedef struct tb_shapes {
  int32_t* body;             /* body slot */
  int32_t* generation;
  int32_t* type;             /* tb_shape_type; -1 free slot */
  float* params;             /* 4 per shape */
  tb_transform* local;       /* pose in the body frame */
  float* friction;
  float* restitution;
  float* density;
  int32_t* next;             /* next shape of the same body, -1 end; free list when type = -1 */
  tb_vec3* aabb_lower;       /* world, m, after collide() */
  tb_vec3* aabb_upper;
  tb_transform* world_pose;  /* after collide() */
  void** data;               /* owned geometry of hull / heightfield / mesh shapes, else NULL */
  /* -- shapes section: filtering -- */
  tb_shape_filter* filter;   /* per shape: world, group, contype/conaffinity, PhysX words, trigger */
  /* -- shapes section: distances -- */
  float* margin;             /* m, >= 0: tb_shape_set_distances */
  float* gap;                /* m, >= 0 */
  float* contact_offset;     /* m, >= 0 (PhysX) */
  float* rest_offset;        /* m, <= contact_offset (PhysX) */
  /* -- shapes section: materials -- */
  tb_material* material;      /* per shape: contact material (tb_shape_set_material) */
  int32_t count, capacity, free_head;
} tb_shapes;

/* A candidate pair and its manifold. shape0 has the lower (type, slot). */
enum {
  TB_PAIR_DETECT = 1,   /* generate contacts */
  TB_PAIR_SOLVE = 2,    /* give the contacts solver rows (off for triggers) */
  TB_PAIR_NOTIFY = 4,   /* report events */
  TB_PAIR_TRIGGER = 8,  /* a trigger shape is involved: detect and report, no response */
  /* filtering: MuJoCo explicit pair, its parameters via tb_filter_contact_pair() */
  TB_PAIR_EXPLICIT = 16
};
typedef struct tb_pair {
  int32_t shape0, shape1;    /* slots */
  int32_t flags;             /* TB_PAIR_*, from the filter rule */
} tb_pair;

/* Matching data for warm starting: impulses of the last solved manifolds by pair key and feature
 * id (geometric correspondence, never array slots). */
typedef struct tb_manifold_cache {
  uint64_t* key;             /* per pair: (shape0 << 32) | shape1, ascending */
  int32_t* count;            /* per pair: points */
  uint32_t* feature;         /* per point (pair * 4 + j) */
  float* normal_impulse;     /* per point: N·s per substep (the warm-start value) */
  tb_vec3* friction_impulse; /* per point: world vector, N·s per substep */
  int32_t pair_count;
} tb_manifold_cache;

typedef struct tb_contact_store {
  tb_contact_fields f;
  int32_t count, capacity, requested, overflowed, readback_valid;
} tb_contact_store;

struct tb_solver_data; /* defined by the solver */

/* broad phase: an AABB copied in sweep order, so the sweep reads contiguous memory */
typedef struct tb_sap_entry {
  tb_vec3 lower, upper; /* world, m */
  int32_t slot, pad;
} tb_sap_entry;

/* filtering: a sorted set of unordered slot pairs, key (min << 32) | max, with optional values */
typedef struct tb_pair_keys {
  uint64_t* key;                  /* ascending */
  tb_contact_pair_params* params; /* per key, only for the MuJoCo explicit pairs; else NULL */
  int32_t count, capacity;
} tb_pair_keys;

typedef struct tb_world {
  int32_t alive;
  int32_t generation;
  tb_world_def def;
  tb_bodies bodies;
  tb_shapes shapes;

  /* broad phase */
  int32_t* sap_order;        /* shape slots sorted by AABB lower x */
  int32_t sap_count, sap_capacity;
  tb_pair* pairs;
  tb_manifold* manifolds;    /* one per pair, filled by the narrow phase */
  int32_t* manifold_contact; /* first contact-store index of each manifold, -1 when not stored */
  int32_t pair_count, pair_capacity, pairs_requested, pairs_overflowed;

  float* warm_normal;         /* per manifold point (pair * 4 + j): matched impulse, N·s per substep */
  tb_vec3* warm_friction;     /* per manifold point: matched friction impulse, world, N·s per substep */

  tb_contact_store contacts;
  tb_manifold_cache cache;    /* impulses of the last solve(), by pair key and feature id */
  int32_t collided;           /* collide() ran since the last solve() */

  struct tb_solver_data* solver;
  tb_arena arena;
  tb_step_stats stats;
  tb_readback_info readback;  /* filled by the solver with the contact readback */
  float* backup;              /* per body slot: transform, velocities before solve(), 13 floats */
  int32_t backup_capacity;
  tb_solver_status status;    /* filled by the solver */
  struct tb_contact_material* manifold_material; /* per pair: combined material (filled by collide) */
  /* -- world section: filtering -- */
  tb_pair_keys explicit_pairs;   /* shape slots: candidates of TB_BROAD_PHASE_EXPLICIT */
  tb_pair_keys shape_exclusions; /* shape slots: Newton excluded pairs */
  tb_pair_keys body_exclusions;  /* body slots: MuJoCo `exclude` */
  tb_pair_keys contact_pairs;    /* shape slots: MuJoCo explicit `pair`s with their parameters */
  tb_sap_entry* sap_entries;     /* sap_capacity entries: the AABBs in sweep order */
  /* -- world section: distances and matching -- */
  tb_match_data match;        /* contacts of the last two collide() calls, for matching */
  /* -- world section: observation -- */
  struct tb_observe* observe;  /* sensors and events (src/observe); NULL until first used */
  /* Newton XPBD / penalty (src/solver/newton_*.c) */
  struct tb_newton_data* newton;  /* solver scratch, grown at the start of solve() */
  float* body_contact_wrench;     /* per body slot, 6: average contact force (N) then torque (N·m)
                                   * about the body's centre of mass, world axes, over the last solve() */
  int32_t body_contact_capacity;  /* body slots body_contact_wrench holds */
  int32_t body_contact_valid;     /* 1 when the last solve() was a Newton solver and filled it */
  int32_t overrides_pending;      /* 1 after tb_contact_set_override() since the last solve() */
  /* Kamino PADMM (src/solver/solver_kamino.c) */
  struct tb_kamino_data* kamino;  /* solver scratch and warm-start cache, grown at the start of solve() */
  char error[TB_ERROR_LEN];
} tb_world;

tb_world* tb_world_get(tb_world_id id);
/* filtering and queries: shared id checks (fail with a message naming fn and the id) */
int32_t tb_body_slot_checked(tb_world* w, tb_body_id id, const char* fn); /* slot or -1 */
int32_t tb_shape_slot_checked(tb_world* w, tb_shape_id id, const char* fn); /* slot or -1 */
const char* tb_shape_type_name(int32_t type);
tb_status tb_world_fail(tb_world* w, tb_status status, const char* fmt, ...);

/* Pipeline stages (src/world/step.c, src/collision, src/solver). */
tb_status tb_collide_world(tb_world* w);
tb_status tb_solve_world(tb_world* w);

/* Shape geometry view for the narrow phase. */
static inline tb_shape_geom tb_shape_geom_of(const tb_shapes* s, int32_t slot) {
  tb_shape_geom g;
  g.type = s->type[slot];
  g.data = s->data[slot];
  for (int i = 0; i < 4; ++i) g.params[i] = s->params[4 * slot + i];
  return g;
}

/* Key of a shape pair for matching across frames: slots and generations, so a reused slot never
 * matches the contacts of the shape it held before. Ascending keys follow the pair order
 * (shape0 slot, then shape1 slot) of the live shapes. */
static inline uint64_t tb_pair_match_key(const tb_shapes* s, int32_t s0, int32_t s1) {
  uint64_t k0 = ((uint64_t)(uint32_t)s0 << 11) | (uint32_t)(s->generation[s0] & TB_ID_GEN_MASK);
  uint64_t k1 = ((uint64_t)(uint32_t)s1 << 11) | (uint32_t)(s->generation[s1] & TB_ID_GEN_MASK);
  return (k0 << 31) | k1;
}

static inline tb_transform tb_body_pose(const tb_bodies* b, int32_t slot) {
  const float* t = b->f.transform + 7 * slot;
  tb_transform x = {{t[0], t[1], t[2]}, {t[3], t[4], t[5], t[6]}};
  return x;
}

#endif
