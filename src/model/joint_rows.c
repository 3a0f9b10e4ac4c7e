/* Joint kinematics: world frames, coordinates and the scalar rows every solver family uses
 * (PhysX rows with velocity bias, XPBD positional corrections, penalty springs). */
#include "joint_rows.h"

#define TB_JOINT_MIN_LENGTH 1e-6f /* m: a distance joint shorter than this keeps frame0's x axis as its line */

static tb_transform frame_of(const float* position, const float* rotation) {
  tb_transform t = {{position[0], position[1], position[2]}, {rotation[0], rotation[1], rotation[2], rotation[3]}};
  return t;
}

void tb_joint_world_frames(const tb_joint_def* def, tb_transform body0, tb_transform body1, tb_transform* f0,
                           tb_transform* f1) {
  *f0 = tb_transform_mul(body0, frame_of(def->position0, def->rotation0));
  *f1 = tb_transform_mul(body1, frame_of(def->position1, def->rotation1));
}

static tb_vec3 axis_x(tb_quat q) { return tb_rotate(q, tb_v3(1, 0, 0)); }
static tb_vec3 axis_y(tb_quat q) { return tb_rotate(q, tb_v3(0, 1, 0)); }
static tb_vec3 axis_z(tb_quat q) { return tb_rotate(q, tb_v3(0, 0, 1)); }

/* Relative rotation of frame1 in frame0, with w >= 0 (the short way round). */
static tb_quat relative(tb_transform f0, tb_transform f1) {
  tb_quat r = tb_quat_mul(tb_quat_conj(f0.q), f1.q);
  if (r.w < 0.0f) r = (tb_quat){-r.x, -r.y, -r.z, -r.w};
  return r;
}

static float revolute_angle(tb_transform f0, tb_transform f1) {
  tb_vec3 y1 = axis_y(f1.q);
  return atan2f(tb_dot(y1, axis_z(f0.q)), tb_dot(y1, axis_y(f0.q)));
}

/* Twist of frame1 about frame0's x axis (swing-twist decomposition), rad in (−π, π]. */
static float twist_angle(tb_transform f0, tb_transform f1) {
  tb_quat r = relative(f0, f1);
  if (r.x == 0.0f && r.w == 0.0f) return TB_PI;
  return 2.0f * atan2f(r.x, r.w);
}

float tb_joint_coordinate(const tb_joint_def* def, tb_transform f0, tb_transform f1) {
  tb_vec3 d = tb_sub(f1.p, f0.p);
  switch (def->type) {
    case TB_JOINT_REVOLUTE: return revolute_angle(f0, f1);
    case TB_JOINT_PRISMATIC: return tb_dot(d, axis_x(f0.q));
    case TB_JOINT_DISTANCE: return tb_length(d);
    case TB_JOINT_SPHERICAL: return twist_angle(f0, f1);
    default: return 0.0f;
  }
}

static tb_joint_row linear_row(int32_t kind, tb_vec3 dir, tb_vec3 r0, tb_vec3 r1, float error) {
  tb_joint_row r = {0};
  r.kind = kind;
  r.lin = dir;
  r.ang0 = tb_cross(r0, dir);
  r.ang1 = tb_cross(r1, dir);
  r.error = error;
  return r;
}

static tb_joint_row angular_row(int32_t kind, tb_vec3 axis, float error) {
  tb_joint_row r = {0};
  r.kind = kind;
  r.angular = 1;
  r.ang0 = r.ang1 = axis;
  r.error = error;
  return r;
}

static tb_joint_row negated(tb_joint_row r) {
  r.lin = tb_neg(r.lin);
  r.ang0 = tb_neg(r.ang0);
  r.ang1 = tb_neg(r.ang1);
  return r;
}

/* Lower and upper limit rows of a coordinate q with rate row `axis`: q − lower >= 0 and
 * upper − q >= 0 (the second along −axis). */
static int32_t limit_rows(const tb_joint_def* def, tb_joint_row axis, float q, tb_joint_row* rows) {
  tb_joint_row lo = axis, hi = negated(axis);
  lo.kind = hi.kind = TB_ROW_LIMIT;
  lo.error = q - def->lower;
  hi.error = def->upper - q;
  rows[0] = lo;
  rows[1] = hi;
  return 2;
}

int tb_joint_axis_row(const tb_joint_def* def, tb_transform f0, tb_transform f1, tb_vec3 c0, tb_vec3 c1,
                      tb_joint_row* row) {
  tb_vec3 d = tb_sub(f1.p, f0.p);
  tb_vec3 r0 = tb_sub(f0.p, c0), r1 = tb_sub(f1.p, c1);
  tb_vec3 a = axis_x(f0.q);
  switch (def->type) {
    case TB_JOINT_REVOLUTE: *row = angular_row(TB_ROW_EQUAL, a, revolute_angle(f0, f1)); return 1;
    case TB_JOINT_PRISMATIC: *row = linear_row(TB_ROW_EQUAL, a, tb_add(r0, d), r1, tb_dot(d, a)); return 1;
    case TB_JOINT_DISTANCE: {
      float len = tb_length(d);
      tb_vec3 n = len > TB_JOINT_MIN_LENGTH ? tb_scale(d, 1.0f / len) : a;
      *row = linear_row(TB_ROW_EQUAL, n, r0, r1, len);
      return 1;
    }
    default: return 0;
  }
}

/* Three rows making the origins coincide, along frame0's axes (as Newton's locked linear axes). */
static int32_t point_rows(tb_quat q0, tb_vec3 d, tb_vec3 r0, tb_vec3 r1, tb_joint_row* rows) {
  const tb_vec3 e[3] = {axis_x(q0), axis_y(q0), axis_z(q0)};
  for (int i = 0; i < 3; ++i) rows[i] = linear_row(TB_ROW_EQUAL, e[i], r0, r1, tb_dot(d, e[i]));
  return 3;
}

/* Three rows making the rotations equal: the rotation vector 2·vec(q1 q0⁻¹) (small-angle) on
 * world axes. */
static int32_t lock_rows(tb_transform f0, tb_transform f1, tb_joint_row* rows) {
  tb_quat e = tb_quat_mul(f1.q, tb_quat_conj(f0.q));
  float s = e.w < 0.0f ? -2.0f : 2.0f;
  const tb_vec3 err = {s * e.x, s * e.y, s * e.z};
  const tb_vec3 ax[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int i = 0; i < 3; ++i) rows[i] = angular_row(TB_ROW_EQUAL, ax[i], tb_dot(err, ax[i]));
  return 3;
}

static int32_t motor_row(const tb_joint_def* def, tb_joint_row axis, tb_joint_row* rows) {
  axis.kind = TB_ROW_MOTOR;
  axis.error = 0.0f;
  axis.target = def->motor_speed;
  axis.max_force = def->max_motor_force;
  rows[0] = axis;
  return 1;
}

int32_t tb_joint_build_rows(const tb_joint_def* def, tb_transform f0, tb_transform f1, tb_vec3 c0, tb_vec3 c1,
                            tb_joint_row* rows) {
  tb_vec3 d = tb_sub(f1.p, f0.p);
  tb_vec3 r0 = tb_sub(f0.p, c0), r1 = tb_sub(f1.p, c1);
  tb_vec3 a0 = axis_x(f0.q), u0 = axis_y(f0.q), v0 = axis_z(f0.q);
  tb_joint_row axis;
  int32_t n = 0;
  switch (def->type) {
    case TB_JOINT_REVOLUTE: {
      n += point_rows(f0.q, d, r0, r1, rows);
      /* x axes parallel: the components of a0 × a1 across the hinge */
      tb_vec3 c = tb_cross(a0, axis_x(f1.q));
      rows[n++] = angular_row(TB_ROW_EQUAL, u0, tb_dot(c, u0));
      rows[n++] = angular_row(TB_ROW_EQUAL, v0, tb_dot(c, v0));
      tb_joint_axis_row(def, f0, f1, c0, c1, &axis);
      if (def->enable_limit) n += limit_rows(def, axis, axis.error, rows + n);
      if (def->enable_motor) n += motor_row(def, axis, rows + n);
      return n;
    }
    case TB_JOINT_PRISMATIC: {
      /* frame1's origin on frame0's x axis: the offsets along y and z, levers from body0's
       * centre of mass to frame1's origin (the slide moves the line) */
      tb_vec3 rd = tb_add(r0, d);
      rows[n++] = linear_row(TB_ROW_EQUAL, u0, rd, r1, tb_dot(d, u0));
      rows[n++] = linear_row(TB_ROW_EQUAL, v0, rd, r1, tb_dot(d, v0));
      n += lock_rows(f0, f1, rows + n);
      tb_joint_axis_row(def, f0, f1, c0, c1, &axis);
      if (def->enable_limit) n += limit_rows(def, axis, axis.error, rows + n);
      if (def->enable_motor) n += motor_row(def, axis, rows + n);
      return n;
    }
    case TB_JOINT_SPHERICAL: {
      n += point_rows(f0.q, d, r0, r1, rows);
      if (!def->enable_limit) return n;
      tb_vec3 a1 = axis_x(f1.q);
      tb_vec3 c = tb_cross(a0, a1);
      float sl = tb_length(c);
      if (def->cone_angle < TB_PI && sl > 1e-6f) {
        /* swing φ of a1 from a0 grows along n = a0 × a1 / |a0 × a1|: cone − φ >= 0 */
        float phi = atan2f(sl, tb_dot(a0, a1));
        rows[n++] = angular_row(TB_ROW_LIMIT, tb_scale(c, -1.0f / sl), def->cone_angle - phi);
      }
      if (def->lower > -TB_PI || def->upper < TB_PI) {
        /* twist about the mean of the two x axes */
        tb_vec3 t = tb_normalize(tb_add(a0, a1));
        n += limit_rows(def, angular_row(TB_ROW_EQUAL, t, 0.0f), twist_angle(f0, f1), rows + n);
      }
      return n;
    }
    case TB_JOINT_FIXED:
      n += point_rows(f0.q, d, r0, r1, rows);
      n += lock_rows(f0, f1, rows + n);
      return n;
    case TB_JOINT_DISTANCE: {
      tb_joint_axis_row(def, f0, f1, c0, c1, &axis);
      float len = axis.error;
      if (def->stiffness > 0.0f) {
        tb_joint_row s = axis;
        s.kind = TB_ROW_SPRING;
        s.error = len - def->length;
        s.stiffness = def->stiffness;
        s.damping = def->damping;
        rows[n++] = s;
      } else if (!def->enable_limit) {
        axis.error = len - def->length;
        rows[n++] = axis;
        return n;
      }
      if (def->enable_limit) n += limit_rows(def, axis, len, rows + n);
      return n;
    }
    default: return 0;
  }
}

void tb_joint_row_accumulate(const tb_joint_row* r, float lambda, int side, float* imp) {
  tb_vec3 l = side ? r->lin : tb_neg(r->lin);
  tb_vec3 a = side ? r->ang1 : tb_neg(r->ang0);
  imp[0] += l.x * lambda; imp[1] += l.y * lambda; imp[2] += l.z * lambda;
  imp[3] += a.x * lambda; imp[4] += a.y * lambda; imp[5] += a.z * lambda;
}
