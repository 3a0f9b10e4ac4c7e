/* solve(): the PhysX PGS and TGS contact solvers and the PhysX readback (seed physx-e3 §4–7).
 *
 * Per step of length h:
 *   bodies: gravity (TGS: once, or a·h/N before each internal step) and damping max(1 − d·h, 0);
 *   islands: the persistent islands of island.c (dynamic bodies linked by touching contacts and
 *            joints; static bodies do not link); each island runs the
 *            largest position / velocity iteration request of its bodies (at least one velocity
 *            iteration);
 *   rows: unit response w, bias from the penetration, restitution above the bounce threshold when
 *         closing, max contact impulse, compliant springs; patch friction with at most two anchors;
 *         accumulated impulses start from zero each step (PhysX clears them in the preparation);
 *   PGS: position iterations with bias (friction in the last three unless every iteration), the
 *        motion velocities saved, velocity iterations without bias, poses advanced by h with the
 *        motion velocities;
 *   TGS: N internal steps of h/N (N of the island): solve with bias, friction every iteration,
 *        poses advanced each internal step and the separation tracked from the accumulated motion;
 *        then velocity iterations without bias and without pose advance, where a sliding anchor's
 *        friction is solved again after the normal rows so that it ends at μd times the final
 *        normal impulse;
 *   readback: normal impulse per point, friction impulse per anchor (N·s over the step).
 * Manifolds are coloured so that a colour shares no dynamic body; each colour is solved in chunks
 * of four-lane wide constraints, in parallel, with the same result for any thread count.
 *
 * The stage (solve_physx) runs prepare → iterate → integrate → readback; the lanes' rows are
 * filled in solver_physx_rows.c and the contact readback is in solver_physx_readback.c. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../core/jobs.h"
#include "../core/serial.h"
#include "../core/sort.h"
#include "../model/contact_store.h"
#include "../model/material.h"
#include "solver_physx.h"

static int anchor_cache_arrays(tb_anchor_cache* a, tb_array_ref* out) {
  const tb_array_ref r[] = {{(void**)&a->key, sizeof(uint64_t)},
                            {(void**)&a->count, sizeof(int32_t)},
                            {(void**)&a->feature, TB_MAX_ANCHORS * sizeof(uint32_t)},
                            {(void**)&a->local_a, TB_MAX_ANCHORS * sizeof(tb_vec3)},
                            {(void**)&a->local_b, TB_MAX_ANCHORS * sizeof(tb_vec3)}};
  for (int i = 0; i < 5; ++i) out[i] = r[i];
  return 5;
}

int tb_solver_create(tb_world* w) {
  w->solver = (tb_solver_data*)tb_alloc_zero(sizeof(tb_solver_data));
  return w->solver != NULL;
}

void tb_solver_destroy(tb_world* w) {
  tb_solver_data* d = w->solver;
  if (!d) return;
  tb_free_aligned(d->states_block, d->state_capacity, sizeof(tb_body_state));
  tb_free_aligned(d->sims_block, d->sim_capacity, sizeof(tb_body_sim));
  tb_free(d->parent, (size_t)d->body_capacity * sizeof(int32_t));
  tb_free(d->body_a, (size_t)d->constraint_capacity * sizeof(int32_t));
  tb_free(d->body_b, (size_t)d->constraint_capacity * sizeof(int32_t));
  tb_free(d->constraint_manifold, (size_t)d->constraint_capacity * sizeof(int32_t));
  tb_free(d->color, (size_t)d->constraint_capacity * sizeof(int32_t));
  tb_free(d->manifold_wide, (size_t)d->manifold_capacity * sizeof(int32_t));
  tb_free(d->manifold_anchor, (size_t)d->manifold_capacity * sizeof(int32_t));
  tb_free(d->manifold_pick, (size_t)d->manifold_capacity * sizeof(tb_anchor_pick));
  tb_free(d->chunk_residual, (size_t)d->manifold_capacity * 2 * sizeof(float));
  tb_free(d->color_used, (size_t)d->color_used_capacity * sizeof(uint32_t));
  tb_free_aligned(d->wides_block, d->wides_block_capacity, sizeof(tb_contact_wide));
  tb_free(d->wide_pairs, (size_t)d->wide_capacity * sizeof(tb_physx_wide_pairs));
  tb_free(d->wide_points, (size_t)d->wide_capacity * sizeof(int32_t));
  tb_free_aligned(d->points_block, d->points_capacity, sizeof(tb_contact_point_wide));
  tb_free_aligned(d->anchor_rows_block, d->anchor_rows_capacity, sizeof(tb_anchor_wide));
  tb_free(d->wide_order, (size_t)d->wide_capacity * sizeof(int32_t));
  tb_free(d->pack_fill, (size_t)d->pack_capacity * sizeof(int32_t));
  tb_physx_joints_destroy(d);
  for (int i = 0; i < 2; ++i) {
    tb_array_ref r[5];
    tb_free_arrays(r, anchor_cache_arrays(&d->anchors[i], r), d->anchors[i].capacity);
  }
  tb_free(d, sizeof *d);
  w->solver = NULL;
}

/* Grows a group of arrays sharing one capacity to at least n elements, doubling (before the
 * iterations start; never inside them). */
static int reserve_arrays(const tb_array_ref* arrays, int count, int32_t* cap, int32_t n) {
  if (n <= *cap) return 1;
  int32_t c = *cap > 0 ? *cap : 16;
  while (c < n) c *= 2;
  if (!tb_grow_arrays(arrays, count, *cap, c)) return 0;
  *cap = c;
  return 1;
}

static int reserve(void** p, int32_t* cap, int32_t n, size_t elem) {
  tb_array_ref a = {p, elem};
  return reserve_arrays(&a, 1, cap, n);
}

/* A block from a 64-byte boundary (core/alloc.h); contents not kept: the solve writes every
 * element of a step before reading it, so a larger block starts empty. */
static int reserve_aligned(void** block, void** aligned, int32_t* cap, int32_t n, size_t elem) {
  return tb_reserve_aligned(block, aligned, cap, n, elem, 0);
}

/* The body states for n solver bodies, on 64-byte lines (the lines the threads hand over), and
 * their sims from line boundaries (each step's prepare_bodies_job writes every sim). */
static int reserve_states(tb_solver_data* d, int32_t n) {
  return reserve_aligned(&d->states_block, (void**)&d->states, &d->state_capacity, n, sizeof(tb_body_state)) &&
         reserve_aligned(&d->sims_block, (void**)&d->sims, &d->sim_capacity, n, sizeof(tb_body_sim));
}

static int reserve_many(tb_solver_data* d, int32_t bodies, int32_t constraints, int32_t manifolds) {
  const tb_array_ref b[] = {{(void**)&d->parent, sizeof(int32_t)}};
  const tb_array_ref c[] = {{(void**)&d->body_a, sizeof(int32_t)}, {(void**)&d->body_b, sizeof(int32_t)},
                            {(void**)&d->constraint_manifold, sizeof(int32_t)}, {(void**)&d->color, sizeof(int32_t)}};
  /* per pair; the readback's chunk residuals (two per chunk) are sized by pairs too */
  const tb_array_ref m[] = {{(void**)&d->manifold_wide, sizeof(int32_t)}, {(void**)&d->manifold_anchor, sizeof(int32_t)},
                            {(void**)&d->chunk_residual, 2 * sizeof(float)}, {(void**)&d->manifold_pick, sizeof(tb_anchor_pick)}};
  tb_array_ref a0[5], a1[5];
  int na0 = anchor_cache_arrays(&d->anchors[0], a0), na1 = anchor_cache_arrays(&d->anchors[1], a1);
  return reserve_states(d, bodies) && reserve_arrays(b, 1, &d->body_capacity, bodies) &&
         reserve_arrays(c, 4, &d->constraint_capacity, constraints) &&
         reserve_arrays(m, 4, &d->manifold_capacity, manifolds) &&
         reserve_arrays(a0, na0, &d->anchors[0].capacity, manifolds) &&
         reserve_arrays(a1, na1, &d->anchors[1].capacity, manifolds);
}

/* ---- islands ---- */

static int32_t find_root(int32_t* parent, int32_t i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

/* The lower index becomes the root: the same islands for any manifold order of equal pairs. */
static void link(int32_t* parent, int32_t a, int32_t b) {
  a = find_root(parent, a);
  b = find_root(parent, b);
  if (a == b) return;
  if (a < b) parent[b] = a;
  else parent[a] = b;
}

/* ---- jobs ---- */

/* Gravity (unless TGS applies it per internal step) and damping v·max(1 − d·h, 0) (seed §6) on a
 * solver body's start velocities. */
static void pre_integrate(const tb_body_sim* sim, tb_body_state* st, float h, int ext_every, tb_vec3 gravity) {
  if (sim->inv_mass == 0.0f) return; /* kinematic: keeps its velocity */
  tb_vec3 v = ext_every ? st->v : tb_mul_add(st->v, h, gravity);
  float dl = 1.0f - sim->linear_damping * h, da = 1.0f - sim->angular_damping * h;
  st->v = tb_scale(v, dl > 0.0f ? dl : 0.0f);
  st->w = tb_scale(st->w, da > 0.0f ? da : 0.0f);
}

/* Rotations by constant angular velocities w over steps hs, four bodies at a time: q+ = Δq ⊗ q with
 * Δq = (ŵ sin(|w|hs/2), cos(|w|hs/2)), renormalised, and q unchanged for w = 0 (seed §6). Each
 * lane runs the operations of the one-body formula in its order (sinf and cosf as the build's own:
 * tb_f4_sin_cos), so the bits are those of one body at a time. */
typedef struct rotation_lanes {
  float wh[TB_LANES][4]; /* each lane's angular velocity x, y, z (rad/s) and step hs (s) */
  float q[TB_LANES][4];  /* each lane's rotation x, y, z, w */
  tb_quat* out[TB_LANES];
  int n;                 /* lanes filled */
} rotation_lanes;

_Static_assert(sizeof(tb_quat) == 4 * sizeof(float) && offsetof(tb_quat, w) == 3 * sizeof(float),
               "a rotation is read and written as one row of four floats x, y, z, w");

static void integrate_rotations(rotation_lanes* r) {
  for (int l = r->n; l < TB_LANES; ++l) { /* idle lanes: w = 0 keeps their (identity) q */
    tb_f4_store(r->wh[l], tb_f4_splat(0.0f));
    tb_f4_store(r->q[l], tb_f4_make(0.0f, 0.0f, 0.0f, 1.0f));
  }
  /* the lanes' rows were stored whole (16 bytes), so these loads take them from the stores */
  tb_f4 x = tb_f4_load(r->wh[0]), y = tb_f4_load(r->wh[1]), z = tb_f4_load(r->wh[2]), h = tb_f4_load(r->wh[3]);
  tb_f4_transpose(&x, &y, &z, &h);
  tb_f4 bx = tb_f4_load(r->q[0]), by = tb_f4_load(r->q[1]), bz = tb_f4_load(r->q[2]), bw = tb_f4_load(r->q[3]);
  tb_f4_transpose(&bx, &by, &bz, &bw);
  tb_f4 len = tb_f4_sqrt(tb_f4_add(tb_f4_add(tb_f4_mul(x, x), tb_f4_mul(y, y)), tb_f4_mul(z, z)));
  tb_f4 half = tb_f4_mul(tb_f4_mul(tb_f4_splat(0.5f), len), h), sn, cs;
  tb_f4_sin_cos(half, &sn, &cs);
  tb_f4 s = tb_f4_div(sn, len);
  tb_f4 ax = tb_f4_mul(x, s), ay = tb_f4_mul(y, s), az = tb_f4_mul(z, s), aw = cs; /* Δq */
  /* tb_quat_mul(Δq, q) */
  tb_f4 qx = tb_f4_sub(tb_f4_add(tb_f4_add(tb_f4_mul(aw, bx), tb_f4_mul(ax, bw)), tb_f4_mul(ay, bz)), tb_f4_mul(az, by));
  tb_f4 qy = tb_f4_add(tb_f4_add(tb_f4_sub(tb_f4_mul(aw, by), tb_f4_mul(ax, bz)), tb_f4_mul(ay, bw)), tb_f4_mul(az, bx));
  tb_f4 qz = tb_f4_add(tb_f4_sub(tb_f4_add(tb_f4_mul(aw, bz), tb_f4_mul(ax, by)), tb_f4_mul(ay, bx)), tb_f4_mul(az, bw));
  tb_f4 qw = tb_f4_sub(tb_f4_sub(tb_f4_sub(tb_f4_mul(aw, bw), tb_f4_mul(ax, bx)), tb_f4_mul(ay, by)), tb_f4_mul(az, bz));
  /* tb_quat_normalize: the identity below 1e-20 */
  tb_f4 norm = tb_f4_sqrt(tb_f4_add(tb_f4_add(tb_f4_add(tb_f4_mul(qx, qx), tb_f4_mul(qy, qy)), tb_f4_mul(qz, qz)), tb_f4_mul(qw, qw)));
  tb_f4 inv = tb_f4_div(tb_f4_splat(1.0f), norm), zero = tb_f4_splat(0.0f);
  tb_f4 tiny = tb_f4_lt(norm, tb_f4_splat(1e-20f));
  /* |w| = 0 (len is >= 0 or NaN): q as it was */
  tb_f4 still = tb_f4_ge(zero, len);
  tb_f4 out[4] = {tb_f4_select(tiny, zero, tb_f4_mul(qx, inv)), tb_f4_select(tiny, zero, tb_f4_mul(qy, inv)),
                  tb_f4_select(tiny, zero, tb_f4_mul(qz, inv)), tb_f4_select(tiny, tb_f4_splat(1.0f), tb_f4_mul(qw, inv))};
  out[0] = tb_f4_select(still, bx, out[0]);
  out[1] = tb_f4_select(still, by, out[1]);
  out[2] = tb_f4_select(still, bz, out[2]);
  out[3] = tb_f4_select(still, bw, out[3]);
  tb_f4_transpose(&out[0], &out[1], &out[2], &out[3]);
  for (int l = 0; l < r->n; ++l) tb_f4_store(&r->out[l]->x, out[l]);
  r->n = 0;
}

/* A body's step hs with velocities v, av: its displacement and rotation vector now, its rotation
 * queued in r (integrated four at a time, and by the caller for the last few: rotations_flush). */
static TB_INLINE_HOT void advance(rotation_lanes* r, tb_body_sim* sim, tb_body_state* st, tb_vec3 v, tb_vec3 av, float hs) {
  st->dp = tb_mul_add(st->dp, hs, v);
  st->dtheta = tb_mul_add(st->dtheta, hs, av);
  int l = r->n++;
  tb_f4_store(r->wh[l], tb_f4_make(av.x, av.y, av.z, hs));
  tb_f4_store(r->q[l], tb_f4_load(&sim->q.x));
  r->out[l] = &sim->q;
  if (r->n == TB_LANES) integrate_rotations(r);
}

static void rotations_flush(rotation_lanes* r) {
  if (r->n > 0) integrate_rotations(r);
}

/* TGS: gravity a·h/N before the internal step (when so set). */
static void tgs_gravity_job(int32_t begin, int32_t end, void* vctx) {
  tb_physx_ctx* ctx = (tb_physx_ctx*)vctx;
  for (int32_t i = begin; i < end; ++i) {
    tb_body_sim* sim = &ctx->d->sims[i];
    if (sim->inv_mass == 0.0f || ctx->iteration >= sim->position_iterations) continue;
    float hs = ctx->h / (float)sim->position_iterations;
    ctx->d->states[i].v = tb_mul_add(ctx->d->states[i].v, hs, ctx->gravity);
  }
}

/* TGS: poses advance by one internal step h/N of the body's island. */
static void tgs_integrate_job(int32_t begin, int32_t end, void* vctx) {
  tb_physx_ctx* ctx = (tb_physx_ctx*)vctx;
  rotation_lanes r;
  r.n = 0;
  for (int32_t i = begin; i < end; ++i) {
    tb_body_sim* sim = &ctx->d->sims[i];
    if (ctx->iteration >= sim->position_iterations) continue;
    tb_body_state* st = &ctx->d->states[i];
    advance(&r, sim, st, st->v, st->w, ctx->h / (float)sim->position_iterations);
  }
  rotations_flush(&r);
}

static void pgs_save_motion_job(int32_t begin, int32_t end, void* vctx) {
  tb_physx_ctx* ctx = (tb_physx_ctx*)vctx;
  for (int32_t i = begin; i < end; ++i) {
    ctx->d->sims[i].mv = ctx->d->states[i].v;
    ctx->d->sims[i].mw = ctx->d->states[i].w;
  }
}

/* PGS: poses advance by h with the motion velocities of the position iterations. */
static void pgs_integrate_job(int32_t begin, int32_t end, void* vctx) {
  tb_physx_ctx* ctx = (tb_physx_ctx*)vctx;
  rotation_lanes r;
  r.n = 0;
  for (int32_t i = begin; i < end; ++i) {
    tb_body_sim* sim = &ctx->d->sims[i];
    advance(&r, sim, &ctx->d->states[i], sim->mv, sim->mw, ctx->h);
  }
  rotations_flush(&r);
}

/* Which lanes of a wide take part in this iteration, and whether their friction rows run. */
static void make_pass(const tb_physx_ctx* ctx, const tb_contact_wide* c, tb_contact_pass* pass) {
  const tb_solver_params* sp = &ctx->w->def.solver;
  pass->biased = !ctx->velocity_phase;
  pass->pair_clamp = ctx->tgs;
  /* TGS: friction before the normal rows (bounded by the normal impulse so far) so that the
   * normal rows have the last word on the pose; the first iteration has no normal impulse yet
   * and runs the normal rows first */
  pass->friction_first = ctx->tgs && (ctx->velocity_phase || ctx->iteration > 0);
  /* TGS springs act once per internal step, so not again in the velocity iterations */
  pass->skip_compliant = ctx->tgs && ctx->velocity_phase;
  /* lanes whose island runs iteration k: k < its count (whole numbers as floats, exact) */
  tb_f4 k = tb_f4_splat((float)ctx->iteration);
  if (ctx->velocity_phase) {
    pass->active = tb_f4_gt(tb_f4_load(c->velocity_iterations), k);
    pass->friction = pass->active;
  } else {
    tb_f4 n = tb_f4_load(c->position_iterations);
    pass->active = tb_f4_gt(n, k);
    /* PGS: friction in the last TB_PGS_FRICTION_ITERATIONS of the lane's n, k >= n - that */
    int every = ctx->tgs || sp->friction_every_iteration;
    pass->friction = every ? pass->active : tb_f4_ge(k, tb_f4_sub(n, tb_f4_splat((float)TB_PGS_FRICTION_ITERATIONS)));
  }
}

static void solve_job(int32_t begin, int32_t end, void* vctx) {
  tb_physx_ctx* ctx = (tb_physx_ctx*)vctx;
  for (int32_t i = begin; i < end; ++i) {
    tb_contact_wide* c = &ctx->d->wides[ctx->wide_base + i];
    tb_contact_pass pass;
    make_pass(ctx, c, &pass);
    tb_contact_solve(c, ctx->d->states, &pass);
  }
}

/* The overflow colour's wides, in order, on one thread. Their lanes may share bodies, so each lane
 * is solved on its own, in lane order (the constraints' order), as if alone in its wide: only its
 * lane active, the rows run to its own points and anchors, and the other lanes' scatter goes to
 * the wide's sink. A lane's arithmetic does not depend on the other lanes, so the results are
 * those of one constraint to a wide, with a quarter of the wides (tests/c/test_trajectory.c
 * "tray"). */
static void solve_overflow_job(int32_t begin, int32_t end, void* vctx) {
  tb_physx_ctx* ctx = (tb_physx_ctx*)vctx;
  for (int32_t i = begin; i < end; ++i) {
    tb_contact_wide* c = &ctx->d->wides[ctx->wide_base + i];
    const tb_physx_wide_pairs* pr = &ctx->d->wide_pairs[ctx->wide_base + i];
    tb_contact_pass pass;
    make_pass(ctx, c, &pass);
    float *out_a[TB_LANES], *out_b[TB_LANES];
    memcpy(out_a, c->out_a, sizeof out_a);
    memcpy(out_b, c->out_b, sizeof out_b);
    const int32_t points = c->point_count, anchors = c->anchor_count;
    for (int l = 0; l < TB_LANES; ++l) {
      if (pr->manifold[l] < 0) continue;
      float only[TB_LANES] = {0};
      only[l] = 1.0f;
      tb_contact_pass one = pass;
      one.active = tb_f4_and(pass.active, tb_f4_gt(tb_f4_load(only), tb_f4_splat(0.0f)));
      for (int k = 0; k < TB_LANES; ++k) {
        c->out_a[k] = k == l ? out_a[k] : c->sink;
        c->out_b[k] = k == l ? out_b[k] : c->sink;
      }
      c->point_count = ctx->w->manifolds[pr->manifold[l]].point_count;
      c->anchor_count = 0;
      while (c->anchor_count < TB_MAX_ANCHORS && pr->anchor_point[c->anchor_count][l] >= 0) ++c->anchor_count;
      tb_contact_solve(c, ctx->d->states, &one);
    }
    memcpy(c->out_a, out_a, sizeof out_a);
    memcpy(c->out_b, out_b, sizeof out_b);
    c->point_count = points;
    c->anchor_count = anchors;
  }
}

/* Runs the wide-constraint job colour by colour; the overflow colour runs on one thread. */
static void for_each_color(tb_physx_ctx* ctx) {
  tb_solver_data* d = ctx->d;
  for (int32_t c = 0; c <= TB_GRAPH_COLORS; ++c) {
    int32_t begin = d->color_start[c], end = d->color_start[c + 1];
    if (end <= begin) continue;
    ctx->wide_base = begin;
    if (c == TB_OVERFLOW_COLOR) tb_parallel_for(end - begin, TB_SOLVE_CHUNK, 1, solve_overflow_job, ctx);
    else tb_parallel_for(end - begin, TB_SOLVE_CHUNK, ctx->step->thread_count, solve_job, ctx);
  }
}

/* ---- the stage ---- */

/* Sizes of one step, set by the preparation and read by the iterations and the readback. */
typedef struct tb_physx_plan {
  int32_t bodies;           /* solver bodies: awake dynamic and kinematic bodies */
  int32_t wide_count;       /* wide constraints over all colours */
  int32_t max_pos, max_vel; /* largest position / velocity iteration count of any solver body */
  int32_t dyn_pos, dyn_vel; /* the same over dynamic bodies only, 0 when there is none */
  int32_t per_color[TB_GRAPH_COLORS + 1]; /* constraints per colour; the last is the overflow */
} tb_physx_plan;

/* What the preparation's jobs share. */
typedef struct tb_physx_prep {
  tb_world* w;
  tb_solver_data* d;
  float h;         /* s: the step */
  int ext_every;   /* TGS applies gravity before each internal step instead */
  tb_vec3 gravity; /* m/s² */
  int32_t split;   /* the packing: the first solver body of the second half */
  tb_physx_plan* plan;
  tb_status status; /* of the caller's side work (place_constraints) */
} tb_physx_prep;

/* Job over body slots [begin, end): the start state of their solver bodies, with gravity and
 * damping applied to the velocities (nothing before the rows reads them). */
static void prepare_bodies_job(int32_t begin, int32_t end, void* vctx) {
  const tb_physx_prep* pc = (const tb_physx_prep*)vctx;
  tb_bodies* bodies = &pc->w->bodies;
  tb_solver_data* d = pc->d;
  for (int32_t i = begin; i < end; ++i) {
    int32_t k = bodies->solver_index[i];
    if (k < 0) continue;
    tb_body_sim* sim = &d->sims[k];
    tb_transform x = tb_body_pose(bodies, i);
    sim->slot = i;
    sim->q = x.q;
    sim->center = tb_transform_point(x, bodies->local_center[i]);
    sim->inv_mass = bodies->f.body_type[i] == TB_BODY_DYNAMIC ? bodies->inv_mass[i] : 0.0f;
    tb_mat3 r = tb_mat3_from_quat(x.q);
    tb_mat3 iw = tb_mat3_mul(tb_mat3_mul(r, bodies->inv_inertia_local[i]), tb_mat3_transpose(r));
    if (sim->inv_mass == 0.0f) iw = tb_mat3_zero();
    sim->inv_i[0] = iw.cx.x; sim->inv_i[1] = iw.cy.y; sim->inv_i[2] = iw.cz.z;
    sim->inv_i[3] = iw.cy.x; sim->inv_i[4] = iw.cz.x; sim->inv_i[5] = iw.cz.y;
    sim->max_contact_impulse = bodies->max_contact_impulse[i];
    sim->linear_damping = bodies->linear_damping[i];
    sim->angular_damping = bodies->angular_damping[i];
    const float* v = bodies->f.linear_velocity + 3 * i;
    const float* av = bodies->f.angular_velocity + 3 * i;
    tb_body_state* st = &d->states[k];
    memset(st, 0, sizeof *st);
    st->v = tb_v3(v[0], v[1], v[2]);
    st->w = tb_v3(av[0], av[1], av[2]);
    pre_integrate(sim, st, pc->h, pc->ext_every, pc->gravity);
    d->parent[k] = k;
  }
}

/* Solver bodies (awake dynamic and kinematic): their indices and room for their states (their
 * start states are prepare_bodies_job's: centre of mass (m), world inverse inertia (1/(kg·m²),
 * zero for kinematic), damping (1/s), velocities (m/s, rad/s) after gravity and damping). */
static tb_status index_bodies(tb_physx_prep* pc, tb_physx_plan* plan) {
  tb_world* w = pc->w;
  tb_solver_data* d = pc->d;
  tb_bodies* bodies = &w->bodies;
  int32_t nb = 0;
  for (int32_t i = 0; i < bodies->count; ++i) {
    int32_t t = bodies->f.body_type[i];
    bodies->solver_index[i] = (t == TB_BODY_DYNAMIC || t == TB_BODY_KINEMATIC) && !bodies->f.asleep[i] ? nb++ : -1;
  }
  int32_t nc = 0;
  for (int32_t i = 0; i < w->pair_count; ++i) nc += w->pairs[i].points > 0;
  /* one more body state: the zeros that static lanes of the wide rows read; one more constraint:
   * build_islands writes an entry past the last one (its list has no branch) */
  if (!reserve_many(d, nb + 1, nc + 1, w->pair_count))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "solve: out of memory for %d bodies and %d manifolds", nb, nc);
  plan->bodies = nb;
  memset(&d->states[nb], 0, sizeof d->states[nb]);
  return TB_OK;
}

/* Constraints: one per solved manifold with points, with its dynamic sides (only dynamic bodies
 * link and constrain a colour). Reads the slots' arrays, not the solver bodies' sims. */
static void list_constraints(tb_world* w, tb_solver_data* d) {
  const tb_bodies* bodies = &w->bodies;
  const tb_shapes* shapes = &w->shapes;
  int32_t nc = 0;
  /* the pairs with points that solve, listed without a branch on the test (about half of a pile's
   * candidate pairs have points, in an order no predictor learns; the list has room for one more) */
  for (int32_t m = 0; m < w->pair_count; ++m) {
    d->manifold_wide[m] = -1;
    d->constraint_manifold[nc] = m;
    nc += (w->pairs[m].points != 0) & ((w->pairs[m].flags & TB_PAIR_SOLVE) != 0);
  }
  /* a side constrains when its body is dynamic with a mass (its sim's inv_mass > 0, as
   * prepare_bodies_job sets it), read from the slot's arrays: the sims (128 bytes a body) read
   * at random cost a 16 000-body pile 1.9 L2 misses per constraint (bench/RESULTS.md "perf38") */
  for (int32_t k = 0; k < nc; ++k) {
    int32_t m = d->constraint_manifold[k];
    int32_t sa = shapes->body[w->pairs[m].shape0], sb = shapes->body[w->pairs[m].shape1];
    int32_t a = bodies->solver_index[sa], b = bodies->solver_index[sb];
    d->body_a[k] = a >= 0 && bodies->f.body_type[sa] == TB_BODY_DYNAMIC && bodies->inv_mass[sa] > 0.0f ? a : -1;
    d->body_b[k] = b >= 0 && bodies->f.body_type[sb] == TB_BODY_DYNAMIC && bodies->inv_mass[sb] > 0.0f ? b : -1;
  }
  d->constraint_count = nc;
}

/* Islands of dynamic bodies linked by the constraints: each runs the largest iteration request of
 * its bodies (-1 = the world's), and a kinematic body the finest internal step of the islands it
 * touches. Reads and writes the solver bodies' sims. */
static void build_islands(tb_world* w, tb_solver_data* d, tb_physx_plan* plan) {
  const tb_bodies* bodies = &w->bodies;
  const tb_shapes* shapes = &w->shapes;
  const tb_solver_params* sp = &w->def.solver;
  int32_t nb = plan->bodies, nc = d->constraint_count;
  /* the persistent islands of touching contacts and joints (src/solver/island.c): the awake
   * bodies of one island share a root */
  for (int32_t k = 0; k < nb; ++k) {
    int32_t id = bodies->island[d->sims[k].slot];
    int32_t root = id >= 0 ? bodies->solver_index[id] : -1;
    if (root >= 0) link(d->parent, k, root);
  }
  for (int32_t k = 0; k < nb; ++k) {
    d->sims[k].island = find_root(d->parent, k);
    d->sims[k].position_iterations = 0;
    d->sims[k].velocity_iterations = 1;
  }
  for (int32_t k = 0; k < nb; ++k) {
    int32_t slot = d->sims[k].slot, root = d->sims[k].island;
    int32_t pi = bodies->position_iterations[slot], vi = bodies->velocity_iterations[slot];
    if (pi < 0) pi = sp->position_iterations;
    if (vi < 0) vi = sp->velocity_iterations;
    if (pi > d->sims[root].position_iterations) d->sims[root].position_iterations = pi;
    if (vi > d->sims[root].velocity_iterations) d->sims[root].velocity_iterations = vi;
  }
  int32_t max_pos = 0, max_vel = 1, dyn_pos = 0, dyn_vel = 0, kinematic = 0;
  for (int32_t k = 0; k < nb; ++k) {
    tb_body_sim* sim = &d->sims[k];
    sim->position_iterations = d->sims[sim->island].position_iterations;
    sim->velocity_iterations = d->sims[sim->island].velocity_iterations;
    if (sim->inv_mass > 0.0f) {
      if (sim->position_iterations > dyn_pos) dyn_pos = sim->position_iterations;
      if (sim->velocity_iterations > dyn_vel) dyn_vel = sim->velocity_iterations;
    } else {
      ++kinematic;
    }
  }
  /* a serial pass over the constraints: only with a kinematic solver body to raise */
  for (int32_t i = 0; kinematic > 0 && i < nc; ++i) {
    int32_t m = d->constraint_manifold[i];
    int32_t a = bodies->solver_index[shapes->body[w->pairs[m].shape0]];
    int32_t b = bodies->solver_index[shapes->body[w->pairs[m].shape1]];
    int32_t dyn = d->body_a[i] >= 0 ? d->body_a[i] : d->body_b[i];
    if (dyn < 0) continue;
    int32_t kin = a >= 0 && d->sims[a].inv_mass == 0.0f ? a : (b >= 0 && d->sims[b].inv_mass == 0.0f ? b : -1);
    if (kin >= 0 && d->sims[dyn].position_iterations > d->sims[kin].position_iterations)
      d->sims[kin].position_iterations = d->sims[dyn].position_iterations;
  }
  for (int32_t k = 0; k < nb; ++k)
    if (d->sims[k].position_iterations > max_pos) max_pos = d->sims[k].position_iterations;
  for (int32_t k = 0; k < nb; ++k)
    if (d->sims[k].velocity_iterations > max_vel) max_vel = d->sims[k].velocity_iterations;
  plan->max_pos = max_pos;
  plan->max_vel = max_vel;
  plan->dyn_pos = dyn_pos;
  plan->dyn_vel = dyn_vel;
}

/* Packing buckets: each colour's constraints in two halves, those whose first dynamic body (the
 * lower solver index of the two) is in the first half of the solver bodies and the others, each
 * in four classes by their manifold's point count, so that a wide's lanes have about as many
 * points (the rows run to the largest); then the overflow colour, whose order is kept (its lanes
 * may share bodies: they are solved one after the other). Lanes are independent within a colour,
 * so the order there changes no result. The halves are for the threads: two threads split a
 * colour's iteration near its middle (one claims from the front, the other from the back:
 * jobs.c) and the passes over the bodies at theirs, and bodies near each other in body order are
 * mostly near each other in space, so each thread keeps to about the same bodies in every colour
 * and stage, and their data stays in its core's cache instead of moving between the cores
 * (bench/RESULTS.md "perf14"). */
#define TB_POINT_CLASSES TB_MAX_MANIFOLD_POINTS
#define TB_COLOR_BUCKETS (2 * TB_POINT_CLASSES)
#define TB_PACK_BUCKETS (TB_GRAPH_COLORS * TB_COLOR_BUCKETS + 1)

/* Bucket of constraint i; split: the first solver body of the second half. */
static inline int32_t pack_bucket(const tb_world* w, const tb_solver_data* d, int32_t i, int32_t split) {
  int32_t c = d->color[i];
  if (c == TB_OVERFLOW_COLOR) return TB_PACK_BUCKETS - 1;
  int32_t points = w->pairs[d->constraint_manifold[i]].points;
  int32_t a = d->body_a[i], b = d->body_b[i];
  int32_t first = a >= 0 && b >= 0 ? (a < b ? a : b) : (a > b ? a : b);
  return c * TB_COLOR_BUCKETS + (first >= split ? TB_POINT_CLASSES : 0) + (points > 1 ? points - 1 : 0);
}

/* Job over constraints [begin, end), one packing chunk: each manifold into the next lane of its
 * bucket's slots from the chunk's first slot (constraint order within a bucket), four to a wide
 * (the overflow colour's too: solve_overflow_job solves its lanes one by one), with what its rows
 * read of the pair (tb_physx_wide_pairs): its bodies, its combined material, its active points and
 * its row in the last step's anchor cache, by a merge walk (constraints and cache rows both
 * ascend in pair order) instead of a binary search per lane, whose branches went either way at
 * random. */
static void pack_wides_job(int32_t begin, int32_t end, void* vctx) {
  const tb_physx_prep* pc = (const tb_physx_prep*)vctx;
  const tb_world* w = pc->w;
  tb_solver_data* d = pc->d;
  const tb_shapes* s = &w->shapes;
  const int32_t* solver_index = w->bodies.solver_index;
  const tb_anchor_cache* prev = &d->anchors[d->anchors_prev];
  int32_t fill[TB_PACK_BUCKETS];
  memcpy(fill, &d->pack_fill[begin / TB_PACK_CHUNK * TB_PACK_BUCKETS], sizeof fill);
  int32_t row = -1;
  for (int32_t i = begin; i < end; ++i) {
    int32_t k = pack_bucket(w, d, i, pc->split), m = d->constraint_manifold[i];
    int32_t slot = fill[k]++;
    int32_t wi = slot / TB_LANES, l = slot % TB_LANES;
    tb_physx_wide_pairs* in = &d->wide_pairs[wi];
    in->manifold[l] = m;
    d->manifold_wide[m] = slot;
    int32_t s0 = w->pairs[m].shape0, s1 = w->pairs[m].shape1;
    int32_t a = s->body[s0], b = s->body[s1];
    in->slot_a[l] = a;
    in->slot_b[l] = b;
    in->solver_a[l] = solver_index[a];
    in->solver_b[l] = solver_index[b];
    const tb_contact_material* mat = tb_pair_material(w, m);
    float mu_d = mat->dynamic_friction > 0.0f ? mat->dynamic_friction : 0.0f;
    in->mu_dynamic[l] = mu_d;
    in->mu_static[l] = mat->static_friction > mu_d ? mat->static_friction : mu_d;
    in->flags[l] = mat->flags;
    in->active[l] = w->pairs[m].active;
    in->restitution[l] = mat->restitution;
    in->stiffness[l] = mat->stiffness;
    in->damping[l] = mat->damping;
    uint64_t key = tb_pair_match_key(s, s0, s1);
    if (row < 0) row = tb_lower_bound_u64(prev->key, prev->pair_count, key);
    while (row < prev->pair_count && prev->key[row] < key) ++row;
    in->cache_row[l] = row < prev->pair_count && prev->key[row] == key ? row : -1;
  }
}

/* the anchor rows a wide with rows for `points` points holds */
static inline int32_t anchor_rows_of(int32_t points) { return points < TB_MAX_ANCHORS ? points : TB_MAX_ANCHORS; }

/* The rows of each wide in the pools: a wide holds the points of its lanes' largest point class
 * (a bucket of pack_fill is one colour, half and point class; a wide may span two buckets) and
 * min(points, 2) anchors, wide after wide in wide order, which the iterations walk; bucket_slots:
 * each bucket's lane slots [first, end). */
static int place_rows(tb_solver_data* d, int32_t wide_count, const int32_t bucket_slots[TB_PACK_BUCKETS][2]) {
  for (int32_t wi = 0; wi < wide_count; ++wi) d->wide_points[wi] = 1;
  for (int32_t k = 0; k < TB_PACK_BUCKETS; ++k) {
    int32_t points = k == TB_PACK_BUCKETS - 1 ? TB_MAX_MANIFOLD_POINTS : k % TB_POINT_CLASSES + 1;
    for (int32_t wi = bucket_slots[k][0] / TB_LANES; wi < (bucket_slots[k][1] + TB_LANES - 1) / TB_LANES; ++wi)
      if (d->wide_points[wi] < points) d->wide_points[wi] = points;
  }
  int32_t np = 0, na = 0;
  for (int32_t wi = 0; wi < wide_count; ++wi) {
    np += d->wide_points[wi];
    na += anchor_rows_of(d->wide_points[wi]);
  }
  if (wide_count == 0) return 1;
  if (!reserve_aligned(&d->points_block, (void**)&d->points, &d->points_capacity, np, sizeof(tb_contact_point_wide)) ||
      !reserve_aligned(&d->anchor_rows_block, (void**)&d->anchor_rows, &d->anchor_rows_capacity, na, sizeof(tb_anchor_wide)))
    return 0;
  np = na = 0;
  for (int32_t wi = 0; wi < wide_count; ++wi) {
    d->wides[wi].p = d->points + np;
    d->wides[wi].a = d->anchor_rows + na;
    np += d->wide_points[wi];
    na += anchor_rows_of(d->wide_points[wi]);
  }
  return 1;
}

/* Colours the constraints so that a colour shares no dynamic body and places each colour's
 * manifolds four to a wide constraint, with the wides' rows in the pools (pack_wides_job then
 * fills the lanes). */
static tb_status build_wides(tb_physx_prep* pc, tb_physx_plan* plan) {
  tb_world* w = pc->w;
  tb_solver_data* d = pc->d;
  int32_t nb = plan->bodies, nc = d->constraint_count;
  if (!reserve((void**)&d->color_used, &d->color_used_capacity, nb > 0 ? nb : 1, sizeof(uint32_t)))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "solve: out of memory for the constraint graph");
  memset(d->color_used, 0, (size_t)nb * sizeof(uint32_t));
  tb_color_constraints(nc, d->body_a, d->body_b, d->color_used, d->color);

  /* constraints per packing chunk and bucket (counted here: a pass of a few instructions per
   * constraint costs less than a job's barrier), their sums per bucket, then each chunk's first
   * lane slot (wide * 4 + lane) in its buckets (an exclusive prefix over the chunks and buckets):
   * the slots do not depend on the thread count */
  int32_t chunks = (nc + TB_PACK_CHUNK - 1) / TB_PACK_CHUNK;
  if (!reserve((void**)&d->pack_fill, &d->pack_capacity, chunks * TB_PACK_BUCKETS, sizeof(int32_t)))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "solve: out of memory for the constraint graph");
  if (chunks > 0) memset(d->pack_fill, 0, (size_t)chunks * TB_PACK_BUCKETS * sizeof(int32_t));
  pc->split = (nb + 1) / 2;
  for (int32_t i = 0; i < nc; ++i) d->pack_fill[i / TB_PACK_CHUNK * TB_PACK_BUCKETS + pack_bucket(w, d, i, pc->split)]++;
  int32_t* per_color = plan->per_color;
  int32_t wide_count = 0, mid[TB_GRAPH_COLORS + 1]; /* per colour: its first wide of the second half */
  int32_t bucket_slots[TB_PACK_BUCKETS][2]; /* each bucket's lane slots [first, end) */
  for (int32_t c = 0; c <= TB_GRAPH_COLORS; ++c) {
    int32_t overflow = c == TB_OVERFLOW_COLOR;
    int32_t first = overflow ? TB_PACK_BUCKETS - 1 : c * TB_COLOR_BUCKETS, last = overflow ? TB_PACK_BUCKETS : first + TB_COLOR_BUCKETS;
    int32_t run = 0, half_run = 0;
    for (int32_t k = first; k < last; ++k) {
      if (!overflow && k == first + TB_POINT_CLASSES) half_run = run;
      bucket_slots[k][0] = wide_count * TB_LANES + run;
      for (int32_t ch = 0; ch < chunks; ++ch) {
        int32_t* f = &d->pack_fill[ch * TB_PACK_BUCKETS + k];
        int32_t n = *f;
        *f = wide_count * TB_LANES + run;
        run += n;
      }
      bucket_slots[k][1] = wide_count * TB_LANES + run;
    }
    per_color[c] = run;
    d->color_start[c] = wide_count;
    /* a wide with lanes of both halves goes with the first; the overflow colour has no halves */
    mid[c] = wide_count + (half_run + TB_LANES - 1) / TB_LANES;
    wide_count += (run + TB_LANES - 1) / TB_LANES;
  }
  d->color_start[TB_GRAPH_COLORS + 1] = wide_count;
  const tb_array_ref wa[] = {{(void**)&d->wide_pairs, sizeof(tb_physx_wide_pairs)}, {(void**)&d->wide_order, sizeof(int32_t)},
                             {(void**)&d->wide_points, sizeof(int32_t)}};
  if (!reserve_arrays(wa, 3, &d->wide_capacity, wide_count) ||
      !reserve_aligned(&d->wides_block, (void**)&d->wides, &d->wides_block_capacity, wide_count, sizeof(tb_contact_wide)))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "solve: out of memory for %d constraints", wide_count);
  plan->wide_count = wide_count;
  if (!place_rows(d, wide_count, bucket_slots))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "solve: out of memory for the rows of %d constraints", wide_count);
  /* empty lanes: the rest of each colour's last wide */
  for (int32_t c = 0; c <= TB_GRAPH_COLORS; ++c) {
    int32_t first = d->color_start[c], end = d->color_start[c + 1];
    if (end > first)
      for (int32_t lane = per_color[c] % TB_LANES; lane > 0 && lane < TB_LANES; ++lane) d->wide_pairs[end - 1].manifold[lane] = -1;
  }
  /* the first halves of every colour, then the second halves (the overflow's wides last) */
  int32_t n = 0;
  for (int32_t h = 0; h < 2; ++h)
    for (int32_t c = 0; c <= TB_GRAPH_COLORS; ++c) {
      int32_t from = h ? mid[c] : d->color_start[c], to = h ? d->color_start[c + 1] : mid[c];
      for (int32_t wi = from; wi < to; ++wi) d->wide_order[n++] = wi;
    }
  return TB_OK;
}

/* The caller's side of the bodies' preparation (tb_parallel_for_beside): the constraints listed,
 * coloured and placed, from the slots' arrays and the pairs; prepare_bodies_job writes the sims,
 * states and island parents, which this neither reads nor writes. */
static void place_constraints(void* vpc) {
  tb_physx_prep* pc = (tb_physx_prep*)vpc;
  list_constraints(pc->w, pc->d);
  pc->status = build_wides(pc, pc->plan);
}

/* The caller's side of the packing: the islands read and write the sims, which pack_wides_job
 * neither reads nor writes. */
static void islands_side(void* vpc) {
  tb_physx_prep* pc = (tb_physx_prep*)vpc;
  build_islands(pc->w, pc->d, pc->plan);
}

/* Prepare: solver bodies with gravity and damping on their velocities, islands, colours and
 * wides, then the lanes' rows from the manifolds (masses, bias rates, anchors, restitution,
 * springs). */
static tb_status prepare(tb_world* w, const tb_step_context* step, int tgs, tb_physx_ctx* ctx, tb_physx_plan* plan) {
  tb_solver_data* d = w->solver;
  const tb_solver_params* sp = &w->def.solver;
  tb_vec3 gravity = tb_v3(w->def.gravity[0], w->def.gravity[1], w->def.gravity[2]);
  int ext_every = tgs && sp->external_forces_every_iteration;
  tb_physx_prep pc = {w, d, step->dt, ext_every, gravity, 0, plan, TB_OK};
  tb_status st = index_bodies(&pc, plan);
  if (st != TB_OK) return st;
  /* serial work beside each job, on the caller while the other threads start its chunks (about
   * 7 % of a two-thread pile's step was the caller's serial preparation between jobs: bench/RESULTS.md
   * "perf37", "perf39") */
  tb_parallel_for_beside(w->bodies.count, TB_BODY_CHUNK, step->thread_count, prepare_bodies_job, &pc, place_constraints, &pc);
  if (pc.status != TB_OK) return pc.status;
  tb_parallel_for_beside(d->constraint_count, TB_PACK_CHUNK, step->thread_count, pack_wides_job, &pc, islands_side, &pc);

  memset(ctx, 0, sizeof *ctx);
  ctx->w = w;
  ctx->d = d;
  ctx->step = step;
  ctx->h = step->dt;
  ctx->tgs = tgs;
  ctx->ext_every = ext_every;
  ctx->gravity = gravity;
  ctx->zero_state = plan->bodies;
  tb_parallel_for(plan->wide_count, TB_WIDE_CHUNK, step->thread_count, tb_physx_prepare_rows_job, ctx);
  return tb_physx_joints_prepare(ctx);
}

/* Iterate: the position iterations with bias (TGS: each an internal step of h/N, with gravity
 * a·h/N when so set and the poses advanced after it), PGS saves the motion velocities (m/s,
 * rad/s), then the velocity iterations without bias and without pose advance. */
static void iterate(tb_physx_ctx* ctx, const tb_physx_plan* plan) {
  int32_t threads = ctx->step->thread_count, nb = plan->bodies;
  for (int32_t k = 0; k < plan->max_pos; ++k) {
    ctx->iteration = k;
    ctx->velocity_phase = 0;
    if (ctx->ext_every) tb_parallel_for(nb, TB_BODY_CHUNK, threads, tgs_gravity_job, ctx);
    tb_physx_joints_solve(ctx);
    for_each_color(ctx);
    if (ctx->tgs) tb_parallel_for(nb, TB_BODY_CHUNK, threads, tgs_integrate_job, ctx);
  }
  if (!ctx->tgs) tb_parallel_for(nb, TB_BODY_CHUNK, threads, pgs_save_motion_job, ctx);
  for (int32_t k = 0; k < plan->max_vel; ++k) {
    ctx->iteration = k;
    ctx->velocity_phase = 1;
    tb_physx_joints_solve(ctx);
    for_each_color(ctx);
  }
}

/* Integrate: PGS advances the solver bodies' poses by h with the motion velocities (TGS advanced
 * them in each internal step); the body fields still hold the step's start poses. */
static void integrate(tb_physx_ctx* ctx, const tb_physx_plan* plan) {
  if (!ctx->tgs) tb_parallel_for(plan->bodies, TB_BODY_CHUNK, ctx->step->thread_count, pgs_integrate_job, ctx);
}

/* The solver bodies' poses (m) and velocities (m/s, rad/s) into the body fields. */
static void write_bodies_job(int32_t begin, int32_t end, void* vctx) {
  tb_physx_ctx* ctx = (tb_physx_ctx*)vctx;
  for (int32_t k = begin; k < end; ++k) {
    const tb_body_sim* sim = &ctx->d->sims[k];
    const tb_body_state* st = &ctx->d->states[k];
    tb_body_write_state(&ctx->w->bodies, sim->slot, tb_add(sim->center, st->dp), sim->q, st->v, st->w);
  }
}

/* Readback: impulses into the contact store (N·s, at the start poses), then the poses (m) and
 * velocities (m/s, rad/s) into the body fields, the readback convention, solver status (its
 * residuals owed until it is read), and the step's statistics. */
static void readback(tb_physx_ctx* ctx, const tb_physx_plan* plan) {
  tb_world* w = ctx->w;
  const tb_solver_params* sp = &w->def.solver;
  int tgs = ctx->tgs;
  tb_physx_readback_contacts(ctx);
  tb_physx_joints_readback(ctx);

  tb_parallel_for(plan->bodies, TB_BODY_CHUNK, ctx->step->thread_count, write_bodies_job, ctx);

  /* no awake body (a sleeping scene): the internal steps the world's request would run */
  int32_t internal = plan->max_pos > 0 ? plan->max_pos : sp->position_iterations;
  tb_readback_set(w, TB_READBACK_PHYSX, TB_RB_PER_CONTACT | TB_RB_FRICTION | TB_RB_RESTITUTION, tgs ? internal : 1, 1.0f);
  /* fixed iteration counts, no tolerance (physx-e3 §5.3) */
  tb_solver_status_set(w, tgs ? TB_SOLVER_TGS : TB_SOLVER_PGS, plan->dyn_pos > 0 ? plan->dyn_pos : sp->position_iterations,
                       plan->dyn_vel > 0 ? plan->dyn_vel : (sp->velocity_iterations > 1 ? sp->velocity_iterations : 1),
                       TB_CONVERGED_UNDEFINED, NAN, NAN);
  w->status_owed = 1; /* the residuals, when the status is read (tb_solver_status_ready) */

  int32_t colors = 0;
  for (int32_t c = 0; c < TB_GRAPH_COLORS; ++c) colors += plan->per_color[c] > 0;
  w->stats.threads_used = tb_jobs_threads_used();
  w->stats.color_count = colors;
  w->stats.overflow_constraints = plan->per_color[TB_OVERFLOW_COLOR];
  w->stats.manifold_count = ctx->d->constraint_count;
  w->stats.substeps = tgs ? internal : 1;
  w->collided = 0;
}

static tb_status solve_physx(tb_world* w, const tb_step_context* step, int tgs) {
  tb_physx_ctx ctx;
  tb_physx_plan plan;
  memset(&plan, 0, sizeof plan);
  tb_status st = prepare(w, step, tgs, &ctx, &plan);
  if (st != TB_OK) return st;
  iterate(&ctx, &plan);
  integrate(&ctx, &plan);
  readback(&ctx, &plan);
  return TB_OK;
}

tb_status tb_solve_pgs(tb_world* w, const tb_step_context* step) { return solve_physx(w, step, 0); }
tb_status tb_solve_tgs(tb_world* w, const tb_step_context* step) { return solve_physx(w, step, 1); }

/* ---- snapshots: the anchor cache the next step reads (anchors[anchors_prev]) ---- */

void tb_solver_save(const tb_world* w, tb_serial* s) {
  const tb_anchor_cache* a = &w->solver->anchors[w->solver->anchors_prev];
  tb_anchor_cache copy = *a;
  tb_array_ref r[5];
  int n = anchor_cache_arrays(&copy, r);
  tb_put_i32(s, a->pair_count);
  for (int i = 0; i < n; ++i) tb_put(s, *r[i].ptr, (size_t)a->pair_count * r[i].elem_size);
}

int tb_solver_load(tb_world* w, tb_serial* s) {
  tb_solver_data* d = w->solver;
  tb_anchor_cache* a = &d->anchors[0];
  int32_t n = tb_get_i32(s, 0, INT32_MAX / 64);
  tb_array_ref r[5];
  int na = anchor_cache_arrays(a, r);
  if (s->failed || !reserve_arrays(r, na, &a->capacity, n)) return 0;
  for (int i = 0; i < na; ++i) tb_get(s, *r[i].ptr, (size_t)n * r[i].elem_size);
  for (int32_t k = 0; k < n && !s->failed; ++k) {
    if (a->count[k] < 1 || a->count[k] > TB_MAX_ANCHORS || (k > 0 && a->key[k] <= a->key[k - 1])) s->failed = 1;
    /* a kept anchor's body-local points are replayed as they are */
    for (int32_t q = 0; q < a->count[k] && !s->failed; ++q) {
      if (!tb_vec3_is_finite(a->local_a[TB_MAX_ANCHORS * k + q]) || !tb_vec3_is_finite(a->local_b[TB_MAX_ANCHORS * k + q]))
        s->failed = 1;
    }
  }
  a->pair_count = n;
  d->anchors_prev = 0;
  return !s->failed;
}
