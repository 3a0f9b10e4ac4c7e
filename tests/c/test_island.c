/* Persistent islands: the same partition for any thread count, merges on a new link, the lazy
 * split of a lost link, joints linking islands. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "include/tribo.h"
#include "test_util.h"
#include "test_scene.h"

/* A world of the preset with the ground plane. */
static tb_world_id grounded_world(tb_preset preset, int threads, int sleep_mode) {
  tb_world_id w = make_world(preset, sleep_mode, threads);
  ground(w);
  return w;
}

static int32_t island_slot(int32_t island) { return island < 0 ? island : island & TB_ID_INDEX_MASK; }

static int32_t island_count(tb_world_id w) { return stats(w).island_count; }

/* A pile of 48 boxes and spheres in 12 columns of 4: the islands of every body after every step
 * are the same with 1 and with 3 threads. */
static void test_threads_same_islands(tb_preset preset) {
  enum { N = 48, STEPS = 150 };
  tb_world_id w[2] = {grounded_world(preset, 1, TB_SLEEP_OFF), grounded_world(preset, 3, TB_SLEEP_OFF)};
  tb_body_id ids[2][N];
  for (int k = 0; k < 2; ++k)
    for (int i = 0; i < N; ++i) {
      float x = (float)(i % 4) * 0.55f, y = 0.3f + (float)(i / 16) * 0.62f, z = (float)((i / 4) % 4) * 0.55f;
      ids[k][i] = i % 2 ? add_sphere(w[k], x, y, z, 0.3f, 1000.0f) : add_box(w[k], x, y, z, 0.28f);
    }
  int same = 1, merged = 0;
  for (int s = 0; s < STEPS; ++s) {
    for (int k = 0; k < 2; ++k) CHECK(tb_world_step(w[k]) == TB_OK);
    /* islands by slot: the two worlds' ids differ in their generation (each world's own) */
    for (int i = 0; i < N; ++i) same &= island_slot(tb_body_island(w[0], ids[0][i])) == island_slot(tb_body_island(w[1], ids[1][i]));
    same &= island_count(w[0]) == island_count(w[1]);
    if (island_count(w[0]) < N) merged = 1;
  }
  CHECK(same);
  CHECK(merged); /* touching bodies did merge: the comparison is not between singletons */
  for (int k = 0; k < 2; ++k) tb_world_destroy(w[k]);
}

/* Boxes a and b side by side (apart), c lying across both: one island. c removed: the island keeps
 * a and b (the split is lazy); under the PhysX solver it splits as soon as a and b request
 * different iteration counts, and each then runs its own. */
static void test_lazy_split(void) {
  tb_world_id w = grounded_world(TB_PRESET_PHYSX_PGS, 1, TB_SLEEP_OFF);
  tb_body_id a = add_box(w, -0.6f, 0.25f, 0, 0.25f), b = add_box(w, 0.6f, 0.25f, 0, 0.25f);
  float p[3] = {0, 0.9f, 0}, plank[4] = {1.0f, 0.1f, 0.25f, 0};
  tb_body_id c = tb_body_create(w, TB_BODY_DYNAMIC, p, ID_Q);
  tb_shape_create(w, c, TB_SHAPE_BOX, plank, ZERO, ID_Q, 0.6f, 0.0f, 500.0f);
  CHECK(tb_world_step(w) == TB_OK);
  CHECK(tb_body_island(w, a) != tb_body_island(w, b)); /* c has not touched yet */
  for (int s = 0; s < 30; ++s) CHECK(tb_world_step(w) == TB_OK);
  CHECK(tb_body_island(w, a) == tb_body_island(w, b));
  CHECK(tb_body_island(w, c) == tb_body_island(w, a));
  CHECK(island_count(w) == 1);
  CHECK(tb_body_destroy(w, c) == TB_OK);
  for (int s = 0; s < 5; ++s) CHECK(tb_world_step(w) == TB_OK);
  CHECK(tb_body_island(w, a) == tb_body_island(w, b)); /* lazy: nothing needed the split */
  CHECK(tb_body_set_solver_iterations(w, b, 8, 1) == TB_OK);
  CHECK(tb_world_step(w) == TB_OK);
  CHECK(tb_body_island(w, a) != tb_body_island(w, b));
  CHECK(island_count(w) == 2);
  tb_solver_status st;
  CHECK(tb_world_solver_status(w, &st) == TB_OK);
  CHECK(st.position_iterations == 8);
  tb_world_destroy(w);
}

/* A distance joint links two bodies in the air into one island; a static side links nothing. */
static void test_joint_links(void) {
  tb_world_id w = grounded_world(TB_PRESET_PHYSX_TGS, 1, TB_SLEEP_OFF);
  tb_body_id a = add_box(w, -1.0f, 3.0f, 0, 0.1f), b = add_box(w, 1.0f, 3.0f, 0, 0.1f);
  tb_body_id s = tb_body_create(w, TB_BODY_STATIC, (float[3]){0, 5, 0}, ID_Q);
  add_distance_joint(w, a, b, 2.0f);
  add_distance_joint(w, s, a, 2.0f);
  CHECK(tb_world_step(w) == TB_OK);
  CHECK(tb_body_island(w, a) == tb_body_island(w, b));
  CHECK(tb_body_island(w, s) == -1);
  CHECK(island_count(w) == 1);
  tb_world_destroy(w);
}

int main(void) {
  test_threads_same_islands(TB_PRESET_PHYSX_TGS);
  test_threads_same_islands(TB_PRESET_NEWTON_XPBD);
  test_lazy_split();
  test_joint_links();
  return tb_test_report("test_island");
}
