/* Public API of joints: definition defaults and checks, lifecycle, the joints of a body (removed
 * with it), state and reaction readback. The solvers read the joint store (world.h) in their
 * stages (src/solver/joint_physx.c, joint_newton.c); kinematics in src/model/joint_rows.c. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "../model/joint_rows.h"
#include "api.h"


void tb_joint_default_def_into(tb_joint_def* out) {
  memset(out, 0, sizeof *out);
  out->type = TB_JOINT_REVOLUTE;
  out->body0 = out->body1 = TB_WORLD_BODY;
  out->rotation0[3] = out->rotation1[3] = 1.0f;
  out->lower = -TB_PI;
  out->upper = TB_PI;
  out->cone_angle = TB_PI;
  out->length = 1.0f;
  out->break_force = INFINITY;
  out->break_torque = INFINITY;
}

/* Body slot of a joint side: -1 for the world; -2 (failed, message set) for a bad id. */
static int32_t side_slot(tb_world* w, const char* fn, tb_body_id id, const char* field) {
  if (id == TB_WORLD_BODY) return -1;
  int32_t slot = tb_body_slot_of(w, id);
  if (slot < 0) return tb_id_fail(w, tb_body_id_state(w, id), fn, field, id), -2;
  return slot;
}

static tb_status check_number(tb_world* w, const char* fn, const char* field, float v, float lo, float hi, int lo_open) {
  if (!tb_is_finite(v) && !(v == INFINITY && hi == INFINITY))
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s must be finite (got %g)", fn, field, (double)v);
  if (v < lo || (lo_open && v == lo) || v > hi)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s must be in %s%g, %g] (got %g)", fn, field, lo_open ? "(" : "[",
                         (double)lo, (double)hi, (double)v);
  return TB_OK;
}

tb_status tb_joint_check_def(tb_world* w, const char* fn, const tb_joint_def* d, int32_t* s0, int32_t* s1) {
  tb_status st;
  if (!d) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: def must not be NULL", fn);
  if ((st = tb_check_enum(w, fn, "type", d->type, TB_JOINT_TYPE_COUNT)) != TB_OK) return st;
  *s0 = side_slot(w, fn, d->body0, "body0");
  if (*s0 == -2) return TB_ERR_NOT_FOUND;
  *s1 = side_slot(w, fn, d->body1, "body1");
  if (*s1 == -2) return TB_ERR_NOT_FOUND;
  if (*s0 < 0 && *s1 < 0) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: body0 and body1 are both the world (-1)", fn);
  if (*s0 == *s1) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: body %d is joined to itself (body0 = body1)", fn, d->body0);
  if (!tb_check_finite(w, fn, "position0", d->position0, 3) || !tb_check_quat(w, fn, "rotation0", d->rotation0) ||
      !tb_check_finite(w, fn, "position1", d->position1, 3) || !tb_check_quat(w, fn, "rotation1", d->rotation1))
    return TB_ERR_INVALID_ARGUMENT;
  const int32_t flags[3] = {d->collide_connected, d->enable_limit, d->enable_motor};
  const char* flag_names[3] = {"collideConnected", "enableLimit", "enableMotor"};
  for (int i = 0; i < 3; ++i)
    if (flags[i] != 0 && flags[i] != 1)
      return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s must be 0 or 1 (got %d)", fn, flag_names[i], flags[i]);
  int angular = d->type == TB_JOINT_REVOLUTE || d->type == TB_JOINT_SPHERICAL;
  float lo = angular ? -TB_PI : (d->type == TB_JOINT_DISTANCE ? 0.0f : -INFINITY);
  float hi = angular ? TB_PI : INFINITY;
  if (!tb_is_finite(d->lower) || !tb_is_finite(d->upper))
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: lower and upper must be finite (got %g, %g)", fn, (double)d->lower, (double)d->upper);
  if (d->lower > d->upper)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: lower must be <= upper (got lower %g > upper %g)", fn, (double)d->lower,
                         (double)d->upper);
  if (d->enable_limit) {
    if ((st = check_number(w, fn, "lower", d->lower, lo, hi, 0)) != TB_OK) return st;
    if ((st = check_number(w, fn, "upper", d->upper, lo, hi, 0)) != TB_OK) return st;
  }
  if ((st = check_number(w, fn, "coneAngle", d->cone_angle, 0.0f, TB_PI, 1)) != TB_OK) return st;
  if (!tb_is_finite(d->motor_speed))
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: motorSpeed must be finite (got %g)", fn, (double)d->motor_speed);
  if ((st = check_number(w, fn, "maxMotorForce", d->max_motor_force, 0.0f, INFINITY, 0)) != TB_OK) return st;
  /* the distance joint's numbers finite (Infinity made every solver's step non-finite), the spring's
   * stiffness 0 (rigid) or with a finite inverse: XPBD's compliance is 1/k */
  if ((st = check_number(w, fn, "length", d->length, 0.0f, FLT_MAX, 0)) != TB_OK) return st;
  if ((st = check_number(w, fn, "stiffness", d->stiffness, 0.0f, FLT_MAX, 0)) != TB_OK) return st;
  if ((st = check_number(w, fn, "damping", d->damping, 0.0f, FLT_MAX, 0)) != TB_OK) return st;
  if (d->stiffness > 0.0f && !tb_is_finite(1.0f / d->stiffness))
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: stiffness must be 0 or have a finite inverse (>= 3e-39 N/m) (got %g)", fn,
                         (double)d->stiffness);
  if ((st = check_number(w, fn, "breakForce", d->break_force, 0.0f, INFINITY, 1)) != TB_OK) return st;
  if ((st = check_number(w, fn, "breakTorque", d->break_torque, 0.0f, INFINITY, 1)) != TB_OK) return st;
  return TB_OK;
}

/* The filter's list of joined body pairs without collision: the pair is in it while any live
 * joint between the two bodies has collide_connected = 0. */
static tb_status update_joint_pair(tb_world* w, int32_t a, int32_t b, const char* fn) {
  if (a < 0 || b < 0) return TB_OK;
  const tb_joints* j = &w->joints;
  int on = 0;
  for (int32_t i = 0; i < j->count && !on; ++i) {
    if (j->def[i].type < 0 || j->def[i].collide_connected) continue;
    on = (j->slot0[i] == a && j->slot1[i] == b) || (j->slot0[i] == b && j->slot1[i] == a);
  }
  w->collided = 0;
  return tb_pair_keys_set(w, &w->joint_pairs, tb_slot_pair_key(a, b), on, NULL, fn);
}

tb_joint_id tb_joint_create(tb_world_id world, const tb_joint_def* def) {
  tb_world* w = tb_world_get(world);
  if (!w) return -tb_world_fail(NULL, TB_ERR_NOT_FOUND, "addJoint: world %d does not exist", world);
  int32_t s0 = -1, s1 = -1;
  tb_status st = tb_joint_check_def(w, "addJoint", def, &s0, &s1);
  if (st != TB_OK) return -st;
  tb_joints* j = &w->joints;
  /* room first (slot and filter pair), so a failure leaves the world unchanged */
  if (j->free_head < 0 && j->count == j->capacity && !tb_joints_grow(j, j->capacity > 0 ? 2 * j->capacity : 16))
    return -tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "addJoint: out of memory for %d joints", j->count + 1);
  if (!tb_pair_keys_reserve(&w->joint_pairs, w->joint_pairs.count + 1, 0))
    return -tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "addJoint: out of memory for the joint filter");
  int32_t slot;
  if (j->free_head >= 0) {
    slot = j->free_head;
    j->free_head = j->next_free[slot];
  } else {
    if (j->count >= TB_ID_INDEX_MASK) return -tb_world_fail(w, TB_ERR_CAPACITY, "addJoint: at most %d joints", TB_ID_INDEX_MASK);
    slot = j->count++;
    j->generation[slot] = w->id_salt;
  }
  j->def[slot] = *def;
  /* rotations as unit quaternions, like body rotations */
  float* rq[2] = {j->def[slot].rotation0, j->def[slot].rotation1};
  for (int k = 0; k < 2; ++k) {
    tb_quat q = tb_quat_normalize((tb_quat){rq[k][0], rq[k][1], rq[k][2], rq[k][3]});
    rq[k][0] = q.x; rq[k][1] = q.y; rq[k][2] = q.z; rq[k][3] = q.w;
  }
  j->slot0[slot] = s0;
  j->slot1[slot] = s1;
  j->next_free[slot] = -1;
  memset(&j->state[slot], 0, sizeof j->state[slot]);
  j->state[slot].type = def->type;
  memset(j->impulse + 6 * slot, 0, 6 * sizeof(float));
  j->live++;
  update_joint_pair(w, s0, s1, "addJoint"); /* cannot fail: room reserved above */
  tb_undo_forget(w); /* a discard of the last body created would leave this joint on its freed slot */
  return tb_make_id(slot, j->generation[slot]);
}

static void joint_free(tb_world* w, int32_t slot) {
  tb_joints* j = &w->joints;
  int32_t a = j->slot0[slot], b = j->slot1[slot];
  j->def[slot].type = -1;
  j->next_free[slot] = -1;
  if (tb_slot_release(&j->generation[slot], w->id_salt)) { /* else retired: never reused */
    j->next_free[slot] = j->free_head;
    j->free_head = slot;
  }
  j->live--;
  update_joint_pair(w, a, b, "removeJoint"); /* removing a key never allocates */
}

tb_status tb_joint_destroy(tb_world_id world, tb_joint_id joint) {
  GET_WORLD("removeJoint");
  int32_t slot = tb_joint_slot_checked(w, joint, "removeJoint");
  if (slot < 0) return TB_ERR_NOT_FOUND;
  joint_free(w, slot);
  return TB_OK;
}

int32_t tb_joint_alive(tb_world_id world, tb_joint_id joint) {
  tb_world* w = tb_world_get(world);
  return w && tb_joint_slot_of(w, joint) >= 0;
}

tb_status tb_joint_get_def(tb_world_id world, tb_joint_id joint, tb_joint_def* out) {
  GET_WORLD("getJoint");
  int32_t slot = tb_joint_slot_checked(w, joint, "getJoint");
  if (slot < 0) return TB_ERR_NOT_FOUND;
  if (!out) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "getJoint: out must not be NULL");
  *out = w->joints.def[slot];
  return TB_OK;
}

#define ALL_BODIES (-2) /* joints_of: every joint */

/* Joints of body slot b (every joint for ALL_BODIES) into out (up to capacity); returns how many
 * there are. */
static int32_t joints_of(const tb_world* w, int32_t b, tb_joint_id* out, int32_t capacity) {
  const tb_joints* j = &w->joints;
  int32_t n = 0;
  for (int32_t i = 0; i < j->count; ++i) {
    if (j->def[i].type < 0 || (b != ALL_BODIES && j->slot0[i] != b && j->slot1[i] != b)) continue;
    if (out && n < capacity) out[n] = tb_make_id(i, j->generation[i]);
    ++n;
  }
  return n;
}

/* The listing calls: count only with out = NULL, else all of them or TB_ERR_CAPACITY. */
static int32_t list_joints(tb_world* w, const char* fn, int32_t b, tb_joint_id* out, int32_t capacity) {
  if (capacity < 0 || (capacity > 0 && !out))
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: capacity must be >= 0 with a non-NULL out (got %d)", fn, capacity);
  int32_t n = joints_of(w, b, NULL, 0);
  if (out && n > capacity) return -tb_world_fail(w, TB_ERR_CAPACITY, "%s: %d joints, more than capacity %d", fn, n, capacity);
  return joints_of(w, b, out, capacity);
}

int32_t tb_body_get_joints(tb_world_id world, tb_body_id body, tb_joint_id* out, int32_t capacity) {
  tb_world* w = tb_world_get(world);
  if (!w) return -tb_world_fail(NULL, TB_ERR_NOT_FOUND, "jointsOf: world %d does not exist", world);
  int32_t slot = tb_body_slot_checked(w, body, "jointsOf");
  return slot < 0 ? -TB_ERR_NOT_FOUND : list_joints(w, "jointsOf", slot, out, capacity);
}

int32_t tb_world_joints(tb_world_id world, tb_joint_id* out, int32_t capacity) {
  tb_world* w = tb_world_get(world);
  if (!w) return -tb_world_fail(NULL, TB_ERR_NOT_FOUND, "joints: world %d does not exist", world);
  return list_joints(w, "joints", ALL_BODIES, out, capacity);
}

void tb_joints_forget_body(tb_world* w, int32_t body_slot) {
  const tb_joints* j = &w->joints;
  for (int32_t i = 0; i < j->count; ++i)
    if (j->def[i].type >= 0 && (j->slot0[i] == body_slot || j->slot1[i] == body_slot)) joint_free(w, i);
}

int32_t tb_body_destroy_with_joints(tb_world_id world, tb_body_id body, tb_joint_id* out, int32_t capacity) {
  tb_world* w = tb_world_get(world);
  if (!w) return -tb_world_fail(NULL, TB_ERR_NOT_FOUND, "removeBody: world %d does not exist", world);
  int32_t slot = tb_body_slot_checked(w, body, "removeBody");
  if (slot < 0) return -TB_ERR_NOT_FOUND;
  if (capacity < 0 || (capacity > 0 && !out))
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "removeBody: capacity must be >= 0 with a non-NULL out (got %d)", capacity);
  int32_t n = joints_of(w, slot, out, capacity);
  tb_status st = tb_body_destroy(world, body); /* removes the joints too */
  return st == TB_OK ? n : -(int32_t)st;
}

/* World pose of a joint side's body origin and its centre of mass (the world side: identity). */
static void side_pose(const tb_world* w, int32_t slot, tb_transform* pose, tb_vec3* com) {
  if (slot < 0) {
    *pose = (tb_transform){{0, 0, 0}, {0, 0, 0, 1}};
    *com = tb_v3(0, 0, 0);
    return;
  }
  *pose = tb_body_pose(&w->bodies, slot);
  *com = tb_transform_point(*pose, w->bodies.local_center[slot]);
}

static tb_vec3 side_velocity(const tb_world* w, int32_t slot, int angular) {
  if (slot < 0) return tb_v3(0, 0, 0);
  const float* v = (angular ? w->bodies.f.angular_velocity : w->bodies.f.linear_velocity) + 3 * slot;
  return tb_v3(v[0], v[1], v[2]);
}

tb_status tb_joint_get_state(tb_world_id world, tb_joint_id joint, tb_joint_state* out) {
  GET_WORLD("jointState");
  int32_t slot = tb_joint_slot_checked(w, joint, "jointState");
  if (slot < 0) return TB_ERR_NOT_FOUND;
  if (!out) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "jointState: out must not be NULL");
  const tb_joints* j = &w->joints;
  const tb_joint_def* d = &j->def[slot];
  *out = j->state[slot];
  tb_transform p0, p1, f0, f1;
  tb_vec3 c0, c1;
  side_pose(w, j->slot0[slot], &p0, &c0);
  side_pose(w, j->slot1[slot], &p1, &c1);
  tb_joint_world_frames(d, p0, p1, &f0, &f1);
  if (j->slot0[slot] < 0) c0 = f0.p;
  if (j->slot1[slot] < 0) c1 = f1.p;
  out->position = tb_joint_coordinate(d, f0, f1);
  tb_joint_row axis;
  out->speed = tb_joint_axis_row(d, f0, f1, c0, c1, &axis)
                   ? tb_joint_row_rate(&axis, side_velocity(w, j->slot0[slot], 0), side_velocity(w, j->slot0[slot], 1),
                                       side_velocity(w, j->slot1[slot], 0), side_velocity(w, j->slot1[slot], 1))
                   : 0.0f;
  return TB_OK;
}

tb_status tb_joint_wrench(tb_world_id world, tb_joint_id joint, int32_t side, const float point[3], tb_wrench* out) {
  GET_WORLD("jointWrench");
  int32_t slot = tb_joint_slot_checked(w, joint, "jointWrench");
  if (slot < 0) return TB_ERR_NOT_FOUND;
  if (side != 0 && side != 1) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "jointWrench: side must be 0 or 1 (got %d)", side);
  if (!out) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "jointWrench: out must not be NULL");
  if (point && !tb_check_finite(w, "jointWrench", "point", point, 3)) return TB_ERR_INVALID_ARGUMENT;
  const tb_joint_state* s = &w->joints.state[slot];
  if (!s->valid)
    return tb_world_fail(w, TB_ERR_INVALID_STATE, "jointWrench: joint %d has no readback (%s)", joint,
                         s->broken ? "it is broken" : "no solve() since it was created");
  const tb_joint_def* d = &w->joints.def[slot];
  int32_t body = side ? w->joints.slot1[slot] : w->joints.slot0[slot];
  float at[3];
  if (point) {
    memcpy(at, point, sizeof at);
  } else {
    tb_transform p0, p1, f0, f1;
    tb_vec3 c0, c1;
    side_pose(w, w->joints.slot0[slot], &p0, &c0);
    side_pose(w, w->joints.slot1[slot], &p1, &c1);
    tb_joint_world_frames(d, p0, p1, &f0, &f1);
    int fixed = body < 0 || w->bodies.f.body_type[body] == TB_BODY_STATIC;
    tb_vec3 c = fixed ? (side ? f1.p : f0.p) : (side ? c1 : c0);
    at[0] = c.x; at[1] = c.y; at[2] = c.z;
  }
  int reported = s->convention == TB_READBACK_PHYSX ? 0 : 1; /* the side the convention reports */
  tb_status st = reported == side ? tb_wrench_shift(&s->wrench, at, out) : tb_wrench_reaction(&s->wrench, at, out);
  return st == TB_OK ? TB_OK : tb_world_fail(w, st, "jointWrench: %s", tb_last_error(-1));
}
