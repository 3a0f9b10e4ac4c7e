/* MuJoCo soft-constraint contact solver (the `mujoco` preset; seed mujoco §4, §6, newton-e3
 * "MuJoCo adapter") (internal).
 *
 * Rows (mujoco_rows.c): each contact with a row becomes dim rows (elliptic cone, condim 1/3/4/6:
 * normal, two tangents, torsion, two rolling) or 2(dim − 1) pyramid edges eₙ ± μᵢeᵢ (condim 1:
 * one frictionless row). Every row carries the soft-constraint reference and regulariser
 *   a_ref = −B·(J v) − K·I(r)·r (+ R·adhesion on the normal),  R = (1 − I)/I · Â,  D = 1/R,
 * with r = dist − includemargin (the contact store's `distance`), I the solimp impedance curve,
 * (K, B) from solref and Â MuJoCo's diagonal approximation of J M⁻¹ Jᵀ from the body inverse
 * weights (1/m, trace(I⁻¹)/3).
 * Solvers (solver_mujoco.c): the accelerations a of the dynamic bodies minimise
 *   ½ (a − a₀)ᵀ M (a − a₀) + s(J a − a_ref)
 * (a₀ unconstrained: gravity and the gyroscopic term), s the soft cost of the rows (pyramidal and
 * frictionless: ½ D (Ja − a_ref)² while negative; elliptic: the three-zone cone cost); PGS solves the
 * dual on the forces, CG and Newton the primal on a. Euler then integrates v += h·a, x += h·v. */
#ifndef TB_MUJOCO_H
#define TB_MUJOCO_H

#include "../world/world.h"

#define TB_MJ_MAX_ROWS 10 /* pyramidal condim 6 */
#define TB_MJ_MINVAL 1e-15
#define TB_MJ_MINIMP 0.0001 /* solimp dmin, dmax, midpoint are clamped to [MINIMP, MAXIMP] */
#define TB_MJ_MAXIMP 0.9999

/* Kind of a constraint's rows: a contact's (MuJoCo mjCNSTR_CONTACT_*; a joint limit row is a
 * frictionless one, as MuJoCo's mjCNSTR_LIMIT_JOINT), or a joint's equality rows (mjCNSTR_EQUALITY:
 * always quadratic, force unbounded). */
enum { TB_MJ_FRICTIONLESS = 0, TB_MJ_PYRAMIDAL = 1, TB_MJ_ELLIPTIC = 2, TB_MJ_EQUALITY = 3 };

/* What one contact brings to its rows. */
typedef struct tb_mj_contact_in {
  int32_t condim;       /* 1, 3, 4 or 6 */
  int32_t cone;         /* tb_mujoco_cone */
  double friction[5];   /* slide, slide (1), spin, roll, roll (m), each >= the minimum */
  double r;             /* m: dist − includemargin (< 0 inside the margin) */
  double tran, rot;     /* Σ over both sides of 1/m (1/kg) and trace(I⁻¹)/3 (1/(kg·m²)); static: 0 */
  float solref[2];      /* (timeconst s, dampratio) or direct (−k 1/s², −b 1/s) */
  float solreffriction[2]; /* elliptic friction rows; (0, 0) = use solref */
  float solimp[5];      /* dmin, dmax, width (m), midpoint, power */
  double adhesion;      /* N, >= 0 */
  double impratio;      /* > 0 */
  double h;             /* s: timestep (refsafe) */
  int32_t refsafe;      /* 0/1 */
} tb_mj_contact_in;

/* The rows of one contact: row k's Jacobian is Σ_j coef[k][j]·J_j over the six contact-frame
 * directions j (0 normal, 1 tangent0, 2 tangent1 translational; 3 normal, 4 tangent0, 5 tangent1
 * rotational), each J_j the relative velocity of body1 with respect to body0 along (or about) it. */
typedef struct tb_mj_rows {
  int32_t type;                         /* TB_MJ_FRICTIONLESS / PYRAMIDAL / ELLIPTIC */
  int32_t dim;                          /* condim */
  int32_t count;                        /* rows: 1, dim (elliptic) or 2(dim − 1) (pyramidal) */
  double coef[TB_MJ_MAX_ROWS][6];
  double diag[TB_MJ_MAX_ROWS];          /* Â per row (MuJoCo diagApprox, before the impratio rescale) */
  double R[TB_MJ_MAX_ROWS];             /* regulariser, 1/kg-like (inverse inertia units of the row) */
  double K[TB_MJ_MAX_ROWS], B[TB_MJ_MAX_ROWS]; /* 1/s², 1/s */
  double bias[TB_MJ_MAX_ROWS];          /* −K·I·r + R·adhesion share: a_ref = −B·(J v) + bias */
  double imp, dimp;                     /* impedance I(r) and dI/dr (1/m) */
  double mu;                            /* regularised cone μ = friction[0]·sqrt(R1/R0) = friction[0]/sqrt(impratio) */
} tb_mj_rows;

/* solimp clamped as MuJoCo does: dmin, dmax, midpoint into [MINIMP, MAXIMP], width >= 0, power >= 1. */
void tb_mj_solimp_clamp(const float in[5], double out[5]);
/* Impedance I(r) of a clamped solimp at residual r (m) and its derivative dI/dr (1/m):
 * x = |r|/width; I = dmin + y(x)(dmax − dmin), y = x^p / mid^(p−1) for x <= mid,
 * 1 − (1 − x)^p / (1 − mid)^(p−1) above; flat (dmin + dmax)/2 when dmin = dmax or width <= MINVAL;
 * saturated at dmax for x >= 1. */
double tb_mj_impedance(const double solimp[5], double r, double* dimp);
/* Reference stiffness K (1/s²) and damping B (1/s) of a solref with dmax = clamped solimp[1]:
 * standard (timeconst t > 0, dampratio ζ): K = 1/(dmax²·t²·ζ²), B = 2/(dmax·t), t raised to 2h
 * first when refsafe; direct (−k, −b): K = k/dmax², B = b/dmax. */
void tb_mj_reference(const float solref[2], double dmax, double h, int refsafe, double* K, double* B);
/* The rows of one contact. Returns 0, or -1 when condim is not 1, 3, 4 or 6. */
int tb_mj_contact_rows(const tb_mj_contact_in* in, tb_mj_rows* out);
/* MuJoCo's contact-frame force (mj_contactForce order: normal, tangent0, tangent1, torsion, roll0,
 * roll1; N and N·m) from the row forces: elliptic and frictionless rows directly, pyramid edges
 * decoded as fₙ = Σλ, fᵢ = μᵢ(λ₂ᵢ₋₂ − λ₂ᵢ₋₁); before the adhesion offset. */
void tb_mj_decode_force(const tb_mj_rows* rows, const double friction[5], const double* lambda, double out[6]);

void tb_mujoco_destroy(tb_world* w);

#endif
