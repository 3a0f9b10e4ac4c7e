#include "contact_solver.h"

#include "../core/simd_vec3.h"

#include <math.h>
#include <stddef.h>

/* Body velocities (and step displacements) of the four lanes; static lanes read zeros. */
typedef struct lane_bodies {
  v3w va, wa, vb, wb;
  v3w dpa, dta, dpb, dtb;
} lane_bodies;

_Static_assert(offsetof(tb_body_state, w) == 3 * sizeof(float) && offsetof(tb_body_state, dp) == 6 * sizeof(float) &&
                   offsetof(tb_body_state, dtheta) == 9 * sizeof(float),
               "the gather reads v, w, dp, dtheta as 12 consecutive floats");
_Static_assert(sizeof(tb_body_state) == 64, "a body state is one cache line");
/* every iteration streams every wide's header: only what the rows read belongs in it (the lanes'
 * manifolds and anchors are in the solver's tb_physx_wide_pairs), eight lines natively */
_Static_assert(sizeof(tb_contact_wide) <= 512, "the wide's header is what the iterations read");

/* The 12 floats v, w, dp, dtheta of the four lanes' bodies idx[l] as lane vectors: three rows of
 * four floats per body, transposed (data moves only). */
static inline void gather_side(const tb_body_state* states, const int32_t idx[TB_LANES], v3w* v, v3w* w, v3w* dp, v3w* dt) {
  tb_f4 r[3][TB_LANES];
  for (int l = 0; l < TB_LANES; ++l) {
    const float* f = (const float*)(const void*)&states[idx[l]];
    r[0][l] = tb_f4_load(f);
    r[1][l] = tb_f4_load(f + 4);
    r[2][l] = tb_f4_load(f + 8);
  }
  for (int k = 0; k < 3; ++k) tb_f4_transpose(&r[k][0], &r[k][1], &r[k][2], &r[k][3]);
  v->x = r[0][0]; v->y = r[0][1]; v->z = r[0][2]; w->x = r[0][3];
  w->y = r[1][0]; w->z = r[1][1]; dp->x = r[1][2]; dp->y = r[1][3];
  dp->z = r[2][0]; dt->x = r[2][1]; dt->y = r[2][2]; dt->z = r[2][3];
}

static void gather(const tb_contact_wide* c, const tb_body_state* states, lane_bodies* lb) {
  gather_side(states, c->state_a, &lb->va, &lb->wa, &lb->dpa, &lb->dta);
  gather_side(states, c->state_b, &lb->vb, &lb->wb, &lb->dpb, &lb->dtb);
}

/* v and w of one side's lanes into out[l]: the body's state for a dynamic body (inverse mass > 0),
 * else the wide's sink (kinematic and static never change). The second row also rewrites dp.x,
 * dp.y with the values the gather read (the solve does not change them, and no other wide of the
 * colour holds the body). */
static inline void scatter_side(float* const out[TB_LANES], v3w v, v3w w, v3w dp) {
  tb_f4 r0[TB_LANES] = {v.x, v.y, v.z, w.x}, r1[TB_LANES] = {w.y, w.z, dp.x, dp.y};
  tb_f4_transpose(&r0[0], &r0[1], &r0[2], &r0[3]);
  tb_f4_transpose(&r1[0], &r1[1], &r1[2], &r1[3]);
  for (int l = 0; l < TB_LANES; ++l) {
    tb_f4_store(out[l], r0[l]);
    tb_f4_store(out[l] + 4, r1[l]);
  }
}

static void scatter(const tb_contact_wide* c, const lane_bodies* lb) {
  scatter_side(c->out_a, lb->va, lb->wa, lb->dpa);
  scatter_side(c->out_b, lb->vb, lb->wb, lb->dpb);
}

/* Applies impulse P along direction d; ia, ib are the row's inertia-arm products IA⁻¹(rA × d),
 * IB⁻¹(rB × d). */
static inline void apply(lane_bodies* lb, const tb_contact_wide* c, tb_f4 P, v3w d, v3w ia, v3w ib) {
  tb_f4 ma = tb_f4_load(c->inv_mass_a), mb = tb_f4_load(c->inv_mass_b);
  lb->va = v3w_mad(lb->va, tb_f4_sub(tb_f4_splat(0.0f), tb_f4_mul(ma, P)), d);
  lb->vb = v3w_mad(lb->vb, tb_f4_mul(mb, P), d);
  lb->wa = v3w_mad(lb->wa, tb_f4_sub(tb_f4_splat(0.0f), P), ia);
  lb->wb = v3w_mad(lb->wb, P, ib);
}

/* Relative velocity of B against A along d at the anchors: (vB + wB×rB − vA − wA×rA)·d. */
static inline tb_f4 rel_vel(const lane_bodies* lb, v3w d, v3w ca, v3w cb) {
  return tb_f4_sub(tb_f4_add(v3w_dot(v3w_sub(lb->vb, lb->va), d), v3w_dot(lb->wb, cb)), v3w_dot(lb->wa, ca));
}

/* PGS friction row (seed §4.3): the new accumulated impulse from the velocity vt stays when
 * within the static bound μs·P, else it is projected to the dynamic range [−μd·P, μd·P]; the
 * drift bias b of a kept anchor is then added within the bound that applies. */
static inline tb_f4 row(tb_f4 l, tb_f4 m, tb_f4 vt, tb_f4 b, tb_f4 lim_s, tb_f4 lim_d, tb_f4* over_out) {
  tb_f4 zero = tb_f4_splat(0.0f);
  tb_f4 u = tb_f4_sub(l, tb_f4_mul(m, vt));
  tb_f4 over = tb_f4_gt(tb_f4_abs(u), lim_s);
  *over_out = tb_f4_or(*over_out, over);
  tb_f4 bound = tb_f4_select(over, lim_d, lim_s);
  tb_f4 x = tb_f4_sub(u, tb_f4_mul(m, b));
  return tb_f4_max(tb_f4_min(x, bound), tb_f4_sub(zero, bound));
}

/* Patch friction: each anchor's bound is its share of the patch's normal impulse patch_n. With
 * only_sliding, the anchors that did not slide in the last friction pass keep their impulses. */
static TB_INLINE_HOT void solve_friction(tb_contact_wide* c, lane_bodies* lb, const tb_contact_pass* pass, tb_f4 lanes,
                                  tb_f4 patch_n, v3w t0, v3w t1, int only_sliding) {
  tb_f4 zero = tb_f4_splat(0.0f);
  /* strong friction: a kept anchor's drift, tracked with the motion, is corrected at the
   * penetration bias rate in the position iterations */
  tb_f4 rate = pass->biased ? tb_f4_load(c->anchor_bias) : zero;
  v3w dp = v3w_sub(lb->dpb, lb->dpa);
  tb_f4 dp_t0 = v3w_dot(dp, t0), dp_t1 = v3w_dot(dp, t1); /* the lanes' relative motion along t0, t1, m */
  tb_f4 share = tb_f4_mul(patch_n, tb_f4_load(c->friction_scale));
  tb_f4 lim_s = tb_f4_mul(tb_f4_load(c->mu_static), share);
  tb_f4 lim_d = tb_f4_mul(tb_f4_load(c->mu_dynamic), share);
  for (int k = 0; k < c->anchor_count; ++k) {
    tb_anchor_wide* a = &c->a[k];
    tb_f4 friction = only_sliding ? tb_f4_and(lanes, tb_f4_gt(tb_f4_load(a->sliding), zero)) : lanes;
    v3w ca0 = v3w_load(a->ca_t0), cb0 = v3w_load(a->cb_t0);
    v3w ca1 = v3w_load(a->ca_t1), cb1 = v3w_load(a->cb_t1);
    tb_f4 l0 = tb_f4_load(a->lambda_t0), l1 = tb_f4_load(a->lambda_t1);
    tb_f4 m0 = tb_f4_load(a->mass_t0), m1 = tb_f4_load(a->mass_t1);
    tb_f4 n0, n1, over = tb_f4_gt(zero, zero);
    tb_f4 e0 = tb_f4_add(tb_f4_load(a->error_t0),
                         tb_f4_sub(tb_f4_add(dp_t0, v3w_dot(lb->dtb, cb0)), v3w_dot(lb->dta, ca0)));
    tb_f4 e1 = tb_f4_add(tb_f4_load(a->error_t1),
                         tb_f4_sub(tb_f4_add(dp_t1, v3w_dot(lb->dtb, cb1)), v3w_dot(lb->dta, ca1)));
    tb_f4 b0 = tb_f4_mul(rate, e0), b1 = tb_f4_mul(rate, e1);
    /* the static/dynamic switch looks at the velocity part alone; the drift correction of a
     * kept anchor may use friction up to the static bound without making it slide */
    if (pass->pair_clamp) {
      /* TGS: both rows from the same velocities, the pair scaled into the dynamic disc when it
       * leaves the static disc */
      tb_f4 vt0 = rel_vel(lb, t0, ca0, cb0), vt1 = rel_vel(lb, t1, ca1, cb1);
      tb_f4 u0 = tb_f4_sub(l0, tb_f4_mul(m0, vt0)), u1 = tb_f4_sub(l1, tb_f4_mul(m1, vt1));
      over = tb_f4_gt(tb_f4_sqrt(tb_f4_add(tb_f4_mul(u0, u0), tb_f4_mul(u1, u1))), lim_s);
      tb_f4 bound = tb_f4_select(over, lim_d, lim_s);
      n0 = tb_f4_sub(u0, tb_f4_mul(m0, b0));
      n1 = tb_f4_sub(u1, tb_f4_mul(m1, b1));
      tb_f4 len = tb_f4_sqrt(tb_f4_add(tb_f4_mul(n0, n0), tb_f4_mul(n1, n1)));
      tb_f4 scale = tb_f4_select(tb_f4_gt(len, bound), tb_f4_div(bound, tb_f4_max(len, tb_f4_splat(1e-30f))), tb_f4_splat(1.0f));
      n0 = tb_f4_select(friction, tb_f4_mul(n0, scale), l0);
      n1 = tb_f4_select(friction, tb_f4_mul(n1, scale), l1);
      apply(lb, c, tb_f4_sub(n0, l0), t0, v3w_load(a->ia_t0), v3w_load(a->ib_t0));
      apply(lb, c, tb_f4_sub(n1, l1), t1, v3w_load(a->ia_t1), v3w_load(a->ib_t1));
    } else {
      /* PGS: one row after the other, each clamped on its own */
      n0 = row(l0, m0, rel_vel(lb, t0, ca0, cb0), b0, lim_s, lim_d, &over);
      n0 = tb_f4_select(friction, n0, l0);
      apply(lb, c, tb_f4_sub(n0, l0), t0, v3w_load(a->ia_t0), v3w_load(a->ib_t0));
      n1 = row(l1, m1, rel_vel(lb, t1, ca1, cb1), b1, lim_s, lim_d, &over);
      n1 = tb_f4_select(friction, n1, l1);
      apply(lb, c, tb_f4_sub(n1, l1), t1, v3w_load(a->ia_t1), v3w_load(a->ib_t1));
    }
    tb_f4_store(a->lambda_t0, n0);
    tb_f4_store(a->lambda_t1, n1);
    /* whether the last friction pass projected it (PhysX: a broken patch drops its anchors) */
    tb_f4_store(a->sliding, tb_f4_select(friction, tb_f4_select(over, tb_f4_splat(1.0f), zero), tb_f4_load(a->sliding)));
  }
}

/* Whether an anchor of the lanes in `lanes` slid in the last friction pass. Without one, the
 * only_sliding pass would keep every impulse and apply impulses of zero (at most turning a
 * velocity component of -0 into +0), so it is skipped: a wide whose patches all stick. */
static inline int any_sliding(const tb_contact_wide* c, tb_f4 lanes) {
  tb_f4 zero = tb_f4_splat(0.0f), any = tb_f4_gt(zero, zero);
  for (int k = 0; k < c->anchor_count; ++k) any = tb_f4_or(any, tb_f4_gt(tb_f4_load(c->a[k].sliding), zero));
  return tb_f4_bitmask(tb_f4_and(any, lanes)) != 0;
}

/* The rows of tb_contact_solve; plain (a constant in each copy): no lane has a spring or a finite
 * impulse cap, so the spring target and the cap are left out (each would give back what it was
 * given, NaN included). */
static TB_INLINE_HOT void solve_wide(tb_contact_wide* c, tb_body_state* states, const tb_contact_pass* pass, int plain) {
  lane_bodies lb;
  gather(c, states, &lb);
  v3w n = v3w_load(c->n), t0 = v3w_load(c->t0), t1 = v3w_load(c->t1);
  tb_f4 zero = tb_f4_splat(0.0f);
  tb_f4 active = pass->active;
  tb_f4 friction = tb_f4_and(active, pass->friction);
  tb_f4 pen_rate = pass->biased ? tb_f4_load(c->pen_rate) : zero;
  tb_f4 spec_rate = tb_f4_load(c->spec_rate);
  tb_f4 max_depen = tb_f4_sub(zero, tb_f4_load(c->max_depenetration));
  tb_f4 compliant = tb_f4_gt(tb_f4_load(c->compliant), zero);
  tb_f4 normal_active = pass->skip_compliant ? tb_f4_and(active, tb_f4_gt(tb_f4_splat(0.5f), tb_f4_load(c->compliant))) : active;
  tb_f4 max_imp = tb_f4_load(c->max_impulse);
  tb_f4 dp_n = v3w_dot(v3w_sub(lb.dpb, lb.dpa), n); /* the lanes' relative motion along n, m */
  tb_f4 patch_n = zero;
  if (pass->friction_first) {
    /* TGS: friction first, bounded by the normal impulse accumulated so far, so that the
     * normal rows (non-penetration) have the last word in each iteration */
    for (int j = 0; j < c->point_count; ++j) patch_n = tb_f4_add(patch_n, tb_f4_load(c->p[j].lambda_n));
    solve_friction(c, &lb, pass, friction, patch_n, t0, t1, 0);
    patch_n = zero;
  }
  for (int j = 0; j < c->point_count; ++j) {
    tb_contact_point_wide* p = &c->p[j];
    v3w ca = v3w_load(p->ca_n), cb = v3w_load(p->cb_n);
    /* separation now = start separation + motion of the points along n (TGS; zero for PGS) */
    tb_f4 s = tb_f4_add(tb_f4_load(p->base_separation),
                        tb_f4_sub(tb_f4_add(dp_n, v3w_dot(lb.dtb, cb)), v3w_dot(lb.dta, ca)));
    /* rigid: a gap may close within one iteration step; a penetration is pushed out at
     * bias·s/h up to the max depenetration velocity; a bounce target wins when larger */
    tb_f4 bias = tb_f4_select(tb_f4_gt(s, zero), tb_f4_mul(s, spec_rate), tb_f4_max(tb_f4_mul(s, pen_rate), max_depen));
    /* a bounce from a gap (PhysX): the biased target less the gap's closing speed, so the pose
     * moves as if the bodies had touched; the unbiased target is the full rebound */
    tb_f4 bounce = tb_f4_load(pass->biased ? p->restitution_biased : p->restitution_target);
    tb_f4 target = tb_f4_max(tb_f4_sub(zero, bias), bounce);
    /* compliant: the implicit spring's target −k·s/(d + h·k) */
    if (!plain) target = tb_f4_select(compliant, tb_f4_sub(zero, tb_f4_mul(tb_f4_load(p->compliant_rate), s)), target);
    tb_f4 vn = rel_vel(&lb, n, ca, cb);
    tb_f4 lam = tb_f4_load(p->lambda_n);
    tb_f4 new_lam = tb_f4_add(tb_f4_mul(tb_f4_load(p->imp_mul), lam), tb_f4_mul(tb_f4_load(p->vel_mul), tb_f4_sub(target, vn)));
    new_lam = tb_f4_max(new_lam, zero);
    if (!plain) new_lam = tb_f4_min(new_lam, max_imp);
    new_lam = tb_f4_select(normal_active, new_lam, lam);
    tb_f4_store(p->lambda_n, new_lam);
    apply(&lb, c, tb_f4_sub(new_lam, lam), n, v3w_load(p->ia_n), v3w_load(p->ib_n));
    patch_n = tb_f4_add(patch_n, new_lam);
  }

  /* TGS velocity iterations: each sliding anchor's pair is solved again within the bound of the
   * final normal impulse. Friction ran first, with the normal impulse accumulated so far, and
   * the normal rows change it; a sliding anchor clamped there would otherwise carry μ times the
   * previous normal impulse (a box tipping under its friction makes the position iterations'
   * normal impulse swing, and the velocity iteration restores it). A sticking anchor is left
   * as it is, so the normal rows keep the last word on it. */
  if (!pass->friction_first) solve_friction(c, &lb, pass, friction, patch_n, t0, t1, 0);
  else if (!pass->biased && any_sliding(c, friction)) solve_friction(c, &lb, pass, friction, patch_n, t0, t1, 1);
  scatter(c, &lb);
}

void tb_contact_solve(tb_contact_wide* c, tb_body_state* states, const tb_contact_pass* pass) {
  if (c->plain) solve_wide(c, states, pass, 1);
  else solve_wide(c, states, pass, 0);
}

void tb_contact_residuals(const tb_contact_wide* c, const tb_body_state* states, float* residual_v, float* residual_p) {
  lane_bodies lb;
  gather(c, states, &lb);
  const tb_f4 zero = tb_f4_splat(0.0f);
  const v3w n = v3w_load(c->n);
  const tb_f4 cap = tb_f4_load(c->max_impulse);
  const tb_f4 rigid = tb_f4_lt(tb_f4_load(c->compliant), tb_f4_splat(0.5f)); /* compliant is 0 or 1 */
  tb_f4 rv = zero, rp = zero;
  for (int32_t j = 0; j < c->point_count; ++j) {
    const tb_contact_point_wide* p = &c->p[j];
    tb_f4 row = tb_f4_gt(tb_f4_load(p->vel_mul), zero);
    v3w ca = v3w_load(p->ca_n), cb = v3w_load(p->cb_n);
    tb_f4 sep = tb_f4_sub(tb_f4_add(tb_f4_add(tb_f4_load(p->base_separation), v3w_dot(v3w_sub(lb.dpb, lb.dpa), n)),
                                    v3w_dot(lb.dtb, cb)), v3w_dot(lb.dta, ca));
    tb_f4 pen = tb_f4_sub(zero, sep);
    rp = tb_f4_select(tb_f4_and(row, tb_f4_gt(pen, rp)), pen, rp);
    tb_f4 vn = rel_vel(&lb, n, ca, cb);
    tb_f4 rt = tb_f4_load(p->restitution_target);
    tb_f4 target = tb_f4_select(tb_f4_gt(rt, zero), rt, zero);
    tb_f4 lambda = tb_f4_load(p->lambda_n);
    tb_f4 below = tb_f4_and(tb_f4_gt(lambda, zero), tb_f4_lt(lambda, cap));
    tb_f4 approach = tb_f4_sub(target, vn);
    tb_f4 err = tb_f4_select(below, tb_f4_abs(tb_f4_sub(vn, target)), tb_f4_select(tb_f4_gt(approach, zero), approach, zero));
    err = tb_f4_select(tb_f4_ge(lambda, cap), zero, err);
    rv = tb_f4_select(tb_f4_and(tb_f4_and(row, rigid), tb_f4_gt(err, rv)), err, rv);
  }
  float v[TB_LANES], pp[TB_LANES];
  tb_f4_store(v, rv);
  tb_f4_store(pp, rp);
  for (int l = 0; l < TB_LANES; ++l) {
    if (v[l] > *residual_v) *residual_v = v[l];
    if (pp[l] > *residual_p) *residual_p = pp[l];
  }
}
