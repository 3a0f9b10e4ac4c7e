/* MuJoCo soft-constraint rows of one contact: the impedance curve, the reference coefficients,
 * the regulariser with impratio, the cone rows and the decoding of their forces (seed mujoco §4,
 * §6; MuJoCo getsolparam / getimpedance / mj_makeImpedance / mj_diagApprox). */
#include <math.h>
#include <string.h>

#include "mujoco.h"

static double clamp(double v, double lo, double hi) { return v < lo ? lo : (v > hi ? hi : v); }

void tb_mj_solimp_clamp(const float in[5], double out[5]) {
  out[0] = clamp(in[0], TB_MJ_MINIMP, TB_MJ_MAXIMP);
  out[1] = clamp(in[1], TB_MJ_MINIMP, TB_MJ_MAXIMP);
  out[2] = in[2] > 0.0f ? in[2] : 0.0;
  out[3] = clamp(in[3], TB_MJ_MINIMP, TB_MJ_MAXIMP);
  out[4] = in[4] > 1.0f ? in[4] : 1.0;
}

/* a^b with the common powers exact */
static double power(double a, double b) { return b == 1.0 ? a : (b == 2.0 ? a * a : pow(a, b)); }

double tb_mj_impedance(const double s[5], double r, double* dimp) {
  *dimp = 0.0;
  if (s[0] == s[1] || s[2] <= TB_MJ_MINVAL) return 0.5 * (s[0] + s[1]);
  double x = r / s[2], sgn = 1.0;
  if (x < 0.0) x = -x, sgn = -1.0;
  if (x >= 1.0 || x <= 0.0) return x >= 1.0 ? s[1] : s[0];
  double y, yp;
  if (s[4] == 1.0) {
    y = x, yp = 1.0;
  } else if (x <= s[3]) {
    double a = 1.0 / power(s[3], s[4] - 1.0);
    y = a * power(x, s[4]);
    yp = s[4] * a * power(x, s[4] - 1.0);
  } else {
    double b = 1.0 / power(1.0 - s[3], s[4] - 1.0);
    y = 1.0 - b * power(1.0 - x, s[4]);
    yp = s[4] * b * power(1.0 - x, s[4] - 1.0);
  }
  *dimp = yp * sgn * (s[1] - s[0]) / s[2];
  return s[0] + y * (s[1] - s[0]);
}

void tb_mj_reference(const float solref[2], double dmax, double h, int refsafe, double* K, double* B) {
  double t = solref[0], z = solref[1];
  /* mixed formats (one positive, one not) are MuJoCo's default (0.02, 1) */
  if ((t > 0.0) != (z > 0.0)) t = 0.02, z = 1.0;
  if (refsafe && t > 0.0 && t < 2.0 * h) t = 2.0 * h; /* integrator safety: timeconst >= 2h */
  if (t > 0.0) {
    *K = 1.0 / fmax(TB_MJ_MINVAL, dmax * dmax * t * t * z * z);
    *B = 2.0 / fmax(TB_MJ_MINVAL, dmax * t);
  } else {
    *K = -t / fmax(TB_MJ_MINVAL, dmax * dmax);
    *B = -z / fmax(TB_MJ_MINVAL, dmax);
  }
}

int tb_mj_contact_rows(const tb_mj_contact_in* in, tb_mj_rows* out) {
  int dim = in->condim;
  if (dim != 1 && dim != 3 && dim != 4 && dim != 6) return -1;
  memset(out, 0, sizeof *out);
  out->dim = dim;
  out->type = dim == 1 ? TB_MJ_FRICTIONLESS : (in->cone == TB_MUJOCO_ELLIPTIC ? TB_MJ_ELLIPTIC : TB_MJ_PYRAMIDAL);
  out->count = out->type == TB_MJ_PYRAMIDAL ? 2 * (dim - 1) : (out->type == TB_MJ_ELLIPTIC ? dim : 1);
  const double* mu = in->friction;
  /* Jacobian combinations and Â (diagApprox: translational weight for the first three
   * directions, rotational for the others; an edge adds μᵢ² times its friction direction's) */
  if (out->type == TB_MJ_PYRAMIDAL) {
    for (int i = 1; i < dim; ++i) {
      double wi = i < 3 ? in->tran : in->rot;
      for (int s = 0; s < 2; ++s) {
        int k = 2 * (i - 1) + s;
        out->coef[k][0] = 1.0;
        out->coef[k][i] = s == 0 ? mu[i - 1] : -mu[i - 1];
        out->diag[k] = in->tran + mu[i - 1] * mu[i - 1] * wi;
      }
    }
  } else {
    for (int k = 0; k < out->count; ++k) {
      out->coef[k][k] = 1.0;
      out->diag[k] = k < 3 ? in->tran : in->rot;
    }
  }
  double sol[5];
  tb_mj_solimp_clamp(in->solimp, sol);
  out->imp = tb_mj_impedance(sol, in->r, &out->dimp);
  double Kn, Bn, Kf, Bf;
  tb_mj_reference(in->solref, sol[1], in->h, in->refsafe, &Kn, &Bn);
  int own_friction = in->solreffriction[0] != 0.0f || in->solreffriction[1] != 0.0f;
  if (own_friction && (in->solreffriction[0] > 0.0f) != (in->solreffriction[1] > 0.0f)) own_friction = 0;
  tb_mj_reference(own_friction ? in->solreffriction : in->solref, sol[1], in->h, in->refsafe, &Kf, &Bf);
  for (int k = 0; k < out->count; ++k) {
    out->R[k] = fmax(TB_MJ_MINVAL, (1.0 - out->imp) * out->diag[k] / out->imp);
    int friction_row = out->type == TB_MJ_ELLIPTIC && k > 0;
    out->K[k] = friction_row ? 0.0 : Kn; /* friction rows have no position reference */
    out->B[k] = friction_row ? Bf : Bn;
  }
  /* impratio: R₁ = R₀/impratio; elliptic Rⱼ₊₁ = R₁·μ₀²/μⱼ²; pyramidal: one R for every edge,
   * 2·μ²·R₀ with the regularised μ = μ₀·sqrt(R₁/R₀) (matches the elliptic friction impedance) */
  out->mu = mu[0];
  if (out->type != TB_MJ_FRICTIONLESS) {
    double r0 = out->R[0], r1 = r0 / fmax(TB_MJ_MINVAL, in->impratio);
    out->mu = mu[0] * sqrt(r1 / r0);
    if (out->type == TB_MJ_ELLIPTIC) {
      out->R[1] = r1;
      for (int j = 1; j < dim - 1; ++j) out->R[j + 1] = r1 * mu[0] * mu[0] / (mu[j] * mu[j]);
    } else {
      double rpy = 2.0 * out->mu * out->mu * r0;
      for (int k = 0; k < out->count; ++k) out->R[k] = rpy;
    }
  }
  /* reference position term, and adhesion: R·δ on the normal (pyramid: δ/(2(dim − 1)) per edge)
   * shifts the force cone by δ, so the net normal force fₙ − δ may pull */
  for (int k = 0; k < out->count; ++k) {
    out->bias[k] = -out->K[k] * out->imp * in->r;
    if (in->adhesion > 0.0) {
      if (out->type == TB_MJ_PYRAMIDAL) out->bias[k] += out->R[k] * in->adhesion / (2.0 * (dim - 1));
      else if (k == 0) out->bias[k] += out->R[k] * in->adhesion;
    }
  }
  return 0;
}

void tb_mj_decode_force(const tb_mj_rows* rows, const double friction[5], const double* lambda, double out[6]) {
  memset(out, 0, 6 * sizeof(double));
  if (rows->type != TB_MJ_PYRAMIDAL) {
    for (int k = 0; k < rows->count; ++k) out[k] = lambda[k];
    return;
  }
  for (int k = 0; k < rows->count; ++k) out[0] += lambda[k];
  for (int i = 1; i < rows->dim; ++i) out[i] = friction[i - 1] * (lambda[2 * (i - 1)] - lambda[2 * (i - 1) + 1]);
}
