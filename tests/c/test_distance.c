/* Native tests of the per-preset distance rules, the contact record, matching across frames and
 * the contact / pair capacities. Truth tables evaluate each rule's formula on the test's own
 * inputs (newton-e3 §2, mujoco §1-3, physx-e3 §2). */
#include <stdlib.h>
#include <string.h>

#include "core/fields.h"
#include "include/tribo.h"
#include "test_util.h"
#include "api/api.h" /* tb_world_get: the world as a reader sees it */
#include "world/world.h"

static const float ID_Q[4] = {0, 0, 0, 1};
static const float ZERO[3] = {0, 0, 0};

#define CF(w, name) tb_world_field(w, TB_FIELDS_CONTACT, TB_CONTACT_FIELD_##name)
#define CF_F(w, name) ((const float*)CF(w, name))
#define CF_I(w, name) ((const int32_t*)CF(w, name))
#define CF_U(w, name) ((const uint32_t*)CF(w, name))

static tb_vec3 get3(const float* a, int32_t i) { return tb_v3(a[3 * i], a[3 * i + 1], a[3 * i + 2]); }

/* The collision axes through the one setter, tb_world_set_collision. */
static tb_status set_distance_rule(tb_world_id w, int32_t rule) {
  tb_world_def d;
  tb_world_get_def(w, &d);
  d.collision.distance_rule = rule;
  return tb_world_set_collision(w, &d.collision);
}

static tb_status set_matching(tb_world_id w, int32_t matching, float match_distance) {
  tb_world_def d;
  tb_world_get_def(w, &d);
  d.collision.matching = matching;
  d.collision.match_distance = match_distance;
  return tb_world_set_collision(w, &d.collision);
}

static float s_constant_gap = 0.0f; /* m: collision.constant_gap of the worlds made next */

static tb_world_id make_world(int32_t rule, float speculative) {
  tb_world_def def = tb_default_world_def();
  def.collision.distance_rule = rule;
  def.collision.constant_gap = s_constant_gap;
  def.solver.speculative_distance = speculative;
  tb_world_id w = tb_world_create(&def);
  CHECK(w >= 0);
  return w;
}

/* Static ground plane y <= 0; returns its shape id. */
static tb_shape_id ground(tb_world_id w) {
  float plane[4] = {0, 1, 0, 0};
  tb_body_id g = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  return tb_shape_create(w, g, TB_SHAPE_PLANE, plane, ZERO, ID_Q, 0.5f, 0.0f, 1.0f);
}

static tb_shape_id sphere_at(tb_world_id w, float r, float y, tb_body_id* body) {
  float sp[4] = {r, 0, 0, 0}, p[3] = {0, y, 0};
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, p, ID_Q);
  if (body) *body = b;
  return tb_shape_create(w, b, TB_SHAPE_SPHERE, sp, ZERO, ID_Q, 0.5f, 0.0f, 1000.0f);
}

/* One row of a truth table: a sphere of radius 0.5 at surface distance s above the plane. */
typedef struct row {
  float s;
  int kept, active, excluded;
  float distance;
} row;

/* Runs one collide() per row and checks the record against the row's expected values. */
static void check_rule(int32_t rule, float speculative, const float plane_d[4], const float sphere_d[4], const row* rows,
                       int n, float margin, float gap) {
  for (int i = 0; i < n; ++i) {
    tb_world_id w = make_world(rule, speculative);
    tb_shape_id g = ground(w);
    tb_body_id b;
    tb_shape_id s = sphere_at(w, 0.5f, 0.5f + rows[i].s, &b);
    CHECK(tb_shape_set_distances(w, g, plane_d[0], plane_d[1], plane_d[2], plane_d[3]) == TB_OK);
    CHECK(tb_shape_set_distances(w, s, sphere_d[0], sphere_d[1], sphere_d[2], sphere_d[3]) == TB_OK);
    CHECK(tb_world_collide(w) == TB_OK);
    tb_contact_status st;
    tb_world_contact_status(w, &st);
    CHECK(st.count == rows[i].kept);
    if (st.count != rows[i].kept) fprintf(stderr, "  rule %d row s = %g\n", rule, (double)rows[i].s);
    if (st.count == 1 && rows[i].kept) {
      CHECK(CF_I(w, distance_rule)[0] == rule);
      CHECK(CF_I(w, active)[0] == rows[i].active);
      CHECK(CF_I(w, excluded)[0] == rows[i].excluded);
      CHECK_NEAR(rows[i].s, CF_F(w, separation)[0], 2e-6);
      CHECK_NEAR(rows[i].distance, CF_F(w, distance)[0], 2e-6);
      CHECK_NEAR(margin, CF_F(w, margin)[0], 1e-7);
      CHECK_NEAR(gap, CF_F(w, gap)[0], 1e-7);
      /* the solver sees the rule's distance */
      CHECK_NEAR(rows[i].distance, tb_world_get(w)->manifolds[0].points[0].separation, 2e-6);
    }
    tb_world_destroy(w);
  }
}

/* Newton: margins 0.01 + 0.02, gaps 0.03 + 0: d = s - 0.03, kept when d <= 0.03, active d < 0. */
static void test_newton(void) {
  const float plane[4] = {0.01f, 0.03f, 0, 0}, sphere[4] = {0.02f, 0.0f, 0, 0};
  const float m = 0.03f, g = 0.03f;
  const float s[] = {0.05f, 0.07f, 0.02f, 0.059f, 0.061f, -0.01f, 0.035f};
  row rows[7];
  for (int i = 0; i < 7; ++i) {
    float d = s[i] - m;
    rows[i] = (row){s[i], d <= g, d < 0.0f, 0, d};
  }
  /* spelled out: 0.05 -> d = 0.02 kept, 0.07 -> d = 0.04 dropped, 0.02 -> d = -0.01 active */
  CHECK(rows[0].kept == 1 && rows[0].active == 0 && rows[1].kept == 0 && rows[2].active == 1);
  check_rule(TB_DISTANCE_NEWTON, 0.0f, plane, sphere, rows, 7, m, g);
  /* the world's speculative distance (PhysX) leaves Newton's test alone; collision.constant_gap
   * (0.02 here) widens it to d <= gap0 + gap1 + 0.02: 0.07 -> d = 0.04 kept, 0.085 -> d = 0.055
   * dropped */
  const float s2[] = {0.07f, 0.079f, 0.085f};
  row rows2[3];
  for (int i = 0; i < 3; ++i) {
    float d = s2[i] - m;
    rows2[i] = (row){s2[i], d <= g, d < 0.0f, 0, d};
  }
  check_rule(TB_DISTANCE_NEWTON, 0.02f, plane, sphere, rows2, 3, m, g);
  for (int i = 0; i < 3; ++i) rows2[i].kept = rows2[i].distance <= g + 0.02f;
  CHECK(rows2[0].kept == 1 && rows2[2].kept == 0);
  s_constant_gap = 0.02f;
  check_rule(TB_DISTANCE_NEWTON, 0.0f, plane, sphere, rows2, 3, m, g);
  s_constant_gap = 0.0f;
}

/* MuJoCo: m = 0.01 + 0.02, g = 0.02 + 0.01: detected when dist < 0.06, active when dist < 0.03. */
static void test_mujoco(void) {
  const float plane[4] = {0.01f, 0.02f, 0, 0}, sphere[4] = {0.02f, 0.01f, 0, 0};
  const float m = 0.03f, g = 0.03f;
  const float s[] = {0.01f, 0.04f, 0.07f, -0.01f, 0.029f, 0.031f, 0.059f, 0.061f};
  row rows[8];
  for (int i = 0; i < 8; ++i) {
    int kept = s[i] < m + g, active = s[i] < m;
    rows[i] = (row){s[i], kept, active, kept && !active, s[i] - m};
  }
  CHECK(rows[1].kept == 1 && rows[1].excluded == 1 && rows[1].active == 0 && rows[2].kept == 0);
  check_rule(TB_DISTANCE_MUJOCO, 0.02f, plane, sphere, rows, 8, m, g);
}

/* PhysX: contact offsets 0.02 + 0.03, rest offsets 0.01 + 0.02: generated when s <= 0.05 (+ the
 * speculative distance), g = s - 0.03, always active. */
static void test_physx(void) {
  const float plane[4] = {0, 0, 0.02f, 0.01f}, sphere[4] = {0, 0, 0.03f, 0.02f};
  const float r = 0.03f, co = 0.05f;
  const float s[] = {0.04f, 0.06f, 0.01f, 0.049f, 0.051f};
  row rows[5];
  for (int i = 0; i < 5; ++i) rows[i] = (row){s[i], s[i] <= co, s[i] <= co, 0, s[i] - r};
  check_rule(TB_DISTANCE_PHYSX, 0.0f, plane, sphere, rows, 5, r, co);
  /* the speculative distance extends generation: 0.06 <= 0.05 + 0.02 */
  row spec = {0.06f, 1, 1, 0, 0.06f - r};
  check_rule(TB_DISTANCE_PHYSX, 0.02f, plane, sphere, &spec, 1, r, co);

  /* reported normal: from shape1 to shape0 under PhysX, = normal otherwise */
  for (int32_t rule = 0; rule < TB_DISTANCE_RULE_COUNT; ++rule) {
    tb_world_id w = make_world(rule, 0.02f);
    ground(w);
    sphere_at(w, 0.5f, 0.49f, NULL);
    CHECK(tb_world_collide(w) == TB_OK);
    tb_vec3 n = get3(CF_F(w, normal), 0), rn = get3(CF_F(w, reported_normal), 0);
    CHECK_NEAR(1.0, n.y, 1e-6); /* plane (shape0) towards the sphere */
    CHECK_NEAR(rule == TB_DISTANCE_PHYSX ? -1.0 : 1.0, rn.y, 1e-6);
    tb_world_destroy(w);
  }
}

/* PhysX rest offset: a sphere with restOffset 0.02 comes to rest 0.02 above the plane. */
static void test_rest_offset(void) {
  tb_world_id w = make_world(TB_DISTANCE_PHYSX, 0.02f);
  ground(w);
  tb_body_id b;
  tb_shape_id s = sphere_at(w, 0.25f, 0.5f, &b);
  CHECK(tb_shape_set_distances(w, s, 0, 0, 0.04f, 0.02f) == TB_OK);
  for (int i = 0; i < 240; ++i) CHECK(tb_world_step(w) == TB_OK);
  float st[13];
  tb_body_get_state(w, b, st);
  CHECK_NEAR(0.25 + 0.02, st[1], 1e-3);
  CHECK_NEAR(0.0, st[8], 1e-3);
  tb_world_destroy(w);
}

static tb_body_id box_at(tb_world_id w, const float p[3], const float q[4], float half) {
  float bx[4] = {half, half, half, 0};
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, p, q);
  tb_shape_create(w, b, TB_SHAPE_BOX, bx, ZERO, ID_Q, 0.5f, 0.0f, 1000.0f);
  return b;
}

/* Record fields: body-local points map to the world points through each body's pose (a static
 * body off the origin included), point is the midpoint, separation = n·(p1 - p0), the frame is
 * orthonormal and right-handed. */
static void test_record_fields(void) {
  tb_world_def def = tb_default_world_def();
  tb_world_id w = tb_world_create(&def);
  float plane[4] = {0, 1, 0, 0}, gp[3] = {1.0f, -0.2f, 2.0f};
  float gq[4] = {0, 0.38268343f, 0, 0.92387953f}; /* 45° about y */
  tb_body_id g = tb_body_create(w, TB_BODY_STATIC, gp, gq);
  tb_shape_create(w, g, TB_SHAPE_PLANE, plane, ZERO, ID_Q, 0.5f, 0.0f, 1.0f);
  float p0[3] = {0.3f, 0.28f, -0.1f}, q0[4] = {0.1f, 0.2f, 0.05f, 0.97341668f};
  float p1[3] = {0.35f, 1.05f, -0.05f}, q1[4] = {0.0f, 0.3826834f, 0.0f, 0.9238795f};
  tb_body_id a = box_at(w, p0, q0, 0.5f);
  tb_body_id c = box_at(w, p1, q1, 0.3f);
  CHECK(tb_world_collide(w) == TB_OK);
  tb_contact_status st;
  tb_world_contact_status(w, &st);
  CHECK(st.count >= 3);
  int box_box = 0;
  for (int32_t k = 0; k < st.count; ++k) {
    tb_vec3 wp0 = get3(CF_F(w, point0), k), wp1 = get3(CF_F(w, point1), k);
    tb_vec3 l0 = get3(CF_F(w, local_point0), k), l1 = get3(CF_F(w, local_point1), k);
    int32_t b0 = CF_I(w, body0)[k], b1 = CF_I(w, body1)[k];
    float s0[13], s1[13];
    tb_body_id id0 = b0 < 0 ? g : b0, id1 = b1 < 0 ? g : b1;
    tb_body_get_state(w, id0, s0);
    tb_body_get_state(w, id1, s1);
    tb_transform x0 = {{s0[0], s0[1], s0[2]}, {s0[3], s0[4], s0[5], s0[6]}};
    tb_transform x1 = {{s1[0], s1[1], s1[2]}, {s1[3], s1[4], s1[5], s1[6]}};
    /* a static shape's points are world points (newton-e3 §2) */
    const tb_transform world = {{0, 0, 0}, {0, 0, 0, 1}};
    if (b0 < 0) x0 = world;
    if (b1 < 0) x1 = world;
    CHECK_VEC_NEAR(wp0, tb_transform_point(x0, l0), 1e-5);
    CHECK_VEC_NEAR(wp1, tb_transform_point(x1, l1), 1e-5);
    CHECK_VEC_NEAR(tb_scale(tb_add(wp0, wp1), 0.5f), get3(CF_F(w, point), k), 1e-6);
    tb_vec3 n = get3(CF_F(w, normal), k), t0 = get3(CF_F(w, tangent0), k), t1 = get3(CF_F(w, tangent1), k);
    CHECK_NEAR(tb_dot(tb_sub(wp1, wp0), n), CF_F(w, separation)[k], 1e-6);
    CHECK_NEAR(1.0, tb_length(n), 1e-6);
    CHECK_NEAR(1.0, tb_length(t0), 1e-6);
    CHECK_NEAR(1.0, tb_length(t1), 1e-6);
    CHECK_NEAR(0.0, tb_dot(n, t0), 1e-6);
    CHECK_NEAR(0.0, tb_dot(n, t1), 1e-6);
    CHECK_NEAR(0.0, tb_dot(t0, t1), 1e-6);
    CHECK_VEC_NEAR(tb_cross(n, t0), t1, 1e-6);
    box_box += b0 == a && b1 == c;
    box_box += b0 == c && b1 == a;
  }
  CHECK(box_box >= 1);
  tb_world_destroy(w);
}

/* A box resting on the plane keeps its four match keys for 100 frames; ages count the frames and
 * match_index points at the same key in the previous frame's store. */
static void test_match_keys(void) {
  tb_world_def def = tb_default_world_def();
  def.solver.sleep.mode = TB_SLEEP_OFF; /* a sleeping pair is not collided: its kept record's age stops */
  tb_world_id w = tb_world_create(&def);
  ground(w);
  float p[3] = {0, 0.5f, 0};
  box_at(w, p, ID_Q, 0.5f);
  for (int i = 0; i < 30; ++i) tb_world_step(w); /* settle */
  tb_contact_status st;
  uint32_t keys[4], prev_keys[4];
  int32_t age0 = 0;
  CHECK(tb_world_step(w) == TB_OK);
  tb_world_contact_status(w, &st);
  CHECK(st.count == 4);
  for (int k = 0; k < 4; ++k) keys[k] = CF_U(w, match_key)[k];
  age0 = CF_I(w, age)[0];
  CHECK(age0 >= 30);
  int stable = 1, ages = 1, index_ok = 1;
  for (int f = 1; f <= 100; ++f) {
    memcpy(prev_keys, CF_U(w, match_key), sizeof prev_keys);
    CHECK(tb_world_step(w) == TB_OK);
    tb_world_contact_status(w, &st);
    if (st.count != 4) { stable = 0; break; }
    for (int k = 0; k < 4; ++k) {
      int found = 0;
      for (int q = 0; q < 4; ++q) found += CF_U(w, match_key)[k] == keys[q];
      stable &= found == 1;
      ages &= CF_I(w, age)[k] == age0 + f;
      int32_t mi = CF_I(w, match_index)[k];
      index_ok &= mi >= 0 && mi < 4 && prev_keys[mi] == CF_U(w, match_key)[k];
    }
  }
  CHECK(stable);
  CHECK(ages);
  CHECK(index_ok);
  tb_world_destroy(w);
}

/* A removed box's shape slot reused by a new box: the new contacts are not matched to the old
 * ones (the pair key carries the shape generations): age 0, no previous index, new match keys. */
static void test_slot_reuse(void) {
  tb_world_def def = tb_default_world_def();
  tb_world_id w = tb_world_create(&def);
  ground(w);
  float p[3] = {0, 0.5f, 0};
  tb_body_id b = box_at(w, p, ID_Q, 0.5f);
  for (int i = 0; i < 60; ++i) tb_world_step(w);
  tb_world* ww = tb_world_get(w);
  tb_shape_id old_shape = tb_make_id(ww->bodies.first_shape[tb_id_slot(b)], 0);
  int32_t old_slot = tb_id_slot(old_shape);
  /* control: the same box, collided again, matches its previous contacts */
  float pose[13];
  tb_body_get_state(w, b, pose);
  CHECK(tb_world_collide(w) == TB_OK);
  /* (the PhysX presets start each step's impulses from zero, seed physx-e3 §4.3, so the control
   * is the match itself: the contact is matched, not new) */
  CHECK(CF_I(w, age)[0] > 0 && CF_I(w, match_index)[0] >= 0);
  uint32_t old_key = CF_U(w, match_key)[0];

  CHECK(tb_body_destroy(w, b) == TB_OK);
  float q[4] = {pose[3], pose[4], pose[5], pose[6]};
  tb_body_id nb = tb_body_create(w, TB_BODY_DYNAMIC, pose, q);
  float bx[4] = {0.5f, 0.5f, 0.5f, 0};
  tb_shape_id ns = tb_shape_create(w, nb, TB_SHAPE_BOX, bx, ZERO, ID_Q, 0.5f, 0.0f, 1000.0f);
  CHECK(tb_id_slot(nb) == tb_id_slot(b) && nb != b);
  CHECK(tb_id_slot(ns) == old_slot);
  CHECK(tb_world_collide(w) == TB_OK);
  tb_contact_status st;
  tb_world_contact_status(w, &st);
  CHECK(st.count == 4);
  for (int k = 0; k < 4; ++k) {
    CHECK(CF_I(w, age)[k] == 0);
    CHECK(CF_I(w, match_index)[k] == -1);
    CHECK(CF_U(w, match_key)[k] != old_key);
  }
  tb_world_destroy(w);
}

/* Sticky keeps the previous body-local anchor while the new point stays within match_distance;
 * latest follows the new point. A box slid along x by set_pose, collide() only. */
static void test_sticky(void) {
  for (int sticky = 0; sticky < 2; ++sticky) {
    tb_world_id w = make_world(TB_DISTANCE_PHYSX, 0.02f);
    CHECK(set_matching(w, sticky ? TB_MATCHING_STICKY : TB_MATCHING_LATEST, 0.01f) == TB_OK);
    ground(w);
    float p[3] = {0, 0.499f, 0};
    tb_body_id b = box_at(w, p, ID_Q, 0.5f);
    CHECK(tb_world_collide(w) == TB_OK);
    tb_vec3 first[4];
    uint32_t feature[4];
    for (int k = 0; k < 4; ++k) {
      first[k] = get3(CF_F(w, local_point0), k);
      feature[k] = CF_U(w, feature_id)[k];
    }
    const float dx[2] = {0.004f, 0.016f};
    for (int step = 0; step < 2; ++step) {
      float moved[3] = {dx[step], 0.499f, 0};
      CHECK(tb_body_set_pose(w, b, moved, ID_Q) == TB_OK);
      CHECK(tb_world_collide(w) == TB_OK);
      for (int k = 0; k < 4; ++k) {
        int q = 0;
        while (q < 4 && feature[q] != CF_U(w, feature_id)[k]) ++q;
        CHECK(q < 4);
        if (q == 4) continue;
        tb_vec3 l0 = get3(CF_F(w, local_point0), k);
        /* the plane-side point of a vertex under the box moves with the box */
        tb_vec3 latest = tb_v3(first[q].x + dx[step], first[q].y, first[q].z);
        /* sticky: 0.004 from the anchor is within 0.01: kept; 0.016 is not: the new point */
        int keep = sticky && step == 0;
        CHECK_VEC_NEAR(keep ? first[q] : latest, l0, 1e-5);
        tb_vec3 w0 = get3(CF_F(w, point0), k);
        CHECK_NEAR(keep ? first[q].x : latest.x, w0.x, 1e-5);
        CHECK(CF_I(w, age)[k] == step + 1);
      }
    }
    tb_world_destroy(w);
  }
}

/* A contact whose feature id changed matches the nearest previous point of its pair when the
 * body-local points moved less than match_distance, else it is new. The previous frame's feature
 * ids are renumbered to stand for a routine that renumbered its features. */
static void test_nearest_fallback(void) {
  const float limits[2] = {0.01f, 0.002f};
  for (int t = 0; t < 2; ++t) {
    tb_world_id w = make_world(TB_DISTANCE_PHYSX, 0.02f);
    CHECK(set_matching(w, TB_MATCHING_LATEST, limits[t]) == TB_OK);
    ground(w);
    float p[3] = {0, 0.499f, 0};
    tb_body_id b = box_at(w, p, ID_Q, 0.5f);
    CHECK(tb_world_collide(w) == TB_OK);
    uint32_t keys[4];
    memcpy(keys, CF_U(w, match_key), sizeof keys);
    tb_world* ww = tb_world_get(w);
    tb_match_frame* prev = &ww->match.frame[ww->match.current];
    for (int j = 0; j < 4; ++j) prev->feature[j] += 1000u;
    float moved[3] = {0.004f, 0.499f, 0}; /* plane-side points move 0.004 in the plane body frame */
    CHECK(tb_body_set_pose(w, b, moved, ID_Q) == TB_OK);
    CHECK(tb_world_collide(w) == TB_OK);
    for (int k = 0; k < 4; ++k) {
      tb_vec3 now = get3(CF_F(w, local_point0), k);
      int32_t mi = CF_I(w, match_index)[k];
      if (t == 0) {
        /* 0.004 <= 0.01: matched to the previous point 0.004 away, its key kept */
        CHECK(mi >= 0 && mi < 4);
        if (mi < 0 || mi >= 4) continue;
        CHECK(CF_U(w, match_key)[k] == keys[mi]);
        CHECK(CF_I(w, age)[k] == 1);
        tb_vec3 before = prev->local0[mi];
        CHECK_NEAR(0.004, now.x - before.x, 1e-5);
      } else {
        CHECK(mi == -1 && CF_I(w, age)[k] == 0); /* 0.004 > 0.002: new */
      }
    }
    tb_world_destroy(w);
  }
}

/* Capacities smaller than the scene: the pair arrays and the contact store grow in the first
 * collide() (flagged), every pair and point is stored, and the readback is valid. */
static void test_capacity(void) {
  tb_world_def def = tb_default_world_def();
  def.contact_capacity = 5;
  def.pair_capacity = 2;
  tb_world_id w = tb_world_create(&def);
  ground(w);
  for (int i = 0; i < 3; ++i) {
    float p[3] = {3.0f * (float)i, 0.5f, 0};
    box_at(w, p, ID_Q, 0.5f);
  }
  CHECK(tb_world_step(w) == TB_OK);
  tb_contact_status st;
  tb_world_contact_status(w, &st);
  CHECK(st.pairs_requested == 3 && st.pair_count == 3 && st.pairs_grew == 1 && st.pairs_overflowed == 0);
  CHECK(st.requested == 12 && st.count == 12 && st.grew == 1 && st.overflowed == 0);
  tb_readback_info info;
  tb_world_readback_info(w, &info);
  CHECK(info.valid == 1);

  for (int i = 0; i < 60; ++i) CHECK(tb_world_step(w) == TB_OK);
  tb_world_contact_status(w, &st);
  CHECK(st.requested == 12 && st.count == 12 && st.grew == 0 && st.pairs_grew == 0 && st.readback_valid == 1);
  tb_world_readback_info(w, &info);
  CHECK(info.valid == 1);
  /* each box of 1000 kg rests: its normal impulses sum to m g h */
  float per_body[3] = {0, 0, 0};
  for (int32_t k = 0; k < st.count; ++k) {
    int32_t body = CF_I(w, body1)[k];
    int idx = (int)(get3(CF_F(w, point), k).x / 3.0f + 0.5f);
    CHECK(body >= 0 && idx >= 0 && idx < 3);
    if (idx >= 0 && idx < 3) per_body[idx] += CF_F(w, normal_impulse)[k];
  }
  for (int i = 0; i < 3; ++i) CHECK_NEAR(1000.0 * 9.81 * def.timestep, per_body[i], 0.01 * 1000.0 * 9.81 * def.timestep);
  tb_world_destroy(w);
}

/* Bad input: a clear error naming the field and value; nothing changes. */
static void test_validation(void) {
  tb_world_id w = make_world(TB_DISTANCE_PHYSX, 0.02f);
  tb_shape_id g = ground(w);
  CHECK(tb_shape_set_distances(w, g, 0.01f, 0.02f, 0.03f, 0.01f) == TB_OK);
  CHECK(tb_shape_set_distances(w, g, NAN, 0, 0, 0) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "margin must be finite and >= 0 (got nan)") != NULL);
  CHECK(tb_shape_set_distances(w, g, 0, -0.5f, 0, 0) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "gap must be finite and >= 0 (got -0.5)") != NULL);
  CHECK(tb_shape_set_distances(w, g, 0, 0, 0.01f, 0.02f) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "restOffset must be finite and <= contactOffset 0.01 (got 0.02)") != NULL);
  CHECK(tb_shape_set_distances(w, 999999, 0, 0, 0, 0) == TB_ERR_NOT_FOUND);
  float out[4];
  CHECK(tb_shape_get_distances(w, g, out) == TB_OK);
  CHECK(out[0] == 0.01f && out[1] == 0.02f && out[2] == 0.03f && out[3] == 0.01f);
  CHECK(set_distance_rule(w, 7) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "collision.distance_rule must be in [0, 3) (got 7)") != NULL);
  CHECK(set_matching(w, TB_MATCHING_STICKY, -1.0f) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "collision.match_distance must be finite and >= 0 (got -1)") != NULL);
  CHECK(set_matching(w, 2, 0.01f) == TB_ERR_INVALID_ARGUMENT);
  tb_world_def d;
  tb_world_get_def(w, &d);
  CHECK(d.collision.distance_rule == TB_DISTANCE_PHYSX && d.collision.matching == TB_MATCHING_LATEST);
  CHECK_NEAR(0.01, d.collision.match_distance, 1e-9);
  CHECK(set_distance_rule(w, TB_DISTANCE_MUJOCO) == TB_OK);
  tb_world_get_def(w, &d);
  CHECK(d.collision.distance_rule == TB_DISTANCE_MUJOCO);
  CHECK(tb_world_step(w) == TB_OK); /* still usable */
  tb_world_destroy(w);
}

/* Every pair's point and active-point counts (what the serial passes over the pairs read) are its
 * manifold's after each step, for every distance rule, with sticky matching (which replays points
 * and reclassifies them) and latest; the stacks settle, so points cross their rule's activity
 * threshold from step to step. */
static void test_pair_counts(void) {
  for (int32_t rule = 0; rule < 3; ++rule)
    for (int sticky = 0; sticky < 2; ++sticky) {
      tb_world_id w = make_world(rule, 0.02f);
      CHECK(set_matching(w, sticky ? TB_MATCHING_STICKY : TB_MATCHING_LATEST, 0.05f) == TB_OK);
      ground(w);
      for (int i = 0; i < 40; ++i) {
        float p[3] = {0.3f * (float)(i % 4), 0.6f + 1.1f * (float)(i / 4), 0.2f * (float)(i % 3)};
        box_at(w, p, ID_Q, 0.25f);
      }
      int32_t mismatched = 0, touching = 0;
      for (int s = 0; s < 90; ++s) {
        CHECK(tb_world_step(w) == TB_OK);
        const tb_world* ww = tb_world_get(w);
        for (int32_t i = 0; i < ww->pair_count; ++i) {
          const tb_manifold* m = &ww->manifolds[i];
          int32_t active = 0;
          for (int32_t j = 0; j < m->point_count; ++j) active += m->points[j].active != 0;
          mismatched += ww->pairs[i].points != m->point_count || ww->pairs[i].active != active;
          touching += active > 0;
        }
      }
      CHECK(touching > 1000); /* the boxes rest on each other: many pairs with active points */
      if (mismatched) fprintf(stderr, "rule %d sticky %d: %d pair counts differ from their manifolds\n", rule, sticky, mismatched);
      CHECK(mismatched == 0);
      tb_world_destroy(w);
    }
}

/* The record and the matching are the same for 1 and 3 threads. */
static void test_threads(void) {
  uint32_t sums[2] = {0, 0};
  for (int t = 0; t < 2; ++t) {
    int threads = t == 0 ? 1 : (tb_max_threads() >= 3 ? 3 : 1);
    tb_world_def def = tb_default_world_def();
    def.thread_count = threads;
    def.collision.matching = TB_MATCHING_STICKY;
    tb_world_id w = tb_world_create(&def);
    ground(w);
    for (int i = 0; i < 40; ++i) {
      float p[3] = {0.3f * (float)(i % 4), 0.6f + 1.1f * (float)(i / 4), 0.2f * (float)(i % 3)};
      box_at(w, p, ID_Q, 0.25f);
    }
    for (int s = 0; s < 60; ++s) tb_world_step(w);
    tb_contact_status st;
    tb_world_contact_status(w, &st);
    uint32_t h = 2166136261u;
    for (int32_t k = 0; k < st.count; ++k) {
      uint32_t v[4];
      memcpy(&v[0], &CF_F(w, distance)[k], 4);
      v[1] = CF_U(w, match_key)[k];
      v[2] = (uint32_t)CF_I(w, age)[k];
      memcpy(&v[3], &CF_F(w, local_point0)[3 * k], 4);
      for (int i = 0; i < 4; ++i) h = (h ^ v[i]) * 16777619u;
    }
    sums[t] = h;
    tb_world_destroy(w);
  }
  CHECK(sums[0] == sums[1]);
}

int main(void) {
  test_newton();
  test_mujoco();
  test_physx();
  test_rest_offset();
  test_record_fields();
  test_match_keys();
  test_slot_reuse();
  test_sticky();
  test_nearest_fallback();
  test_capacity();
  test_validation();
  test_threads();
  test_pair_counts();
  return tb_test_report("test_distance");
}
