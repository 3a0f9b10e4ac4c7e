/* Automatic sleep: the Genesis hibernation rule and the PhysX wake counter, whole islands asleep
 * after the step counts their rules give, a body dropped on one island waking exactly that one in
 * the same step, sleeping bodies bitwise still, the work a sleeping scene skips, kept readback,
 * waking by the API, the same results for 1 and 3 threads and through a snapshot. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/tribo.h"
#include "test_util.h"
#include "test_scene.h"
#include "api/api.h" /* tb_world_get */
#include "world/world.h"

static const double G = 9.81;
#define H (1.0f / 60.0f)

static int asleep_count(tb_world_id w, const tb_body_id* b, int n) {
  int k = 0;
  for (int i = 0; i < n; ++i) k += tb_body_is_sleeping(w, b[i]) == 1;
  return k;
}

/* Steps of the PhysX wake counter from its reset value down to zero when the energy stays below
 * the threshold: wc ← max(wc − dt, 0) in float, as the rule runs it. */
static int physx_steps(float reset, float dt) {
  float wc = reset;
  int n = 0;
  while (wc > 0.0f) {
    wc = fmaxf(wc - dt, 0.0f);
    ++n;
  }
  return n;
}

/* Genesis's measure of one step of a box (centre of mass at its origin, sweep radius √3·half):
 * max over the 6 DOF velocities of the pose change, rotations times the radius (m/s). */
static double dof_speed(const float* s0, const float* s1, float half) {
  double m = 0.0;
  for (int k = 0; k < 3; ++k) m = fmax(m, fabs((double)s1[k] - s0[k]) / H);
  /* dq = q1·conj(q0); its rotation vector over h */
  double x0 = -s0[3], y0 = -s0[4], z0 = -s0[5], w0 = s0[6], x1 = s1[3], y1 = s1[4], z1 = s1[5], w1 = s1[6];
  double dx = w1 * x0 + x1 * w0 + y1 * z0 - z1 * y0, dy = w1 * y0 - x1 * z0 + y1 * w0 + z1 * x0;
  double dz = w1 * z0 + x1 * y0 - y1 * x0 + z1 * w0, dw = w1 * w0 - x1 * x0 - y1 * y0 - z1 * z0;
  if (dw < 0) dx = -dx, dy = -dy, dz = -dz, dw = -dw;
  double sn = sqrt(dx * dx + dy * dy + dz * dz), angle = 2.0 * atan2(sn, dw), r = sqrt(3.0) * half;
  if (sn > 0) {
    m = fmax(m, r * fabs(dx / sn * angle) / H);
    m = fmax(m, r * fabs(dy / sn * angle) / H);
    m = fmax(m, r * fabs(dz / sn * angle) / H);
  }
  return m;
}

/* 30 boxes (0.5 m, 125 kg) placed at rest on the ground, 6 × 5 apart: 30 islands.
 * Genesis: a box sleeps in the step where its DOF speed (dof_speed, measured here from its poses)
 * has been below 2e-3 m/s for the 10th step in a row, and not one step earlier.
 * PhysX: the settling motion accumulates far below the energy threshold (5e-3 m²/s²: |Σv| of
 * 0.1 m/s), so every box sleeps when its wake counter reaches zero, physx_steps(0.4 s, h) steps,
 * and not one step earlier. */
static void test_rest_count(int mode) {
  tb_world_id w = make_world(TB_PRESET_PHYSX_TGS, mode, 1);
  ground(w);
  tb_body_id b[30];
  for (int i = 0; i < 30; ++i) b[i] = add_box(w, (float)(i % 6) * 1.5f, 0.25f, (float)(i / 6) * 1.5f, 0.25f);
  int below[30] = {0}, exact = 1, last = 0;
  int expect = mode == TB_SLEEP_GENESIS ? 0 : physx_steps(0.4f, H);
  for (int s = 1; s <= 60; ++s) {
    float s0[30][13], s1[13];
    for (int i = 0; i < 30; ++i) tb_body_get_state(w, b[i], s0[i]);
    CHECK(tb_world_step(w) == TB_OK);
    for (int i = 0; i < 30; ++i) {
      if (tb_body_is_sleeping(w, b[i]) && below[i] < 0) continue; /* asleep before */
      tb_body_get_state(w, b[i], s1);
      int due;
      if (mode == TB_SLEEP_GENESIS) {
        below[i] = dof_speed(s0[i], s1, 0.25f) < 2e-3 ? below[i] + 1 : 0;
        due = below[i] >= 10;
      } else {
        due = s >= expect;
      }
      exact &= tb_body_is_sleeping(w, b[i]) == due;
      if (due) { below[i] = -1; if (s > last) last = s; }
    }
  }
  CHECK(exact);
  CHECK(asleep_count(w, b, 30) == 30);
  CHECK(last >= 10 && last <= 60);
  expect = last;
  tb_step_stats st = stats(w);
  CHECK(st.island_count == 30 && st.sleeping_islands == 30 && st.sleeping_bodies == 30);
  printf("  %s: 30 resting boxes asleep after %d steps\n", mode == TB_SLEEP_GENESIS ? "genesis" : "physx", expect);
  tb_world_destroy(w);
}

/* Ten stacks of three 0.4 m boxes dropped with 5 cm gaps: 10 islands of 3. Every island sleeps,
 * never before its bottom box has landed (fall of 0.05 m: ceil(√(2·0.05/g)/h) = 7 steps) plus the
 * rule's 10 steps, and within 120 steps: the top box lands after ceil(√(2·0.15/g)/h) = 11 steps,
 * the stack settles (bounded here by 60 steps, 1 s) and the rule adds its 10. Then the work a
 * sleeping scene skips, the kept readback (m·g per box, never a fresh zero), bitwise stillness,
 * and a sphere dropped on one stack waking exactly that one in the step it touches. */
static void test_stacks(tb_preset preset, int mode) {
  tb_world_id w = make_world(preset, mode, 1);
  tb_body_id gnd = ground(w);
  (void)gnd;
  enum { STACKS = 10, N = 30 };
  tb_body_id b[N];
  const float half = 0.2f;
  for (int i = 0; i < N; ++i) {
    int stack = i / 3, level = i % 3;
    b[i] = add_box(w, (float)stack * 1.2f, half + 0.05f + (float)level * (2.0f * half + 0.05f), 0, half);
  }
  int first = -1, all = -1;
  for (int s = 1; s <= 120 && all < 0; ++s) {
    CHECK(tb_world_step(w) == TB_OK);
    int k = asleep_count(w, b, N);
    if (k > 0 && first < 0) first = s;
    if (k == N) all = s;
  }
  int land = (int)ceil(sqrt(2.0 * 0.05 / G) / H);
  printf("  %s stacks: first island asleep at step %d, all at %d (earliest by the rule %d)\n",
         mode == TB_SLEEP_GENESIS ? "genesis" : "physx", first, all, land + 10);
  CHECK(first >= land + 10);
  CHECK(all > 0 && all <= 120);
  tb_step_stats st = stats(w);
  CHECK(st.island_count == STACKS && st.sleeping_islands == STACKS && st.sleeping_bodies == N);
  for (int i = 0; i < STACKS; ++i) /* each stack is its own island */
    CHECK(tb_body_island(w, b[3 * i]) == tb_body_island(w, b[3 * i + 2]) && tb_body_island(w, b[3 * i]) != tb_body_island(w, b[(3 * i + 3) % N]));

  /* a sleeping scene: nothing collided, nothing solved; the kept records hold the readback */
  CHECK(tb_world_step(w) == TB_OK);
  st = stats(w);
  CHECK(st.skipped_shapes == N);
  CHECK(st.manifold_count == 0);
  CHECK(st.substeps == (preset == TB_PRESET_PHYSX_TGS ? 4 : 1)); /* nothing awake: the world's internal steps */
  CHECK(st.sleeping_pairs == 2 * STACKS + STACKS); /* box-box twice and box-ground once per stack */
  tb_contact_status cs;
  CHECK(tb_world_contact_status(w, &cs) == TB_OK);
  CHECK(cs.pair_count == 0);
  CHECK(cs.count == st.sleeping_contacts && cs.count > 0);
  const int32_t* sleeping = (const int32_t*)tb_world_field(w, TB_FIELDS_CONTACT, TB_CONTACT_FIELD_sleeping);
  int flagged = 1;
  for (int32_t k = 0; k < cs.count; ++k) flagged &= sleeping[k] == 1;
  CHECK(flagged);
  double mass = 1000.0 * 0.4 * 0.4 * 0.4;
  for (int i = 0; i < 3; ++i) { /* the net contact force on each box of a stack: its weight m·g up */
    tb_wrench wr;
    CHECK(tb_body_contact_wrench(w, b[i], TB_ANY_BODY, 0, &wr, NULL) == TB_OK);
    CHECK_NEAR(mass * G, wr.force[1], 0.02 * mass * G);
  }
  tb_wrench gw;
  CHECK(tb_body_contact_wrench(w, b[0], -1, 0, &gw, NULL) == TB_OK); /* the bottom box against the ground */
  CHECK_NEAR(3.0 * mass * G, gw.force[1], 0.02 * 3.0 * mass * G);

  /* asleep bodies stay bitwise still */
  float before[N][13], after[13];
  for (int i = 0; i < N; ++i) CHECK(tb_body_get_state(w, b[i], before[i]) == TB_OK);
  for (int s = 0; s < 30; ++s) CHECK(tb_world_step(w) == TB_OK);
  int still = 1;
  for (int i = 0; i < N; ++i) {
    CHECK(tb_body_get_state(w, b[i], after) == TB_OK);
    still &= memcmp(before[i], after, sizeof after) == 0;
  }
  CHECK(still);

  /* a sphere dropped on stack 4 wakes that island, in the step it touches, and no other */
  tb_body_id ball = add_sphere(w, 4.0f * 1.2f, 1.5f, 0, 0.15f, 2000.0f);
  int woke_at = -1, others_asleep = 1, touched_same_step = 0;
  for (int s = 0; s < 60 && woke_at < 0; ++s) {
    CHECK(tb_world_step(w) == TB_OK);
    if (tb_body_is_sleeping(w, b[12]) == 0) {
      woke_at = s;
      /* the ball's contact with the top box, solved this step; the woken stack's own contacts
       * collided and solved in the same step (not kept) */
      CHECK(tb_world_contact_status(w, &cs) == TB_OK);
      const int32_t* b0 = (const int32_t*)tb_world_field(w, TB_FIELDS_CONTACT, TB_CONTACT_FIELD_body0);
      const int32_t* b1 = (const int32_t*)tb_world_field(w, TB_FIELDS_CONTACT, TB_CONTACT_FIELD_body1);
      const float* ni = (const float*)tb_world_field(w, TB_FIELDS_CONTACT, TB_CONTACT_FIELD_normal_impulse);
      sleeping = (const int32_t*)tb_world_field(w, TB_FIELDS_CONTACT, TB_CONTACT_FIELD_sleeping);
      float ball_top = 0.0f, bottom_ground = 0.0f;
      int stack_fresh = 1;
      for (int32_t k = 0; k < cs.count; ++k) {
        int with_ball = b0[k] == ball || b1[k] == ball, top = b0[k] == b[14] || b1[k] == b[14];
        if (with_ball && top) ++ball_top;
        if ((b0[k] == b[12] && b1[k] == -1) || (b1[k] == b[12] && b0[k] == -1)) bottom_ground += ni[k];
        for (int q = 12; q < 15; ++q)
          if (b0[k] == b[q] || b1[k] == b[q]) stack_fresh &= sleeping[k] == 0;
      }
      touched_same_step = ball_top > 0.0f; /* the contact that woke it is in this step's store */
      CHECK(stack_fresh);
      CHECK(bottom_ground > 0.9f * (float)(3.0 * mass * G) * H); /* the ground still holds the stack */
      for (int i = 0; i < N; ++i)
        if (i / 3 != 4) others_asleep &= tb_body_is_sleeping(w, b[i]) == 1;
      for (int q = 12; q < 15; ++q) CHECK(tb_body_is_sleeping(w, b[q]) == 0);
    }
  }
  CHECK(woke_at >= 0);
  CHECK(touched_same_step);
  CHECK(others_asleep);
  tb_world_destroy(w);
}

/* Waking by the API and by a joint; a removed ground wakes what rests on it. */
static void test_wake_calls(void) {
  tb_world_id w = make_world(TB_PRESET_PHYSX_PGS, TB_SLEEP_GENESIS, 1);
  tb_body_id g = ground(w);
  tb_body_id a = add_box(w, 0, 0.25f, 0, 0.25f), c = add_box(w, 3, 0.25f, 0, 0.25f), d = add_box(w, 6, 0.25f, 0, 0.25f);
  for (int s = 0; s < 10; ++s) CHECK(tb_world_step(w) == TB_OK);
  tb_body_id all[3] = {a, c, d};
  CHECK(asleep_count(w, all, 3) == 3);
  const float v[3] = {0, 0, 1};
  CHECK(tb_body_set_velocity(w, a, v, ZERO) == TB_OK);
  CHECK(tb_body_is_sleeping(w, a) == 0 && tb_body_is_sleeping(w, c) == 1);
  float p[3] = {3, 0.26f, 0};
  CHECK(tb_body_set_pose(w, c, p, ID_Q) == TB_OK);
  CHECK(tb_body_is_sleeping(w, c) == 0 && tb_body_is_sleeping(w, d) == 1);
  /* a joint from an awake body wakes d in the next step */
  tb_body_id e = add_box(w, 6, 2.0f, 0, 0.1f);
  add_distance_joint(w, e, d, 1.75f);
  CHECK(tb_world_step(w) == TB_OK);
  CHECK(tb_body_is_sleeping(w, d) == 0);
  CHECK(tb_body_island(w, d) == tb_body_island(w, e));
  /* all asleep again, then the ground removed: everything resting on it wakes */
  for (int s = 0; s < 200 && asleep_count(w, all, 3) < 3; ++s) CHECK(tb_world_step(w) == TB_OK);
  CHECK(asleep_count(w, all, 3) == 3);
  CHECK(tb_body_destroy(w, g) == TB_OK);
  CHECK(asleep_count(w, all, 3) == 0);
  /* named errors */
  tb_world_def def;
  CHECK(tb_world_get_def(w, &def) == TB_OK);
  def.solver.sleep.steps = 0;
  CHECK(tb_world_set_solver(w, &def.solver) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "solver.sleep.steps") != NULL);
  def.solver.sleep.steps = 10;
  def.solver.sleep.velocity_threshold = -1.0f;
  CHECK(tb_world_set_solver(w, &def.solver) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "solver.sleep.velocity_threshold") != NULL);
  def.solver.sleep.velocity_threshold = 2e-3f;
  def.solver.sleep.mode = 7;
  CHECK(tb_world_set_solver(w, &def.solver) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "solver.sleep.mode") != NULL);
  tb_world_destroy(w);
}

/* A pile of 60 bodies, sleep on: every transform, island and sleep flag after every step the same
 * with 1 and with 3 threads, and the same after a snapshot restored mid-way (some islands asleep). */
static void build_pile(tb_world_id w, tb_body_id* ids, int n) {
  ground(w);
  for (int i = 0; i < n; ++i) {
    float x = (float)(i % 5) * 0.7f, y = 0.3f + (float)(i / 25) * 0.65f, z = (float)((i / 5) % 5) * 0.7f;
    ids[i] = i % 2 ? add_sphere(w, x, y, z, 0.3f, 1000.0f) : add_box(w, x, y, z, 0.28f);
  }
}

static uint32_t state_hash(tb_world_id w, const tb_body_id* ids, int n) {
  uint32_t h = 2166136261u;
  for (int i = 0; i < n; ++i) {
    float s[13];
    tb_body_get_state(w, ids[i], s);
    int32_t island = tb_body_island(w, ids[i]); /* by slot: twin worlds' ids differ in their salt */
    int32_t extra[2] = {tb_body_is_sleeping(w, ids[i]), island < 0 ? island : island & TB_ID_INDEX_MASK};
    const unsigned char* p = (const unsigned char*)s;
    for (size_t k = 0; k < sizeof s; ++k) h = (h ^ p[k]) * 16777619u;
    p = (const unsigned char*)extra;
    for (size_t k = 0; k < sizeof extra; ++k) h = (h ^ p[k]) * 16777619u;
  }
  return h;
}

static void test_threads_and_snapshot(tb_preset preset, int mode) {
  enum { N = 60, STEPS = 240 };
  tb_world_id w1 = make_world(preset, mode, 1), w3 = make_world(preset, mode, 3);
  tb_body_id i1[N], i3[N];
  build_pile(w1, i1, N);
  build_pile(w3, i3, N);
  int same = 1, snap_at = -1, slept_max = 0;
  tb_world_id restored = -1;
  for (int s = 0; s < STEPS; ++s) {
    CHECK(tb_world_step(w1) == TB_OK);
    CHECK(tb_world_step(w3) == TB_OK);
    if (restored >= 0) CHECK(tb_world_step(restored) == TB_OK);
    uint32_t h1 = state_hash(w1, i1, N);
    same &= h1 == state_hash(w3, i3, N);
    int k = asleep_count(w1, i1, N);
    if (k > slept_max) slept_max = k;
    if (restored >= 0) same &= h1 == state_hash(restored, i1, N);
    if (snap_at < 0 && k > 0 && k < N) { /* some asleep, some awake */
      restored = tb_test_world_copy(w1, 1);
      CHECK(restored >= 0);
      CHECK(state_hash(restored, i1, N) == h1);
      snap_at = s;
    }
  }
  printf("  pile (%s sleep): most asleep %d of %d, snapshot at step %d\n", mode == TB_SLEEP_GENESIS ? "genesis" : "physx", slept_max, N, snap_at);
  CHECK(same);
  CHECK(slept_max > 0);
  CHECK(snap_at >= 0);
  tb_world_destroy(w1);
  tb_world_destroy(w3);
  if (restored >= 0) tb_world_destroy(restored);
}

/* The genesis preset: its axes, and a 0.5 m box (125 kg) dropped 2 cm onto the ground. Read back
 * as force_a / force_b per point (Genesis get_contacts), the box's contacts carry its weight:
 * Σ force_b (on the box, shape1) = m·g up and force_a = −force_b, within 1% (the soft contact at
 * rest balances gravity up to the solver tolerance). Hibernation: the box sleeps within the 2 cm
 * fall (4 steps), the soft contact's settling (at most 60 steps here) and the rule's 10 steps, and
 * the kept records still give m·g. */
/* A sphere dropped on a box that sleeps, in a world restored from a snapshot taken while the box
 * slept and the sphere fell: the restored world wakes the box and catches the sphere as the
 * original does, bit for bit, and the sphere comes to rest on the box's top (y = 2·0.25 + 0.2 m).
 * The restored world has never computed the sleeping box's pose for the narrow stage
 * (src/collision/shape_bounds.c writes a sleeping shape's view only with the static ones). */
static void test_drop_on_sleeping_after_restore(tb_preset preset, int mode) {
  tb_world_id w = make_world(preset, mode, 1);
  ground(w);
  tb_body_id box = add_box(w, 0.3f, 0.25f, -0.2f, 0.25f);
  int s = 0;
  for (; s < 300 && tb_body_is_sleeping(w, box) != 1; ++s) CHECK(tb_world_step(w) == TB_OK);
  CHECK(tb_body_is_sleeping(w, box) == 1);
  tb_body_id ball = add_sphere(w, 0.3f, 2.5f, -0.2f, 0.2f, 500.0f);
  CHECK(tb_world_step(w) == TB_OK);
  CHECK(tb_body_is_sleeping(w, box) == 1);
  tb_world_id r = tb_test_world_copy(w, 1);
  CHECK(r >= 0);
  tb_body_id ids[2] = {box, ball};
  int same = 1, woke = 0;
  for (int k = 0; k < 180; ++k) {
    CHECK(tb_world_step(w) == TB_OK);
    CHECK(tb_world_step(r) == TB_OK);
    same &= state_hash(w, ids, 2) == state_hash(r, ids, 2);
    woke |= tb_body_is_sleeping(r, box) == 0;
  }
  float st[13];
  CHECK(tb_body_get_state(r, ball, st) == TB_OK);
  printf("  drop on a sleeping box after a restore (%s): ball y %.4f m (0.7 on the box), box woke %d\n",
         mode == TB_SLEEP_GENESIS ? "genesis" : "physx", st[1], woke);
  CHECK(same);
  CHECK(woke);
  CHECK(fabsf(st[1] - 0.7f) < 0.01f);
  tb_world_destroy(w);
  tb_world_destroy(r);
}

/* A box put to sleep through the API before the world's first step, a sphere dropped on it: the box
 * wakes and the sphere rests on its top (y = 0.7 m), in every sleep mode (the narrow stage reads the
 * box's pose and zero velocity from a view written when the first step makes room for it). */
static void test_drop_on_slept_before_first_step(tb_preset preset, int mode) {
  tb_world_id w = make_world(preset, mode, 1);
  ground(w);
  tb_body_id box = add_box(w, 0.3f, 0.25f, -0.2f, 0.25f);
  tb_body_id ball = add_sphere(w, 0.3f, 1.5f, -0.2f, 0.2f, 500.0f);
  CHECK(tb_body_set_sleeping(w, box, 1) == TB_OK);
  int woke = 0;
  for (int k = 0; k < 180; ++k) {
    CHECK(tb_world_step(w) == TB_OK);
    woke |= tb_body_is_sleeping(w, box) == 0;
  }
  float st[13];
  CHECK(tb_body_get_state(w, ball, st) == TB_OK);
  printf("  drop on a box slept before the first step (mode %d): ball y %.4f m (0.7 on the box), box woke %d\n", mode, st[1], woke);
  CHECK(woke || mode == TB_SLEEP_OFF); /* manual sleep: nothing wakes it, and it still holds the ball */
  CHECK(fabsf(st[1] - 0.7f) < 0.01f);
  tb_world_destroy(w);
}

/* Every live shape of a sleeping or static body holds, in its view (tb_shape_view), what the
 * narrow stage would read from the shapes' and bodies' arrays: the views of those shapes are kept
 * between steps like their bounds. */
static int kept_views_match(tb_world_id id) {
  const tb_world* w = tb_world_get(id);
  const tb_shapes* s = &w->shapes;
  int ok = 1;
  for (int32_t i = 0; i < s->count; ++i) {
    int32_t b = s->body[i];
    if (s->type[i] < 0 || (!w->bodies.f.asleep[b] && w->bodies.f.body_type[b] != TB_BODY_STATIC)) continue;
    const tb_shape_view* x = &w->shape_views[i];
    float d[2];
    tb_distance_of_shape(w, i, d);
    tb_transform f = tb_shape_body_frame(w, i);
    ok &= memcmp(&x->pose, &s->world_pose[i], sizeof x->pose) == 0 && memcmp(x->params, s->params + 4 * i, sizeof x->params) == 0;
    ok &= x->type == s->type[i] && x->generation == s->generation[i] && x->data == s->data[i];
    ok &= memcmp(x->distance, d, sizeof d) == 0 && memcmp(&x->frame, &f, sizeof f) == 0;
    ok &= memcmp(&x->velocity, w->bodies.f.linear_velocity + 3 * b, sizeof x->velocity) == 0;
  }
  return ok;
}

/* A kinematic box moving at 1 m/s put to sleep through the API (its velocity becomes zero while its
 * bounds stay), a dynamic box that falls asleep by the rule, then the world restored from a
 * snapshot: after each, the kept views match the arrays. */
static void test_kept_views(int mode) {
  tb_world_id w = make_world(TB_PRESET_PHYSX_TGS, mode, 1);
  ground(w);
  float p[3] = {-2.0f, 0.5f, 0.0f}, v[3] = {1.0f, 0.0f, 0.0f}, box[4] = {0.25f, 0.25f, 0.25f, 0};
  tb_body_id kin = tb_body_create(w, TB_BODY_KINEMATIC, p, ID_Q);
  CHECK(tb_shape_create(w, kin, TB_SHAPE_BOX, box, ZERO, ID_Q, 0.6f, 0.0f, 1000.0f) >= 0);
  CHECK(tb_body_set_velocity(w, kin, v, ZERO) == TB_OK);
  tb_body_id dyn = add_box(w, 2.0f, 0.25f, 0.0f, 0.25f);
  for (int k = 0; k < 5; ++k) CHECK(tb_world_step(w) == TB_OK);
  CHECK(tb_body_set_sleeping(w, kin, 1) == TB_OK);
  int kin_ok = kept_views_match(w);
  for (int k = 0; k < 300 && tb_body_is_sleeping(w, dyn) != 1; ++k) CHECK(tb_world_step(w) == TB_OK);
  int dyn_ok = tb_body_is_sleeping(w, dyn) == 1 && kept_views_match(w);
  tb_world_id r = tb_test_world_copy(w, 1);
  CHECK(r >= 0);
  CHECK(tb_world_step(r) == TB_OK);
  int restored_ok = kept_views_match(r);
  printf("  kept views (mode %d): kinematic put to sleep %d, dynamic asleep %d, restored %d\n", mode, kin_ok, dyn_ok, restored_ok);
  CHECK(kin_ok);
  CHECK(dyn_ok);
  CHECK(restored_ok);
  tb_world_destroy(w);
  tb_world_destroy(r);
}

static void test_genesis_preset(void) {
  tb_world_def def = tb_default_world_def();
  CHECK(tb_preset_apply(TB_PRESET_GENESIS, &def) == TB_OK);
  CHECK(def.solver.solver == TB_SOLVER_MUJOCO && def.collision.filter_rule == TB_FILTER_GENESIS);
  CHECK(def.collision.distance_rule == TB_DISTANCE_MUJOCO && def.solver.combine_rule == TB_COMBINE_RULE_MUJOCO);
  CHECK(def.solver.sleep.mode == TB_SLEEP_GENESIS && def.solver.sleep.steps == 10);
  CHECK_NEAR(2e-3, def.solver.sleep.velocity_threshold, 1e-9);
  tb_world_id w = tb_world_create(&def);
  CHECK(w >= 0);
  ground(w);
  tb_body_id box = add_box(w, 0, 0.27f, 0, 0.25f);
  const double weight = 125.0 * G;
  int asleep_at = -1;
  for (int s = 1; s <= 80 && asleep_at < 0; ++s) {
    CHECK(tb_world_step(w) == TB_OK);
    if (tb_body_is_sleeping(w, box) == 1) asleep_at = s;
  }
  printf("  genesis preset: the box sleeps at step %d\n", asleep_at);
  CHECK(asleep_at > 10 && asleep_at <= 4 + 60 + 10);
  for (int pass = 0; pass < 2; ++pass) { /* the step it fell asleep, then a step of kept records */
    tb_contact_status cs;
    CHECK(tb_world_contact_status(w, &cs) == TB_OK);
    CHECK(cs.count >= 1 && cs.count <= 8);
    float out[8 * 6];
    CHECK(tb_contacts_convert(w, TB_CONVENTION_GENESIS, 0, cs.count, out, NULL) == TB_OK);
    double fa = 0.0, fb = 0.0, off = 0.0;
    for (int32_t k = 0; k < cs.count; ++k) {
      fa += out[6 * k + 1];
      fb += out[6 * k + 4];
      for (int q = 0; q < 3; ++q) off = fmax(off, fabs((double)out[6 * k + q] + out[6 * k + 3 + q]));
    }
    printf("  genesis preset%s: Σ force_b %.3f N, Σ force_a %.3f N (m·g %.3f N)\n", pass ? " (asleep, kept)" : "", fb, fa, weight);
    CHECK_NEAR(weight, fb, 0.01 * weight);
    CHECK_NEAR(-weight, fa, 0.01 * weight);
    CHECK(off == 0.0);
    CHECK(tb_world_step(w) == TB_OK);
  }
  tb_step_stats st = stats(w);
  CHECK(st.sleeping_bodies == 1 && st.manifold_count == 0);
  tb_world_destroy(w);
}

int main(void) {
  test_genesis_preset();
  test_rest_count(TB_SLEEP_GENESIS);
  test_rest_count(TB_SLEEP_PHYSX);
  test_stacks(TB_PRESET_PHYSX_TGS, TB_SLEEP_GENESIS);
  test_stacks(TB_PRESET_PHYSX_PGS, TB_SLEEP_PHYSX);
  test_wake_calls();
  test_threads_and_snapshot(TB_PRESET_PHYSX_TGS, TB_SLEEP_PHYSX);
  test_threads_and_snapshot(TB_PRESET_PHYSX_PGS, TB_SLEEP_GENESIS);
  test_drop_on_sleeping_after_restore(TB_PRESET_PHYSX_TGS, TB_SLEEP_PHYSX);
  test_drop_on_sleeping_after_restore(TB_PRESET_PHYSX_PGS, TB_SLEEP_GENESIS);
  test_drop_on_slept_before_first_step(TB_PRESET_PHYSX_TGS, TB_SLEEP_PHYSX);
  test_drop_on_slept_before_first_step(TB_PRESET_PHYSX_PGS, TB_SLEEP_GENESIS);
  test_drop_on_slept_before_first_step(TB_PRESET_PHYSX_TGS, TB_SLEEP_OFF);
  test_kept_views(TB_SLEEP_PHYSX);
  test_kept_views(TB_SLEEP_GENESIS);
  return tb_test_report("test_sleep");
}
