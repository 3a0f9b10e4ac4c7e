/* World storage (internal): the types of the world, its bodies, shapes, pairs and contact store,
 * the world registry and the slot checks. Bodies, shapes and pairs are structures of arrays indexed
 * by slot, each array declared once in a field list below that drives the struct members, growth
 * and freeing; public ids pack slot and generation. Storage only: no layer's algorithm lives here. */
#ifndef TB_WORLD_H
#define TB_WORLD_H

#include <string.h>

#include "../core/alloc.h"
#include "../core/enums.h"
#include "../core/fields.h"
#include "../core/jobs.h"
#include "../core/math.h"
#include "../include/tribo.h"
#include "contact_types.h"
#include "pair_keys.h"

#define TB_MAX_WORLDS 64 /* 1 << TB_WORLD_SLOT_BITS */
/* Bytes of a world's error message with its NUL: the longest ones, the newton-semi refusals, take
 * 226 to 251 with typical numbers and up to about 310 with the widest (the friction one was cut at
 * 256); a longer message is cut and ends with "…" (tb_world_fail). */
#define TB_ERROR_LEN 1024
/* The id layout (TB_ID_INDEX_BITS, TB_ID_GEN_MASK, TB_ID_WORLD_BAND) is public: tribo.h. */
_Static_assert(TB_ID_WORLD_BAND * TB_MAX_WORLDS == TB_ID_GEN_MASK + 1, "each world slot owns a band of generations");

static inline int32_t tb_make_id(int32_t slot, int32_t gen) { return (int32_t)(((gen & TB_ID_GEN_MASK) << TB_ID_INDEX_BITS) | slot); }
static inline int32_t tb_id_slot(int32_t id) { return id & TB_ID_INDEX_MASK; }
static inline int32_t tb_id_gen(int32_t id) { return (id >> TB_ID_INDEX_BITS) & TB_ID_GEN_MASK; }

/* Ids stay int32 (bindings pass them as plain numbers and read the layout from the constant
 * table), so a slot has 2048 generations. A fresh slot starts at the world's id offset (`salt`,
 * TB_ID_WORLD_BAND × the registry slot: ids of two worlds differ) and a freed slot advances its
 * generation modulo 2048; one that has used all 2048 is retired instead and never handed out
 * again, so an id, once removed, is never valid again: a world hands out 2^31 body (shape,
 * joint, sensor) ids before TB_ERR_CAPACITY. Returns 1 when the slot goes back to its free list. */
static inline int tb_slot_release(int32_t* generation, int32_t salt) {
  int32_t next = (*generation + 1) & TB_ID_GEN_MASK;
  if (next == salt) return 0; /* retired: every generation used */
  *generation = next;
  return 1;
}

/* World ids: 64 registry slots need 6 bits, the other 25 are the generation (2^31 worlds per
 * module before a slot is retired). */
#define TB_WORLD_SLOT_BITS 6
#define TB_WORLD_GEN_MAX ((1 << (31 - TB_WORLD_SLOT_BITS)) - 1)
static inline int32_t tb_world_id_slot(int32_t id) { return id & ((1 << TB_WORLD_SLOT_BITS) - 1); }

/* X(name, type, per_slot, doc): the body arrays beside the public fields (core/fields.h). */
#define TB_BODY_ARRAYS(X)                                                                           \
  X(generation, int32_t, 1, "id generation of the slot")                                           \
  X(mass, float, 1, "kg; 0 for static/kinematic")                                                  \
  X(inv_mass, float, 1, "1/kg")                                                                    \
  X(local_center, tb_vec3, 1, "centre of mass, body frame, m")                                      \
  X(inv_inertia_local, tb_mat3, 1, "about the centre of mass, body axes, 1/(kg·m²)")                \
  X(inertia_local, tb_mat3, 1, "kg·m²")                                                            \
  X(mass_explicit, uint8_t, 1, "1 when tb_body_set_mass overrides the shape densities")             \
  X(linear_damping, float, 1, "1/s")                                                               \
  X(angular_damping, float, 1, "1/s")                                                              \
  X(first_shape, int32_t, 1, "slot of the first shape, -1 none; free list when the slot is free")  \
  X(solver_index, int32_t, 1, "index into the step's solver bodies, -1 when not solved")           \
  /* filtering and sleep (src/collision/filter.c) */                                              \
  X(parent, int32_t, 1, "parent body slot (MuJoCo parent/child, Genesis adjacency), -1 none")       \
  /* persistent islands and sleep (src/solver/island.c); an island's id is the slot of one of its \
   * bodies, and the per-island values sit at that slot */                                       \
  X(island, int32_t, 1, "island id of a dynamic body, -1 for static / kinematic / manual sleep")   \
  X(island_next, int32_t, 1, "next body slot of the same island, -1 end (the list starts at the id)") \
  X(island_size, int32_t, 1, "at an island id's slot: the island's body count")                    \
  X(island_dirty, int32_t, 1, "at an island id's slot: 1 after a link was lost (split pending)")   \
  X(sleep_steps, int32_t, 1, "Genesis: consecutive steps below the velocity threshold")           \
  X(wake_counter, float, 1, "s, PhysX: time left before the body may sleep")                       \
  X(sleep_velocity, float, 6, "PhysX: accumulated v (m/s) then body-axes ω (rad/s) of the sleep check") \
  X(counted_interactions, int32_t, 1, "PhysX: this step's shape pairs and joints of the body (cluster factor − 1)") \
  /* PhysX per-body solver settings (tb_body_set_max_contact_impulse / _solver_iterations) */      \
  X(max_contact_impulse, float, 1, "N·s per contact point and step; INFINITY = none")              \
  X(position_iterations, int32_t, 1, "requested, -1 = the world's")                                \
  X(velocity_iterations, int32_t, 1, "requested, -1 = the world's")

/* X(name, type, per_slot, doc): every shape array. */
#define TB_SHAPE_ARRAYS(X)                                                                          \
  X(body, int32_t, 1, "body slot")                                                                 \
  X(generation, int32_t, 1, "id generation of the slot")                                           \
  X(type, int32_t, 1, "tb_shape_type; -1 free slot")                                               \
  X(params, float, 4, "as documented at tb_shape_type")                                           \
  X(local, tb_transform, 1, "pose in the body frame")                                              \
  X(friction, float, 1, "1")                                                                       \
  X(restitution, float, 1, "1")                                                                    \
  X(density, float, 1, "kg/m³")                                                                    \
  X(next, int32_t, 1, "next shape of the same body, -1 end; free list when type = -1")             \
  X(aabb_lower, tb_vec3, 1, "world, m, after collide()")                                           \
  X(aabb_upper, tb_vec3, 1, "world, m, after collide()")                                           \
  X(world_pose, tb_transform, 1, "after collide()")                                                \
  X(data, void*, 1, "owned geometry of hull / heightfield / mesh shapes, else NULL")              \
  /* filtering */                                                                                  \
  X(filter, tb_shape_filter, 1, "world, group, contype/conaffinity, PhysX words, trigger")         \
  /* distances (tb_shape_set_distances), m */                                                      \
  X(margin, float, 1, "m, >= 0")                                                                   \
  X(gap, float, 1, "m, >= 0")                                                                      \
  X(contact_offset, float, 1, "m, >= 0 (PhysX)")                                                   \
  X(rest_offset, float, 1, "m, <= contact_offset (PhysX)")                                         \
  /* materials (tb_shape_set_material) */                                                          \
  X(material, tb_material, 1, "contact material")                                                 \
  X(material_key, int32_t, 1, "its material's index in the world's material memo (when on); derived")

/* X(name, type, per_slot, doc): every joint array (src/api/joint.c creates, the solvers read). */
#define TB_JOINT_ARRAYS(X)                                                                          \
  X(generation, int32_t, 1, "id generation of the slot")                                           \
  X(def, tb_joint_def, 1, "as created (body ids as given); def.type = -1 marks a free slot")       \
  X(slot0, int32_t, 1, "body0's slot, -1 the world")                                              \
  X(slot1, int32_t, 1, "body1's slot, -1 the world")                                              \
  X(next_free, int32_t, 1, "free slot list, -1 end")                                               \
  /* readback of the last solve() (src/solver/joint_*.c) */                                       \
  X(state, tb_joint_state, 1, "wrench, motor force, validity, broken flag")                        \
  X(impulse, float, 6, "solver scratch: linear (N·s) and angular (N·m·s) impulse of the step")   \
  X(kept, int32_t, 1, "scratch of solve(): 1 when the state is kept (both sides rest, one sleeps)") \
  X(kept_motor_force, float, 1, "scratch of solve(): the kept state's motor force")

#define TB_STORE_MEMBER(name, type, per_slot, doc) type* name;

typedef struct tb_bodies {
  tb_body_fields f;          /* public fields (transform, velocities, type) */
  TB_BODY_ARRAYS(TB_STORE_MEMBER)
  int32_t count;             /* slots in use (highest live slot + 1) */
  int32_t capacity;
  int32_t free_head;         /* free slot list through first_shape, -1 none */
} tb_bodies;

typedef struct tb_shapes {
  TB_SHAPE_ARRAYS(TB_STORE_MEMBER)
  int32_t count, capacity, free_head;
} tb_shapes;

typedef struct tb_joints {
  TB_JOINT_ARRAYS(TB_STORE_MEMBER)
  int32_t count, capacity, free_head; /* count: highest live slot + 1 */
  int32_t live;                       /* joints alive */
} tb_joints;

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
  /* the manifold's points and active points once collide() classified and matched them
   * (tb_pair_count_points): the serial passes over every pair read these 16 bytes instead of
   * its manifold (180 bytes) */
  int16_t points, active;
} tb_pair;

/* p's points and active points from its manifold m (the narrow stage, then the matching when it
 * replays points). */
static inline void tb_pair_count_points(tb_pair* p, const tb_manifold* m) {
  int32_t active = 0;
  for (int32_t j = 0; j < m->point_count; ++j) active += m->points[j].active != 0;
  p->points = (int16_t)m->point_count;
  p->active = (int16_t)active;
}

/* X(name, type, per_slot, doc): the arrays of the candidate pairs, one element per pair. */
#define TB_PAIR_ARRAYS(X)                                                                           \
  X(pairs, tb_pair, 1, "candidates of the broad phase, ordered by (shape0, shape1)")              \
  X(manifolds, tb_manifold, 1, "filled by the narrow phase")                                       \
  X(manifold_contact, int32_t, 1, "first contact-store index of each manifold, -1 when not stored") \
  X(manifold_material, tb_contact_material, 1, "combined material, read through tb_pair_material: filled by collide for pairs with points while the material memo is off, by its release otherwise")

/* Groups of the contact fields whose "not defined / not computed" defaults (NaN, -1, 0) the store
 * fill writes, by who else writes them: the combine rule's parameters (one group per
 * TB_CONTACT_PARAM_* bit, in bit order), each readback convention's fields, the sleeping flag. */
enum {
  TB_STORE_FRICTION, TB_STORE_RESTITUTION, TB_STORE_SPRING, TB_STORE_SPIN, TB_STORE_PENALTY, TB_STORE_MUJOCO,
  TB_STORE_PHYSX_READBACK, TB_STORE_NEWTON_READBACK, TB_STORE_MUJOCO_READBACK, TB_STORE_SLEEPING,
  TB_STORE_GROUPS
};
#define TB_STORE_ALL_GROUPS ((1u << TB_STORE_GROUPS) - 1u)

/* Work the contact store owes (tb_contact_store.owed): the fill of the last collide()'s records
 * with the sleeping pairs' kept records after them, and the last PhysX solve()'s readback. */
enum { TB_OWE_RECORDS = 1, TB_OWE_READBACK = 2 };

typedef struct tb_contact_store {
  tb_contact_fields f;
  int32_t count, capacity, requested, overflowed, readback_valid;
  int32_t grew; /* the last collide() enlarged the store to hold every point */
  /* TB_OWE_*: what the store still owes its readers. The records of a collide() and a PhysX
   * solve()'s impulses are written when something first reads the store (src/step:
   * tb_step_contacts_ready), so a step whose contacts no one reads does not write them */
  int32_t owed;
  /* per group: the records outside [dirty_begin, dirty_end) (up to the capacity) hold the group's
   * defaults, so a fill rewrites the group only inside it (a PhysX world does not rewrite the
   * MuJoCo and Newton fields of every contact each step); empty when begin >= end */
  int32_t dirty_begin[TB_STORE_GROUPS], dirty_end[TB_STORE_GROUPS];
} tb_contact_store;

struct tb_solver_data; /* defined by the solver */

/* Readback sums over the collide() + solve() rounds of one step (src/step/rounds.c). */
/* Shapes (ids) and point (m, world) of one record of a round. */
typedef struct tb_round_place {
  int32_t shape0, shape1;
  float point[3];
} tb_round_place;

/* A contact chain that ended before the last round of its step: where its last record was and its
 * force (N on shape1's body by shape0's, world): the sum of its rounds' forces over the step's
 * rounds, i.e. its impulse over the step / timestep, as a listed contact's `force`. */
typedef struct tb_round_ended {
  tb_round_place place;
  float force[3];
} tb_round_ended;

typedef struct tb_round_sums {
  float* contact[2];     /* per record of the last two rounds: normal and tangent impulses (N·s),
                          * force (N), wrench (N, N·m): TB_ROUND_CONTACT floats */
  int32_t* taken;        /* per record of the previous round: 1 once a record of this round continued it */
  int32_t contact_capacity, count[2], current;
  float* body;           /* per body slot: contact wrench sums (N, N·m), 6 floats */
  int32_t body_capacity;
  float* joint;          /* per joint slot: wrench (N, N·m) and motor force sums, rounds with a readback: 8 floats */
  int32_t joint_capacity;
  float scale;           /* the readback scale shared by every round, NaN when they differ */
  float* backup;         /* per body slot: the state at the start of the step, 13 floats */
  int32_t backup_capacity;
  tb_round_place* place[2]; /* per record of the last two rounds: its shapes and point */
  tb_round_ended* ended; /* chains of the last step that ended before its last round (the per-body
                          * totals sum them after the store's records); empty after a one-round step */
  int32_t ended_count, ended_capacity;
} tb_round_sums;
#define TB_ROUND_CONTACT 12

/* One step's constants, computed once by the pipeline (src/step/step.c) and handed to every
 * stage it runs, read-only: the stages of a round get one round's (tb_step_context_of), the
 * observers the whole step's (tb_step_context_whole: rounds 1, dt the timestep). */
typedef struct tb_step_context {
  float dt;              /* s: one collide() + solve() round: the world's timestep / rounds */
  int32_t rounds;        /* collide() + solve() rounds in one step (XPBD: solver.newton.xpbd_substeps,
                          * Newton's sim_substeps; else 1) */
  int32_t substeps;      /* the solver family's internal steps (TGS: position iterations, penalty:
                          * solver.newton.substeps, else 1) */
  float h;               /* s: dt / substeps */
  float inv_h;           /* 1/s: 1 / h */
  int32_t thread_count;  /* threads incl. the caller */
} tb_step_context;

/* broad phase: an AABB copied in sweep order, so the sweep reads contiguous memory */
typedef struct tb_sap_entry {
  tb_vec3 lower, upper; /* world, m */
  int32_t slot, pad;
} tb_sap_entry;

/* The combined material of every pair of the distinct shape materials, so a contact pair reads its
 * combination from a small table (tb_pair_material) instead of gathering two shapes' materials,
 * combining them and keeping a copy per pair (src/model/material.c); rebuilt before a collide when
 * off or its inputs changed. Off (count 0) past TB_MATERIAL_MEMO_MAX distinct materials or with
 * MuJoCo explicit pairs: then each pair with points combines its own into manifold_material. */
#define TB_MATERIAL_MEMO_MAX 16
typedef struct tb_material_memo_inputs {
  int32_t valid;               /* 0 after a release (tb_material_memo_release) */
  int32_t rule;                /* def.solver.combine_rule */
  tb_combine_params combine;   /* def.solver.combine */
  float penalty[4];            /* def.solver.newton ke, kd, kf, ka: the fallback of unset materials */
  int32_t explicit_pairs;      /* MuJoCo explicit pairs exist */
} tb_material_memo_inputs;
typedef struct tb_material_memo {
  tb_material_memo_inputs built; /* what the table was built from */
  int32_t count;                 /* distinct materials in the table; 0: off */
  tb_material* distinct;         /* TB_MATERIAL_MEMO_MAX, allocated at the first build */
  tb_contact_material* combined; /* TB_MATERIAL_MEMO_MAX², [key0 * count + key1] */
} tb_material_memo;

typedef struct tb_world {
  int32_t alive;
  int32_t generation;
  tb_world_def def;
  tb_thread_governor governor; /* adaptive thread use of tb_world_step (core/jobs.h); not saved */
  tb_bodies bodies;
  tb_shapes shapes;
  tb_joints joints;

  /* broad phase */
  int32_t* sap_order;        /* shape slots sorted by AABB lower x */
  int32_t sap_count, sap_capacity;
  int32_t sap_bands;           /* z bands of the last sweep (1: one sweep along x) */
  int32_t sap_fat_moved;       /* shapes given a new fat box by the last collide (-1: an AABB had a NaN bound) */
  int32_t sap_fat_pairs;       /* pairs of overlapping fat boxes kept after the last collide (0 when it swept the AABBs) */
  /* 1 while the shapes of static bodies hold their world poses and AABBs (nothing moves them, and
   * without velocity their bounds do not depend on the step): the AABB update skips them. 0 in a
   * new or restored world and after what changes their inputs (tb_world_static_bounds_stale). */
  int32_t static_bounds_valid;
  /* per shape slot: what the narrow stage reads of the shape (tb_shape_view), written with its
   * bounds; 64-byte aligned in shape_views_block, which holds shape_view_capacity of them */
  struct tb_shape_view* shape_views;
  void* shape_views_block;
  int32_t shape_view_capacity;
  int64_t sap_sweeps;          /* sweeps over every fat box so far (the other collides updated the fat pairs) */
  int64_t sap_fat_refused;     /* sweeps of the fat boxes given up for more pairs than a world holds (not in sap_sweeps) */
  struct tb_broad_scratch* broad_scratch; /* sort scratch and fat boxes, owned by broad_phase.c */
  TB_PAIR_ARRAYS(TB_STORE_MEMBER)
  int32_t pair_count, pair_capacity, pairs_requested, pairs_overflowed;
  int32_t pairs_grew;        /* the last broad phase enlarged the pair arrays */

  tb_contact_store contacts;
  int32_t collided;           /* collide() ran since the last solve() */
  int32_t last_stage;         /* tb_step_stage of the last stage that completed (src/step/step.h) */

  struct tb_solver_data* solver;
  tb_arena arena;
  tb_step_stats stats;
  tb_readback_info readback;  /* filled by the solver with the contact readback */
  float* backup;              /* per body slot: transform, velocities before solve(), 13 floats */
  int32_t backup_capacity;
  tb_round_sums round_sums;   /* readback sums over the rounds of one step (src/step/rounds.c) */
  tb_solver_status status;    /* filled by the solver */
  int32_t status_owed;        /* 1: status's residuals are the PGS/TGS solve's to compute from the wides it left,
                               * when first read (tb_solver_status_ready) */
  /* the least stable explicit spring of the last solve (MuJoCo, Kamino: h²·k·w + 2·h·c·w, stable
   * below 4) and its joint slot (-1 none): the solve guard names it when the step fails */
  double spring_ratio;
  int32_t spring_joint;
  /* -- world section: filtering -- */
  tb_pair_keys explicit_pairs;   /* shape slots: candidates of TB_BROAD_PHASE_EXPLICIT */
  tb_pair_keys shape_exclusions; /* shape slots: Newton excluded pairs */
  tb_pair_keys body_exclusions;  /* body slots: MuJoCo `exclude` */
  tb_pair_keys contact_pairs;    /* shape slots: MuJoCo explicit `pair`s with their parameters */
  tb_pair_keys joint_pairs;      /* body slots joined by a joint without collide_connected: filtered out */
  tb_material_memo material_memo; /* combined materials of the distinct shape materials; not saved */
  tb_sap_entry* sap_entries;     /* sap_capacity entries: the AABBs in sweep order */
  /* -- world section: distances and matching -- */
  tb_match_data match;        /* contacts of the last two collide() calls, for matching */
  /* -- world section: islands and sleep (src/solver/island.c) -- */
  uint64_t* links;             /* body slot pairs (lower slot high) linked in the last island update, sorted, unique */
  uint64_t* links_next;        /* scratch of the next update */
  int32_t link_count, link_capacity;
  uint64_t* links_sort_tmp;    /* scratch of the links' sort */
  int32_t links_sort_capacity;
  uint64_t* links_listed;      /* the last update's keys as listed, before their sort (valid when links_listed_valid) */
  int32_t links_listed_count, links_listed_capacity, links_listed_valid;
  int32_t* island_scratch;     /* per body slot: the split's stack and adjacency */
  int32_t island_scratch_capacity;
  tb_contact_store sleep_contacts; /* records of sleeping pairs as they were when their island fell
                                    * asleep, appended to the store by every collide() */
  int32_t* sleep_contact_flags;    /* per record of sleep_contacts: the pair's TB_PAIR_* flags */
  int32_t sleep_contact_flags_capacity;
  int32_t fresh_contacts;      /* store records produced by the last collide() (the rest are kept sleeping ones) */
  int32_t* sleep_log;          /* body ids that fell asleep (id) or woke (-1 - id) since the last events */
  int32_t sleep_log_count, sleep_log_capacity;
  /* -- world section: observation -- */
  struct tb_observe* observe;  /* sensors and events (src/observe); NULL until first used */
  /* Newton XPBD / penalty (src/solver/newton_*.c) */
  struct tb_newton_data* newton;  /* solver scratch, grown at the start of solve() */
  struct tb_mujoco_data* mujoco;  /* MuJoCo solver scratch and warm start (src/solver/solver_mujoco.c) */
  /* published by the Newton solvers for observe/: per-body contact totals of the last solve() */
  float* body_contact_wrench;     /* per body slot, 6: average contact force (N) then torque (N·m)
                                   * about the body's centre of mass, world axes, over the last solve() */
  int32_t* body_contact_generation; /* per body slot: generation of the body whose totals
                                     * body_contact_wrench holds */
  int32_t body_contact_capacity;  /* body slots body_contact_wrench / _generation hold */
  int32_t body_contact_valid;     /* 1 when the last solve() was a Newton solver and filled it */
  int32_t overrides_pending;      /* 1 after tb_contact_set_override() since the last solve() */
  /* Kamino PADMM (src/solver/solver_kamino.c) */
  struct tb_kamino_data* kamino;  /* solver scratch and warm-start cache, grown at the start of solve() */
  /* The last body creation, for tb_body_discard: its slot (-1: none, or something else was
   * created, removed, referenced or collided since), whether the slot was fresh (else popped from
   * the free list), and the shape slot count before it. */
  int32_t undo_body, undo_body_fresh, undo_shape_count;
  /* Generation of every fresh body, shape, joint and sensor slot (TB_ID_WORLD_BAND × the registry
   * slot at creation; a restore takes the snapshot's): ids of two worlds differ. */
  int32_t id_salt;
  char error[TB_ERROR_LEN];
} tb_world;

/* A static body moved, a shape was added or its distances set, or the solver or collision
 * settings changed (speculative distance, distance rule, constant gap): the next AABB update
 * computes the static bodies' shapes too (src/collision/shape_bounds.c). */
static inline void tb_world_static_bounds_stale(tb_world* w) { w->static_bounds_valid = 0; }

/* Something changed the slot stores or referenced the last created body: tb_body_discard no
 * longer applies. */
static inline void tb_undo_forget(tb_world* w) { w->undo_body = -1; }

/* ---- registry (src/world/registry.c) ---- */

/* The live world of a public id (index and generation), or NULL. The public API reaches worlds
 * through tb_world_get / tb_world_peek (src/api/api.h). */
tb_world* tb_world_lookup(tb_world_id id);
/* A free registry slot, cleared, with its generation advanced; its public id in *id. NULL when
 * TB_MAX_WORLDS worlds exist. The slot is live after tb_world_publish. */
tb_world* tb_world_claim(tb_world_id* id);
void tb_world_publish(tb_world* w);
/* Clears a world's slot (storage already freed); its id no longer resolves. */
void tb_world_release(tb_world* w);
/* Records the message in the world (or the global error when w is NULL); returns status. A
 * message longer than TB_ERROR_LEN − 1 bytes is cut at a UTF-8 character boundary and ends with
 * "…", so a cut is never silent. */
tb_status tb_world_fail(tb_world* w, tb_status status, const char* fmt, ...);
/* The last error message of w, or the global one when w is NULL (tb_last_error). */
const char* tb_world_error_text(const tb_world* w);

/* The one slot check of each store: slot of a live id, else -1 (no message). */
int32_t tb_body_slot_of(const tb_world* w, tb_body_id id);
int32_t tb_shape_slot_of(const tb_world* w, tb_shape_id id);
int32_t tb_joint_slot_of(const tb_world* w, tb_joint_id id);
/* Body slot of a live shape id, else -1 (the shape was removed). */
int32_t tb_shape_body_slot(const tb_world* w, tb_shape_id id);
/* The same, failing with TB_ERR_NOT_FOUND and "<fn>: body <id> does not exist ..." */
int32_t tb_body_slot_checked(tb_world* w, tb_body_id id, const char* fn); /* slot or -1 */
int32_t tb_shape_slot_checked(tb_world* w, tb_shape_id id, const char* fn); /* slot or -1 */
int32_t tb_joint_slot_checked(tb_world* w, tb_joint_id id, const char* fn); /* slot or -1 */
/* Why `id` of a slot store (count slots, generation per slot; `live`: the slot holds an object)
 * is or is not live: the one classification behind tb_id_check and the messages. */
tb_id_state tb_body_id_state(const tb_world* w, tb_body_id id);
tb_id_state tb_shape_id_state(const tb_world* w, tb_shape_id id);
tb_id_state tb_joint_id_state(const tb_world* w, tb_joint_id id);
tb_id_state tb_id_classify(const tb_world* w, int32_t id, int32_t count, const int32_t* generation, int live);
/* The message of a failed id check: "<fn>: <field> <id> does not exist in this world (...)" with
 * the reason; returns TB_ERR_NOT_FOUND. */
tb_status tb_id_fail(tb_world* w, tb_id_state state, const char* fn, const char* field, int32_t id);
const char* tb_shape_type_name(int32_t type);

/* ---- storage (src/world/storage.c): SoA growth and freeing, all or nothing ---- */

/* Every array of a store, from its field lists (capacity elements each); return the count (at
 * most TB_MAX_ARRAYS). Growth, freeing and snapshots all go through these. */
#define TB_MAX_ARRAYS 64
int tb_body_store_arrays(tb_bodies* b, tb_array_ref* out);
int tb_shape_store_arrays(tb_shapes* s, tb_array_ref* out);
int tb_pair_store_arrays(struct tb_world* w, tb_array_ref* out);
int tb_joint_store_arrays(tb_joints* j, tb_array_ref* out);
int tb_bodies_grow(tb_bodies* b, int32_t capacity);
int tb_shapes_grow(tb_shapes* s, int32_t capacity);
int tb_contacts_grow(tb_contact_store* c, int32_t capacity);
/* Records [begin, end) of the groups in the TB_STORE_* bit mask may now hold other values than
 * their defaults (every writer of those fields but the store fill says so). */
void tb_contacts_dirty(tb_contact_store* c, uint32_t groups, int32_t begin, int32_t end);
int tb_pairs_grow(tb_world* w, int32_t capacity);
int tb_joints_grow(tb_joints* j, int32_t capacity);
/* Frees every array of the world's stores (bodies, shapes and their owned geometry through
 * free_data, pairs, contacts, pair lists, matching frames, solver backup). */
void tb_world_storage_free(tb_world* w, void (*free_data)(int32_t type, void* data));
/* Grow both matching frames (doubling), keeping their contents: the per-pair arrays to at least
 * `pairs` (collide(), once the broad phase has counted the pairs, before the narrow phase), the
 * per-point arrays to at least `points` (once the narrow phase has counted the points). */
int tb_match_reserve(tb_world* w, int32_t pairs);
int tb_match_reserve_points(tb_world* w, int32_t points);
void tb_match_free(tb_match_data* m);
/* Room for a view of every shape slot (tb_shape_view), growing with the shapes and keeping the views
 * written (collide(), before the AABB update, which writes them). */
int tb_shape_views_reserve(tb_world* w);
/* The arrays of one matching frame: TB_MATCH_PAIR_ARRAYS with an element per pair, then
 * TB_MATCH_POINT_ARRAYS with an element per point. */
#define TB_MATCH_PAIR_ARRAYS 6
#define TB_MATCH_POINT_ARRAYS 6
int tb_match_pair_arrays(tb_match_frame* f, tb_array_ref* out);
int tb_match_point_arrays(tb_match_frame* f, tb_array_ref* out);

/* What a pair's test reads of one of its shapes and of the shape's body, in two cache lines a
 * shape, written by the AABB update with the shape's bounds (src/collision/shape_bounds.c): the
 * narrow stage reads the second shape of each pair at random, which from the shapes' and bodies'
 * arrays was a line from each of about eight (bench/RESULTS.md "perf40"). */
typedef struct tb_shape_view {
  _Alignas(64) tb_transform pose; /* world pose of the shape (m, unit quaternion): world_pose */
  float params[4];    /* as documented at tb_shape_type */
  int32_t type;       /* tb_shape_type */
  int32_t generation; /* of the slot (tb_pair_match_key_of) */
  float distance[2];  /* the distance rule's two values of the shape, m (tb_distance_of_shape) */
  int32_t unused;     /* the body's fields start the second line */
  tb_vec3 velocity;   /* the body's linear velocity, m/s */
  tb_transform frame; /* the body's frame of the matching (tb_shape_body_frame) */
  const void* data;   /* hull / heightfield / mesh geometry, else NULL */
} tb_shape_view;

/* Shape s's two values under the world's distance rule (m): PhysX rest and contact offsets, else
 * margin and gap (src/model/distance.h sums them per pair). */
static inline void tb_distance_of_shape(const tb_world* w, int32_t s, float out[2]) {
  const tb_shapes* sh = &w->shapes;
  int physx = w->def.collision.distance_rule == TB_DISTANCE_PHYSX;
  out[0] = physx ? sh->rest_offset[s] : sh->margin[s];
  out[1] = physx ? sh->contact_offset[s] : sh->gap[s];
}

/* The geometry of a shape's view, written field by field (tb_shape_geom_load says why). */
static inline void tb_shape_view_geom(const tb_shape_view* x, tb_shape_geom* g) {
  g->type = x->type;
  g->data = x->data;
  memcpy(g->params, x->params, sizeof g->params);
}

/* Shape geometry view for the narrow phase, written field by field into *g: returned by value,
 * gcc built it in a temporary and copied it in 16-byte moves that straddled the field stores (a
 * store-forwarding stall: a third of the narrow phase's time in the native pile). */
static inline void tb_shape_geom_load(const tb_shapes* s, int32_t slot, tb_shape_geom* g) {
  g->type = s->type[slot];
  g->data = s->data[slot];
  memcpy(g->params, s->params + 4 * slot, sizeof g->params); /* one 16-byte move: the loop reloaded s->params per float */
}

/* Key of a shape pair for matching across frames: slots and generations, so a reused slot never
 * matches the contacts of the shape it held before. Ascending keys follow the pair order
 * (shape0 slot, then shape1 slot) of the live shapes. */
static inline uint64_t tb_pair_match_key_of(int32_t s0, int32_t g0, int32_t s1, int32_t g1) {
  uint64_t k0 = ((uint64_t)(uint32_t)s0 << 11) | (uint32_t)(g0 & TB_ID_GEN_MASK);
  uint64_t k1 = ((uint64_t)(uint32_t)s1 << 11) | (uint32_t)(g1 & TB_ID_GEN_MASK);
  return (k0 << 31) | k1;
}
static inline uint64_t tb_pair_match_key(const tb_shapes* s, int32_t s0, int32_t s1) {
  return tb_pair_match_key_of(s0, s->generation[s0], s1, s->generation[s1]);
}

/* A dynamic body that is awake: the bodies the solvers move. */
static inline int tb_body_awake_dynamic(const tb_bodies* b, int32_t slot) {
  return b->f.body_type[slot] == TB_BODY_DYNAMIC && !b->f.asleep[slot];
}

static inline tb_transform tb_body_pose(const tb_bodies* b, int32_t slot) {
  const float* t = b->f.transform + 7 * slot;
  tb_transform x = {{t[0], t[1], t[2]}, {t[3], t[4], t[5], t[6]}};
  return x;
}

/* The frame of shape s's body in which the matching keeps its points: the body's pose, the world
 * for a static body (newton-e3 §2: a static shape's record points are world points). */
static inline tb_transform tb_shape_body_frame(const tb_world* w, int32_t shape) {
  const tb_bodies* b = &w->bodies;
  int32_t body = w->shapes.body[shape];
  if (b->f.body_type[body] == TB_BODY_STATIC) {
    const tb_transform world = {tb_v3(0, 0, 0), tb_quat_identity()};
    return world;
  }
  return tb_body_pose(b, body);
}

/* Writes body slot `slot`'s pose from its centre of mass (world, m) and orientation: the origin
 * is the centre minus the rotated local centre. */
static inline void tb_body_write_pose(tb_bodies* b, int32_t slot, tb_vec3 center, tb_quat q) {
  tb_vec3 origin = tb_sub(center, tb_rotate(q, b->local_center[slot]));
  float* t = b->f.transform + 7 * slot;
  t[0] = origin.x; t[1] = origin.y; t[2] = origin.z;
  t[3] = q.x; t[4] = q.y; t[5] = q.z; t[6] = q.w;
}

/* The same with the velocities of the centre of mass (m/s) and angular (rad/s), world axes: a
 * solver's write-back of one body. */
static inline void tb_body_write_state(tb_bodies* b, int32_t slot, tb_vec3 center, tb_quat q, tb_vec3 v, tb_vec3 w) {
  tb_body_write_pose(b, slot, center, q);
  float* lv = b->f.linear_velocity + 3 * slot;
  float* av = b->f.angular_velocity + 3 * slot;
  lv[0] = v.x; lv[1] = v.y; lv[2] = v.z;
  av[0] = w.x; av[1] = w.y; av[2] = w.z;
}

#endif
