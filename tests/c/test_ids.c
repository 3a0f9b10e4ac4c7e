/* Native tests of the id liveness calls bindings use before a call (tb_body_alive,
 * tb_shape_alive, tb_sensor_alive): 1 exactly for a live id of the world, 0 for a removed id, an
 * id of another kind or world, a negative id or a slot beyond the store; the world's last error is
 * left as it was. */
#include <string.h>

#include "include/tribo.h"
#include "test_util.h"

static const float ID_Q[4] = {0, 0, 0, 1};
static const float ZERO[3] = {0, 0, 0};

static void test_alive(void) {
  tb_world_def def = tb_default_world_def();
  tb_world_id w = tb_world_create(&def);
  CHECK(w >= 0);
  const float up[3] = {0, 1, 0};
  tb_body_id a = tb_body_create(w, TB_BODY_DYNAMIC, up, ID_Q);
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, ZERO, ID_Q);
  const float sphere[4] = {0.5f, 0, 0, 0};
  tb_shape_id s = tb_shape_create(w, a, TB_SHAPE_SPHERE, sphere, ZERO, ID_Q, 0.5f, 0, 1000);
  tb_sensor_id k = tb_sensor_create(w, a, TB_ANY_BODY, 4);
  CHECK(a >= 0 && b >= 0 && s >= 0 && k >= 0);
  CHECK(tb_body_alive(w, a) == 1 && tb_body_alive(w, b) == 1);
  CHECK(tb_shape_alive(w, s) == 1);
  CHECK(tb_sensor_alive(w, k) == 1);

  /* a failed call's message stays the last error through the liveness calls */
  CHECK(tb_body_set_pose(w, 987654, ZERO, ID_Q) == TB_ERR_NOT_FOUND);
  char before[256];
  strncpy(before, tb_last_error(w), sizeof before - 1);
  before[sizeof before - 1] = 0;
  CHECK(tb_body_alive(w, 987654) == 0);
  CHECK(tb_body_alive(w, -1) == 0 && tb_shape_alive(w, -5) == 0 && tb_sensor_alive(w, -1) == 0);
  CHECK(tb_body_alive(w, 0x7fffffff) == 0 && tb_shape_alive(w, 0x7fffffff) == 0 && tb_sensor_alive(w, 0x7fffffff) == 0);
  CHECK(strcmp(before, tb_last_error(w)) == 0);

  /* the same slot with another generation is not alive */
  CHECK(tb_body_alive(w, b + (1 << 20)) == 0);
  /* no sensor exists in a world that never made one; a bad world id answers 0 */
  tb_world_id other = tb_world_create(&def);
  CHECK(tb_sensor_alive(other, k) == 0);
  CHECK(tb_body_alive(other, b) == 0);
  CHECK(tb_body_alive(-1, a) == 0 && tb_shape_alive(12345, s) == 0 && tb_sensor_alive(-3, k) == 0);

  /* removal: the ids die with their body (the shape with it, the sensor by itself) */
  CHECK(tb_sensor_destroy(w, k) == TB_OK);
  CHECK(tb_sensor_alive(w, k) == 0);
  CHECK(tb_body_destroy(w, a) == TB_OK);
  CHECK(tb_body_alive(w, a) == 0 && tb_shape_alive(w, s) == 0);
  CHECK(tb_body_alive(w, b) == 1);
  CHECK(tb_world_destroy(other) == TB_OK);
  CHECK(tb_world_destroy(w) == TB_OK);
  CHECK(tb_body_alive(w, b) == 0);
}

int main(void) {
  test_alive();
  return tb_test_report("test_ids");
}
