/* Newton penalty contact forces with semi-implicit Euler (the `newton-semi` preset; Newton
 * SolverSemiImplicit, eval_body_contact).
 *
 * Per substep hs = h / substeps, at the current poses and velocities, for each contact row with
 * separation d = nᵀ(p1 − p0) (n from shape0 to shape1; p0 = core anchor of shape0 + t0·n,
 * p1 = core anchor of shape1 − t1·n, t = sphere or capsule radius, else 0) and relative normal
 * velocity v_n = nᵀ(v1 − v0) at those points (v_n < 0 closing):
 *   skipped when d >= ka (adhesion range);
 *   a_n = ke·d + kd·min(v_n, 0)·[d < 0]                                   (N; < 0 pushes apart)
 *   friction only when d < 0: v_t = slip of body0 relative to body1, s = huber(v_t, δ),
 *   f_t = v_t/s · min(kf·s, −μ·a_n) for s > 0                               (N)
 *   body0 receives n·a_n − f_t at its anchor, body1 the opposite.
 * huber(v, δ) = ½|v|² when |v| <= δ, else δ(|v| − ½δ) (Newton norm_huber). For 0 <= d < ka the
 * force ke·d > 0 pulls the bodies together (adhesion). Then semi-implicit Euler
 * (tb_newton_predict with the contact force and torque). No iteration, no per-contact readback:
 * the per-contact fields are NaN and the per-body totals (time averages) are the readback. */
#include <math.h>
#include <string.h>

#include <stdint.h>

#include "../model/contact_store.h"
#include "newton.h"
#include "solver.h"

/* Newton norm_huber: m²/s² below δ, m/s·(m/s) above. */
static float huber(tb_vec3 v, float delta) {
  float a = tb_dot(v, v);
  if (a <= delta * delta) return 0.5f * a;
  return delta * (sqrtf(a) - 0.5f * delta);
}

/* Contact force on body0 (N, world) of one row at the current state; zero outside the range. */
static tb_vec3 penalty_force(const tb_newton_data* d, const tb_newton_contact* c, float delta, tb_vec3* ra_out,
                             tb_vec3* rb_out) {
  tb_vec3 n = c->n;
  /* the points where the force acts (Newton: contact point moved out by the thickness along n):
   * the core anchor plus the thickness, so a sphere's stays below its centre as it rolls */
  tb_vec3 pa = tb_mul_add(tb_newton_anchor(d, c->a, c->ca), c->ta, n);
  tb_vec3 pb = tb_mul_add(tb_newton_anchor(d, c->b, c->cb), -c->tb, n);
  tb_vec3 xa = c->a >= 0 ? d->bodies[c->a].x : pa, xb = c->b >= 0 ? d->bodies[c->b].x : pb;
  tb_vec3 ra = tb_sub(pa, xa), rb = tb_sub(pb, xb);
  *ra_out = ra;
  *rb_out = rb;
  float s = tb_dot(n, tb_sub(pb, pa));
  if (s >= c->ka) return tb_v3(0, 0, 0);
  tb_vec3 va = c->a >= 0 ? tb_add(d->bodies[c->a].v, tb_cross(d->bodies[c->a].w, ra)) : tb_v3(0, 0, 0);
  tb_vec3 vb = c->b >= 0 ? tb_add(d->bodies[c->b].v, tb_cross(d->bodies[c->b].w, rb)) : tb_v3(0, 0, 0);
  float vn = tb_dot(n, tb_sub(vb, va));
  float an = c->ke * s;
  tb_vec3 f0 = tb_v3(0, 0, 0);
  if (s < 0.0f) {
    an += c->kd * (vn < 0.0f ? vn : 0.0f);
    tb_vec3 vrel = tb_sub(va, vb);
    tb_vec3 vt = tb_sub(vrel, tb_scale(n, tb_dot(n, vrel)));
    float sh = huber(vt, delta);
    if (sh > 0.0f) {
      float mag = c->kf * sh < -c->mu * an ? c->kf * sh : -c->mu * an;
      f0 = tb_scale(vt, -mag / sh);
    }
  }
  return tb_mul_add(f0, an, n);
}

/* What the checks know of a body before the step, in d->penalty_check: whether it falls (gravity
 * on) with no joint holding it, so it will land on some support, and the spring sums of its
 * rows at the poses of the step's start. */
static void gather_checks(tb_world* w, tb_newton_data* d) {
  const float* g = w->def.gravity;
  int32_t falls = g[0] != 0.0f || g[1] != 0.0f || g[2] != 0.0f;
  for (int32_t k = 0; k < d->body_count; ++k) d->penalty_check[k] = (tb_penalty_check){.falls = falls};
  for (int32_t j = 0; j < w->joints.count; ++j) {
    if (w->joints.def[j].type < 0) continue;
    const int32_t ends[2] = {w->joints.slot0[j], w->joints.slot1[j]};
    for (int s = 0; s < 2; ++s)
      if (ends[s] >= 0 && d->body_of_slot[ends[s]] >= 0) d->penalty_check[d->body_of_slot[ends[s]]].falls = 0;
  }
  for (int32_t i = 0; i < d->contact_count; ++i) {
    const tb_newton_contact* c = &d->contacts[i];
    const int rubs = c->mu > 0.0f && !(tb_newton_separation(d, c) >= 0.0f); /* a friction row now */
    const int32_t sides[2] = {c->a, c->b};
    for (int s = 0; s < 2; ++s) {
      if (sides[s] < 0) continue;
      tb_penalty_check* pc = &d->penalty_check[sides[s]];
      pc->sum_ke += c->ke;
      pc->sum_kd += c->kd;
      pc->max_ke = fmaxf(pc->max_ke, c->ke);
      if (rubs) pc->sum_kf += c->kf;
    }
  }
}

/* The contact parameters a body can get before it touches anything, from the world's and every
 * shape material's: the softest kf of a row with friction (a material sets its own penalty
 * parameters when its ke > 0), the largest friction coefficient (0: no row has friction) and the
 * stiffest ke. The world keeps no record of material changes to cache these by, so they are taken
 * once per step over the shapes. */
typedef struct spring_range {
  float kf_soft;  /* N·s/m */
  float mu_max;   /* 1 */
  float ke_stiff; /* N/m */
} spring_range;

static spring_range spring_range_of(const tb_world* w) {
  const tb_shapes* shapes = &w->shapes;
  const tb_newton_params* np = &w->def.solver.newton;
  spring_range r = {np->kf, 0.0f, np->ke};
  for (int32_t sh = 0; sh < shapes->count; ++sh) {
    if (shapes->type[sh] < 0) continue;
    const tb_material* m = &shapes->material[sh];
    r.mu_max = fmaxf(r.mu_max, m->dynamic_friction);
    r.ke_stiff = fmaxf(r.ke_stiff, m->ke);
    if (m->ke > 0.0f) r.kf_soft = fminf(r.kf_soft, m->kf);
  }
  return r;
}

/* Explicit viscous friction is stable only when hs·Σkf/m <= 2 for each dynamic body (Σ over its
 * penetrating rows: the slip mode of its translation, v <- v·(1 − hs·Σkf/m)); above, the box
 * chatters with a slip that changes sign every substep and drifts. A falling body (gather_checks)
 * will land on at least one row, so it is judged on one row of the softest kf any contact could
 * get (the world's or a shape material's) from its first step, not when it lands. Refused before
 * the step with the body, the number and the substeps that would do; a stricter rotational mode
 * is not checked. */
static tb_status check_friction_stability(tb_world* w, tb_newton_data* d, const tb_step_context* step,
                                          const spring_range* range) {
  const float hs = step->h;
  for (int32_t k = 0; k < d->body_count; ++k) {
    const tb_newton_body* b = &d->bodies[k];
    if (!b->dynamic) continue;
    const tb_penalty_check* pc = &d->penalty_check[k];
    float kf = pc->sum_kf;
    int ahead = 0; /* judged on the one row it will land on */
    if (pc->falls && range->mu_max > 0.0f && range->kf_soft > kf) { kf = range->kf_soft; ahead = 1; }
    float rate = hs * kf * b->inv_mass;
    if (rate > 2.0f) {
      float need_f = ceilf(step->dt * kf * b->inv_mass / 2.0f); /* may exceed int32: say so */
      int32_t need = need_f < 2147483647.0f ? (int32_t)need_f : INT32_MAX;
      return tb_world_fail(w, TB_ERR_INVALID_STATE,
                           "solve: penalty friction unstable for body %d: h_s %g s x Σkf %g N·s/m / m %g kg = %.3g > 2 "
                           "(explicit friction%s); raise solver.newton.substeps (JS penaltySubsteps) to >= %d or lower kf; "
                           "the step was not taken",
                           tb_make_id(b->slot, w->bodies.generation[b->slot]), (double)hs, (double)kf,
                           (double)(1.0f / b->inv_mass), (double)rate, ahead ? ", on the one row it lands on" : "", (int)need);
    }
  }
  return TB_OK;
}

/* Rows a shape can rest on against one flat support (a sphere 1, a capsule lying down 2, a box
 * or cylinder on a face 4) and its smallest half size (m): the depth at which its centre (or
 * core) reaches the support's surface. 0 rows: not checked (hulls, static-only shapes). */
static int support_rows(const tb_shapes* s, int32_t sh, float* size) {
  const float* p = s->params + 4 * sh;
  switch (s->type[sh]) {
    case TB_SHAPE_SPHERE: *size = p[0]; return 1;
    case TB_SHAPE_CAPSULE: *size = p[0]; return 2;
    case TB_SHAPE_BOX: *size = fminf(p[0], fminf(p[1], p[2])); return 4;
    case TB_SHAPE_CYLINDER: *size = fminf(p[0], p[1]); return 4;
    case TB_SHAPE_ELLIPSOID: *size = fminf(p[0], fminf(p[1], p[2])); return 1;
    default: *size = 0.0f; return 0;
  }
}

/* Explicit normal springs, checked before the step for each dynamic body:
 * - stability (semi-implicit Euler on the body's translation, Σ over every row of the body: they
 *   may open during the step): with a = hs·Σkd/m and b = hs²·Σke/m the update (v, x) is stable
 *   when b + 2a <= 4 (its determinant is 1 − a, its trace 2 − a − b). Above, the body rings with
 *   a growing amplitude and leaves the float range. Rotational modes are not checked.
 * - weight: at rest on springs of stiffness ke a body of weight m·|g| sinks m·|g|/(rows·ke). Even
 *   in its most favourable case (on a flat support with every row its shape can get there, the
 *   stiffest ke of the world or of its current rows) a body that would sink deeper than its
 *   smallest half size has its centre below the support's surface and falls through. Only a
 *   falling body (gather_checks: gravity on, no joint that may carry it) is judged; the rule looks
 *   at the body, not at its contacts, so it refuses in its first step, before it lands.
 * Each refusal names the body, the number and the value that would do. */
static tb_status check_springs(tb_world* w, tb_newton_data* d, const tb_step_context* step, const spring_range* range) {
  const float hs = step->h;
  const tb_bodies* bodies = &w->bodies;
  const tb_shapes* shapes = &w->shapes;
  const float g = sqrtf(w->def.gravity[0] * w->def.gravity[0] + w->def.gravity[1] * w->def.gravity[1] +
                        w->def.gravity[2] * w->def.gravity[2]);
  for (int32_t k = 0; k < d->body_count; ++k) {
    const tb_newton_body* b = &d->bodies[k];
    if (!b->dynamic) continue;
    const tb_penalty_check* pc = &d->penalty_check[k];
    float ke = pc->sum_ke, kd = pc->sum_kd, m = 1.0f / b->inv_mass;
    tb_body_id id = tb_make_id(b->slot, bodies->generation[b->slot]);
    float rate = hs * hs * ke * b->inv_mass + 2.0f * hs * kd * b->inv_mass;
    if (rate > 4.0f) {
      /* largest stable substep: the positive root of ke·x² + 2kd·x − 4m = 0 (s) */
      float x = (-kd + sqrtf(kd * kd + 4.0f * ke * m)) / ke;
      float need_f = ceilf(step->dt / x);
      int32_t need = need_f < 2147483647.0f ? (int32_t)need_f : INT32_MAX;
      return tb_world_fail(w, TB_ERR_INVALID_STATE,
                           "solve: penalty normal spring unstable for body %d: hs²·Σke/m + 2hs·Σkd/m (hs %g s, Σke %g N/m, Σkd %g N·s/m, "
                           "m %g kg) = %.4g > 4; raise solver.newton.substeps (JS penaltySubsteps) to >= %d or lower ke, kd; "
                           "step not taken",
                           id, (double)hs, (double)ke, (double)kd, (double)m, (double)rate, (int)need);
    }
    if (!pc->falls) continue; /* not falling free: not judged by its weight */
    int rows = 0;
    float size = 0.0f;
    for (int32_t sh = bodies->first_shape[b->slot]; sh >= 0; sh = shapes->next[sh]) {
      float sz;
      int r = support_rows(shapes, sh, &sz);
      if (r == 0) { rows = 0; break; } /* a shape this rule does not know: not judged */
      rows += r;
      size = fmaxf(size, sz);
    }
    if (rows == 0) continue;
    float ke_best = fmaxf(range->ke_stiff, pc->max_ke);
    float depth = m * g / ((float)rows * ke_best);
    if (depth > size)
      return tb_world_fail(w, TB_ERR_INVALID_STATE,
                           "solve: penalty spring too soft for body %d: m·|g|/(rows·ke) = %.3g kg·%.3g m/s²/(%d·%g N/m) = %.3g m deep "
                           "at rest > its half size %g m, it sinks through; raise ke (solver.newton.ke, JS ke) to >= %.4g N/m; "
                           "step not taken",
                           id, (double)m, (double)g, rows, (double)ke_best, (double)depth, (double)size,
                           (double)(m * g / ((float)rows * size)));
  }
  return TB_OK;
}

tb_status tb_solve_penalty(tb_world* w, const tb_step_context* step) {
  tb_status st = tb_newton_setup(w, "solve");
  if (st != TB_OK) return st;
  tb_newton_data* d = w->newton;
  const tb_newton_params* p = &w->def.solver.newton;
  float h = step->dt, hs = step->h;
  gather_checks(w, d);
  const spring_range range = spring_range_of(w);
  if ((st = check_friction_stability(w, d, step, &range)) != TB_OK) return st;
  if ((st = check_springs(w, d, step, &range)) != TB_OK) return st;

  int joints = tb_newton_joints_begin(w);
  for (int32_t sub = 0; sub < p->substeps; ++sub) {
    for (int32_t k = 0; k < d->body_count; ++k) d->bodies[k].dlin = d->bodies[k].dang = tb_v3(0, 0, 0);
    for (int32_t i = 0; i < d->contact_count; ++i) {
      const tb_newton_contact* c = &d->contacts[i];
      tb_vec3 ra, rb;
      tb_vec3 f0 = penalty_force(d, c, p->friction_smoothing, &ra, &rb);
      if (c->a >= 0) {
        d->bodies[c->a].dlin = tb_add(d->bodies[c->a].dlin, f0);
        d->bodies[c->a].dang = tb_add(d->bodies[c->a].dang, tb_cross(ra, f0));
      }
      if (c->b >= 0) {
        d->bodies[c->b].dlin = tb_sub(d->bodies[c->b].dlin, f0);
        d->bodies[c->b].dang = tb_sub(d->bodies[c->b].dang, tb_cross(rb, f0));
      }
    }
    for (int32_t k = 0; k < d->body_count; ++k) {
      tb_newton_body* b = &d->bodies[k];
      /* step totals as impulses: the average force over the step is the sum / h */
      b->sum_f = tb_mul_add(b->sum_f, hs, b->dlin);
      b->sum_t = tb_mul_add(b->sum_t, hs, b->dang);
    }
    if (joints) tb_newton_joints_penalty(w, d, hs); /* joint forces: not part of the contact totals */
    for (int32_t k = 0; k < d->body_count; ++k) tb_newton_predict(w, &d->bodies[k], d->bodies[k].dlin, d->bodies[k].dang, hs);
  }

  if (joints) tb_newton_joints_readback(w, d, h);
  /* no per-contact force in this solver: NaN, never zeros */
  tb_contact_fields* f = &w->contacts.f;
  for (int32_t k = 0; k < w->contacts.count; ++k) {
    f->normal_impulse[k] = NAN;
    f->tangent_impulse[2 * k] = f->tangent_impulse[2 * k + 1] = NAN;
    for (int i = 0; i < 3; ++i) f->force[3 * k + i] = NAN;
    for (int i = 0; i < 6; ++i) f->wrench[6 * k + i] = NAN;
    f->readback_scale[k] = NAN;
  }
  tb_readback_set(w, TB_READBACK_NEWTON, TB_RB_FRICTION | TB_RB_PER_BODY, p->substeps, 1.0f); /* friction of the per-body totals */

  tb_solver_status_set(w, TB_SOLVER_PENALTY, 0, 0, TB_CONVERGED_UNDEFINED, NAN, tb_newton_max_penetration(d)); /* no tolerance */
  w->stats.substeps = p->substeps;
  tb_newton_finish(w, h);
  return TB_OK;
}
