/* Newton XPBD rigid contact solver (the `newton-xpbd` preset).
 *
 * One step of length h (Newton SolverXPBD.step, rigid bodies):
 *   predict every body (tb_newton_predict, no external force);
 *   `iterations` times (fixed, no tolerance): for every contact row at the current poses, skip it
 *     when d >= 0 (d from the core anchors minus the thicknesses, tb_newton_separation), else
 *     normal correction p_n = ω(−d)/(h·w) (N·s) at the core points, friction from the tangential
 *     slip of the two anchors limited per iteration by μ·p_n, torsion by μ_t·p_n, rolling by
 *     μ_r·p_n (the last two from the relative angular velocity) (Jacobi: all rows from the same
 *     poses);
 *     then every dynamic body applies the sum of its rows' impulses divided by its active
 *     contact count N (contact weighting) to its velocity (with a gyroscopic correction) and
 *     its pose (the velocity change times h), and zeroes a linear or angular velocity whose norm
 *     is below 1e-4;
 *   with velocity_from_positions (Newton's deprecated option) the velocities are then replaced
 *     by the pose change: v = (x1 − x0)/h, ω = 2·vec(q1·q0⁻¹)/h;
 *   optional restitution velocity pass (its impulse is not part of the readback).
 * Readback: each row's impulses times the symmetric weighting scale of its iteration, 1/N when
 * only one side has a body id, 2/(NA+NB) when both do (static = no id; kinematic bodies count).
 * Serial in a fixed order: identical results for any thread count. */
#include <string.h>

#include "../model/contact_store.h"
#include "newton.h"
#include "solver.h"

#define TB_XPBD_REST_SWEEPS 8      /* Gauss-Seidel sweeps per restitution iteration */
#define TB_XPBD_ZERO_VELOCITY 1e-4f /* m/s and rad/s: velocities below are zeroed after a correction */

/* Inverse effective mass (1/kg) of a linear impulse along unit dir at offsets ra, rb. */
static float inv_mass_along(const tb_newton_data* d, const tb_newton_contact* c, tb_vec3 ra, tb_vec3 rb, tb_vec3 dir,
                            const tb_mat3* ia, const tb_mat3* ib) {
  float wsum = 0.0f;
  if (c->a >= 0) {
    tb_vec3 x = tb_cross(ra, dir);
    wsum += d->bodies[c->a].inv_mass + tb_dot(x, tb_mat3_mul_v(*ia, x));
  }
  if (c->b >= 0) {
    tb_vec3 x = tb_cross(rb, dir);
    wsum += d->bodies[c->b].inv_mass + tb_dot(x, tb_mat3_mul_v(*ib, x));
  }
  return wsum;
}

/* Inverse effective inertia (1/(kg·m²)) of an angular impulse about unit axis. */
static float inv_inertia_about(const tb_newton_contact* c, tb_vec3 axis, const tb_mat3* ia, const tb_mat3* ib) {
  float wsum = 0.0f;
  if (c->a >= 0) wsum += tb_dot(axis, tb_mat3_mul_v(*ia, axis));
  if (c->b >= 0) wsum += tb_dot(axis, tb_mat3_mul_v(*ib, axis));
  return wsum;
}

static tb_vec3 body_v(const tb_newton_data* d, int32_t k) { return k >= 0 ? d->bodies[k].v : tb_v3(0, 0, 0); }
static tb_vec3 body_w(const tb_newton_data* d, int32_t k) { return k >= 0 ? d->bodies[k].w : tb_v3(0, 0, 0); }
static tb_vec3 body_x(const tb_newton_data* d, int32_t k) { return k >= 0 ? d->bodies[k].x : tb_v3(0, 0, 0); }

/* Symmetric readback scale of a row from the active counts of its two sides. */
static float weight_scale(const tb_newton_data* d, const tb_newton_contact* c, int weighting) {
  if (!weighting) return 1.0f;
  int32_t na = c->a >= 0 ? d->bodies[c->a].count : 0, nb = c->b >= 0 ? d->bodies[c->b].count : 0;
  if (na > 0 && nb > 0) return 2.0f / (float)(na + nb);
  return 1.0f / (float)(na > nb ? na : nb);
}

/* Friction impulse on body0 (N·s, at the surface anchors pa, pb with arms sa, sb) from the
 * tangential slip between the two anchors since collide() (the motion of dynamic bodies is in
 * it), plus h times the tangential surface velocity of a kinematic side; the impulse pulls the
 * anchors back together, limited by μ·p_n of this iteration (pn, N·s). */
static tb_vec3 row_friction(const tb_newton_data* d, const tb_newton_contact* c, tb_vec3 n, tb_vec3 pa, tb_vec3 pb,
                            tb_vec3 sa, tb_vec3 sb, const tb_mat3* ia, const tb_mat3* ib, float h, float relax, float pn) {
  tb_vec3 lin_f = tb_v3(0, 0, 0);
  tb_vec3 delta = tb_sub(pb, pa);
  tb_vec3 slip = tb_sub(delta, tb_scale(n, tb_dot(n, delta)));
  tb_vec3 vkin = tb_v3(0, 0, 0);
  if (c->a >= 0 && !d->bodies[c->a].dynamic) vkin = tb_sub(vkin, tb_add(body_v(d, c->a), tb_cross(body_w(d, c->a), sa)));
  if (c->b >= 0 && !d->bodies[c->b].dynamic) vkin = tb_add(vkin, tb_add(body_v(d, c->b), tb_cross(body_w(d, c->b), sb)));
  slip = tb_add(slip, tb_scale(tb_sub(vkin, tb_scale(n, tb_dot(n, vkin))), h));
  float err = tb_length(slip);
  if (err > 0.0f) {
    tb_vec3 t = tb_scale(slip, 1.0f / err); /* from body0's anchor towards body1's */
    float wt = inv_mass_along(d, c, sa, sb, t, ia, ib);
    if (wt > 0.0f) {
      float pt = relax * err / (h * wt);
      if (pt > c->mu * pn) pt = c->mu * pn;
      lin_f = tb_scale(t, pt);
    }
  }
  return lin_f;
}

/* Free angular impulse on body0 (N·m·s) from torsional (about n) and rolling (across n) friction
 * against the relative angular velocity dw (rad/s), each limited by its μ times pn (N·s). */
static tb_vec3 row_spin(const tb_newton_contact* c, tb_vec3 n, tb_vec3 dw, const tb_mat3* ia, const tb_mat3* ib, float h,
                        float relax, float pn) {
  tb_vec3 ang_a = tb_v3(0, 0, 0);
  if (c->mu_torsional > 0.0f) {
    float spin = tb_dot(n, dw);
    float wa = inv_inertia_about(c, n, ia, ib);
    if (spin != 0.0f && wa > 0.0f) {
      float lim = c->mu_torsional * pn;
      float lt = tb_clampf(relax * (spin * h) / (h * wa), -lim, lim);
      ang_a = tb_mul_add(ang_a, lt, n);
    }
  }
  if (c->mu_rolling > 0.0f) {
    tb_vec3 roll = tb_sub(dw, tb_scale(n, tb_dot(n, dw)));
    float rl = tb_length(roll);
    if (rl > 0.0f) {
      tb_vec3 axis = tb_scale(roll, 1.0f / rl);
      float wa = inv_inertia_about(c, axis, ia, ib);
      if (wa > 0.0f) {
        float lr = relax * (rl * h) / (h * wa);
        if (lr > c->mu_rolling * pn) lr = c->mu_rolling * pn;
        ang_a = tb_mul_add(ang_a, lr, axis);
      }
    }
  }
  return ang_a;
}

/* One penetrating row (separation s < 0, m): its normal, friction and spin impulses (N·s,
 * N·m·s) added to the bodies' deltas, and its readback weighted by this iteration's scale. */
static void solve_row(tb_newton_data* d, tb_newton_contact* c, float s, float h, float relax, int weighting) {
  tb_vec3 n = c->n;
  /* the normal acts at the core points (a sphere's centre): a rolling sphere's contact point
   * rotating away from the bottom gives the normal no lever */
  tb_vec3 ra = tb_sub(c->core_a, body_x(d, c->a));
  tb_vec3 rb = tb_sub(c->core_b, body_x(d, c->b));
  /* the world inverse inertias by address: copied, a row moved 72 bytes per call of the helpers */
  const tb_mat3 zero = tb_mat3_zero();
  const tb_mat3* ia = c->a >= 0 ? &d->bodies[c->a].inv_inertia_world : &zero;
  const tb_mat3* ib = c->b >= 0 ? &d->bodies[c->b].inv_inertia_world : &zero;
  float wn = inv_mass_along(d, c, ra, rb, n, ia, ib);
  if (wn <= 0.0f) return; /* both sides immovable */
  float pn = relax * (-s) / (h * wn);
  tb_vec3 lin_n = tb_scale(n, -pn); /* normal impulse on body0 (N·s), at the core points */
  tb_vec3 lin_f = tb_v3(0, 0, 0);   /* friction impulse on body0 (N·s), at the surface anchors */
  /* surface anchors: material points carried by the bodies (they rotate with a sphere) */
  tb_vec3 pa = tb_newton_anchor(d, c->a, c->la), pb = tb_newton_anchor(d, c->b, c->lb);
  tb_vec3 sa = tb_sub(pa, body_x(d, c->a)), sb = tb_sub(pb, body_x(d, c->b));
  if (c->mu > 0.0f) lin_f = row_friction(d, c, n, pa, pb, sa, sb, ia, ib, h, relax, pn);
  tb_vec3 dw = tb_sub(body_w(d, c->b), body_w(d, c->a));
  tb_vec3 ang_a = row_spin(c, n, dw, ia, ib, h, relax, pn); /* free angular impulse on body0 (N·m·s) */
  tb_vec3 lin_a = tb_add(lin_n, lin_f); /* impulse on body0 (N·s) */
  tb_vec3 torque_a = tb_add(tb_add(tb_cross(ra, lin_n), tb_cross(sa, lin_f)), ang_a);
  tb_vec3 torque_b = tb_sub(tb_neg(tb_add(tb_cross(rb, lin_n), tb_cross(sb, lin_f))), ang_a);
  if (c->a >= 0) {
    d->bodies[c->a].dlin = tb_add(d->bodies[c->a].dlin, lin_a);
    d->bodies[c->a].dang = tb_add(d->bodies[c->a].dang, torque_a);
  }
  if (c->b >= 0) {
    d->bodies[c->b].dlin = tb_sub(d->bodies[c->b].dlin, lin_a);
    d->bodies[c->b].dang = tb_add(d->bodies[c->b].dang, torque_b);
  }
  /* readback, weighted by this iteration's symmetric scale */
  float sc = weight_scale(d, c, weighting);
  c->scale = sc;
  c->marked = 1;
  c->pn += sc * pn;
  c->pn_raw += pn;
  c->f1 = tb_mul_add(c->f1, -sc, lin_a);
  c->t0c = tb_mul_add(c->t0c, sc, torque_a);
  if (c->a >= 0) {
    d->bodies[c->a].sum_f = tb_mul_add(d->bodies[c->a].sum_f, sc, lin_a);
    d->bodies[c->a].sum_t = tb_mul_add(d->bodies[c->a].sum_t, sc, torque_a);
  }
  if (c->b >= 0) {
    d->bodies[c->b].sum_f = tb_mul_add(d->bodies[c->b].sum_f, -sc, lin_a);
    d->bodies[c->b].sum_t = tb_mul_add(d->bodies[c->b].sum_t, sc, torque_b);
  }
}

/* Apply (Newton apply_body_deltas): the weighted impulses change the velocities (m/s, rad/s),
 * and the positions by those changes times h; the angular change carries the gyroscopic
 * correction. */
static void apply_deltas(tb_newton_data* d, float h, int weighting) {
  for (int32_t k = 0; k < d->body_count; ++k) {
    tb_newton_body* b = &d->bodies[k];
    if (!b->dynamic) continue;
    float wgt = weighting && b->count > 0 ? 1.0f / (float)b->count : 1.0f;
    tb_vec3 dv = tb_scale(b->dlin, b->inv_mass * wgt);
    tb_quat q0 = b->q;
    tb_vec3 wb = tb_inv_rotate(q0, b->w);
    tb_vec3 dwb = tb_mat3_mul_v(b->inv_inertia, tb_inv_rotate(q0, tb_scale(b->dang, wgt)));
    /* change of the Coriolis term: (wb + dwb) × I(wb + dwb) − wb × I wb */
    tb_vec3 gyro = tb_add(tb_cross(dwb, tb_mat3_mul_v(b->inertia, tb_add(wb, dwb))), tb_cross(wb, tb_mat3_mul_v(b->inertia, dwb)));
    tb_vec3 dw = tb_rotate(q0, tb_sub(dwb, tb_scale(tb_mat3_mul_v(b->inv_inertia, gyro), h)));
    b->q = tb_quat_integrate(q0, dw, h);
    b->x = tb_mul_add(b->x, h, dv);
    tb_vec3 v1 = tb_add(b->v, dv), w1 = tb_add(b->w, dw);
    /* Newton zeroes the norm of the updated velocity, linear and angular separately */
    if (tb_length(v1) < TB_XPBD_ZERO_VELOCITY) v1 = tb_v3(0, 0, 0);
    if (tb_length(w1) < TB_XPBD_ZERO_VELOCITY) w1 = tb_v3(0, 0, 0);
    b->v = v1;
    b->w = w1;
  }
}

/* One position iteration: rows then the weighted application. The rows only add to the bodies'
 * deltas (Jacobi), so each body's world inverse inertia and each row's separation are computed
 * once, at the iteration's poses. */
static void iterate(tb_newton_data* d, float h, float relax, int weighting) {
  for (int32_t k = 0; k < d->body_count; ++k) {
    d->bodies[k].dlin = d->bodies[k].dang = tb_v3(0, 0, 0);
    d->bodies[k].count = 0;
    d->bodies[k].inv_inertia_world = tb_newton_inv_inertia_world(d, k);
  }
  /* separations and active counts first: the readback scale needs this iteration's counts */
  for (int32_t i = 0; i < d->contact_count; ++i) {
    tb_newton_contact* c = &d->contacts[i];
    /* tb_newton_separation, keeping the anchors for the row */
    c->core_a = tb_newton_anchor(d, c->a, c->ca);
    c->core_b = tb_newton_anchor(d, c->b, c->cb);
    c->separation = tb_newton_separation_at(c, c->core_a, c->core_b);
    if (c->separation >= 0.0f) continue;
    if (c->a >= 0) d->bodies[c->a].count++;
    if (c->b >= 0) d->bodies[c->b].count++;
  }
  for (int32_t i = 0; i < d->contact_count; ++i) {
    tb_newton_contact* c = &d->contacts[i];
    if (c->separation >= 0.0f) continue; /* a record with d >= 0 gets no correction */
    solve_row(d, c, c->separation, h, relax, weighting);
  }
  apply_deltas(d, h, weighting);
}

#define TB_XPBD_REST_MAX_ROWS 12 /* rows of one body-pair manifold in the restitution pass */

/* Body-pair key of a row, independent of which side is shape0 (static = -1). */
static uint64_t pair_key(const tb_newton_contact* c) {
  int32_t lo = c->a < c->b ? c->a : c->b, hi = c->a < c->b ? c->b : c->a;
  return ((uint64_t)(uint32_t)(lo + 1) << 32) | (uint32_t)(hi + 1);
}

/* Row order for the manifolds: by body pair, then by depth at the final poses (deepest first),
 * then by row index: a stable merge sort, so the choice is deterministic. */
static int row_before(const tb_newton_data* d, int32_t i, int32_t j) {
  const tb_newton_contact *ci = &d->contacts[i], *cj = &d->contacts[j];
  uint64_t ki = pair_key(ci), kj = pair_key(cj);
  if (ki != kj) return ki < kj;
  if (ci->depth != cj->depth) return ci->depth < cj->depth;
  return i < j;
}

static void sort_rows(tb_newton_data* d, int32_t n) {
  int32_t* a = d->rest_order;
  int32_t* t = d->rest_tmp;
  for (int32_t width = 1; width < n; width *= 2) {
    for (int32_t lo = 0; lo < n; lo += 2 * width) {
      int32_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
      int32_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) t[k++] = row_before(d, a[j], a[i]) ? a[j++] : a[i++];
      while (i < mid) t[k++] = a[i++];
      while (j < hi) t[k++] = a[j++];
    }
    memcpy(a, t, (size_t)n * sizeof(int32_t));
  }
}

/* Restitution pass (Newton apply_rigid_restitution) on each body-pair manifold of marked rows
 * (at most 12 rows: the deepest at the final poses). Target normal velocity −e·v_old when the
 * predicted approach v_old < −2·g*·h, v_old kept when it separates faster than 2·g*·h, 0 in
 * between (g* = |gravity|); 8 Gauss-Seidel sweeps per outer iteration with an accumulated lower
 * bound (first iteration: down to minus the row's position impulse, which removes the
 * over-separation of the projection; later ones: 0); each body applies the mean of its
 * manifolds' velocity changes. */
static void restitution_pass(tb_world* w, tb_newton_data* d, float h, int32_t outer) {
  const float* g = w->def.gravity;
  float gstar = sqrtf(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
  float threshold = 2.0f * gstar * h;
  /* marked rows only, ordered into manifolds */
  int32_t n = 0;
  for (int32_t i = 0; i < d->contact_count; ++i) {
    tb_newton_contact* c = &d->contacts[i];
    if (!c->marked) continue;
    c->depth = tb_newton_separation(d, c);
    d->rest_order[n++] = i;
  }
  if (n == 0) return;
  sort_rows(d, n);
  for (int32_t it = 0; it < outer; ++it) {
    for (int32_t k = 0; k < d->body_count; ++k) {
      d->rest_dv[k] = d->rest_dw[k] = tb_v3(0, 0, 0);
      d->rest_count[k] = 0;
    }
    for (int32_t gi = 0; gi < n;) {
      int32_t ge = gi;
      uint64_t key = pair_key(&d->contacts[d->rest_order[gi]]);
      while (ge < n && pair_key(&d->contacts[d->rest_order[ge]]) == key) ++ge;
      int32_t rows = ge - gi < TB_XPBD_REST_MAX_ROWS ? ge - gi : TB_XPBD_REST_MAX_ROWS;
      const tb_newton_contact* c0 = &d->contacts[d->rest_order[gi]];
      /* the two bodies of the manifold: p = lower solver index, q = higher (-1 static) */
      int32_t p = c0->a < c0->b ? c0->a : c0->b, q = c0->a < c0->b ? c0->b : c0->a;
      int dyn_p = p >= 0 && d->bodies[p].dynamic, dyn_q = q >= 0 && d->bodies[q].dynamic;
      if (!dyn_p && !dyn_q) { gi = ge; continue; }
      tb_vec3 v[2] = {body_v(d, p), body_v(d, q)}, om[2] = {body_w(d, p), body_w(d, q)};
      const tb_vec3 v0[2] = {v[0], v[1]}, om0[2] = {om[0], om[1]};
      tb_mat3 inv_i[2] = {tb_newton_inv_inertia_world(d, p), tb_newton_inv_inertia_world(d, q)};
      float inv_m[2] = {p >= 0 ? d->bodies[p].inv_mass : 0.0f, q >= 0 ? d->bodies[q].inv_mass : 0.0f};
      float lambda[TB_XPBD_REST_MAX_ROWS] = {0};
      for (int32_t sweep = 0; sweep < TB_XPBD_REST_SWEEPS; ++sweep) {
        for (int32_t r = 0; r < rows; ++r) {
          const tb_newton_contact* c = &d->contacts[d->rest_order[gi + r]];
          int sa = c->a == p ? 0 : 1, sb = 1 - sa; /* which local copy is body0 / body1 */
          tb_vec3 n1 = c->n;
          tb_vec3 ra = tb_sub(tb_newton_anchor(d, c->a, c->la), body_x(d, c->a));
          tb_vec3 rb = tb_sub(tb_newton_anchor(d, c->b, c->lb), body_x(d, c->b));
          tb_vec3 xa = tb_cross(ra, n1), xb = tb_cross(rb, n1);
          float wn = inv_m[sa] + tb_dot(xa, tb_mat3_mul_v(inv_i[sa], xa)) + inv_m[sb] + tb_dot(xb, tb_mat3_mul_v(inv_i[sb], xb));
          if (wn <= 0.0f) continue;
          /* approach speed from the predicted velocities (before the projection) */
          tb_vec3 pva = c->a >= 0 ? tb_add(d->bodies[c->a].v_pred, tb_cross(d->bodies[c->a].w_pred, ra)) : tb_v3(0, 0, 0);
          tb_vec3 pvb = c->b >= 0 ? tb_add(d->bodies[c->b].v_pred, tb_cross(d->bodies[c->b].w_pred, rb)) : tb_v3(0, 0, 0);
          float vold = tb_dot(n1, tb_sub(pvb, pva));
          float target = vold < -threshold ? -c->restitution * vold : (vold > threshold ? vold : 0.0f);
          float vn = tb_dot(n1, tb_sub(tb_add(v[sb], tb_cross(om[sb], rb)), tb_add(v[sa], tb_cross(om[sa], ra))));
          float lo = it == 0 ? -c->pn_raw : 0.0f;
          float l1 = lambda[r] + (target - vn) / wn;
          if (l1 < lo) l1 = lo;
          float dl = l1 - lambda[r];
          lambda[r] = l1;
          tb_vec3 imp = tb_scale(n1, dl); /* on body1 */
          v[sa] = tb_mul_add(v[sa], -inv_m[sa], imp);
          om[sa] = tb_sub(om[sa], tb_mat3_mul_v(inv_i[sa], tb_cross(ra, imp)));
          v[sb] = tb_mul_add(v[sb], inv_m[sb], imp);
          om[sb] = tb_add(om[sb], tb_mat3_mul_v(inv_i[sb], tb_cross(rb, imp)));
        }
      }
      const int32_t ids[2] = {p, q};
      const int dyn[2] = {dyn_p, dyn_q};
      for (int s = 0; s < 2; ++s) {
        if (!dyn[s]) continue;
        d->rest_dv[ids[s]] = tb_add(d->rest_dv[ids[s]], tb_sub(v[s], v0[s]));
        d->rest_dw[ids[s]] = tb_add(d->rest_dw[ids[s]], tb_sub(om[s], om0[s]));
        d->rest_count[ids[s]]++;
      }
      gi = ge;
    }
    for (int32_t k = 0; k < d->body_count; ++k) {
      if (d->rest_count[k] == 0) continue;
      float s = 1.0f / (float)d->rest_count[k];
      d->bodies[k].v = tb_mul_add(d->bodies[k].v, s, d->rest_dv[k]);
      d->bodies[k].w = tb_mul_add(d->bodies[k].w, s, d->rest_dw[k]);
    }
  }
}

tb_status tb_solve_xpbd(tb_world* w, const tb_step_context* step) {
  tb_status st = tb_newton_setup(w, "solve");
  if (st != TB_OK) return st;
  tb_newton_data* d = w->newton;
  const tb_newton_params* p = &w->def.solver.newton;
  float h = step->dt;

  for (int32_t k = 0; k < d->body_count; ++k) {
    tb_newton_body* b = &d->bodies[k];
    tb_newton_predict(w, b, tb_v3(0, 0, 0), tb_v3(0, 0, 0), h);
    b->v_pred = b->v;
    b->w_pred = b->w;
  }
  int joints = tb_newton_joints_begin(w);
  for (int32_t it = 0; it < p->iterations; ++it) {
    iterate(d, h, p->relaxation, p->contact_weighting);
    if (!joints) continue;
    tb_newton_joints_xpbd(w, d, h); /* after the contacts, from the corrected poses */
    apply_deltas(d, h, 0);
  }
  if (joints) tb_newton_joints_readback(w, d, h);

  /* kinematic bodies keep their prescribed velocity; optionally velocities from positions */
  float inv_h = step->inv_h;
  for (int32_t k = 0; k < d->body_count; ++k) {
    tb_newton_body* b = &d->bodies[k];
    if (!b->dynamic) {
      b->v = b->v0;
      b->w = b->w0;
      continue;
    }
    if (!p->velocity_from_positions) continue;
    b->v = tb_scale(tb_sub(b->x, b->x0), inv_h);
    tb_quat dq = tb_quat_mul(b->q, tb_quat_conj(b->q0));
    tb_vec3 om = tb_scale(tb_v3(dq.x, dq.y, dq.z), 2.0f * inv_h);
    b->w = dq.w < 0.0f ? tb_neg(om) : om;
  }
  if (p->restitution) restitution_pass(w, d, h, p->restitution_iterations);

  /* readback (Newton convention), without the restitution pass */
  tb_contact_fields* f = &w->contacts.f;
  const tb_bodies* bodies = &w->bodies;
  const tb_shapes* shapes = &w->shapes;
  /* detected-only points (no row) received nothing: zero wrench, no weighting */
  memset(f->wrench, 0, 6 * (size_t)w->contacts.count * sizeof(float));
  for (int32_t k = 0; k < w->contacts.count; ++k) f->readback_scale[k] = 1.0f;
  float common = 1.0f; /* the scale shared by every corrected row (1 when none), NaN when they differ */
  int first = 1;
  for (int32_t i = 0; i < d->contact_count; ++i) {
    const tb_newton_contact* c = &d->contacts[i];
    if (c->marked) {
      if (first) common = c->scale, first = 0;
      else if (c->scale != common) common = NAN;
    }
    int32_t k = c->store;
    if (k < 0) continue;
    tb_vec3 t0 = tb_v3(f->tangent0[3 * k], f->tangent0[3 * k + 1], f->tangent0[3 * k + 2]);
    tb_vec3 t1 = tb_v3(f->tangent1[3 * k], f->tangent1[3 * k + 1], f->tangent1[3 * k + 2]);
    f->normal_impulse[k] = c->pn;
    f->tangent_impulse[2 * k] = tb_dot(c->f1, t0);
    f->tangent_impulse[2 * k + 1] = tb_dot(c->f1, t1);
    tb_vec3 force1 = tb_scale(c->f1, inv_h);
    memcpy(f->force + 3 * k, &force1, sizeof force1);
    /* wrench by body1 on body0 about body0's centre of mass (static body0: its origin) */
    tb_vec3 torque0 = tb_scale(c->t0c, inv_h);
    if (c->a < 0) {
      /* static body0: accumulated about the world origin; moved to body0's origin O:
       * τ_O = τ_0 + (0 − O) × f0 */
      const float* o = bodies->f.transform + 7 * shapes->body[w->pairs[c->pair].shape0];
      torque0 = tb_add(torque0, tb_cross(tb_v3(-o[0], -o[1], -o[2]), tb_neg(force1)));
    }
    float* wr = f->wrench + 6 * k;
    wr[0] = -force1.x; wr[1] = -force1.y; wr[2] = -force1.z;
    wr[3] = torque0.x; wr[4] = torque0.y; wr[5] = torque0.z;
    f->readback_scale[k] = c->scale;
  }
  tb_readback_set(w, TB_READBACK_NEWTON, TB_RB_PER_CONTACT | TB_RB_FRICTION | TB_RB_TORSIONAL | TB_RB_PER_BODY, 1,
                  p->contact_weighting ? common : 1.0f);

  /* no tolerance */
  tb_solver_status_set(w, TB_SOLVER_XPBD, p->iterations, p->restitution ? p->restitution_iterations * TB_XPBD_REST_SWEEPS : 0,
                       TB_CONVERGED_UNDEFINED, NAN, tb_newton_max_penetration(d));
  w->stats.substeps = 1;
  tb_newton_finish(w, h);
  return TB_OK;
}
