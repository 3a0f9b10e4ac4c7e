/* solve(): the substepped sequential-impulse solver (`physx-tgs` preset) and its readback.
 *
 * Per step of length h with N = position_iterations substeps of hs = h/N:
 *   prepare manifolds (anchors, effective masses, warm-start impulses matched by feature id)
 *   N times: integrate velocities (gravity, damping) -> warm start -> solve with soft bias ->
 *            integrate positions (separation tracked from the accumulated motion) ->
 *            velocity_iterations relaxation passes without bias
 *   restitution (closing faster than the bounce threshold) -> readback -> poses.
 * Manifolds are coloured so that a colour shares no dynamic body; each colour is solved in
 * chunks of four-lane wide constraints, in parallel, with the same result for any thread count. */
#include "solver.h"

#include <string.h>

#include "../core/jobs.h"
#include "constraint_graph.h"
#include "contact_solver.h"
#include "../model/material.h"

#define TB_BODY_CHUNK 64
#define TB_WIDE_CHUNK 8

typedef struct tb_solver_data {
  tb_body_state* states;
  tb_body_sim* sims;
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
} tb_solver_data;

int tb_solver_create(tb_world* w) {
  w->solver = (tb_solver_data*)tb_alloc_zero(sizeof(tb_solver_data));
  return w->solver != NULL;
}

void tb_solver_destroy(tb_world* w) {
  tb_solver_data* d = w->solver;
  if (!d) return;
  tb_free(d->states, (size_t)d->body_capacity * sizeof(tb_body_state));
  tb_free(d->sims, (size_t)d->body_capacity * sizeof(tb_body_sim));
  tb_free(d->body_a, (size_t)d->constraint_capacity * sizeof(int32_t));
  tb_free(d->body_b, (size_t)d->constraint_capacity * sizeof(int32_t));
  tb_free(d->constraint_manifold, (size_t)d->constraint_capacity * sizeof(int32_t));
  tb_free(d->color, (size_t)d->constraint_capacity * sizeof(int32_t));
  tb_free(d->manifold_wide, (size_t)d->manifold_capacity * sizeof(int32_t));
  tb_free(d->bits, (size_t)d->bits_capacity * sizeof(uint64_t));
  tb_free(d->wides, (size_t)d->wide_capacity * sizeof(tb_contact_wide));
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
  const tb_array_ref b[] = {{(void**)&d->states, sizeof(tb_body_state)}, {(void**)&d->sims, sizeof(tb_body_sim)}};
  const tb_array_ref c[] = {{(void**)&d->body_a, sizeof(int32_t)}, {(void**)&d->body_b, sizeof(int32_t)},
                            {(void**)&d->constraint_manifold, sizeof(int32_t)}, {(void**)&d->color, sizeof(int32_t)}};
  return reserve_arrays(b, 2, &d->body_capacity, bodies) && reserve_arrays(c, 4, &d->constraint_capacity, constraints) &&
         reserve((void**)&d->manifold_wide, &d->manifold_capacity, manifolds, sizeof(int32_t));
}

/* ---- jobs ---- */

typedef struct solve_ctx {
  tb_world* w;
  tb_solver_data* d;
  float h, hs;              /* step and substep, s */
  tb_vec3 gravity;
  tb_contact_solve_params params;
  int32_t wide_base;        /* first wide of the colour being solved */
  int use_bias;
} solve_ctx;

static void integrate_velocities_job(int32_t begin, int32_t end, void* vctx) {
  solve_ctx* ctx = (solve_ctx*)vctx;
  for (int32_t i = begin; i < end; ++i) {
    tb_body_sim* sim = &ctx->d->sims[i];
    tb_body_state* st = &ctx->d->states[i];
    if (sim->inv_mass == 0.0f) continue; /* kinematic: keeps its velocity */
    tb_vec3 v = tb_mul_add(st->v, ctx->hs, ctx->gravity);
    /* implicit damping: v / (1 + c·h), stable for any c >= 0 */
    st->v = tb_scale(v, 1.0f / (1.0f + ctx->hs * sim->linear_damping));
    st->w = tb_scale(st->w, 1.0f / (1.0f + ctx->hs * sim->angular_damping));
  }
}

static void integrate_positions_job(int32_t begin, int32_t end, void* vctx) {
  solve_ctx* ctx = (solve_ctx*)vctx;
  float hs = ctx->hs;
  for (int32_t i = begin; i < end; ++i) {
    tb_body_state* st = &ctx->d->states[i];
    st->dp = tb_mul_add(st->dp, hs, st->v);
    st->dtheta = tb_mul_add(st->dtheta, hs, st->w);
    ctx->d->sims[i].q = tb_quat_integrate(ctx->d->sims[i].q, st->w, hs);
  }
}

static void warm_start_job(int32_t begin, int32_t end, void* vctx) {
  solve_ctx* ctx = (solve_ctx*)vctx;
  for (int32_t i = begin; i < end; ++i) tb_contact_warm_start(&ctx->d->wides[ctx->wide_base + i], ctx->d->states);
}

static void solve_job(int32_t begin, int32_t end, void* vctx) {
  solve_ctx* ctx = (solve_ctx*)vctx;
  for (int32_t i = begin; i < end; ++i)
    tb_contact_solve(&ctx->d->wides[ctx->wide_base + i], ctx->d->states, &ctx->params, ctx->use_bias);
}

static void relax_job(int32_t begin, int32_t end, void* vctx) {
  solve_ctx* ctx = (solve_ctx*)vctx;
  for (int32_t i = begin; i < end; ++i)
    tb_contact_solve(&ctx->d->wides[ctx->wide_base + i], ctx->d->states, &ctx->params, 0);
}

static void restitution_job(int32_t begin, int32_t end, void* vctx) {
  solve_ctx* ctx = (solve_ctx*)vctx;
  for (int32_t i = begin; i < end; ++i)
    tb_contact_restitution(&ctx->d->wides[ctx->wide_base + i], ctx->d->states, &ctx->params);
}

static void accumulate_job(int32_t begin, int32_t end, void* vctx) {
  solve_ctx* ctx = (solve_ctx*)vctx;
  for (int32_t i = begin; i < end; ++i) tb_contact_accumulate(&ctx->d->wides[i]);
}

/* Runs a wide-constraint job colour by colour; the overflow colour runs on one thread. */
static void for_each_color(solve_ctx* ctx, tb_job_fn* fn) {
  tb_solver_data* d = ctx->d;
  for (int32_t c = 0; c <= TB_GRAPH_COLORS; ++c) {
    int32_t begin = d->color_start[c], end = d->color_start[c + 1];
    if (end <= begin) continue;
    ctx->wide_base = begin;
    int32_t threads = c == TB_OVERFLOW_COLOR ? 1 : ctx->w->def.thread_count;
    tb_parallel_for(end - begin, TB_WIDE_CHUNK, threads, fn, ctx);
  }
}

static void set3(float a[3][TB_LANES], int l, tb_vec3 v) { a[0][l] = v.x; a[1][l] = v.y; a[2][l] = v.z; }

static tb_vec3 sym_mul(const float m[6], tb_vec3 v) {
  return tb_v3(m[0] * v.x + m[3] * v.y + m[4] * v.z, m[3] * v.x + m[1] * v.y + m[5] * v.z,
               m[4] * v.x + m[5] * v.y + m[2] * v.z);
}

/* Fills lane data of one wide from its manifolds. */
static void prepare_job(int32_t begin, int32_t end, void* vctx) {
  solve_ctx* ctx = (solve_ctx*)vctx;
  tb_world* w = ctx->w;
  tb_solver_data* d = ctx->d;
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
      c->inv_mass_a[l] = sa ? sa->inv_mass : 0.0f;
      c->inv_mass_b[l] = sb ? sb->inv_mass : 0.0f;
      for (int k = 0; k < 6; ++k) { c->ia[k][l] = ia[k]; c->ib[k][l] = ib[k]; }
      /* combined by the world's combine rule during collide() */
      const tb_contact_material* mat = &w->manifold_material[m];
      c->friction[l] = mat->dynamic_friction;
      c->restitution[l] = mat->restitution;
      tb_vec3 n = mf->normal, t0, t1;
      tb_basis(n, &t0, &t1);
      set3(c->n, l, n); set3(c->t0, l, t0); set3(c->t1, l, t1);
      tb_vec3 ca0 = sa ? sa->center : tb_v3(0, 0, 0), cb0 = sb ? sb->center : tb_v3(0, 0, 0);
      tb_vec3 va = sa ? d->states[a].v : tb_v3(0, 0, 0), wa = sa ? d->states[a].w : tb_v3(0, 0, 0);
      tb_vec3 vb = sb ? d->states[b].v : tb_v3(0, 0, 0), wb = sb ? d->states[b].w : tb_v3(0, 0, 0);
      if (mf->point_count > c->point_count) c->point_count = mf->point_count;
      for (int32_t j = 0; j < mf->point_count; ++j) {
        const tb_manifold_point* mp = &mf->points[j];
        tb_contact_point_wide* p = &c->p[j];
        tb_vec3 anchor = tb_scale(tb_add(mp->point0, mp->point1), 0.5f);
        tb_vec3 ra = tb_sub(anchor, ca0), rb = tb_sub(anchor, cb0);
        const tb_vec3 dirs[3] = {n, t0, t1};
        float* masses[3] = {p->mass_n, p->mass_t0, p->mass_t1};
        float(*cas[3])[TB_LANES] = {p->ca_n, p->ca_t0, p->ca_t1};
        float(*cbs[3])[TB_LANES] = {p->cb_n, p->cb_t0, p->cb_t1};
        float kk[3];
        for (int k = 0; k < 3; ++k) {
          tb_vec3 cra = tb_cross(ra, dirs[k]), crb = tb_cross(rb, dirs[k]);
          set3(cas[k], l, cra);
          set3(cbs[k], l, crb);
          kk[k] = c->inv_mass_a[l] + c->inv_mass_b[l] + tb_dot(cra, sym_mul(ia, cra)) + tb_dot(crb, sym_mul(ib, crb));
        }
        /* One effective mass for both tangents: the friction increment then points against the
         * slip velocity, so a sliding contact's friction opposes its slip (separate masses would
         * skew the direction by the anisotropy of the rotational response). */
        float kt = 0.5f * (kk[1] + kk[2]);
        masses[0][l] = kk[0] > 0.0f ? 1.0f / kk[0] : 0.0f;
        masses[1][l] = masses[2][l] = kt > 0.0f ? 1.0f / kt : 0.0f;
        p->base_separation[l] = mp->separation;
        /* Approach speed for restitution from the velocities after this step's external
         * acceleration, as PhysX's solver sees them (forces are integrated before the solve). */
        tb_vec3 dv = tb_sub(tb_add(vb, tb_cross(wb, rb)), tb_add(va, tb_cross(wa, ra)));
        float gb = c->inv_mass_b[l] > 0.0f ? 1.0f : 0.0f, ga = c->inv_mass_a[l] > 0.0f ? 1.0f : 0.0f;
        dv = tb_add(dv, tb_scale(ctx->gravity, ctx->h * (gb - ga)));
        p->relative_velocity[l] = tb_dot(dv, n);
        float pn = w->warm_normal[4 * m + j];
        tb_vec3 pt = w->warm_friction[4 * m + j];
        p->lambda_n[l] = pn;
        p->lambda_t0[l] = tb_dot(pt, t0);
        p->lambda_t1[l] = tb_dot(pt, t1);
      }
    }
  }
}

/* ---- the stage ---- */

tb_status tb_solve_sequential_impulse(tb_world* w) {
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
    st->v = tb_v3(v[0], v[1], v[2]);
    st->w = tb_v3(av[0], av[1], av[2]);
    st->dp = tb_v3(0, 0, 0);
    st->dtheta = tb_v3(0, 0, 0);
  }

  /* constraints and colours (only dynamic bodies constrain a colour) */
  nc = 0;
  for (int32_t m = 0; m < w->pair_count; ++m) {
    d->manifold_wide[m] = -1;
    if (w->manifolds[m].point_count == 0 || !(w->pairs[m].flags & TB_PAIR_SOLVE)) continue;
    int32_t a = bodies->solver_index[shapes->body[w->pairs[m].shape0]];
    int32_t b = bodies->solver_index[shapes->body[w->pairs[m].shape1]];
    d->body_a[nc] = a >= 0 && d->sims[a].inv_mass > 0.0f ? a : -1;
    d->body_b[nc] = b >= 0 && d->sims[b].inv_mass > 0.0f ? b : -1;
    d->constraint_manifold[nc] = m;
    ++nc;
  }
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

  int32_t substeps = sp->position_iterations;
  solve_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.w = w;
  ctx.d = d;
  ctx.h = w->def.timestep;
  ctx.hs = ctx.h / (float)substeps;
  ctx.gravity = tb_v3(w->def.gravity[0], w->def.gravity[1], w->def.gravity[2]);
  ctx.params.inv_h = 1.0f / ctx.hs;
  /* stiffness limited to a quarter of the substep rate, as the soft step needs */
  float hertz = sp->contact_hertz < 0.25f / ctx.hs ? sp->contact_hertz : 0.25f / ctx.hs;
  ctx.params.soft = tb_make_softness(hertz, sp->contact_damping_ratio, ctx.hs);
  ctx.params.max_bias_velocity = sp->max_depenetration_velocity;
  ctx.params.linear_slop = sp->linear_slop;
  ctx.params.bounce_threshold = sp->bounce_threshold_velocity;
  int32_t threads = w->def.thread_count;

  tb_parallel_for(wide_count, TB_WIDE_CHUNK, threads, prepare_job, &ctx);
  for (int32_t k = 0; k < substeps; ++k) {
    tb_parallel_for(nb, TB_BODY_CHUNK, threads, integrate_velocities_job, &ctx);
    if (sp->warm_starting) for_each_color(&ctx, warm_start_job);
    ctx.use_bias = 1;
    for_each_color(&ctx, solve_job);
    tb_parallel_for(nb, TB_BODY_CHUNK, threads, integrate_positions_job, &ctx);
    for (int32_t r = 0; r < sp->velocity_iterations; ++r) for_each_color(&ctx, relax_job);
    tb_parallel_for(wide_count, TB_WIDE_CHUNK, threads, accumulate_job, &ctx);
  }
  for_each_color(&ctx, restitution_job);

  /* readback into the contact store, and the warm-start cache by pair key and feature id */
  tb_contact_fields* f = &w->contacts.f;
  tb_manifold_cache* cache = &w->cache;
  float inv_h = 1.0f / ctx.h;
  int32_t cached = 0;
  for (int32_t m = 0; m < w->pair_count; ++m) {
    int32_t slot = d->manifold_wide[m];
    if (slot < 0) continue;
    const tb_contact_wide* c = &d->wides[slot / TB_LANES];
    int l = slot % TB_LANES;
    const tb_manifold* mf = &w->manifolds[m];
    tb_vec3 n = tb_v3(c->n[0][l], c->n[1][l], c->n[2][l]);
    tb_vec3 t0 = tb_v3(c->t0[0][l], c->t0[1][l], c->t0[2][l]);
    tb_vec3 t1 = tb_v3(c->t1[0][l], c->t1[1][l], c->t1[2][l]);
    cache->key[cached] = tb_pair_match_key(shapes, w->pairs[m].shape0, w->pairs[m].shape1);
    cache->count[cached] = mf->point_count;
    int32_t base = w->manifold_contact[m];
    for (int32_t j = 0; j < mf->point_count; ++j) {
      const tb_contact_point_wide* p = &c->p[j];
      cache->feature[4 * cached + j] = mf->points[j].feature_id;
      cache->normal_impulse[4 * cached + j] = p->lambda_n[l];
      cache->friction_impulse[4 * cached + j] = tb_add(tb_scale(t0, p->lambda_t0[l]), tb_scale(t1, p->lambda_t1[l]));
      int32_t k = base + j;
      if (base < 0 || k >= w->contacts.count) continue;
      f->normal_impulse[k] = p->total_n[l];
      f->tangent_impulse[2 * k] = p->total_t0[l];
      f->tangent_impulse[2 * k + 1] = p->total_t1[l];
      tb_vec3 force = tb_scale(tb_add(tb_add(tb_scale(n, p->total_n[l]), tb_scale(t0, p->total_t0[l])),
                                      tb_scale(t1, p->total_t1[l])), inv_h);
      memcpy(f->force + 3 * k, &force, sizeof force);
    }
    ++cached;
  }
  cache->pair_count = cached;
  w->contacts.readback_valid = 1;

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

  int32_t colors = 0;
  for (int32_t c = 0; c < TB_GRAPH_COLORS; ++c) colors += per_color[c] > 0;
  w->stats.threads_used = tb_jobs_threads_used();
  w->stats.color_count = colors;
  w->stats.overflow_constraints = per_color[TB_OVERFLOW_COLOR];
  w->stats.manifold_count = nc;
  w->stats.substeps = substeps;
  /* readback flags and status: impulses of every substep, relaxation and restitution pass */
  w->readback = (tb_readback_info){sp->readback, 1, 1, 1, 1, 0, substeps, 1.0f};
  w->status = (tb_solver_status){sp->solver, substeps, sp->velocity_iterations, 0, NAN, NAN};
  w->collided = 0;
  return TB_OK;
}

/* The solver family of the world's preset (or of its solver axis). */
tb_status tb_solve_world(tb_world* w) {
  switch (w->def.solver.solver) {
    case TB_SOLVER_PGS:
    case TB_SOLVER_TGS: return tb_solve_sequential_impulse(w);
    case TB_SOLVER_XPBD: return tb_solve_xpbd(w);
    case TB_SOLVER_PENALTY: return tb_solve_penalty(w);
    default: return tb_world_fail(w, TB_ERR_INVALID_STATE, "solve: unknown solver %d", w->def.solver.solver);
  }
}
