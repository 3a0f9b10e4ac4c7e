/* PhysX PGS / TGS solver internals shared by its stage (solver_physx.c), the preparation of its
 * contact rows (solver_physx_rows.c) and its readback (solver_physx_readback.c). */
#ifndef TB_SOLVER_PHYSX_H
#define TB_SOLVER_PHYSX_H

#include "solver.h"

#include "../core/jobs.h"
#include "constraint_graph.h"
#include "contact_solver.h"

#define TB_BODY_CHUNK TB_CHUNK(128)
#define TB_WIDE_CHUNK TB_CHUNK(8)
#define TB_SOLVE_CHUNK TB_CHUNK(2) /* wides per chunk of an iteration over one colour: a colour has a few dozen */
#define TB_READBACK_CHUNK TB_CHUNK(16) /* wides per chunk of the contact readback */
#define TB_PACK_CHUNK TB_CHUNK(256)    /* constraints per chunk of the packing into wides */
#define TB_PGS_FRICTION_ITERATIONS 3 /* PGS friction runs in the last three position iterations */
#define TB_SLIP_DIRECTION_SPEED 1e-3f /* m/s: slower slip keeps the fixed tangent basis (no flips from noise) */

/* Strong friction (seed §4.3): the anchors of patches that stuck in the last step, by pair key
 * (ascending), with their points in each body's frame, so that they are kept and their drift is
 * corrected while they stick. */
typedef struct tb_anchor_cache {
  uint64_t* key;       /* per patch: tb_pair_match_key of its pair, ascending (the packing walks it in pair order) */
  int32_t* count;      /* per patch: anchors, 1 or 2 */
  uint32_t* feature;   /* per anchor (2 per patch): feature id of the anchor's contact point */
  tb_vec3* local_a;    /* per anchor: the anchor in body A's frame (shape0's body), m */
  tb_vec3* local_b;    /* per anchor: the anchor in body B's frame, m */
  int32_t pair_count, capacity;
} tb_anchor_cache;

/* A wide's lanes as the preparation and the readback see them, apart from the wide's header, which
 * the iterations stream and which holds only what they read (bench/RESULTS.md "perf39"). First
 * what the rows read of the lanes' pairs, written by the packing, which walks the constraints in
 * pair order: the per-pair arrays (pairs, shapes' bodies, combined materials, the anchor cache's
 * keys) are read in order there, and the rows' preparation, which goes colour by colour, reads
 * this record in wide order instead of each pair's at random. Then the anchors the rows chose,
 * which the overflow colour's solve and the readback read. */
typedef struct tb_physx_wide_pairs {
  int32_t manifold[TB_LANES];                     /* manifold index, -1 = empty lane */
  int32_t slot_a[TB_LANES], slot_b[TB_LANES];     /* body slots of shape0 and shape1 */
  int32_t solver_a[TB_LANES], solver_b[TB_LANES]; /* their solver bodies, -1 none */
  int32_t cache_row[TB_LANES]; /* row of the pair in the last step's anchor cache, -1 none */
  int32_t flags[TB_LANES];  /* combined material's TB_CONTACT_MATERIAL_* */
  int32_t active[TB_LANES]; /* the manifold's active points (tb_pair.active) */
  float mu_static[TB_LANES], mu_dynamic[TB_LANES]; /* 1, as the rows use them (>= 0, static >= dynamic) */
  float restitution[TB_LANES], stiffness[TB_LANES], damping[TB_LANES]; /* combined material's */
  /* written by the rows' preparation */
  int32_t anchor_point[TB_MAX_ANCHORS][TB_LANES]; /* manifold point of each anchor, -1 none */
  int32_t kept[TB_LANES];   /* strong friction: the cache row whose anchors the lane kept, -1 fresh */
  int32_t strong[TB_LANES]; /* 1: the patch may keep its anchors while they stick */
} tb_physx_wide_pairs;

/* A stuck patch's anchors as the readback's second job needs them, copied from its lane by the
 * first, which walks the wides in their order, so that the second, in pair order, reads no wide
 * (at random, a wide's lines each: a 16 000-body pile's readback then took 6 % of the step). */
typedef struct tb_anchor_pick {
  int32_t point[TB_MAX_ANCHORS]; /* manifold point of each anchor, -1 none */
  int32_t kept;                  /* the last step's anchor cache row it kept, -1 chosen afresh */
} tb_anchor_pick;

typedef struct tb_solver_data {
  tb_body_state* states;     /* per solver body, then the zeros static lanes read; 64-byte aligned in */
  void* states_block;        /* this allocation of state_capacity states and 63 bytes */
  int32_t state_capacity;
  tb_body_sim* sims;         /* per solver body, 64-byte aligned in */
  void* sims_block;          /* this allocation of sim_capacity sims and 63 bytes */
  int32_t sim_capacity;
  int32_t* parent;           /* per solver body: union-find parent for the islands */
  int32_t body_capacity;
  int32_t* body_a;           /* per constraint (manifold with points): dynamic solver index or -1 */
  int32_t* body_b;
  int32_t* constraint_manifold; /* per constraint: its manifold (pair) index, ascending */
  int32_t constraint_count;  /* constraints of this step (manifolds with points that solve) */
  int32_t* color;
  int32_t* manifold_wide;    /* per pair: wide * 4 + lane, -1 when the manifold is empty */
  int32_t* manifold_anchor;  /* per pair with a constraint, readback: 1 = its anchors stuck, then their row in the next anchor cache (-1 none) */
  tb_anchor_pick* manifold_pick; /* per pair whose anchors stuck, readback: what its cache row is written from */
  float* chunk_residual;     /* per readback chunk: the largest velocity (m/s) and penetration (m) residual */
  int32_t constraint_capacity, manifold_capacity;
  uint32_t* color_used;      /* per solver body, colouring: bit c = the body has a constraint of colour c */
  int32_t color_used_capacity;
  tb_contact_wide* wides;    /* 64-byte aligned in wides_block (wides_block_capacity wides and 63 bytes): every
                              * row of four floats on its own part of a cache line, none split by a line's end */
  void* wides_block;
  int32_t wides_block_capacity;
  tb_physx_wide_pairs* wide_pairs; /* per wide: its lanes' pairs and anchors (tb_physx_wide_pairs) */
  int32_t* wide_points;      /* per wide: the points its rows hold (its lanes' largest point class) */
  int32_t wide_capacity;
  tb_contact_point_wide* points; /* the wides' point rows, wide after wide, 64-byte aligned in points_block */
  void* points_block;
  int32_t points_capacity;
  tb_anchor_wide* anchor_rows;   /* the wides' anchor rows, the same way */
  void* anchor_rows_block;
  int32_t anchor_rows_capacity;
  int32_t* pack_fill;        /* per packing chunk and colour: its constraints, then its first slot in the colour */
  int32_t pack_capacity;
  int32_t color_start[TB_GRAPH_COLORS + 2]; /* wide ranges per colour; the last is the overflow */
  int32_t* wide_order;       /* every wide: the first halves of all colours, then the second halves */
  tb_anchor_cache anchors[2]; /* the last step's (read) and this step's (written), swapped */
  int32_t anchors_prev;
  float readback_h;          /* s: the step of the last solve, whose impulses the store may still owe */
  struct tb_physx_joints* joints; /* joint rows of the step (joint_physx.c), NULL until a joint exists */
} tb_solver_data;

/* What the jobs of one step share. */
typedef struct tb_physx_ctx {
  tb_world* w;
  tb_solver_data* d;
  const tb_step_context* step; /* dt, threads */
  float h;                  /* step, s */
  int tgs;
  int ext_every;            /* TGS: gravity before each internal step */
  tb_vec3 gravity;          /* m/s² */
  int32_t iteration;        /* current position / velocity iteration */
  int velocity_phase;
  int32_t wide_base;        /* first wide of the colour being solved */
  int32_t zero_state;       /* index of the body state of zeros after the solver bodies (static lanes) */
} tb_physx_ctx;

/* Contact point of a manifold point: the midpoint of its two surface points, world (m). */
static inline tb_vec3 tb_physx_point_of(const tb_manifold_point* mp) {
  return tb_scale(tb_add(mp->point0, mp->point1), 0.5f);
}

/* Job over wides [begin, end): fills their lane data from their manifolds (solver_physx_rows.c). */
void tb_physx_prepare_rows_job(int32_t begin, int32_t end, void* vctx);

/* This step's stuck anchors into the anchor cache (solver_physx_readback.c). The store then owes
 * the impulses (TB_OWE_READBACK, written by tb_solver_store_readback). */
void tb_physx_readback_contacts(const tb_physx_ctx* ctx);
/* The largest velocity (m/s) and penetration (m) residuals of the last solve's rows into
 * w->status (what w->status_owed owes). */
void tb_physx_residuals(tb_world* w, const tb_step_context* step);

/* Joints (joint_physx.c): 1 when joint slot s is solved this step, with the solver bodies of its
 * sides in a, b (-1 none); its rows from the start poses; one serial pass over them per iteration
 * (ctx->iteration, ctx->velocity_phase); their readback into the joint store. */
int tb_physx_joint_bodies(const tb_world* w, const tb_solver_data* d, int32_t s, int32_t* a, int32_t* b);
tb_status tb_physx_joints_prepare(tb_physx_ctx* ctx);
void tb_physx_joints_solve(tb_physx_ctx* ctx);
void tb_physx_joints_readback(tb_physx_ctx* ctx);
void tb_physx_joints_destroy(tb_solver_data* d);

#endif
