/* Joint kinematics shared by every solver family (internal): the world frames of a joint, its
 * coordinate (angle, slide, length) and its scalar constraint rows at given poses.
 *
 * A row is a scalar function C of the two poses with the rate
 *   Ċ = lin·v1 + ang1·ω1 − lin·v0 − ang0·ω0
 * (v, ω of the centres of mass, world). An impulse λ along the row gives body1 (lin·λ, ang1·λ)
 * and body0 (−lin·λ, −ang0·λ): linear N·s, angular N·m·s about each centre of mass. */
#ifndef TB_JOINT_ROWS_H
#define TB_JOINT_ROWS_H

#include "../world/world.h"

#define TB_JOINT_MAX_ROWS 8

typedef enum tb_joint_row_kind {
  TB_ROW_EQUAL,  /* C = 0, λ free */
  TB_ROW_LIMIT,  /* C >= 0, λ >= 0 (limits and the spherical cone) */
  TB_ROW_MOTOR,  /* Ċ = target, |λ| <= max force·h */
  TB_ROW_SPRING  /* force −(k·C + c·Ċ) (distance spring) */
} tb_joint_row_kind;

typedef struct tb_joint_row {
  int32_t kind;      /* tb_joint_row_kind */
  int32_t angular;   /* 1 for a purely angular row (lin = 0): unit N·m, rad */
  tb_vec3 lin;       /* 1: unit direction on body1 (zero for angular rows) */
  tb_vec3 ang0, ang1;/* m (linear rows: lever × direction) or 1 (angular rows) */
  float error;       /* C: m or rad */
  float target;      /* motor: Ċ target, m/s or rad/s */
  float max_force;   /* motor: N or N·m */
  float stiffness, damping; /* spring: N/m, N·s/m */
} tb_joint_row;

/* The two frames of a joint in world coordinates, from each body's origin pose (identity for the
 * world side). */
void tb_joint_world_frames(const tb_joint_def* def, tb_transform body0, tb_transform body1, tb_transform* f0,
                           tb_transform* f1);
/* Joint coordinate at world frames f0, f1: revolute θ (rad, (−π, π]), prismatic s (m), distance
 * |p1 − p0| (m), spherical twist (rad), fixed 0. */
float tb_joint_coordinate(const tb_joint_def* def, tb_transform f0, tb_transform f1);
/* The rows of a joint at world frames f0, f1 with centres of mass c0, c1 (the world side: its
 * frame origin). Limits and motors are included when enabled. Returns the row count. */
int32_t tb_joint_build_rows(const tb_joint_def* def, tb_transform f0, tb_transform f1, tb_vec3 c0, tb_vec3 c1,
                            tb_joint_row* rows);
/* The row along the joint's own degree of freedom (revolute and prismatic axis, distance line),
 * for its speed; 0 for the other types. */
int tb_joint_axis_row(const tb_joint_def* def, tb_transform f0, tb_transform f1, tb_vec3 c0, tb_vec3 c1,
                      tb_joint_row* row);
/* Ċ of a row for body velocities (the world side: zeros). */
static inline float tb_joint_row_rate(const tb_joint_row* r, tb_vec3 v0, tb_vec3 w0, tb_vec3 v1, tb_vec3 w1) {
  return tb_dot(r->lin, tb_sub(v1, v0)) + tb_dot(r->ang1, w1) - tb_dot(r->ang0, w0);
}

/* Accumulates a row impulse λ into the step totals of a joint: imp[0..2] the linear impulse on
 * body1 (N·s), imp[3..5] on body1 about its centre of mass (N·m·s), for the Newton readback; or,
 * with side 0, body0's (−lin·λ, −ang0·λ) for the PhysX readback. */
void tb_joint_row_accumulate(const tb_joint_row* r, float lambda, int side, float* imp);

#endif
