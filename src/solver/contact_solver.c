#include "contact_solver.h"

#include <math.h>
#include <stddef.h>

/* Three lanes-of-four: a vector per lane. */
typedef struct v3w { tb_f4 x, y, z; } v3w;

/* a points at three consecutive rows of TB_LANES floats (x, y, z). */
static inline v3w v3w_load_rows(const float* a) {
  v3w r = {tb_f4_load(a), tb_f4_load(a + TB_LANES), tb_f4_load(a + 2 * TB_LANES)};
  return r;
}
#define v3w_load(rows) v3w_load_rows(&(rows)[0][0])
static inline tb_f4 v3w_dot(v3w a, v3w b) {
  return tb_f4_add(tb_f4_add(tb_f4_mul(a.x, b.x), tb_f4_mul(a.y, b.y)), tb_f4_mul(a.z, b.z));
}
static inline v3w v3w_sub(v3w a, v3w b) {
  v3w r = {tb_f4_sub(a.x, b.x), tb_f4_sub(a.y, b.y), tb_f4_sub(a.z, b.z)};
  return r;
}
/* a + s·b */
static inline v3w v3w_mad(v3w a, tb_f4 s, v3w b) {
  v3w r = {tb_f4_add(a.x, tb_f4_mul(s, b.x)), tb_f4_add(a.y, tb_f4_mul(s, b.y)), tb_f4_add(a.z, tb_f4_mul(s, b.z))};
  return r;
}
/* Symmetric inverse inertia (xx, yy, zz, xy, xz, yz) times v. */
static inline v3w v3w_sym_mul(const float m[6][TB_LANES], v3w v) {
  tb_f4 xx = tb_f4_load(m[0]), yy = tb_f4_load(m[1]), zz = tb_f4_load(m[2]);
  tb_f4 xy = tb_f4_load(m[3]), xz = tb_f4_load(m[4]), yz = tb_f4_load(m[5]);
  v3w r;
  r.x = tb_f4_add(tb_f4_add(tb_f4_mul(xx, v.x), tb_f4_mul(xy, v.y)), tb_f4_mul(xz, v.z));
  r.y = tb_f4_add(tb_f4_add(tb_f4_mul(xy, v.x), tb_f4_mul(yy, v.y)), tb_f4_mul(yz, v.z));
  r.z = tb_f4_add(tb_f4_add(tb_f4_mul(xz, v.x), tb_f4_mul(yz, v.y)), tb_f4_mul(zz, v.z));
  return r;
}

/* Body velocities (and step displacements) of the four lanes; static lanes read zeros. */
typedef struct lane_bodies {
  v3w va, wa, vb, wb;
  v3w dpa, dta, dpb, dtb;
} lane_bodies;

/* Two vectors (at byte offsets off0, off1 of tb_body_state) of body A and body B of each lane;
 * static lanes read zeros. */
static void gather_pair(const tb_contact_wide* c, const tb_body_state* states, size_t off0, size_t off1,
                        v3w* a0, v3w* a1, v3w* b0, v3w* b1) {
  float v[12][TB_LANES] = {{0}};
  for (int l = 0; l < TB_LANES; ++l) {
    const int32_t body[2] = {c->body_a[l], c->body_b[l]};
    for (int k = 0; k < 2; ++k) {
      if (body[k] < 0) continue;
      const char* base = (const char*)&states[body[k]];
      const tb_vec3* x = (const tb_vec3*)(base + off0);
      const tb_vec3* y = (const tb_vec3*)(base + off1);
      v[6 * k + 0][l] = x->x; v[6 * k + 1][l] = x->y; v[6 * k + 2][l] = x->z;
      v[6 * k + 3][l] = y->x; v[6 * k + 4][l] = y->y; v[6 * k + 5][l] = y->z;
    }
  }
  *a0 = v3w_load_rows(&v[0][0]);
  *a1 = v3w_load_rows(&v[3][0]);
  *b0 = v3w_load_rows(&v[6][0]);
  *b1 = v3w_load_rows(&v[9][0]);
}

static void gather(const tb_contact_wide* c, const tb_body_state* states, lane_bodies* lb, int with_delta) {
  gather_pair(c, states, offsetof(tb_body_state, v), offsetof(tb_body_state, w), &lb->va, &lb->wa, &lb->vb, &lb->wb);
  if (with_delta)
    gather_pair(c, states, offsetof(tb_body_state, dp), offsetof(tb_body_state, dtheta), &lb->dpa, &lb->dta, &lb->dpb, &lb->dtb);
}

/* Only dynamic bodies are written back (inverse mass > 0); kinematic and static never change. */
static void scatter(const tb_contact_wide* c, tb_body_state* states, const lane_bodies* lb) {
  float v[12][TB_LANES];
  tb_f4_store(v[0], lb->va.x); tb_f4_store(v[1], lb->va.y); tb_f4_store(v[2], lb->va.z);
  tb_f4_store(v[3], lb->wa.x); tb_f4_store(v[4], lb->wa.y); tb_f4_store(v[5], lb->wa.z);
  tb_f4_store(v[6], lb->vb.x); tb_f4_store(v[7], lb->vb.y); tb_f4_store(v[8], lb->vb.z);
  tb_f4_store(v[9], lb->wb.x); tb_f4_store(v[10], lb->wb.y); tb_f4_store(v[11], lb->wb.z);
  for (int l = 0; l < TB_LANES; ++l) {
    int32_t a = c->body_a[l], b = c->body_b[l];
    if (a >= 0 && c->inv_mass_a[l] > 0.0f) {
      states[a].v = tb_v3(v[0][l], v[1][l], v[2][l]);
      states[a].w = tb_v3(v[3][l], v[4][l], v[5][l]);
    }
    if (b >= 0 && c->inv_mass_b[l] > 0.0f) {
      states[b].v = tb_v3(v[6][l], v[7][l], v[8][l]);
      states[b].w = tb_v3(v[9][l], v[10][l], v[11][l]);
    }
  }
}

/* Applies impulse P along direction d with angular arms ca (body A) and cb (body B). */
static inline void apply(lane_bodies* lb, const tb_contact_wide* c, tb_f4 P, v3w d, v3w ca, v3w cb) {
  tb_f4 ma = tb_f4_load(c->inv_mass_a), mb = tb_f4_load(c->inv_mass_b);
  lb->va = v3w_mad(lb->va, tb_f4_sub(tb_f4_splat(0.0f), tb_f4_mul(ma, P)), d);
  lb->vb = v3w_mad(lb->vb, tb_f4_mul(mb, P), d);
  lb->wa = v3w_mad(lb->wa, tb_f4_sub(tb_f4_splat(0.0f), P), v3w_sym_mul(c->ia, ca));
  lb->wb = v3w_mad(lb->wb, P, v3w_sym_mul(c->ib, cb));
}

/* Relative velocity of B against A along d at the anchors: (vB + wB×rB − vA − wA×rA)·d. */
static inline tb_f4 rel_vel(const lane_bodies* lb, v3w d, v3w ca, v3w cb) {
  return tb_f4_sub(tb_f4_add(v3w_dot(v3w_sub(lb->vb, lb->va), d), v3w_dot(lb->wb, cb)), v3w_dot(lb->wa, ca));
}

static inline tb_f4 f4_abs(tb_f4 x) { return tb_f4_max(x, tb_f4_sub(tb_f4_splat(0.0f), x)); }

/* PGS friction row (seed §4.3): the new accumulated impulse from the velocity vt stays when
 * within the static bound μs·P, else it is projected to the dynamic range [−μd·P, μd·P]; the
 * drift bias b of a kept anchor is then added within the bound that applies. */
static inline tb_f4 row(tb_f4 l, tb_f4 m, tb_f4 vt, tb_f4 b, tb_f4 lim_s, tb_f4 lim_d, tb_f4* over_out) {
  tb_f4 zero = tb_f4_splat(0.0f);
  tb_f4 u = tb_f4_sub(l, tb_f4_mul(m, vt));
  tb_f4 over = tb_f4_gt(f4_abs(u), lim_s);
  *over_out = tb_f4_or(*over_out, over);
  tb_f4 bound = tb_f4_select(over, lim_d, lim_s);
  tb_f4 x = tb_f4_sub(u, tb_f4_mul(m, b));
  return tb_f4_max(tb_f4_min(x, bound), tb_f4_sub(zero, bound));
}

/* Patch friction: each anchor's bound is its share of the patch's normal impulse patch_n. With
 * only_sliding, the anchors that did not slide in the last friction pass keep their impulses. */
static inline void solve_friction(tb_contact_wide* c, lane_bodies* lbp, const tb_contact_pass* pass, tb_f4 lanes,
                                  tb_f4 patch_n, v3w t0, v3w t1, int only_sliding) {
  lane_bodies lb = *lbp;
  tb_f4 zero = tb_f4_splat(0.0f);
  /* strong friction: a kept anchor's drift, tracked with the motion, is corrected at the
   * penetration bias rate in the position iterations */
  tb_f4 rate = pass->biased ? tb_f4_load(c->anchor_bias) : zero;
  v3w dp = v3w_sub(lb.dpb, lb.dpa);
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
                         tb_f4_sub(tb_f4_add(v3w_dot(dp, t0), v3w_dot(lb.dtb, cb0)), v3w_dot(lb.dta, ca0)));
    tb_f4 e1 = tb_f4_add(tb_f4_load(a->error_t1),
                         tb_f4_sub(tb_f4_add(v3w_dot(dp, t1), v3w_dot(lb.dtb, cb1)), v3w_dot(lb.dta, ca1)));
    tb_f4 b0 = tb_f4_mul(rate, e0), b1 = tb_f4_mul(rate, e1);
    /* the static/dynamic switch looks at the velocity part alone; the drift correction of a
     * kept anchor may use friction up to the static bound without making it slide */
    if (pass->pair_clamp) {
      /* TGS: both rows from the same velocities, the pair scaled into the dynamic disc when it
       * leaves the static disc */
      tb_f4 vt0 = rel_vel(&lb, t0, ca0, cb0), vt1 = rel_vel(&lb, t1, ca1, cb1);
      tb_f4 u0 = tb_f4_sub(l0, tb_f4_mul(m0, vt0)), u1 = tb_f4_sub(l1, tb_f4_mul(m1, vt1));
      over = tb_f4_gt(tb_f4_sqrt(tb_f4_add(tb_f4_mul(u0, u0), tb_f4_mul(u1, u1))), lim_s);
      tb_f4 bound = tb_f4_select(over, lim_d, lim_s);
      n0 = tb_f4_sub(u0, tb_f4_mul(m0, b0));
      n1 = tb_f4_sub(u1, tb_f4_mul(m1, b1));
      tb_f4 len = tb_f4_sqrt(tb_f4_add(tb_f4_mul(n0, n0), tb_f4_mul(n1, n1)));
      tb_f4 scale = tb_f4_select(tb_f4_gt(len, bound), tb_f4_div(bound, tb_f4_max(len, tb_f4_splat(1e-30f))), tb_f4_splat(1.0f));
      n0 = tb_f4_select(friction, tb_f4_mul(n0, scale), l0);
      n1 = tb_f4_select(friction, tb_f4_mul(n1, scale), l1);
      apply(&lb, c, tb_f4_sub(n0, l0), t0, ca0, cb0);
      apply(&lb, c, tb_f4_sub(n1, l1), t1, ca1, cb1);
    } else {
      /* PGS: one row after the other, each clamped on its own */
      n0 = row(l0, m0, rel_vel(&lb, t0, ca0, cb0), b0, lim_s, lim_d, &over);
      n0 = tb_f4_select(friction, n0, l0);
      apply(&lb, c, tb_f4_sub(n0, l0), t0, ca0, cb0);
      n1 = row(l1, m1, rel_vel(&lb, t1, ca1, cb1), b1, lim_s, lim_d, &over);
      n1 = tb_f4_select(friction, n1, l1);
      apply(&lb, c, tb_f4_sub(n1, l1), t1, ca1, cb1);
    }
    tb_f4_store(a->lambda_t0, n0);
    tb_f4_store(a->lambda_t1, n1);
    /* whether the last friction pass projected it (PhysX: a broken patch drops its anchors) */
    tb_f4_store(a->sliding, tb_f4_select(friction, tb_f4_select(over, tb_f4_splat(1.0f), zero), tb_f4_load(a->sliding)));
  }
  *lbp = lb;
}

void tb_contact_solve(tb_contact_wide* c, tb_body_state* states, const tb_contact_pass* pass) {
  lane_bodies lb;
  gather(c, states, &lb, 1);
  v3w n = v3w_load(c->n), t0 = v3w_load(c->t0), t1 = v3w_load(c->t1);
  tb_f4 zero = tb_f4_splat(0.0f);
  tb_f4 active = tb_f4_gt(tb_f4_load(pass->active), zero);
  tb_f4 friction = tb_f4_and(active, tb_f4_gt(tb_f4_load(pass->friction), zero));
  tb_f4 pen_rate = pass->biased ? tb_f4_load(c->pen_rate) : zero;
  tb_f4 spec_rate = tb_f4_load(c->spec_rate);
  tb_f4 max_depen = tb_f4_sub(zero, tb_f4_load(c->max_depenetration));
  tb_f4 compliant = tb_f4_gt(tb_f4_load(c->compliant), zero);
  tb_f4 normal_active = pass->skip_compliant ? tb_f4_and(active, tb_f4_gt(tb_f4_splat(0.5f), tb_f4_load(c->compliant))) : active;
  tb_f4 max_imp = tb_f4_load(c->max_impulse);
  v3w dp = v3w_sub(lb.dpb, lb.dpa);
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
                        tb_f4_sub(tb_f4_add(v3w_dot(dp, n), v3w_dot(lb.dtb, cb)), v3w_dot(lb.dta, ca)));
    /* rigid: a gap may close within one iteration step; a penetration is pushed out at
     * bias·s/h up to the max depenetration velocity; a bounce target wins when larger */
    tb_f4 bias = tb_f4_select(tb_f4_gt(s, zero), tb_f4_mul(s, spec_rate), tb_f4_max(tb_f4_mul(s, pen_rate), max_depen));
    /* a bounce from a gap (PhysX): the biased target less the gap's closing speed, so the pose
     * moves as if the bodies had touched; the unbiased target is the full rebound */
    tb_f4 bounce = tb_f4_load(pass->biased ? p->restitution_biased : p->restitution_target);
    tb_f4 target = tb_f4_max(tb_f4_sub(zero, bias), bounce);
    /* compliant: the implicit spring's target −k·s/(d + h·k) */
    target = tb_f4_select(compliant, tb_f4_sub(zero, tb_f4_mul(tb_f4_load(p->compliant_rate), s)), target);
    tb_f4 vn = rel_vel(&lb, n, ca, cb);
    tb_f4 lam = tb_f4_load(p->lambda_n);
    tb_f4 new_lam = tb_f4_add(tb_f4_mul(tb_f4_load(p->imp_mul), lam), tb_f4_mul(tb_f4_load(p->vel_mul), tb_f4_sub(target, vn)));
    new_lam = tb_f4_min(tb_f4_max(new_lam, zero), max_imp);
    new_lam = tb_f4_select(normal_active, new_lam, lam);
    tb_f4_store(p->lambda_n, new_lam);
    apply(&lb, c, tb_f4_sub(new_lam, lam), n, ca, cb);
    patch_n = tb_f4_add(patch_n, new_lam);
  }

  /* TGS velocity iterations: each sliding anchor's pair is solved again within the bound of the
   * final normal impulse. Friction ran first, with the normal impulse accumulated so far, and
   * the normal rows change it; a sliding anchor clamped there would otherwise carry μ times the
   * previous normal impulse (a box tipping under its friction makes the position iterations'
   * normal impulse swing, and the velocity iteration restores it). A sticking anchor is left
   * as it is, so the normal rows keep the last word on it. */
  if (!pass->friction_first) solve_friction(c, &lb, pass, friction, patch_n, t0, t1, 0);
  else if (!pass->biased) solve_friction(c, &lb, pass, friction, patch_n, t0, t1, 1);
  scatter(c, states, &lb);
}
