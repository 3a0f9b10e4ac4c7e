/* Trajectory fingerprints: a mixed pile, a box pyramid, a loaded tray and thrown springy and bouncy
 * bodies in every preset, 300 steps, FNV-1a over the bits of every body transform and every
 * contact's impulses after each step. The expected values were recorded from the engine before the
 * source tree was reorganised (issue 8), the tray's before the solver packed its overflow colour
 * four to a wide (perf27), the springs' before the rows' preparation read four lanes' bodies at once
 * (perf31); any change of behaviour, however small, changes them. A deliberate physics change
 * updates this table in the same commit and says why.
 *
 *   test_trajectory           compare with the table
 *   test_trajectory --print   print the table rows of this build */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "include/tribo.h"
#include "test_util.h"
#include "tray_scene.h"

static const float ID_Q[4] = {0, 0, 0, 1};
static const float ZERO[3] = {0, 0, 0};

typedef struct expected_hash {
  const char* scene;
  tb_preset preset;
  uint32_t hash;
  int steps_ok; /* steps the world accepted (a preset may refuse an unstable step) */
} expected_hash;

static const expected_hash EXPECTED[] = {
#include "trajectory_expected.inc"
};
static const size_t EXPECTED_COUNT = sizeof EXPECTED / sizeof EXPECTED[0];

static uint32_t fnv(uint32_t h, const void* data, size_t n) {
  const unsigned char* b = (const unsigned char*)data;
  for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 16777619u;
  return h;
}

static tb_world_id make_world(tb_preset preset) {
  tb_world_def def = tb_default_world_def();
  CHECK(tb_preset_apply(preset, &def) == TB_OK);
  def.thread_count = 1;
  tb_world_id w = tb_world_create(&def);
  CHECK(w >= 0);
  float plane[4] = {0, 1, 0, 0};
  tb_body_id g = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  tb_shape_create(w, g, TB_SHAPE_PLANE, plane, ZERO, ID_Q, 0.6f, 0.0f, 1.0f);
  return w;
}

/* 120 boxes, spheres and capsules dropped in a 6 × 6 grid of columns, slightly rotated. */
static void build_pile(tb_world_id w) {
  float bx[4] = {0.3f, 0.25f, 0.2f, 0}, sp[4] = {0.3f, 0, 0, 0}, cp[4] = {0.2f, 0.25f, 0, 0};
  for (int i = 0; i < 120; ++i) {
    float p[3] = {(float)(i % 6) * 0.9f, 0.6f + (float)(i / 36) * 0.9f, (float)((i / 6) % 6) * 0.9f};
    float q[4] = {0.1f * (float)(i % 3), 0.0f, 0.0f, 1.0f};
    float l = sqrtf(q[0] * q[0] + 1.0f);
    q[0] /= l; q[3] /= l;
    tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, p, q);
    int kind = i % 3;
    tb_shape_create(w, b, kind == 0 ? TB_SHAPE_BOX : kind == 1 ? TB_SHAPE_SPHERE : TB_SHAPE_CAPSULE,
                    kind == 0 ? bx : kind == 1 ? sp : cp, ZERO, ID_Q, 0.6f, 0.1f, 500.0f);
  }
}

/* A 10-row pyramid of unit cubes resting on the plane. */
static void build_pyramid(tb_world_id w) {
  float cube[4] = {0.5f, 0.5f, 0.5f, 0};
  for (int r = 0; r < 10; ++r)
    for (int i = 0; i < 10 - r; ++i) {
      float p[3] = {(float)i - (float)(9 - r) * 0.5f, 0.5f + (float)r, 0};
      tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, p, ID_Q);
      tb_shape_create(w, b, TB_SHAPE_BOX, cube, ZERO, ID_Q, 0.6f, 0.0f, 1.0f);
    }
}

/* Springs and bounces: 72 spheres, boxes and capsules thrown down onto the plane, a third of them
 * with compliant (spring) contact materials of two kinds, a quarter bouncy (restitution 0.6 and
 * 0.8), some spinning: the rows' spring, restitution and rigid branches side by side in one wide. */
static void build_springs(tb_world_id w) {
  float bx[4] = {0.3f, 0.25f, 0.2f, 0}, sp[4] = {0.3f, 0, 0, 0}, cp[4] = {0.2f, 0.25f, 0, 0};
  for (int i = 0; i < 72; ++i) {
    float p[3] = {(float)(i % 6) * 0.8f, 0.5f + (float)(i / 36) * 0.8f, (float)((i / 6) % 6) * 0.8f};
    tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, p, ID_Q);
    int kind = i % 3;
    tb_shape_id s = tb_shape_create(w, b, kind == 0 ? TB_SHAPE_BOX : kind == 1 ? TB_SHAPE_SPHERE : TB_SHAPE_CAPSULE,
                                    kind == 0 ? bx : kind == 1 ? sp : cp, ZERO, ID_Q, 0.5f, i % 4 == 0 ? 0.6f : 0.0f, 500.0f);
    tb_material m;
    if (i % 3 == 1 || i % 5 == 2) {
      tb_material_default_into(0.5f, 0.3f, &m);
      m.compliant_stiffness = i % 2 ? 3000.0f : 40.0f;
      m.compliant_damping = i % 2 ? 30.0f : 5.0f;
      if (i % 2 == 0) m.flags |= TB_MATERIAL_COMPLIANT_ACCELERATION_SPRING;
      CHECK(tb_shape_set_material(w, s, &m) == TB_OK);
    } else if (i % 7 == 3) {
      tb_material_default_into(0.4f, 0.8f, &m);
      CHECK(tb_shape_set_material(w, s, &m) == TB_OK);
    }
    float v[3] = {0.3f * (float)(i % 3) - 0.3f, -4.0f * (float)(i % 2), 0.0f}, av[3] = {1.5f * (float)(i % 3), 0.0f, 0.5f};
    CHECK(tb_body_set_velocity(w, b, v, av) == TB_OK);
  }
}

static int field_index(const char* name) {
  for (int i = 0; i < tb_field_count(TB_FIELDS_CONTACT); ++i)
    if (strcmp(tb_field_get(TB_FIELDS_CONTACT, i)->name, name) == 0) return i;
  return -1;
}

static uint32_t run(const char* scene, tb_preset preset, int* steps_ok) {
  tb_world_id w = make_world(preset);
  if (strcmp(scene, "pile") == 0) build_pile(w);
  else if (strcmp(scene, "tray") == 0) tb_test_tray(w);
  else if (strcmp(scene, "springs") == 0) build_springs(w);
  else build_pyramid(w);
  uint32_t h = 2166136261u;
  const int fields[] = {field_index("normal_impulse"), field_index("tangent_impulse"), field_index("force")};
  *steps_ok = 0;
  for (int s = 0; s < 300; ++s) {
    tb_status st = tb_world_step(w);
    h = fnv(h, &st, sizeof st);
    if (st != TB_OK) break;
    ++*steps_ok;
    int32_t n = tb_world_body_slot_count(w);
    h = fnv(h, tb_world_field(w, TB_FIELDS_BODY, 0), sizeof(float) * 7 * (size_t)n);
    tb_contact_status cs;
    tb_world_contact_status(w, &cs);
    h = fnv(h, &cs.count, sizeof cs.count);
    for (int k = 0; k < 3; ++k) {
      const tb_field_info* info = tb_field_get(TB_FIELDS_CONTACT, fields[k]);
      h = fnv(h, tb_world_field(w, TB_FIELDS_CONTACT, fields[k]), sizeof(float) * (size_t)info->components * (size_t)cs.count);
    }
  }
  tb_world_destroy(w);
  return h;
}

int main(int argc, char** argv) {
  int print = argc > 1 && strcmp(argv[1], "--print") == 0;
  const char* scenes[] = {"pile", "pyramid", "tray", "springs"};
  CHECK(field_index("normal_impulse") >= 0 && field_index("tangent_impulse") >= 0 && field_index("force") >= 0);
  for (int si = 0; si < 4; ++si)
    for (int p = 0; p < TB_PRESET_COUNT; ++p) {
      int ok = 0;
      uint32_t h = run(scenes[si], (tb_preset)p, &ok);
      if (print) { printf("{\"%s\", (tb_preset)%d, 0x%08xu, %d},\n", scenes[si], p, h, ok); continue; }
      int found = 0;
      for (size_t e = 0; e < EXPECTED_COUNT; ++e)
        if (strcmp(EXPECTED[e].scene, scenes[si]) == 0 && EXPECTED[e].preset == (tb_preset)p) {
          found = 1;
          if (EXPECTED[e].hash != h || EXPECTED[e].steps_ok != ok)
            fprintf(stderr, "%s preset %d: hash %08x after %d steps, expected %08x after %d\n", scenes[si], p, h,
                    ok, EXPECTED[e].hash, EXPECTED[e].steps_ok);
          CHECK(EXPECTED[e].hash == h && EXPECTED[e].steps_ok == ok);
        }
      CHECK(found);
    }
  if (print) return 0;
  return tb_test_report("test_trajectory");
}
