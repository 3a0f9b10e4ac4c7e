/* solve(): the PhysX PGS and TGS contact solvers and the PhysX readback (seed physx-e3 §4–7).
 *
 * Per step of length h:
 *   bodies: gravity (TGS: once, or a·h/N before each internal step) and damping max(1 − d·h, 0);
 *   islands: dynamic bodies linked by contacts (static bodies do not link); each island runs the
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
 * of four-lane wide constraints, in parallel, with the same result for any thread count. */
#include "solver.h"

#include <math.h>
#include <string.h>

#include "../core/jobs.h"
#include "../model/material.h"
#include "constraint_graph.h"
#include "contact_solver.h"

#define TB_BODY_CHUNK 64
#define TB_WIDE_CHUNK 8
#define TB_PGS_FRICTION_ITERATIONS 3 /* PGS friction runs in the last three position iterations */
#define TB_SLIP_DIRECTION_SPEED 1e-3f /* m/s: slower slip keeps the fixed tangent basis (no flips from noise) */

/* Strong friction (seed §4.3): the anchors of patches that stuck in the last step, by pair key
 * (ascending), with their points in each body's frame, so that they are kept and their drift is
 * corrected while they stick. */
typedef struct tb_anchor_cache {
  uint64_t* key;       /* per patch: (shape0 << 32) | shape1 */
  int32_t* count;      /* per patch: anchors, 1 or 2 */
  uint32_t* feature;   /* per anchor (2 per patch): feature id of the anchor's contact point */
  tb_vec3* local_a;    /* per anchor: the anchor in body A's frame (shape0's body), m */
  tb_vec3* local_b;    /* per anchor: the anchor in body B's frame, m */
  int32_t pair_count, capacity;
} tb_anchor_cache;

typedef struct tb_solver_data {
  tb_body_state* states;
  tb_body_sim* sims;
  int32_t* parent;           /* per solver body: union-find parent for the islands */
  int32_t body_capacity;
  int32_t* body_a;           /* per constraint (manifold with points): dynamic solver index or -1 */
  int32_t* body_b;
  int32_t* constraint_manifold;
  int32_t* color;
  int32_t* manifold_wide;    /* per pair: wide * 4 + lane, -1 when the manifold is empty */
  int32_t constraint_capacity, manifold_capacity;
  uint64_t* bits;
  int32_t bits_capacity;
  tb_contact_wide* wides;
  int32_t wide_capacity;
  int32_t color_start[TB_GRAPH_COLORS + 2]; /* wide ranges per colour; the last is the overflow */
  tb_anchor_cache anchors[2]; /* the last step's (read) and this step's (written), swapped */
  int32_t anchors_prev;
} tb_solver_data;

static int anchor_cache_arrays(tb_anchor_cache* a, tb_array_ref* out) {
  const tb_array_ref r[] = {{(void**)&a->key, sizeof(uint64_t)},
                            {(void**)&a->count, sizeof(int32_t)},
                            {(void**)&a->feature, TB_MAX_ANCHORS * sizeof(uint32_t)},
                            {(void**)&a->local_a, TB_MAX_ANCHORS * sizeof(tb_vec3)},
                            {(void**)&a->local_b, TB_MAX_ANCHORS * sizeof(tb_vec3)}};
  for (int i = 0; i < 5; ++i) out[i] = r[i];
  return 5;
}

/* Patch index of key in the cache, -1 when absent (binary search: keys ascend). */
static int32_t anchor_cache_find(const tb_anchor_cache* a, uint64_t key) {
  int32_t lo = 0, hi = a->pair_count - 1;
  while (lo <= hi) {
    int32_t mid = (lo + hi) / 2;
    if (a->key[mid] == key) return mid;
    if (a->key[mid] < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

int tb_solver_create(tb_world* w) {
  w->solver = (tb_solver_data*)tb_alloc_zero(sizeof(tb_solver_data));
  return w->solver != NULL;
}

void tb_solver_destroy(tb_world* w) {
  tb_solver_data* d = w->solver;
  if (!d) return;
  tb_free(d->states, (size_t)d->body_capacity * sizeof(tb_body_state));
  tb_free(d->sims, (size_t)d->body_capacity * sizeof(tb_body_sim));
  tb_free(d->parent, (size_t)d->body_capacity * sizeof(int32_t));
  tb_free(d->body_a, (size_t)d->constraint_capacity * sizeof(int32_t));
  tb_free(d->body_b, (size_t)d->constraint_capacity * sizeof(int32_t));
  tb_free(d->constraint_manifold, (size_t)d->constraint_capacity * sizeof(int32_t));
  tb_free(d->color, (size_t)d->constraint_capacity * sizeof(int32_t));
  tb_free(d->manifold_wide, (size_t)d->manifold_capacity * sizeof(int32_t));
  tb_free(d->bits, (size_t)d->bits_capacity * sizeof(uint64_t));
  tb_free(d->wides, (size_t)d->wide_capacity * sizeof(tb_contact_wide));
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

static int reserve_many(tb_solver_data* d, int32_t bodies, int32_t constraints, int32_t manifolds) {
  const tb_array_ref b[] = {{(void**)&d->states, sizeof(tb_body_state)},
                            {(void**)&d->sims, sizeof(tb_body_sim)},
                            {(void**)&d->parent, sizeof(int32_t)}};
  const tb_array_ref c[] = {{(void**)&d->body_a, sizeof(int32_t)}, {(void**)&d->body_b, sizeof(int32_t)},
                            {(void**)&d->constraint_manifold, sizeof(int32_t)}, {(void**)&d->color, sizeof(int32_t)}};
  tb_array_ref a0[5], a1[5];
  int na0 = anchor_cache_arrays(&d->anchors[0], a0), na1 = anchor_cache_arrays(&d->anchors[1], a1);
  return reserve_arrays(b, 3, &d->body_capacity, bodies) && reserve_arrays(c, 4, &d->constraint_capacity, constraints) &&
         reserve((void**)&d->manifold_wide, &d->manifold_capacity, manifolds, sizeof(int32_t)) &&
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

static int manifold_has_active_point(const tb_manifold* m) {
  for (int32_t j = 0; j < m->point_count; ++j)
    if (m->points[j].active) return 1;
  return 0;
}

/* ---- jobs ---- */

typedef struct solve_ctx {
  tb_world* w;
  tb_solver_data* d;
  float h;                  /* step, s */
  int tgs;
  int ext_every;            /* TGS: gravity before each internal step */
  tb_vec3 gravity;
  int32_t iteration;        /* current position / velocity iteration */
  tb_contact_pass pass;     /* per wide: lanes filled by the job */
  int velocity_phase;
  int32_t wide_base;        /* first wide of the colour being solved */
} solve_ctx;

/* Gravity (unless TGS applies it per internal step) and damping v·max(1 − d·h, 0) (seed §6). */
static void pre_integrate_job(int32_t begin, int32_t end, void* vctx) {
  solve_ctx* ctx = (solve_ctx*)vctx;
  float h = ctx->h;
  for (int32_t i = begin; i < end; ++i) {
    tb_body_sim* sim = &ctx->d->sims[i];
    tb_body_state* st = &ctx->d->states[i];
    if (sim->inv_mass == 0.0f) continue; /* kinematic: keeps its velocity */
    tb_vec3 v = ctx->ext_every ? st->v : tb_mul_add(st->v, h, ctx->gravity);
    float dl = 1.0f - sim->linear_damping * h, da = 1.0f - sim->angular_damping * h;
    st->v = tb_scale(v, dl > 0.0f ? dl : 0.0f);
    st->w = tb_scale(st->w, da > 0.0f ? da : 0.0f);
  }
}

/* Rotation by a constant angular velocity w over hs: q+ = Δq ⊗ q with
 * Δq = (ŵ sin(|w|hs/2), cos(|w|hs/2)), the identity for w = 0 (seed §6). */
static tb_quat integrate_rotation(tb_quat q, tb_vec3 w, float hs) {
  float len = tb_length(w);
  if (len == 0.0f) return q;
  float half = 0.5f * len * hs, s = sinf(half) / len;
  tb_quat dq = {w.x * s, w.y * s, w.z * s, cosf(half)};
  return tb_quat_normalize(tb_quat_mul(dq, q));
}

static void advance(tb_body_sim* sim, tb_body_state* st, tb_vec3 v, tb_vec3 av, float hs) {
  st->dp = tb_mul_add(st->dp, hs, v);
  st->dtheta = tb_mul_add(st->dtheta, hs, av);
  sim->q = integrate_rotation(sim->q, av, hs);
}

/* TGS: gravity a·h/N before the internal step (when so set). */
static void tgs_gravity_job(int32_t begin, int32_t end, void* vctx) {
  solve_ctx* ctx = (solve_ctx*)vctx;
  for (int32_t i = begin; i < end; ++i) {
    tb_body_sim* sim = &ctx->d->sims[i];
    if (sim->inv_mass == 0.0f || ctx->iteration >= sim->position_iterations) continue;
    float hs = ctx->h / (float)sim->position_iterations;
    ctx->d->states[i].v = tb_mul_add(ctx->d->states[i].v, hs, ctx->gravity);
  }
}

/* TGS: poses advance by one internal step h/N of the body's island. */
static void tgs_integrate_job(int32_t begin, int32_t end, void* vctx) {
  solve_ctx* ctx = (solve_ctx*)vctx;
  for (int32_t i = begin; i < end; ++i) {
    tb_body_sim* sim = &ctx->d->sims[i];
    if (ctx->iteration >= sim->position_iterations) continue;
    tb_body_state* st = &ctx->d->states[i];
    advance(sim, st, st->v, st->w, ctx->h / (float)sim->position_iterations);
  }
}

static void pgs_save_motion_job(int32_t begin, int32_t end, void* vctx) {
  solve_ctx* ctx = (solve_ctx*)vctx;
  for (int32_t i = begin; i < end; ++i) {
    ctx->d->states[i].mv = ctx->d->states[i].v;
    ctx->d->states[i].mw = ctx->d->states[i].w;
  }
}

/* PGS: poses advance by h with the motion velocities of the position iterations. */
static void pgs_integrate_job(int32_t begin, int32_t end, void* vctx) {
  solve_ctx* ctx = (solve_ctx*)vctx;
  for (int32_t i = begin; i < end; ++i) {
    tb_body_state* st = &ctx->d->states[i];
    advance(&ctx->d->sims[i], st, st->mv, st->mw, ctx->h);
  }
}

/* Which lanes of a wide take part in this iteration, and whether their friction rows run. */
static void make_pass(const solve_ctx* ctx, const tb_contact_wide* c, tb_contact_pass* pass) {
  const tb_solver_params* sp = &ctx->w->def.solver;
  pass->biased = !ctx->velocity_phase;
  pass->pair_clamp = ctx->tgs;
  /* TGS: friction before the normal rows (bounded by the normal impulse so far) so that the
   * normal rows have the last word on the pose; the first iteration has no normal impulse yet
   * and runs the normal rows first */
  pass->friction_first = ctx->tgs && (ctx->velocity_phase || ctx->iteration > 0);
  /* TGS springs act once per internal step, so not again in the velocity iterations */
  pass->skip_compliant = ctx->tgs && ctx->velocity_phase;
  for (int l = 0; l < TB_LANES; ++l) {
    int32_t k = ctx->iteration;
    if (ctx->velocity_phase) {
      pass->active[l] = k < c->velocity_iterations[l] ? 1.0f : 0.0f;
      pass->friction[l] = 1.0f;
    } else {
      int32_t n = c->position_iterations[l];
      pass->active[l] = k < n ? 1.0f : 0.0f;
      int every = ctx->tgs || sp->friction_every_iteration;
      pass->friction[l] = every || k >= n - TB_PGS_FRICTION_ITERATIONS ? 1.0f : 0.0f;
    }
  }
}

static void solve_job(int32_t begin, int32_t end, void* vctx) {
  solve_ctx* ctx = (solve_ctx*)vctx;
  for (int32_t i = begin; i < end; ++i) {
    tb_contact_wide* c = &ctx->d->wides[ctx->wide_base + i];
    tb_contact_pass pass;
    make_pass(ctx, c, &pass);
    tb_contact_solve(c, ctx->d->states, &pass);
  }
}

/* Runs the wide-constraint job colour by colour; the overflow colour runs on one thread. */
static void for_each_color(solve_ctx* ctx) {
  tb_solver_data* d = ctx->d;
  for (int32_t c = 0; c <= TB_GRAPH_COLORS; ++c) {
    int32_t begin = d->color_start[c], end = d->color_start[c + 1];
    if (end <= begin) continue;
    ctx->wide_base = begin;
    int32_t threads = c == TB_OVERFLOW_COLOR ? 1 : ctx->w->def.thread_count;
    tb_parallel_for(end - begin, TB_WIDE_CHUNK, threads, solve_job, ctx);
  }
}

static void set3(float a[3][TB_LANES], int l, tb_vec3 v) { a[0][l] = v.x; a[1][l] = v.y; a[2][l] = v.z; }

static tb_vec3 sym_mul(const float m[6], tb_vec3 v) {
  return tb_v3(m[0] * v.x + m[3] * v.y + m[4] * v.z, m[3] * v.x + m[1] * v.y + m[5] * v.z,
               m[4] * v.x + m[5] * v.y + m[2] * v.z);
}

/* Unit response of a row along d at arms ra, rb (1/kg): 1/mA + 1/mB + (rA×d)ᵀIA⁻¹(rA×d) + ... */
static float unit_response(float ima, float imb, const float ia[6], const float ib[6], tb_vec3 ra, tb_vec3 rb, tb_vec3 dir,
                           tb_vec3* cra, tb_vec3* crb) {
  *cra = tb_cross(ra, dir);
  *crb = tb_cross(rb, dir);
  return ima + imb + tb_dot(*cra, sym_mul(ia, *cra)) + tb_dot(*crb, sym_mul(ib, *crb));
}

static tb_vec3 point_of(const tb_manifold_point* mp) { return tb_scale(tb_add(mp->point0, mp->point1), 0.5f); }


/* Strong friction: the last step's anchors of this patch when every one of them still has an
 * active point with its feature id; returns the count (0 = choose afresh) and the points. */
static int kept_anchors(const tb_anchor_cache* prev, int32_t ci, const tb_manifold* mf, int32_t out[TB_MAX_ANCHORS]) {
  int32_t n = prev->count[ci];
  for (int32_t q = 0; q < n; ++q) {
    out[q] = -1;
    for (int32_t j = 0; j < mf->point_count; ++j)
      if (mf->points[j].active && mf->points[j].feature_id == prev->feature[TB_MAX_ANCHORS * ci + q]) { out[q] = j; break; }
    if (out[q] < 0) return 0;
  }
  if (n == 2 && out[0] == out[1]) return 0;
  return n;
}

/* Friction anchors of a patch (seed §4.3): one at the only active point, else the two active
 * points farthest apart (first pair in point order on ties). Returns the count. */
static int choose_anchors(const tb_manifold* mf, int32_t out[TB_MAX_ANCHORS]) {
  int32_t idx[TB_MAX_MANIFOLD_POINTS], n = 0;
  for (int32_t j = 0; j < mf->point_count; ++j)
    if (mf->points[j].active) idx[n++] = j;
  if (n == 0) return 0;
  out[0] = idx[0];
  if (n == 1) return 1;
  float best = -1.0f;
  for (int32_t i = 0; i < n; ++i)
    for (int32_t j = i + 1; j < n; ++j) {
      float d2 = tb_length_sq(tb_sub(point_of(&mf->points[idx[i]]), point_of(&mf->points[idx[j]])));
      if (d2 > best) { best = d2; out[0] = idx[i]; out[1] = idx[j]; }
    }
  return 2;
}

/* Fills the lane data of the wides from their manifolds. */
static void prepare_job(int32_t begin, int32_t end, void* vctx) {
  solve_ctx* ctx = (solve_ctx*)vctx;
  tb_world* w = ctx->w;
  tb_solver_data* d = ctx->d;
  const tb_solver_params* sp = &w->def.solver;
  const tb_shapes* s = &w->shapes;
  const tb_bodies* bodies = &w->bodies;
  for (int32_t wi = begin; wi < end; ++wi) {
    tb_contact_wide* c = &d->wides[wi];
    int32_t lanes[TB_LANES];
    memcpy(lanes, c->manifold, sizeof lanes);
    memset(c, 0, sizeof *c);
    memcpy(c->manifold, lanes, sizeof lanes);
    for (int l = 0; l < TB_LANES; ++l) {
      c->body_a[l] = c->body_b[l] = -1;
      c->anchor_point[0][l] = c->anchor_point[1][l] = -1;
      int32_t m = c->manifold[l];
      if (m < 0) continue;
      const tb_manifold* mf = &w->manifolds[m];
      int32_t s0 = w->pairs[m].shape0, s1 = w->pairs[m].shape1;
      int32_t a = bodies->solver_index[s->body[s0]], b = bodies->solver_index[s->body[s1]];
      c->body_a[l] = a;
      c->body_b[l] = b;
      const tb_body_sim* sa = a >= 0 ? &d->sims[a] : NULL;
      const tb_body_sim* sb = b >= 0 ? &d->sims[b] : NULL;
      float ia[6] = {0}, ib[6] = {0};
      if (sa) memcpy(ia, sa->inv_i, sizeof ia);
      if (sb) memcpy(ib, sb->inv_i, sizeof ib);
      float ima = sa ? sa->inv_mass : 0.0f, imb = sb ? sb->inv_mass : 0.0f;
      c->inv_mass_a[l] = ima;
      c->inv_mass_b[l] = imb;
      for (int k = 0; k < 6; ++k) { c->ia[k][l] = ia[k]; c->ib[k][l] = ib[k]; }

      /* iterations of the lane's island: its dynamic body's (both share one island) */
      const tb_body_sim* dyn = sb && sb->inv_mass > 0.0f ? sb : (sa && sa->inv_mass > 0.0f ? sa : (sb ? sb : sa));
      c->position_iterations[l] = dyn ? dyn->position_iterations : sp->position_iterations;
      c->velocity_iterations[l] = dyn ? dyn->velocity_iterations : 1;
      float hi = ctx->tgs ? ctx->h / (float)c->position_iterations[l] : ctx->h; /* one iteration's step */
      c->pen_rate[l] = sp->bias_coefficient / hi;
      c->spec_rate[l] = 1.0f / hi;
      c->max_depenetration[l] = sp->max_depenetration_velocity;

      /* max contact impulse: the smaller of the non-static bodies' caps */
      float cap = INFINITY;
      if (sa) cap = bodies->max_contact_impulse[sa->slot];
      if (sb && bodies->max_contact_impulse[sb->slot] < cap) cap = bodies->max_contact_impulse[sb->slot];
      c->max_impulse[l] = cap;

      /* combined by the world's combine rule during collide() */
      const tb_contact_material* mat = &w->manifold_material[m];
      int compliant = (mat->flags & TB_CONTACT_MATERIAL_COMPLIANT) != 0;
      c->compliant[l] = compliant ? 1.0f : 0.0f;
      float mu_d = mat->dynamic_friction > 0.0f ? mat->dynamic_friction : 0.0f;
      float mu_s = mat->static_friction > mu_d ? mat->static_friction : mu_d;
      c->mu_static[l] = mu_s;
      c->mu_dynamic[l] = mu_d;

      tb_vec3 n = mf->normal;
      tb_vec3 ca0 = sa ? sa->center : tb_v3(0, 0, 0), cb0 = sb ? sb->center : tb_v3(0, 0, 0);
      tb_vec3 va = sa ? d->states[a].v : tb_v3(0, 0, 0), wa = sa ? d->states[a].w : tb_v3(0, 0, 0);
      tb_vec3 vb = sb ? d->states[b].v : tb_v3(0, 0, 0), wb = sb ? d->states[b].w : tb_v3(0, 0, 0);
      /* with gravity per internal step the approach speed still counts the whole step's a·h */
      float gb = imb > 0.0f ? 1.0f : 0.0f, ga = ima > 0.0f ? 1.0f : 0.0f;
      tb_vec3 dg = ctx->ext_every ? tb_scale(ctx->gravity, ctx->h * (gb - ga)) : tb_v3(0, 0, 0);

      int32_t anchors[TB_MAX_ANCHORS] = {-1, -1};
      int na = (mat->flags & TB_CONTACT_MATERIAL_NO_FRICTION) ? 0 : choose_anchors(mf, anchors);
      /* strong friction keeps the anchors of a patch that stuck (unless a material disables it) */
      c->strong[l] = na > 0 && !(mat->flags & TB_CONTACT_MATERIAL_NO_STRONG_FRICTION);
      c->kept[l] = -1;
      if (c->strong[l]) {
        const tb_anchor_cache* prev = &d->anchors[d->anchors_prev];
        int32_t ci = anchor_cache_find(prev, tb_pair_match_key(s, w->pairs[m].shape0, w->pairs[m].shape1));
        int32_t pts[TB_MAX_ANCHORS];
        int nk = ci >= 0 ? kept_anchors(prev, ci, mf, pts) : 0;
        if (nk > 0) {
          na = nk;
          anchors[0] = pts[0];
          anchors[1] = nk > 1 ? pts[1] : -1;
          c->kept[l] = ci;
          c->anchor_bias[l] = c->pen_rate[l]; /* the penetration's bias rate, per iteration step */
        }
      }
      /* tangent t0 along the patch's slip velocity (at the first anchor) so that a sliding
       * anchor's PGS rows resist the slip along one row; any basis when not slipping */
      tb_vec3 t0, t1;
      tb_basis(n, &t0, &t1);
      if (na > 0) {
        tb_vec3 x = point_of(&mf->points[anchors[0]]);
        tb_vec3 dv = tb_sub(tb_add(vb, tb_cross(wb, tb_sub(x, cb0))), tb_add(va, tb_cross(wa, tb_sub(x, ca0))));
        dv = tb_add(dv, dg);
        tb_vec3 vt = tb_sub(dv, tb_scale(n, tb_dot(dv, n)));
        float lt = tb_length(vt);
        if (lt > TB_SLIP_DIRECTION_SPEED) {
          t0 = tb_scale(vt, 1.0f / lt);
          t1 = tb_cross(n, t0);
        }
      }
      set3(c->n, l, n); set3(c->t0, l, t0); set3(c->t1, l, t1);
      c->friction_scale[l] = na > 0 ? 1.0f / (float)na : 0.0f;
      if (na > c->anchor_count) c->anchor_count = na;
      for (int k = 0; k < na; ++k) {
        c->anchor_point[k][l] = anchors[k];
        tb_vec3 x = point_of(&mf->points[anchors[k]]);
        tb_vec3 ra = tb_sub(x, ca0), rb = tb_sub(x, cb0), cra, crb;
        tb_anchor_wide* an = &c->a[k];
        float k0 = unit_response(ima, imb, ia, ib, ra, rb, t0, &cra, &crb);
        set3(an->ca_t0, l, cra); set3(an->cb_t0, l, crb);
        float k1 = unit_response(ima, imb, ia, ib, ra, rb, t1, &cra, &crb);
        set3(an->ca_t1, l, cra); set3(an->cb_t1, l, crb);
        an->mass_t0[l] = k0 > 0.0f ? 1.0f / k0 : 0.0f;
        an->mass_t1[l] = k1 > 0.0f ? 1.0f / k1 : 0.0f;
        if (c->kept[l] >= 0) {
          /* drift of the kept anchor: B's anchor point minus A's, from the poses now */
          const tb_anchor_cache* prev = &d->anchors[d->anchors_prev];
          int32_t ai = TB_MAX_ANCHORS * c->kept[l] + k;
          tb_vec3 xa = tb_transform_point(tb_body_pose(bodies, s->body[s0]), prev->local_a[ai]);
          tb_vec3 xb = tb_transform_point(tb_body_pose(bodies, s->body[s1]), prev->local_b[ai]);
          tb_vec3 e = tb_sub(xb, xa);
          an->error_t0[l] = tb_dot(e, t0);
          an->error_t1[l] = tb_dot(e, t1);
        }
      }

      if (mf->point_count > c->point_count) c->point_count = mf->point_count;
      for (int32_t j = 0; j < mf->point_count; ++j) {
        const tb_manifold_point* mp = &mf->points[j];
        tb_contact_point_wide* p = &c->p[j];
        tb_vec3 x = point_of(mp);
        tb_vec3 ra = tb_sub(x, ca0), rb = tb_sub(x, cb0), cra, crb;
        float wn = unit_response(ima, imb, ia, ib, ra, rb, n, &cra, &crb);
        set3(p->ca_n, l, cra); set3(p->cb_n, l, crb);
        p->base_separation[l] = mp->separation;
        p->restitution_target[l] = p->restitution_biased[l] = TB_NO_RESTITUTION;
        p->imp_mul[l] = 1.0f;
        p->vel_mul[l] = 0.0f;
        if (!mp->active || wn <= 0.0f) continue; /* detected only, or nothing can move: no row */
        tb_vec3 dv = tb_sub(tb_add(vb, tb_cross(wb, rb)), tb_add(va, tb_cross(wa, ra)));
        float vn = tb_dot(tb_add(dv, dg), n); /* approach speed after this step's external forces */
        if (compliant) {
          /* implicit spring (seed §3.2): a = h(d + h·k), x = 1/(1 + a·w); Δp = x·a·(target − vn)
           * − x·p with target −k·s/(d + h·k); damping suppressed when separated and not expected
           * to close within the step */
          float damping = mp->separation > 0.0f && mp->separation + vn * ctx->h > 0.0f ? 0.0f : mat->damping;
          float a_sp = hi * (damping + hi * mat->stiffness);
          if (a_sp <= 0.0f) continue;
          float xk = 1.0f / (1.0f + a_sp * wn);
          p->vel_mul[l] = xk * a_sp;
          p->compliant_rate[l] = mat->stiffness / (damping + hi * mat->stiffness);
          /* TGS: each internal step's spring impulse starts from zero, so the accumulated impulse
           * of earlier internal steps does not decay */
          p->imp_mul[l] = ctx->tgs ? 1.0f : 1.0f - xk;
          continue;
        }
        p->vel_mul[l] = 1.0f / wn;
        /* restitution: e > 0, closing faster than the bounce threshold, expected to touch within
         * the step */
        if (mat->restitution > 0.0f && vn < -sp->bounce_threshold_velocity && mp->separation + vn * ctx->h < 0.0f) {
          /* from a gap the position iterations move the pose as if the bodies had touched at the
           * step's start (PhysX biased error); the velocity iterations target the full rebound */
          p->restitution_target[l] = -mat->restitution * vn;
          p->restitution_biased[l] = p->restitution_target[l] - (mp->separation > 0.0f ? mp->separation / ctx->h : 0.0f);
        }
      }
    }
  }
}

/* ---- the stage ---- */

static tb_status solve_physx(tb_world* w, int tgs) {
  tb_solver_data* d = w->solver;
  tb_bodies* bodies = &w->bodies;
  const tb_shapes* shapes = &w->shapes;
  const tb_solver_params* sp = &w->def.solver;

  /* solver bodies: dynamic and kinematic */
  int32_t nb = 0;
  for (int32_t i = 0; i < bodies->count; ++i) {
    int32_t t = bodies->f.body_type[i];
    bodies->solver_index[i] = (t == TB_BODY_DYNAMIC || t == TB_BODY_KINEMATIC) && !bodies->sleeping[i] ? nb++ : -1;
  }
  int32_t nc = 0;
  for (int32_t i = 0; i < w->pair_count; ++i) nc += w->manifolds[i].point_count > 0;
  if (!reserve_many(d, nb, nc, w->pair_count))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "solve: out of memory for %d bodies and %d manifolds", nb, nc);

  for (int32_t i = 0; i < bodies->count; ++i) {
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
    sim->linear_damping = bodies->linear_damping[i];
    sim->angular_damping = bodies->angular_damping[i];
    const float* v = bodies->f.linear_velocity + 3 * i;
    const float* av = bodies->f.angular_velocity + 3 * i;
    tb_body_state* st = &d->states[k];
    memset(st, 0, sizeof *st);
    st->v = tb_v3(v[0], v[1], v[2]);
    st->w = tb_v3(av[0], av[1], av[2]);
    d->parent[k] = k;
  }

  /* constraints; islands of dynamic bodies (only dynamic bodies link and constrain a colour) */
  nc = 0;
  for (int32_t m = 0; m < w->pair_count; ++m) {
    d->manifold_wide[m] = -1;
    if (w->manifolds[m].point_count == 0 || !(w->pairs[m].flags & TB_PAIR_SOLVE)) continue;
    int32_t a = bodies->solver_index[shapes->body[w->pairs[m].shape0]];
    int32_t b = bodies->solver_index[shapes->body[w->pairs[m].shape1]];
    d->body_a[nc] = a >= 0 && d->sims[a].inv_mass > 0.0f ? a : -1;
    d->body_b[nc] = b >= 0 && d->sims[b].inv_mass > 0.0f ? b : -1;
    d->constraint_manifold[nc] = m;
    if (d->body_a[nc] >= 0 && d->body_b[nc] >= 0 && manifold_has_active_point(&w->manifolds[m]))
      link(d->parent, d->body_a[nc], d->body_b[nc]);
    ++nc;
  }
  /* iteration requests: -1 = the world's; each island takes the maximum of its bodies */
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
  int32_t max_pos = 0, max_vel = 1, dyn_pos = 0, dyn_vel = 0;
  for (int32_t k = 0; k < nb; ++k) {
    tb_body_sim* sim = &d->sims[k];
    sim->position_iterations = d->sims[sim->island].position_iterations;
    sim->velocity_iterations = d->sims[sim->island].velocity_iterations;
    if (sim->inv_mass > 0.0f) {
      if (sim->position_iterations > dyn_pos) dyn_pos = sim->position_iterations;
      if (sim->velocity_iterations > dyn_vel) dyn_vel = sim->velocity_iterations;
    }
  }
  /* a kinematic body advances with the finest internal step of the islands it touches */
  for (int32_t i = 0; i < nc; ++i) {
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

  int32_t words = (nb + 63) / 64;
  if (words < 1) words = 1;
  if (!reserve((void**)&d->bits, &d->bits_capacity, TB_GRAPH_COLORS * words, sizeof(uint64_t)))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "solve: out of memory for the constraint graph");
  memset(d->bits, 0, (size_t)TB_GRAPH_COLORS * (size_t)words * sizeof(uint64_t));
  tb_color_constraints(nc, d->body_a, d->body_b, d->bits, words, d->color);

  int32_t per_color[TB_GRAPH_COLORS + 1] = {0};
  for (int32_t i = 0; i < nc; ++i) per_color[d->color[i]]++;
  int32_t wide_count = 0;
  for (int32_t c = 0; c <= TB_GRAPH_COLORS; ++c) {
    d->color_start[c] = wide_count;
    /* overflow manifolds get one wide each: their lanes could share bodies */
    wide_count += c == TB_OVERFLOW_COLOR ? per_color[c] : (per_color[c] + TB_LANES - 1) / TB_LANES;
  }
  d->color_start[TB_GRAPH_COLORS + 1] = wide_count;
  if (!reserve((void**)&d->wides, &d->wide_capacity, wide_count, sizeof(tb_contact_wide)))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "solve: out of memory for %d constraints", wide_count);
  int32_t fill[TB_GRAPH_COLORS + 1];
  for (int32_t c = 0; c <= TB_GRAPH_COLORS; ++c) fill[c] = 0;
  for (int32_t i = 0; i < wide_count; ++i)
    for (int l = 0; l < TB_LANES; ++l) d->wides[i].manifold[l] = -1;
  for (int32_t i = 0; i < nc; ++i) {
    int32_t c = d->color[i];
    int32_t per = c == TB_OVERFLOW_COLOR ? 1 : TB_LANES;
    int32_t wi = d->color_start[c] + fill[c] / per, lane = fill[c] % per;
    fill[c]++;
    d->wides[wi].manifold[lane] = d->constraint_manifold[i];
    d->manifold_wide[d->constraint_manifold[i]] = wi * TB_LANES + lane;
  }

  solve_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.w = w;
  ctx.d = d;
  ctx.h = w->def.timestep;
  ctx.tgs = tgs;
  ctx.ext_every = tgs && sp->external_forces_every_iteration;
  ctx.gravity = tb_v3(w->def.gravity[0], w->def.gravity[1], w->def.gravity[2]);
  int32_t threads = w->def.thread_count;

  tb_parallel_for(nb, TB_BODY_CHUNK, threads, pre_integrate_job, &ctx);
  tb_parallel_for(wide_count, TB_WIDE_CHUNK, threads, prepare_job, &ctx);
  for (int32_t k = 0; k < max_pos; ++k) {
    ctx.iteration = k;
    ctx.velocity_phase = 0;
    if (ctx.ext_every) tb_parallel_for(nb, TB_BODY_CHUNK, threads, tgs_gravity_job, &ctx);
    for_each_color(&ctx);
    if (tgs) tb_parallel_for(nb, TB_BODY_CHUNK, threads, tgs_integrate_job, &ctx);
  }
  if (!tgs) tb_parallel_for(nb, TB_BODY_CHUNK, threads, pgs_save_motion_job, &ctx);
  for (int32_t k = 0; k < max_vel; ++k) {
    ctx.iteration = k;
    ctx.velocity_phase = 1;
    for_each_color(&ctx);
  }
  if (!tgs) tb_parallel_for(nb, TB_BODY_CHUNK, threads, pgs_integrate_job, &ctx);

  /* readback into the contact store (seed §7): normal impulse per point, friction impulse per
   * anchor at the anchor's point; residuals from the final velocities and poses */
  tb_contact_fields* f = &w->contacts.f;
  float inv_h = 1.0f / ctx.h;
  float residual_v = 0.0f, residual_p = 0.0f;
  const tb_anchor_cache* prev_anchors = &d->anchors[d->anchors_prev];
  tb_anchor_cache* cur_anchors = &d->anchors[d->anchors_prev ^ 1];
  cur_anchors->pair_count = 0;
  for (int32_t m = 0; m < w->pair_count; ++m) {
    int32_t slot = d->manifold_wide[m];
    if (slot < 0) continue;
    const tb_contact_wide* c = &d->wides[slot / TB_LANES];
    int l = slot % TB_LANES;
    const tb_manifold* mf = &w->manifolds[m];
    tb_vec3 n = tb_v3(c->n[0][l], c->n[1][l], c->n[2][l]);
    tb_vec3 t0 = tb_v3(c->t0[0][l], c->t0[1][l], c->t0[2][l]);
    tb_vec3 t1 = tb_v3(c->t1[0][l], c->t1[1][l], c->t1[2][l]);
    int32_t a = c->body_a[l], b = c->body_b[l];
    tb_body_state zero_state;
    memset(&zero_state, 0, sizeof zero_state);
    const tb_body_state* sa = a >= 0 ? &d->states[a] : &zero_state;
    const tb_body_state* sb = b >= 0 ? &d->states[b] : &zero_state;
    /* strong friction: the patch's anchors are kept when none of them slid; poses are still the
     * step's start poses here */
    int stuck = c->strong[l];
    for (int q = 0; q < TB_MAX_ANCHORS; ++q)
      if (c->anchor_point[q][l] >= 0 && c->a[q].sliding[l] > 0.0f) stuck = 0;
    if (stuck) {
      int32_t ci = cur_anchors->pair_count++;
      int32_t s0 = w->pairs[m].shape0, s1 = w->pairs[m].shape1;
      tb_transform pa = tb_body_pose(bodies, shapes->body[s0]), pb = tb_body_pose(bodies, shapes->body[s1]);
      cur_anchors->key[ci] = tb_pair_match_key(shapes, s0, s1);
      cur_anchors->count[ci] = 0;
      for (int q = 0; q < TB_MAX_ANCHORS; ++q) {
        int32_t j = c->anchor_point[q][l];
        if (j < 0) continue;
        int32_t ai = TB_MAX_ANCHORS * ci + q;
        cur_anchors->feature[ai] = mf->points[j].feature_id;
        if (c->kept[l] >= 0) {
          cur_anchors->local_a[ai] = prev_anchors->local_a[TB_MAX_ANCHORS * c->kept[l] + q];
          cur_anchors->local_b[ai] = prev_anchors->local_b[TB_MAX_ANCHORS * c->kept[l] + q];
        } else {
          tb_vec3 x = point_of(&mf->points[j]);
          cur_anchors->local_a[ai] = tb_inv_rotate(pa.q, tb_sub(x, pa.p));
          cur_anchors->local_b[ai] = tb_inv_rotate(pb.q, tb_sub(x, pb.p));
        }
        cur_anchors->count[ci]++;
      }
    }
    int32_t base = w->manifold_contact[m];
    for (int32_t j = 0; j < mf->point_count; ++j) {
      const tb_contact_point_wide* p = &c->p[j];
      if (p->vel_mul[l] > 0.0f) {
        tb_vec3 ca = tb_v3(p->ca_n[0][l], p->ca_n[1][l], p->ca_n[2][l]);
        tb_vec3 cb = tb_v3(p->cb_n[0][l], p->cb_n[1][l], p->cb_n[2][l]);
        float sep = p->base_separation[l] + tb_dot(tb_sub(sb->dp, sa->dp), n) + tb_dot(sb->dtheta, cb) - tb_dot(sa->dtheta, ca);
        if (-sep > residual_p) residual_p = -sep;
        if (c->compliant[l] == 0.0f) {
          float vn = tb_dot(tb_sub(sb->v, sa->v), n) + tb_dot(sb->w, cb) - tb_dot(sa->w, ca);
          float target = p->restitution_target[l] > 0.0f ? p->restitution_target[l] : 0.0f;
          float err = p->lambda_n[l] > 0.0f && p->lambda_n[l] < c->max_impulse[l] ? fabsf(vn - target)
                                                                                  : (target - vn > 0.0f ? target - vn : 0.0f);
          if (p->lambda_n[l] >= c->max_impulse[l]) err = 0.0f; /* capped rows do not count as error */
          if (err > residual_v) residual_v = err;
        }
      }
      int32_t k = base + j;
      if (base < 0 || k >= w->contacts.count) continue;
      float pn = p->lambda_n[l], pt0 = 0.0f, pt1 = 0.0f;
      int32_t anchor = -1;
      for (int q = 0; q < TB_MAX_ANCHORS; ++q)
        if (c->anchor_point[q][l] == j) {
          anchor = q;
          pt0 = c->a[q].lambda_t0[l];
          pt1 = c->a[q].lambda_t1[l];
        }
      tb_vec3 ft = tb_add(tb_scale(t0, pt0), tb_scale(t1, pt1));
      f->normal_impulse[k] = pn;
      f->tangent_impulse[2 * k] = pt0;
      f->tangent_impulse[2 * k + 1] = pt1;
      memcpy(f->tangent0 + 3 * k, &t0, sizeof t0);
      memcpy(f->tangent1 + 3 * k, &t1, sizeof t1);
      f->anchor[k] = anchor;
      memcpy(f->friction_anchor_impulse + 3 * k, &ft, sizeof ft);
      tb_vec3 force = tb_scale(tb_add(tb_scale(n, pn), ft), inv_h);
      memcpy(f->force + 3 * k, &force, sizeof force);
    }
  }
  d->anchors_prev ^= 1;
  w->contacts.readback_valid = 1;
  w->cache.pair_count = 0; /* PhysX starts every step's accumulated impulses from zero */

  /* poses and velocities back into the body fields */
  for (int32_t k = 0; k < nb; ++k) {
    const tb_body_sim* sim = &d->sims[k];
    const tb_body_state* st = &d->states[k];
    int32_t i = sim->slot;
    tb_vec3 center = tb_add(sim->center, st->dp);
    tb_vec3 origin = tb_sub(center, tb_rotate(sim->q, bodies->local_center[i]));
    float* t = bodies->f.transform + 7 * i;
    t[0] = origin.x; t[1] = origin.y; t[2] = origin.z;
    t[3] = sim->q.x; t[4] = sim->q.y; t[5] = sim->q.z; t[6] = sim->q.w;
    memcpy(bodies->f.linear_velocity + 3 * i, &st->v, sizeof st->v);
    memcpy(bodies->f.angular_velocity + 3 * i, &st->w, sizeof st->w);
  }

  tb_readback_info* rb = &w->readback;
  memset(rb, 0, sizeof *rb);
  rb->convention = TB_READBACK_PHYSX;
  rb->valid = 1;
  rb->per_contact_force = 1;
  rb->includes_friction = 1;
  rb->includes_restitution = 1;
  rb->includes_torsional = 0;
  rb->substeps = tgs ? max_pos : 1;
  rb->scale = 1.0f;

  tb_solver_status* status = &w->status;
  memset(status, 0, sizeof *status);
  status->solver = tgs ? TB_SOLVER_TGS : TB_SOLVER_PGS;
  status->position_iterations = dyn_pos > 0 ? dyn_pos : sp->position_iterations;
  status->velocity_iterations = dyn_vel > 0 ? dyn_vel : (sp->velocity_iterations > 1 ? sp->velocity_iterations : 1);
  status->converged = 0;
  status->residual_velocity = residual_v;
  status->residual_penetration = residual_p;

  int32_t colors = 0;
  for (int32_t c = 0; c < TB_GRAPH_COLORS; ++c) colors += per_color[c] > 0;
  w->stats.threads_used = tb_jobs_threads_used();
  w->stats.color_count = colors;
  w->stats.overflow_constraints = per_color[TB_OVERFLOW_COLOR];
  w->stats.manifold_count = nc;
  w->stats.substeps = tgs ? max_pos : 1;
  w->collided = 0;
  return TB_OK;
}

tb_status tb_solve_pgs(tb_world* w) { return solve_physx(w, 0); }
tb_status tb_solve_tgs(tb_world* w) { return solve_physx(w, 1); }

/* The solver family of the world's preset (or of its solver axis). */
tb_status tb_solve_world(tb_world* w) {
  tb_status st;
  switch (w->def.solver.solver) {
    case TB_SOLVER_PGS: st = tb_solve_pgs(w); break;
    case TB_SOLVER_TGS: st = tb_solve_tgs(w); break;
    case TB_SOLVER_XPBD: st = tb_solve_xpbd(w); break;
    case TB_SOLVER_PENALTY: st = tb_solve_penalty(w); break;
    case TB_SOLVER_KAMINO: return tb_solve_kamino(w);
    default: return tb_world_fail(w, TB_ERR_INVALID_STATE, "solve: unknown solver %d", w->def.solver.solver);
  }
  /* the PADMM residuals exist only for the Kamino solver */
  w->status.residual_primal = w->status.residual_dual = w->status.residual_complementarity = NAN;
  return st;
}
