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

/* An id of another live world is rejected by every id check and named as such: two fresh worlds
 * with the same scene hand out ids with the same slots but never the same ids, a call with the
 * other world's id fails with TB_ERR_NOT_FOUND and a message saying "another world", and the
 * world's state is unchanged. Within a world, ids keep working after 40 reuses of a slot. */
static void test_foreign(void) {
  tb_world_def def = tb_default_world_def();
  tb_world_id wa = tb_world_create(&def), wb = tb_world_create(&def);
  CHECK(wa >= 0 && wb >= 0);
  const float sphere[4] = {0.5f, 0, 0, 0};
  tb_body_id ba[3], bb[3];
  tb_shape_id sa[3], sb[3];
  for (int i = 0; i < 3; ++i) {
    const float p[3] = {(float)i, 1, 0};
    ba[i] = tb_body_create(wa, TB_BODY_DYNAMIC, p, ID_Q);
    bb[i] = tb_body_create(wb, TB_BODY_DYNAMIC, p, ID_Q);
    sa[i] = tb_shape_create(wa, ba[i], TB_SHAPE_SPHERE, sphere, ZERO, ID_Q, 0.5f, 0, 1000);
    sb[i] = tb_shape_create(wb, bb[i], TB_SHAPE_SPHERE, sphere, ZERO, ID_Q, 0.5f, 0, 1000);
  }
  tb_sensor_id ka = tb_sensor_create(wa, ba[0], TB_ANY_BODY, 4), kb = tb_sensor_create(wb, bb[0], TB_ANY_BODY, 4);
  tb_joint_def jd;
  tb_joint_default_def_into(&jd);
  jd.type = TB_JOINT_SPHERICAL;
  jd.body0 = ba[0], jd.body1 = ba[1];
  tb_joint_id ja = tb_joint_create(wa, &jd);
  jd.body0 = bb[0], jd.body1 = bb[1];
  tb_joint_id jb = tb_joint_create(wb, &jd);
  CHECK(ka >= 0 && kb >= 0 && ja >= 0 && jb >= 0);
  for (int i = 0; i < 3; ++i) {
    CHECK((ba[i] & TB_ID_INDEX_MASK) == (bb[i] & TB_ID_INDEX_MASK) && ba[i] != bb[i]);
    CHECK(sa[i] != sb[i]);
    CHECK(tb_body_alive(wb, ba[i]) == 0 && tb_shape_alive(wb, sa[i]) == 0);
    CHECK(tb_body_alive(wa, bb[i]) == 0 && tb_shape_alive(wa, sb[i]) == 0);
    CHECK(tb_id_check(wb, TB_ID_BODY, ba[i]) == TB_ID_FOREIGN && tb_id_check(wb, TB_ID_SHAPE, sa[i]) == TB_ID_FOREIGN);
    CHECK(tb_id_check(wb, TB_ID_BODY, bb[i]) == TB_ID_LIVE);
  }
  CHECK(ka != kb && tb_sensor_alive(wb, ka) == 0 && tb_id_check(wb, TB_ID_SENSOR, ka) == TB_ID_FOREIGN);
  CHECK(ja != jb && tb_joint_alive(wb, ja) == 0 && tb_id_check(wb, TB_ID_JOINT, ja) == TB_ID_FOREIGN);

  /* a call with world A's id fails in world B with a message naming the other world; B unchanged */
  float before[13], after[13];
  CHECK(tb_body_get_state(wb, bb[1], before) == TB_OK);
  const float far[3] = {50, 50, 50};
  CHECK(tb_body_set_pose(wb, ba[1], far, ID_Q) == TB_ERR_NOT_FOUND);
  CHECK(strstr(tb_last_error(wb), "another world") != NULL);
  CHECK(tb_body_destroy(wb, ba[2]) == TB_ERR_NOT_FOUND);
  CHECK(strstr(tb_last_error(wb), "another world") != NULL);
  tb_material mat;
  CHECK(tb_shape_get_material(wb, sa[0], &mat) == TB_ERR_NOT_FOUND);
  CHECK(strstr(tb_last_error(wb), "another world") != NULL);
  CHECK(tb_joint_destroy(wb, ja) == TB_ERR_NOT_FOUND);
  CHECK(strstr(tb_last_error(wb), "another world") != NULL);
  CHECK(tb_sensor_destroy(wb, ka) == TB_ERR_NOT_FOUND);
  CHECK(strstr(tb_last_error(wb), "another world") != NULL);
  CHECK(tb_body_get_state(wb, bb[1], after) == TB_OK);
  CHECK(memcmp(before, after, sizeof before) == 0);
  CHECK(tb_body_alive(wb, bb[2]) == 1 && tb_joint_alive(wb, jb) == 1 && tb_sensor_alive(wb, kb) == 1);

  /* a removed id of the world itself is "removed", not foreign */
  CHECK(tb_body_destroy(wa, ba[2]) == TB_OK);
  CHECK(tb_id_check(wa, TB_ID_BODY, ba[2]) == TB_ID_REMOVED);
  CHECK(tb_body_set_pose(wa, ba[2], far, ID_Q) == TB_ERR_NOT_FOUND);
  CHECK(strstr(tb_last_error(wa), "another world") == NULL);
  CHECK(tb_id_check(wa, TB_ID_BODY, 5) == TB_ID_NEVER_CREATED);

  /* 40 reuses of one slot in world B (more than the 32 generations between the worlds' first ids):
   * each new id lives, the previous one is removed */
  tb_body_id prev = bb[2];
  for (int k = 0; k < 40; ++k) {
    CHECK(tb_body_destroy(wb, prev) == TB_OK);
    tb_body_id next = tb_body_create(wb, TB_BODY_DYNAMIC, ZERO, ID_Q);
    CHECK((next & TB_ID_INDEX_MASK) == (prev & TB_ID_INDEX_MASK) && next != prev);
    CHECK(tb_id_check(wb, TB_ID_BODY, next) == TB_ID_LIVE && tb_id_check(wb, TB_ID_BODY, prev) == TB_ID_REMOVED);
    prev = next;
  }
  CHECK(tb_world_destroy(wa) == TB_OK && tb_world_destroy(wb) == TB_OK);
}

int main(void) {
  test_alive();
  test_foreign();
  return tb_test_report("test_ids");
}
