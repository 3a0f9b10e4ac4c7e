/* PhysX PGS / TGS: the lane data of the wide constraints, from the step's manifolds (seed
 * physx-e3 §4–5): bodies' masses and iteration counts, the combined material, the friction anchors
 * (kept from the last step while they stick) with their tangent rows, and one normal row per active
 * point with its bias, restitution or implicit spring. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "../core/prefetch.h"
#include "../core/simd_vec3.h"
#include "../model/material.h"
#include "solver_physx.h"

/* What the rows of one lane (one manifold) share while they are prepared. */
typedef struct tb_physx_lane {
  int32_t manifold;
  const tb_manifold* mf;
  tb_vec3 n;                /* manifold normal, shape0 → shape1 */
  tb_vec3 dg;               /* TGS with gravity per internal step: the step's a·h not yet applied, m/s */
  tb_vec3 x[TB_MAX_MANIFOLD_POINTS]; /* contact point of each manifold point (tb_physx_point_of), world, m */
} tb_physx_lane;

/* The four lanes' inputs of the rows side by side, zeros in empty lanes. The bodies' rows come
 * first: gather_lane_bodies writes them whole (every lane), the rest starts from zeros. */
typedef struct tb_physx_lanes {
  tb_physx_wide_pairs* pr; /* the wide's lanes: their manifolds and pairs; the anchors chosen here */
  _Alignas(16) tb_physx_lane ln[TB_LANES];
  /* each side's solver body: world inverse inertia xx, yy, zz, xy, xz, yz (1/(kg·m²)), centre of
   * mass at the step's start (m), velocities after gravity and damping (m/s, rad/s) */
  float ia[6][TB_LANES], ib[6][TB_LANES];
  float ca0[3][TB_LANES], cb0[3][TB_LANES];
  float va[3][TB_LANES], wa[3][TB_LANES], vb[3][TB_LANES], wb[3][TB_LANES];
  float dg[3][TB_LANES];
  float x[TB_MAX_MANIFOLD_POINTS][3][TB_LANES]; /* the lanes' contact points by point index, m */
  float x_anchor[3][TB_LANES]; /* the contact point of each lane's first anchor (m; zeros without one) */
  float points[TB_LANES];    /* the lanes' manifold points (0 in empty lanes), compared as floats */
  float restitution[TB_LANES]; /* the lanes' combined restitution (0 in empty lanes) */
  float hi[TB_LANES];          /* s: one iteration's step (TGS: h/N; 0 in empty lanes) */
  int32_t anchors[TB_LANES]; /* friction anchors of the lane, 0 to 2 */
  /* lanes with kept anchors (strong friction): the bodies' poses now and each anchor's body-local
   * points of the last step, for the drift (prepare_anchor_drift); zeros in the other lanes */
  float kept[TB_LANES];                        /* 1 in a lane with kept anchors */
  float pa[3][TB_LANES], qa[4][TB_LANES], pb[3][TB_LANES], qb[4][TB_LANES]; /* m; quaternion x, y, z, w */
  float la[TB_MAX_ANCHORS][3][TB_LANES], lb[TB_MAX_ANCHORS][3][TB_LANES]; /* m, in A's and B's frame */
} tb_physx_lanes;

static void set3(float a[3][TB_LANES], int l, tb_vec3 v) { a[0][l] = v.x; a[1][l] = v.y; a[2][l] = v.z; }
static void set4(float a[4][TB_LANES], int l, tb_quat q) { a[0][l] = q.x; a[1][l] = q.y; a[2][l] = q.z; a[3][l] = q.w; }

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
 * points farthest apart (first pair in point order on ties), from the points' contact points x.
 * Returns the count. The first pair is also the answer when no distance compares (points at
 * infinity give NaN distances; the step is undone after, but its anchors must name points). */
static int choose_anchors(const tb_manifold* mf, const tb_vec3 x[TB_MAX_MANIFOLD_POINTS], int32_t out[TB_MAX_ANCHORS]) {
  int32_t idx[TB_MAX_MANIFOLD_POINTS], n = 0;
  for (int32_t j = 0; j < mf->point_count; ++j)
    if (mf->points[j].active) idx[n++] = j;
  if (n == 0) return 0;
  out[0] = idx[0];
  if (n == 1) return 1;
  out[1] = idx[1];
  float best = -1.0f;
  for (int32_t i = 0; i < n; ++i)
    for (int32_t j = i + 1; j < n; ++j) {
      float d2 = tb_length_sq(tb_sub(x[idx[i]], x[idx[j]]));
      if (d2 > best) { best = d2; out[0] = idx[i]; out[1] = idx[j]; }
    }
  return 2;
}

/* Lane l of c from manifold m: bodies, masses (1/kg, 1/(kg·m²), into lane l of ia, ib), the
 * island's iteration counts, bias rates (1/s), the impulse cap (N·s), the combined friction, the
 * points' contact points (m, once for the anchors and the rows); fills ln for the rows. */
static void prepare_lane_bodies(const tb_physx_ctx* ctx, tb_contact_wide* c, int l, int32_t m, tb_physx_lanes* ls) {
  tb_physx_lane* ln = &ls->ln[l];
  const tb_world* w = ctx->w;
  const tb_solver_data* d = ctx->d;
  const tb_solver_params* sp = &w->def.solver;
  const tb_physx_wide_pairs* pr = ls->pr; /* the wide's pairs: lane l is column l */
  ln->manifold = m;
  ln->mf = &w->manifolds[m];
  int32_t a = pr->solver_a[l], b = pr->solver_b[l];
  const tb_body_sim* sa = a >= 0 ? &d->sims[a] : NULL;
  const tb_body_sim* sb = b >= 0 ? &d->sims[b] : NULL;
  float ima = sa ? sa->inv_mass : 0.0f, imb = sb ? sb->inv_mass : 0.0f;
  /* only a dynamic body's velocities change (the sink was set for every lane) */
  if (ima > 0.0f) c->out_a[l] = (float*)(void*)&d->states[a];
  if (imb > 0.0f) c->out_b[l] = (float*)(void*)&d->states[b];
  c->inv_mass_a[l] = ima;
  c->inv_mass_b[l] = imb;

  /* iterations of the lane's island: its dynamic body's (both share one island) */
  const tb_body_sim* dyn = sb && sb->inv_mass > 0.0f ? sb : (sa && sa->inv_mass > 0.0f ? sa : (sb ? sb : sa));
  c->position_iterations[l] = dyn ? dyn->position_iterations : sp->position_iterations;
  c->velocity_iterations[l] = dyn ? dyn->velocity_iterations : 1;

  /* max contact impulse: the smaller of the non-static bodies' caps */
  float cap = INFINITY;
  if (sa) cap = sa->max_contact_impulse;
  if (sb && sb->max_contact_impulse < cap) cap = sb->max_contact_impulse;
  c->max_impulse[l] = cap;

  /* combined by the world's combine rule during collide() */
  c->compliant[l] = (pr->flags[l] & TB_CONTACT_MATERIAL_COMPLIANT) != 0 ? 1.0f : 0.0f;
  c->mu_static[l] = pr->mu_static[l];
  c->mu_dynamic[l] = pr->mu_dynamic[l];
  ls->restitution[l] = pr->restitution[l];

  ln->n = ln->mf->normal;
  ls->points[l] = (float)ln->mf->point_count;
  for (int32_t j = 0; j < ln->mf->point_count; ++j) {
    ln->x[j] = tb_physx_point_of(&ln->mf->points[j]);
    set3(ls->x[j], l, ln->x[j]);
  }
  /* with gravity per internal step the approach speed still counts the whole step's a·h */
  float gb = imb > 0.0f ? 1.0f : 0.0f, ga = ima > 0.0f ? 1.0f : 0.0f;
  ln->dg = ctx->ext_every ? tb_scale(ctx->gravity, ctx->h * (gb - ga)) : tb_v3(0, 0, 0);
  set3(ls->dg, l, ln->dg);
}

/* Lanes where flag[l] is non-zero, as a mask. */
static tb_f4 lane_mask(const int32_t flag[TB_LANES]) {
  float f[TB_LANES];
  for (int l = 0; l < TB_LANES; ++l) f[l] = flag[l] ? 1.0f : 0.0f;
  return tb_f4_gt(tb_f4_load(f), tb_f4_splat(0.0f));
}

/* The lanes that hold a manifold, as a mask. */
static tb_f4 manifold_lanes(const tb_physx_wide_pairs* pr) {
  int32_t has[TB_LANES];
  for (int l = 0; l < TB_LANES; ++l) has[l] = pr->manifold[l] >= 0;
  return lane_mask(has);
}

/* The lanes' iteration step hi (s: TGS h/N with the island's N position iterations, PGS h) and
 * the rates of their rows: the penetration bias (bias coefficient / hi) and a gap's closing
 * speed (1 / hi), 1/s, with the max depenetration velocity (m/s); zeros in empty lanes. */
static void prepare_lane_rates(const tb_physx_ctx* ctx, tb_contact_wide* c, tb_physx_lanes* ls) {
  const tb_solver_params* sp = &ctx->w->def.solver;
  tb_f4 zero = tb_f4_splat(0.0f), h = tb_f4_splat(ctx->h);
  tb_f4 lane = manifold_lanes(ls->pr);
  tb_f4 hi = tb_f4_select(lane, ctx->tgs ? tb_f4_div(h, tb_f4_load(c->position_iterations)) : h, zero);
  tb_f4_store(ls->hi, hi);
  tb_f4_store(c->pen_rate, tb_f4_select(lane, tb_f4_div(tb_f4_splat(sp->bias_coefficient), hi), zero));
  tb_f4_store(c->spec_rate, tb_f4_select(lane, tb_f4_div(tb_f4_splat(1.0f), hi), zero));
  tb_f4_store(c->max_depenetration, tb_f4_select(lane, tb_f4_splat(sp->max_depenetration_velocity), zero));
}

/* One side's rows of the lanes: each lane's solver body (idx[l] >= 0) or zeros (a static side, an
 * empty lane: the state of zeros, 16 floats, for both reads): its inverse inertia and centre from
 * the sims, its velocities from the states, four floats at a time and transposed (data moves only). */
static void gather_side_bodies(const tb_solver_data* d, const float* zeros, const int32_t idx[TB_LANES], float ia[6][TB_LANES],
                               float c0[3][TB_LANES], float v[3][TB_LANES], float w[3][TB_LANES]) {
  _Static_assert(offsetof(tb_body_sim, inv_i) == 4 && offsetof(tb_body_sim, center) == 28 &&
                     offsetof(tb_body_sim, max_contact_impulse) + 4 <= 64,
                 "inv_mass, inv_i, center: the first 10 floats of a sim, read as three rows of four, and the "
                 "rest the rows read of it in the same line");
  tb_f4 r[3][TB_LANES], s[2][TB_LANES];
  for (int l = 0; l < TB_LANES; ++l) {
    const float* f = idx[l] >= 0 ? (const float*)(const void*)&d->sims[idx[l]] : zeros;
    const float* g = idx[l] >= 0 ? &d->states[idx[l]].v.x : zeros;
    r[0][l] = tb_f4_load(f);
    r[1][l] = tb_f4_load(f + 4);
    r[2][l] = tb_f4_load(f + 8);
    s[0][l] = tb_f4_load(g);
    s[1][l] = tb_f4_load(g + 4);
  }
  for (int k = 0; k < 3; ++k) tb_f4_transpose(&r[k][0], &r[k][1], &r[k][2], &r[k][3]);
  for (int k = 0; k < 2; ++k) tb_f4_transpose(&s[k][0], &s[k][1], &s[k][2], &s[k][3]);
  /* rows: inv_mass, inv_i[0..2] | inv_i[3..5], center.x | center.y, center.z, two iteration counts */
  tb_f4_store(ia[0], r[0][1]); tb_f4_store(ia[1], r[0][2]); tb_f4_store(ia[2], r[0][3]);
  tb_f4_store(ia[3], r[1][0]); tb_f4_store(ia[4], r[1][1]); tb_f4_store(ia[5], r[1][2]);
  tb_f4_store(c0[0], r[1][3]); tb_f4_store(c0[1], r[2][0]); tb_f4_store(c0[2], r[2][1]);
  /* v.x, v.y, v.z, w.x | w.y, w.z, dp.x, dp.y */
  tb_f4_store(v[0], s[0][0]); tb_f4_store(v[1], s[0][1]); tb_f4_store(v[2], s[0][2]);
  tb_f4_store(w[0], s[0][3]); tb_f4_store(w[1], s[1][0]); tb_f4_store(w[2], s[1][1]);
}

/* Both sides' body rows of the lanes, and the states the iterations' gather reads. */
static void gather_lane_bodies(const tb_physx_ctx* ctx, tb_contact_wide* c, tb_physx_lanes* ls) {
  const tb_solver_data* d = ctx->d;
  const tb_physx_wide_pairs* pr = ls->pr;
  int32_t a[TB_LANES], b[TB_LANES];
  for (int l = 0; l < TB_LANES; ++l) {
    a[l] = pr->manifold[l] >= 0 ? pr->solver_a[l] : -1;
    b[l] = pr->manifold[l] >= 0 ? pr->solver_b[l] : -1;
    c->state_a[l] = a[l] >= 0 ? a[l] : ctx->zero_state;
    c->state_b[l] = b[l] >= 0 ? b[l] : ctx->zero_state;
  }
  const float* zeros = &d->states[ctx->zero_state].v.x;
  gather_side_bodies(d, zeros, a, ls->ia, ls->ca0, ls->va, ls->wa);
  gather_side_bodies(d, zeros, b, ls->ib, ls->cb0, ls->vb, ls->wb);
}

/* Friction of lane l: the anchors (kept while they stick) and, for kept anchors, the poses and
 * body-local points of their drift; the tangent basis, the drift along it and the tangent rows
 * follow for all lanes at once (prepare_tangents, prepare_anchor_drift, prepare_anchor_rows). */
static void prepare_lane_friction(const tb_physx_ctx* ctx, tb_contact_wide* c, int l, tb_physx_lanes* ls) {
  const tb_physx_lane* ln = &ls->ln[l];
  const tb_world* w = ctx->w;
  const tb_solver_data* d = ctx->d;
  const tb_bodies* bodies = &w->bodies;
  const tb_manifold* mf = ln->mf;
  tb_physx_wide_pairs* pr = ls->pr;
  int32_t flags = pr->flags[l];
  tb_vec3 n = ln->n;
  int32_t anchors[TB_MAX_ANCHORS] = {-1, -1};
  /* a patch with an active point has friction unless a material disables it; strong friction
   * keeps the anchors of a patch that stuck (unless a material disables it), the others are
   * chosen afresh */
  int friction = pr->active[l] > 0 && !(flags & TB_CONTACT_MATERIAL_NO_FRICTION);
  int na = 0;
  pr->strong[l] = friction && !(flags & TB_CONTACT_MATERIAL_NO_STRONG_FRICTION);
  pr->kept[l] = -1;
  if (pr->strong[l]) {
    const tb_anchor_cache* prev = &d->anchors[d->anchors_prev];
    int32_t ci = pr->cache_row[l];
    int32_t pts[TB_MAX_ANCHORS];
    int nk = ci >= 0 ? kept_anchors(prev, ci, mf, pts) : 0;
    if (nk > 0) {
      na = nk;
      anchors[0] = pts[0];
      anchors[1] = nk > 1 ? pts[1] : -1;
      pr->kept[l] = ci;
      c->anchor_bias[l] = c->pen_rate[l]; /* the penetration's bias rate, per iteration step */
    }
  }
  if (friction && pr->kept[l] < 0) na = choose_anchors(mf, ln->x, anchors);
  if (na > 0) set3(ls->x_anchor, l, ln->x[anchors[0]]);
  set3(c->n, l, n);
  c->friction_scale[l] = na > 0 ? 1.0f / (float)na : 0.0f;
  if (na > c->anchor_count) c->anchor_count = na;
  ls->anchors[l] = na;
  for (int k = 0; k < na; ++k) pr->anchor_point[k][l] = anchors[k];
  if (pr->kept[l] >= 0) {
    /* the kept anchors' drift follows for all lanes at once (prepare_anchor_drift) */
    const tb_anchor_cache* prev = &d->anchors[d->anchors_prev];
    tb_transform xa = tb_body_pose(bodies, pr->slot_a[l]), xb = tb_body_pose(bodies, pr->slot_b[l]);
    ls->kept[l] = 1.0f;
    set3(ls->pa, l, xa.p); set3(ls->pb, l, xb.p);
    set4(ls->qa, l, xa.q); set4(ls->qb, l, xb.q);
    for (int k = 0; k < na; ++k) {
      set3(ls->la[k], l, prev->local_a[TB_MAX_ANCHORS * pr->kept[l] + k]);
      set3(ls->lb[k], l, prev->local_b[TB_MAX_ANCHORS * pr->kept[l] + k]);
    }
  }
}

/* The tangents t0, t1 of the lanes (zeros in empty lanes): t0 along the patch's slip velocity at
 * its first anchor (B's point velocity minus A's after this step's external forces, less its part
 * along n), so that a sliding anchor's PGS rows resist the slip along one row; tb_basis(n) when the
 * slip is slower than TB_SLIP_DIRECTION_SPEED or the patch has no anchor. Each lane does the
 * operations of the one-lane formulas (tb_cross, tb_dot, tb_length, tb_basis) in their order. */
static void prepare_tangents(tb_contact_wide* c, const tb_physx_lanes* ls) {
  tb_f4 zero = tb_f4_splat(0.0f), one = tb_f4_splat(1.0f);
  tb_f4 lane = manifold_lanes(ls->pr), anchored = lane_mask(ls->anchors); /* anchors: 0 to 2 */
  v3w n = v3w_load(c->n), x = v3w_load(ls->x_anchor);
  v3w dv = v3w_sub(v3w_add(v3w_load(ls->vb), v3w_cross(v3w_load(ls->wb), v3w_sub(x, v3w_load(ls->cb0)))),
                   v3w_add(v3w_load(ls->va), v3w_cross(v3w_load(ls->wa), v3w_sub(x, v3w_load(ls->ca0)))));
  dv = v3w_add(dv, v3w_load(ls->dg));
  v3w vt = v3w_sub(dv, v3w_scale(n, v3w_dot(dv, n)));
  tb_f4 lt = tb_f4_sqrt(v3w_dot(vt, vt)); /* m/s, the slip speed at the first anchor */
  tb_f4 slip = tb_f4_and(anchored, tb_f4_gt(lt, tb_f4_splat(TB_SLIP_DIRECTION_SPEED)));
  v3w t0s = v3w_scale(vt, tb_f4_div(one, lt));
  /* tb_basis: the reference axis y when |n.x| is the largest component, else x */
  tb_f4 ax = tb_f4_abs(n.x), ay = tb_f4_abs(n.y), az = tb_f4_abs(n.z);
  tb_f4 use_y = tb_f4_and(tb_f4_ge(ax, ay), tb_f4_ge(ax, az));
  v3w ref = {tb_f4_select(use_y, zero, one), tb_f4_select(use_y, one, zero), zero};
  v3w t = v3w_sub(ref, v3w_scale(n, v3w_dot(ref, n)));
  v3w t0b = v3w_scale(t, tb_f4_div(one, tb_f4_sqrt(v3w_dot(t, t))));
  v3w t0 = v3w_select(slip, t0s, t0b);
  v3w none = {zero, zero, zero};
  v3w_store(c->t0, v3w_select(lane, t0, none));
  v3w_store(c->t1, v3w_select(lane, v3w_cross(n, t0), none));
}

/* tb_transform_point of each lane's point p by that lane's pose (position rows pos, quaternion
 * rows q: x, y, z, w). */
static v3w transform_lanes(const float pos[3][TB_LANES], const float q[4][TB_LANES], v3w p) {
  v3w u = {tb_f4_load(q[0]), tb_f4_load(q[1]), tb_f4_load(q[2])};
  return v3w_add(v3w_rotate_lanes(u, tb_f4_load(q[3]), p), v3w_load(pos));
}

/* Strong friction: each kept anchor's drift along t0 and t1 (m), B's anchor point minus A's, each
 * from its body-local point of the last step and the pose now, for the lanes with kept anchors
 * (the others keep their zeros). */
static void prepare_anchor_drift(tb_contact_wide* c, const tb_physx_lanes* ls) {
  tb_f4 kept = tb_f4_gt(tb_f4_load(ls->kept), tb_f4_splat(0.0f));
  if (tb_f4_bitmask(kept) == 0) return;
  v3w t0 = v3w_load(c->t0), t1 = v3w_load(c->t1);
  for (int k = 0; k < c->anchor_count; ++k) {
    float has[TB_LANES];
    for (int l = 0; l < TB_LANES; ++l) has[l] = k < ls->anchors[l] ? 1.0f : 0.0f;
    tb_f4 mask = tb_f4_and(kept, tb_f4_gt(tb_f4_load(has), tb_f4_splat(0.0f)));
    v3w e = v3w_sub(transform_lanes(ls->pb, ls->qb, v3w_load(ls->lb[k])), transform_lanes(ls->pa, ls->qa, v3w_load(ls->la[k])));
    tb_anchor_wide* an = &c->a[k];
    tb_f4_store(an->error_t0, tb_f4_select(mask, v3w_dot(e, t0), tb_f4_load(an->error_t0)));
    tb_f4_store(an->error_t1, tb_f4_select(mask, v3w_dot(e, t1), tb_f4_load(an->error_t1)));
  }
}

/* Arms of a row along d for the four lanes (m), masked to zero outside mask, into ca = rA × d and
 * cb = rB × d, their inertia-arm products IA⁻¹(rA × d), IB⁻¹(rB × d) (1/(kg·m)) into ia_d, ib_d,
 * which the iterations apply unchanged; returns the unit response (1/kg) 1/mA + 1/mB +
 * (rA×d)ᵀIA⁻¹(rA×d) + (rB×d)ᵀIB⁻¹(rB×d), meaningful in the lanes of mask. */
static tb_f4 row_arms(const tb_contact_wide* c, const tb_physx_lanes* ls, tb_f4 mask, v3w d, v3w ra, v3w rb,
                      float ca[3][TB_LANES], float cb[3][TB_LANES], float ia_d[3][TB_LANES], float ib_d[3][TB_LANES]) {
  v3w zero = {tb_f4_splat(0.0f), tb_f4_splat(0.0f), tb_f4_splat(0.0f)};
  v3w cra = v3w_select(mask, v3w_cross(ra, d), zero), crb = v3w_select(mask, v3w_cross(rb, d), zero);
  v3w pa = v3w_sym_mul(ls->ia, cra), pb = v3w_sym_mul(ls->ib, crb);
  v3w_store(ca, cra); v3w_store(cb, crb);
  v3w_store(ia_d, pa); v3w_store(ib_d, pb);
  tb_f4 im = tb_f4_add(tb_f4_load(c->inv_mass_a), tb_f4_load(c->inv_mass_b));
  return tb_f4_add(tb_f4_add(im, v3w_dot(cra, pa)), v3w_dot(crb, pb));
}

/* Tangent rows of every anchor k of the four lanes: arms along t0, t1 and the effective masses
 * (kg; 0 = no anchor in the lane). */
static void prepare_anchor_rows(tb_contact_wide* c, const tb_physx_lanes* ls) {
  v3w t0 = v3w_load(c->t0), t1 = v3w_load(c->t1);
  v3w ca0 = v3w_load(ls->ca0), cb0 = v3w_load(ls->cb0);
  tb_f4 zero = tb_f4_splat(0.0f), one = tb_f4_splat(1.0f);
  for (int k = 0; k < c->anchor_count; ++k) {
    float x[3][TB_LANES] = {{0}};
    int32_t has[TB_LANES];
    for (int l = 0; l < TB_LANES; ++l) {
      has[l] = k < ls->anchors[l];
      if (has[l]) set3(x, l, ls->ln[l].x[ls->pr->anchor_point[k][l]]);
    }
    tb_f4 mask = lane_mask(has);
    v3w xv = v3w_load(x), ra = v3w_sub(xv, ca0), rb = v3w_sub(xv, cb0);
    tb_anchor_wide* an = &c->a[k];
    tb_f4 k0 = row_arms(c, ls, mask, t0, ra, rb, an->ca_t0, an->cb_t0, an->ia_t0, an->ib_t0);
    tb_f4 k1 = row_arms(c, ls, mask, t1, ra, rb, an->ca_t1, an->cb_t1, an->ia_t1, an->ib_t1);
    tb_f4_store(an->mass_t0, tb_f4_select(tb_f4_and(mask, tb_f4_gt(k0, zero)), tb_f4_div(one, k0), zero));
    tb_f4_store(an->mass_t1, tb_f4_select(tb_f4_and(mask, tb_f4_gt(k1, zero)), tb_f4_div(one, k1), zero));
  }
}

/* Implicit spring row of point j of lane l (seed §3.2) with its unit response wn (1/kg) and
 * approach speed vn (m/s): a = h(d + h·k), x = 1/(1 + a·w); Δp = x·a·(target − vn) − x·p with
 * target −k·s/(d + h·k); an acceleration spring (k 1/s², d 1/s) has x = 1/(1 + a) and its velocity
 * change is converted through the effective mass 1/w; damping suppressed when separated and not
 * expected to close within the step. The lane's imp_mul is 1 and its vel_mul 0 when it comes here. */
static void prepare_spring_point(const tb_physx_ctx* ctx, tb_contact_wide* c, int l, int32_t j, const tb_physx_lanes* ls,
                                 float wn, float vn) {
  const tb_physx_lane* ln = &ls->ln[l];
  const tb_manifold_point* mp = &ln->mf->points[j];
  const tb_physx_wide_pairs* pr = ls->pr;
  tb_contact_point_wide* p = &c->p[j];
  float hi = ls->hi[l];
  float stiffness = pr->stiffness[l];
  float damping = mp->separation > 0.0f && mp->separation + vn * ctx->h > 0.0f ? 0.0f : pr->damping[l];
  float a_sp = hi * (damping + hi * stiffness);
  if (a_sp <= 0.0f) return;
  int accel = (pr->flags[l] & TB_CONTACT_MATERIAL_ACCELERATION_SPRING) != 0;
  float xk = 1.0f / (1.0f + a_sp * (accel ? 1.0f : wn));
  p->vel_mul[l] = xk * a_sp * (accel ? 1.0f / wn : 1.0f);
  p->compliant_rate[l] = stiffness / (damping + hi * stiffness);
  /* TGS: each internal step's spring impulse starts from zero, so the accumulated impulse of
   * earlier internal steps does not decay */
  p->imp_mul[l] = ctx->tgs ? 1.0f : 1.0f - xk;
}

/* Normal rows of every point j of the four lanes: arms along n and unit responses wn (1/kg), the
 * approach speed vn after this step's external forces (B's point velocity minus A's, plus the not
 * yet applied a·h, along n, m/s), the base separation (m); an active point with wn > 0 gets a row:
 * rigid, its velocity multiplier 1/wn (kg) and restitution targets (m/s), all lanes at once;
 * compliant, its implicit spring (prepare_spring_point). Lanes without point j keep zeros. */
static void prepare_point_rows(const tb_physx_ctx* ctx, tb_contact_wide* c, const tb_physx_lanes* ls) {
  const tb_solver_params* sp = &ctx->w->def.solver;
  tb_f4 zero = tb_f4_splat(0.0f), one = tb_f4_splat(1.0f);
  v3w n = v3w_load(c->n);
  v3w ca0 = v3w_load(ls->ca0), cb0 = v3w_load(ls->cb0);
  v3w va = v3w_load(ls->va), wa = v3w_load(ls->wa), vb = v3w_load(ls->vb), wb = v3w_load(ls->wb), dg = v3w_load(ls->dg);
  tb_f4 rigid = tb_f4_gt(tb_f4_splat(0.5f), tb_f4_load(c->compliant)); /* compliant is 0 or 1 */
  tb_f4 e = tb_f4_load(ls->restitution), h = tb_f4_splat(ctx->h);
  for (int32_t j = 0; j < c->point_count; ++j) {
    tb_f4 has = tb_f4_gt(tb_f4_load(ls->points), tb_f4_splat((float)j)); /* lanes with a point j */
    v3w xv = v3w_load(ls->x[j]), ra = v3w_sub(xv, ca0), rb = v3w_sub(xv, cb0); /* zeros outside has */
    tb_contact_point_wide* p = &c->p[j];
    tb_f4 wn = row_arms(c, ls, has, n, ra, rb, p->ca_n, p->cb_n, p->ia_n, p->ib_n);
    v3w dv = v3w_sub(v3w_add(vb, v3w_cross(wb, rb)), v3w_add(va, v3w_cross(wa, ra)));
    tb_f4 vn = v3w_dot(v3w_add(dv, dg), n);
    float sep_l[TB_LANES] = {0}, active_l[TB_LANES] = {0};
    for (int l = 0; l < TB_LANES; ++l)
      if (ls->points[l] > (float)j) {
        const tb_manifold_point* mp = &ls->ln[l].mf->points[j];
        sep_l[l] = mp->separation;
        active_l[l] = mp->active ? 1.0f : 0.0f;
      }
    tb_f4 sep = tb_f4_load(sep_l);
    /* an active point has a row unless nothing can move (wn <= 0; a NaN wn keeps its row, as
     * the step's NaN check expects) */
    tb_f4 row = tb_f4_select(tb_f4_ge(zero, wn), zero, tb_f4_and(has, tb_f4_gt(tb_f4_load(active_l), zero)));
    tb_f4 rigid_row = tb_f4_and(row, rigid);
    /* restitution: e > 0, closing faster than the bounce threshold, expected to touch within the
     * step; from a gap the position iterations move the pose as if the bodies had touched at the
     * step's start (PhysX biased error), the velocity iterations target the full rebound */
    tb_f4 bounce = tb_f4_and(rigid_row, tb_f4_and(tb_f4_gt(e, zero), tb_f4_lt(vn, tb_f4_splat(-sp->bounce_threshold_velocity))));
    bounce = tb_f4_and(bounce, tb_f4_lt(tb_f4_add(sep, tb_f4_mul(vn, h)), zero));
    tb_f4 target = tb_f4_mul(tb_f4_sub(zero, e), vn);
    tb_f4 biased = tb_f4_sub(target, tb_f4_select(tb_f4_gt(sep, zero), tb_f4_div(sep, h), zero));
    tb_f4 none = tb_f4_splat(TB_NO_RESTITUTION);
    tb_f4_store(p->base_separation, tb_f4_select(has, sep, zero));
    tb_f4_store(p->restitution_target, tb_f4_select(has, tb_f4_select(bounce, target, none), zero));
    tb_f4_store(p->restitution_biased, tb_f4_select(has, tb_f4_select(bounce, biased, none), zero));
    tb_f4_store(p->imp_mul, tb_f4_select(has, one, zero));
    tb_f4_store(p->vel_mul, tb_f4_select(rigid_row, tb_f4_div(one, wn), zero));
    int springs = tb_f4_bitmask(tb_f4_and(row, tb_f4_gt(tb_f4_load(c->compliant), zero)));
    if (springs) {
      float wn_l[TB_LANES], vn_l[TB_LANES];
      tb_f4_store(wn_l, wn);
      tb_f4_store(vn_l, vn);
      for (int l = 0; l < TB_LANES; ++l)
        if (springs & (1 << l)) prepare_spring_point(ctx, c, l, j, ls, wn_l[l], vn_l[l]);
    }
  }
}

/* Zeroes n bytes (a multiple of 16) from p with four-float stores of z, a zero the compiler does
 * not know (read from the state of zeros), so the loop stays stores: as a memset it was wasm's
 * memory.fill, a call into the runtime for each of a wide's few hundred bytes, four calls a wide
 * (bench/RESULTS.md "perf21"). */
static inline void zero_rows(void* p, size_t n, tb_f4 z) {
  char* c = (char*)p;
  size_t i = 0;
  for (; i + 64 <= n; i += 64) { /* a line's four stores per turn: the loop's count and test cost as much as a store */
    tb_f4_store((float*)(void*)(c + i), z);
    tb_f4_store((float*)(void*)(c + i + 16), z);
    tb_f4_store((float*)(void*)(c + i + 32), z);
    tb_f4_store((float*)(void*)(c + i + 48), z);
  }
  for (; i < n; i += 16) tb_f4_store((float*)(void*)(c + i), z);
}
/* Bytes of a point's and an anchor's per-lane fields (what row_arms does not write), from
 * base_separation and lambda_t0 to the end of the row's fields. */
#define TB_POINT_LANE_FIELDS (sizeof(tb_contact_point_wide) - offsetof(tb_contact_point_wide, base_separation))
#define TB_ANCHOR_LANE_FIELDS (offsetof(tb_anchor_wide, error_t1) + sizeof(float[TB_LANES]) - offsetof(tb_anchor_wide, lambda_t0))
_Static_assert(offsetof(tb_contact_wide, p) % 16 == 0 && sizeof(tb_contact_point_wide) % 16 == 0 &&
                   offsetof(tb_contact_point_wide, base_separation) % 16 == 0 && offsetof(tb_anchor_wide, lambda_t0) % 16 == 0 &&
                   TB_ANCHOR_LANE_FIELDS % 16 == 0 && (sizeof(tb_physx_lanes) - offsetof(tb_physx_lanes, dg)) % 16 == 0 && offsetof(tb_physx_lanes, dg) % 16 == 0,
               "zero_rows clears whole rows of four floats");

/* The lines a wide's lanes read at random (their manifolds, their bodies' sims and states), asked
 * for two wides ahead (core/prefetch.h): in a 16 000-body pile they come from memory, and waiting
 * for them was a quarter of this job's time. */
#define TB_PREPARE_AHEAD 2
static TB_INLINE_HOT void prefetch_lanes(const tb_physx_ctx* ctx, const tb_physx_wide_pairs* pr) {
  const tb_solver_data* d = ctx->d;
  for (int l = 0; l < TB_LANES; ++l) {
    int32_t m = pr->manifold[l];
    if (m < 0) continue;
    const char* mf = (const char*)(const void*)&ctx->w->manifolds[m];
    tb_prefetch(mf); tb_prefetch(mf + 64); tb_prefetch(mf + 128);
    int32_t side[2] = {pr->solver_a[l], pr->solver_b[l]};
    for (int s = 0; s < 2; ++s)
      if (side[s] >= 0) {
        tb_prefetch(&d->sims[side[s]]);
        tb_prefetch(&d->states[side[s]]);
      }
  }
}

void tb_physx_prepare_rows_job(int32_t begin, int32_t end, void* vctx) {
  const tb_physx_ctx* ctx = (const tb_physx_ctx*)vctx;
  tb_solver_data* d = ctx->d;
  for (int32_t k = begin; k < end; ++k) {
    if (k + TB_PREPARE_AHEAD < d->color_start[TB_GRAPH_COLORS + 1]) /* every wide, this chunk's or not */
      prefetch_lanes(ctx, &d->wide_pairs[d->wide_order[k + TB_PREPARE_AHEAD]]);
    tb_contact_wide* c = &d->wides[d->wide_order[k]];
    tb_physx_wide_pairs* pr = &d->wide_pairs[d->wide_order[k]];
    const int32_t* lanes = pr->manifold;
    int32_t points = 0;
    for (int l = 0; l < TB_LANES; ++l)
      if (lanes[l] >= 0 && ctx->w->manifolds[lanes[l]].point_count > points) points = ctx->w->manifolds[lanes[l]].point_count;
    /* zeros where the rows are read: the iterations and the readback stop at the wide's point
     * count, and a lane has no more anchors than points. The arms (and the anchors' masses) are
     * written whole, every lane, by row_arms for each point and anchor the wide reads; the other
     * fields of a row are written per lane, so only they start from zero */
    tb_f4 z = tb_f4_load(&d->states[ctx->zero_state].v.x);
    zero_rows(c, offsetof(tb_contact_wide, p), z);
    /* from the row's start plus the first field's offset: the zeros span several fields, which a
     * pointer to the first field's array may not reach */
    for (int32_t j = 0; j < points; ++j)
      zero_rows((char*)&c->p[j] + offsetof(tb_contact_point_wide, base_separation), TB_POINT_LANE_FIELDS, z);
    for (int32_t q = 0; q < points && q < TB_MAX_ANCHORS; ++q)
      zero_rows((char*)&c->a[q] + offsetof(tb_anchor_wide, lambda_t0), TB_ANCHOR_LANE_FIELDS, z);
    /* points <= the rows placed for the wide (place_rows: the bucket's point class is the pair's
     * point count, tb_pair.points, which equals its manifold's) */
    c->point_count = points;
    /* the lanes' columns (empty lanes read zeros); ln is set for the lanes with a manifold */
    tb_physx_lanes ls;
    ls.pr = pr;
    zero_rows((char*)&ls + offsetof(tb_physx_lanes, dg), sizeof ls - offsetof(tb_physx_lanes, dg), z);
    gather_lane_bodies(ctx, c, &ls);
    for (int l = 0; l < TB_LANES; ++l) {
      c->out_a[l] = c->out_b[l] = c->sink;
      pr->anchor_point[0][l] = pr->anchor_point[1][l] = pr->kept[l] = -1;
      pr->strong[l] = 0;
      if (lanes[l] >= 0) prepare_lane_bodies(ctx, c, l, lanes[l], &ls);
    }
    prepare_lane_rates(ctx, c, &ls);
    c->plain = 1;
    for (int l = 0; l < TB_LANES; ++l)
      if (lanes[l] >= 0 && (c->compliant[l] != 0.0f || c->max_impulse[l] != INFINITY)) c->plain = 0;
    for (int l = 0; l < TB_LANES; ++l)
      if (lanes[l] >= 0) prepare_lane_friction(ctx, c, l, &ls);
    prepare_tangents(c, &ls);
    prepare_anchor_drift(c, &ls);
    prepare_anchor_rows(c, &ls);
    prepare_point_rows(ctx, c, &ls);
  }
}
