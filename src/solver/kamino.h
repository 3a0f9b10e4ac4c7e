/* Newton Kamino PADMM: the joint rows of its dual problem (kamino_joints.c, internal).
 *
 * A joint's equality rows are bilateral constraints of the same PADMM problem as the contacts
 * (λ free: the slack y = x, the dual z = 0), its limit rows unilateral (λ >= 0, row velocity
 * v >= 0, λ·v = 0); each row of src/model/joint_rows.c is one scalar row with its own diagonal
 * preconditioner p = 1/√D_ii (clamped as the contacts'), variables preconditioned as the
 * contacts' (impulse p·x, velocity z/p). Free row velocity v_f = J u_f + γ_j·C/h (equality) or
 * γ_j·min(0, C/h) + max(0, C/h) (limit: speculative, the limit is approached but not passed).
 * Motors and distance springs are explicit forces on the free velocities (see docs/joints.md). */
#ifndef TB_KAMINO_H
#define TB_KAMINO_H

#include "newton.h"

typedef struct tb_kamino_row {
  int32_t a, b;            /* solver bodies of body0 / body1, -1 world, static or asleep */
  int32_t joint;           /* joint slot */
  int32_t unilateral;      /* 1: a limit row, λ >= 0 */
  tb_vec3 lin, ang0, ang1; /* the row (joint_rows.h) */
  float p;                 /* preconditioner, √(kg) or √(kg·m²) */
  float vf;                /* free row velocity with bias, preconditioned */
  float x, y, z, xp, yp, zp, yh, zh; /* PADMM variables, as the contacts' */
  double r, d, q;          /* conjugate gradients: residual, direction, operator applied to d */
} tb_kamino_row;

/* Per solver body scratch of the Delassus operator: impulse sums (N·s, N·m·s about the COM), then
 * the velocity changes they cause (m/s, rad/s), world axes. The contacts read and write lin and
 * ang as four floats each (the pads unused). */
typedef struct tb_kamino_acc {
  tb_vec3 lin;
  float lin_pad;
  tb_vec3 ang;
  float ang_pad;
} tb_kamino_acc;

typedef struct tb_kamino_joints {
  tb_kamino_row* rows;
  int32_t count, capacity;
} tb_kamino_joints;

void tb_kamino_joints_free(tb_kamino_joints* kj);
/* Rows of every solved joint at the start poses; the motors' and springs' impulses applied to the
 * free velocities (nd bodies' v, w) and to the joints' step accumulators. Call after the free
 * velocities, before the free row velocities are taken. 0 when out of memory. */
int tb_kamino_joints_setup(tb_world* w, tb_newton_data* nd, const tb_mat3* inv_inertia, tb_kamino_joints* kj, float h);
/* The free row velocities v_f (after every free-velocity change). */
void tb_kamino_joints_free_velocity(const tb_newton_data* nd, tb_kamino_joints* kj);
/* Operator pieces: impulses p·d into acc; q = p·J(Δv) + σd from acc as velocity changes. */
void tb_kamino_joints_scatter(tb_kamino_acc* acc, const tb_kamino_joints* kj);
void tb_kamino_joints_gather(const tb_kamino_acc* acc, tb_kamino_joints* kj, float sigma);
/* Conjugate gradients over the joint rows: d = x; r −= q, d = r (returns Σr²); worst |r|/p;
 * Σ d·q; x += αd, r −= αq (returns Σr²); d = r + βd. */
void tb_kamino_joints_cg_start(tb_kamino_joints* kj);
double tb_kamino_joints_cg_residual(tb_kamino_joints* kj);
double tb_kamino_joints_cg_worst(const tb_kamino_joints* kj);
double tb_kamino_joints_cg_dq(const tb_kamino_joints* kj);
double tb_kamino_joints_cg_step(tb_kamino_joints* kj, double alpha);
void tb_kamino_joints_cg_direction(tb_kamino_joints* kj, double beta);
/* PADMM: the x-update's right side (r) and start (x = x_prev); the projection, dual update and
 * residuals (maxima into rp, rd, rc, squared step norms added to dy2, dz2); the Nesterov step. */
void tb_kamino_joints_rhs(tb_kamino_joints* kj, float eta, float rho);
void tb_kamino_joints_project(tb_kamino_joints* kj, float eta, float rho, float* rp, float* rd, float* rc, double* dy2, double* dz2);
void tb_kamino_joints_advance(tb_kamino_joints* kj, int restart, float factor);
void tb_kamino_joints_restart_point(tb_kamino_joints* kj);
/* The solution's impulses p·y into dlin / dang and into the joints' step accumulators (N·s, N·m·s,
 * on body1 about its centre of mass at the start of the step). */
void tb_kamino_joints_apply(tb_world* w, tb_newton_data* nd, const tb_kamino_joints* kj);
/* The body_parent_f readback after the integration: torques moved to body1's new centre of mass. */
void tb_kamino_joints_readback(tb_world* w, const tb_newton_data* nd, float h);

#endif
