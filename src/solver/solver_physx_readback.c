/* PhysX PGS / TGS readback (seed physx-e3 §7): the anchors that stuck for the next step, at the
 * end of the solve; when the contact store is first read (tb_solver_store_readback), the normal
 * impulse per point, the friction impulse per anchor at the anchor's point (N·s over the step) and
 * the force they make over the step (N); when the solver status is first read
 * (tb_physx_residuals), the rows' residuals from the final velocities and poses. Both from the
 * wides and solver bodies, which stay as the solve left them until the next solve.
 *
 * At the solve's end two jobs: the first, over the wides, marks the patches whose anchors stuck; a
 * serial prefix sum over the constraints (the manifolds with a wide slot, in pair order) gives
 * each stuck patch its row in the next step's anchor cache (pair order, as the packing's merge
 * walk over the cache needs); the second job, over the constraints, writes those rows. Every
 * record is written once and a residual maximum does not depend on the order: the result does not
 * depend on the thread count. */
#include <math.h>
#include <string.h>

#include "../core/jobs.h"
#include "solver_physx.h"

/* Strong friction: 1 when the patch of lane l keeps its anchors for the next step (none slid). */
static int anchors_stuck(const tb_contact_wide* c, const tb_physx_wide_pairs* pr, int l) {
  int stuck = pr->strong[l];
  for (int q = 0; q < TB_MAX_ANCHORS; ++q)
    if (pr->anchor_point[q][l] >= 0 && c->a[q].sliding[l] > 0.0f) stuck = 0;
  return stuck;
}

/* Strong friction: row ci of the next step's anchor cache from the stuck anchors of manifold m
 * (as its lane picked them), with their points in each body's frame (m); poses are still the
 * step's start poses here. Kept anchors are copied from the last cache's row (in pair order like
 * this walk), so a settled patch reads neither its manifold nor its bodies (at random, a
 * 16 000-body pile's manifolds and poses do not stay in the caches). */
static void store_stuck_anchors(const tb_physx_ctx* ctx, int32_t m, const tb_anchor_pick* pick, int32_t ci) {
  const tb_world* w = ctx->w;
  tb_solver_data* d = ctx->d;
  const tb_shapes* shapes = &w->shapes;
  const tb_manifold* mf = &w->manifolds[m];
  const tb_anchor_cache* prev_anchors = &d->anchors[d->anchors_prev];
  tb_anchor_cache* cur_anchors = &d->anchors[d->anchors_prev ^ 1];
  tb_transform pa = {0}, pb = {0};
  if (pick->kept >= 0) {
    cur_anchors->key[ci] = prev_anchors->key[pick->kept]; /* the row was found by this key */
  } else {
    int32_t s0 = w->pairs[m].shape0, s1 = w->pairs[m].shape1;
    pa = tb_body_pose(&w->bodies, shapes->body[s0]);
    pb = tb_body_pose(&w->bodies, shapes->body[s1]);
    cur_anchors->key[ci] = tb_pair_match_key(shapes, s0, s1);
  }
  cur_anchors->count[ci] = 0;
  for (int q = 0; q < TB_MAX_ANCHORS; ++q) {
    int32_t j = pick->point[q];
    if (j < 0) continue;
    int32_t ai = TB_MAX_ANCHORS * ci + q;
    if (pick->kept >= 0) {
      /* a kept anchor's point has the cached feature id (kept_anchors matched it by that) */
      int32_t kq = TB_MAX_ANCHORS * pick->kept + q;
      cur_anchors->feature[ai] = prev_anchors->feature[kq];
      cur_anchors->local_a[ai] = prev_anchors->local_a[kq];
      cur_anchors->local_b[ai] = prev_anchors->local_b[kq];
    } else {
      cur_anchors->feature[ai] = mf->points[j].feature_id;
      tb_vec3 x = tb_physx_point_of(&mf->points[j]);
      cur_anchors->local_a[ai] = tb_inv_rotate(pa.q, tb_sub(x, pa.p));
      cur_anchors->local_b[ai] = tb_inv_rotate(pb.q, tb_sub(x, pb.p));
    }
    cur_anchors->count[ci]++;
  }
}

/* Contact store entries of manifold m from lane l: impulses (N·s), tangent basis, anchor and the
 * step's mean force (N). */
static void store_impulses(tb_world* w, int32_t m, const tb_contact_wide* c, const tb_physx_wide_pairs* pr, int l, tb_vec3 n,
                           tb_vec3 t0, tb_vec3 t1, float inv_h) {
  tb_contact_fields* f = &w->contacts.f;
  int32_t base = w->manifold_contact[m];
  for (int32_t j = 0; j < w->manifolds[m].point_count; ++j) {
    const tb_contact_point_wide* p = &c->p[j];
    int32_t k = base + j;
    if (base < 0 || k >= w->contacts.count) continue;
    float pn = p->lambda_n[l], pt0 = 0.0f, pt1 = 0.0f;
    int32_t anchor = -1;
    for (int q = 0; q < TB_MAX_ANCHORS; ++q)
      if (pr->anchor_point[q][l] == j) {
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

/* Job over wides [begin, end): the stuck flag of each lane's patch (d->manifold_anchor[m] = 1)
 * and, when stuck, its anchors' pick. */
static void readback_stuck_job(int32_t begin, int32_t end, void* vctx) {
  const tb_physx_ctx* ctx = (const tb_physx_ctx*)vctx;
  tb_solver_data* d = ctx->d;
  for (int32_t k = begin; k < end; ++k) {
    const tb_contact_wide* c = &d->wides[d->wide_order[k]];
    const tb_physx_wide_pairs* pr = &d->wide_pairs[d->wide_order[k]];
    for (int l = 0; l < TB_LANES; ++l) {
      int32_t m = pr->manifold[l];
      if (m < 0) continue;
      int stuck = anchors_stuck(c, pr, l);
      d->manifold_anchor[m] = stuck;
      if (!stuck) continue;
      tb_anchor_pick* pick = &d->manifold_pick[m];
      for (int q = 0; q < TB_MAX_ANCHORS; ++q) pick->point[q] = pr->anchor_point[q][l];
      pick->kept = pr->kept[l];
    }
  }
}

/* Job over wides [begin, end): the chunk's residual maxima. */
static void residuals_job(int32_t begin, int32_t end, void* vctx) {
  tb_solver_data* d = (tb_solver_data*)vctx;
  float residual_v = 0.0f, residual_p = 0.0f;
  for (int32_t k = begin; k < end; ++k) tb_contact_residuals(&d->wides[d->wide_order[k]], d->states, &residual_v, &residual_p);
  int32_t chunk = begin / TB_READBACK_CHUNK;
  d->chunk_residual[2 * chunk] = residual_v;
  d->chunk_residual[2 * chunk + 1] = residual_p;
}

void tb_physx_residuals(tb_world* w, const tb_step_context* step) {
  tb_solver_data* d = w->solver;
  int32_t wides = d->color_start[TB_GRAPH_COLORS + 1];
  tb_parallel_for(wides, TB_READBACK_CHUNK, step->thread_count, residuals_job, d);
  /* the maxima over the chunks' maxima: the same values in any order (NaN never raises one) */
  float residual_v = 0.0f, residual_p = 0.0f;
  for (int32_t k = 0; k < (wides + TB_READBACK_CHUNK - 1) / TB_READBACK_CHUNK; ++k) {
    if (d->chunk_residual[2 * k] > residual_v) residual_v = d->chunk_residual[2 * k];
    if (d->chunk_residual[2 * k + 1] > residual_p) residual_p = d->chunk_residual[2 * k + 1];
  }
  w->status.residual_velocity = residual_v;
  w->status.residual_penetration = residual_p;
}

/* Job over constraints [begin, end): the anchor cache rows of the stuck patches
 * (d->manifold_anchor[m] = row, -1 none). */
static void readback_anchors_job(int32_t begin, int32_t end, void* vctx) {
  const tb_physx_ctx* ctx = (const tb_physx_ctx*)vctx;
  const tb_solver_data* d = ctx->d;
  for (int32_t i = begin; i < end; ++i) {
    int32_t m = d->constraint_manifold[i], ci = d->manifold_anchor[m];
    if (ci < 0) continue;
    store_stuck_anchors(ctx, m, &d->manifold_pick[m], ci);
  }
}

void tb_physx_readback_contacts(const tb_physx_ctx* ctx) {
  tb_solver_data* d = ctx->d;
  int32_t n = d->constraint_count, threads = ctx->step->thread_count;
  int32_t wides = d->color_start[TB_GRAPH_COLORS + 1];
  tb_parallel_for(wides, TB_READBACK_CHUNK, threads, readback_stuck_job, (void*)ctx);
  int32_t stuck = 0;
  for (int32_t i = 0; i < n; ++i) {
    int32_t m = d->constraint_manifold[i], flag = d->manifold_anchor[m];
    d->manifold_anchor[m] = flag ? stuck : -1;
    stuck += flag;
  }
  d->anchors[d->anchors_prev ^ 1].pair_count = stuck;
  tb_parallel_for(n, TB_READBACK_CHUNK, threads, readback_anchors_job, (void*)ctx);
  d->anchors_prev ^= 1;
  /* the impulses go into the store when it is read (tb_solver_store_readback) */
  d->readback_h = ctx->h;
  ctx->w->contacts.owed |= TB_OWE_READBACK;
}

/* Job over wides [begin, end): each lane's impulses and forces into its manifold's records. */
static void store_job(int32_t begin, int32_t end, void* vctx) {
  tb_world* w = (tb_world*)vctx;
  const tb_solver_data* d = w->solver;
  float inv_h = 1.0f / d->readback_h;
  for (int32_t k = begin; k < end; ++k) {
    const tb_contact_wide* c = &d->wides[k];
    const tb_physx_wide_pairs* pr = &d->wide_pairs[k];
    for (int l = 0; l < TB_LANES; ++l) {
      int32_t m = pr->manifold[l];
      if (m < 0) continue;
      tb_vec3 n = tb_v3(c->n[0][l], c->n[1][l], c->n[2][l]);
      tb_vec3 t0 = tb_v3(c->t0[0][l], c->t0[1][l], c->t0[2][l]);
      tb_vec3 t1 = tb_v3(c->t1[0][l], c->t1[1][l], c->t1[2][l]);
      store_impulses(w, m, c, pr, l, n, t0, t1, inv_h);
    }
  }
}

void tb_solver_store_readback(tb_world* w, const tb_step_context* step) {
  const tb_solver_data* d = w->solver;
  tb_parallel_for(d->color_start[TB_GRAPH_COLORS + 1], TB_READBACK_CHUNK, step->thread_count, store_job, w);
}
