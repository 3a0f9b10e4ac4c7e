/* Native tests of robustness against bad input: NULL pointers on every entry point, capacity bounds,
 * an allocation that fails at every point of a scene build and its steps, the finite-state guard
 * for every body type, mass properties float32 can hold, id generations and rejected calls that
 * consume nothing. Each failure must be a named error that leaves the world unchanged. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "include/tribo.h"
#include "test_util.h"

static const float ID_Q[4] = {0, 0, 0, 1};
static const float ZERO[3] = {0, 0, 0};

#define CHECK_ERROR(world, call, status, text)                                              \
  do {                                                                                      \
    int32_t r_ = (int32_t)(call);                                                           \
    CHECK(r_ == (status) || r_ == -(status));                                               \
    if (!strstr(tb_last_error(world), text)) {                                              \
      fprintf(stderr, "  message \"%s\" lacks \"%s\"\n", tb_last_error(world), text);      \
      CHECK(0);                                                                             \
    }                                                                                       \
  } while (0)

/* FNV-1a over every body slot's state and the id sequence a world hands out next. */
static uint64_t hash_bytes(uint64_t h, const void* p, size_t n) {
  const uint8_t* b = (const uint8_t*)p;
  for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}
static uint64_t world_hash(tb_world_id w) {
  uint64_t h = 1469598103934665603ull;
  int32_t slots = tb_world_body_slot_count(w);
  h = hash_bytes(h, &slots, sizeof slots);
  for (int32_t i = 0; i < slots; ++i) {
    if (!tb_body_slot_alive(w, i)) continue;
    for (int f = 0; f < 3; ++f) { /* transform, linear and angular velocity */
      const tb_field_info* info = tb_field_get(TB_FIELDS_BODY, f);
      const float* v = (const float*)tb_world_field(w, TB_FIELDS_BODY, f);
      h = hash_bytes(h, v + (size_t)info->components * (size_t)i, (size_t)info->components * sizeof(float));
    }
  }
  return h;
}

static tb_world_id new_world(tb_preset preset) {
  tb_world_def def = tb_default_world_def();
  def.contact_capacity = 512;
  def.pair_capacity = 512;
  def.body_capacity = 4;
  tb_preset_apply(preset, &def);
  return tb_world_create(&def);
}

/* ---- NULL pointers: every entry point names the function and the parameter ---- */

static void test_null_arguments(void) {
  tb_world_id w = new_world(TB_PRESET_PHYSX_TGS);
  float plane[4] = {0, 1, 0, 0}, sp[4] = {0.5f, 0, 0, 0}, p1[3] = {0, 1, 0};
  tb_body_id g = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  tb_shape_id gs = tb_shape_create(w, g, TB_SHAPE_PLANE, plane, ZERO, ID_Q, 0.5f, 0, 1);
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, p1, ID_Q);
  tb_shape_id s = tb_shape_create(w, b, TB_SHAPE_SPHERE, sp, ZERO, ID_Q, 0.5f, 0, 1000);
  CHECK(g >= 0 && gs >= 0 && b >= 0 && s >= 0);
  for (int i = 0; i < 3; ++i) CHECK(tb_world_step(w) == TB_OK);
  uint64_t before = world_hash(w);
  float v3[3] = {0, 0, 0}, out13[13], out4[4];
  int32_t n;
  const float pts[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  const int32_t tri[3] = {0, 1, 2};
  tb_wrench wr;
  tb_ray_hit hit;
  CHECK_ERROR(-1, tb_world_create(NULL), TB_ERR_INVALID_ARGUMENT, "createWorld: def must not be null");
  CHECK_ERROR(w, tb_world_set_gravity(w, NULL), TB_ERR_INVALID_ARGUMENT, "setGravity: gravity must not be NULL");
  CHECK_ERROR(w, tb_world_set_solver(w, NULL), TB_ERR_INVALID_ARGUMENT, "setSolver: params must not be NULL");
  CHECK_ERROR(w, tb_world_set_collision(w, NULL), TB_ERR_INVALID_ARGUMENT, "setCollision: params must not be NULL");
  CHECK_ERROR(w, tb_world_get_def(w, NULL), TB_ERR_INVALID_ARGUMENT, "getDef: out must not be NULL");
  CHECK_ERROR(w, tb_body_create(w, TB_BODY_DYNAMIC, NULL, ID_Q), TB_ERR_INVALID_ARGUMENT, "addBody: position must not be NULL");
  CHECK_ERROR(w, tb_body_create(w, TB_BODY_DYNAMIC, ZERO, NULL), TB_ERR_INVALID_ARGUMENT, "addBody: rotation must not be NULL");
  CHECK_ERROR(w, tb_body_set_pose(w, b, NULL, ID_Q), TB_ERR_INVALID_ARGUMENT, "setPose: position must not be NULL");
  CHECK_ERROR(w, tb_body_set_pose(w, b, ZERO, NULL), TB_ERR_INVALID_ARGUMENT, "setPose: rotation must not be NULL");
  CHECK_ERROR(w, tb_body_set_velocity(w, b, NULL, v3), TB_ERR_INVALID_ARGUMENT, "setVelocity: linear must not be NULL");
  CHECK_ERROR(w, tb_body_set_velocity(w, b, v3, NULL), TB_ERR_INVALID_ARGUMENT, "setVelocity: angular must not be NULL");
  CHECK_ERROR(w, tb_body_get_state(w, b, NULL), TB_ERR_INVALID_ARGUMENT, "getState: out must not be NULL");
  CHECK_ERROR(w, tb_body_set_mass(w, b, 1, NULL, v3), TB_ERR_INVALID_ARGUMENT, "setMass: center must not be NULL");
  CHECK_ERROR(w, tb_body_set_mass(w, b, 1, v3, NULL), TB_ERR_INVALID_ARGUMENT, "setMass: inertia must not be NULL");
  CHECK_ERROR(w, tb_body_get_mass(w, b, NULL), TB_ERR_INVALID_ARGUMENT, "getMass: out must not be NULL");
  CHECK_ERROR(w, tb_shape_create(w, b, TB_SHAPE_SPHERE, NULL, ZERO, ID_Q, 0.5f, 0, 1), TB_ERR_INVALID_ARGUMENT, "addShape: params must not be NULL");
  CHECK_ERROR(w, tb_shape_create(w, b, TB_SHAPE_SPHERE, sp, NULL, ID_Q, 0.5f, 0, 1), TB_ERR_INVALID_ARGUMENT, "addShape: position must not be NULL");
  CHECK_ERROR(w, tb_shape_create(w, b, TB_SHAPE_SPHERE, sp, ZERO, NULL, 0.5f, 0, 1), TB_ERR_INVALID_ARGUMENT, "addShape: rotation must not be NULL");
  CHECK_ERROR(w, tb_shape_get_distances(w, s, NULL), TB_ERR_INVALID_ARGUMENT, "getShapeDistances: out must not be NULL");
  CHECK_ERROR(w, tb_shape_set_material(w, s, NULL), TB_ERR_INVALID_ARGUMENT, "material must not be NULL");
  CHECK_ERROR(w, tb_shape_get_material(w, s, NULL), TB_ERR_INVALID_ARGUMENT, "out must not be NULL");
  CHECK_ERROR(w, tb_body_get_shapes(w, b, NULL, 4), TB_ERR_INVALID_ARGUMENT, "shapesOf: capacity must be >= 0 with a non-NULL out");
  CHECK_ERROR(w, tb_shape_create_heightfield(w, g, 2, 2, NULL, 1, 1, ZERO, ID_Q, 0.5f, 0), TB_ERR_INVALID_ARGUMENT, "heights must not be NULL");
  CHECK_ERROR(w, tb_shape_create_heightfield(w, g, 2, 2, pts, 1, 1, NULL, ID_Q, 0.5f, 0), TB_ERR_INVALID_ARGUMENT, "must not be NULL");
  CHECK_ERROR(w, tb_shape_create_mesh(w, g, NULL, 3, tri, 1, ZERO, ID_Q, 0.5f, 0), TB_ERR_INVALID_ARGUMENT, "vertices and indices must not be NULL");
  CHECK_ERROR(w, tb_shape_create_mesh(w, g, pts, 3, NULL, 1, ZERO, ID_Q, 0.5f, 0), TB_ERR_INVALID_ARGUMENT, "vertices and indices must not be NULL");
  CHECK_ERROR(w, tb_shape_create_mesh(w, g, pts, 3, tri, 1, ZERO, NULL, 0.5f, 0), TB_ERR_INVALID_ARGUMENT, "must not be NULL");
  CHECK_ERROR(w, tb_shape_create_hull(w, b, NULL, 4, ZERO, ID_Q, 0.5f, 0, 1), TB_ERR_INVALID_ARGUMENT, "addHull: points must not be NULL");
  CHECK_ERROR(w, tb_shape_create_hull(w, b, pts, 4, NULL, ID_Q, 0.5f, 0, 1), TB_ERR_INVALID_ARGUMENT, "addHull: position must not be NULL");
  CHECK_ERROR(w, tb_shape_create_hull_ex(w, b, pts, 4, -1, ZERO, NULL, 0.5f, 0, 1), TB_ERR_INVALID_ARGUMENT, "addHull: rotation must not be NULL");
  CHECK_ERROR(w, tb_shape_get_hull(w, s, NULL), TB_ERR_INVALID_ARGUMENT, "getHull");
  CHECK_ERROR(w, tb_world_contact_status(w, NULL), TB_ERR_INVALID_ARGUMENT, "contactStatus: out must not be NULL");
  CHECK_ERROR(w, tb_world_step_stats(w, NULL), TB_ERR_INVALID_ARGUMENT, "stepStats: out must not be NULL");
  CHECK_ERROR(w, tb_world_readback_info(w, NULL), TB_ERR_INVALID_ARGUMENT, "readbackInfo: out must not be NULL");
  CHECK_ERROR(w, tb_world_solver_status(w, NULL), TB_ERR_INVALID_ARGUMENT, "solverStatus: out must not be NULL");
  CHECK_ERROR(w, tb_shape_set_filter(w, s, NULL), TB_ERR_INVALID_ARGUMENT, "setShapeFilter: filter must not be NULL");
  CHECK_ERROR(w, tb_shape_get_filter(w, s, NULL), TB_ERR_INVALID_ARGUMENT, "getShapeFilter: out must not be NULL");
  CHECK_ERROR(w, tb_body_get_parent(w, b, NULL), TB_ERR_INVALID_ARGUMENT, "getParent: parent must not be NULL");
  CHECK_ERROR(w, tb_world_set_explicit_pairs(w, NULL, 1), TB_ERR_INVALID_ARGUMENT, "setExplicitPairs: shape_ids must not be NULL");
  CHECK_ERROR(w, tb_world_ray_cast(w, NULL, v3, 1, NULL, &hit), TB_ERR_INVALID_ARGUMENT, "rayCast: origin and direction must not be NULL");
  CHECK_ERROR(w, tb_world_ray_cast(w, v3, NULL, 1, NULL, &hit), TB_ERR_INVALID_ARGUMENT, "rayCast: origin and direction must not be NULL");
  CHECK_ERROR(w, tb_world_ray_cast(w, v3, p1, 1, NULL, NULL), TB_ERR_INVALID_ARGUMENT, "rayCast: hit must not be NULL");
  CHECK_ERROR(w, tb_world_ray_cast_all(w, NULL, p1, 1, NULL, NULL, 0, &n), TB_ERR_INVALID_ARGUMENT, "rayCastAll: origin and direction must not be NULL");
  CHECK_ERROR(w, tb_world_ray_cast_all(w, v3, p1, 1, NULL, NULL, 0, NULL), TB_ERR_INVALID_ARGUMENT, "rayCastAll: hits and requested must not be NULL");
  CHECK_ERROR(w, tb_world_overlap(w, TB_SHAPE_SPHERE, NULL, v3, ID_Q, NULL, NULL, 0, &n), TB_ERR_INVALID_ARGUMENT, "overlap: params");
  CHECK_ERROR(-1, tb_wrench_shift(NULL, v3, &wr), TB_ERR_INVALID_ARGUMENT, "wrenchShift");
  CHECK_ERROR(-1, tb_wrench_shift(&wr, NULL, &wr), TB_ERR_INVALID_ARGUMENT, "wrenchShift");
  CHECK_ERROR(-1, tb_wrench_shift(&wr, v3, NULL), TB_ERR_INVALID_ARGUMENT, "wrenchShift");
  CHECK_ERROR(-1, tb_wrench_reaction(NULL, v3, &wr), TB_ERR_INVALID_ARGUMENT, "wrenchReaction");
  CHECK_ERROR(-1, tb_wrench_reaction(&wr, v3, NULL), TB_ERR_INVALID_ARGUMENT, "wrenchReaction");
  CHECK_ERROR(-1, tb_wrench_average(NULL, out4, 1, v3, &wr), TB_ERR_INVALID_ARGUMENT, "wrenchAverage");
  CHECK_ERROR(-1, tb_wrench_average(&wr, NULL, 1, v3, &wr), TB_ERR_INVALID_ARGUMENT, "wrenchAverage");
  CHECK_ERROR(-1, tb_wrench_average(&wr, out4, 1, NULL, &wr), TB_ERR_INVALID_ARGUMENT, "wrenchAverage");
  CHECK_ERROR(-1, tb_wrench_average(&wr, out4, 1, v3, NULL), TB_ERR_INVALID_ARGUMENT, "wrenchAverage");
  CHECK_ERROR(w, tb_contact_wrench(w, 0, 0, NULL, NULL, NULL), TB_ERR_INVALID_ARGUMENT, "contactWrench: out must not be NULL");
  CHECK_ERROR(w, tb_body_contact_wrench(w, b, TB_ANY_BODY, 0, NULL, NULL), TB_ERR_INVALID_ARGUMENT, "out must not be NULL");
  CHECK_ERROR(w, tb_world_body_contact_wrenches(w, 0, NULL, tb_world_body_slot_count(w), NULL), TB_ERR_INVALID_ARGUMENT, "out must not be NULL");
  CHECK_ERROR(w, tb_body_contacts(w, b, TB_ANY_BODY, 0, NULL, 4), TB_ERR_INVALID_ARGUMENT, "bodyContacts: out must not be NULL");
  tb_sensor_id sensor = tb_sensor_create(w, b, TB_ANY_BODY, 4);
  CHECK(sensor >= 0);
  CHECK_ERROR(w, tb_sensor_read(w, sensor, NULL, NULL), TB_ERR_INVALID_ARGUMENT, "force must not be NULL");
  CHECK_ERROR(w, tb_sensor_history(w, sensor, NULL, NULL, NULL, 4), TB_ERR_INVALID_ARGUMENT, "forces must not be NULL");
  CHECK_ERROR(w, tb_world_event_status(w, NULL), TB_ERR_INVALID_ARGUMENT, "out must not be NULL");
  CHECK(tb_preset_apply(TB_PRESET_PHYSX_PGS, NULL) == TB_ERR_INVALID_ARGUMENT);
  tb_default_world_def_into(NULL); /* void calls ignore NULL */
  tb_material_default_into(0.5f, 0, NULL);
  tb_default_shape_filter(NULL);
  (void)out13;
  CHECK(world_hash(w) == before); /* nothing changed */
  CHECK(tb_world_step(w) == TB_OK);
  tb_world_destroy(w);
}

/* ---- capacities: an upper bound per capacity, named ---- */

static void test_capacity_bounds(void) {
  tb_world_def def = tb_default_world_def();
  def.contact_capacity = 1 << 30; /* in wasm32 1 << 30 contacts times their bytes wrap size_t */
  CHECK_ERROR(-1, tb_world_create(&def), TB_ERR_CAPACITY, "createWorld: contact_capacity must be at most 16777216 (got 1073741824)");
  def = tb_default_world_def();
  def.pair_capacity = INT32_MAX;
  CHECK_ERROR(-1, tb_world_create(&def), TB_ERR_CAPACITY, "createWorld: pair_capacity must be at most");
  def = tb_default_world_def();
  def.body_capacity = 1 << 28;
  CHECK_ERROR(-1, tb_world_create(&def), TB_ERR_CAPACITY, "createWorld: body_capacity must be at most 1048575");
  tb_world_id w = new_world(TB_PRESET_PHYSX_TGS);
  CHECK_ERROR(w, tb_world_set_contact_capacity(w, 1 << 30), TB_ERR_CAPACITY, "setContactCapacity: capacity must be at most 16777216");
  CHECK_ERROR(w, tb_world_set_pair_capacity(w, 1 << 30), TB_ERR_CAPACITY, "setPairCapacity: capacity must be at most 16777216");
  CHECK_ERROR(w, tb_world_set_event_capacity(w, 1 << 30), TB_ERR_CAPACITY, "setEventCapacity: capacity must be in [0, 16777216]");
  int32_t n, ids[2] = {0, 0};
  float o[3] = {0, 5, 0}, d[3] = {0, -1, 0}, sp[4] = {1, 0, 0, 0};
  tb_ray_hit hit;
  CHECK_ERROR(w, tb_world_ray_cast_all(w, o, d, 10, NULL, &hit, 1 << 30, &n), TB_ERR_CAPACITY, "rayCastAll: capacity must be at most");
  CHECK_ERROR(w, tb_world_overlap(w, TB_SHAPE_SPHERE, sp, o, ID_Q, NULL, ids, 1 << 30, &n), TB_ERR_CAPACITY, "overlap: capacity must be at most");
  CHECK_ERROR(w, tb_world_set_explicit_pairs(w, ids, 1 << 30), TB_ERR_CAPACITY, "setExplicitPairs: pair_count must be at most");
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, ZERO, ID_Q);
  CHECK_ERROR(w, tb_sensor_create(w, b, TB_ANY_BODY, 1 << 30), TB_ERR_INVALID_ARGUMENT, "addContactSensor: capacity must be in [1, 1048576]");
  tb_world_contact_status(w, &(tb_contact_status){0});
  tb_contact_status st;
  tb_world_contact_status(w, &st);
  CHECK(st.capacity == 512 && st.pair_capacity == 512); /* unchanged */
  CHECK(tb_world_step(w) == TB_OK);
  /* the constants table carries the bounds for bindings */
  int found = 0;
  for (int32_t i = 0; i < tb_constant_count(); ++i)
    if (strcmp(tb_constant_name(i), "max_capacity") == 0) found = tb_constant_value(i) == TB_MAX_CAPACITY;
  CHECK(found);
  tb_world_destroy(w);
}

/* ---- allocation failure at every allocation of a scene build and its steps ---- */

static long s_allocs = 0, s_fail_at = -1;
static void* failing_alloc(size_t size, void* user) {
  (void)user;
  if (++s_allocs == s_fail_at) return NULL;
  return malloc(size);
}
static void plain_free(void* p, size_t size, void* user) { (void)size; (void)user; free(p); }

/* One call of the scene script: returns 1 when it succeeded. A failure must be out of memory and
 * leave the world's state and id sequence as before; the call is then retried (the failure is
 * one-shot) and must succeed. */
static int s_bad = 0;
/* failed(r): r is an error, for status calls (failed when > 0) and id calls (failed when < 0) */
#define RETRY_CALL(w, call, failed)                                                           \
  do {                                                                                        \
    uint64_t h_ = world_hash(w);                                                              \
    int32_t r_ = (int32_t)(call);                                                             \
    if (failed(r_)) {                                                                         \
      if ((r_ != TB_ERR_OUT_OF_MEMORY && r_ != -TB_ERR_OUT_OF_MEMORY) || world_hash(w) != h_) { \
        fprintf(stderr, "  alloc %ld: %s gave %d (%s)\n", s_fail_at, #call, r_, tb_last_error(w)); \
        ++s_bad;                                                                              \
      }                                                                                       \
      r_ = (int32_t)(call);                                                                   \
      if (failed(r_)) ++s_bad;                                                                \
    }                                                                                         \
    last = r_;                                                                                \
  } while (0)
#define STATUS_FAILED(r) ((r) != TB_OK)
#define ID_FAILED(r) ((r) < 0)
#define RETRY(w, call) RETRY_CALL(w, call, STATUS_FAILED)
#define RETRY_ID(w, call) RETRY_CALL(w, call, ID_FAILED)

static uint64_t oom_script(void) {
  tb_world_def def = tb_default_world_def();
  def.contact_capacity = 256;
  def.pair_capacity = 256;
  def.body_capacity = 2;
  tb_world_id w = -1;
  int32_t last = 0;
  for (int tries = 0; tries < 2 && w < 0; ++tries) w = tb_world_create(&def);
  if (w < 0) { ++s_bad; return 0; }
  float plane[4] = {0, 1, 0, 0}, box[4] = {0.3f, 0.2f, 0.25f, 0}, sp[4] = {0.3f, 0, 0, 0}, cap[4] = {0.2f, 0.3f, 0, 0};
  float ell[4] = {0.3f, 0.2f, 0.25f, 0};
  float heights[16], hull[3 * 70], verts[12] = {-4, 0, -4, 4, 0, -4, 4, 0, 4, -4, 0, 4};
  int32_t tris[6] = {0, 2, 1, 0, 3, 2};
  for (int i = 0; i < 16; ++i) heights[i] = 0.05f * (float)(i % 3);
  for (int i = 0; i < 70; ++i) { /* 70 points on a sphere: a hull with a support field */
    float t = 2.399963f * (float)i, z = 1.0f - 2.0f * ((float)i + 0.5f) / 70.0f, r = sqrtf(1 - z * z);
    hull[3 * i] = 0.3f * r * cosf(t); hull[3 * i + 1] = 0.3f * z; hull[3 * i + 2] = 0.3f * r * sinf(t);
  }
  RETRY_ID(w, tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q));
  tb_body_id g = last;
  RETRY_ID(w, tb_shape_create(w, g, TB_SHAPE_PLANE, plane, ZERO, ID_Q, 0.5f, 0, 1));
  float hp[3] = {6, 0, 0}, mp[3] = {-6, 0, 0};
  RETRY_ID(w, tb_shape_create_heightfield(w, g, 4, 4, heights, 1, 1, hp, ID_Q, 0.5f, 0));
  RETRY_ID(w, tb_shape_create_mesh(w, g, verts, 4, tris, 2, mp, ID_Q, 0.5f, 0));
  tb_body_id bodies[8];
  for (int i = 0; i < 8; ++i) {
    float p[3] = {(float)(i % 4) - 1.5f, 0.35f + 0.7f * (float)(i / 4), 0};
    RETRY_ID(w, tb_body_create(w, i == 7 ? TB_BODY_KINEMATIC : TB_BODY_DYNAMIC, p, ID_Q));
    bodies[i] = last;
    tb_shape_type types[6] = {TB_SHAPE_BOX, TB_SHAPE_SPHERE, TB_SHAPE_CAPSULE, TB_SHAPE_CYLINDER, TB_SHAPE_ELLIPSOID, TB_SHAPE_HULL};
    tb_shape_type t = types[i % 6];
    const float* prm = t == TB_SHAPE_BOX ? box : t == TB_SHAPE_SPHERE ? sp : t == TB_SHAPE_ELLIPSOID ? ell : cap;
    if (t == TB_SHAPE_HULL) RETRY_ID(w, tb_shape_create_hull(w, bodies[i], hull, 70, ZERO, ID_Q, 0.5f, 0, 500));
    else RETRY_ID(w, tb_shape_create(w, bodies[i], t, prm, ZERO, ID_Q, 0.5f, 0.1f, 500));
  }
  RETRY_ID(w, tb_sensor_create(w, bodies[0], TB_ANY_BODY, 8));
  RETRY(w, tb_world_set_event_capacity(w, 64));
  RETRY(w, tb_world_set_force_threshold(w, 1.0f));
  RETRY(w, tb_world_set_body_pair_excluded(w, bodies[0], bodies[1], 1));
  tb_contact_pair_params cp;
  tb_contact_pair_default_into(&cp);
  cp.margin = 0.01f;
  cp.friction[0] = cp.friction[1] = 0.5f;
  tb_shape_id sh[2];
  tb_body_get_shapes(w, bodies[2], &sh[0], 1);
  tb_body_get_shapes(w, bodies[3], &sh[1], 1);
  RETRY(w, tb_world_set_contact_pair(w, sh[0], sh[1], &cp));
  RETRY(w, tb_world_set_shape_pair_excluded(w, sh[0], sh[1], 1));
  for (int p = 0; p < TB_PRESET_COUNT; ++p) {
    RETRY(w, tb_world_set_preset(w, (tb_preset)p));
    for (int s = 0; s < 3; ++s) RETRY(w, tb_world_step(w));
  }
  RETRY(w, tb_world_set_contact_capacity(w, 1024));
  RETRY(w, tb_world_set_pair_capacity(w, 1024));
  RETRY(w, tb_body_destroy(w, bodies[5]));
  RETRY(w, tb_world_step(w));
  uint64_t h = world_hash(w);
  tb_world_destroy(w);
  return h;
}

static void test_allocation_failure(void) {
  int64_t start;
  /* a second world that steps throughout and must never notice */
  tb_world_id other = new_world(TB_PRESET_PHYSX_PGS);
  float plane[4] = {0, 1, 0, 0}, sp[4] = {0.3f, 0, 0, 0}, p[3] = {0, 0.5f, 0};
  tb_shape_create(other, tb_body_create(other, TB_BODY_STATIC, ZERO, ID_Q), TB_SHAPE_PLANE, plane, ZERO, ID_Q, 0.5f, 0, 1);
  tb_shape_create(other, tb_body_create(other, TB_BODY_DYNAMIC, p, ID_Q), TB_SHAPE_SPHERE, sp, ZERO, ID_Q, 0.5f, 0, 100);
  for (int i = 0; i < 60; ++i) CHECK(tb_world_step(other) == TB_OK); /* resting: its scratch is sized */
  start = tb_live_bytes();
  tb_set_allocator(failing_alloc, plain_free, NULL);
  s_fail_at = -1;
  s_allocs = 0;
  uint64_t reference = oom_script();
  long total = s_allocs;
  CHECK(s_bad == 0);
  CHECK(total > 50); /* the script allocates: the loop below covers each allocation */
  CHECK_NEAR(start, tb_live_bytes(), 0);
  int diverged = 0, leaked = 0;
  for (long n = 1; n <= total; ++n) {
    s_fail_at = n;
    s_allocs = 0;
    uint64_t h = oom_script();
    diverged += h != reference;
    leaked += tb_live_bytes() != start;
    if (h != reference || tb_live_bytes() != start)
      fprintf(stderr, "  alloc %ld: hash %s, live bytes %lld\n", n, h == reference ? "same" : "differs", (long long)(tb_live_bytes() - start));
    if (n % 7 == 0) CHECK(tb_world_step(other) == TB_OK);
  }
  CHECK(s_bad == 0);     /* every failure was out of memory, left the world unchanged and a retry worked */
  CHECK(diverged == 0);  /* a failed-then-retried call ends in the same state as never failing */
  CHECK(leaked == 0);    /* live bytes back to the start after destroy */
  tb_set_allocator(NULL, NULL, NULL);
  s_fail_at = -1;
  CHECK(tb_world_step(other) == TB_OK);
  tb_world_destroy(other);
}

/* ---- the sweep's pair regions: a failed regrowth, then the retried steps ---- */

/* With one pair of capacity the sweep's per-chunk regions start at one pair each, so the first
 * step's sweep finds more and grows them inside its loop, and then the pair arrays grow too. Each
 * allocation of that step fails once in turn: the step fails, the world is unchanged, and the
 * next steps work. A region freed for a regrowth that failed used to keep its old chunk size, and
 * the retried sweep then offset a NULL region: clang's UBSan (the fuzzer's build, `clang
 * -fsanitize=address,undefined` of this file) stopped there; gcc's does not check it. The fuzz
 * corpus holds the input that found it (tests/fuzz/corpus/sweep-region-oom). */
static void test_sweep_region_failure(void) {
  const int n_side = 18; /* 324 spheres touching their neighbours: three sweep chunks */
  long total = -1;
  for (long n = 0; n == 0 || n <= total; ++n) {
    tb_world_def def = tb_default_world_def();
    def.pair_capacity = 1;
    tb_world_id w = tb_world_create(&def);
    CHECK(w >= 0);
    float sp[4] = {0.5f, 0, 0, 0};
    for (int i = 0; i < n_side * n_side; ++i) {
      float p[3] = {0.95f * (float)(i % n_side), 0.5f, 0.95f * (float)(i / n_side)};
      tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, p, ID_Q);
      CHECK(tb_shape_create(w, b, TB_SHAPE_SPHERE, sp, ZERO, ID_Q, 0.5f, 0, 100) >= 0);
    }
    uint64_t before = world_hash(w);
    tb_set_allocator(failing_alloc, plain_free, NULL);
    s_allocs = 0;
    s_fail_at = n == 0 ? -1 : n; /* n = 0: count the step's allocations */
    tb_status st = tb_world_step(w);
    if (n == 0) { total = s_allocs; CHECK(st == TB_OK); CHECK(total > 3); }
    else if (st != TB_OK) { CHECK(st == TB_ERR_OUT_OF_MEMORY); CHECK(world_hash(w) == before); }
    tb_set_allocator(NULL, NULL, NULL);
    s_fail_at = -1;
    for (int k = 0; k < 2; ++k) CHECK(tb_world_step(w) == TB_OK);
    tb_world_destroy(w);
  }
}

/* A step that runs out of memory part-way (each allocation of a step that grows the pairs, the
 * matching frames' points and the contact store, in turn) leaves a world whose snapshot restores,
 * and the restored world steps bit for bit as the world does. The matching frame a failed
 * collide() had begun (each pair's first point written, the points not yet reserved) once went
 * into the snapshot and made its restore fail the consistency check. */
static void test_snapshot_after_failed_step(void) {
  long total = -1;
  for (long n = 0; n == 0 || n <= total; ++n) {
    tb_world_def def = tb_default_world_def();
    def.pair_capacity = 16;
    def.contact_capacity = 16;
    tb_world_id w = tb_world_create(&def);
    CHECK(w >= 0);
    float plane[4] = {0, 1, 0, 0}, sp[4] = {0.5f, 0, 0, 0};
    tb_body_id ground = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
    CHECK(tb_shape_create(w, ground, TB_SHAPE_PLANE, plane, ZERO, ID_Q, 0.5f, 0, 1) >= 0);
    for (int i = 0; i < 4; ++i) { /* resting: the frames hold points before the step that fails */
      float p[3] = {1.2f * (float)i, 0.5f, 0};
      tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, p, ID_Q);
      CHECK(tb_shape_create(w, b, TB_SHAPE_SPHERE, sp, ZERO, ID_Q, 0.5f, 0, 100) >= 0);
    }
    for (int k = 0; k < 5; ++k) CHECK(tb_world_step(w) == TB_OK);
    for (int i = 0; i < 64; ++i) { /* touching neighbours: more pairs and points than the stores hold */
      float p[3] = {0.95f * (float)(i % 8), 1.5f, 3.0f + 0.95f * (float)(i / 8)};
      tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, p, ID_Q);
      CHECK(tb_shape_create(w, b, TB_SHAPE_SPHERE, sp, ZERO, ID_Q, 0.5f, 0, 100) >= 0);
    }
    tb_set_allocator(failing_alloc, plain_free, NULL);
    s_allocs = 0;
    s_fail_at = n == 0 ? -1 : n; /* n = 0: count the step's allocations */
    tb_status st = tb_world_step(w);
    if (n == 0) { total = s_allocs; CHECK(st == TB_OK); CHECK(total > 3); }
    else CHECK(st == TB_OK || st == TB_ERR_OUT_OF_MEMORY);
    tb_set_allocator(NULL, NULL, NULL);
    s_fail_at = -1;
    int32_t size = tb_world_snapshot(w, NULL, 0);
    CHECK(size > 0);
    void* bytes = malloc((size_t)size);
    CHECK(bytes && tb_world_snapshot(w, bytes, size) == size);
    tb_world_id c = tb_world_create_from_snapshot(bytes, size, 0);
    if (c < 0) fprintf(stderr, "  allocation %ld failed: the snapshot does not restore (%d)\n", n, tb_snapshot_last_error());
    CHECK(c >= 0);
    for (int k = 0; k < 3 && c >= 0; ++k) {
      CHECK(tb_world_step(w) == TB_OK);
      CHECK(tb_world_step(c) == TB_OK);
      CHECK(world_hash(w) == world_hash(c));
    }
    free(bytes);
    if (c >= 0) tb_world_destroy(c);
    tb_world_destroy(w);
  }
}

/* ---- the finite-state guard covers every body type ---- */

static void test_guard_every_body_type(void) {
  tb_world_id w = new_world(TB_PRESET_PHYSX_TGS);
  float sp[4] = {0.3f, 0, 0, 0}, p[3] = {0, 3, 0};
  tb_body_id k = tb_body_create(w, TB_BODY_KINEMATIC, p, ID_Q);
  tb_shape_create(w, k, TB_SHAPE_SPHERE, sp, ZERO, ID_Q, 0.5f, 0, 100);
  float lin[3] = {0, 0, 0}, ang[3] = {3.4e38f, 0, 0};
  tb_test_set_velocity_unchecked(w, k, lin, ang); /* finite: a snapshot may hold it */
  uint64_t before = world_hash(w);
  char want[64];
  snprintf(want, sizeof want, "body %d", k);
  CHECK_ERROR(w, tb_world_step(w), TB_ERR_INVALID_STATE, want);
  CHECK(strstr(tb_last_error(w), "kinematic") != NULL);
  CHECK(world_hash(w) == before); /* undone */
  float st[13];
  tb_body_get_state(w, k, st);
  for (int i = 0; i < 13; ++i) CHECK(isfinite(st[i]));
  /* a sane velocity makes the world step again */
  ang[0] = 1.0f;
  CHECK(tb_body_set_velocity(w, k, lin, ang) == TB_OK);
  CHECK(tb_world_step(w) == TB_OK);
  tb_world_destroy(w);
}

/* ---- a spin so fast that the rotation's update overflows ---- */

/* A body spun at 1e22 rad/s (finite: a snapshot may hold it; setVelocity used to take it): the quaternion update's components
 * reach about 1e20, their squares overflow, and the renormalisation divided by infinity gave a
 * zero rotation, which the finite-state guard let through (every shape then collapsed onto its
 * body's origin, and the world's own snapshot was refused). In every preset the step either keeps
 * a unit rotation or is refused and undone; the world's snapshot restores. */
static void test_spin_overflow(void) {
  for (int p = 0; p < TB_PRESET_COUNT; ++p) {
    tb_world_id w = new_world((tb_preset)p);
    float sp[4] = {0.3f, 0, 0, 0}, pos[3] = {0, 3, 0}, lin[3] = {0, 0, 0}, ang[3] = {1e22f, 2e22f, -1e22f};
    tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, pos, ID_Q);
    tb_shape_create(w, b, TB_SHAPE_SPHERE, sp, ZERO, ID_Q, 0.5f, 0, 100);
    tb_test_set_velocity_unchecked(w, b, lin, ang);
    tb_status st = tb_world_step(w);
    CHECK(st == TB_OK || st == TB_ERR_INVALID_STATE);
    float s[13];
    CHECK(tb_body_get_state(w, b, s) == TB_OK);
    double len = sqrt((double)s[3] * s[3] + (double)s[4] * s[4] + (double)s[5] * s[5] + (double)s[6] * s[6]);
    if (fabs(len - 1.0) > 1e-5) fprintf(stderr, "preset %d: step %d, rotation length %g\n", p, (int)st, len);
    CHECK(fabs(len - 1.0) <= 1e-5);
    int32_t n = tb_world_snapshot(w, NULL, 0);
    uint8_t* bytes = (uint8_t*)malloc((size_t)n);
    CHECK(tb_world_snapshot(w, bytes, n) == n);
    CHECK(tb_world_restore(w, bytes, n) == TB_OK);
    free(bytes);
    tb_world_destroy(w);
  }
}

/* ---- mass properties float32 can hold ---- */

static void test_mass_bounds(void) {
  tb_world_id w = new_world(TB_PRESET_PHYSX_TGS);
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, ZERO, ID_Q);
  float huge[4] = {1e30f, 0, 0, 0}, one[4] = {1, 0, 0, 0}, tiny[4] = {1e-30f, 0, 0, 0};
  CHECK_ERROR(w, tb_shape_create(w, b, TB_SHAPE_SPHERE, huge, ZERO, ID_Q, 0.5f, 0, 1000), TB_ERR_INVALID_ARGUMENT, "addShape: sphere");
  CHECK(strstr(tb_last_error(w), "mass") != NULL);
  CHECK_ERROR(w, tb_shape_create(w, b, TB_SHAPE_SPHERE, one, ZERO, ID_Q, 0.5f, 0, 1e38f), TB_ERR_INVALID_ARGUMENT, "addShape: sphere");
  CHECK_ERROR(w, tb_shape_create(w, b, TB_SHAPE_SPHERE, tiny, ZERO, ID_Q, 0.5f, 0, 1000), TB_ERR_INVALID_ARGUMENT, "addShape: sphere");
  /* a static body takes the same bounds (its shapes' sizes), and a 1 mm sphere is fine */
  tb_body_id st = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  CHECK_ERROR(w, tb_shape_create(w, st, TB_SHAPE_SPHERE, huge, ZERO, ID_Q, 0.5f, 0, 1000), TB_ERR_INVALID_ARGUMENT, "mass properties do not fit float32");
  tb_body_id small = tb_body_create(w, TB_BODY_DYNAMIC, ZERO, ID_Q);
  float mm[4] = {1e-3f, 0, 0, 0}, ms[13];
  CHECK(tb_shape_create(w, small, TB_SHAPE_SPHERE, mm, ZERO, ID_Q, 0.5f, 0, 1000) >= 0);
  CHECK(tb_body_get_mass(w, small, ms) == TB_OK);
  CHECK_NEAR(0.4 * 1000 * 4.0 / 3.0 * 3.14159265358979 * 1e-9 * 1e-6, ms[4], 1e-17);
  /* 10 µm at 1e6 kg/m³: inertia 1.7e-19 kg·m², its determinant underflows float32 but the body rotates */
  tb_body_id micro = tb_body_create(w, TB_BODY_DYNAMIC, ZERO, ID_Q);
  float um[4] = {1e-5f, 0, 0, 0}, spin[3] = {0, 0, 0}, push[3] = {0, 0, 0};
  CHECK(tb_shape_create(w, micro, TB_SHAPE_SPHERE, um, ZERO, ID_Q, 0.5f, 0, 1e6f) >= 0);
  CHECK(tb_body_set_velocity(w, micro, push, spin) == TB_OK);
  CHECK(tb_shape_create(w, b, TB_SHAPE_SPHERE, one, ZERO, ID_Q, 0.5f, 0, 1000) >= 0);
  /* a second shape 1e25 m away: the combined inertia m·d² overflows */
  float far[3] = {1e25f, 0, 0};
  CHECK_ERROR(w, tb_shape_create(w, b, TB_SHAPE_SPHERE, one, far, ID_Q, 0.5f, 0, 1000), TB_ERR_INVALID_ARGUMENT, "inertia");
  float c[3] = {0, 0, 0}, in[3] = {1, 1, 1};
  CHECK_ERROR(w, tb_body_set_mass(w, b, 1e-40f, c, in), TB_ERR_INVALID_ARGUMENT, "setMass: mass");
  float tiny_in[3] = {1e-40f, 1, 1};
  CHECK_ERROR(w, tb_body_set_mass(w, b, 1, c, tiny_in), TB_ERR_INVALID_ARGUMENT, "setMass: inertia[0]");
  float m[13];
  CHECK(tb_body_get_mass(w, b, m) == TB_OK);
  CHECK_NEAR(1000 * 4.0 / 3.0 * 3.14159265358979, m[0], 0.01);
  tb_world_destroy(w);
}

/* Positions: finite and within ±TB_MAX_COORDINATE (1e6 m) on every axis, where a shape of the
 * largest size (1e6 m) still gives finite bounds and products; 3e38 m is refused by name. */
static void test_position_bound(void) {
  tb_world_id w = new_world(TB_PRESET_PHYSX_TGS);
  const float huge[3] = {3e38f, 0, 0}, beyond[3] = {0, 0, -2e6f}, edge[3] = {1e6f, -1e6f, 1e6f};
  CHECK_ERROR(w, tb_body_create(w, TB_BODY_DYNAMIC, huge, ID_Q), TB_ERR_INVALID_ARGUMENT, "addBody: position[0] must be within");
  CHECK_ERROR(w, tb_body_create(w, TB_BODY_STATIC, beyond, ID_Q), TB_ERR_INVALID_ARGUMENT, "addBody: position[2] must be within");
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, edge, ID_Q);
  CHECK(b >= 0);
  CHECK_ERROR(w, tb_body_set_pose(w, b, beyond, ID_Q), TB_ERR_INVALID_ARGUMENT, "setPose: position[2] must be within");
  float st[13];
  CHECK(tb_body_get_state(w, b, st) == TB_OK);
  CHECK(st[0] == 1e6f && st[1] == -1e6f && st[2] == 1e6f); /* unchanged by the refused call */
  CHECK(TB_MAX_COORDINATE == 1e6f);
  tb_world_destroy(w);
}

/* Velocities: within ±TB_MAX_SPEED (1e6 m/s) and ±TB_MAX_ANGULAR_SPEED (1e6 rad/s) on every axis.
 * 5e21 rad/s used to be accepted and the next step failed (the rotation's norm overflowed); at the
 * bounds a box resting on the ground steps to a finite state in every preset. */
static void test_velocity_bound(void) {
  const float huge[3] = {0, 5e21f, 0}, beyond[3] = {0, 0, -1.5e6f};
  const float edge[3] = {TB_MAX_SPEED, -TB_MAX_SPEED, TB_MAX_SPEED};
  const float spin[3] = {TB_MAX_ANGULAR_SPEED, -TB_MAX_ANGULAR_SPEED, TB_MAX_ANGULAR_SPEED};
  for (int p = 0; p < TB_PRESET_COUNT; ++p) {
    tb_world_id w = new_world((tb_preset)p);
    const float plane[4] = {0, 1, 0, 0}, hb[4] = {0.5f, 0.5f, 0.5f, 0}, at[3] = {0, 0.5f, 0};
    tb_shape_create(w, tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q), TB_SHAPE_PLANE, plane, ZERO, ID_Q, 0.5f, 0, 1);
    tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, at, ID_Q);
    CHECK(tb_shape_create(w, b, TB_SHAPE_BOX, hb, ZERO, ID_Q, 0.5f, 0, 100) >= 0); /* 100 kg: newton-semi's spring holds it */
    CHECK_ERROR(w, tb_body_set_velocity(w, b, ZERO, huge), TB_ERR_INVALID_ARGUMENT, "setVelocity: angular[1] must be within");
    CHECK_ERROR(w, tb_body_set_velocity(w, b, beyond, ZERO), TB_ERR_INVALID_ARGUMENT, "setVelocity: linear[2] must be within");
    float st[13];
    CHECK(tb_body_get_state(w, b, st) == TB_OK);
    CHECK(st[7] == 0 && st[8] == 0 && st[9] == 0 && st[11] == 0); /* unchanged by the refused calls */
    CHECK(tb_body_set_velocity(w, b, edge, spin) == TB_OK);
    tb_status s = tb_world_step(w);
    if (s != TB_OK) fprintf(stderr, "%s at the velocity bounds: %s\n", tb_enum_name(TB_ENUM_PRESET, p), tb_last_error(w));
    CHECK(s == TB_OK);
    CHECK(tb_body_get_state(w, b, st) == TB_OK);
    int finite = 1;
    for (int k = 0; k < 13; ++k) finite &= isfinite(st[k]) != 0;
    CHECK(finite);
    tb_world_destroy(w);
  }
  CHECK(TB_MAX_SPEED == 1e6f && TB_MAX_ANGULAR_SPEED == 1e6f);
}

/* Gravity within ±TB_MAX_GRAVITY (1e6 m/s²) on each axis and body damping in [0, TB_MAX_DAMPING]
 * (1e6 1/s): 3e38 of either was taken and every PGS / TGS / XPBD / penalty / Kamino step failed
 * (g·h or c·h overflowed) with a message that blamed the body. At the bounds (a free-falling box
 * at 1e6 m/s² per axis; a resting box damped at 1e6 1/s) every preset steps to a finite state, but
 * for newton-semi's refusal of a penalty spring too soft for that weight, and the damping of
 * newton-semi, newton-xpbd and Kamino, which is explicit (test_explicit_damping). */
static void test_gravity_damping_bound(void) {
  const float huge[3] = {0, -3e38f, 0}, edge[3] = {TB_MAX_GRAVITY, -TB_MAX_GRAVITY, TB_MAX_GRAVITY};
  for (int p = 0; p < TB_PRESET_COUNT; ++p) {
    for (int which = 0; which < 2; ++which) {
      tb_world_id w = new_world((tb_preset)p);
      const float plane[4] = {0, 1, 0, 0}, hb[4] = {0.5f, 0.5f, 0.5f, 0}, at[3] = {0, 0.5f, 0};
      if (which == 1) tb_shape_create(w, tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q), TB_SHAPE_PLANE, plane, ZERO, ID_Q, 0.5f, 0, 1);
      tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, at, ID_Q);
      CHECK(tb_shape_create(w, b, TB_SHAPE_BOX, hb, ZERO, ID_Q, 0.5f, 0, 100) >= 0);
      if (which == 0) {
        CHECK_ERROR(w, tb_world_set_gravity(w, huge), TB_ERR_INVALID_ARGUMENT, "setGravity: gravity[1] must be within");
        tb_world_def def = tb_default_world_def();
        def.gravity[2] = -2e6f;
        CHECK(tb_world_create(&def) == -TB_ERR_INVALID_ARGUMENT);
        CHECK(strstr(tb_last_error(-1), "gravity[2] must be within") != NULL);
        CHECK(tb_world_set_gravity(w, edge) == TB_OK);
      } else {
        CHECK_ERROR(w, tb_body_set_damping(w, b, 3e38f, 0), TB_ERR_INVALID_ARGUMENT, "setDamping: linearDamping must be finite and in [0, 1e+06]");
        CHECK_ERROR(w, tb_body_set_damping(w, b, 0, -1), TB_ERR_INVALID_ARGUMENT, "setDamping: angularDamping must be");
        CHECK(tb_body_set_damping(w, b, TB_MAX_DAMPING, TB_MAX_DAMPING) == TB_OK);
      }
      if (which == 1 && (p == TB_PRESET_NEWTON_SEMI || p == TB_PRESET_NEWTON_XPBD || p == TB_PRESET_KAMINO)) {
        /* explicit damping (test_explicit_damping) far past c·h = 2: refused, the message says so */
        tb_status s = TB_OK;
        for (int k = 0; k < 60 && s == TB_OK; ++k) s = tb_world_step(w);
        if (s != TB_OK && !strstr(tb_last_error(w), "its damping is explicit and unstable"))
          fprintf(stderr, "%s at the damping bound: %s\n", tb_enum_name(TB_ENUM_PRESET, p), tb_last_error(w));
        CHECK(s != TB_OK && strstr(tb_last_error(w), "its damping is explicit and unstable: c·h = 1e+06 1/s") != NULL);
        tb_world_destroy(w);
        continue;
      }
      tb_status s = TB_OK;
      for (int k = 0; k < 60 && s == TB_OK; ++k) s = tb_world_step(w);
      if (s != TB_OK && p == TB_PRESET_NEWTON_SEMI && strstr(tb_last_error(w), "penalty spring too soft")) {
        tb_world_destroy(w); /* its documented refusal: 100 kg at 1.7e6 m/s² needs ke >= 8.7e7 N/m */
        continue;
      }
      if (s != TB_OK) fprintf(stderr, "%s at the %s bound: %s\n", tb_enum_name(TB_ENUM_PRESET, p), which ? "damping" : "gravity", tb_last_error(w));
      CHECK(s == TB_OK);
      float st[13];
      CHECK(tb_body_get_state(w, b, st) == TB_OK);
      int finite = 1;
      for (int k = 0; k < 13; ++k) finite &= isfinite(st[k]) != 0;
      CHECK(finite);
      tb_world_destroy(w);
    }
  }
}

/* newton-semi and newton-xpbd (each substep hs) and Kamino (each step h) damp a body's velocity by
 * the factor 1 − c·h, as Newton's integrator does: a free body keeps v0·(1 − c·h)ⁿ after n of them,
 * which decays (alternating in sign) for c·h < 2 and grows beyond (docs/presets.md). 60 steps (XPBD:
 * 6, its 60 substeps; it zeroes speeds below 1e-4 m/s) from 1 m/s at c·h = 1.9 and 2.1, without
 * gravity. */
static void test_explicit_damping(void) {
  const tb_preset presets[3] = {TB_PRESET_NEWTON_SEMI, TB_PRESET_KAMINO, TB_PRESET_NEWTON_XPBD};
  for (int p = 0; p < 3; ++p)
    for (int grow = 0; grow < 2; ++grow) {
      tb_world_id w = new_world(presets[p]);
      tb_world_def def;
      CHECK(tb_world_get_def(w, &def) == TB_OK);
      const int n = presets[p] == TB_PRESET_NEWTON_SEMI ? def.solver.newton.substeps
                    : presets[p] == TB_PRESET_NEWTON_XPBD ? def.solver.newton.xpbd_substeps : 1; /* damped steps per step */
      const double hs = (double)def.timestep / n, ch = grow ? 2.1 : 1.9;
      CHECK(tb_world_set_gravity(w, ZERO) == TB_OK);
      const float sp[4] = {0.3f, 0, 0, 0}, at[3] = {0, 2, 0}, v0[3] = {1, 0, 0};
      tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, at, ID_Q);
      CHECK(tb_shape_create(w, b, TB_SHAPE_SPHERE, sp, ZERO, ID_Q, 0.5f, 0, 100) >= 0);
      CHECK(tb_body_set_velocity(w, b, v0, ZERO) == TB_OK);
      CHECK(tb_body_set_damping(w, b, (float)(ch / hs), 0) == TB_OK);
      const int steps = presets[p] == TB_PRESET_NEWTON_XPBD ? 6 : 60;
      for (int k = 0; k < steps; ++k) CHECK(tb_world_step(w) == TB_OK);
      float st[13];
      CHECK(tb_body_get_state(w, b, st) == TB_OK);
      double expect = pow(1.0 - ch, (double)steps * n); /* m/s */
      if (fabs(st[7] - expect) > 0.01 * fabs(expect)) fprintf(stderr, "%s c·h %.1f: v %g, expected %g\n", tb_enum_name(TB_ENUM_PRESET, presets[p]), ch, (double)st[7], expect);
      CHECK_NEAR(expect, st[7], 0.01 * fabs(expect));
      tb_world_destroy(w);
    }
}

/* ---- ids: a removed id never comes back; a rejected call consumes nothing ---- */

static void test_id_generations(void) {
  tb_world_id w = new_world(TB_PRESET_PHYSX_TGS);
  tb_body_id first = tb_body_create(w, TB_BODY_DYNAMIC, ZERO, ID_Q);
  tb_body_id id = first;
  CHECK(tb_body_destroy(w, id) == TB_OK);
  int reused = 0;
  /* 5000 add/remove cycles: the slot's 2048 generations are used up, then it is retired */
  for (int i = 0; i < 5000; ++i) {
    id = tb_body_create(w, TB_BODY_DYNAMIC, ZERO, ID_Q);
    reused += id == first;
    CHECK(tb_body_destroy(w, id) == TB_OK);
  }
  CHECK(reused == 0);
  CHECK(tb_body_destroy(w, first) == TB_ERR_NOT_FOUND);
  float st[13];
  CHECK(tb_body_get_state(w, first, st) == TB_ERR_NOT_FOUND);
  CHECK(tb_world_body_slot_count(w) == 3); /* 5001 ids: slots 0 and 1 retired after 2048 each */
  /* shapes retire the same way */
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, ZERO, ID_Q);
  float sp[4] = {0.5f, 0, 0, 0};
  tb_shape_id s0 = tb_shape_create(w, b, TB_SHAPE_SPHERE, sp, ZERO, ID_Q, 0.5f, 0, 1);
  tb_shape_destroy(w, s0);
  int shape_reused = 0;
  for (int i = 0; i < 3000; ++i) {
    tb_shape_id s = tb_shape_create(w, b, TB_SHAPE_SPHERE, sp, ZERO, ID_Q, 0.5f, 0, 1);
    shape_reused += s == s0;
    tb_shape_destroy(w, s);
  }
  CHECK(shape_reused == 0);
  CHECK(tb_shape_destroy(w, s0) == TB_ERR_NOT_FOUND);
  tb_world_destroy(w);
  /* worlds: a destroyed world id stays invalid over many create/destroy cycles */
  tb_world_def def = tb_default_world_def();
  def.contact_capacity = def.pair_capacity = 1;
  tb_world_id w0 = tb_world_create(&def);
  tb_world_destroy(w0);
  int world_reused = 0;
  for (int i = 0; i < 5000; ++i) {
    tb_world_id x = tb_world_create(&def);
    world_reused += x == w0;
    CHECK(x >= 0);
    tb_world_destroy(x);
  }
  CHECK(world_reused == 0);
}

/* An id relative to its world's first one: slot and generations since the world's salt (the
 * generation of every world's first id), so twin worlds' ids compare equal. */
static int32_t twin_id(int32_t id, int32_t first) {
  int32_t gen = ((id >> TB_ID_INDEX_BITS) - (first >> TB_ID_INDEX_BITS)) & TB_ID_GEN_MASK;
  return id < 0 ? id : (gen << TB_ID_INDEX_BITS) | (id & TB_ID_INDEX_MASK);
}

/* Two twin worlds: one sees rejected calls (bad arguments, a failed allocation, an addBody whose
 * shape was rejected and was discarded); both hand out the same ids afterwards (up to each world's
 * salt: twin_id). */
static void test_rejected_calls_consume_nothing(void) {
  tb_world_id a = new_world(TB_PRESET_PHYSX_TGS), b = new_world(TB_PRESET_PHYSX_TGS);
  float sp[4] = {0.5f, 0, 0, 0}, bad[4] = {-1, 0, 0, 0}, nanp[3] = {NAN, 0, 0};
  tb_body_id gone_a = tb_body_create(a, TB_BODY_DYNAMIC, ZERO, ID_Q), gone_b = tb_body_create(b, TB_BODY_DYNAMIC, ZERO, ID_Q);
  tb_body_destroy(a, gone_a);
  tb_body_destroy(b, gone_b); /* a slot on the free list in both */
  for (int i = 0; i < 4; ++i) tb_body_create(a, TB_BODY_DYNAMIC, ZERO, ID_Q), tb_body_create(b, TB_BODY_DYNAMIC, ZERO, ID_Q);
  /* rejected in a only */
  CHECK(tb_body_create(a, TB_BODY_DYNAMIC, nanp, ID_Q) == -TB_ERR_INVALID_ARGUMENT);
  CHECK(tb_body_create(a, (tb_body_type)7, ZERO, ID_Q) == -TB_ERR_INVALID_ARGUMENT);
  CHECK(tb_shape_create(a, 1, TB_SHAPE_SPHERE, bad, ZERO, ID_Q, 0.5f, 0, 1) < 0);
  s_fail_at = 1;
  s_allocs = 0;
  tb_set_allocator(failing_alloc, plain_free, NULL);
  CHECK(tb_body_create(a, TB_BODY_DYNAMIC, ZERO, ID_Q) == -TB_ERR_OUT_OF_MEMORY); /* the body store must grow */
  tb_set_allocator(NULL, NULL, NULL);
  s_fail_at = -1;
  /* a composite creation rolled back: body and two shapes, then a bad third shape */
  for (int round = 0; round < 3; ++round) {
    tb_body_id tmp = tb_body_create(a, TB_BODY_DYNAMIC, ZERO, ID_Q);
    CHECK(tb_shape_create(a, tmp, TB_SHAPE_SPHERE, sp, ZERO, ID_Q, 0.5f, 0, 1) >= 0);
    CHECK(tb_shape_create(a, tmp, TB_SHAPE_SPHERE, sp, ZERO, ID_Q, 0.5f, 0, 1) >= 0);
    CHECK(tb_shape_create(a, tmp, TB_SHAPE_SPHERE, bad, ZERO, ID_Q, 0.5f, 0, 1) < 0);
    CHECK(tb_body_discard(a, tmp) == TB_OK);
    CHECK(tb_body_destroy(a, tmp) == TB_ERR_NOT_FOUND);
  }
  /* discard is refused once something else happened since the creation */
  tb_body_id kept = tb_body_create(a, TB_BODY_DYNAMIC, ZERO, ID_Q), kept_b = tb_body_create(b, TB_BODY_DYNAMIC, ZERO, ID_Q);
  CHECK(kept != kept_b && twin_id(kept, gone_a) == twin_id(kept_b, gone_b));
  tb_body_id other = tb_body_create(a, TB_BODY_DYNAMIC, ZERO, ID_Q), other_b = tb_body_create(b, TB_BODY_DYNAMIC, ZERO, ID_Q);
  CHECK(twin_id(other, gone_a) == twin_id(other_b, gone_b));
  CHECK_ERROR(a, tb_body_discard(a, kept), TB_ERR_INVALID_STATE, "discardBody");
  CHECK(tb_world_body_slot_count(a) == tb_world_body_slot_count(b));
  int same = 1;
  for (int i = 0; i < 40; ++i) {
    tb_body_id x = tb_body_create(a, TB_BODY_DYNAMIC, ZERO, ID_Q), y = tb_body_create(b, TB_BODY_DYNAMIC, ZERO, ID_Q);
    tb_shape_id sx = tb_shape_create(a, x, TB_SHAPE_SPHERE, sp, ZERO, ID_Q, 0.5f, 0, 1);
    tb_shape_id sy = tb_shape_create(b, y, TB_SHAPE_SPHERE, sp, ZERO, ID_Q, 0.5f, 0, 1);
    same &= twin_id(x, gone_a) == twin_id(y, gone_b) && twin_id(sx, gone_a) == twin_id(sy, gone_b);
    if (i % 3 == 0) tb_body_destroy(a, x), tb_body_destroy(b, y);
  }
  CHECK(same);
  CHECK(world_hash(a) == world_hash(b));
  tb_world_destroy(a);
  tb_world_destroy(b);
}

int main(void) {
  test_null_arguments();
  test_capacity_bounds();
  test_allocation_failure();
  test_velocity_bound();
  test_gravity_damping_bound();
  test_explicit_damping();
  test_sweep_region_failure();
  test_snapshot_after_failed_step();
  test_guard_every_body_type();
  test_spin_overflow();
  test_mass_bounds();
  test_position_bound();
  test_id_generations();
  test_rejected_calls_consume_nothing();
  return tb_test_report("test_robust");
}
