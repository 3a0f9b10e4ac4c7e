/* MuJoCo soft-constraint solver (the `mujoco` preset): PGS, CG and Newton over the rows of
 * mujoco_rows.c and of the joints, Euler integration, readback in MuJoCo's convention (see mujoco.h;
 * the files of the solver: mujoco_solver.h).
 *
 * One step of length h:
 *   bodies: the dynamic bodies are the degrees of freedom (COM velocity, world angular velocity;
 *     M = diag(m·1, I_world)); a₀ = g and I⁻¹(−ω × Iω); kinematic bodies move with their velocity
 *     and enter the rows' velocity only; sleeping and static bodies are fixed;
 *   rows: the joints' equality rows, then their violated limit rows (mujoco_joints.c; motors and
 *     springs are forces in a₀), then every active manifold point (and a gap point with adhesion,
 *     as one normal row) at the midpoint between its surface points, frame (normal, tangent0,
 *     tangent1) of the contact store;
 *   warm start: the previous step's accelerations of the same bodies when their cost is lower
 *     than a₀'s (solver.mujoco.warmstart);
 *   solve: PGS (dual, rows in order, elliptic blocks by a ray update and a friction QCQP), CG or
 *     Newton (primal, exact line search by a safeguarded 1-D Newton) until the improvement
 *     scale·Δcost, or for CG / Newton the gradient scale·|∇cost|, falls below the tolerance, with
 *     scale = 1/trace(M) (MuJoCo 1/(meaninertia·nv));
 *   integrate: v += h·a, ω += h·α, x += h·v, q advanced by ω (Euler; implicitfast is the same
 *     without joint damping), then the bodies' damping max(1 − c·h, 0).
 * Newton factorises H = M + JᵀDJ (+ cone Hessians) in a skyline over the bodies island after
 * island, each in reverse Cuthill-McKee order (mujoco_setup.c), so islands never fill and a pile's
 * factor grows with its width, not its body count; an iteration updates the factor by rank one per
 * row that changed state when that is cheaper than factoring again (mujoco_primal.c). Serial in a
 * fixed order: the same bits for any thread count. */
#include <math.h>
#include <string.h>

#include "../core/serial.h"
#include "../model/contact_store.h"
#include "mujoco_solver.h"
#include "solver.h"

/* Room for the Newton factor of this step's skyline. */
static tb_status reserve_factor(tb_world* w, tb_mujoco_data* d) {
  int64_t need = tb_mj_skyline_profile(d);
  if (need <= d->l_capacity) return TB_OK;
  int64_t cap = d->l_capacity > 0 ? d->l_capacity : 256;
  while (cap < need) cap *= 2;
  double* L = (double*)tb_alloc((size_t)cap * sizeof(double));
  if (!L) return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "solve: out of memory for the Newton factor (%lld values)", (long long)need);
  tb_free(d->L, (size_t)d->l_capacity * sizeof(double));
  d->L = L;
  d->l_capacity = cap;
  return TB_OK;
}

/* The start accelerations: the previous ones of the same bodies when they cost less than a₀.
 * Returns 1 when they are used. */
static int warm_start(tb_world* w, tb_mujoco_data* d, const tb_mujoco_params* p) {
  tb_bodies* bodies = &w->bodies;
  int32_t n = 6 * d->body_count;
  if (n > 0) memcpy(d->acc, d->a0, (size_t)n * sizeof(double));
  mul_m(d, d->acc, d->ma);
  double cost0 = tb_mj_total_cost(d);
  int warm = 0;
  if (p->warmstart) {
    for (int32_t k = 0; k < d->body_count; ++k) {
      int32_t sl = d->bodies[k].slot;
      if (d->warm_gen[sl] != bodies->generation[sl]) continue;
      memcpy(d->acc + 6 * k, d->warm + 6 * sl, 6 * sizeof(double));
      warm = 1;
    }
    if (warm) {
      mul_m(d, d->acc, d->ma);
      if (tb_mj_total_cost(d) >= cost0) { /* a₀ is better: back to it */
        warm = 0;
        if (n > 0) memcpy(d->acc, d->a0, (size_t)n * sizeof(double));
        mul_m(d, d->acc, d->ma);
        tb_mj_total_cost(d);
      }
    }
  }
  return warm;
}

/* Keeps the accelerations for the next step's warm start. */
static void keep_warm(tb_world* w, tb_mujoco_data* d) {
  tb_bodies* bodies = &w->bodies;
  for (int32_t i = 0; i < bodies->count; ++i) d->warm_gen[i] = -1;
  for (int32_t k = 0; k < d->body_count; ++k) {
    int32_t sl = d->bodies[k].slot;
    memcpy(d->warm + 6 * sl, d->acc + 6 * k, 6 * sizeof(double));
    d->warm_gen[sl] = bodies->generation[sl];
  }
}

/* The contacts' readback: the forces of this step's rows, before the integration. */
static void contact_readback(tb_world* w, const tb_mujoco_data* d, double h) {
  tb_contact_fields* f = &w->contacts.f;
  for (int32_t k = 0; k < w->contacts.count; ++k) {
    for (int q = 0; q < 6; ++q) f->mujoco_force[6 * k + q] = 0.0f;
    f->efc_address[k] = -1;
    f->normal_impulse[k] = 0.0f;
    f->tangent_impulse[2 * k] = f->tangent_impulse[2 * k + 1] = 0.0f;
    for (int q = 0; q < 3; ++q) f->force[3 * k + q] = 0.0f;
  }
  for (int32_t ci = 0; ci < d->con_count; ++ci) {
    const tb_mj_con* c = &d->cons[ci];
    int32_t k = c->store;
    if (k < 0) continue;
    double cf[6];
    tb_mj_decode_force(&c->rows, c->friction, d->force + c->adr, cf);
    cf[0] -= c->adhesion; /* the net normal force */
    for (int q = 0; q < 6; ++q) f->mujoco_force[6 * k + q] = (float)cf[q];
    f->efc_address[k] = c->adr;
    f->normal_impulse[k] = (float)(cf[0] * h);
    f->tangent_impulse[2 * k] = (float)(cf[1] * h);
    f->tangent_impulse[2 * k + 1] = (float)(cf[2] * h);
    const float* nn = f->normal + 3 * k;
    const float* t0 = f->tangent0 + 3 * k;
    const float* t1 = f->tangent1 + 3 * k;
    for (int q = 0; q < 3; ++q) f->force[3 * k + q] = (float)(cf[0] * nn[q] + cf[1] * t0[q] + cf[2] * t1[q]);
  }
  tb_readback_set(w, TB_READBACK_MUJOCO, TB_RB_PER_CONTACT | TB_RB_FRICTION | TB_RB_TORSIONAL, 1, 1.0f);
}

/* Euler: v += h·a, x += h·v, q by ω; then the body damping; kinematic bodies by their velocity. */
static void integrate(tb_world* w, const tb_mujoco_data* d, double h) {
  tb_bodies* bodies = &w->bodies;
  for (int32_t k = 0; k < d->body_count; ++k) {
    const tb_mj_body* b = &d->bodies[k];
    int32_t i = b->slot;
    float c = bodies->linear_damping[i], g = bodies->angular_damping[i];
    double lin = c > 0.0f ? fmax(0.0, 1.0 - c * h) : 1.0, ang = g > 0.0f ? fmax(0.0, 1.0 - g * h) : 1.0;
    tb_vec3 v, om, x;
    v = tb_v3((float)((b->v[0] + h * d->acc[6 * k]) * lin), (float)((b->v[1] + h * d->acc[6 * k + 1]) * lin),
              (float)((b->v[2] + h * d->acc[6 * k + 2]) * lin));
    om = tb_v3((float)((b->w[0] + h * d->acc[6 * k + 3]) * ang), (float)((b->w[1] + h * d->acc[6 * k + 4]) * ang),
               (float)((b->w[2] + h * d->acc[6 * k + 5]) * ang));
    x = tb_v3((float)(b->x[0] + h * (b->v[0] + h * d->acc[6 * k])), (float)(b->x[1] + h * (b->v[1] + h * d->acc[6 * k + 1])),
              (float)(b->x[2] + h * (b->v[2] + h * d->acc[6 * k + 2])));
    tb_vec3 w1 = tb_v3((float)(b->w[0] + h * d->acc[6 * k + 3]), (float)(b->w[1] + h * d->acc[6 * k + 4]),
                       (float)(b->w[2] + h * d->acc[6 * k + 5]));
    tb_quat q0 = {(float)b->q[0], (float)b->q[1], (float)b->q[2], (float)b->q[3]};
    tb_quat q1 = tb_quat_integrate(q0, w1, (float)h);
    tb_body_write_state(bodies, i, x, q1, v, om);
  }
  /* kinematic bodies move with their velocity */
  for (int32_t i = 0; i < bodies->count; ++i) {
    if (bodies->f.body_type[i] != TB_BODY_KINEMATIC) continue;
    const float* t = bodies->f.transform + 7 * i;
    const float* v = bodies->f.linear_velocity + 3 * i;
    const float* av = bodies->f.angular_velocity + 3 * i;
    tb_quat q0 = {t[3], t[4], t[5], t[6]};
    tb_vec3 c0 = tb_transform_point(tb_body_pose(bodies, i), bodies->local_center[i]);
    tb_vec3 c1 = tb_mul_add(c0, (float)h, tb_v3(v[0], v[1], v[2]));
    tb_quat q1 = tb_quat_integrate(q0, tb_v3(av[0], av[1], av[2]), (float)h);
    tb_body_write_pose(bodies, i, c1, q1);
  }
}

tb_status tb_solve_mujoco(tb_world* w, const tb_step_context* step) {
  tb_status st = tb_mj_setup(w, step);
  if (st != TB_OK) return st;
  tb_mujoco_data* d = w->mujoco;
  const tb_mujoco_params* p = &w->def.solver.mujoco;
  const double h = step->dt;
  if (p->algorithm == TB_MUJOCO_NEWTON && (st = reserve_factor(w, d)) != TB_OK) return st;
  int warm = warm_start(w, d, p);
  tb_mj_result res;
  if (p->algorithm == TB_MUJOCO_PGS) {
    /* the dual starts from the forces of the start accelerations (zero without a warm start) */
    if (!warm && d->row_count > 0) memset(d->force, 0, (size_t)d->row_count * sizeof(double));
    res = tb_mj_solve_pgs(d, p);
  } else {
    res = tb_mj_solve_primal(d, p, p->algorithm == TB_MUJOCO_NEWTON);
  }
  keep_warm(w, d);
  contact_readback(w, d, h);
  tb_mj_joint_readback(w, d);
  integrate(w, d, h);
  tb_solver_status_set(w, TB_SOLVER_MUJOCO, res.iterations, 0, res.converged, NAN, NAN);
  w->status.improvement = (float)res.improvement;
  w->status.gradient = (float)res.gradient;
  w->body_contact_valid = 0;
  w->stats.substeps = 1;
  tb_solver_stats_serial(w);
  return TB_OK;
}

void tb_mujoco_forget(tb_world* w) {
  tb_mujoco_data* d = w->mujoco;
  for (int32_t i = 0; d && i < d->slot_capacity; ++i) d->warm_gen[i] = -1;
}

/* ---- snapshots: the warm start (accelerations per body slot and their generations) ---- */

void tb_mujoco_save(const tb_world* w, tb_serial* s) {
  const tb_mujoco_data* d = w->mujoco;
  int32_t n = d ? (d->slot_capacity < w->bodies.count ? d->slot_capacity : w->bodies.count) : 0;
  tb_put_i32(s, n);
  if (n == 0) return;
  tb_put(s, d->warm, 6 * (size_t)n * sizeof(double));
  tb_put(s, d->warm_gen, (size_t)n * sizeof(int32_t));
}

int tb_mujoco_load(tb_world* w, tb_serial* s) {
  int32_t n = tb_get_i32(s, 0, w->bodies.count);
  if (s->failed) return 0;
  if (n == 0) return 1;
  if ((size_t)n * (6 * sizeof(double) + sizeof(int32_t)) > s->size - s->pos) return s->failed = 1, 0;
  tb_mujoco_data* d = w->mujoco ? w->mujoco : (tb_mujoco_data*)tb_alloc_zero(sizeof(tb_mujoco_data));
  if (!d) return 0;
  w->mujoco = d; /* the world's destroy frees it from here on */
  tb_array_ref sa[TB_MJ_SLOT_ARRAYS];
  tb_mj_slot_arrays(d, sa);
  if (!tb_grow_capacity(sa, TB_MJ_SLOT_ARRAYS, &d->slot_capacity, n)) return 0;
  tb_get(s, d->warm, 6 * (size_t)n * sizeof(double));
  tb_get(s, d->warm_gen, (size_t)n * sizeof(int32_t));
  for (int32_t i = n; i < d->slot_capacity; ++i) d->warm_gen[i] = -1;
  for (int32_t i = 0; i < n && !s->failed; ++i) {
    if (d->warm_gen[i] < -1) s->failed = 1;
    /* a kept warm start (generation >= 0) is the next solve's start: finite (a failed step
     * forgets them, tb_solve_guarded) */
    for (int k = 0; k < 6 && d->warm_gen[i] >= 0; ++k)
      if (!isfinite(d->warm[6 * i + k])) s->failed = 1;
  }
  return !s->failed;
}
