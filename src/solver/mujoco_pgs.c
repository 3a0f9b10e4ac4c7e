/* MuJoCo soft constraints: the dual solver (PGS, MuJoCo mj_solPGS): rows in order, scalar
 * projections for frictionless, pyramidal, limit and equality rows, elliptic contacts as a block
 * (a ray update of the whole force, then the friction block with the normal fixed, a QCQP). */
#include <math.h>
#include <string.h>

#include "mujoco_solver.h"

/* x solves the n×n SPD system A x = b (n <= 6), Cholesky. Returns 0 when A is not positive. */
static int small_solve(int n, const double* A, const double* b, double* x) {
  double L[36];
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j) {
      double s = A[i * n + j];
      for (int k = 0; k < j; ++k) s -= L[i * n + k] * L[j * n + k];
      if (i == j) {
        if (!(s > TB_MJ_MINVAL)) return 0;
        L[i * n + i] = sqrt(s);
      } else {
        L[i * n + j] = s / L[j * n + j];
      }
    }
  for (int i = 0; i < n; ++i) {
    double s = b[i];
    for (int k = 0; k < i; ++k) s -= L[i * n + k] * x[k];
    x[i] = s / L[i * n + i];
  }
  for (int i = n - 1; i >= 0; --i) {
    double s = x[i];
    for (int k = i + 1; k < n; ++k) s -= L[k * n + i] * x[k];
    x[i] = s / L[i * n + i];
  }
  return 1;
}

/* min ½xᵀAx + bᵀx subject to Σ(xⱼ/μⱼ)² <= fn² (n <= 5): in y = x/(μ·fn) the ball ‖y‖ <= 1; on
 * the boundary (A' + λ1)y = −b' with λ >= 0 found by Newton's method on ‖y(λ)‖² = 1. */
static void qcqp(int n, const double* A, const double* b, const double* mu, double fn, double* x) {
  double As[25], bs[5], y[5], z[5], s[5];
  for (int i = 0; i < n; ++i) {
    s[i] = mu[i] * fn;
    bs[i] = -b[i] * s[i];
    for (int j = 0; j < n; ++j) As[i * n + j] = A[i * n + j] * s[i] * s[j];
  }
  double lambda = 0.0, m[25];
  for (int it = 0; it < 30; ++it) {
    memcpy(m, As, sizeof(double) * (size_t)(n * n));
    for (int i = 0; i < n; ++i) m[i * n + i] += lambda;
    if (!small_solve(n, m, bs, y)) { memset(y, 0, sizeof y); break; }
    double yy = dot(y, y, n);
    if (it == 0 && yy <= 1.0) break; /* interior minimum */
    if (fabs(yy - 1.0) < 1e-10) break;
    if (!small_solve(n, m, y, z)) break;
    double dphi = -2.0 * dot(y, z, n); /* d‖y‖²/dλ */
    if (!(dphi < 0.0)) break;
    lambda -= (yy - 1.0) / dphi;
    if (lambda < 0.0) lambda = 0.0;
  }
  double yy = dot(y, y, n), sc = yy > 1.0 ? 1.0 / sqrt(yy) : 1.0;
  for (int i = 0; i < n; ++i) x[i] = y[i] * sc * s[i];
}

/* AR block of a contact's rows (J M⁻¹ Jᵀ + diag R). */
static void ar_block(const tb_mujoco_data* d, int32_t adr, int n, double* A) {
  for (int k = 0; k < n; ++k)
    for (int l = 0; l < n; ++l) {
      const tb_mj_row *rk = &d->rows[adr + k], *rl = &d->rows[adr + l];
      double s = 0.0;
      if (rk->a >= 0) s += dot(rk->ja, rl->ma, 6);
      if (rk->b >= 0) s += dot(rk->jb, rl->mb, 6);
      A[k * n + l] = s + (k == l ? rk->R : 0.0);
    }
}

tb_mj_result tb_mj_solve_pgs(tb_mujoco_data* d, const tb_mujoco_params* p) {
  tb_mj_result res = {0, 0, NAN, NAN};
  /* acc = a₀ + M⁻¹Jᵀf for the starting forces */
  int32_t n = 6 * d->body_count;
  if (n > 0) memcpy(d->acc, d->a0, (size_t)n * sizeof(double));
  for (int32_t i = 0; i < d->row_count; ++i)
    if (d->force[i] != 0.0) row_add_minv(&d->rows[i], d->force[i], d->acc);
  while (res.iterations < p->iterations) {
    double improvement = 0.0;
    for (int32_t ci = 0; ci < d->con_count; ++ci) {
      const tb_mj_con* c = &d->cons[ci];
      int32_t adr = c->adr, nr = c->rows.count;
      double* f = d->force + adr;
      if (c->rows.type != TB_MJ_ELLIPTIC) {
        for (int q = 0; q < nr; ++q) {
          const tb_mj_row* r = &d->rows[adr + q];
          double rs = row_dot(r, d->acc) - r->aref + r->R * f[q];
          double fnew = f[q] - rs / r->AR;
          if (fnew < 0.0 && c->rows.type != TB_MJ_EQUALITY) fnew = 0.0; /* equality rows: unbounded */
          double delta = fnew - f[q], change = 0.5 * delta * delta * r->AR + delta * rs;
          if (change > 1e-10 || delta == 0.0) continue;
          f[q] = fnew;
          row_add_minv(r, delta, d->acc);
          improvement -= change;
        }
        continue;
      }
      double A[36] = {0}, rs[6] = {0}, old[6] = {0};
      ar_block(d, adr, nr, A);
      for (int q = 0; q < nr; ++q) {
        const tb_mj_row* r = &d->rows[adr + q];
        rs[q] = row_dot(r, d->acc) - r->aref + r->R * f[q];
        old[q] = f[q];
      }
      /* normal (or ray) update, then the friction block with the normal fixed */
      if (f[0] < TB_MJ_MINVAL) {
        f[0] = fmax(0.0, f[0] - rs[0] / A[0]);
        for (int q = 1; q < nr; ++q) f[q] = 0.0;
      } else {
        double av[6], den = 0.0, num = 0.0;
        for (int k = 0; k < nr; ++k) av[k] = dot(A + k * nr, old, nr);
        den = dot(old, av, nr);
        num = -dot(old, rs, nr);
        if (den >= TB_MJ_MINVAL) {
          double x = num / den;
          if (f[0] + x * old[0] < 0.0) x = -1.0;
          for (int k = 0; k < nr; ++k) f[k] += x * old[k];
        }
      }
      if (f[0] < TB_MJ_MINVAL) {
        for (int q = 1; q < nr; ++q) f[q] = 0.0;
      } else {
        int m = nr - 1;
        double Ac[25], bc[5], x[5];
        for (int j = 0; j < m; ++j) {
          bc[j] = rs[1 + j] + A[(1 + j) * nr] * (f[0] - old[0]);
          for (int k = 0; k < m; ++k) {
            Ac[j * m + k] = A[(1 + j) * nr + 1 + k];
            bc[j] -= Ac[j * m + k] * old[1 + k];
          }
        }
        qcqp(m, Ac, bc, c->friction, f[0], x);
        for (int j = 0; j < m; ++j) f[1 + j] = x[j];
      }
      double delta[6], ad[6];
      for (int q = 0; q < nr; ++q) delta[q] = f[q] - old[q];
      for (int k = 0; k < nr; ++k) ad[k] = dot(A + k * nr, delta, nr);
      double change = 0.5 * dot(delta, ad, nr) + dot(delta, rs, nr);
      if (change > 1e-10) {
        memcpy(f, old, (size_t)nr * sizeof(double));
        continue;
      }
      for (int q = 0; q < nr; ++q)
        if (delta[q] != 0.0) row_add_minv(&d->rows[adr + q], delta[q], d->acc);
      improvement -= change;
    }
    ++res.iterations;
    res.improvement = d->scale * improvement;
    if (res.improvement < p->tolerance) {
      res.converged = 1;
      break;
    }
  }
  return res;
}

/* ---- the step ---- */
