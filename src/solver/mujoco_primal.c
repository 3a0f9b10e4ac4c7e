/* MuJoCo soft constraints: the cost of the rows (mj_constraintUpdate) and the primal solvers on the
 * accelerations, CG (Polak-Ribière) and Newton (H = M + JᵀDJ + cone Hessians in a skyline over the
 * bodies in the setup's order: islands apart, each in reverse Cuthill-McKee order; factored again,
 * or updated by rank one per row that changed state, only when a state changed), with an exact line
 * search (a safeguarded 1-D Newton method). */
#include <math.h>
#include <string.h>

#include "../core/simd.h"
#include "mujoco_solver.h"

/* ---- soft cost of the rows at jar (MuJoCo mj_constraintUpdate) ---- */

/* Forces, states and cost; with hessian the elliptic middle-zone Hessians too. Marks the factor
 * stale when a row's state changes or a cone is in its middle zone: otherwise H is the same. */
static double constraint_update(tb_mujoco_data* d, const double* jar, double* force, int hessian) {
  double cost = 0.0;
  for (int32_t ci = 0; ci < d->con_count; ++ci) {
    tb_mj_con* c = &d->cons[ci];
    int32_t i = c->adr, n = c->rows.count;
    if (c->rows.type != TB_MJ_ELLIPTIC) {
      int equality = c->rows.type == TB_MJ_EQUALITY; /* always quadratic */
      for (int q = 0; q < n; ++q) {
        const tb_mj_row* r = &d->rows[i + q];
        int active = equality || jar[i + q] < 0.0;
        if (d->rstate[i + q] != active) d->hessian_stale = 1;
        d->rstate[i + q] = active;
        force[i + q] = active ? -r->D * jar[i + q] : 0.0;
        if (active) cost += 0.5 * r->D * jar[i + q] * jar[i + q];
      }
      continue;
    }
    double mu = c->rows.mu, u[6], t = 0.0;
    u[0] = jar[i] * mu;
    for (int q = 1; q < n; ++q) {
      u[q] = jar[i + q] * c->friction[q - 1];
      t += u[q] * u[q];
    }
    t = sqrt(t);
    double nn = u[0];
    if (nn >= mu * t || (t <= 0.0 && nn >= 0.0)) { /* top zone: separating, no force */
      c->state = 0;
      if (d->rstate[i] != 0) d->hessian_stale = 1;
      for (int q = 0; q < n; ++q) force[i + q] = 0.0, d->rstate[i + q] = 0;
    } else if (mu * nn + t <= 0.0 || (t <= 0.0 && nn < 0.0)) { /* bottom zone: every row quadratic */
      c->state = 1;
      if (d->rstate[i] != 1) d->hessian_stale = 1;
      for (int q = 0; q < n; ++q) {
        const tb_mj_row* r = &d->rows[i + q];
        force[i + q] = -r->D * jar[i + q];
        cost += 0.5 * r->D * jar[i + q] * jar[i + q];
        d->rstate[i + q] = 1;
      }
    } else { /* middle zone: cost ½·Dm·(N − μT)², Dm = D₀/(μ²(1 + μ²)) */
      c->state = 2;
      d->hessian_stale = 1; /* the cone Hessian moves with jar */
      double dm = d->rows[i].D / (mu * mu * (1.0 + mu * mu)), nmt = nn - mu * t;
      cost += 0.5 * dm * nmt * nmt;
      force[i] = -dm * nmt * mu;
      for (int q = 1; q < n; ++q) force[i + q] = -force[i] / t * u[q] * c->friction[q - 1];
      for (int q = 0; q < n; ++q) d->rstate[i + q] = 2;
      if (hessian) {
        double* H = c->H;
        memset(H, 0, sizeof c->H);
        H[0] = 1.0;
        for (int q = 1; q < n; ++q) H[q] = -mu / t * u[q];
        for (int k = 1; k < n; ++k)
          for (int q = k; q < n; ++q) H[k * n + q] = mu * nn / (t * t * t) * u[q] * u[k];
        for (int q = 1; q < n; ++q) H[q * (n + 1)] += mu * mu - mu * nn / t;
        for (int k = 0; k < n; ++k)
          for (int q = k; q < n; ++q)
            H[k * n + q] *= dm * (k == 0 ? mu : c->friction[k - 1]) * (q == 0 ? mu : c->friction[q - 1]);
        for (int k = 0; k < n; ++k)
          for (int q = k + 1; q < n; ++q) H[q * n + k] = H[k * n + q];
      }
    }
  }
  return cost;
}

/* ---- primal solvers (CG, Newton) ---- */

/* A rank-one update's cost per skyline value it passes, in the factor's multiply-adds: six
 * dependent scalar operations against the factor's two-lane ones (measured: 6-24 all the same). */
#define UPDATE_COST 8.0

static double gauss_cost(const tb_mujoco_data* d) {
  double s = 0.0;
  for (int32_t i = 0; i < 6 * d->body_count; ++i) s += (d->acc[i] - d->a0[i]) * (d->ma[i] - d->ma0[i]);
  return 0.5 * s;
}

double tb_mj_total_cost(tb_mujoco_data* d) {
  for (int32_t i = 0; i < d->row_count; ++i) d->jar[i] = row_dot(&d->rows[i], d->acc) - d->rows[i].aref;
  return gauss_cost(d) + constraint_update(d, d->jar, d->force, 0);
}

/* grad = M(a − a₀) − Jᵀf at the current forces */
static void update_grad(tb_mujoco_data* d) {
  int32_t n = 6 * d->body_count;
  for (int32_t i = 0; i < n; ++i) d->grad[i] = d->ma[i] - d->ma0[i];
  for (int32_t i = 0; i < d->row_count; ++i)
    if (d->force[i] != 0.0) row_add_t(&d->rows[i], -d->force[i], d->grad);
}

/* Skyline profile: the first column of each dof row from the rows' body pairs. */
int64_t tb_mj_skyline_profile(tb_mujoco_data* d) {
  int32_t n = 6 * d->body_count;
  d->factor_cost = 0.0;
  if (n == 0) return 0; /* no dynamic body: the arrays may not exist yet */
  for (int32_t k = 0; k < d->body_count; ++k)
    for (int i = 0; i < 6; ++i) d->first[6 * k + i] = 6 * k;
  for (int32_t i = 0; i < d->row_count; ++i) {
    const tb_mj_row* r = &d->rows[i];
    if (r->a < 0 || r->b < 0) continue;
    int32_t lo = r->a < r->b ? r->a : r->b, hi = r->a < r->b ? r->b : r->a;
    for (int q = 0; q < 6; ++q)
      if (d->first[6 * hi + q] > 6 * lo) d->first[6 * hi + q] = 6 * lo;
  }
  int64_t total = 0;
  double cost = 0.0;
  for (int32_t i = 0; i < n; ++i) {
    d->off[i] = total;
    total += i - d->first[i] + 1;
    cost += 0.5 * (double)(i - d->first[i]) * (double)(i - d->first[i]);
  }
  d->off[n] = total;
  d->factor_cost = cost; /* fixed with the profile: refresh_hessian weighs updates against it */
  return total;
}

static void sky_add(tb_mujoco_data* d, int32_t i, int32_t j, double v) {
  if (j > i) { int32_t t = i; i = j; j = t; }
  d->L[d->off[i] + (j - d->first[i])] += v;
}

/* Adds Σ_kl H_kl J_kᵀ J_l of rows adr..adr+n−1 (same two bodies) to the skyline: entry (u, v) of a
 * body pair gets Σ_k Σ_l (H_kl·J_k[u])·J_l[v] over the rows with J_k[u] ≠ 0, in that order, once. */
static void add_rows_hessian(tb_mujoco_data* d, int32_t adr, int n, const double* H) {
  const tb_mj_row* r0 = &d->rows[adr];
  int32_t bod[2] = {r0->a, r0->b};
  for (int sa = 0; sa < 2; ++sa) {
    if (bod[sa] < 0) continue;
    const double* jk[TB_MJ_MAX_ROWS];
    for (int k = 0; k < n; ++k) jk[k] = sa == 0 ? d->rows[adr + k].ja : d->rows[adr + k].jb;
    for (int u = 0; u < 6; ++u) {
      double hj[36]; /* H_kl·J_k[u], rows k with J_k[u] ≠ 0 packed first */
      int nk = 0;
      for (int k = 0; k < n; ++k) {
        if (jk[k][u] == 0.0) continue;
        for (int l = 0; l < n; ++l) hj[nk * n + l] = H[k * n + l] * jk[k][u];
        ++nk;
      }
      if (nk == 0) continue;
      int32_t gi = 6 * bod[sa] + u;
      double* li = d->L + d->off[gi] - d->first[gi]; /* li[gj]: entry (gi, gj) */
      for (int sb = 0; sb < 2; ++sb) {
        if (bod[sb] < 0 || bod[sa] < bod[sb]) continue;
        const double* jl[TB_MJ_MAX_ROWS];
        for (int l = 0; l < n; ++l) jl[l] = sb == 0 ? d->rows[adr + l].ja : d->rows[adr + l].jb;
        int vmax = bod[sb] == bod[sa] ? u : 5; /* the lower triangle only */
        for (int v = 0; v <= vmax; ++v) {
          double s = 0.0;
          for (int k = 0; k < nk; ++k)
            for (int l = 0; l < n; ++l) s += hj[k * n + l] * jl[l][v];
          if (s != 0.0) li[6 * bod[sb] + v] += s;
        }
      }
    }
  }
}

/* Adds D_q J_qᵀ J_q of the active rows q of rows adr..adr+n−1 (same two bodies, H diagonal: the
 * pyramidal, frictionless and equality rows), row after row into each entry, as one
 * add_rows_hessian call per active row would: entry (u, v) gets (D_q·J_q[u])·J_q[v]. Where that
 * call skips a zero product this adds it: no entry is ever −0 (L starts at +0, and a sum is −0
 * only of two −0), so adding ±0 leaves it as it is. */
static void add_rows_diagonal(tb_mujoco_data* d, int32_t adr, int n) {
  const tb_mj_row* r0 = &d->rows[adr];
  int32_t bod[2] = {r0->a, r0->b}, act[TB_MJ_MAX_ROWS], na = 0;
  for (int q = 0; q < n; ++q)
    if (d->rstate[adr + q]) act[na++] = adr + q;
  if (bod[0] == bod[1]) { /* one body on both sides: its four blocks meet in one entry, keep the row order */
    for (int q = 0; q < na; ++q) add_rows_hessian(d, act[q], 1, &d->rows[act[q]].D);
    return;
  }
  for (int sa = 0; sa < 2; ++sa) {
    if (bod[sa] < 0) continue;
    for (int u = 0; u < 6; ++u) {
      double hj[TB_MJ_MAX_ROWS]; /* D_q·J_q[u] of the active rows with J_q[u] ≠ 0 */
      const tb_mj_row* rq[TB_MJ_MAX_ROWS];
      int nk = 0;
      for (int q = 0; q < na; ++q) {
        const tb_mj_row* r = &d->rows[act[q]];
        double ju = sa == 0 ? r->ja[u] : r->jb[u];
        if (ju == 0.0) continue;
        rq[nk] = r;
        hj[nk++] = r->D * ju;
      }
      if (nk == 0) continue;
      int32_t gi = 6 * bod[sa] + u;
      double* li = d->L + d->off[gi] - d->first[gi]; /* li[gj]: entry (gi, gj) */
      for (int sb = 0; sb < 2; ++sb) {
        if (bod[sb] < 0 || bod[sa] < bod[sb]) continue;
        int vmax = bod[sb] == bod[sa] ? u : 5; /* the lower triangle only */
        double* e = li + 6 * bod[sb];
        for (int v = 0; v <= vmax; ++v) {
          double acc = e[v];
          for (int q = 0; q < nk; ++q) acc += hj[q] * (sb == 0 ? rq[q]->ja[v] : rq[q]->jb[v]);
          e[v] = acc;
        }
      }
    }
  }
}

/* Σ a[k]·b[k] over k < n in four running sums (independent chains: the skyline's rows are long),
 * added in a fixed order. */
static double dot4(const double* a, const double* b, int32_t n) {
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  int32_t k = 0;
  for (; k + 4 <= n; k += 4) {
    s0 += a[k] * b[k];
    s1 += a[k + 1] * b[k + 1];
    s2 += a[k + 2] * b[k + 2];
    s3 += a[k + 3] * b[k + 3];
  }
  for (; k < n; ++k) s0 += a[k] * b[k];
  return (s0 + s1) + (s2 + s3);
}

/* dot4 of the rows li[0..5] with lj over columns k0..j−1 (li[u][c], lj[c]: column c), each sum
 * exactly as dot4 adds it: lanes (s0, s1) and (s2, s3) of two float64 pairs, the tail into s0;
 * lj is loaded once for the six rows. */
static void dot4_rows6(double* const li[6], const double* lj, int32_t k0, int32_t j, double out[6]) {
  const double *r0 = li[0], *r1 = li[1], *r2 = li[2], *r3 = li[3], *r4 = li[4], *r5 = li[5];
  tb_d2 a0 = tb_d2_zero(), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0; /* (s0, s1) of each row */
  tb_d2 b0 = a0, b1 = a0, b2 = a0, b3 = a0, b4 = a0, b5 = a0;           /* (s2, s3) */
  int32_t c = k0;
  for (; c + 4 <= j; c += 4) { /* twelve independent chains in registers */
    tb_d2 x = tb_d2_load(lj + c), y = tb_d2_load(lj + c + 2);
    a0 = tb_d2_add(a0, tb_d2_mul(tb_d2_load(r0 + c), x)), b0 = tb_d2_add(b0, tb_d2_mul(tb_d2_load(r0 + c + 2), y));
    a1 = tb_d2_add(a1, tb_d2_mul(tb_d2_load(r1 + c), x)), b1 = tb_d2_add(b1, tb_d2_mul(tb_d2_load(r1 + c + 2), y));
    a2 = tb_d2_add(a2, tb_d2_mul(tb_d2_load(r2 + c), x)), b2 = tb_d2_add(b2, tb_d2_mul(tb_d2_load(r2 + c + 2), y));
    a3 = tb_d2_add(a3, tb_d2_mul(tb_d2_load(r3 + c), x)), b3 = tb_d2_add(b3, tb_d2_mul(tb_d2_load(r3 + c + 2), y));
    a4 = tb_d2_add(a4, tb_d2_mul(tb_d2_load(r4 + c), x)), b4 = tb_d2_add(b4, tb_d2_mul(tb_d2_load(r4 + c + 2), y));
    a5 = tb_d2_add(a5, tb_d2_mul(tb_d2_load(r5 + c), x)), b5 = tb_d2_add(b5, tb_d2_mul(tb_d2_load(r5 + c + 2), y));
  }
  const tb_d2 as[6] = {a0, a1, a2, a3, a4, a5}, bs[6] = {b0, b1, b2, b3, b4, b5};
  for (int u = 0; u < 6; ++u) {
    double s0 = tb_d2_lane0(as[u]);
    for (int32_t t = c; t < j; ++t) s0 += li[u][t] * lj[t];
    out[u] = (s0 + tb_d2_lane1(as[u])) + (tb_d2_lane0(bs[u]) + tb_d2_lane1(bs[u]));
  }
}

/* H = M + JᵀDJ (active rows) + cone Hessians, factorised in place (LLᵀ). */
void tb_mj_factor_hessian(tb_mujoco_data* d) {
  int32_t n = 6 * d->body_count;
  d->hessian_stale = 0;
  if (d->row_count > 0) memcpy(d->hstate, d->rstate, (size_t)d->row_count * sizeof(int32_t));
  if (n > 0) memset(d->L, 0, (size_t)d->off[n] * sizeof(double));
  for (int32_t k = 0; k < d->body_count; ++k) {
    const tb_mj_body* b = &d->bodies[k];
    for (int i = 0; i < 3; ++i) sky_add(d, 6 * k + i, 6 * k + i, b->mass);
    for (int u = 0; u < 3; ++u)
      for (int v = 0; v <= u; ++v) sky_add(d, 6 * k + 3 + u, 6 * k + 3 + v, b->I[3 * u + v]);
  }
  for (int32_t ci = 0; ci < d->con_count; ++ci) {
    const tb_mj_con* c = &d->cons[ci];
    int nr = c->rows.count;
    if (c->rows.type == TB_MJ_ELLIPTIC) {
      if (c->state == 0) continue;
      double H[36] = {0};
      if (c->state == 2) memcpy(H, c->H, sizeof H);
      else for (int q = 0; q < nr; ++q) H[q * nr + q] = d->rows[c->adr + q].D;
      add_rows_hessian(d, c->adr, nr, H);
    } else {
      add_rows_diagonal(d, c->adr, nr);
    }
  }
  for (int32_t k = 0; k < d->body_count; ++k) {
    int32_t i0 = 6 * k, f = d->first[i0]; /* a body's six rows share their first column */
    double* li[6];
    for (int u = 0; u < 6; ++u) li[u] = d->L + d->off[i0 + u] - f; /* li[u][j]: entry (i0 + u, j) */
    for (int32_t j = f; j < i0; ++j) { /* the columns of earlier bodies, the six rows at once */
      const double* lj = d->L + d->off[j] - d->first[j];
      int32_t k0 = f > d->first[j] ? f : d->first[j];
      double s[6];
      dot4_rows6(li, lj, k0, j, s);
      for (int u = 0; u < 6; ++u) li[u][j] = (li[u][j] - s[u]) / lj[j];
    }
    for (int u = 0; u < 6; ++u) /* the body's own block, row after row */
      for (int32_t j = i0; j <= i0 + u; ++j) {
        const double* lj = d->L + d->off[j] - f;
        double s = li[u][j] - dot4(li[u] + f, lj + f, j - f);
        if (j < i0 + u) li[u][j] = s / lj[j];
        else li[u][j] = sqrt(s > TB_MJ_MINVAL ? s : TB_MJ_MINVAL);
      }
  }
}

/* L Lᵀ += σ v vᵀ for row r's v = √D·Jᵀ (σ = +1 the row became active, −1 it left): the rank-one
 * update of Gill, Golub, Murray and Saunders (MuJoCo mju_cholUpdate) row after row over the
 * skyline from the first dof of v on. Column j's rotation, c = r/l and s = x_j/l for its new
 * diagonal r = √(l² + σx_j²), is kept as (1/c, s/c) for the rows below:
 * L_ij ← L_ij/c + σ(s/c)·x_i and x_i ← x_i/c − (s/c)·L_ij (old L_ij; c² − σs² = 1).
 * Returns 0 when a downdate would leave a diagonal below √MINVAL or below 10⁻⁴ of the old one (a
 * cancellation costing 13 of its 53 bits); L is then half updated and the caller factors H again. */
int tb_mj_rank_one(tb_mujoco_data* d, const tb_mj_row* r, double sigma) {
  int32_t lo = r->a < 0 ? r->b : r->b < 0 ? r->a : r->a < r->b ? r->a : r->b;
  if (lo < 0) return 1;
  double sq = sqrt(r->D), *ic = d->upd_c, *es = d->upd_s;
  for (int32_t k = lo; k < d->body_count; ++k) {
    int32_t i0 = 6 * k, f = d->first[i0], k0 = f > 6 * lo ? f : 6 * lo;
    if (k0 >= i0 && k != r->a && k != r->b) { /* no column of the update reaches these rows, v is zero */
      for (int u = 0; u < 6; ++u) ic[i0 + u] = 1.0, es[i0 + u] = 0.0;
      continue;
    }
    double x[6] = {0, 0, 0, 0, 0, 0}, *li[6];
    for (int u = 0; u < 6; ++u) {
      if (k == r->a) x[u] = sq * r->ja[u];
      if (k == r->b) x[u] = sq * r->jb[u];
      li[u] = d->L + d->off[i0 + u] - f;
    }
    for (int32_t j = k0; j < i0; ++j) { /* the columns of earlier bodies: six independent chains */
      double b = ic[j], e = es[j], a = sigma * e;
      double x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4], x5 = x[5];
      double l0 = li[0][j], l1 = li[1][j], l2 = li[2][j], l3 = li[3][j], l4 = li[4][j], l5 = li[5][j];
      li[0][j] = b * l0 + a * x0, x[0] = b * x0 - e * l0;
      li[1][j] = b * l1 + a * x1, x[1] = b * x1 - e * l1;
      li[2][j] = b * l2 + a * x2, x[2] = b * x2 - e * l2;
      li[3][j] = b * l3 + a * x3, x[3] = b * x3 - e * l3;
      li[4][j] = b * l4 + a * x4, x[4] = b * x4 - e * l4;
      li[5][j] = b * l5 + a * x5, x[5] = b * x5 - e * l5;
    }
    for (int u = 0; u < 6; ++u) {
      for (int32_t j = i0; j < i0 + u; ++j) {
        double l = li[u][j];
        li[u][j] = ic[j] * l + sigma * es[j] * x[u];
        x[u] = ic[j] * x[u] - es[j] * l;
      }
      double l = li[u][i0 + u], r2 = l * l + sigma * x[u] * x[u];
      if (!(r2 > TB_MJ_MINVAL && r2 > 1e-8 * l * l)) return 0;
      double rr = sqrt(r2);
      ic[i0 + u] = l / rr, es[i0 + u] = x[u] / rr; /* 1/c and s/c, c = rr/l, s = x/l */
      li[u][i0 + u] = rr;
    }
  }
  return 1;
}

/* Brings L to this iterate's H: nothing when no row changed state, rank-one updates when few did
 * (cheaper than the factor: an update costs about the profile below its row, the factor the
 * profile times the row length), else the whole factor. Elliptic cones in their middle zone move
 * with jar: those factor again. */
static void refresh_hessian(tb_mujoco_data* d, int elliptic) {
  if (!d->hessian_stale) return;
  int32_t n = 6 * d->body_count;
  if (elliptic || n == 0) {
    tb_mj_factor_hessian(d);
    return;
  }
  const double budget = d->factor_cost; /* the factor's multiply-adds; the updates' in the same unit */
  double cost = 0.0;
  for (int32_t i = 0; i < d->row_count && cost <= budget; ++i) {
    if (d->rstate[i] == d->hstate[i]) continue;
    const tb_mj_row* r = &d->rows[i];
    int32_t lo = r->a < 0 ? r->b : r->b < 0 ? r->a : r->a < r->b ? r->a : r->b;
    if (lo >= 0) cost += UPDATE_COST * (double)(d->off[n] - d->off[6 * lo]);
  }
  if (cost > budget) {
    tb_mj_factor_hessian(d);
    return;
  }
  for (int32_t i = 0; i < d->row_count; ++i) {
    if (d->rstate[i] == d->hstate[i]) continue;
    if (!tb_mj_rank_one(d, &d->rows[i], d->rstate[i] ? 1.0 : -1.0)) {
      tb_mj_factor_hessian(d);
      return;
    }
    d->hstate[i] = d->rstate[i];
  }
  d->hessian_stale = 0;
}

static void solve_hessian(const tb_mujoco_data* d, const double* b, double* x) {
  int32_t n = 6 * d->body_count;
  for (int32_t i = 0; i < n; ++i) {
    const double* li = d->L + d->off[i];
    double s = b[i] - dot4(li, x + d->first[i], i - d->first[i]);
    x[i] = s / li[i - d->first[i]];
  }
  for (int32_t i = n - 1; i >= 0; --i) {
    const double* li = d->L + d->off[i];
    x[i] /= li[i - d->first[i]];
    for (int32_t k = d->first[i]; k < i; ++k) x[k] -= li[k - d->first[i]] * x[i];
  }
}

/* Cost along the search direction at step α: value, first and second derivative. */
typedef struct ls_point { double alpha, cost, d1, d2; } ls_point;

static ls_point ls_eval(tb_mujoco_data* d, double alpha, const double gq[3]) {
  ls_point p = {alpha, gq[0] + alpha * gq[1] + 0.5 * alpha * alpha * gq[2], gq[1] + alpha * gq[2], gq[2]};
  for (int32_t ci = 0; ci < d->con_count; ++ci) {
    const tb_mj_con* c = &d->cons[ci];
    int32_t i = c->adr, n = c->rows.count;
    if (c->rows.type != TB_MJ_ELLIPTIC) {
      int equality = c->rows.type == TB_MJ_EQUALITY;
      for (int q = 0; q < n; ++q) {
        double x = d->jar[i + q] + alpha * d->jv[i + q], D = d->rows[i + q].D;
        if (x >= 0.0 && !equality) continue;
        p.cost += 0.5 * D * x * x;
        p.d1 += D * x * d->jv[i + q];
        p.d2 += D * d->jv[i + q] * d->jv[i + q];
      }
      continue;
    }
    double mu = c->rows.mu, u[6], du[6], t2 = 0.0, udu = 0.0, du2 = 0.0;
    u[0] = mu * (d->jar[i] + alpha * d->jv[i]);
    du[0] = mu * d->jv[i];
    for (int q = 1; q < n; ++q) {
      u[q] = c->friction[q - 1] * (d->jar[i + q] + alpha * d->jv[i + q]);
      du[q] = c->friction[q - 1] * d->jv[i + q];
      t2 += u[q] * u[q], udu += u[q] * du[q], du2 += du[q] * du[q];
    }
    double t = sqrt(t2), nn = u[0];
    if (nn >= mu * t || (t <= 0.0 && nn >= 0.0)) continue;
    if (mu * nn + t <= 0.0 || (t <= 0.0 && nn < 0.0)) {
      for (int q = 0; q < n; ++q) {
        double x = d->jar[i + q] + alpha * d->jv[i + q], D = d->rows[i + q].D;
        p.cost += 0.5 * D * x * x;
        p.d1 += D * x * d->jv[i + q];
        p.d2 += D * d->jv[i + q] * d->jv[i + q];
      }
      continue;
    }
    double dm = d->rows[i].D / (mu * mu * (1.0 + mu * mu));
    double tp = udu / t, tpp = (du2 - tp * tp) / t;
    double phi = nn - mu * t, phip = du[0] - mu * tp, phipp = -mu * tpp;
    p.cost += 0.5 * dm * phi * phi;
    p.d1 += dm * phi * phip;
    p.d2 += dm * (phip * phip + phi * phipp);
  }
  return p;
}

/* Exact line search by a 1-D Newton method kept inside a bracket. Returns α (0 = no descent) and
 * the cost decrease. */
static double line_search(tb_mujoco_data* d, const tb_mujoco_params* p, double* improvement) {
  int32_t n = 6 * d->body_count;
  mul_m(d, d->search, d->mv);
  for (int32_t i = 0; i < d->row_count; ++i) d->jv[i] = row_dot(&d->rows[i], d->search);
  double gq[3] = {gauss_cost(d), 0.0, 0.0};
  for (int32_t i = 0; i < n; ++i) {
    gq[1] += d->search[i] * (d->ma[i] - d->ma0[i]);
    gq[2] += d->search[i] * d->mv[i];
  }
  double snorm = sqrt(dot(d->search, d->search, n));
  *improvement = 0.0;
  if (!(snorm > 0.0)) return 0.0;
  double gtol = (double)p->tolerance * p->ls_tolerance * snorm / d->scale;
  ls_point p0 = ls_eval(d, 0.0, gq), best = p0, lo = p0, hi = {INFINITY, 0, 0, 0};
  if (p0.d1 >= 0.0) return 0.0;
  double alpha = p0.d2 > 0.0 ? -p0.d1 / p0.d2 : 1.0;
  for (int it = 0; it < p->ls_iterations; ++it) {
    ls_point q = ls_eval(d, alpha, gq);
    if (q.cost < best.cost) best = q;
    if (fabs(q.d1) < gtol) break;
    if (q.d1 < 0.0) lo = q; else hi = q;
    double next = q.d2 > 0.0 ? q.alpha - q.d1 / q.d2 : NAN;
    if (!(next > lo.alpha && next < hi.alpha)) next = isfinite(hi.alpha) ? 0.5 * (lo.alpha + hi.alpha) : 2.0 * q.alpha;
    alpha = next;
  }
  if (!(best.cost < p0.cost)) return 0.0;
  *improvement = p0.cost - best.cost;
  return best.alpha;
}

tb_mj_result tb_mj_solve_primal(tb_mujoco_data* d, const tb_mujoco_params* p, int newton) {
  tb_mj_result res = {0, 0, NAN, NAN};
  int32_t n = 6 * d->body_count;
  int elliptic = p->cone == TB_MUJOCO_ELLIPTIC;
  mul_m(d, d->acc, d->ma);
  for (int32_t i = 0; i < d->row_count; ++i) d->jar[i] = row_dot(&d->rows[i], d->acc) - d->rows[i].aref;
  constraint_update(d, d->jar, d->force, newton && elliptic);
  update_grad(d);
  res.gradient = d->scale * sqrt(dot(d->grad, d->grad, n));
  if (res.gradient < p->tolerance) {
    res.converged = 1;
    return res;
  }
  if (newton) {
    tb_mj_skyline_profile(d);
    tb_mj_factor_hessian(d);
    solve_hessian(d, d->grad, d->mgrad);
  } else {
    solve_m(d, d->grad, d->mgrad);
  }
  for (int32_t i = 0; i < n; ++i) d->search[i] = -d->mgrad[i];
  while (res.iterations < p->iterations) {
    double improvement;
    double alpha = line_search(d, p, &improvement);
    if (alpha == 0.0) { /* no descent left along the search direction */
      res.converged = 1;
      res.improvement = 0.0;
      break;
    }
    for (int32_t i = 0; i < n; ++i) {
      d->acc[i] += alpha * d->search[i];
      d->ma[i] += alpha * d->mv[i];
    }
    for (int32_t i = 0; i < d->row_count; ++i) d->jar[i] += alpha * d->jv[i];
    if (!newton) {
      if (n > 0) memcpy(d->gradold, d->grad, (size_t)n * sizeof(double));
      if (n > 0) memcpy(d->mgradold, d->mgrad, (size_t)n * sizeof(double));
    }
    constraint_update(d, d->jar, d->force, newton && elliptic);
    update_grad(d);
    ++res.iterations;
    res.improvement = d->scale * improvement;
    res.gradient = d->scale * sqrt(dot(d->grad, d->grad, n));
    if (res.improvement < p->tolerance || res.gradient < p->tolerance) {
      res.converged = 1; /* mgrad is not needed any more */
      break;
    }
    if (res.iterations == p->iterations) break; /* nor after the last iteration */
    if (newton) { /* H changes only with the rows' states (MuJoCo's HessianIncremental) */
      refresh_hessian(d, elliptic);
      solve_hessian(d, d->grad, d->mgrad);
    } else {
      solve_m(d, d->grad, d->mgrad);
    }
    if (newton) {
      for (int32_t i = 0; i < n; ++i) d->search[i] = -d->mgrad[i];
    } else { /* Polak-Ribiere with restart */
      double num = 0.0, den = dot(d->gradold, d->mgradold, n);
      for (int32_t i = 0; i < n; ++i) num += d->grad[i] * (d->mgrad[i] - d->mgradold[i]);
      double beta = den > TB_MJ_MINVAL ? num / den : 0.0;
      if (beta < 0.0) beta = 0.0;
      for (int32_t i = 0; i < n; ++i) d->search[i] = -d->mgrad[i] + beta * d->search[i];
    }
  }
  return res;
}

/* ---- dual solver (PGS) ---- */
