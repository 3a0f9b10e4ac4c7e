/* Scene helpers shared by the island, sleep, joint and Newton tests: a world of a preset with its
 * sleep mode and thread count, the ground plane, a dynamic box or sphere, the step statistics, a
 * distance or ball joint. Include after test_util.h; a test with world helpers of its own defines
 * TB_TEST_SCENE_JOINTS_ONLY first and gets the joint helpers only. */
#ifndef TB_TEST_SCENE_H
#define TB_TEST_SCENE_H

#include "include/tribo.h"
#include "test_util.h"

#ifndef TB_TEST_SCENE_JOINTS_ONLY
static const float ID_Q[4] = {0, 0, 0, 1};
static const float ZERO[3] = {0, 0, 0};

/* sleep_mode < 0 keeps the preset's sleep mode. */
static inline tb_world_id make_world(tb_preset preset, int sleep_mode, int threads) {
  tb_world_def def = tb_default_world_def();
  CHECK(tb_preset_apply(preset, &def) == TB_OK);
  def.thread_count = threads;
  if (sleep_mode >= 0) def.solver.sleep.mode = sleep_mode;
  tb_world_id w = tb_world_create(&def);
  CHECK(w >= 0);
  tb_world_set_adaptive_threads(w, 0); /* thread-count tests: every step on all threads */
  return w;
}

/* The plane y = 0 on a static body, friction 0.6. */
static inline tb_body_id ground(tb_world_id w) {
  float plane[4] = {0, 1, 0, 0};
  tb_body_id g = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  tb_shape_create(w, g, TB_SHAPE_PLANE, plane, ZERO, ID_Q, 0.6f, 0.0f, 1.0f);
  return g;
}

/* A dynamic cube of half extent h (m) at (x, y, z), density 1000 kg/m³, friction 0.6. */
static inline tb_body_id add_box(tb_world_id w, float x, float y, float z, float h) {
  float p[3] = {x, y, z}, box[4] = {h, h, h, 0};
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, p, ID_Q);
  CHECK(tb_shape_create(w, b, TB_SHAPE_BOX, box, ZERO, ID_Q, 0.6f, 0.0f, 1000.0f) >= 0);
  return b;
}

/* A dynamic sphere of radius r (m) at (x, y, z), density in kg/m³, friction 0.6. */
static inline tb_body_id add_sphere(tb_world_id w, float x, float y, float z, float r, float density) {
  float p[3] = {x, y, z}, sphere[4] = {r, 0, 0, 0};
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, p, ID_Q);
  CHECK(tb_shape_create(w, b, TB_SHAPE_SPHERE, sphere, ZERO, ID_Q, 0.6f, 0.0f, density) >= 0);
  return b;
}

static inline tb_step_stats stats(tb_world_id w) {
  tb_step_stats s;
  CHECK(tb_world_step_stats(w, &s) == TB_OK);
  return s;
}
#endif

/* A rigid distance joint of rest length (m) between the centres of bodies a and b. */
static inline tb_joint_id add_distance_joint(tb_world_id w, tb_body_id a, tb_body_id b, float length) {
  tb_joint_def d;
  tb_joint_default_def_into(&d);
  d.type = TB_JOINT_DISTANCE;
  d.body0 = a;
  d.body1 = b;
  d.length = length;
  tb_joint_id j = tb_joint_create(w, &d);
  CHECK(j >= 0);
  return j;
}

/* A ball (spherical) joint's definition between bodies a and b (either may be TB_WORLD_BODY) at
 * the anchors p0 on a and p1 on b (m, each in its body's frame from the body origin; the world's:
 * world), the other fields at their defaults; add_ball_joint creates it. */
static inline tb_joint_def ball_joint_def(tb_body_id a, tb_body_id b, const float p0[3], const float p1[3]) {
  tb_joint_def d;
  tb_joint_default_def_into(&d);
  d.type = TB_JOINT_SPHERICAL;
  d.body0 = a;
  d.body1 = b;
  for (int i = 0; i < 3; ++i) { d.position0[i] = p0[i]; d.position1[i] = p1[i]; }
  return d;
}

static inline tb_joint_id add_ball_joint(tb_world_id w, tb_body_id a, tb_body_id b, const float p0[3], const float p1[3]) {
  const tb_joint_def d = ball_joint_def(a, b, p0, p1);
  tb_joint_id j = tb_joint_create(w, &d);
  CHECK(j >= 0);
  return j;
}

#endif
