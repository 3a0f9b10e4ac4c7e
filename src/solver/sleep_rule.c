/* The sleep rule of one body (solver.sleep.mode, see island.c's header): the Genesis count of steps
 * at rest against velocity_threshold over the body's sweep radius, and the PhysX wake counter with
 * its accumulated mass-normalised energy against the threshold scaled by the body's cluster
 * factor. Both read the step's motion velocity: the pose change over the step from the pose saved
 * before the solve (w->backup). */
#include <math.h>
#include <string.h>

#include "../geometry/hull.h"
#include "island.h"

/* Genesis dof_length of the rotational DOFs: the largest distance (m) from the centre of mass
 * to a point of the body's shapes. */
static float sweep_radius(const tb_world* w, int32_t body) {
  const tb_shapes* s = &w->shapes;
  float r = 0.0f;
  for (int32_t i = w->bodies.first_shape[body]; i >= 0; i = s->next[i]) {
    const float* p = &s->params[4 * i];
    tb_vec3 c = s->local[i].p;
    float extent;
    switch (s->type[i]) {
      case TB_SHAPE_SPHERE: extent = p[0]; break;
      case TB_SHAPE_CAPSULE: extent = p[0] + p[1]; break;
      case TB_SHAPE_BOX: extent = sqrtf(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]); break;
      case TB_SHAPE_CYLINDER: extent = sqrtf(p[0] * p[0] + p[1] * p[1]); break;
      case TB_SHAPE_ELLIPSOID: extent = fmaxf(p[0], fmaxf(p[1], p[2])); break;
      case TB_SHAPE_HULL: {
        const tb_hull* h = (const tb_hull*)s->data[i];
        c = tb_transform_point(s->local[i], h->centroid);
        extent = h->radius;
        break;
      }
      default: { /* bounds of the shape at its current pose */
        tb_vec3 lo = s->aabb_lower[i], hi = s->aabb_upper[i];
        extent = 0.5f * tb_length(tb_sub(hi, lo));
        break;
      }
    }
    float d = tb_length(tb_sub(c, w->bodies.local_center[body])) + extent;
    if (d > r) r = d;
  }
  return r;
}

/* The step's motion velocity of body i (PhysX's motionVelocity): the centre of mass's
 * displacement over the step (m/s) and the rotation vector of its orientation change (rad/s),
 * world axes, from the pose saved before the solve (w->backup). The PGS solvers integrate the
 * poses with the velocities of the position iterations and leave other velocities after the
 * velocity iterations; what the body did is what decides whether it rests. */
static void motion_velocity(const tb_world* w, int32_t i, float dt, tb_vec3* v, tb_vec3* omega) {
  const tb_bodies* b = &w->bodies;
  const float* t0 = w->backup + 13 * i;
  const float* t1 = b->f.transform + 7 * i;
  tb_quat q0 = {t0[3], t0[4], t0[5], t0[6]}, q1 = {t1[3], t1[4], t1[5], t1[6]};
  tb_vec3 c0 = tb_add(tb_v3(t0[0], t0[1], t0[2]), tb_rotate(q0, b->local_center[i]));
  tb_vec3 c1 = tb_add(tb_v3(t1[0], t1[1], t1[2]), tb_rotate(q1, b->local_center[i]));
  float inv_dt = 1.0f / dt;
  *v = tb_scale(tb_sub(c1, c0), inv_dt);
  tb_quat dq = tb_quat_mul(q1, tb_quat_conj(q0));
  if (dq.w < 0.0f) { dq.x = -dq.x; dq.y = -dq.y; dq.z = -dq.z; dq.w = -dq.w; }
  tb_vec3 axis = tb_v3(dq.x, dq.y, dq.z);
  float s = tb_length(axis);
  float angle = 2.0f * atan2f(s, dq.w);
  *omega = s > 0.0f ? tb_scale(axis, angle / s * inv_dt) : tb_v3(0, 0, 0);
}

static int genesis_ready(tb_world* w, int32_t i, float dt) {
  tb_vec3 lv, av;
  motion_velocity(w, i, dt, &lv, &av);
  const float v[3] = {lv.x, lv.y, lv.z}, a[3] = {av.x, av.y, av.z};
  float r = sweep_radius(w, i), m = 0.0f;
  for (int k = 0; k < 3; ++k) m = fmaxf(m, fmaxf(fabsf(v[k]), r * fabsf(a[k])));
  return m < w->def.solver.sleep.velocity_threshold;
}

/* PhysX's counted interactions of every dynamic body (Sc::BodySim numCountedInteractions): one per
 * shape pair the broad phase kept after filtering, triggers excluded (a PhysX ShapeInteraction,
 * touching or not), and one per joint (onConstraintAttach). Sleeping bodies' pairs count too. */
void tb_sleep_rule_count_interactions(tb_world* w) {
  tb_bodies* b = &w->bodies;
  const tb_shapes* sh = &w->shapes;
  memset(b->counted_interactions, 0, (size_t)b->count * sizeof(int32_t));
  for (int32_t m = 0; m < w->pair_count; ++m) {
    if (!(w->pairs[m].flags & TB_PAIR_SOLVE)) continue;
    int32_t b0 = sh->body[w->pairs[m].shape0], b1 = sh->body[w->pairs[m].shape1];
    if (b->f.body_type[b0] == TB_BODY_DYNAMIC) b->counted_interactions[b0]++;
    if (b->f.body_type[b1] == TB_BODY_DYNAMIC) b->counted_interactions[b1]++;
  }
  const tb_joints* jt = &w->joints;
  for (int32_t j = 0; j < jt->count; ++j) {
    if (jt->def[j].type < 0) continue;
    int32_t s0 = jt->slot0[j], s1 = jt->slot1[j];
    if (s0 >= 0 && b->f.body_type[s0] == TB_BODY_DYNAMIC) b->counted_interactions[s0]++;
    if (s1 >= 0 && b->f.body_type[s1] == TB_BODY_DYNAMIC) b->counted_interactions[s1]++;
  }
}

/* PhysX Dy::updateWakeCounter (DySleep.cpp, without stabilization): while the counter is below
 * half its reset value (or below one step) the step's velocity (angular in body axes) is added to
 * the body's accumulators; the accumulated mass-normalised energy ½(|Σv|² + Σω_bᵀ I Σω_b / m)
 * (m²/s²) at or above c·threshold, with the cluster factor c = 1 + counted interactions ("more
 * contacts, a higher sleep threshold"), sets the counter to min(E / (c·threshold), 2)·½·reset +
 * dt·(c − 1) and clears them; otherwise the counter runs down by dt. */
static void physx_counter(tb_world* w, int32_t i, float dt) {
  tb_bodies* b = &w->bodies;
  const tb_sleep_params* p = &w->def.solver.sleep;
  float wc = b->wake_counter[i];
  float* acc = b->sleep_velocity + 6 * i;
  if (wc < 0.5f * p->wake_counter || wc < dt) {
    tb_vec3 lv, av;
    motion_velocity(w, i, dt, &lv, &av);
    const float v[3] = {lv.x, lv.y, lv.z};
    tb_quat q = {b->f.transform[7 * i + 3], b->f.transform[7 * i + 4], b->f.transform[7 * i + 5], b->f.transform[7 * i + 6]};
    tb_vec3 wb = tb_inv_rotate(q, av); /* body axes */
    for (int k = 0; k < 3; ++k) acc[k] += v[k];
    acc[3] += wb.x; acc[4] += wb.y; acc[5] += wb.z;
    float inv_m = b->inv_mass[i] > 0.0f ? b->inv_mass[i] : 1.0f;
    tb_vec3 lin = tb_v3(acc[0], acc[1], acc[2]), ang = tb_v3(acc[3], acc[4], acc[5]);
    float e = 0.5f * (tb_dot(ang, tb_mat3_mul_v(b->inertia_local[i], ang)) * inv_m + tb_dot(lin, lin));
    float cluster = (float)(1 + b->counted_interactions[i]);
    float threshold = cluster * p->energy_threshold;
    if (e >= threshold) {
      memset(acc, 0, 6 * sizeof(float));
      float factor = threshold == 0.0f ? 2.0f : fminf(e / threshold, 2.0f);
      b->wake_counter[i] = factor * 0.5f * p->wake_counter + dt * (cluster - 1.0f);
      return;
    }
  }
  b->wake_counter[i] = fmaxf(wc - dt, 0.0f);
}

void tb_sleep_rule_body(tb_world* w, int32_t i, float dt) {
  tb_bodies* b = &w->bodies;
  if (w->def.solver.sleep.mode == TB_SLEEP_GENESIS) b->sleep_steps[i] = genesis_ready(w, i, dt) ? b->sleep_steps[i] + 1 : 0;
  else physx_counter(w, i, dt);
}
