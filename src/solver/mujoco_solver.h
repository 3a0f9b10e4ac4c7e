/* MuJoCo soft-constraint solver: the step's data shared by its files (internal).
 *   mujoco_setup.c   the degrees of freedom (bodies by island, reverse Cuthill-McKee inside) and the contact rows;
 *   mujoco_joints.c  the joint rows (equality, limit), motor and spring forces, joint readback;
 *   mujoco_primal.c  the soft cost and the primal solvers (CG, Newton with a skyline factor);
 *   mujoco_pgs.c     the dual solver (PGS);
 *   solver_mujoco.c  the step: warm start, solve, contact readback, Euler integration, snapshots. */
#ifndef TB_MUJOCO_SOLVER_H
#define TB_MUJOCO_SOLVER_H

#include "../model/joint_rows.h"
#include "mujoco.h"

typedef struct tb_mj_body {
  int32_t slot;
  double inv_mass, mass;
  double I[9], Iinv[9]; /* world, about the COM, row-major */
  double x[3], v[3], w[3], q[4];
} tb_mj_body;

typedef struct tb_mj_row {
  int32_t a, b;          /* dof body of shape0 / shape1, -1 none */
  int32_t contact;
  double ja[6], jb[6];   /* Jacobian blocks (linear, angular) */
  double ma[6], mb[6];   /* M⁻¹ Jᵀ blocks (PGS) */
  double aref, R, D, AR; /* AR = J M⁻¹ Jᵀ + R */
} tb_mj_row;

typedef struct tb_mj_con {
  int32_t store, adr;    /* contact-store index (-1 none or a joint), first row */
  int32_t joint;         /* index into joints for a joint's rows, -1 for a contact */
  int32_t a, b;
  double friction[5], adhesion;
  tb_mj_rows rows;
  double H[36];          /* elliptic cone Hessian in row space (middle zone) */
  int32_t state;         /* elliptic: 0 top, 1 bottom, 2 middle */
} tb_mj_con;

/* One solved joint: its rows at the start poses (src/model/joint_rows.c) and where they went. */
typedef struct tb_mj_joint {
  int32_t slot;                          /* joint slot */
  int32_t a, b;                          /* dof body of body0 / body1, -1 none */
  int32_t count;                         /* rows */
  tb_joint_row rows[TB_JOINT_MAX_ROWS];
  int32_t efc[TB_JOINT_MAX_ROWS];        /* efc row of each row, -1: motor, spring or a limit not reached */
  double passive[TB_JOINT_MAX_ROWS];     /* N or N·m along a motor (actuator) or spring (passive) row */
  double vk[TB_JOINT_MAX_ROWS];          /* m/s or rad/s: the kinematic sides' share of each row's rate */
  tb_vec3 point1;                        /* m: body1's centre of mass (world or static side: frame1's origin), start of the step */
} tb_mj_joint;

typedef struct tb_mujoco_data {
  tb_mj_body* bodies;
  int32_t body_capacity, body_count;
  tb_mj_con* cons;
  int32_t con_capacity, con_count;
  tb_mj_row* rows;
  double *jar, *force, *jv, *oldforce;
  int32_t* rstate;
  int32_t* hstate;        /* the state of each row in the Newton factor L (rstate when it was built) */
  int32_t row_capacity, row_count;
  /* dofs (6 per body) */
  double *a0, *ma0, *acc, *ma, *grad, *mgrad, *search, *mv, *gradold, *mgradold;
  double *upd_c, *upd_s; /* a rank-one update of L: each column's rotation as 1/c and s/c */
  int32_t* first;        /* skyline: first column of each dof row */
  double factor_cost;    /* the factor's multiply-adds, Σ ½(i − first[i])², set with the profile */
  int64_t* off;          /* skyline: offset of each row (off_capacity + 1) */
  int32_t off_capacity;  /* dofs off holds; follows dof_capacity, apart after a failed allocation */
  int32_t dof_capacity;
  double* L;
  int64_t l_capacity;
  int32_t hessian_stale;  /* L is not the factor of this iterate's H (a row changed state since) */
  /* per body slot */
  int32_t *dof_of_slot;  /* dof body of each slot, -1 none */
  int32_t *adj_start, *adj_len, *stamp, *order; /* the body graph (mujoco_setup.c order_bodies) */
  double* warm;          /* 6 per slot: last accelerations */
  int32_t* warm_gen;     /* generation the warm entry belongs to, -1 none */
  int32_t slot_capacity;
  int32_t* adj;          /* neighbour slots of each slot's list (adj_start, adj_len) */
  int32_t adj_capacity;
  tb_mj_joint* joints;   /* the solved joints of this step (mujoco_joints.c) */
  int32_t joint_capacity, joint_count;
  double scale;
} tb_mujoco_data;

/* ---- small helpers ---- */

/* ---- small helpers ---- */

static inline void m3v(const double m[9], const double v[3], double o[3]) {
  for (int i = 0; i < 3; ++i) o[i] = m[3 * i] * v[0] + m[3 * i + 1] * v[1] + m[3 * i + 2] * v[2];
}
static inline void cross3(const double a[3], const double b[3], double o[3]) {
  o[0] = a[1] * b[2] - a[2] * b[1];
  o[1] = a[2] * b[0] - a[0] * b[2];
  o[2] = a[0] * b[1] - a[1] * b[0];
}
static inline double dot(const double* a, const double* b, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

/* row-major copy of a column-major matrix */
static inline void mat3_rows(tb_mat3 m, double out[9]) {
  const tb_vec3 col[3] = {m.cx, m.cy, m.cz};
  for (int u = 0; u < 3; ++u)
    for (int v = 0; v < 3; ++v) out[3 * u + v] = tb_comp(col[v], u);
}

/* ---- mass matrix per body, rows ---- */

static inline void mul_m(const tb_mujoco_data* d, const double* x, double* out) {
  for (int32_t k = 0; k < d->body_count; ++k) {
    const tb_mj_body* b = &d->bodies[k];
    for (int i = 0; i < 3; ++i) out[6 * k + i] = b->mass * x[6 * k + i];
    m3v(b->I, x + 6 * k + 3, out + 6 * k + 3);
  }
}
static inline void solve_m(const tb_mujoco_data* d, const double* x, double* out) {
  for (int32_t k = 0; k < d->body_count; ++k) {
    const tb_mj_body* b = &d->bodies[k];
    for (int i = 0; i < 3; ++i) out[6 * k + i] = b->inv_mass * x[6 * k + i];
    m3v(b->Iinv, x + 6 * k + 3, out + 6 * k + 3);
  }
}

static inline double row_dot(const tb_mj_row* r, const double* x) {
  double s = 0.0;
  if (r->a >= 0) s += dot(r->ja, x + 6 * r->a, 6);
  if (r->b >= 0) s += dot(r->jb, x + 6 * r->b, 6);
  return s;
}
static inline void row_add_t(const tb_mj_row* r, double f, double* x) {
  if (r->a >= 0) for (int i = 0; i < 6; ++i) x[6 * r->a + i] += f * r->ja[i];
  if (r->b >= 0) for (int i = 0; i < 6; ++i) x[6 * r->b + i] += f * r->jb[i];
}
static inline void row_add_minv(const tb_mj_row* r, double f, double* x) {
  if (r->a >= 0) for (int i = 0; i < 6; ++i) x[6 * r->a + i] += f * r->ma[i];
  if (r->b >= 0) for (int i = 0; i < 6; ++i) x[6 * r->b + i] += f * r->mb[i];
}

/* ---- setup ---- */

typedef struct tb_mj_result { int32_t iterations, converged; double improvement, gradient; } tb_mj_result;

/* mujoco_setup.c: the per-body-slot arrays (island scratch and warm start) for tb_grow_capacity,
 * and the whole setup of one step (bodies, a₀, joint and contact rows). */
#define TB_MJ_SLOT_ARRAYS 7
void tb_mj_slot_arrays(tb_mujoco_data* d, tb_array_ref sa[TB_MJ_SLOT_ARRAYS]);
tb_status tb_mj_setup(tb_world* w, const tb_step_context* step);
/* Completes row r whose a, b, ja, jb are set: M⁻¹Jᵀ, R, D = 1/R, a_ref = −B·(J v + vk) + bias and
 * AR = J M⁻¹ Jᵀ + R; vk the kinematic sides' share of the row velocity. */
void tb_mj_row_finish(tb_mujoco_data* d, tb_mj_row* r, double vk, double R, double B, double bias);
/* mujoco_joints.c: joint rows and forces added to the problem (rows from d->row_count, a₀ changed),
 * the joint readback from the solved forces. */
int32_t tb_mj_joint_row_bound(const tb_world* w);
void tb_mj_joint_prepare(tb_world* w, tb_mujoco_data* d, double h);
void tb_mj_joint_rows(tb_world* w, tb_mujoco_data* d, double h, int limits);
void tb_mj_joint_readback(tb_world* w, const tb_mujoco_data* d);
/* mujoco_primal.c: the cost at d->acc (Gauss + soft rows, forces updated), the primal solvers,
 * and the skyline profile (its size) of the Newton factor. */
double tb_mj_total_cost(tb_mujoco_data* d);
tb_mj_result tb_mj_solve_primal(tb_mujoco_data* d, const tb_mujoco_params* p, int newton);
int64_t tb_mj_skyline_profile(tb_mujoco_data* d);
/* The Newton factor L of H = M + JᵀDJ (rows in rstate) + cone Hessians; hstate ← rstate. */
void tb_mj_factor_hessian(tb_mujoco_data* d);
/* L Lᵀ += σ·D·J_rᵀJ_r (σ = ±1) by a rank-one update; 0 when a downdate would lose the factor. */
int tb_mj_rank_one(tb_mujoco_data* d, const tb_mj_row* r, double sigma);
/* mujoco_pgs.c: the dual solver from the forces in d->force. */
tb_mj_result tb_mj_solve_pgs(tb_mujoco_data* d, const tb_mujoco_params* p);

#endif
