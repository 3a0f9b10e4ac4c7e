/* Native tests of the world registry and the step pipeline's structure: world ids carry a
 * generation (a destroyed world's id never names its successor), collide() / solve() run their
 * stages in the design's order, and the step context is the definition's step. */
#include <stdio.h>
#include <string.h>

#include "include/tribo.h"
#include "step/step.h"
#include "test_util.h"
#include "api/api.h" /* tb_world_get: the world as a reader sees it */
#include "world/world.h"

static const float ID_Q[4] = {0, 0, 0, 1};
static const float ZERO[3] = {0, 0, 0};

/* A stale world id fails with TB_ERR_NOT_FOUND after its slot is reused, and the new world is
 * unchanged by calls through the stale id. */
static void test_world_generation(void) {
  tb_world_def def = tb_default_world_def();
  tb_world_id a = tb_world_create(&def);
  CHECK(a >= 0);
  CHECK(tb_world_destroy(a) == TB_OK);
  tb_world_id b = tb_world_create(&def);
  CHECK(b >= 0);
  CHECK(tb_world_id_slot(b) == tb_world_id_slot(a) && b != a);
  const float g[3] = {0, -1, 0};
  CHECK(tb_world_set_gravity(a, g) == TB_ERR_NOT_FOUND);
  CHECK(strstr(tb_last_error(a), "does not exist") != NULL);
  tb_world_def got;
  CHECK(tb_world_get_def(b, &got) == TB_OK);
  CHECK(got.gravity[1] == -9.81f);
  CHECK(tb_world_destroy(a) == TB_ERR_NOT_FOUND);
  CHECK(tb_world_destroy(b) == TB_OK);
}

/* collide() ends at the contact store, solve() at the observers; a refused solve() runs nothing. */
static void test_stages(void) {
  tb_world_def def = tb_default_world_def();
  tb_world_id id = tb_world_create(&def);
  const float up[4] = {0, 1, 0, 0}, box[4] = {0.5f, 0.5f, 0.5f, 0}, p[3] = {0, 0.49f, 0};
  tb_body_id ground = tb_body_create(id, TB_BODY_STATIC, ZERO, ID_Q);
  tb_shape_create(id, ground, TB_SHAPE_PLANE, up, ZERO, ID_Q, 0.5f, 0.0f, 1.0f);
  tb_body_id b = tb_body_create(id, TB_BODY_DYNAMIC, p, ID_Q);
  tb_shape_create(id, b, TB_SHAPE_BOX, box, ZERO, ID_Q, 0.5f, 0.0f, 1000.0f);
  tb_world* w = tb_world_get(id);
  CHECK(tb_world_solve(id) == TB_ERR_INVALID_STATE);
  CHECK(w->last_stage == TB_STAGE_NONE);
  CHECK(tb_world_collide(id) == TB_OK);
  CHECK(w->last_stage == TB_STAGE_CONTACT_STORE);
  tb_contact_status st;
  tb_world_contact_status(id, &st);
  CHECK(st.count == 4);
  CHECK(tb_world_solve(id) == TB_OK);
  CHECK(w->last_stage == TB_STAGE_OBSERVERS);
  CHECK(tb_world_step(id) == TB_OK);
  CHECK(w->last_stage == TB_STAGE_OBSERVERS);
  tb_world_destroy(id);
}

/* The context: dt the timestep (XPBD: over its rounds); h = dt / substeps of the solver family
 * (TGS position iterations, penalty substeps, else 1); threads as defined. The observers' whole
 * step: dt the timestep, h the same internal step. */
static void test_context(void) {
  tb_world_def def = tb_default_world_def();
  def.timestep = 0.01f;
  tb_preset_apply(TB_PRESET_PHYSX_TGS, &def);
  def.solver.position_iterations = 5;
  tb_world_id id = tb_world_create(&def);
  tb_step_context c = tb_step_context_of(tb_world_get(id));
  CHECK(c.dt == 0.01f);
  CHECK(c.substeps == 5);
  CHECK_NEAR(0.002, c.h, 1e-9);
  CHECK_NEAR(500.0, c.inv_h, 1e-3);
  CHECK(c.thread_count == 1);
  CHECK(tb_world_set_preset(id, TB_PRESET_NEWTON_SEMI) == TB_OK);
  c = tb_step_context_of(tb_world_get(id));
  CHECK(c.substeps == def.solver.newton.substeps);
  tb_step_context whole = tb_step_context_whole(tb_world_get(id)); /* one round: the same */
  CHECK(whole.dt == c.dt && whole.rounds == 1 && whole.substeps == c.substeps && whole.h == c.h && whole.inv_h == c.inv_h);
  CHECK(tb_world_set_preset(id, TB_PRESET_PHYSX_PGS) == TB_OK);
  CHECK(tb_step_context_of(tb_world_get(id)).substeps == 1);
  /* XPBD rounds: a round is 1/10 of the step; the observers' whole step is the timestep with
   * its 10 internal steps of the rounds' length */
  CHECK(tb_world_set_preset(id, TB_PRESET_NEWTON_XPBD) == TB_OK);
  tb_world* iw = tb_world_get(id);
  iw->def.solver.newton.xpbd_substeps = 10;
  c = tb_step_context_of(iw);
  whole = tb_step_context_whole(iw);
  CHECK(c.rounds == 10 && c.substeps == 1);
  CHECK_NEAR(0.001, c.dt, 1e-9);
  CHECK(whole.dt == 0.01f && whole.rounds == 1 && whole.substeps == 10);
  CHECK_NEAR(c.h, whole.h, 1e-9);
  CHECK_NEAR(1.0, whole.h * whole.inv_h, 1e-6);
  CHECK_NEAR(whole.dt, whole.h * (float)whole.substeps, 1e-8);
  CHECK(whole.thread_count == c.thread_count);
  tb_world_destroy(id);
}

/* Every field of every set (SoA stores and struct layouts) says its unit and meaning, and a float
 * field never carries an integer kind (id, enum, bits, index, flag) as its unit. */
static void test_fields_documented(void) {
  int32_t fields = 0;
  for (int32_t set = 0; set < TB_FIELD_SET_COUNT; ++set) {
    for (int32_t i = 0; i < tb_field_count((tb_field_set)set); ++i) {
      const tb_field_info* f = tb_field_get((tb_field_set)set, i);
      CHECK(f != NULL && f->unit[0] != 0 && f->doc[0] != 0);
      if (!f || !f->unit[0] || !f->doc[0]) printf("field set %d: %s has no unit or doc\n", set, f ? f->name : "?");
      const char* integer_units[] = {"id", "enum", "bits", "index", "0/1", "-1/0/1"};
      if (f && f->type == TB_F32)
        for (int k = 0; k < 6; ++k) CHECK(strcmp(f->unit, integer_units[k]) != 0);
      ++fields;
    }
  }
  CHECK(fields > 150); /* body, contact and the struct layouts */
}

/* A world's error message is whole when it fits TB_ERROR_LEN − 1 bytes, else cut at a UTF-8
 * character boundary and ending with "…" (U+2026), never silently: a message of 2000 bytes of
 * 2-byte characters "Σ" after one ASCII byte (so a cut at a fixed byte would split one) ends with
 * the marker right after a whole "Σ"; one of exactly TB_ERROR_LEN − 1 bytes has no marker. */
static void test_error_cut_visible(void) {
  tb_world_def def = tb_default_world_def();
  tb_world_id id = tb_world_create(&def);
  tb_world* w = tb_world_get(id);
  static char text[2001];
  text[0] = 'x';
  for (int i = 1; i + 1 < 2001; i += 2) { text[i] = (char)0xCE; text[i + 1] = (char)0xA3; } /* Σ */
  text[2000] = 0;
  CHECK(tb_world_fail(w, TB_ERR_INVALID_STATE, "solve: %s", text) == TB_ERR_INVALID_STATE);
  const char* msg = tb_last_error(id);
  size_t n = strlen(msg);
  CHECK(n <= TB_ERROR_LEN - 1 && n >= TB_ERROR_LEN - 5);
  CHECK(strncmp(msg, "solve: x", 8) == 0);
  CHECK(n >= 3 && strcmp(msg + n - 3, "\xE2\x80\xA6") == 0);
  /* before the marker: whole "Σ"s only (an even count of bytes after "solve: x") */
  CHECK((n - 3 - 8) % 2 == 0 && (unsigned char)msg[n - 4] == 0xA3 && (unsigned char)msg[n - 5] == 0xCE);
  /* the longest message that fits is whole: no marker */
  memset(text, 'y', 2000);
  text[TB_ERROR_LEN - 1 - 7] = 0; /* "solve: " + the rest = TB_ERROR_LEN − 1 bytes */
  tb_world_fail(w, TB_ERR_INVALID_STATE, "solve: %s", text);
  msg = tb_last_error(id);
  CHECK(strlen(msg) == TB_ERROR_LEN - 1 && msg[TB_ERROR_LEN - 2] == 'y');
  /* one byte more is cut visibly */
  text[TB_ERROR_LEN - 1 - 7] = 'y';
  text[TB_ERROR_LEN - 7] = 0;
  tb_world_fail(w, TB_ERR_INVALID_STATE, "solve: %s", text);
  msg = tb_last_error(id);
  CHECK(strlen(msg) == TB_ERROR_LEN - 1 && strcmp(msg + TB_ERROR_LEN - 4, "\xE2\x80\xA6") == 0);
  /* the global error (no world) the same */
  tb_world_fail(NULL, TB_ERR_NOT_FOUND, "addBody: %s", text);
  CHECK(strcmp(tb_last_error(-1) + strlen(tb_last_error(-1)) - 3, "\xE2\x80\xA6") == 0);
  tb_world_destroy(id);
}

int main(void) {
  test_world_generation();
  test_stages();
  test_context();
  test_fields_documented();
  test_error_cut_visible();
  return tb_test_report("test_structure");
}
