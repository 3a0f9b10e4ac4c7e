/* Tests of the candidate-pair pipeline and the queries: filter truth tables per rule (Newton,
 * MuJoCo, PhysX, Genesis), explicit MuJoCo pairs bypassing the bitmask, PhysX triggers (detected,
 * reported, no impulse), the Genesis pair limit, agreement of the three broad-phase generators,
 * sleeping bodies, ray casts against closed forms and overlap queries. */
#include <stdlib.h>
#include <string.h>

#include "../../src/collision/filter.h"
#include "../../src/api/api.h" /* tb_world_get: the world as a reader sees it */
#include "../../src/world/world.h"
#include "test_util.h"

#define TB_TEST_SEED 0x51ED5u
#include "test_random.h"

static const float ID_Q[4] = {0, 0, 0, 1};
static const float ZERO[3] = {0, 0, 0};

/* One collision axis through tb_world_set_collision (the same checks as every other axis). */
static tb_status set_axis(tb_world_id w, int32_t* (*field)(tb_collision_params*), int32_t v) {
  tb_world_def d;
  tb_world_get_def(w, &d);
  *field(&d.collision) = v;
  return tb_world_set_collision(w, &d.collision);
}
static int32_t* broad_phase_of(tb_collision_params* c) { return &c->broad_phase; }
static int32_t* filter_rule_of(tb_collision_params* c) { return &c->filter_rule; }
static int32_t* max_pairs_of(tb_collision_params* c) { return &c->max_collision_pairs; }
static tb_status set_broad_phase(tb_world_id w, int32_t v) { return set_axis(w, broad_phase_of, v); }
static tb_status set_filter_rule(tb_world_id w, int32_t v) { return set_axis(w, filter_rule_of, v); }
static tb_status set_max_pairs(tb_world_id w, int32_t v) { return set_axis(w, max_pairs_of, v); }

static tb_world_id make_world(int32_t rule, int gravity) {
  tb_world_def def = tb_default_world_def();
  def.collision.filter_rule = rule;
  if (!gravity) def.gravity[1] = 0.0f;
  return tb_world_create(&def);
}

/* A body of `type` at p with one sphere of radius r; returns the shape id, body id in *body. */
static tb_shape_id sphere_at(tb_world_id w, tb_body_type type, float x, float y, float z, float r, tb_body_id* body) {
  float p[3] = {x, y, z}, sp[4] = {r, 0, 0, 0};
  tb_body_id b = tb_body_create(w, type, p, ID_Q);
  if (body) *body = b;
  return tb_shape_create(w, b, TB_SHAPE_SPHERE, sp, ZERO, ID_Q, 0.5f, 0.0f, 1000.0f);
}

static tb_shape_id box_at(tb_world_id w, tb_body_type type, const float p[3], const float q[4], const float h[3], tb_body_id* body) {
  float bp[4] = {h[0], h[1], h[2], 0};
  tb_body_id b = tb_body_create(w, type, p, q);
  if (body) *body = b;
  return tb_shape_create(w, b, TB_SHAPE_BOX, bp, ZERO, ID_Q, 0.5f, 0.0f, 1000.0f);
}

/* Flags of the single candidate pair after collide(), 0 when there is none. */
static int32_t pair_flags(tb_world_id w) {
  CHECK(tb_world_collide(w) == TB_OK);
  tb_world* wp = tb_world_get(w);
  CHECK(wp->pair_count <= 1);
  return wp->pair_count == 1 ? wp->pairs[0].flags : 0;
}

/* Two overlapping dynamic spheres a, b (no gravity) under `rule`. */
typedef struct two { tb_world_id w; tb_shape_id a, b; tb_body_id ba, bb; } two;
static two two_spheres(int32_t rule) {
  two t;
  t.w = make_world(rule, 0);
  t.a = sphere_at(t.w, TB_BODY_DYNAMIC, 0, 0, 0, 0.5f, &t.ba);
  t.b = sphere_at(t.w, TB_BODY_DYNAMIC, 0.8f, 0, 0, 0.5f, &t.bb);
  return t;
}

static void set_filter(tb_world_id w, tb_shape_id s, const tb_shape_filter* f) { CHECK(tb_shape_set_filter(w, s, f) == TB_OK); }

#define ALL (TB_PAIR_DETECT | TB_PAIR_SOLVE | TB_PAIR_NOTIFY)

static void test_newton_table(void) {
  /* world a, world b, group a, group b -> collides */
  static const int32_t rows[][5] = {
      {-1, -1, 1, 1, 1}, {0, 1, 1, 1, 0},  {0, 0, 1, 1, 1},   {-1, 3, 1, 1, 1},  {2, -1, 1, 1, 1},
      {0, 0, 0, 1, 0},   {0, 0, 0, 0, 0},  {0, 0, 1, 2, 0},   {0, 0, 1, -1, 1},  {0, 0, -1, 1, 1},
      {0, 0, -1, -1, 0}, {0, 0, -1, -2, 1}, {0, 0, 2, 2, 1},  {0, 0, -3, 0, 0},  {4, 5, -1, -2, 0},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
    two t = two_spheres(TB_FILTER_NEWTON);
    tb_shape_filter fa, fb;
    tb_default_shape_filter(&fa);
    tb_default_shape_filter(&fb);
    fa.world = rows[i][0]; fb.world = rows[i][1];
    fa.collision_group = rows[i][2]; fb.collision_group = rows[i][3];
    set_filter(t.w, t.a, &fa);
    set_filter(t.w, t.b, &fb);
    int32_t f = pair_flags(t.w);
    if ((f == ALL) != (rows[i][4] == 1)) fprintf(stderr, "newton row %zu: flags %d\n", i, f);
    CHECK(f == (rows[i][4] ? ALL : 0));
    tb_world_destroy(t.w);
  }
  /* explicit exclusion pairs, added and removed */
  two t = two_spheres(TB_FILTER_NEWTON);
  CHECK(pair_flags(t.w) == ALL);
  CHECK(tb_world_set_shape_pair_excluded(t.w, t.b, t.a, 1) == TB_OK);
  CHECK(pair_flags(t.w) == 0);
  CHECK(tb_world_set_shape_pair_excluded(t.w, t.a, t.b, 0) == TB_OK);
  CHECK(pair_flags(t.w) == ALL);
  /* exclusions are Newton's: under MuJoCo the pair collides */
  CHECK(tb_world_set_shape_pair_excluded(t.w, t.a, t.b, 1) == TB_OK);
  CHECK(set_filter_rule(t.w, TB_FILTER_MUJOCO) == TB_OK);
  CHECK(pair_flags(t.w) == ALL);
  /* same body: two overlapping shapes of one body never pair */
  float sp[4] = {0.5f, 0, 0, 0}, off[3] = {0.2f, 0, 0};
  CHECK(tb_shape_create(t.w, t.ba, TB_SHAPE_SPHERE, sp, off, ID_Q, 0.5f, 0, 1000) >= 0);
  CHECK(set_filter_rule(t.w, TB_FILTER_NEWTON) == TB_OK);
  CHECK(tb_world_collide(t.w) == TB_OK);
  tb_contact_status cs;
  tb_world_contact_status(t.w, &cs);
  CHECK_NEAR(1, cs.pair_count, 0); /* the new shape of body a pairs with b only, b stays excluded with a */
  tb_world_destroy(t.w);
}

static void bitmask_rows(int32_t rule) {
  /* contype a, conaffinity a, contype b, conaffinity b -> collides */
  static const uint32_t rows[][5] = {
      {1, 1, 1, 1, 1}, {1, 0, 0, 1, 1}, {1, 0, 1, 0, 0}, {2, 1, 1, 2, 1}, {0, 0, 1, 1, 0},
      {4, 4, 2, 2, 0}, {0, 1, 1, 0, 1}, {6, 0, 0, 2, 1}, {0, 0, 0, 0, 0}, {8, 8, 8, 0, 1},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
    two t = two_spheres(rule);
    tb_shape_filter fa, fb;
    tb_default_shape_filter(&fa);
    tb_default_shape_filter(&fb);
    fa.contype = rows[i][0]; fa.conaffinity = rows[i][1];
    fb.contype = rows[i][2]; fb.conaffinity = rows[i][3];
    set_filter(t.w, t.a, &fa);
    set_filter(t.w, t.b, &fb);
    int32_t f = pair_flags(t.w);
    if ((f != 0) != (rows[i][4] == 1)) fprintf(stderr, "rule %d bitmask row %zu: flags %d\n", rule, i, f);
    CHECK(f == (rows[i][4] ? ALL : 0));
    tb_world_destroy(t.w);
  }
  /* parent/child: either direction filters the pair; clearing restores it */
  two t = two_spheres(rule);
  CHECK(tb_body_set_parent(t.w, t.bb, t.ba) == TB_OK);
  tb_body_id parent = -7;
  CHECK(tb_body_get_parent(t.w, t.bb, &parent) == TB_OK);
  CHECK(parent == t.ba);
  CHECK(tb_body_get_parent(t.w, t.ba, &parent) == TB_OK);
  CHECK(parent == -1);
  CHECK(pair_flags(t.w) == 0);
  CHECK(tb_body_set_parent(t.w, t.bb, -1) == TB_OK);
  CHECK(tb_body_set_parent(t.w, t.ba, t.bb) == TB_OK);
  CHECK(pair_flags(t.w) == 0);
  CHECK(tb_body_set_parent(t.w, t.ba, -1) == TB_OK);
  CHECK(pair_flags(t.w) == ALL);
  /* a grandparent is not adjacent */
  tb_body_id c;
  sphere_at(t.w, TB_BODY_STATIC, 100, 0, 0, 0.1f, &c);
  CHECK(tb_body_set_parent(t.w, t.ba, c) == TB_OK);
  CHECK(tb_body_set_parent(t.w, c, t.bb) == TB_OK);
  CHECK(pair_flags(t.w) == ALL);
  tb_world_destroy(t.w);
}

static void test_mujoco(void) {
  bitmask_rows(TB_FILTER_MUJOCO);
  two t = two_spheres(TB_FILTER_MUJOCO);
  /* exclude body pair */
  CHECK(tb_world_set_body_pair_excluded(t.w, t.ba, t.bb, 1) == TB_OK);
  CHECK(pair_flags(t.w) == 0);
  /* an explicit pair bypasses exclusion, parent/child and the bitmask, and carries its params */
  tb_shape_filter f;
  tb_default_shape_filter(&f);
  f.contype = 0; f.conaffinity = 0;
  set_filter(t.w, t.a, &f);
  set_filter(t.w, t.b, &f);
  CHECK(tb_body_set_parent(t.w, t.bb, t.ba) == TB_OK);
  CHECK(pair_flags(t.w) == 0);
  tb_contact_pair_params pp;
  tb_contact_pair_default_into(&pp);
  pp.margin = 0.003f;
  pp.gap = 0.004f;
  const float pf[5] = {0.9f, 0.9f, 0.01f, 0.001f, 0.001f};
  memcpy(pp.friction, pf, sizeof pf);
  CHECK(tb_world_set_contact_pair(t.w, t.b, t.a, &pp) == TB_OK);
  CHECK(pair_flags(t.w) == (ALL | TB_PAIR_EXPLICIT));
  tb_world* wp = tb_world_get(t.w);
  const tb_contact_pair_params* got = tb_filter_contact_pair(wp, wp->pairs[0].shape0, wp->pairs[0].shape1);
  CHECK(got != NULL);
  if (got) {
    CHECK_NEAR(0.003f, got->margin, 0);
    CHECK_NEAR(0.004f, got->gap, 0);
    CHECK_NEAR(0.01f, got->friction[2], 0);
  }
  /* an explicit pair is MuJoCo's: under Genesis the bitmask filters it */
  CHECK(set_filter_rule(t.w, TB_FILTER_GENESIS) == TB_OK);
  CHECK(pair_flags(t.w) == 0);
  CHECK(set_filter_rule(t.w, TB_FILTER_MUJOCO) == TB_OK);
  /* removing the pair restores the filters */
  CHECK(tb_world_set_contact_pair(t.w, t.a, t.b, NULL) == TB_OK);
  CHECK(pair_flags(t.w) == 0);
  /* bad parameters: named, world unchanged */
  pp.gap = -1.0f;
  CHECK(tb_world_set_contact_pair(t.w, t.a, t.b, &pp) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(t.w), "gap") != NULL);
  pp.gap = 0.0f; pp.friction[3] = NAN;
  CHECK(tb_world_set_contact_pair(t.w, t.a, t.b, &pp) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(t.w), "friction[3]") != NULL);
  CHECK(tb_world_set_contact_pair(t.w, t.a, t.a, NULL) == TB_ERR_INVALID_ARGUMENT);
  CHECK(tb_world_set_body_pair_excluded(t.w, t.ba, t.bb, 2) == TB_ERR_INVALID_ARGUMENT);
  CHECK(tb_body_set_parent(t.w, t.ba, t.ba) == TB_ERR_INVALID_ARGUMENT);
  CHECK(tb_body_set_parent(t.w, t.ba, 12345) == TB_ERR_NOT_FOUND);
  CHECK(pair_flags(t.w) == 0);
  tb_world_destroy(t.w);
}

/* Under the MuJoCo distance rule an explicit pair's margin and gap replace the shapes' sums. */
static void test_mujoco_pair_distances(void) {
  tb_world_def def = tb_default_world_def();
  def.gravity[1] = 0.0f;
  def.collision.filter_rule = TB_FILTER_MUJOCO;
  def.collision.distance_rule = TB_DISTANCE_MUJOCO;
  tb_world_id w = tb_world_create(&def);
  tb_shape_id a = sphere_at(w, TB_BODY_DYNAMIC, 0, 0, 0, 0.5f, NULL);
  tb_shape_id b = sphere_at(w, TB_BODY_DYNAMIC, 1.03f, 0, 0, 0.5f, NULL); /* surfaces 0.03 m apart */
  CHECK(tb_world_collide(w) == TB_OK);
  tb_contact_status cs;
  tb_world_contact_status(w, &cs);
  CHECK_NEAR(0, cs.count, 0); /* shape margins and gaps 0: nothing detected at 0.03 m */
  /* margin 0.05: active (0.03 < 0.05) */
  tb_contact_pair_params pp;
  tb_contact_pair_default_into(&pp);
  pp.margin = 0.05f;
  CHECK(tb_world_set_contact_pair(w, a, b, &pp) == TB_OK);
  CHECK(tb_world_collide(w) == TB_OK);
  tb_world_contact_status(w, &cs);
  CHECK_NEAR(1, cs.count, 0);
  tb_world* wp = tb_world_get(w);
  CHECK(wp->manifolds[0].point_count == 1 && wp->manifolds[0].points[0].active == 1);
  /* margin 0.01, gap 0.03: detected (0.03 < 0.04), no force row (0.03 >= 0.01) */
  pp.margin = 0.01f; pp.gap = 0.03f;
  CHECK(tb_world_set_contact_pair(w, a, b, &pp) == TB_OK);
  CHECK(tb_world_collide(w) == TB_OK);
  tb_world_contact_status(w, &cs);
  CHECK_NEAR(1, cs.count, 0);
  CHECK(wp->manifolds[0].point_count == 1 && wp->manifolds[0].points[0].active == 0);
  tb_world_destroy(w);
}

static void test_physx_table(void) {
  typedef struct { uint32_t fa[4]; int32_t ta; uint32_t fb[4]; int32_t tb; int32_t flags; } row;
  const int32_t DS = TB_PAIR_DETECT | TB_PAIR_SOLVE, TRIG = TB_PAIR_DETECT | TB_PAIR_NOTIFY | TB_PAIR_TRIGGER;
  const row rows[] = {
      {{0, 0, 0, 0}, 0, {0, 0, 0, 0}, 0, DS},                   /* eCONTACT_DEFAULT: detect + solve, no reports */
      {{0, 0, 0, 0}, 1, {0, 0, 0, 0}, 0, TRIG},                 /* trigger: detect + report, no solve */
      {{0, 0, 0, 0}, 0, {0, 0, 0, 0}, 1, TRIG},
      {{0, 0, 0, 0}, 1, {0, 0, 0, 0}, 1, 0},                    /* no trigger-trigger pairs */
      {{1, 2, 0, 0}, 0, {2, 1, 0, 0}, 0, DS},                   /* masks agree both ways */
      {{1, 2, 0, 0}, 0, {1, 2, 0, 0}, 0, 0},                    /* 1 & 2 = 0 */
      {{1, 3, 0, 0}, 0, {2, 1, 0, 0}, 0, DS},
      {{1, 2, 0, 0}, 0, {2, 2, 0, 0}, 0, 0},                    /* (1 & 2) && ... fails one way */
      {{1, 2, 2, 0}, 0, {2, 1, 0, 0}, 0, DS | TB_PAIR_NOTIFY},  /* word2 of a names b's group */
      {{1, 2, 0, 0}, 0, {2, 1, 1, 0}, 0, DS | TB_PAIR_NOTIFY},
      {{1, 2, 4, 0}, 0, {2, 1, 0, 0}, 0, DS},                   /* word2 names another group */
      {{1, 0, 0, 0}, 0, {2, 4, 0, 0}, 0, DS},                   /* word1 zero: no mask test */
      {{1, 2, 0, 0}, 1, {1, 2, 0, 0}, 0, 0},                    /* the mask applies to triggers too */
      {{1, 2, 0, 0}, 1, {2, 1, 0, 0}, 0, TRIG},
  };
  {
    /* default filter data: group 1, reports every group */
    two t = two_spheres(TB_FILTER_PHYSX);
    CHECK(pair_flags(t.w) == (DS | TB_PAIR_NOTIFY));
    tb_world_destroy(t.w);
  }
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
    two t = two_spheres(TB_FILTER_PHYSX);
    tb_shape_filter fa, fb;
    tb_default_shape_filter(&fa);
    tb_default_shape_filter(&fb);
    memcpy(fa.filter_data, rows[i].fa, sizeof fa.filter_data);
    memcpy(fb.filter_data, rows[i].fb, sizeof fb.filter_data);
    fa.trigger = rows[i].ta; fb.trigger = rows[i].tb;
    set_filter(t.w, t.a, &fa);
    set_filter(t.w, t.b, &fb);
    int32_t f = pair_flags(t.w);
    if (f != rows[i].flags) fprintf(stderr, "physx row %zu: flags %d, expected %d\n", i, f, rows[i].flags);
    CHECK(f == rows[i].flags);
    tb_world_destroy(t.w);
  }
}

/* A ball flies through a static trigger box: contacts are found and stored, no impulse acts. */
static void trigger_run(int trigger, float* vx_end, int* contact_steps, float* max_dv, float* max_impulse) {
  tb_world_id w = make_world(TB_FILTER_PHYSX, 0);
  float bp[3] = {0, 0, 0}, h[3] = {0.5f, 0.5f, 0.5f};
  tb_shape_id box = box_at(w, TB_BODY_STATIC, bp, ID_Q, h, NULL);
  tb_shape_filter f;
  tb_default_shape_filter(&f);
  f.trigger = trigger;
  set_filter(w, box, &f);
  tb_body_id ball;
  sphere_at(w, TB_BODY_DYNAMIC, -2, 0, 0, 0.25f, &ball);
  const float v0[3] = {3, 0, 0};
  tb_body_set_velocity(w, ball, v0, ZERO);
  *contact_steps = 0;
  *max_dv = 0;
  *max_impulse = 0;
  float st[13];
  for (int i = 0; i < 120; ++i) {
    CHECK(tb_world_step(w) == TB_OK);
    tb_contact_status cs;
    tb_world_contact_status(w, &cs);
    tb_body_get_state(w, ball, st);
    if (cs.count > 0) {
      ++*contact_steps;
      float dv = fabsf(st[7] - 3.0f) + fabsf(st[8]) + fabsf(st[9]);
      if (dv > *max_dv) *max_dv = dv;
      const float* imp = (const float*)tb_world_field(w, TB_FIELDS_CONTACT, TB_CONTACT_FIELD_normal_impulse);
      for (int32_t k = 0; k < cs.count; ++k)
        if (fabsf(imp[k]) > *max_impulse) *max_impulse = fabsf(imp[k]);
    }
  }
  *vx_end = st[7];
  tb_world_destroy(w);
}

static void test_trigger(void) {
  float vx, dv, imp;
  int steps;
  trigger_run(1, &vx, &steps, &dv, &imp);
  CHECK(steps >= 20); /* 1.5 m of box + ball at 3 m/s = ~0.5 s = ~30 steps with contacts */
  CHECK_NEAR(0.0, dv, 1e-6);
  CHECK_NEAR(0.0, imp, 0.0);
  CHECK_NEAR(3.0, vx, 1e-6);
  /* the same box without the trigger flag stops the ball */
  trigger_run(0, &vx, &steps, &dv, &imp);
  CHECK(vx < 1.0f);
  CHECK(imp > 0.0f);
}

static void test_genesis(void) {
  bitmask_rows(TB_FILTER_GENESIS);
  /* static-static pairs and kinematic-static pairs are skipped */
  tb_world_id w = make_world(TB_FILTER_GENESIS, 1);
  sphere_at(w, TB_BODY_STATIC, 0, 0, 0, 0.5f, NULL);
  sphere_at(w, TB_BODY_STATIC, 0.5f, 0, 0, 0.5f, NULL);
  sphere_at(w, TB_BODY_KINEMATIC, 0.2f, 0.2f, 0, 0.5f, NULL);
  CHECK(tb_world_collide(w) == TB_OK);
  tb_contact_status cs;
  tb_world_contact_status(w, &cs);
  CHECK_NEAR(0, cs.pair_count, 0);
  tb_world_destroy(w);

  /* max_collision_pairs: 5 balls on a plane = 5 pairs; a limit of 3 stops the step */
  w = make_world(TB_FILTER_GENESIS, 1);
  float plane[4] = {0, 1, 0, 0};
  tb_body_id g = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  tb_shape_create(w, g, TB_SHAPE_PLANE, plane, ZERO, ID_Q, 0.5f, 0, 1);
  tb_body_id balls[5];
  for (int i = 0; i < 5; ++i) sphere_at(w, TB_BODY_DYNAMIC, 2.0f * (float)i, 0.49f, 0, 0.5f, &balls[i]);
  CHECK(set_max_pairs(w, 3) == TB_OK);
  float before[13], after[13];
  tb_body_get_state(w, balls[2], before);
  CHECK(tb_world_step(w) == TB_ERR_CAPACITY);
  CHECK(strstr(tb_last_error(w), "5 candidate pairs") != NULL);
  CHECK(strstr(tb_last_error(w), "max_collision_pairs 3") != NULL);
  tb_body_get_state(w, balls[2], after);
  CHECK(memcmp(before, after, sizeof before) == 0); /* nothing moved */
  CHECK(tb_world_solve(w) == TB_ERR_INVALID_STATE);  /* no half-collided frame to solve */
  CHECK(set_max_pairs(w, -1) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "max_collision_pairs") != NULL);
  /* usable afterwards: raise the limit and step */
  CHECK(set_max_pairs(w, 5) == TB_OK);
  CHECK(tb_world_step(w) == TB_OK);
  tb_contact_status st;
  tb_world_contact_status(w, &st);
  CHECK_NEAR(5, st.pair_count, 0);
  CHECK(set_max_pairs(w, 0) == TB_OK);
  CHECK(tb_world_step(w) == TB_OK);
  tb_world_destroy(w);
}

/* ---- broad phase ---- */

typedef struct snapshot {
  int32_t count;
  int32_t shape0[4096], shape1[4096];
  float point[3 * 4096], sep[4096];
} snapshot;

static void take(tb_world_id w, snapshot* s) {
  tb_contact_status cs;
  tb_world_contact_status(w, &cs);
  CHECK(!cs.overflowed && cs.count <= 4096);
  s->count = cs.count < 4096 ? cs.count : 4096;
  memcpy(s->shape0, tb_world_field(w, TB_FIELDS_CONTACT, TB_CONTACT_FIELD_shape0), (size_t)s->count * 4);
  memcpy(s->shape1, tb_world_field(w, TB_FIELDS_CONTACT, TB_CONTACT_FIELD_shape1), (size_t)s->count * 4);
  memcpy(s->point, tb_world_field(w, TB_FIELDS_CONTACT, TB_CONTACT_FIELD_point), (size_t)s->count * 12);
  memcpy(s->sep, tb_world_field(w, TB_FIELDS_CONTACT, TB_CONTACT_FIELD_separation), (size_t)s->count * 4);
}

static int same(const snapshot* a, const snapshot* b) {
  return a->count == b->count && !memcmp(a->shape0, b->shape0, (size_t)a->count * 4) &&
         !memcmp(a->shape1, b->shape1, (size_t)a->count * 4) && !memcmp(a->point, b->point, (size_t)a->count * 12) &&
         !memcmp(a->sep, b->sep, (size_t)a->count * 4);
}

static void test_generators_agree(void) {
  tb_world_id w = make_world(TB_FILTER_PHYSX, 1);
  /* full generations only: a refreshed manifold (collision.persistent_manifolds) carries the points
   * of the collide() before it, and that one differs between the three generators */
  tb_world_def def;
  tb_world_get_def(w, &def);
  def.collision.persistent_manifolds = 0;
  CHECK(tb_world_set_collision(w, &def.collision) == TB_OK);
  float plane[4] = {0, 1, 0, 0};
  tb_body_id g = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  tb_shape_id ids[200];
  int n = 0;
  ids[n++] = tb_shape_create(w, g, TB_SHAPE_PLANE, plane, ZERO, ID_Q, 0.5f, 0, 1);
  for (int i = 0; i < 80; ++i) {
    tb_vec3 p = rand_vec();
    float pos[3] = {2.0f * p.x, 0.6f + frand01() * 2.0f, 2.0f * p.z};
    tb_quat q = rand_quat();
    float rot[4] = {q.x, q.y, q.z, q.w};
    tb_body_id b = tb_body_create(w, i % 7 == 0 ? TB_BODY_STATIC : TB_BODY_DYNAMIC, pos, rot);
    int kind = i % 3;
    float sp[4] = {0.2f + 0.2f * frand01(), 0.1f + 0.3f * frand01(), 0.1f + 0.3f * frand01(), 0};
    ids[n++] = tb_shape_create(w, b, kind == 0 ? TB_SHAPE_SPHERE : kind == 1 ? TB_SHAPE_CAPSULE : TB_SHAPE_BOX, sp, ZERO, ID_Q,
                               0.5f, 0, 1000);
  }
  /* every shape pair in the explicit list (in a scrambled order) */
  int32_t* list = (int32_t*)malloc(sizeof(int32_t) * (size_t)n * (size_t)n);
  int32_t m = 0;
  for (int i = n - 1; i >= 0; --i)
    for (int j = 0; j < i; ++j) { list[2 * m] = ids[i]; list[2 * m + 1] = ids[j]; ++m; }
  CHECK(tb_world_set_explicit_pairs(w, list, m) == TB_OK);
  static snapshot sap, allp, expl;
  for (int step = 0; step < 3; ++step) {
    CHECK(set_broad_phase(w, TB_BROAD_PHASE_SAP) == TB_OK);
    CHECK(tb_world_collide(w) == TB_OK);
    take(w, &sap);
    tb_contact_status cs;
    tb_world_contact_status(w, &cs);
    int32_t pairs_sap = cs.pair_count;
    CHECK(set_broad_phase(w, TB_BROAD_PHASE_ALL_PAIRS) == TB_OK);
    CHECK(tb_world_collide(w) == TB_OK);
    take(w, &allp);
    tb_world_contact_status(w, &cs);
    CHECK_NEAR(pairs_sap, cs.pair_count, 0);
    CHECK(set_broad_phase(w, TB_BROAD_PHASE_EXPLICIT) == TB_OK);
    CHECK(tb_world_collide(w) == TB_OK);
    take(w, &expl);
    tb_world_contact_status(w, &cs);
    CHECK_NEAR(pairs_sap, cs.pair_count, 0);
    CHECK(sap.count > 20);
    CHECK(same(&sap, &allp));
    CHECK(same(&sap, &expl));
    CHECK(tb_world_solve(w) == TB_OK);
  }
  /* a partial list: only the listed pairs */
  tb_world_contact_status(w, &(tb_contact_status){0});
  CHECK(tb_world_set_explicit_pairs(w, list, 0) == TB_OK);
  CHECK(tb_world_collide(w) == TB_OK);
  tb_contact_status cs;
  tb_world_contact_status(w, &cs);
  CHECK_NEAR(0, cs.pair_count, 0);
  /* bad ids leave the list unchanged and are named */
  int32_t bad[4] = {ids[1], ids[2], ids[3], 999999};
  CHECK(tb_world_set_explicit_pairs(w, bad, 2) == TB_ERR_NOT_FOUND);
  CHECK(strstr(tb_last_error(w), "999999") != NULL);
  int32_t twice[2] = {ids[1], ids[1]};
  CHECK(tb_world_set_explicit_pairs(w, twice, 1) == TB_ERR_INVALID_ARGUMENT);
  CHECK(tb_world_set_explicit_pairs(w, list, -1) == TB_ERR_INVALID_ARGUMENT);
  CHECK(set_broad_phase(w, 3) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "broad_phase") != NULL);
  free(list);
  tb_world_destroy(w);

  /* a removed shape leaves the list: its slot's next owner is not paired through it */
  w = make_world(TB_FILTER_PHYSX, 0);
  tb_shape_id a = sphere_at(w, TB_BODY_DYNAMIC, 0, 0, 0, 0.5f, NULL);
  tb_body_id bb;
  tb_shape_id b = sphere_at(w, TB_BODY_DYNAMIC, 0.5f, 0, 0, 0.5f, &bb);
  int32_t dup[6] = {a, b, b, a, a, b}; /* duplicates and either order: one pair */
  CHECK(tb_world_set_explicit_pairs(w, dup, 3) == TB_OK);
  CHECK_NEAR(1, tb_world_get(w)->explicit_pairs.count, 0);
  CHECK(set_broad_phase(w, TB_BROAD_PHASE_EXPLICIT) == TB_OK);
  CHECK(pair_flags(w) != 0);
  CHECK(tb_body_destroy(w, bb) == TB_OK);
  tb_shape_id c = sphere_at(w, TB_BODY_DYNAMIC, 0.5f, 0, 0, 0.5f, NULL);
  CHECK(tb_id_slot(c) == tb_id_slot(b));
  CHECK(pair_flags(w) == 0);
  tb_world_destroy(w);
}

/* ---- sleep ---- */

/* Under every preset's solver: the solver body list skips sleeping bodies. */
static void test_sleeping(tb_preset preset) {
  tb_world_def def = tb_default_world_def();
  CHECK(tb_preset_apply(preset, &def) == TB_OK);
  def.solver.sleep.mode = TB_SLEEP_OFF; /* manual sleep: nothing wakes a body (test_sleep.c: automatic) */
  tb_world_id w = tb_world_create(&def);
  float plane[4] = {0, 1, 0, 0};
  tb_body_id g = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  tb_shape_create(w, g, TB_SHAPE_PLANE, plane, ZERO, ID_Q, 0.5f, 0, 1);
  tb_body_id low, high, air;
  sphere_at(w, TB_BODY_DYNAMIC, 0, 0.5f, 0, 0.5f, &low);    /* on the plane */
  sphere_at(w, TB_BODY_DYNAMIC, 0, 1.5f, 0, 0.5f, &high);   /* resting on `low` */
  sphere_at(w, TB_BODY_DYNAMIC, 5, 3.0f, 0, 0.5f, &air);    /* in the air */
  const float inertia[3] = {0.1f, 0.1f, 0.1f};
  /* 2 kg: the penalty solver's default stiffness holds it, and its friction is stable at the default
   * 8 substeps (h/8 · kf / m = 1.04 <= 2); the falling `air` too, which it judges before it lands */
  CHECK(tb_body_set_mass(w, high, 2.0f, ZERO, inertia) == TB_OK);
  CHECK(tb_body_set_mass(w, air, 2.0f, ZERO, inertia) == TB_OK);
  const float v[3] = {1, 2, 3};
  tb_body_set_velocity(w, air, v, v);
  CHECK(tb_body_set_sleeping(w, low, 1) == TB_OK);
  CHECK(tb_body_set_sleeping(w, air, 1) == TB_OK);
  CHECK(tb_body_is_sleeping(w, low) == 1);
  CHECK(tb_body_is_sleeping(w, high) == 0);
  float s0[13], s1[13];
  tb_body_get_state(w, air, s0);
  CHECK_NEAR(0, s0[7] * s0[7] + s0[8] * s0[8] + s0[9] * s0[9] + s0[10] * s0[10], 0); /* velocities zeroed */
  float lo0[13];
  tb_body_get_state(w, low, lo0);
  for (int i = 0; i < 60; ++i) CHECK(tb_world_step(w) == TB_OK);
  /* sleeping bodies are not moved at all (not even by gravity or the awake body on top) */
  tb_body_get_state(w, air, s1);
  CHECK(memcmp(s0, s1, sizeof s0) == 0);
  float lo1[13];
  tb_body_get_state(w, low, lo1);
  CHECK(memcmp(lo0, lo1, sizeof lo0) == 0);
  /* the awake body rests on the sleeping one as on a static body: 1.5 m up, at rest */
  float hi[13];
  tb_body_get_state(w, high, hi);
  if (fabsf(hi[1] - 1.5f) > 0.02f) fprintf(stderr, "preset %d: resting height %g\n", (int)preset, (double)hi[1]);
  CHECK_NEAR(1.5, hi[1], 0.02);
  CHECK_NEAR(0.0, hi[8], 0.05);
  /* pairs: high-low (awake vs sleeping) kept; low-plane (sleeping vs static) skipped */
  tb_contact_status cs;
  tb_world_contact_status(w, &cs);
  CHECK_NEAR(1, cs.pair_count, 0);
  /* two sleeping bodies never pair */
  CHECK(tb_body_set_sleeping(w, high, 1) == TB_OK);
  CHECK(tb_world_collide(w) == TB_OK);
  tb_world_contact_status(w, &cs);
  CHECK_NEAR(0, cs.pair_count, 0);
  /* waking: the body falls again */
  CHECK(tb_body_set_sleeping(w, air, 0) == TB_OK);
  for (int i = 0; i < 10; ++i) CHECK(tb_world_step(w) == TB_OK);
  tb_body_get_state(w, air, s1);
  CHECK(s1[1] < 3.0f - 0.1f);
  /* errors */
  CHECK(tb_body_set_sleeping(w, g, 1) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "static") != NULL);
  CHECK(tb_body_set_sleeping(w, air, 7) == TB_ERR_INVALID_ARGUMENT);
  CHECK(tb_body_is_sleeping(w, 424242) == -TB_ERR_NOT_FOUND);
  tb_world_destroy(w);
}

/* ---- queries ---- */

static tb_world_id query_world(void) { return make_world(TB_FILTER_PHYSX, 0); }

static void check_hit(const tb_ray_hit* h, float dist, float px, float py, float pz, float nx, float ny, float nz) {
  CHECK_NEAR(dist, h->distance, 2e-5);
  CHECK_NEAR(px, h->point[0], 2e-5);
  CHECK_NEAR(py, h->point[1], 2e-5);
  CHECK_NEAR(pz, h->point[2], 2e-5);
  CHECK_NEAR(nx, h->normal[0], 2e-5);
  CHECK_NEAR(ny, h->normal[1], 2e-5);
  CHECK_NEAR(nz, h->normal[2], 2e-5);
}

static void test_ray_primitives(void) {
  tb_ray_hit h;
  const float s2 = sqrtf(0.5f);
  /* plane y = 0.25 (offset 0.25 along +y) */
  {
    tb_world_id w = query_world();
    float plane[4] = {0, 1, 0, 0.25f};
    tb_body_id g = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
    tb_shape_id ps = tb_shape_create(w, g, TB_SHAPE_PLANE, plane, ZERO, ID_Q, 0.5f, 0, 1);
    float o[3] = {1, 5.25f, 2}, down[3] = {0, -2, 0};
    CHECK(tb_world_ray_cast(w, o, down, 100, NULL, &h) == 1);
    check_hit(&h, 5, 1, 0.25f, 2, 0, 1, 0);
    CHECK(h.shape == ps && h.body == -1);
    float o2[3] = {0, 3.25f, 0}, obl[3] = {1, -1, 0};
    CHECK(tb_world_ray_cast(w, o2, obl, 100, NULL, &h) == 1);
    check_hit(&h, 3.0f / s2 * 1.0f, 3, 0.25f, 0, 0, 1, 0);
    float par[3] = {1, 0, 0}, up[3] = {0, 1, 0};
    CHECK(tb_world_ray_cast(w, o, par, 100, NULL, &h) == 0); /* parallel */
    CHECK(tb_world_ray_cast(w, o, up, 100, NULL, &h) == 0);  /* away */
    CHECK(tb_world_ray_cast(w, o, down, 4.9f, NULL, &h) == 0); /* beyond maxDistance */
    float below[3] = {0, -1, 0};
    CHECK(tb_world_ray_cast(w, below, par, 100, NULL, &h) == 1); /* starts inside the half-space */
    check_hit(&h, 0, 0, -1, 0, -1, 0, 0);
    tb_world_destroy(w);
  }
  /* sphere r = 0.5 at (3, 1, 0) */
  {
    tb_world_id w = query_world();
    tb_body_id b;
    tb_shape_id s = sphere_at(w, TB_BODY_DYNAMIC, 3, 1, 0, 0.5f, &b);
    float o[3] = {0, 1, 0}, d[3] = {1, 0, 0};
    CHECK(tb_world_ray_cast(w, o, d, 100, NULL, &h) == 1);
    check_hit(&h, 2.5f, 2.5f, 1, 0, -1, 0, 0);
    CHECK(h.shape == s && h.body == b);
    float o2[3] = {0, 1.3f, 0}; /* offset 0.3: chord half-length 0.4 */
    CHECK(tb_world_ray_cast(w, o2, d, 100, NULL, &h) == 1);
    check_hit(&h, 2.6f, 2.6f, 1.3f, 0, -0.8f, 0.6f, 0);
    float o3[3] = {0, 1.6f, 0};
    CHECK(tb_world_ray_cast(w, o3, d, 100, NULL, &h) == 0); /* passes above */
    float in[3] = {3.1f, 1, 0};
    CHECK(tb_world_ray_cast(w, in, d, 100, NULL, &h) == 1);
    check_hit(&h, 0, 3.1f, 1, 0, -1, 0, 0);
    float back[3] = {-1, 0, 0};
    CHECK(tb_world_ray_cast(w, o, back, 100, NULL, &h) == 0);
    tb_world_destroy(w);
  }
  /* boxes: axis-aligned, then rotated 45° about z */
  {
    tb_world_id w = query_world();
    float p[3] = {0, 0, 0}, he[3] = {1, 0.5f, 1};
    box_at(w, TB_BODY_STATIC, p, ID_Q, he, NULL);
    float o[3] = {0.3f, 5, -0.2f}, d[3] = {0, -1, 0};
    CHECK(tb_world_ray_cast(w, o, d, 100, NULL, &h) == 1);
    check_hit(&h, 4.5f, 0.3f, 0.5f, -0.2f, 0, 1, 0);
    float o2[3] = {0, 5, 1.01f};
    CHECK(tb_world_ray_cast(w, o2, d, 100, NULL, &h) == 0); /* just outside the z extent */
    tb_world_destroy(w);

    w = query_world();
    float q[4] = {0, 0, sinf(0.3926991f), cosf(0.3926991f)}; /* 45° about z */
    float he2[3] = {1, 0.5f, 0.5f};
    box_at(w, TB_BODY_DYNAMIC, p, q, he2, NULL);
    float o3[3] = {-5, 0, 0}, dx[3] = {1, 0, 0};
    /* enters through the local +y face, whose plane n·x = 0.5 with n = (-s2, s2, 0) meets the
     * x axis at x = -0.5 / s2 */
    CHECK(tb_world_ray_cast(w, o3, dx, 100, NULL, &h) == 1);
    check_hit(&h, 5 - 0.5f / s2, -0.5f / s2, 0, 0, -s2, s2, 0);
    /* down the y axis: the face planes cross it at y = 0.5 / s2 (local +y face, n = (-s2, s2, 0))
     * and y = 1 / s2 (local +x face, n = (s2, s2, 0)); the box is their intersection, so the ray
     * enters at the lower one */
    float o4[3] = {0, 5, 0}, dy[3] = {0, -1, 0};
    CHECK(tb_world_ray_cast(w, o4, dy, 100, NULL, &h) == 1);
    check_hit(&h, 5 - 0.5f / s2, 0, 0.5f / s2, 0, -s2, s2, 0);
    tb_world_destroy(w);
  }
  /* capsules: r 0.3, half height 0.5 along y; then rotated to lie along x */
  {
    tb_world_id w = query_world();
    float cp[4] = {0.3f, 0.5f, 0, 0};
    tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, ZERO, ID_Q);
    tb_shape_create(w, b, TB_SHAPE_CAPSULE, cp, ZERO, ID_Q, 0.5f, 0, 1000);
    float o[3] = {-2, 0.2f, 0}, dx[3] = {1, 0, 0};
    CHECK(tb_world_ray_cast(w, o, dx, 100, NULL, &h) == 1);
    check_hit(&h, 1.7f, -0.3f, 0.2f, 0, -1, 0, 0);
    float o2[3] = {0, 3, 0}, dy[3] = {0, -1, 0};
    CHECK(tb_world_ray_cast(w, o2, dy, 100, NULL, &h) == 1);
    check_hit(&h, 2.2f, 0, 0.8f, 0, 0, 1, 0);
    /* a cap hit off the axis: ray along -y at x = 0.18 meets the top sphere at y = 0.5 + 0.24 */
    float o3[3] = {0.18f, 3, 0};
    CHECK(tb_world_ray_cast(w, o3, dy, 100, NULL, &h) == 1);
    check_hit(&h, 3 - 0.74f, 0.18f, 0.74f, 0, 0.6f, 0.8f, 0);
    float o4[3] = {-2, 0.9f, 0};
    CHECK(tb_world_ray_cast(w, o4, dx, 100, NULL, &h) == 0); /* above the top cap */
    float in[3] = {0, 0.6f, 0};
    CHECK(tb_world_ray_cast(w, in, dx, 100, NULL, &h) == 1);
    check_hit(&h, 0, 0, 0.6f, 0, -1, 0, 0);
    tb_world_destroy(w);

    w = query_world();
    float q[4] = {0, 0, s2, s2}; /* 90° about z: the segment lies along x */
    b = tb_body_create(w, TB_BODY_DYNAMIC, ZERO, q);
    tb_shape_create(w, b, TB_SHAPE_CAPSULE, cp, ZERO, ID_Q, 0.5f, 0, 1000);
    float o5[3] = {3, 0, 0}, mx[3] = {-1, 0, 0};
    CHECK(tb_world_ray_cast(w, o5, mx, 100, NULL, &h) == 1);
    check_hit(&h, 2.2f, 0.8f, 0, 0, 1, 0, 0);
    float o6[3] = {0.2f, 3, 0};
    CHECK(tb_world_ray_cast(w, o6, dy, 100, NULL, &h) == 1);
    check_hit(&h, 2.7f, 0.2f, 0.3f, 0, 0, 1, 0);
    tb_world_destroy(w);
  }
}

/* Cylinders, ellipsoids and hulls against closed forms; a cube hull against the box routine. */
static void test_ray_convex(void) {
  tb_ray_hit h;
  const float s2 = sqrtf(0.5f);
  {
    tb_world_id w = query_world();
    float cp[4] = {0.4f, 0.6f, 0, 0};
    tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, ZERO, ID_Q);
    CHECK(tb_shape_create(w, b, TB_SHAPE_CYLINDER, cp, ZERO, ID_Q, 0.5f, 0, 1000) >= 0);
    float o[3] = {-3, 0.2f, 0}, dx[3] = {1, 0, 0};
    CHECK(tb_world_ray_cast(w, o, dx, 100, NULL, &h) == 1);
    check_hit(&h, 2.6f, -0.4f, 0.2f, 0, -1, 0, 0); /* side */
    float o2[3] = {0.1f, 4, 0.1f}, dy[3] = {0, -1, 0};
    CHECK(tb_world_ray_cast(w, o2, dy, 100, NULL, &h) == 1);
    check_hit(&h, 3.4f, 0.1f, 0.6f, 0.1f, 0, 1, 0); /* cap */
    float o3[3] = {-3, 0.7f, 0};
    CHECK(tb_world_ray_cast(w, o3, dx, 100, NULL, &h) == 0); /* above the cap */
    /* oblique onto the cap rim region: from (-1, 1.6, 0) along (1, -1, 0)/√2 meets y = 0.6 at x = 0 */
    float o4[3] = {-1, 1.6f, 0}, dd[3] = {1, -1, 0};
    CHECK(tb_world_ray_cast(w, o4, dd, 100, NULL, &h) == 1);
    check_hit(&h, 1.0f / s2, 0, 0.6f, 0, 0, 1, 0);
    tb_world_destroy(w);
    /* rotated 90° about x: the axis lies along z */
    w = query_world();
    float q[4] = {s2, 0, 0, s2};
    b = tb_body_create(w, TB_BODY_DYNAMIC, ZERO, q);
    CHECK(tb_shape_create(w, b, TB_SHAPE_CYLINDER, cp, ZERO, ID_Q, 0.5f, 0, 1000) >= 0);
    float o5[3] = {0, 0, 5}, mz[3] = {0, 0, -1};
    CHECK(tb_world_ray_cast(w, o5, mz, 100, NULL, &h) == 1);
    check_hit(&h, 4.4f, 0, 0, 0.6f, 0, 0, 1);
    tb_world_destroy(w);
  }
  {
    tb_world_id w = query_world();
    float ep[4] = {1, 0.5f, 0.25f, 0};
    tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, ZERO, ID_Q);
    CHECK(tb_shape_create(w, b, TB_SHAPE_ELLIPSOID, ep, ZERO, ID_Q, 0.5f, 0, 1000) >= 0);
    float o[3] = {-5, 0, 0}, dx[3] = {1, 0, 0};
    CHECK(tb_world_ray_cast(w, o, dx, 100, NULL, &h) == 1);
    check_hit(&h, 4, -1, 0, 0, -1, 0, 0);
    /* x = 0.6: surface y = 0.5·sqrt(1 - 0.36) = 0.4; normal ∝ (0.6 / 1, 0.4 / 0.25, 0) */
    float o2[3] = {0.6f, 5, 0}, dy[3] = {0, -1, 0};
    CHECK(tb_world_ray_cast(w, o2, dy, 100, NULL, &h) == 1);
    float l = sqrtf(0.36f + 2.56f);
    check_hit(&h, 4.6f, 0.6f, 0.4f, 0, 0.6f / l, 1.6f / l, 0);
    float o3[3] = {0, 0, 3}, mz[3] = {0, 0, -1};
    CHECK(tb_world_ray_cast(w, o3, mz, 100, NULL, &h) == 1);
    check_hit(&h, 2.75f, 0, 0, 0.25f, 0, 0, 1);
    float o4[3] = {0, 0.51f, 3};
    CHECK(tb_world_ray_cast(w, o4, mz, 100, NULL, &h) == 0);
    tb_world_destroy(w);
  }
  {
    /* a cube hull and a box of the same pose answer every ray alike */
    tb_world_id w = query_world();
    const float cube[24] = {-0.5f, -0.5f, -0.5f, 0.5f, -0.5f, -0.5f, -0.5f, 0.5f, -0.5f, 0.5f, 0.5f, -0.5f,
                            -0.5f, -0.5f, 0.5f,  0.5f, -0.5f, 0.5f,  -0.5f, 0.5f, 0.5f,  0.5f, 0.5f, 0.5f};
    tb_quat qr = rand_quat();
    float q[4] = {qr.x, qr.y, qr.z, qr.w}, at[3] = {0.3f, -0.2f, 0.1f};
    tb_body_id hb = tb_body_create(w, TB_BODY_DYNAMIC, at, q);
    tb_shape_id hs = tb_shape_create_hull(w, hb, cube, 8, ZERO, ID_Q, 0.5f, 0, 1000);
    CHECK(hs >= 0);
    tb_world_id w2 = query_world();
    float he[3] = {0.5f, 0.5f, 0.5f};
    box_at(w2, TB_BODY_DYNAMIC, at, q, he, NULL);
    int hits = 0;
    for (int i = 0; i < 200; ++i) {
      tb_vec3 o = tb_scale(rand_unit(), 3.0f);
      tb_vec3 target = tb_scale(rand_vec(), 0.6f);
      tb_vec3 d = tb_sub(target, o);
      float ov[3] = {o.x, o.y, o.z}, dv[3] = {d.x, d.y, d.z};
      tb_ray_hit h1, h2;
      int r1 = tb_world_ray_cast(w, ov, dv, 100, NULL, &h1), r2 = tb_world_ray_cast(w2, ov, dv, 100, NULL, &h2);
      CHECK(r1 == r2);
      if (r1 == 1 && r2 == 1) {
        ++hits;
        CHECK_NEAR(h2.distance, h1.distance, 2e-5);
        CHECK_NEAR(h2.normal[0] * h1.normal[0] + h2.normal[1] * h1.normal[1] + h2.normal[2] * h1.normal[2], 1.0, 1e-4);
      }
    }
    CHECK(hits > 100);
    tb_world_destroy(w);
    tb_world_destroy(w2);
  }
}

static void test_ray_world(void) {
  tb_world_id w = query_world();
  tb_body_id b[4];
  tb_shape_id s[4];
  for (int i = 0; i < 4; ++i) s[i] = sphere_at(w, TB_BODY_DYNAMIC, 2.0f * (float)(3 - i) + 2.0f, 0, 0, 0.5f, &b[i]);
  /* spheres at x = 8, 6, 4, 2: the nearest is s[3] */
  float o[3] = {0, 0, 0}, d[3] = {1, 0, 0};
  tb_ray_hit h, all[4];
  CHECK(tb_world_ray_cast(w, o, d, 100, NULL, &h) == 1);
  CHECK(h.shape == s[3]);
  CHECK_NEAR(1.5, h.distance, 1e-6);
  int32_t req = -1;
  CHECK(tb_world_ray_cast_all(w, o, d, 100, NULL, all, 4, &req) == 4);
  CHECK_NEAR(4, req, 0);
  for (int i = 0; i < 4; ++i) {
    CHECK(all[i].shape == s[3 - i]);
    CHECK_NEAR(1.5 + 2.0 * i, all[i].distance, 1e-5);
  }
  /* capacity 2: the nearest two, the overflow reported */
  CHECK(tb_world_ray_cast_all(w, o, d, 100, NULL, all, 2, &req) == 2);
  CHECK_NEAR(4, req, 0);
  CHECK(all[0].shape == s[3] && all[1].shape == s[2]);
  CHECK(tb_world_ray_cast_all(w, o, d, 6.0f, NULL, all, 4, &req) == 3); /* 7.5 is beyond 6 */
  /* filters: skip a body, and a mask against contype */
  tb_query_filter f = {b[3], 0xFFFFFFFFu};
  CHECK(tb_world_ray_cast(w, o, d, 100, &f, &h) == 1);
  CHECK(h.shape == s[2]);
  tb_shape_filter sf;
  tb_default_shape_filter(&sf);
  sf.contype = 2;
  set_filter(w, s[2], &sf);
  f.mask = 1;
  CHECK(tb_world_ray_cast(w, o, d, 100, &f, &h) == 1);
  CHECK(h.shape == s[1]);
  /* errors named, world unchanged */
  float zero[3] = {0, 0, 0}, bad[3] = {0, NAN, 0};
  CHECK(tb_world_ray_cast(w, o, zero, 100, NULL, &h) == -TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "direction") != NULL);
  CHECK(tb_world_ray_cast(w, bad, d, 100, NULL, &h) == -TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "origin[1]") != NULL);
  CHECK(tb_world_ray_cast(w, o, d, 0, NULL, &h) == -TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "maxDistance") != NULL);
  CHECK(tb_world_ray_cast(w, o, d, INFINITY, NULL, &h) == 1);
  f.skip_body = 987654;
  CHECK(tb_world_ray_cast(w, o, d, 100, &f, &h) == -TB_ERR_NOT_FOUND);
  CHECK(tb_world_ray_cast_all(w, o, d, 100, NULL, all, -1, &req) == -TB_ERR_INVALID_ARGUMENT);
  tb_world_destroy(w);
}

static void test_overlap(void) {
  tb_world_id w = query_world();
  float plane[4] = {0, 1, 0, -1};
  tb_body_id g = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  tb_shape_id ps = tb_shape_create(w, g, TB_SHAPE_PLANE, plane, ZERO, ID_Q, 0.5f, 0, 1);
  tb_shape_id s[4];
  for (int i = 0; i < 4; ++i) s[i] = sphere_at(w, TB_BODY_DYNAMIC, (float)i, 0, 0, 0.4f, NULL);
  tb_shape_id out[8];
  int32_t req = -1;
  /* sphere r 0.7 at x 1.5: centre distances 0.5 to the spheres at 1 and 2 (< 1.1), 1.5 to 0 and 3 */
  float sp[4] = {0.7f, 0, 0, 0}, at[3] = {1.5f, 0, 0};
  CHECK(tb_world_overlap(w, TB_SHAPE_SPHERE, sp, at, ID_Q, NULL, out, 8, &req) == 2);
  CHECK_NEAR(2, req, 0);
  CHECK(out[0] == s[1] && out[1] == s[2]);
  /* r 1.05: the outer spheres stay out (1.05 + 0.4 = 1.45 < 1.5), the plane y = -1 comes in;
   * r 1.15 reaches the outer two as well (1.55 > 1.5) */
  sp[0] = 1.05f;
  CHECK(tb_world_overlap(w, TB_SHAPE_SPHERE, sp, at, ID_Q, NULL, out, 8, &req) == 3);
  CHECK(out[0] == ps && out[1] == s[1] && out[2] == s[2]);
  sp[0] = 1.15f;
  CHECK(tb_world_overlap(w, TB_SHAPE_SPHERE, sp, at, ID_Q, NULL, out, 8, &req) == 5);
  /* capacity 1: one id (lowest slot: the plane), the count found */
  CHECK(tb_world_overlap(w, TB_SHAPE_SPHERE, sp, at, ID_Q, NULL, out, 1, &req) == 1);
  CHECK_NEAR(5, req, 0);
  CHECK(out[0] == ps);
  /* a small box below the sphere at x 3 (sphere bottom at y -0.4) */
  float bx[4] = {0.1f, 0.1f, 0.1f, 0}, bat[3] = {3, -0.52f, 0};
  float q[4] = {0, 0, sinf(0.3926991f), cosf(0.3926991f)};
  /* the box's top corner is at y = -0.52 + 0.1414 = -0.379 > -0.4: inside the sphere at x 3 */
  CHECK(tb_world_overlap(w, TB_SHAPE_BOX, bx, bat, q, NULL, out, 8, &req) == 1);
  CHECK(out[0] == s[3]);
  /* without the rotation the top face at y -0.42 misses the sphere (bottom at y -0.4) */
  CHECK(tb_world_overlap(w, TB_SHAPE_BOX, bx, bat, ID_Q, NULL, out, 8, &req) == 0);
  /* the plane (solid below y = -1) */
  float low[3] = {10, -0.95f, 0}, small[4] = {0.1f, 0, 0, 0};
  CHECK(tb_world_overlap(w, TB_SHAPE_SPHERE, small, low, ID_Q, NULL, out, 8, &req) == 1);
  CHECK(out[0] == ps);
  /* a capsule along y through the row at x 0 */
  float cap[4] = {0.05f, 2.0f, 0, 0}, cat[3] = {0, 0, 0};
  CHECK(tb_world_overlap(w, TB_SHAPE_CAPSULE, cap, cat, ID_Q, NULL, out, 8, &req) == 2); /* sphere 0 and the plane */
  /* errors */
  /* a cylinder (narrow phase): radius 0.05, half height 2, through the row at x 0 like the capsule */
  CHECK(tb_world_overlap(w, TB_SHAPE_CYLINDER, cap, cat, ID_Q, NULL, out, 8, &req) == 2);
  /* an ellipsoid reaching from x 0.55 to 2.45 along x: the spheres at 1 and 2 (and not 0 or 3) */
  float el[4] = {0.95f, 0.1f, 0.1f, 0}, eat[3] = {1.5f, 0, 0};
  CHECK(tb_world_overlap(w, TB_SHAPE_ELLIPSOID, el, eat, ID_Q, NULL, out, 8, &req) == 2);
  CHECK(out[0] == s[1] && out[1] == s[2]);
  CHECK(tb_world_overlap(w, TB_SHAPE_HEIGHTFIELD, cap, cat, ID_Q, NULL, out, 8, &req) == -TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "not supported for heightfield") != NULL);
  CHECK(tb_world_overlap(w, (tb_shape_type)42, cap, cat, ID_Q, NULL, out, 8, &req) == -TB_ERR_INVALID_ARGUMENT);
  sp[0] = -1;
  CHECK(tb_world_overlap(w, TB_SHAPE_SPHERE, sp, at, ID_Q, NULL, out, 8, &req) == -TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "radius") != NULL);
  tb_world_destroy(w);
}

static void test_filter_errors(void) {
  two t = two_spheres(TB_FILTER_NEWTON);
  tb_shape_filter f, got;
  tb_default_shape_filter(&f);
  f.world = -2;
  CHECK(tb_shape_set_filter(t.w, t.a, &f) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(t.w), "world") != NULL && strstr(tb_last_error(t.w), "-2") != NULL);
  f.world = 0; f.trigger = 3;
  CHECK(tb_shape_set_filter(t.w, t.a, &f) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(t.w), "trigger") != NULL);
  CHECK(tb_shape_get_filter(t.w, t.a, &got) == TB_OK);
  CHECK(got.world == -1 && got.collision_group == 1 && got.contype == 1 && got.conaffinity == 1 && got.trigger == 0);
  CHECK(got.filter_data[0] == 1 && got.filter_data[1] == 0 && got.filter_data[2] == 0xFFFFFFFFu && got.filter_data[3] == 0);
  CHECK(tb_shape_set_filter(t.w, 77777, &f) == TB_ERR_NOT_FOUND);
  CHECK(set_filter_rule(t.w, 4) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(t.w), "filter_rule") != NULL);
  CHECK(tb_world_set_shape_pair_excluded(t.w, t.a, 55555, 1) == TB_ERR_NOT_FOUND);
  tb_world_def d;
  tb_world_get_def(t.w, &d);
  CHECK(d.collision.filter_rule == TB_FILTER_NEWTON);
  d.collision.max_collision_pairs = -5;
  CHECK(tb_world_set_collision(t.w, &d.collision) == TB_ERR_INVALID_ARGUMENT);
  CHECK(pair_flags(t.w) == ALL); /* still usable */
  tb_world_destroy(t.w);
}

int main(void) {
  test_newton_table();
  test_mujoco();
  test_mujoco_pair_distances();
  test_physx_table();
  test_trigger();
  test_genesis();
  test_generators_agree();
  test_sleeping(TB_PRESET_PHYSX_PGS);
  test_sleeping(TB_PRESET_PHYSX_TGS);
  test_sleeping(TB_PRESET_NEWTON_XPBD);
  test_sleeping(TB_PRESET_NEWTON_SEMI);
  test_ray_primitives();
  test_ray_convex();
  test_ray_world();
  test_overlap();
  test_filter_errors();
  return tb_test_report("test_filter");
}
