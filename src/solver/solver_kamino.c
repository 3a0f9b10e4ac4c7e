/* Newton Kamino rigid contact solver, PADMM (the `kamino` preset; seed newton-e3 §6 "Kamino").
 *
 * One step of length h, maximal coordinates (each dynamic body a 6-DOF unknown):
 *   free velocities u_f = u + h·(g, −I⁻¹ ω × Iω) (body damping as the other Newton solvers);
 *   rows: three per active contact in its frame (normal n from shape0 to shape1, tangent0,
 *     tangent1), J u = relative velocity of shape1's surface point over shape0's; the free row
 *     velocity v_f = J u_f + bias, bias on the normal row = γ·min(0, d/h) + max(0, d/h) (d the
 *     contact distance with a dead zone δ; γ = 0 when e >= 1) plus e·(J u)_n (restitution e,
 *     Newton's impact model with the pre-step velocity);
 *   the dual problem: find λ in the Coulomb cones K (|λ_t| <= μ λ_n) with v = Dλ + v_f + s in the
 *     dual cones and λ ⊥ v, D = J M⁻¹ Jᵀ the Delassus operator (1/kg), s the De Saxcé correction
 *     (0, 0, μ|v_t|) in (t0, t1, n) order; scaled by the diagonal preconditioner P (one value per
 *     contact, 1/√max D_ii clamped to [1/50, 50]) to D̃ = P D P;
 *   PADMM with fixed penalty ρ and proximal term η, per iteration:
 *     x = (D̃ + (η + ρ)I)⁻¹ (−ṽ_f − s(z_prev) + η x_prev + ρ y_prev + z_prev)  (conjugate gradients,
 *         matrix-free: J, M⁻¹, Jᵀ, started from x_prev),
 *     y = proj_K(x − z_prev/ρ),   z = z_prev + ρ(y − x),
 *     residuals (infinity norms, unscaled to physical units): r_p = |P(x − y)| (N·s),
 *     r_d = |P⁻¹(η(x − x_prev) + ρ(y − y_prev))| (m/s), r_c = max_c |x_c · z_c| (J);
 *     after an iteration beyond the first, stop converged when all three are within their
 *     tolerances; stop unconverged when the iteration budget is spent;
 *   solution λ = P y (N·s), post-step row velocity v = (z − s(z))/P;
 *   Euler: u = u_f + M⁻¹ Jᵀ λ, then the poses advance by h·u (kinematic bodies by their own velocity).
 * Warm start (Newton's "containers" mode): each contact matched to the previous step's (contact
 * store matchIndex and matchKey) starts from 0.9 × its impulse in x and y and from its velocity
 * (plus the De Saxcé term) in z; the cache is kept as world vectors, so a turned tangent basis
 * does not misplace friction; tb_world_solver_reset() clears it (tb_kamino_reset).
 * Serial in a fixed order: identical results for any thread count. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "../core/serial.h"
#include "../core/simd_vec3.h"
#include "../model/contact_store.h"
#include "kamino.h"
#include "solver.h"

#define TB_KAMINO_P_MIN (1.0f / 50.0f) /* preconditioner clamp (Kamino precondition_scalar) */
#define TB_KAMINO_P_MAX 50.0f
#define TB_KAMINO_CG_MAX 50            /* conjugate-gradient iterations per x-update at most */
#define TB_KAMINO_RESTART 0.999f       /* Kamino restart_tolerance: restart when r_a >= 0.999 r_a_prev */
#define TB_KAMINO_A0 1.0f              /* Kamino a_0: acceleration parameter at the start and after a restart */

/* One contact of the dual problem: rows 0 normal, 1 tangent0, 2 tangent1. Variables are in the
 * preconditioned space (physical impulse = p·x, physical velocity = z/p). The primal x and the
 * conjugate-gradient state live in the contact's wide (tb_kamino_wide). */
typedef struct tb_kamino_contact {
  int32_t a, b;           /* solver bodies of shape0 / shape1 (as d->contacts[row]), -1 static */
  tb_vec3 e[3];           /* world frame: n, tangent0, tangent1 (tb_basis of n, as the store) */
  tb_vec3 ra, rb;         /* m: point0 − COM of body0, point1 − COM of body1, world (static: 0) */
  float p;                /* preconditioner, √kg */
  int32_t row;            /* index into d->contacts of newton.h (store, material) */
  float mu;               /* combined friction */
  float vf[3];            /* free row velocity incl. bias, preconditioned (p·m/s) */
  float y[3], z[3];       /* this iteration's slack, dual */
  float xp[3], yp[3], zp[3];
  float yh[3], zh[3];      /* Nesterov points the next iteration starts from (slack, dual) */
} tb_kamino_contact;

/* Four consecutive contacts (lanes: contact i is lane i % 4 of wide i / 4) as the
 * conjugate-gradient loop reads them, copied from the contacts at setup: the operator's frame,
 * arms and preconditioner are computed on four lanes at once (src/core/simd_vec3.h, each lane's
 * float operations those of the scalar formula in the same order) and the wide streams only what
 * the loop needs. Lanes past the last contact have a = b = -1 and zeros everywhere. */
#define TB_KAMINO_LANES 4
typedef struct tb_kamino_wide {
  float e[3][3][TB_KAMINO_LANES];     /* e[row][axis]: n, tangent0, tangent1, world */
  float ra[3][TB_KAMINO_LANES], rb[3][TB_KAMINO_LANES]; /* m, world; 0 on a static side */
  float p[TB_KAMINO_LANES];           /* preconditioner, √kg */
  float x[3][TB_KAMINO_LANES];        /* this iteration's primal */
  int32_t a[TB_KAMINO_LANES], b[TB_KAMINO_LANES];         /* solver bodies, -1 static (scatter) */
  int32_t acc_a[TB_KAMINO_LANES], acc_b[TB_KAMINO_LANES]; /* acc entries the gather reads: a, b, static → the zero entry */
  double r[3][TB_KAMINO_LANES], d[3][TB_KAMINO_LANES], q[3][TB_KAMINO_LANES]; /* residual, direction, operator applied to d */
} tb_kamino_wide;

/* Warm-start cache of the last solve(), indexed by its contact-store index. */
typedef struct tb_kamino_cache {
  uint32_t* key;          /* match key of the contact (0 = none) */
  tb_vec3* impulse;       /* N·s on body1, world */
  tb_vec3* velocity;      /* m/s: post-step row velocity as a world vector (frame components) */
  int32_t count, capacity;
} tb_kamino_cache;

/* A body's inverse mass (1/kg) and world inverse inertia (columns, 1/(kg·m²)), each padded to four
 * floats for the operator's M⁻¹. */
typedef struct tb_kamino_inverse {
  float inertia[3][4];
  float mass;
} tb_kamino_inverse;

typedef struct tb_kamino_data {
  tb_kamino_contact* contacts;
  int32_t contact_capacity, contact_count;
  tb_kamino_wide* wides;  /* the contacts four by four, (contact_count + 3) / 4 of them */
  int32_t wide_capacity;
  tb_mat3* inv_inertia;   /* per solver body: world axes, 1/(kg·m²) */
  tb_kamino_inverse* inverse; /* per solver body: M⁻¹ as the operator reads it */
  tb_kamino_acc* acc;     /* per solver body: the operator's impulses, then velocity changes; one
                           * more entry, after the bodies, stays zero (a static side's) */
  int32_t* active;        /* the solver bodies some row acts on, in index order (the operator's bodies) */
  unsigned char* in_rows; /* per solver body: 1 when in active */
  int32_t body_capacity, active_count;
  tb_kamino_cache cache;
  tb_kamino_joints joints; /* the joints' rows (kamino_joints.c) */
} tb_kamino_data;

/* The cache's arrays, for tb_grow_capacity. */
static void cache_arrays(tb_kamino_cache* c, tb_array_ref a[3]) {
  int n = 0;
  TB_ARRAY_REF(a, n, c, key, sizeof(uint32_t));
  TB_ARRAY_REF(a, n, c, impulse, sizeof(tb_vec3));
  TB_ARRAY_REF(a, n, c, velocity, sizeof(tb_vec3));
}

static void cache_free(tb_kamino_cache* c) {
  tb_free(c->key, (size_t)c->capacity * sizeof(uint32_t));
  tb_free(c->impulse, (size_t)c->capacity * sizeof(tb_vec3));
  tb_free(c->velocity, (size_t)c->capacity * sizeof(tb_vec3));
  memset(c, 0, sizeof *c);
}

void tb_kamino_destroy(tb_world* w) {
  tb_kamino_data* d = w->kamino;
  if (!d) return;
  tb_free(d->contacts, (size_t)d->contact_capacity * sizeof(tb_kamino_contact));
  tb_free(d->wides, (size_t)d->wide_capacity * sizeof(tb_kamino_wide));
  tb_free(d->inv_inertia, (size_t)d->body_capacity * sizeof(tb_mat3));
  tb_free(d->inverse, (size_t)d->body_capacity * sizeof(tb_kamino_inverse));
  tb_free(d->acc, (size_t)d->body_capacity * sizeof(tb_kamino_acc));
  tb_free(d->active, (size_t)d->body_capacity * sizeof(int32_t));
  tb_free(d->in_rows, (size_t)d->body_capacity);
  cache_free(&d->cache);
  tb_kamino_joints_free(&d->joints);
  tb_free(d, sizeof *d);
  w->kamino = NULL;
}

/* ---- cone projections in (n, t0, t1) order (Kamino project_to_coulomb_cone / _dual_cone) ---- */

/* Nearest point of the cone |t| <= μ n. The polar test comes first so that μ = 0 maps a point
 * with n < 0 to the origin. */
static void project_cone(const float in[3], float mu, float out[3]) {
  float xn = in[0], xt = sqrtf(in[1] * in[1] + in[2] * in[2]);
  if (mu * xt <= -xn) { out[0] = out[1] = out[2] = 0.0f; return; }
  if (xt <= mu * xn) { out[0] = in[0]; out[1] = in[1]; out[2] = in[2]; return; }
  float yn = (mu * xt + xn) / (mu * mu + 1.0f), s = mu * yn / xt;
  out[0] = yn; out[1] = s * in[1]; out[2] = s * in[2];
}

/* ---- the Delassus operator, matrix-free ---- */

static tb_vec3 row_velocity(const tb_newton_data* nd, const tb_newton_contact* c, const tb_kamino_contact* k) {
  tb_vec3 v = tb_v3(0, 0, 0);
  if (c->b >= 0) v = tb_add(nd->bodies[c->b].v, tb_cross(nd->bodies[c->b].w, k->rb));
  if (c->a >= 0) v = tb_sub(v, tb_add(nd->bodies[c->a].v, tb_cross(nd->bodies[c->a].w, k->ra)));
  return v;
}

/* World impulse on body1 of a contact's preconditioned row values. */
static inline tb_vec3 row_impulse(const tb_kamino_contact* k, const float* x) {
  return tb_scale(tb_add(tb_add(tb_scale(k->e[0], x[0]), tb_scale(k->e[1], x[1])), tb_scale(k->e[2], x[2])), k->p);
}

/* How apply_operator takes the contacts' direction d before using it. */
enum { TB_KAMINO_D_FROM_X, TB_KAMINO_D_KEPT, TB_KAMINO_D_CONJUGATE };

static int32_t wide_count(const tb_kamino_data* kd) { return (kd->contact_count + TB_KAMINO_LANES - 1) / TB_KAMINO_LANES; }

/* Lanes of wide i that hold a contact. */
static int wide_lanes(const tb_kamino_data* kd, int32_t i) {
  int32_t n = kd->contact_count - i * TB_KAMINO_LANES;
  return n < TB_KAMINO_LANES ? (int)n : TB_KAMINO_LANES;
}

/* s + the terms t[row][lane] of the wide's first n lanes, added one by one in contact order (lane,
 * then row), as a sum over the contacts would; a full wide's loop is unrolled. */
static inline double add_terms(double s, const double t[3][TB_KAMINO_LANES], int n) {
  if (n == TB_KAMINO_LANES) {
    for (int l = 0; l < TB_KAMINO_LANES; ++l) s = ((s + t[0][l]) + t[1][l]) + t[2][l];
    return s;
  }
  for (int l = 0; l < n; ++l) s = ((s + t[0][l]) + t[1][l]) + t[2][l];
  return s;
}

/* acc entry i as floats: lin at 0, ang at 4 (each read and written as four floats). */
static inline float* acc_floats(tb_kamino_acc* acc, int32_t i) { return &acc[i].lin.x; }

/* One contact's impulse (x, y, z, ·) into acc: + on body1 (b) with its moment mb, − on body0 (a)
 * with ma; a static side (-1) takes nothing. */
static inline void scatter_lane(tb_kamino_acc* acc, int32_t a, int32_t b, tb_f4 imp, tb_f4 ma, tb_f4 mb) {
  if (b >= 0) {
    float* s = acc_floats(acc, b);
    tb_f4_store(s, tb_f4_add(tb_f4_load(s), imp));
    tb_f4_store(s + 4, tb_f4_add(tb_f4_load(s + 4), mb));
  }
  if (a >= 0) {
    float* s = acc_floats(acc, a);
    tb_f4_store(s, tb_f4_sub(tb_f4_load(s), imp));
    tb_f4_store(s + 4, tb_f4_sub(tb_f4_load(s + 4), ma));
  }
}

/* lin + ang × r of four acc entries (one per lane) at the arms r. */
static inline v3w side_velocity(tb_kamino_acc* acc, const int32_t idx[TB_KAMINO_LANES], v3w r) {
  const float *s0 = acc_floats(acc, idx[0]), *s1 = acc_floats(acc, idx[1]), *s2 = acc_floats(acc, idx[2]), *s3 = acc_floats(acc, idx[3]);
  tb_f4 l0 = tb_f4_load(s0), l1 = tb_f4_load(s1), l2 = tb_f4_load(s2), l3 = tb_f4_load(s3);
  tb_f4 w0 = tb_f4_load(s0 + 4), w1 = tb_f4_load(s1 + 4), w2 = tb_f4_load(s2 + 4), w3 = tb_f4_load(s3 + 4);
  tb_f4_transpose(&l0, &l1, &l2, &l3);
  tb_f4_transpose(&w0, &w1, &w2, &w3);
  v3w lin = {l0, l1, l2}, ang = {w0, w1, w2};
  return v3w_add(lin, v3w_cross(ang, r));
}

/* q = (D̃ + σI) d over all rows (double inputs), through the bodies' acc; the contacts' d is set
 * first (from x, kept, or d = r + βd, the conjugate direction). Returns Σ d·q over the contacts
 * in their order. One pass over the wides scatters, one gathers; the impulses, arms and row
 * velocities are computed four contacts at a time, the sums into acc and Σ d·q contact by
 * contact in order. */
static double apply_operator(tb_kamino_data* kd, float sigma, int dir, double beta) {
  tb_kamino_acc* acc = kd->acc;
  const tb_kamino_acc zero = {{0, 0, 0}, 0, {0, 0, 0}, 0};
  int32_t nw = wide_count(kd);
  for (int32_t n = 0; n < kd->active_count; ++n) acc[kd->active[n]] = zero;
  for (int32_t i = 0; i < nw; ++i) {
    tb_kamino_wide* k = &kd->wides[i];
    tb_f4 dx[3]; /* d as floats */
    for (int j = 0; j < 3; ++j) {
      tb_d2 lo, hi;
      if (dir == TB_KAMINO_D_FROM_X) {
        tb_f4 x = tb_f4_load(k->x[j]);
        lo = tb_d2_from_lo(x), hi = tb_d2_from_hi(x);
      } else {
        lo = tb_d2_load(&k->d[j][0]), hi = tb_d2_load(&k->d[j][2]);
        if (dir == TB_KAMINO_D_CONJUGATE) {
          tb_d2 b2 = tb_d2_splat(beta);
          lo = tb_d2_add(tb_d2_load(&k->r[j][0]), tb_d2_mul(b2, lo));
          hi = tb_d2_add(tb_d2_load(&k->r[j][2]), tb_d2_mul(b2, hi));
        }
      }
      tb_d2_store(&k->d[j][0], lo), tb_d2_store(&k->d[j][2], hi);
      dx[j] = tb_f4_from_d2(lo, hi);
    }
    /* the world impulse on body1, p·(e₀x₀ + e₁x₁ + e₂x₂), and its moments about the two COMs */
    v3w imp = v3w_add(v3w_add(v3w_scale(v3w_load(k->e[0]), dx[0]), v3w_scale(v3w_load(k->e[1]), dx[1])),
                      v3w_scale(v3w_load(k->e[2]), dx[2]));
    imp = v3w_scale(imp, tb_f4_load(k->p));
    v3w mb = v3w_cross(v3w_load(k->rb), imp), ma = v3w_cross(v3w_load(k->ra), imp);
    /* one contact per vector (x, y, z, 0), then into acc lane by lane */
    tb_f4 i0 = imp.x, i1 = imp.y, i2 = imp.z, i3 = tb_f4_splat(0.0f);
    tb_f4 b0 = mb.x, b1 = mb.y, b2 = mb.z, b3 = i3, a0 = ma.x, a1 = ma.y, a2 = ma.z, a3 = i3;
    tb_f4_transpose(&i0, &i1, &i2, &i3);
    tb_f4_transpose(&b0, &b1, &b2, &b3);
    tb_f4_transpose(&a0, &a1, &a2, &a3);
    scatter_lane(acc, k->a[0], k->b[0], i0, a0, b0);
    scatter_lane(acc, k->a[1], k->b[1], i1, a1, b1);
    scatter_lane(acc, k->a[2], k->b[2], i2, a2, b2);
    scatter_lane(acc, k->a[3], k->b[3], i3, a3, b3);
  }
  tb_kamino_joints_scatter(acc, &kd->joints);
  /* velocity changes: M⁻¹ (tb_scale, tb_mat3_mul_v lane by lane) */
  for (int32_t n = 0; n < kd->active_count; ++n) {
    int32_t i = kd->active[n];
    const tb_kamino_inverse* m = &kd->inverse[i];
    float* s = acc_floats(acc, i);
    tb_f4 wx = tb_f4_splat(s[4]), wy = tb_f4_splat(s[5]), wz = tb_f4_splat(s[6]);
    tb_f4_store(s, tb_f4_mul(tb_f4_load(s), tb_f4_splat(m->mass)));
    tb_f4_store(s + 4, tb_f4_add(tb_f4_add(tb_f4_mul(tb_f4_load(m->inertia[0]), wx), tb_f4_mul(tb_f4_load(m->inertia[1]), wy)),
                                 tb_f4_mul(tb_f4_load(m->inertia[2]), wz)));
  }
  double dq = 0.0;
  tb_d2 s2 = tb_d2_splat((double)sigma);
  for (int32_t i = 0; i < nw; ++i) {
    tb_kamino_wide* k = &kd->wides[i];
    /* row velocity change (lin_b + ang_b × rb) − (lin_a + ang_a × ra); a static side reads the
     * zero entry, whose term is +0 (its arm is 0): the same bits as leaving the side out */
    v3w vb = side_velocity(acc, k->acc_b, v3w_load(k->rb));
    v3w v = v3w_sub(vb, side_velocity(acc, k->acc_a, v3w_load(k->ra)));
    /* q = p·(e_j · v) + σd in double, and the terms d·q of Σ d·q */
    tb_f4 p = tb_f4_load(k->p);
    double dqj[3][TB_KAMINO_LANES];
    for (int j = 0; j < 3; ++j) {
      tb_f4 pv = tb_f4_mul(p, v3w_dot(v3w_load(k->e[j]), v));
      tb_d2 dlo = tb_d2_load(&k->d[j][0]), dhi = tb_d2_load(&k->d[j][2]);
      tb_d2 qlo = tb_d2_add(tb_d2_from_lo(pv), tb_d2_mul(s2, dlo)), qhi = tb_d2_add(tb_d2_from_hi(pv), tb_d2_mul(s2, dhi));
      tb_d2_store(&k->q[j][0], qlo), tb_d2_store(&k->q[j][2], qhi);
      tb_d2_store(&dqj[j][0], tb_d2_mul(dlo, qlo)), tb_d2_store(&dqj[j][2], tb_d2_mul(dhi, qhi));
    }
    dq = add_terms(dq, dqj, wide_lanes(kd, i));
  }
  tb_kamino_joints_gather(acc, &kd->joints, sigma);
  return dq;
}

/* 1 when a contact row's residual, unscaled to m/s (|r|/p), is above tol. */
static int row_above(const tb_kamino_wide* k, int j, int l, double tol) { return fabs(k->r[j][l]) / k->p[l] > tol; }

/* 1 when a row of the wide's first n lanes is above tol (row_above). Decided without the division
 * where |r| is clearly apart from tol·p (a relative margin of 1e-12, far above the few roundings
 * of 2⁻⁵³ between the two tests, for a normal tol); only a row at the threshold takes row_above
 * itself. */
static int wide_above(const tb_kamino_wide* k, int n, double tol) {
  if (!(tol >= DBL_MIN)) { /* the margin holds for a normal tol only */
    for (int l = 0; l < n; ++l)
      for (int j = 0; j < 3; ++j)
        if (row_above(k, j, l, tol)) return 1;
    return 0;
  }
  for (int l = 0; l < n; ++l) {
    double t = tol * (double)k->p[l], hi = t * (1.0 + 1e-12), lo = t * (1.0 - 1e-12);
    for (int j = 0; j < 3; ++j) {
      double r = fabs(k->r[j][l]);
      if (r > hi || (r >= lo && row_above(k, j, l, tol))) return 1;
    }
  }
  return 0;
}

/* Solves (D̃ + σI) x = rhs by conjugate gradients from x (in the wides' x), rhs in their r on
 * entry. Stops when every row's residual, unscaled to m/s, is within tol (the test stops at the
 * first row above it). */
static void solve_linear(tb_kamino_data* kd, float sigma, double tol) {
  int32_t nw = wide_count(kd);
  /* r = rhs − A x */
  tb_kamino_joints_cg_start(&kd->joints);
  apply_operator(kd, sigma, TB_KAMINO_D_FROM_X, 0.0);
  double rr = tb_kamino_joints_cg_residual(&kd->joints), beta = 0.0;
  int above = 0; /* a contact row's residual above tol */
  for (int32_t i = 0; i < nw; ++i) {
    tb_kamino_wide* k = &kd->wides[i];
    double r2[3][TB_KAMINO_LANES];
    for (int j = 0; j < 3; ++j)
      for (int l = 0; l < TB_KAMINO_LANES; l += 2) {
        tb_d2 r = tb_d2_sub(tb_d2_load(&k->r[j][l]), tb_d2_load(&k->q[j][l]));
        tb_d2_store(&k->r[j][l], r), tb_d2_store(&k->d[j][l], r);
        tb_d2_store(&r2[j][l], tb_d2_mul(r, r));
      }
    int n = wide_lanes(kd, i);
    rr = add_terms(rr, r2, n);
    above = above || wide_above(k, n, tol);
  }
  for (int it = 0; it < TB_KAMINO_CG_MAX; ++it) {
    if ((!above && !(tb_kamino_joints_cg_worst(&kd->joints) > tol)) || rr == 0.0) break;
    if (it > 0) tb_kamino_joints_cg_direction(&kd->joints, beta);
    double dq = apply_operator(kd, sigma, it > 0 ? TB_KAMINO_D_CONJUGATE : TB_KAMINO_D_KEPT, beta);
    dq += tb_kamino_joints_cg_dq(&kd->joints);
    if (dq <= 0.0) break;
    double alpha = rr / dq, rr1 = tb_kamino_joints_cg_step(&kd->joints, alpha);
    above = 0;
    tb_d2 a2 = tb_d2_splat(alpha);
    for (int32_t i = 0; i < nw; ++i) {
      tb_kamino_wide* k = &kd->wides[i];
      double r2[3][TB_KAMINO_LANES];
      for (int j = 0; j < 3; ++j) {
        /* x = (float)((double)x + αd), r −= αq */
        tb_f4 x = tb_f4_load(k->x[j]);
        tb_d2 dlo = tb_d2_load(&k->d[j][0]), dhi = tb_d2_load(&k->d[j][2]);
        tb_f4_store(k->x[j], tb_f4_from_d2(tb_d2_add(tb_d2_from_lo(x), tb_d2_mul(a2, dlo)), tb_d2_add(tb_d2_from_hi(x), tb_d2_mul(a2, dhi))));
        for (int l = 0; l < TB_KAMINO_LANES; l += 2) {
          tb_d2 r = tb_d2_sub(tb_d2_load(&k->r[j][l]), tb_d2_mul(a2, tb_d2_load(&k->q[j][l])));
          tb_d2_store(&k->r[j][l], r);
          tb_d2_store(&r2[j][l], tb_d2_mul(r, r));
        }
      }
      int n = wide_lanes(kd, i);
      rr1 = add_terms(rr1, r2, n);
      above = above || wide_above(k, n, tol);
    }
    beta = rr1 / rr;
    rr = rr1;
  }
}

/* ---- setup ---- */

/* Inverse effective mass (1/kg) of a unit impulse along e at the two points. */
static float delassus_diag(const tb_newton_data* nd, const tb_kamino_data* kd, const tb_newton_contact* c,
                           const tb_kamino_contact* k, tb_vec3 e) {
  float s = 0.0f;
  if (c->a >= 0) {
    tb_vec3 x = tb_cross(k->ra, e);
    s += nd->bodies[c->a].inv_mass + tb_dot(x, tb_mat3_mul_v(kd->inv_inertia[c->a], x));
  }
  if (c->b >= 0) {
    tb_vec3 x = tb_cross(k->rb, e);
    s += nd->bodies[c->b].inv_mass + tb_dot(x, tb_mat3_mul_v(kd->inv_inertia[c->b], x));
  }
  return s;
}

/* Builds the dual problem from the Newton rows; bodies hold the free velocities on return. */
static tb_status setup(tb_world* w, const tb_step_context* step, tb_kamino_data* kd) {
  tb_newton_data* nd = w->newton;
  const tb_kamino_params* kp = &w->def.solver.kamino;
  float h = step->dt, inv_h = step->inv_h;
  const tb_array_ref ca = {(void**)&kd->contacts, sizeof(tb_kamino_contact)};
  const tb_array_ref wa = {(void**)&kd->wides, sizeof(tb_kamino_wide)};
  const tb_array_ref ba[5] = {{(void**)&kd->inv_inertia, sizeof(tb_mat3)}, {(void**)&kd->acc, sizeof(tb_kamino_acc)},
                              {(void**)&kd->active, sizeof(int32_t)}, {(void**)&kd->in_rows, 1},
                              {(void**)&kd->inverse, sizeof(tb_kamino_inverse)}};
  if (!tb_grow_capacity(&ca, 1, &kd->contact_capacity, nd->contact_count) ||
      !tb_grow_capacity(&wa, 1, &kd->wide_capacity, (nd->contact_count + TB_KAMINO_LANES - 1) / TB_KAMINO_LANES) ||
      !tb_grow_capacity(ba, 5, &kd->body_capacity, nd->body_count + 1))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "solve: out of memory for %d contacts", nd->contact_count);
  for (int32_t i = 0; i < nd->body_count; ++i) {
    tb_mat3 m = kd->inv_inertia[i] = tb_newton_inv_inertia_world(nd, i);
    tb_kamino_inverse* v = &kd->inverse[i];
    const tb_vec3 col[3] = {m.cx, m.cy, m.cz};
    for (int c = 0; c < 3; ++c) v->inertia[c][0] = col[c].x, v->inertia[c][1] = col[c].y, v->inertia[c][2] = col[c].z, v->inertia[c][3] = 0.0f;
    v->mass = nd->bodies[i].inv_mass;
  }

  /* rows at the pre-step velocities (for restitution), then the free velocities */
  kd->contact_count = 0;
  for (int32_t i = 0; i < nd->contact_count; ++i) {
    tb_newton_contact* c = &nd->contacts[i];
    tb_kamino_contact* k = &kd->contacts[kd->contact_count];
    memset(k, 0, sizeof *k);
    k->row = i;
    k->a = c->a, k->b = c->b;
    k->e[0] = c->n;
    tb_basis(c->n, &k->e[1], &k->e[2]);
    const tb_manifold_point* mp = &w->manifolds[c->pair].points[c->point];
    if (c->a >= 0) k->ra = tb_sub(mp->point0, nd->bodies[c->a].x);
    if (c->b >= 0) k->rb = tb_sub(mp->point1, nd->bodies[c->b].x);
    float dmax = 0.0f;
    for (int j = 0; j < 3; ++j) {
      float dj = delassus_diag(nd, kd, c, k, k->e[j]);
      if (dj > dmax) dmax = dj;
    }
    if (dmax <= 0.0f) continue; /* both sides immovable: no row */
    k->p = tb_clampf(1.0f / sqrtf(dmax + 1.1920929e-7f), TB_KAMINO_P_MIN, TB_KAMINO_P_MAX);
    k->mu = c->mu;
    /* normal bias: distance with a dead zone δ, Baumgarte share γ of a penetration (none at e >= 1),
     * a speculative gap closed in one step; restitution e·(pre-step normal velocity) */
    float dist = mp->separation;
    float pen = dist > 0.0f ? fmaxf(0.0f, dist - kp->dead_zone) : -fmaxf(0.0f, -dist - kp->dead_zone);
    float xi = pen * inv_h;
    float gate = c->restitution >= 1.0f ? 0.0f : 1.0f;
    k->vf[0] = gate * (kp->stabilization * fminf(0.0f, xi) + fmaxf(0.0f, xi)) +
               c->restitution * tb_dot(k->e[0], row_velocity(nd, c, k));
    kd->contact_count++;
  }
  tb_vec3 g = tb_v3(w->def.gravity[0], w->def.gravity[1], w->def.gravity[2]);
  for (int32_t i = 0; i < nd->body_count; ++i) {
    tb_newton_body* b = &nd->bodies[i];
    if (!b->dynamic) continue;
    /* free velocity: gravity and the gyroscopic torque −ω × Iω (body axes), then body damping */
    float lin_c = w->bodies.linear_damping[b->slot], ang_c = w->bodies.angular_damping[b->slot];
    tb_vec3 wb = tb_inv_rotate(b->q, b->w);
    tb_vec3 tau = tb_neg(tb_cross(wb, tb_mat3_mul_v(b->inertia, wb)));
    b->w = tb_scale(tb_rotate(b->q, tb_mul_add(wb, h, tb_mat3_mul_v(b->inv_inertia, tau))), 1.0f - ang_c * h);
    b->v = tb_scale(tb_mul_add(b->v, h, g), 1.0f - lin_c * h);
  }
  if (!tb_kamino_joints_setup(w, nd, kd->inv_inertia, &kd->joints, h))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "solve: out of memory for %d joints", w->joints.live);
  for (int32_t i = 0; i < kd->contact_count; ++i) {
    tb_kamino_contact* k = &kd->contacts[i];
    tb_vec3 v = row_velocity(nd, &nd->contacts[k->row], k);
    for (int j = 0; j < 3; ++j) k->vf[j] = k->p * (k->vf[j] + tb_dot(k->e[j], v));
  }
  tb_kamino_joints_free_velocity(nd, &kd->joints);
  /* the wides; a static side's gather reads the zero entry after the bodies */
  const tb_kamino_acc zero = {{0, 0, 0}, 0, {0, 0, 0}, 0};
  kd->acc[nd->body_count] = zero;
  int32_t nw = wide_count(kd);
  if (nw > 0) memset(kd->wides, 0, (size_t)nw * sizeof(tb_kamino_wide));
  for (int32_t i = 0; i < nw * TB_KAMINO_LANES; ++i) {
    tb_kamino_wide* kw = &kd->wides[i / TB_KAMINO_LANES];
    int l = i % TB_KAMINO_LANES;
    const tb_kamino_contact* k = i < kd->contact_count ? &kd->contacts[i] : NULL;
    kw->a[l] = k ? k->a : -1;
    kw->b[l] = k ? k->b : -1;
    kw->acc_a[l] = kw->a[l] >= 0 ? kw->a[l] : nd->body_count;
    kw->acc_b[l] = kw->b[l] >= 0 ? kw->b[l] : nd->body_count;
    if (!k) continue;
    for (int j = 0; j < 3; ++j) {
      kw->e[j][0][l] = k->e[j].x, kw->e[j][1][l] = k->e[j].y, kw->e[j][2][l] = k->e[j].z;
    }
    kw->ra[0][l] = k->ra.x, kw->ra[1][l] = k->ra.y, kw->ra[2][l] = k->ra.z;
    kw->rb[0][l] = k->rb.x, kw->rb[1][l] = k->rb.y, kw->rb[2][l] = k->rb.z;
    kw->p[l] = k->p;
  }
  /* the operator's bodies: a body no row acts on gets no impulse and is never read */
  if (nd->body_count > 0) memset(kd->in_rows, 0, (size_t)nd->body_count);
  for (int32_t i = 0; i < kd->contact_count; ++i) {
    if (kd->contacts[i].a >= 0) kd->in_rows[kd->contacts[i].a] = 1;
    if (kd->contacts[i].b >= 0) kd->in_rows[kd->contacts[i].b] = 1;
  }
  for (int32_t i = 0; i < kd->joints.count; ++i) {
    if (kd->joints.rows[i].a >= 0) kd->in_rows[kd->joints.rows[i].a] = 1;
    if (kd->joints.rows[i].b >= 0) kd->in_rows[kd->joints.rows[i].b] = 1;
  }
  kd->active_count = 0;
  for (int32_t i = 0; i < nd->body_count; ++i)
    if (kd->in_rows[i]) kd->active[kd->active_count++] = i;
  return TB_OK;
}

/* Warm start from the cache of the last solve(): x = y = scale·λ/p, z = p·v + De Saxcé. */
static void warm_start(tb_world* w, tb_kamino_data* kd, float scale) {
  const tb_newton_data* nd = w->newton;
  const tb_contact_fields* f = &w->contacts.f;
  const tb_kamino_cache* cache = &kd->cache;
  for (int32_t i = 0; i < kd->contact_count; ++i) {
    tb_kamino_contact* k = &kd->contacts[i];
    int32_t s = nd->contacts[k->row].store;
    if (s < 0) continue;
    int32_t m = f->match_index[s];
    if (m < 0 || m >= cache->count || cache->key[m] != f->match_key[s] || cache->key[m] == 0) continue;
    for (int j = 0; j < 3; ++j) {
      k->xp[j] = k->yp[j] = scale * tb_dot(k->e[j], cache->impulse[m]) / k->p;
      k->zp[j] = k->p * tb_dot(k->e[j], cache->velocity[m]);
    }
    k->zp[0] += k->mu * sqrtf(k->zp[1] * k->zp[1] + k->zp[2] * k->zp[2]);
  }
}

/* Room for this solve's warm-start cache, taken before anything changes (a solve that runs out of
 * memory fails whole instead of dropping next step's warm start). */
static int reserve_cache(tb_world* w, tb_kamino_data* kd) {
  tb_kamino_cache* c = &kd->cache;
  tb_array_ref a[3];
  cache_arrays(c, a);
  return tb_grow_capacity(a, 3, &c->capacity, w->contacts.count);
}

/* Keeps this solve's solution by contact-store index for the next step's warm start. */
static void store_cache(tb_world* w, tb_kamino_data* kd) {
  const tb_newton_data* nd = w->newton;
  tb_kamino_cache* c = &kd->cache;
  int32_t n = w->contacts.count;
  tb_array_ref a[3];
  cache_arrays(c, a);
  if (!tb_grow_capacity(a, 3, &c->capacity, n)) { c->count = 0; return; } /* no warm start next step */
  if (n > 0) memset(c->key, 0, (size_t)n * sizeof(uint32_t));
  c->count = n;
  for (int32_t i = 0; i < kd->contact_count; ++i) {
    const tb_kamino_contact* k = &kd->contacts[i];
    int32_t s = nd->contacts[k->row].store;
    if (s < 0) continue;
    float sz[3] = {k->mu * sqrtf(k->z[1] * k->z[1] + k->z[2] * k->z[2]), 0.0f, 0.0f};
    float v[3];
    for (int j = 0; j < 3; ++j) v[j] = (k->z[j] - sz[j]) / k->p;
    c->key[s] = w->contacts.f.match_key[s];
    c->impulse[s] = row_impulse(k, k->y);
    c->velocity[s] = tb_add(tb_add(tb_scale(k->e[0], v[0]), tb_scale(k->e[1], v[1])), tb_scale(k->e[2], v[2]));
  }
}

/* ---- PADMM ---- */

typedef struct tb_kamino_residuals { float p, d, c; } tb_kamino_residuals;

/* fmaxf(m, v) for a running maximum m that is never NaN (a NaN v leaves m), inline. */
static inline float running_max(float m, float v) { return v > m ? v : m; }

/* Contact i's right side of the x-update, −ṽ_f − s(z_prev) + η x_prev + ρ y_prev + z_prev, into
 * its wide's r (from xp and the Nesterov points yh, zh). */
static void right_side(tb_kamino_data* kd, int32_t i, float eta, float rho) {
  const tb_kamino_contact* k = &kd->contacts[i];
  tb_kamino_wide* kw = &kd->wides[i / TB_KAMINO_LANES];
  int l = i % TB_KAMINO_LANES;
  float s = k->mu * sqrtf(k->zh[1] * k->zh[1] + k->zh[2] * k->zh[2]); /* De Saxcé, normal row */
  for (int j = 0; j < 3; ++j)
    kw->r[j][l] = (double)(-k->vf[j] + eta * k->xp[j] + rho * k->yh[j] + k->zh[j]) - (j == 0 ? (double)s : 0.0);
}

static int padmm(tb_world* w, tb_kamino_data* kd, tb_kamino_residuals* res) {
  const tb_kamino_params* kp = &w->def.solver.kamino;
  float eta = kp->eta, rho = kp->rho, sigma = eta + rho, inv_rho = 1.0f / rho;
  /* the inner solve is a hundredth of the dual tolerance (m/s); Kamino's default one is a direct
   * Cholesky factorisation (docs/presets.md) */
  double lin_tol = 0.01 * (double)kp->dual_tolerance;
  int it = 0;
  res->p = res->d = res->c = 0.0f;
  if (kd->contact_count == 0 && kd->joints.count == 0) return 0;
  if (kp->max_iterations <= 0) return 0; /* no budget: unconverged, nothing solved */
  /* Nesterov state: a (a_p of the last iteration) and the combined residual r_a of the last one */
  float a_p = TB_KAMINO_A0, ra_p = FLT_MAX; /* Kamino starts r_a_p at FLOAT32_MAX */
  for (int32_t i = 0; i < kd->contact_count; ++i) {
    tb_kamino_contact* k = &kd->contacts[i];
    memcpy(k->yh, k->yp, sizeof k->yh);
    memcpy(k->zh, k->zp, sizeof k->zh);
  }
  tb_kamino_joints_restart_point(&kd->joints);
  /* the first x-update's start and right side; the later ones come with the Nesterov step */
  for (int32_t i = 0; i < kd->contact_count; ++i) {
    tb_kamino_wide* kw = &kd->wides[i / TB_KAMINO_LANES];
    for (int j = 0; j < 3; ++j) kw->x[j][i % TB_KAMINO_LANES] = kd->contacts[i].xp[j];
    right_side(kd, i, eta, rho);
  }
  tb_kamino_joints_rhs(&kd->joints, eta, rho);
  for (;;) {
    solve_linear(kd, sigma, lin_tol);
    float rp = 0.0f, rd = 0.0f, rc = 0.0f;
    double dy2 = 0.0, dz2 = 0.0; /* sums of squares of the slack and dual steps (unscaled) */
    for (int32_t i = 0; i < kd->contact_count; ++i) {
      tb_kamino_contact* k = &kd->contacts[i];
      const tb_kamino_wide* kw = &kd->wides[i / TB_KAMINO_LANES];
      int l = i % TB_KAMINO_LANES;
      float x[3] = {kw->x[0][l], kw->x[1][l], kw->x[2][l]}, arg[3];
      for (int j = 0; j < 3; ++j) arg[j] = x[j] - inv_rho * k->zh[j];
      project_cone(arg, k->mu, k->y);
      float xz = 0.0f;
      for (int j = 0; j < 3; ++j) {
        k->z[j] = k->zh[j] + rho * (k->y[j] - x[j]);
        rp = running_max(rp, fabsf(k->p * (x[j] - k->y[j])));
        rd = running_max(rd, fabsf((eta * (x[j] - k->xp[j]) + rho * (k->y[j] - k->yh[j])) / k->p));
        double dy = (double)k->p * (k->y[j] - k->yh[j]), dz = (double)(k->z[j] - k->zh[j]) / k->p;
        dy2 += dy * dy, dz2 += dz * dz;
        xz += x[j] * k->z[j];
      }
      rc = running_max(rc, fabsf(xz));
    }
    tb_kamino_joints_project(&kd->joints, eta, rho, &rp, &rd, &rc, &dy2, &dz2);
    ++it;
    res->p = rp; res->d = rd; res->c = rc;
    int done = it > 1 && rp <= kp->primal_tolerance && rd <= kp->dual_tolerance && rc <= kp->complementarity_tolerance;
    /* acceleration (Kamino PADMM, O'Donoghue-Candès restart): while the combined residual
     * r_a = ρ·Σ(P Δy)² + Σ(Δz/P)²/ρ (sums of squares, not norms, as Kamino's
     * _project_dual_convergence_accel) falls by the restart factor, extrapolate the slack and
     * dual by (a_p − 1)/a with a = (1 + √(1 + 4a_p²))/2; otherwise restart from the previous
     * iterate with a = a₀ */
    float ra = (float)(rho * dy2 + dz2 / rho), a, factor;
    int restart = !(ra < TB_KAMINO_RESTART * ra_p);
    if (!restart) {
      a = 0.5f * (1.0f + sqrtf(1.0f + 4.0f * a_p * a_p));
      factor = (a_p - 1.0f) / a;
    } else {
      a = TB_KAMINO_A0;
      factor = 0.0f;
      ra = ra_p / TB_KAMINO_RESTART;
    }
    ra_p = ra;
    a_p = a;
    /* what follows only feeds the next iteration (the solution is y, z) */
    if (done) return it;
    if (it >= kp->max_iterations) return -it; /* budget spent */
    /* the Nesterov step, then the next x-update's right side (it starts from x = x_prev) */
    for (int32_t i = 0; i < kd->contact_count; ++i) {
      tb_kamino_contact* k = &kd->contacts[i];
      const tb_kamino_wide* kw = &kd->wides[i / TB_KAMINO_LANES];
      for (int j = 0; j < 3; ++j) {
        k->yh[j] = restart ? k->yp[j] : k->y[j] + factor * (k->y[j] - k->yp[j]);
        k->zh[j] = restart ? k->zp[j] : k->z[j] + factor * (k->z[j] - k->zp[j]);
        k->xp[j] = kw->x[j][i % TB_KAMINO_LANES];
      }
      memcpy(k->yp, k->y, sizeof k->y);
      memcpy(k->zp, k->z, sizeof k->z);
      right_side(kd, i, eta, rho);
    }
    tb_kamino_joints_advance(&kd->joints, restart, factor);
    tb_kamino_joints_rhs(&kd->joints, eta, rho);
  }
}

tb_status tb_solve_kamino(tb_world* w, const tb_step_context* step) {
  tb_status st = tb_newton_setup(w, "solve");
  if (st != TB_OK) return st;
  if (!w->kamino) {
    w->kamino = (tb_kamino_data*)tb_alloc_zero(sizeof(tb_kamino_data));
    if (!w->kamino) return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "solve: out of memory for the solver");
  }
  tb_kamino_data* kd = w->kamino;
  tb_newton_data* nd = w->newton;
  const tb_kamino_params* kp = &w->def.solver.kamino;
  float h = step->dt, inv_h = step->inv_h;
  if ((st = setup(w, step, kd)) != TB_OK) return st;
  if (kp->warm_start && !reserve_cache(w, kd)) return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "solve: out of memory for the warm-start cache");
  if (kp->warm_start) warm_start(w, kd, kp->warm_start_scale);
  tb_kamino_residuals res;
  int used = padmm(w, kd, &res);
  int converged = used > 0 || (kd->contact_count == 0 && kd->joints.count == 0); /* no rows: nothing to solve */
  if (used < 0) used = -used;
  if (kp->warm_start) store_cache(w, kd);
  else kd->cache.count = 0;

  /* Euler: the impulses change the free velocities, then the poses advance with them */
  for (int32_t i = 0; i < nd->body_count; ++i) nd->bodies[i].dlin = nd->bodies[i].dang = tb_v3(0, 0, 0);
  for (int32_t i = 0; i < kd->contact_count; ++i) {
    const tb_kamino_contact* k = &kd->contacts[i];
    const tb_newton_contact* c = &nd->contacts[k->row];
    tb_vec3 imp = row_impulse(k, k->y); /* N·s on body1 */
    if (c->b >= 0) {
      tb_newton_body* b = &nd->bodies[c->b];
      b->dlin = tb_add(b->dlin, imp);
      b->dang = tb_add(b->dang, tb_cross(k->rb, imp));
    }
    if (c->a >= 0) {
      tb_newton_body* a = &nd->bodies[c->a];
      a->dlin = tb_sub(a->dlin, imp);
      a->dang = tb_sub(a->dang, tb_cross(k->ra, imp));
    }
  }
  /* the per-body contact totals, then the joints' impulses */
  for (int32_t i = 0; i < nd->body_count; ++i) {
    nd->bodies[i].sum_f = nd->bodies[i].dlin;
    nd->bodies[i].sum_t = nd->bodies[i].dang;
  }
  tb_kamino_joints_apply(w, nd, &kd->joints);
  for (int32_t i = 0; i < nd->body_count; ++i) {
    tb_newton_body* b = &nd->bodies[i];
    if (b->dynamic) {
      b->v = tb_mul_add(b->v, b->inv_mass, b->dlin);
      b->w = tb_add(b->w, tb_mat3_mul_v(kd->inv_inertia[i], b->dang));
    }
    b->x = tb_mul_add(b->x, h, b->v);
    b->q = tb_quat_integrate(b->q, b->w, h);
  }

  /* readback: impulses in Tribo's convention; the wrench as Newton's Kamino conversion writes
   * it, by body1 on body0 at body0's centre of mass after the step (static body0: no torque) */
  tb_contact_fields* f = &w->contacts.f;
  memset(f->wrench, 0, 6 * (size_t)w->contacts.count * sizeof(float));
  for (int32_t k = 0; k < w->contacts.count; ++k) f->readback_scale[k] = NAN;
  for (int32_t i = 0; i < kd->contact_count; ++i) {
    const tb_kamino_contact* k = &kd->contacts[i];
    const tb_newton_contact* c = &nd->contacts[k->row];
    int32_t s = c->store;
    if (s < 0) continue;
    tb_vec3 imp = row_impulse(k, k->y);
    f->normal_impulse[s] = k->p * k->y[0];
    f->tangent_impulse[2 * s] = k->p * k->y[1];
    f->tangent_impulse[2 * s + 1] = k->p * k->y[2];
    tb_vec3 f1 = tb_scale(imp, inv_h), f0 = tb_neg(f1);
    memcpy(f->force + 3 * s, &f1, sizeof f1);
    tb_vec3 t0 = tb_v3(0, 0, 0);
    if (c->a >= 0) {
      tb_vec3 p0 = tb_v3(f->point0[3 * s], f->point0[3 * s + 1], f->point0[3 * s + 2]);
      t0 = tb_cross(tb_sub(p0, nd->bodies[c->a].x), f0);
    }
    float* wr = f->wrench + 6 * s;
    wr[0] = f0.x; wr[1] = f0.y; wr[2] = f0.z;
    wr[3] = t0.x; wr[4] = t0.y; wr[5] = t0.z;
  }
  tb_readback_set(w, TB_READBACK_NEWTON, TB_RB_PER_CONTACT | TB_RB_FRICTION | TB_RB_RESTITUTION | TB_RB_PER_BODY, 1, 1.0f);

  tb_solver_status_set(w, TB_SOLVER_KAMINO, used, 0, converged, NAN, tb_newton_max_penetration(nd)); /* PADMM reports r_d instead */
  w->status.residual_primal = res.p;
  w->status.residual_dual = res.d;
  w->status.residual_complementarity = res.c;
  w->stats.substeps = 1;
  tb_kamino_joints_readback(w, nd, h);
  tb_newton_finish(w, h);
  return TB_OK;
}

/* ---- public calls ---- */

void tb_kamino_reset(tb_world* w) {
  if (w->kamino) w->kamino->cache.count = 0;
}

/* ---- snapshots: the warm-start cache (last solution per contact-store index) ---- */

void tb_kamino_save(const tb_world* w, tb_serial* s) {
  int32_t n = w->kamino ? w->kamino->cache.count : 0;
  tb_put_i32(s, n);
  if (n == 0) return;
  const tb_kamino_cache* c = &w->kamino->cache;
  tb_put(s, c->key, (size_t)n * sizeof(uint32_t));
  tb_put(s, c->impulse, (size_t)n * sizeof(tb_vec3));
  tb_put(s, c->velocity, (size_t)n * sizeof(tb_vec3));
}

int tb_kamino_load(tb_world* w, tb_serial* s) {
  int32_t n = tb_get_i32(s, 0, INT32_MAX / 64);
  if (s->failed) return 0;
  if (n == 0) return 1;
  if ((size_t)n * (sizeof(uint32_t) + 2 * sizeof(tb_vec3)) > s->size - s->pos) return s->failed = 1, 0;
  tb_kamino_data* d = w->kamino ? w->kamino : (tb_kamino_data*)tb_alloc_zero(sizeof(tb_kamino_data));
  if (!d) return 0;
  w->kamino = d; /* the world's destroy frees it from here on */
  tb_kamino_cache* c = &d->cache;
  tb_array_ref a[3];
  cache_arrays(c, a);
  if (!tb_grow_capacity(a, 3, &c->capacity, n)) return 0;
  tb_get(s, c->key, (size_t)n * sizeof(uint32_t));
  tb_get(s, c->impulse, (size_t)n * sizeof(tb_vec3));
  tb_get(s, c->velocity, (size_t)n * sizeof(tb_vec3));
  c->count = n;
  /* the next solve starts from the kept entries (key != 0): finite (a failed step forgets them,
   * tb_solve_guarded) */
  for (int32_t i = 0; i < n && !s->failed; ++i)
    if (c->key[i] != 0 && (!tb_vec3_is_finite(c->impulse[i]) || !tb_vec3_is_finite(c->velocity[i]))) s->failed = 1;
  return !s->failed;
}
