/* Joints in the Newton solvers (seed newton-e3 §4): XPBD positional corrections as Newton's
 * solve_body_joints, penalty attachment springs as Newton's semi-implicit eval_body_joints, and
 * the body_parent_f readback (total wrench from body0 through the joint on body1, world axes,
 * about body1's centre of mass).
 *
 * XPBD, once per iteration after the contact corrections were applied, every joint from the same
 * poses (Jacobi, like Newton's parallel kernel), each row of src/model/joint_rows.c at the
 * current poses and velocities:
 *   equality, limit (C < 0 only): Δλ = −(C + γ·Ċ) / ((h + γ)w + α/h) (N·s), α = compliance
 *     (0: rigid; distance spring 1/k, m/N), γ = α·c (s);
 *   motor: Δλ = −(Ċ − target)/w, the step's applied total clamped to |λ| <= F_max·h;
 *   the linear part of a row's correction is scaled by the linear relaxation 0.7, the angular part
 *   by the angular relaxation 0.4 (Newton's defaults joint_linear_relaxation and
 *   joint_angular_relaxation); the sums are then applied like contact impulses without weighting.
 * Penalty, per substep at the current state, force along each row (N or N·m):
 *   equality −(ke·C + kd·Ċ) with ke = 1e4, kd = 1e2 (Newton joint_attach_ke / joint_attach_kd; the
 *   angular damping scaled by 0.01 as Newton does); limits the same while C < 0 and only pushing;
 *   motor −kd·(Ċ − target) clamped to ±F_max; distance spring −(k·C + c·Ċ) with its own k, c. */
#include <string.h>

#include "../model/joint_rows.h"
#include "newton.h"
#include "solver.h"

#define TB_XPBD_JOINT_LINEAR_RELAXATION 0.7f
#define TB_XPBD_JOINT_ANGULAR_RELAXATION 0.4f
#define TB_JOINT_ATTACH_KE 1.0e4f          /* N/m, N·m/rad */
#define TB_JOINT_ATTACH_KD 1.0e2f          /* N·s/m, N·m·s/rad */
#define TB_JOINT_ANGULAR_DAMPING_SCALE 0.01f

/* Solver body of a joint side, -1 when it is the world, static or asleep. */
static int32_t side_body(const tb_newton_data* d, int32_t slot) { return slot < 0 ? -1 : d->body_of_slot[slot]; }

static int movable(const tb_newton_data* d, int32_t k) { return k >= 0 && d->bodies[k].dynamic; }

/* Pose of a side's body origin and its centre of mass now (the world: identity). */
static void side_pose(const tb_world* w, const tb_newton_data* d, int32_t slot, int32_t k, tb_transform* pose, tb_vec3* com) {
  if (k >= 0) {
    pose->q = d->bodies[k].q;
    pose->p = tb_sub(d->bodies[k].x, tb_rotate(pose->q, w->bodies.local_center[slot]));
    *com = d->bodies[k].x;
  } else if (slot >= 0) {
    *pose = tb_body_pose(&w->bodies, slot);
    *com = tb_transform_point(*pose, w->bodies.local_center[slot]);
  } else {
    *pose = (tb_transform){{0, 0, 0}, {0, 0, 0, 1}};
    *com = tb_v3(0, 0, 0);
  }
}

int32_t tb_newton_joint_rows(const tb_world* w, const tb_newton_data* d, int32_t s, int32_t* a, int32_t* b, tb_joint_row* rows) {
  const tb_joints* j = &w->joints;
  if (j->def[s].type < 0 || j->state[s].broken) return 0;
  *a = side_body(d, j->slot0[s]);
  *b = side_body(d, j->slot1[s]);
  if (!movable(d, *a) && !movable(d, *b)) return 0;
  tb_transform p0, p1, f0, f1;
  tb_vec3 c0, c1;
  side_pose(w, d, j->slot0[s], *a, &p0, &c0);
  side_pose(w, d, j->slot1[s], *b, &p1, &c1);
  tb_joint_world_frames(&j->def[s], p0, p1, &f0, &f1);
  if (*a < 0) c0 = f0.p;
  if (*b < 0) c1 = f1.p;
  return tb_joint_build_rows(&j->def[s], f0, f1, c0, c1, rows);
}

static tb_vec3 body_v(const tb_newton_data* d, int32_t k) { return k >= 0 ? d->bodies[k].v : tb_v3(0, 0, 0); }
static tb_vec3 body_w(const tb_newton_data* d, int32_t k) { return k >= 0 ? d->bodies[k].w : tb_v3(0, 0, 0); }

static float row_rate(const tb_newton_data* d, const tb_joint_row* r, int32_t a, int32_t b) {
  return tb_joint_row_rate(r, body_v(d, a), body_w(d, a), body_v(d, b), body_w(d, b));
}

static float inv_mass_of(const tb_newton_data* d, const tb_joint_row* r, int32_t a, int32_t b) {
  float wsum = 0.0f, ll = tb_dot(r->lin, r->lin);
  if (movable(d, a)) wsum += d->bodies[a].inv_mass * ll + tb_dot(r->ang0, tb_mat3_mul_v(tb_newton_inv_inertia_world(d, a), r->ang0));
  if (movable(d, b)) wsum += d->bodies[b].inv_mass * ll + tb_dot(r->ang1, tb_mat3_mul_v(tb_newton_inv_inertia_world(d, b), r->ang1));
  return wsum;
}

/* Adds a row force or impulse `f` to the two bodies' accumulators (dlin, dang), its linear and
 * angular parts scaled by sl and sa; body1's share also into the joint's readback `imp`. */
static void apply_row(tb_newton_data* d, const tb_joint_row* r, int32_t a, int32_t b, float f, float sl, float sa, float* imp) {
  if (movable(d, a)) {
    d->bodies[a].dlin = tb_mul_add(d->bodies[a].dlin, -f * sl, r->lin);
    d->bodies[a].dang = tb_mul_add(d->bodies[a].dang, -f * sa, r->ang0);
  }
  if (movable(d, b)) {
    d->bodies[b].dlin = tb_mul_add(d->bodies[b].dlin, f * sl, r->lin);
    d->bodies[b].dang = tb_mul_add(d->bodies[b].dang, f * sa, r->ang1);
  }
  tb_vec3 l = tb_scale(r->lin, f * sl), t = tb_scale(r->ang1, f * sa);
  imp[0] += l.x; imp[1] += l.y; imp[2] += l.z;
  imp[3] += t.x; imp[4] += t.y; imp[5] += t.z;
}

int tb_newton_joints_begin(tb_world* w) {
  tb_joints* j = &w->joints;
  for (int32_t s = 0; s < j->count; ++s) {
    memset(j->impulse + 6 * s, 0, 6 * sizeof(float));
    j->state[s].valid = 0;
    j->state[s].motor_force = 0.0f;
  }
  return j->live > 0;
}

void tb_newton_joints_xpbd(tb_world* w, tb_newton_data* d, float h) {
  tb_joints* j = &w->joints;
  for (int32_t k = 0; k < d->body_count; ++k) d->bodies[k].dlin = d->bodies[k].dang = tb_v3(0, 0, 0);
  for (int32_t s = 0; s < j->count; ++s) {
    tb_joint_row rows[TB_JOINT_MAX_ROWS];
    int32_t a, b, n = tb_newton_joint_rows(w, d, s, &a, &b, rows);
    float* imp = j->impulse + 6 * s;
    for (int32_t i = 0; i < n; ++i) {
      const tb_joint_row* r = &rows[i];
      float wsum = inv_mass_of(d, r, a, b);
      if (wsum <= 0.0f) continue;
      float cdot = row_rate(d, r, a, b), dl = 0.0f;
      float sa = TB_XPBD_JOINT_ANGULAR_RELAXATION, sl = r->angular ? 0.0f : TB_XPBD_JOINT_LINEAR_RELAXATION;
      if (r->kind == TB_ROW_MOTOR) {
        /* the motor's applied impulse of the step so far (relaxation included) is kept in
         * motor_force (N·s until the readback) and bounded by F_max·h */
        float* total = &j->state[s].motor_force;
        float relax = r->angular ? sa : sl, bound = r->max_force * h;
        float next = tb_clampf(*total - relax * (cdot - r->target) / wsum, -bound, bound);
        dl = (next - *total) / relax;
        *total = next;
      } else if (r->kind != TB_ROW_LIMIT || r->error < 0.0f) {
        float alpha = r->kind == TB_ROW_SPRING ? 1.0f / r->stiffness : 0.0f;
        float gamma = alpha * r->damping;
        dl = -(r->error + gamma * cdot) / ((h + gamma) * wsum + alpha / h);
      }
      if (dl == 0.0f) continue;
      apply_row(d, r, a, b, dl, sl, sa, imp);
    }
  }
}

void tb_newton_joints_penalty(tb_world* w, tb_newton_data* d, float hs) {
  tb_joints* j = &w->joints;
  for (int32_t s = 0; s < j->count; ++s) {
    tb_joint_row rows[TB_JOINT_MAX_ROWS];
    int32_t a, b, n = tb_newton_joint_rows(w, d, s, &a, &b, rows);
    float* imp = j->impulse + 6 * s;
    float f_imp[6] = {0};
    for (int32_t i = 0; i < n; ++i) {
      const tb_joint_row* r = &rows[i];
      float cdot = row_rate(d, r, a, b), f = 0.0f;
      float kd = TB_JOINT_ATTACH_KD * (r->angular ? TB_JOINT_ANGULAR_DAMPING_SCALE : 1.0f);
      switch (r->kind) {
        case TB_ROW_EQUAL: f = -(TB_JOINT_ATTACH_KE * r->error + kd * cdot); break;
        case TB_ROW_LIMIT:
          if (r->error < 0.0f) f = -(TB_JOINT_ATTACH_KE * r->error + kd * cdot);
          if (f < 0.0f) f = 0.0f;
          break;
        case TB_ROW_MOTOR:
          f = tb_clampf(-TB_JOINT_ATTACH_KD * (cdot - r->target), -r->max_force, r->max_force);
          j->state[s].motor_force += f * hs; /* N·s until the readback */
          break;
        case TB_ROW_SPRING:
          f = -(r->stiffness * r->error + r->damping * cdot);
          tb_solver_note_spring(w, s, hs, r->stiffness, r->damping, inv_mass_of(d, r, a, b));
          break;
        default: break;
      }
      if (f != 0.0f) apply_row(d, r, a, b, f, 1.0f, 1.0f, f_imp);
    }
    for (int i = 0; i < 6; ++i) imp[i] += f_imp[i] * hs;
  }
}

void tb_newton_joints_readback(tb_world* w, const tb_newton_data* d, float h) {
  tb_joints* j = &w->joints;
  const float inv_h = 1.0f / h;
  for (int32_t s = 0; s < j->count; ++s) {
    if (j->def[s].type < 0 || j->state[s].broken) continue;
    int32_t a = side_body(d, j->slot0[s]), b = side_body(d, j->slot1[s]);
    if (!movable(d, a) && !movable(d, b)) continue;
    const float* imp = j->impulse + 6 * s;
    tb_joint_state* st = &j->state[s];
    tb_transform p0, p1, f0, f1;
    tb_vec3 c0, c1;
    side_pose(w, d, j->slot0[s], a, &p0, &c0);
    side_pose(w, d, j->slot1[s], b, &p1, &c1);
    tb_joint_world_frames(&j->def[s], p0, p1, &f0, &f1);
    tb_vec3 at = b >= 0 ? c1 : f1.p;
    st->convention = TB_READBACK_NEWTON;
    st->valid = 1;
    st->motor_force *= inv_h;
    for (int i = 0; i < 3; ++i) {
      st->wrench.force[i] = imp[i] * inv_h;
      st->wrench.torque[i] = imp[3 + i] * inv_h;
    }
    st->wrench.point[0] = at.x; st->wrench.point[1] = at.y; st->wrench.point[2] = at.z;
    float fl = tb_length(tb_v3(st->wrench.force[0], st->wrench.force[1], st->wrench.force[2]));
    float tl = tb_length(tb_v3(st->wrench.torque[0], st->wrench.torque[1], st->wrench.torque[2]));
    if (fl > j->def[s].break_force || tl > j->def[s].break_torque) st->broken = 1;
  }
}
