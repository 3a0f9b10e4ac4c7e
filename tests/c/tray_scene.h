/* The loaded tray of test_trajectory and test_physx: a 576 kg plate (2.4 × 0.1 × 2.4 m, 1 000 kg/m³)
 * on the ground carrying a 7 × 7 grid of boxes and spheres (500 kg/m³, slightly turned about y,
 * dropped from 0–2 cm): 50 manifolds share the plate, more than the solver's 24 colours, so about
 * half are solved serially (the overflow colour). Sleep off: every step solves them. Include after
 * test_util.h. */
#ifndef TB_TEST_TRAY_SCENE_H
#define TB_TEST_TRAY_SCENE_H

#include <math.h>

#include "include/tribo.h"
#include "test_util.h"

/* Adds the tray to w (with its ground already there); returns the mass of its 50 bodies (kg). */
static inline double tb_test_tray(tb_world_id w) {
  static const float q0[4] = {0, 0, 0, 1}, o[3] = {0, 0, 0};
  tb_world_def def;
  tb_world_get_def(w, &def);
  def.solver.sleep.mode = TB_SLEEP_OFF;
  CHECK(tb_world_set_solver(w, &def.solver) == TB_OK);
  float plate[4] = {1.2f, 0.05f, 1.2f, 0}, bx[4] = {0.12f, 0.1f, 0.12f, 0}, sp[4] = {0.14f, 0, 0, 0}, mp[13];
  float p0[3] = {0, 0.05f, 0};
  tb_body_id t = tb_body_create(w, TB_BODY_DYNAMIC, p0, q0);
  tb_shape_create(w, t, TB_SHAPE_BOX, plate, o, q0, 0.6f, 0.0f, 1000.0f);
  tb_body_get_mass(w, t, mp);
  double mass = mp[0];
  for (int i = 0; i < 49; ++i) {
    int box = i % 2;
    float p[3] = {-0.96f + 0.32f * (float)(i % 7), 0.1f + (box ? 0.1f : 0.14f) + 0.01f * (float)(i % 3),
                  -0.96f + 0.32f * (float)(i / 7)};
    float q[4] = {0.0f, 0.05f * (float)(i % 4), 0.0f, 1.0f};
    float l = sqrtf(q[1] * q[1] + 1.0f);
    q[1] /= l; q[3] /= l;
    tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, p, q);
    tb_shape_create(w, b, box ? TB_SHAPE_BOX : TB_SHAPE_SPHERE, box ? bx : sp, o, q0, 0.6f, 0.0f, 500.0f);
    tb_body_get_mass(w, b, mp);
    mass += mp[0];
  }
  return mass;
}

#endif
