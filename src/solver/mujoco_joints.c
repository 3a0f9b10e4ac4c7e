/* MuJoCo soft constraints: the joints, in maximal coordinates (every body a free 6-dof body, as a
 * MuJoCo model whose bodies each have a free joint and whose joints are equality constraints).
 *
 * The rows of a joint are those of src/model/joint_rows.c at the start poses, Jacobian
 * J = (−lin, −ang0) on body0 and (lin, ang1) on body1 (angular parts about each centre of mass):
 *   equality rows (point, hinge, slide and lock rows; a rigid distance): one constraint of type
 *     mjCNSTR_EQUALITY (MuJoCo's mjEQ_CONNECT for the three point rows, the rotational rows of
 *     mjEQ_WELD for the orientation rows; always quadratic, force unbounded), its impedance I(r)
 *     from the norm r of the joint's equality residuals (MuJoCo getposdim for connect and weld),
 *     a_ref = −B·(J v) − K·I·C per row;
 *   limit rows (revolute / prismatic / distance limits, the spherical cone and twist): one
 *     constraint each of type mjCNSTR_LIMIT_JOINT while violated (C < 0; MuJoCo's jnt_margin 0),
 *     one-sided like a frictionless contact (force >= 0), impedance from its own C;
 *   both with solref (default_timeconst, 1) — MuJoCo's eq_/jnt_ default (0.02 s, 1) in the mujoco
 *     preset, Genesis's constraint_timeconst 0.01 s in genesis — and MuJoCo's default solimp
 *     (0.9, 0.95, 0.001, 0.5, 2) (mj_defaultSolRefImp), the world's refsafe, and R = (1 − I)/I·Â with Â the
 *     diagonal approximation of the contact rows: Σ 1/m over the moving sides for a linear row,
 *     Σ trace(I⁻¹)/3 for an angular one (MuJoCo body_invweight0 of a free body);
 *   a motor is a velocity actuator (MuJoCo <velocity>: gain kv, bias −kv·q̇, ctrl = target speed,
 *     forcerange ±maxForce): the force f = clamp(kv·(target − Ċ), ±F_max) at the start velocities,
 *     with kv = 1/(h·w) (w = J M⁻¹ Jᵀ of the row: the gain that would reach the target in one
 *     step), applied to a₀ as MuJoCo's qfrc_actuator; not a constraint;
 *   a distance spring is a passive force (MuJoCo's tendon stiffness and damping, qfrc_passive):
 *     f = −(k·C + c·Ċ) at the start state, applied to a₀.
 * Readback (convention `mujoco`): the wrench on body1 of the joint's equality and limit rows'
 * efc_force plus its spring force, Σ (lin·f, ang1·f): force (N) and torque (N·m) about body1's
 * centre of mass at the start of the step (a world or static body1: frame1's origin), world
 * axes; the motor's actuator force apart, as motor_force. */
#include <math.h>
#include <string.h>

#include "mujoco_solver.h"
#include "solver.h"

/* MuJoCo's default solimp (mj_defaultSolRefImp), used for eq_ and jnt_ parameters */
static const float JOINT_SOLIMP[5] = {0.9f, 0.95f, 0.001f, 0.5f, 2.0f};

int32_t tb_mj_joint_row_bound(const tb_world* w) { return w->joints.live * TB_JOINT_MAX_ROWS; }

/* Jacobian blocks of a row on body0 (ja) and body1 (jb). */
static void row_jacobian(const tb_joint_row* r, double ja[6], double jb[6]) {
  const tb_vec3 v[3] = {r->lin, r->ang0, r->ang1};
  for (int i = 0; i < 3; ++i) {
    ja[i] = -(double)tb_comp(v[0], i);
    ja[3 + i] = -(double)tb_comp(v[1], i);
    jb[i] = tb_comp(v[0], i);
    jb[3 + i] = tb_comp(v[2], i);
  }
}

/* Pose of a side's body origin at the start of the step and the point its rows' angular parts are
 * about: the centre of mass, or (world, static) the frame origin, set by the caller. */
static int side_pose(const tb_world* w, int32_t slot, tb_transform* pose, tb_vec3* com) {
  if (slot < 0) {
    *pose = (tb_transform){{0, 0, 0}, {0, 0, 0, 1}};
    *com = tb_v3(0, 0, 0);
    return 1;
  }
  *pose = tb_body_pose(&w->bodies, slot);
  *com = tb_transform_point(*pose, w->bodies.local_center[slot]);
  return w->bodies.f.body_type[slot] == TB_BODY_STATIC;
}

/* Velocity (6: linear, angular) of a kinematic side, else zero. */
static void kinematic_velocity(const tb_world* w, int32_t slot, double out[6]) {
  int kin = slot >= 0 && w->bodies.f.body_type[slot] == TB_BODY_KINEMATIC;
  for (int i = 0; i < 3; ++i) {
    out[i] = kin ? w->bodies.f.linear_velocity[3 * slot + i] : 0.0;
    out[3 + i] = kin ? w->bodies.f.angular_velocity[3 * slot + i] : 0.0;
  }
}

/* Σ over the moving sides of 1/m (linear row) or trace(I⁻¹)/3 (angular row): Â. */
static double diag_approx(const tb_world* w, const tb_mujoco_data* d, const tb_mj_joint* j, int angular) {
  double s = 0.0;
  const int32_t k[2] = {j->a, j->b};
  for (int q = 0; q < 2; ++q) {
    if (k[q] < 0) continue;
    const tb_mj_body* b = &d->bodies[k[q]];
    const tb_mat3* ii = &w->bodies.inv_inertia_local[b->slot];
    s += angular ? ((double)ii->cx.x + ii->cy.y + ii->cz.z) / 3.0 : b->inv_mass;
  }
  return s;
}

/* J M⁻¹ Jᵀ of a row and its rate J v at the start velocities (dof and kinematic sides). */
static void row_weight_rate(const tb_mujoco_data* d, const tb_mj_joint* j, int i, double* weight, double* rate) {
  double jac[2][6], mj[6];
  row_jacobian(&j->rows[i], jac[0], jac[1]);
  const int32_t k[2] = {j->a, j->b};
  *weight = 0.0;
  *rate = j->vk[i];
  for (int q = 0; q < 2; ++q) {
    if (k[q] < 0) continue;
    const tb_mj_body* b = &d->bodies[k[q]];
    for (int u = 0; u < 3; ++u) mj[u] = b->inv_mass * jac[q][u];
    m3v(b->Iinv, jac[q] + 3, mj + 3);
    *weight += dot(jac[q], mj, 6);
    *rate += dot(jac[q], b->v, 3) + dot(jac[q] + 3, b->w, 3);
  }
}

/* a₀ += M⁻¹ Jᵀ f of row i: a force outside the constraints (actuator, passive). */
static void add_force(tb_mujoco_data* d, const tb_mj_joint* j, int i, double f) {
  double jac[2][6];
  row_jacobian(&j->rows[i], jac[0], jac[1]);
  const int32_t k[2] = {j->a, j->b};
  for (int q = 0; q < 2; ++q) {
    if (k[q] < 0) continue;
    const tb_mj_body* b = &d->bodies[k[q]];
    double t[3] = {f * jac[q][3], f * jac[q][4], f * jac[q][5]}, da[3];
    for (int u = 0; u < 3; ++u) d->a0[6 * k[q] + u] += b->inv_mass * jac[q][u] * f;
    m3v(b->Iinv, t, da);
    for (int u = 0; u < 3; ++u) d->a0[6 * k[q] + 3 + u] += da[u];
  }
}

/* The rows of joint slot s at the start poses into j; 0 when it is not solved. */
static int joint_at_start(const tb_world* w, const tb_mujoco_data* d, int32_t s, tb_mj_joint* j) {
  const tb_joints* jt = &w->joints;
  const tb_joint_def* def = &jt->def[s];
  if (def->type < 0 || jt->state[s].broken) return 0;
  int32_t s0 = jt->slot0[s], s1 = jt->slot1[s];
  j->slot = s;
  j->a = s0 >= 0 ? d->dof_of_slot[s0] : -1;
  j->b = s1 >= 0 ? d->dof_of_slot[s1] : -1;
  if (j->a < 0 && j->b < 0) return 0;
  tb_transform p0, p1, f0, f1;
  tb_vec3 c0, c1;
  int fixed0 = side_pose(w, s0, &p0, &c0), fixed1 = side_pose(w, s1, &p1, &c1);
  tb_joint_world_frames(def, p0, p1, &f0, &f1);
  if (fixed0) c0 = f0.p;
  if (fixed1) c1 = f1.p;
  j->point1 = c1;
  j->count = tb_joint_build_rows(def, f0, f1, c0, c1, j->rows);
  double v0[6], v1[6], ja[6], jb[6];
  kinematic_velocity(w, s0, v0);
  kinematic_velocity(w, s1, v1);
  for (int i = 0; i < j->count; ++i) {
    row_jacobian(&j->rows[i], ja, jb);
    j->vk[i] = dot(ja, v0, 6) + dot(jb, v1, 6);
    j->efc[i] = -1;
    j->passive[i] = 0.0;
  }
  return 1;
}

void tb_mj_joint_prepare(tb_world* w, tb_mujoco_data* d, double h) {
  tb_joints* jt = &w->joints;
  d->joint_count = 0;
  for (int32_t s = 0; s < jt->count; ++s) {
    jt->state[s].valid = 0;
    /* a free slot has no entry: with no live joint the entries are not even allocated */
    if (jt->def[s].type < 0) continue;
    tb_mj_joint* j = &d->joints[d->joint_count];
    if (!joint_at_start(w, d, s, j)) continue;
    for (int i = 0; i < j->count; ++i) {
      const tb_joint_row* r = &j->rows[i];
      if (r->kind != TB_ROW_MOTOR && r->kind != TB_ROW_SPRING) continue;
      double weight, rate;
      row_weight_rate(d, j, i, &weight, &rate);
      double f;
      if (r->kind == TB_ROW_MOTOR) {
        if (!(weight > 0.0)) continue;
        double kv = 1.0 / (h * weight); /* N·s/m or N·m·s/rad */
        f = kv * ((double)r->target - rate);
        f = f > r->max_force ? r->max_force : (f < -r->max_force ? -(double)r->max_force : f);
      } else {
        f = -((double)r->stiffness * r->error + (double)r->damping * rate);
        tb_solver_note_spring(w, s, h, r->stiffness, r->damping, weight);
      }
      j->passive[i] = f;
      add_force(d, j, i, f);
    }
    d->joint_count++;
  }
}

/* Appends one constraint of n rows (indices idx of joint j) of the given type. */
static void add_constraint(tb_world* w, tb_mujoco_data* d, int32_t ji, const int* idx, int n, int type, double h) {
  tb_mj_joint* j = &d->joints[ji];
  int32_t nc = d->con_count;
  tb_mj_con* c = &d->cons[nc];
  memset(c, 0, sizeof *c);
  c->store = -1;
  c->joint = ji;
  c->a = j->a, c->b = j->b;
  c->adr = d->row_count;
  c->rows.type = type;
  c->rows.dim = 1;
  c->rows.count = n;
  /* impedance from the norm of the residuals (MuJoCo: connect and weld over their rows) */
  double r2 = 0.0, sol[5], dimp, K, B;
  for (int q = 0; q < n; ++q) r2 += (double)j->rows[idx[q]].error * j->rows[idx[q]].error;
  tb_mj_solimp_clamp(JOINT_SOLIMP, sol);
  double imp = tb_mj_impedance(sol, sqrt(r2), &dimp);
  const float solref[2] = {w->def.solver.mujoco.default_timeconst, 1.0f}; /* s, 1 */
  tb_mj_reference(solref, sol[1], h, w->def.solver.mujoco.refsafe, &K, &B);
  for (int q = 0; q < n; ++q) {
    const tb_joint_row* jr = &j->rows[idx[q]];
    tb_mj_row* r = &d->rows[d->row_count];
    memset(r, 0, sizeof *r);
    r->a = j->a, r->b = j->b, r->contact = nc;
    row_jacobian(jr, r->ja, r->jb);
    double R = fmax(TB_MJ_MINVAL, (1.0 - imp) * diag_approx(w, d, j, jr->angular) / imp);
    tb_mj_row_finish(d, r, j->vk[idx[q]], R, B, -K * imp * jr->error);
    j->efc[idx[q]] = d->row_count++;
  }
  d->con_count++;
}

void tb_mj_joint_rows(tb_world* w, tb_mujoco_data* d, double h, int limits) {
  for (int32_t ji = 0; ji < d->joint_count; ++ji) {
    const tb_mj_joint* j = &d->joints[ji];
    int idx[TB_JOINT_MAX_ROWS], n = 0;
    for (int i = 0; i < j->count; ++i) {
      const tb_joint_row* r = &j->rows[i];
      if (!limits && r->kind == TB_ROW_EQUAL) idx[n++] = i;
      if (limits && r->kind == TB_ROW_LIMIT && r->error < 0.0f) add_constraint(w, d, ji, &i, 1, TB_MJ_FRICTIONLESS, h);
    }
    if (n > 0) add_constraint(w, d, ji, idx, n, TB_MJ_EQUALITY, h);
  }
}

void tb_mj_joint_readback(tb_world* w, const tb_mujoco_data* d) {
  tb_joints* jt = &w->joints;
  for (int32_t ji = 0; ji < d->joint_count; ++ji) {
    const tb_mj_joint* j = &d->joints[ji];
    double fw[6] = {0}, motor = 0.0;
    for (int i = 0; i < j->count; ++i) {
      const tb_joint_row* r = &j->rows[i];
      double f = j->efc[i] >= 0 ? d->force[j->efc[i]] : (r->kind == TB_ROW_SPRING ? j->passive[i] : 0.0);
      if (r->kind == TB_ROW_MOTOR) motor += j->passive[i];
      for (int u = 0; u < 3; ++u) {
        fw[u] += f * tb_comp(r->lin, u);
        fw[3 + u] += f * tb_comp(r->ang1, u);
      }
    }
    tb_joint_state* st = &jt->state[j->slot];
    const tb_joint_def* def = &jt->def[j->slot];
    st->convention = TB_READBACK_MUJOCO;
    st->valid = 1;
    st->motor_force = (float)motor;
    for (int u = 0; u < 3; ++u) {
      st->wrench.force[u] = (float)fw[u];
      st->wrench.torque[u] = (float)fw[3 + u];
    }
    st->wrench.point[0] = j->point1.x, st->wrench.point[1] = j->point1.y, st->wrench.point[2] = j->point1.z;
    tb_vec3 f = tb_v3(st->wrench.force[0], st->wrench.force[1], st->wrench.force[2]);
    tb_vec3 t = tb_v3(st->wrench.torque[0], st->wrench.torque[1], st->wrench.torque[2]);
    if (tb_length(f) > def->break_force || tb_length(t) > def->break_torque) st->broken = 1;
  }
}
