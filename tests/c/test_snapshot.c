/* Snapshots: stepping after a restore is bitwise stepping without one, in every preset and
 * thread count, for a scene with every shape type (hull with a support field, mesh, heightfield),
 * removed bodies (free lists), exclusions, sensors and events; malformed or foreign bytes are
 * refused by name and leave the world as it was. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "include/tribo.h"
#include "test_util.h"

static const float ID_Q[4] = {0, 0, 0, 1};
static const float ZERO[3] = {0, 0, 0};

static uint32_t fnv(uint32_t h, const void* data, size_t n) {
  const unsigned char* b = (const unsigned char*)data;
  for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 16777619u;
  return h;
}

/* Ground plane, a sloped mesh, a heightfield, and 40 bodies of every dynamic shape type; two of
 * them removed again so both free lists are in use; a sensor, events and an exclusion. */
static tb_world_id build(tb_preset preset, int threads) {
  tb_world_def def = tb_default_world_def();
  CHECK(tb_preset_apply(preset, &def) == TB_OK);
  def.thread_count = threads;
  tb_world_id w = tb_world_create(&def);
  CHECK(w >= 0);
  float plane[4] = {0, 1, 0, 0};
  tb_body_id g = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  tb_shape_create(w, g, TB_SHAPE_PLANE, plane, ZERO, ID_Q, 0.6f, 0.0f, 1.0f);
  const float mv[] = {4, 0, -1, 7, 1, -1, 7, 1, 1, 4, 0, 1};
  const int32_t mi[] = {0, 2, 1, 0, 3, 2};
  const float mp[3] = {0, 0.01f, 0};
  CHECK(tb_shape_create_mesh(w, g, mv, 4, mi, 2, mp, ID_Q, 0.5f, 0.0f) >= 0);
  float heights[25];
  for (int i = 0; i < 25; ++i) heights[i] = 0.05f * (float)((i * 7) % 5);
  const float hp[3] = {-5, 0, 0};
  CHECK(tb_shape_create_heightfield(w, g, 5, 5, heights, 0.5f, 0.5f, hp, ID_Q, 0.5f, 0.0f) >= 0);
  float pts[3 * 80];
  for (int i = 0; i < 80; ++i) { /* 80 points on a sphere: >= 64 hull vertices, so a support field */
    float z = 1.0f - 2.0f * ((float)i + 0.5f) / 80.0f, r = sqrtf(1.0f - z * z), a = 2.39996323f * (float)i;
    pts[3 * i] = 0.25f * r * cosf(a); pts[3 * i + 1] = 0.25f * z; pts[3 * i + 2] = 0.25f * r * sinf(a);
  }
  tb_body_id first = -1, removed[2];
  for (int i = 0; i < 40; ++i) {
    float p[3] = {-4.0f + (float)(i % 10) * 0.9f + (i / 10 == 1 ? 5.5f : 0.0f), 0.5f + (float)(i / 10) * 0.7f,
                  (float)(i % 3) * 0.3f};
    float q[4] = {0.1f * (float)(i % 4), 0.05f, 0.0f, 1.0f};
    float l = sqrtf(q[0] * q[0] + q[1] * q[1] + 1.0f);
    for (int k = 0; k < 4; ++k) q[k] /= l;
    tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, p, q);
    float prm[4] = {0.2f, 0.15f, 0.1f, 0};
    int kind = i % 6;
    if (kind == 5) CHECK(tb_shape_create_hull(w, b, pts, 80, ZERO, ID_Q, 0.6f, 0.1f, 500.0f) >= 0);
    else {
      const tb_shape_type types[5] = {TB_SHAPE_BOX, TB_SHAPE_SPHERE, TB_SHAPE_CAPSULE, TB_SHAPE_CYLINDER, TB_SHAPE_ELLIPSOID};
      CHECK(tb_shape_create(w, b, types[kind], prm, ZERO, ID_Q, 0.6f, 0.1f, 500.0f) >= 0);
    }
    if (i == 0) first = b;
    if (i == 7 || i == 13) removed[i == 13] = b;
  }
  CHECK(tb_body_destroy(w, removed[0]) == TB_OK && tb_body_destroy(w, removed[1]) == TB_OK);
  CHECK(tb_sensor_create(w, first, TB_ANY_BODY, 16) >= 0);
  CHECK(tb_world_set_event_capacity(w, 64) == TB_OK);
  CHECK(tb_world_set_body_pair_excluded(w, first, first + 1, 1) == TB_OK);
  return w;
}

/* Hash of n steps: step status, every body field and every contact field after each step. */
static uint32_t run(tb_world_id w, int n) {
  uint32_t h = 2166136261u;
  for (int s = 0; s < n; ++s) {
    tb_status st = tb_world_step(w);
    h = fnv(h, &st, sizeof st);
    int32_t slots = tb_world_body_slot_count(w);
    for (int f = 0; f < tb_field_count(TB_FIELDS_BODY); ++f) {
      const tb_field_info* fi = tb_field_get(TB_FIELDS_BODY, f);
      h = fnv(h, tb_world_field(w, TB_FIELDS_BODY, f), 4 * (size_t)fi->components * (size_t)slots);
    }
    tb_contact_status cs;
    tb_world_contact_status(w, &cs);
    h = fnv(h, &cs, sizeof cs);
    for (int f = 0; f < tb_field_count(TB_FIELDS_CONTACT); ++f) {
      const tb_field_info* fi = tb_field_get(TB_FIELDS_CONTACT, f);
      const int32_t* v = (const int32_t*)tb_world_field(w, TB_FIELDS_CONTACT, f);
      if (strncmp(fi->name, "shape", 5) == 0 || strncmp(fi->name, "body", 4) == 0) {
        /* shape and body ids by slot: the generations carry each world's own salt */
        for (int32_t k = 0; k < cs.count; ++k) {
          int32_t slot = v[k] < 0 ? v[k] : v[k] & TB_ID_INDEX_MASK;
          h = fnv(h, &slot, sizeof slot);
        }
      } else {
        h = fnv(h, v, 4 * (size_t)fi->components * (size_t)cs.count);
      }
    }
  }
  return h;
}

static uint8_t* save(tb_world_id w, int32_t* size) {
  *size = tb_world_snapshot(w, NULL, 0);
  CHECK(*size > TB_SNAPSHOT_HEADER_SIZE);
  uint8_t* b = (uint8_t*)malloc((size_t)*size);
  CHECK(tb_world_snapshot(w, b, *size) == *size);
  return b;
}

static int same_snapshot(tb_world_id w, const uint8_t* bytes, int32_t size) {
  int32_t n;
  uint8_t* now = save(w, &n);
  int same = n == size && memcmp(now, bytes, (size_t)n) == 0;
  free(now);
  return same;
}

/* A world crafted snapshots are offered to, with its bytes before: a refusal leaves them unchanged. */
typedef struct {
  tb_world_id w;
  uint8_t* before;
  int32_t size;
} target_world;

static target_world make_target(tb_preset preset, int steps) {
  target_world t;
  t.w = build(preset, 1);
  run(t.w, steps);
  t.before = save(t.w, &t.size);
  return t;
}

static void free_target(target_world* t) {
  free(t->before);
  tb_world_destroy(t->w);
}

/* restore and fromSnapshot refuse the bytes with `reason`, the message naming `named`; the target
 * is unchanged */
static void expect_refused(const target_world* t, const uint8_t* bytes, int32_t size, int32_t reason, const char* named) {
  CHECK(tb_world_restore(t->w, bytes, size) == TB_ERR_INVALID_ARGUMENT);
  CHECK(tb_snapshot_last_error() == reason);
  const char* msg = tb_last_error(t->w);
  if (!strstr(msg, named)) fprintf(stderr, "the message does not name %s: %s\n", named, msg);
  CHECK(strstr(msg, named) != NULL);
  CHECK(tb_world_create_from_snapshot(bytes, size, 1) == -TB_ERR_INVALID_ARGUMENT);
  CHECK(same_snapshot(t->w, t->before, t->size));
}

static void round_trip(tb_preset preset, int threads) {
  tb_world_id a = build(preset, threads);
  run(a, 40);
  int32_t size;
  uint8_t* snap = save(a, &size);
  uint32_t expected = run(a, 60);
  /* a twin world built the same way, restored */
  tb_world_id b = build(preset, threads == 1 ? 3 : 1);
  CHECK(tb_world_restore(b, snap, size) == TB_OK);
  uint32_t got = run(b, 60);
  if (got != expected) fprintf(stderr, "preset %d threads %d: restored twin %08x, expected %08x\n", preset, threads, got, expected);
  CHECK(got == expected);
  /* the same world rewound */
  CHECK(tb_world_restore(a, snap, size) == TB_OK);
  CHECK(same_snapshot(a, snap, size)); /* nothing lost or added: the same bytes again */
  CHECK(run(a, 60) == expected);
  /* a whole world from the bytes */
  tb_world_id c = tb_world_create_from_snapshot(snap, size, 0);
  CHECK(c >= 0);
  CHECK(run(c, 60) == expected);
  tb_world_destroy(a);
  tb_world_destroy(b);
  tb_world_destroy(c);
  free(snap);
}

/* Each malformed variant is refused with its reason and the world is unchanged. */
static void refusals(void) {
  tb_world_id w = build(TB_PRESET_PHYSX_TGS, 1);
  run(w, 10);
  int32_t size;
  uint8_t* snap = save(w, &size);
  target_world target = make_target(TB_PRESET_NEWTON_XPBD, 5);
  uint8_t* bad = (uint8_t*)malloc((size_t)size + 1);
  struct { const char* what; int32_t size; int offset; uint8_t xor_; int32_t reason; } cases[] = {
      {"truncated", size - 1, -1, 0, TB_SNAPSHOT_TRUNCATED},
      {"header only", TB_SNAPSHOT_HEADER_SIZE - 1, -1, 0, TB_SNAPSHOT_TRUNCATED},
      {"trailing byte", size + 1, -1, 0, TB_SNAPSHOT_TRAILING},
      {"magic", size, 0, 0x20, TB_SNAPSHOT_BAD_MAGIC},
      {"version", size, 8, 0x02, TB_SNAPSHOT_BAD_VERSION},
      {"layout", size, 20, 0x01, TB_SNAPSHOT_FOREIGN},
      {"payload byte", size, size / 2, 0x10, TB_SNAPSHOT_BAD_CHECKSUM},
      {"last byte", size, size - 1, 0x80, TB_SNAPSHOT_BAD_CHECKSUM},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    memcpy(bad, snap, (size_t)size);
    bad[size] = 0;
    if (cases[i].offset >= 0) bad[cases[i].offset] ^= cases[i].xor_;
    CHECK(tb_snapshot_check(bad, cases[i].size) == cases[i].reason);
    expect_refused(&target, bad, cases[i].size, cases[i].reason, tb_enum_name(TB_ENUM_SNAPSHOT_ERROR, cases[i].reason));
  }
  /* a checksum-valid payload whose content is inconsistent: body count over its capacity */
  memcpy(bad, snap, (size_t)size);
  int32_t def_size = tb_world_def_size();
  /* find the body header (count, capacity, free_head) by its values: the free list starts at the
   * slot removed last (body 13 of build(), slot 14) */
  int32_t count = tb_world_body_slot_count(w), found = -1;
  for (int32_t k = TB_SNAPSHOT_HEADER_SIZE + def_size; k + 12 <= size && found < 0; k += 4) {
    int32_t v[3];
    memcpy(v, snap + k, 12);
    if (v[0] == count && v[1] >= count && v[2] == 14) found = k;
  }
  CHECK(found > 0);
  if (found > 0) {
    int32_t huge = 1 << 20;
    memcpy(bad + found, &huge, 4); /* count 2^20 > capacity */
    tb_test_resign(bad, size);
    CHECK(tb_snapshot_check(bad, size) == TB_SNAPSHOT_OK);
    expect_refused(&target, bad, size, TB_SNAPSHOT_CORRUPT, "corrupt");
  }
  /* a world that refused every snapshot still steps like its twin */
  tb_world_id twin = build(TB_PRESET_NEWTON_XPBD, 1);
  run(twin, 5);
  CHECK(run(target.w, 20) == run(twin, 20));
  /* too small a buffer: nothing written */
  memset(bad, 0xAB, (size_t)size);
  CHECK(tb_world_snapshot(w, bad, size - 1) == -TB_ERR_CAPACITY);
  CHECK(bad[0] == 0xAB);
  free(bad);
  free(snap);
  tb_world_destroy(w);
  free_target(&target);
  tb_world_destroy(twin);
}

/* Body poses (7 floats per slot) after n steps, into out. */
static void poses_after(tb_world_id w, int n, float* out, int32_t slots) {
  for (int s = 0; s < n; ++s) CHECK(tb_world_step(w) == TB_OK);
  memcpy(out, tb_world_field(w, TB_FIELDS_BODY, 0), 7 * (size_t)slots * sizeof(float));
}

/* The MuJoCo and Kamino warm starts are in the snapshot: a restored twin continues bitwise, and the
 * same twin without its warm start for one step (MuJoCo: warm start off; Kamino: the cache reset)
 * does not, so the round trip above would fail if the payload left them out. */
static void warm_start_carried(void) {
  for (int p = TB_PRESET_MUJOCO; p <= TB_PRESET_KAMINO; ++p) {
    tb_world_id a = build((tb_preset)p, 1);
    run(a, 40);
    int32_t size, slots = tb_world_body_slot_count(a);
    uint8_t* snap = save(a, &size);
    float* expected = (float*)malloc(7 * (size_t)slots * sizeof(float));
    float* got = (float*)malloc(7 * (size_t)slots * sizeof(float));
    poses_after(a, 5, expected, slots);
    tb_world_id b = build((tb_preset)p, 1);
    CHECK(tb_world_restore(b, snap, size) == TB_OK);
    poses_after(b, 5, got, slots);
    CHECK(memcmp(got, expected, 7 * (size_t)slots * sizeof(float)) == 0);
    CHECK(tb_world_restore(b, snap, size) == TB_OK);
    tb_world_def def;
    CHECK(tb_world_get_def(b, &def) == TB_OK);
    if (p == TB_PRESET_KAMINO) {
      CHECK(tb_world_solver_reset(b) == TB_OK);
      poses_after(b, 1, got, slots);
    } else {
      def.solver.mujoco.warmstart = 0;
      CHECK(tb_world_set_solver(b, &def.solver) == TB_OK);
      poses_after(b, 1, got, slots);
      def.solver.mujoco.warmstart = 1;
      CHECK(tb_world_set_solver(b, &def.solver) == TB_OK);
    }
    poses_after(b, 4, got, slots);
    CHECK(memcmp(got, expected, 7 * (size_t)slots * sizeof(float)) != 0);
    free(expected);
    free(got);
    free(snap);
    tb_world_destroy(a);
    tb_world_destroy(b);
  }
}

/* MuJoCo's warm start: resetSolver forgets it (the next step is the step with the warm start
 * off, bit for bit), and restore refuses a kept one that is not finite (the next solve would start
 * from it). The warm accelerations are found from the reset: the generations that turn to -1 are
 * the section's generation array (one int32 per body slot), which follows 6 doubles per slot. */
static void mujoco_warm_start_checked(void) {
  tb_world_def def = tb_default_world_def();
  CHECK(tb_preset_apply(TB_PRESET_MUJOCO, &def) == TB_OK);
  tb_world_id w = tb_world_create(&def);
  const float plane[4] = {0, 1, 0, 0}, hb[4] = {0.2f, 0.25f, 0.3f, 0};
  tb_body_id g = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  CHECK(tb_shape_create(w, g, TB_SHAPE_PLANE, plane, ZERO, ID_Q, 0.5f, 0.0f, 1.0f) >= 0);
  tb_body_id first = -1;
  for (int i = 0; i < 2; ++i) {
    const float p[3] = {(float)i * 0.7f, 0.3f, 0};
    tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, p, ID_Q);
    if (i == 0) first = b;
    CHECK(tb_shape_create(w, b, TB_SHAPE_BOX, hb, ZERO, ID_Q, 0.5f, 0.0f, 1000.0f) >= 0);
  }
  run(w, 20);
  int32_t size, size_reset, slots = tb_world_body_slot_count(w);
  uint8_t* snap = save(w, &size);
  float cold[7 * 3], reset[7 * 3];
  CHECK(tb_world_solver_reset(w) == TB_OK);
  uint8_t* forgot = save(w, &size_reset);
  CHECK(size_reset == size);
  poses_after(w, 1, reset, slots);
  CHECK(tb_world_restore(w, snap, size) == TB_OK);
  def.solver.mujoco.warmstart = 0;
  CHECK(tb_world_set_solver(w, &def.solver) == TB_OK);
  poses_after(w, 1, cold, slots);
  CHECK(memcmp(reset, cold, sizeof cold) == 0);
  /* the first byte the reset changed: slot 1's generation (slot 0, the ground, has none; a fresh
   * world's generations are multiples of 32 below 2048, so no byte of them is -1's 0xff) */
  int32_t gen_slot1 = -1;
  for (int32_t k = TB_SNAPSHOT_HEADER_SIZE; k < size && gen_slot1 < 0; ++k)
    if (snap[k] != forgot[k]) gen_slot1 = k;
  CHECK(gen_slot1 > 0 && gen_slot1 + 8 <= size);
  int32_t gens[2] = {-2, -2};
  if (gen_slot1 > 0) memcpy(gens, forgot + gen_slot1, 8);
  CHECK(gens[0] == -1 && gens[1] == -1);
  if (gen_slot1 > 0) {
    const int32_t warm_slot1 = gen_slot1 - 4 - 6 * 8 * slots + 6 * 8;
    target_world target = make_target(TB_PRESET_MUJOCO, 0);
    uint8_t* bad = (uint8_t*)malloc((size_t)size);
    memcpy(bad, snap, (size_t)size);
    double acc;
    memcpy(&acc, bad + warm_slot1 + 8, 8); /* slot 1's vertical acceleration: near 0 at rest */
    CHECK(fabs(acc) < 1.0);
    acc = NAN;
    memcpy(bad + warm_slot1 + 8, &acc, 8);
    tb_test_resign(bad, size);
    expect_refused(&target, bad, size, TB_SNAPSHOT_CORRUPT, "corrupt");
    free(bad);
    free_target(&target);
  }
  /* a step that fails forgets the warm start (its accelerations may be the non-finite ones): the
   * generations are -1 (the sections after MuJoCo's have the same size), the world's own snapshot
   * restores */
  CHECK(tb_world_restore(w, snap, size) == TB_OK);
  const float huge[3] = {3e38f, -3e38f, 3e38f}; /* its rotation's norm overflows */
  tb_test_set_velocity_unchecked(w, first, huge, huge);
  CHECK(tb_world_step(w) == TB_ERR_INVALID_STATE);
  free(forgot);
  forgot = save(w, &size_reset);
  const int32_t gen_after = gen_slot1 - size + size_reset;
  gens[0] = gens[1] = -2;
  if (gen_slot1 > 0) memcpy(gens, forgot + gen_after, 8);
  CHECK(gens[0] == -1 && gens[1] == -1);
  CHECK(tb_world_restore(w, forgot, size_reset) == TB_OK);
  free(snap);
  free(forgot);
  tb_world_destroy(w);
}

/* The adaptive-threads setting is the world's, like its thread count: restore keeps it (the
 * snapshot does not carry it, and the restored state replaced the whole world struct). */
static void adaptive_threads_kept(void) {
  tb_world_def def = tb_default_world_def();
  def.thread_count = tb_max_threads() >= 2 ? 2 : 1;
  tb_world_id w = tb_world_create(&def);
  CHECK(tb_world_set_adaptive_threads(w, 0) == TB_OK);
  int32_t n = tb_world_snapshot(w, NULL, 0);
  CHECK(n > 0);
  void* bytes = malloc((size_t)n);
  CHECK(tb_world_snapshot(w, bytes, n) == n);
  CHECK(tb_world_restore(w, bytes, n) == TB_OK);
  int32_t adaptive = -1, serial = -1;
  double switches = -1;
  CHECK(tb_world_thread_mode(w, &adaptive, &serial, &switches) == TB_OK);
  CHECK(adaptive == 0 && serial == 0 && switches == 0);
  CHECK(tb_world_set_adaptive_threads(w, 2) == TB_ERR_INVALID_ARGUMENT); /* 0 or 1 only */
  free(bytes);
  tb_world_destroy(w);
}

/* A capacity reserved between steps changes nothing but the room (fuzzer input
 * tests/fuzz/corpus/b51e04ec...). Growing the contact store emptied it and left the world naming
 * records of the store it had before (the count of the last collide's records, each pair's first
 * record): its own snapshot then carried them and every load refused it as corrupt; and the
 * contacts of the last step were gone. Now, after collide() or after a whole step, a world that
 * reserved a larger contact or pair capacity keeps its contacts bit for bit, its snapshot loads, and
 * it steps like a twin that never asked. */
static uint32_t contact_hash(tb_world_id w) {
  tb_contact_status cs;
  CHECK(tb_world_contact_status(w, &cs) == TB_OK);
  uint32_t h = fnv(2166136261u, &cs.count, sizeof cs.count);
  for (int f = 0; f < tb_field_count(TB_FIELDS_CONTACT); ++f) {
    const tb_field_info* fi = tb_field_get(TB_FIELDS_CONTACT, f);
    const int32_t* v = (const int32_t*)tb_world_field(w, TB_FIELDS_CONTACT, f);
    if (strncmp(fi->name, "shape", 5) == 0 || strncmp(fi->name, "body", 4) == 0) {
      for (int32_t k = 0; k < cs.count; ++k) { /* ids by slot: each world has its own salt */
        int32_t slot = v[k] < 0 ? v[k] : v[k] & TB_ID_INDEX_MASK;
        h = fnv(h, &slot, sizeof slot);
      }
    } else {
      h = fnv(h, v, 4 * (size_t)fi->components * (size_t)cs.count);
    }
  }
  return h;
}

static void capacity_changes_nothing(void) {
  for (int which = 0; which < 4; ++which) {
    int grow_contacts = which % 2 == 0, after_collide = which >= 2;
    tb_world_id a = build(TB_PRESET_PHYSX_TGS, 1), twin = build(TB_PRESET_PHYSX_TGS, 1);
    run(a, 30);
    if (after_collide) CHECK(tb_world_collide(a) == TB_OK);
    tb_contact_status cs;
    CHECK(tb_world_contact_status(a, &cs) == TB_OK && cs.count > 0);
    /* the twin reserves the same room before its first step (the status reports the capacities) */
    int32_t room = grow_contacts ? 8 * cs.capacity : 8 * cs.pair_capacity;
    CHECK((grow_contacts ? tb_world_set_contact_capacity(twin, room) : tb_world_set_pair_capacity(twin, room)) == TB_OK);
    run(twin, 30);
    if (after_collide) CHECK(tb_world_collide(twin) == TB_OK);
    uint32_t before = contact_hash(twin);
    CHECK(contact_hash(a) == before);
    if (grow_contacts) CHECK(tb_world_set_contact_capacity(a, room) == TB_OK);
    else CHECK(tb_world_set_pair_capacity(a, room) == TB_OK);
    CHECK(contact_hash(a) == before); /* the same records, readable as before */
    int32_t size;
    uint8_t* snap = save(a, &size);
    tb_world_id c = tb_world_create_from_snapshot(snap, size, 0);
    if (c < 0) fprintf(stderr, "%s grown: %s\n", grow_contacts ? "contact capacity" : "pair capacity", tb_last_error(-1));
    CHECK(c >= 0);
    if (after_collide) { /* solve() on the collide() before the reservation */
      CHECK(tb_world_solve(a) == TB_OK && tb_world_solve(twin) == TB_OK);
      CHECK(contact_hash(a) == contact_hash(twin));
      if (c >= 0) CHECK(tb_world_solve(c) == TB_OK && contact_hash(c) == contact_hash(twin));
    }
    uint32_t expected = run(twin, 30);
    CHECK(run(a, 30) == expected);
    if (c >= 0) {
      CHECK(run(c, 30) == expected);
      tb_world_destroy(c);
    }
    tb_world_destroy(a);
    tb_world_destroy(twin);
    free(snap);
  }
}

/* Offsets of every occurrence of the n bytes at v in the payload (after the header): the first
 * max into at; returns the count. */
static int find_bytes(const uint8_t* snap, int32_t size, const void* v, int n, int* at, int max) {
  int found = 0;
  for (int k = TB_SNAPSHOT_HEADER_SIZE; k + n <= size; ++k)
    if (memcmp(snap + k, v, (size_t)n) == 0) {
      if (found < max) at[found] = k;
      ++found;
    }
  return found;
}

static int find_float(const uint8_t* snap, int32_t size, float v, int* at, int max) { return find_bytes(snap, size, &v, 4, at, max); }

/* A checksum-valid snapshot whose stored values break a creation check (a sphere of radius -1 or
 * NaN, a negative friction, a NaN body position, a NaN joint limit) is refused as corrupt with a
 * message that names the value, as creating the same shape, body or joint would be; the target
 * world is unchanged. Each marker value below occurs where creation put it. */
static void stored_values_checked(void) {
  tb_world_def def = tb_default_world_def();
  tb_world_id w = tb_world_create(&def);
  const float p0[3] = {1.2345f, 0.5f, 0}, p1[3] = {-1, 0.5f, 0};
  tb_body_id a = tb_body_create(w, TB_BODY_DYNAMIC, p0, ID_Q), b = tb_body_create(w, TB_BODY_DYNAMIC, p1, ID_Q);
  const float radius[4] = {0.3141f, 0, 0, 0}, half[4] = {0.2f, 0.2f, 0.2f, 0};
  CHECK(tb_shape_create(w, a, TB_SHAPE_SPHERE, radius, ZERO, ID_Q, 0.4142f, 0.0f, 1000.0f) >= 0);
  CHECK(tb_shape_create(w, b, TB_SHAPE_BOX, half, ZERO, ID_Q, 0.5f, 0.0f, 1000.0f) >= 0);
  tb_joint_def jd;
  tb_joint_default_def_into(&jd);
  jd.body0 = a;
  jd.body1 = b;
  jd.enable_limit = 1;
  jd.lower = -0.6789f;
  CHECK(tb_joint_create(w, &jd) >= 0);
  /* what setMass accepts restores (a mass of 1e30 kg with an inertia of 2e-24 kg·m², whose full
   * inverse overflows: the fuzz harness's case) */
  const float p2[3] = {3, 0.5f, 0}, center[3] = {0, 0, 0}, inertia[3] = {2.14465e-24f, 1e30f, 1e30f};
  tb_body_id heavy = tb_body_create(w, TB_BODY_DYNAMIC, p2, ID_Q);
  CHECK(tb_shape_create(w, heavy, TB_SHAPE_BOX, half, ZERO, ID_Q, 0.5f, 0.0f, 1000.0f) >= 0);
  CHECK(tb_body_set_mass(w, heavy, 1e30f, center, inertia) == TB_OK);
  int32_t size;
  uint8_t* snap = save(w, &size);
  target_world target = make_target(TB_PRESET_PHYSX_TGS, 3);
  uint8_t* bad = (uint8_t*)malloc((size_t)size);
  const float nan = NAN;
  struct { float marker, value; const char* named; int occurrences; } cases[] = {
      {0.3141f, -1.0f, "radius", 1}, {0.3141f, nan, "params[0]", 1}, {0.4142f, -0.5f, "friction", 3},
      {1.2345f, nan, "position", 1}, {-0.6789f, nan, "lower", 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    int at[4];
    int n = find_float(snap, size, cases[i].marker, at, 4);
    if (n != cases[i].occurrences) fprintf(stderr, "marker %g: %d occurrences, expected %d\n", (double)cases[i].marker, n, cases[i].occurrences);
    CHECK(n == cases[i].occurrences);
    for (int k = 0; k < n && k < 4; ++k) {
      memcpy(bad, snap, (size_t)size);
      memcpy(bad + at[k], &cases[i].value, 4);
      tb_test_resign(bad, size);
      CHECK(tb_snapshot_check(bad, size) == TB_SNAPSHOT_OK);
      expect_refused(&target, bad, size, TB_SNAPSHOT_CORRUPT, cases[i].named);
    }
  }
  /* the unchanged bytes restore */
  CHECK(tb_world_restore(target.w, snap, size) == TB_OK);
  free(bad);
  free(snap);
  tb_world_destroy(w);
  free_target(&target);
}

/* The stored pair lists and the matching frames, checked as setting them checks them: an
 * explicit pair naming a shape slot out of range, a freed slot or one shape twice, a MuJoCo pair
 * override with a NaN margin or a negative friction, a NaN body-local point of the matching
 * (which a sticky preset replays) are refused as corrupt; the target world is unchanged. */
static void stored_lists_checked(void) {
  tb_world_def def = tb_default_world_def();
  def.collision.broad_phase = TB_BROAD_PHASE_EXPLICIT;
  tb_world_id w = tb_world_create(&def);
  const float plane[4] = {0, 1, 0, 0}, radius[4] = {0.3141f, 0, 0, 0}, p0[3] = {0, 0.3141f, 0}, p1[3] = {2, 0.3141f, 0};
  tb_body_id g = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  const float far[3] = {0, -50, 0};
  for (int i = 0; i < 37; ++i) /* slots 0..36 taken: the pair's key below is a distinct number */
    CHECK(tb_shape_create(w, g, TB_SHAPE_SPHERE, radius, far, ID_Q, 0.5f, 0.0f, 1.0f) >= 0);
  tb_shape_id ground = tb_shape_create(w, g, TB_SHAPE_PLANE, plane, ZERO, ID_Q, 0.5f, 0.0f, 1.0f);
  tb_body_id a = tb_body_create(w, TB_BODY_DYNAMIC, p0, ID_Q), b = tb_body_create(w, TB_BODY_DYNAMIC, p1, ID_Q);
  tb_shape_id sa = tb_shape_create(w, a, TB_SHAPE_SPHERE, radius, ZERO, ID_Q, 0.5f, 0.0f, 1000.0f);
  tb_shape_id sb = tb_shape_create(w, b, TB_SHAPE_SPHERE, radius, ZERO, ID_Q, 0.5f, 0.0f, 1000.0f);
  tb_body_id gone = tb_body_create(w, TB_BODY_DYNAMIC, p1, ID_Q);
  CHECK(tb_shape_create(w, gone, TB_SHAPE_SPHERE, radius, ZERO, ID_Q, 0.5f, 0.0f, 1000.0f) >= 0);
  CHECK(tb_body_destroy(w, gone) == TB_OK); /* shape slot 40 free */
  const int32_t explicit_ids[2] = {ground, sa};
  CHECK(tb_world_set_explicit_pairs(w, explicit_ids, 1) == TB_OK);
  tb_contact_pair_params cp;
  tb_contact_pair_default_into(&cp);
  cp.margin = 0.0271f;
  cp.friction[0] = 0.8183f;
  CHECK(tb_world_set_contact_pair(w, ground, sb, &cp) == TB_OK);
  for (int i = 0; i < 3; ++i) CHECK(tb_world_step(w) == TB_OK);
  int32_t size;
  uint8_t* snap = save(w, &size);
  target_world target = make_target(TB_PRESET_PHYSX_TGS, 3);
  uint8_t* bad = (uint8_t*)malloc((size_t)size);
  /* the explicit pair's key: (lower slot << 32) | higher slot */
  int32_t lo = (ground & TB_ID_INDEX_MASK) < (sa & TB_ID_INDEX_MASK) ? (ground & TB_ID_INDEX_MASK) : (sa & TB_ID_INDEX_MASK);
  int32_t hi = (ground & TB_ID_INDEX_MASK) + (sa & TB_ID_INDEX_MASK) - lo;
  uint64_t key = ((uint64_t)(uint32_t)lo << 32) | (uint32_t)hi;
  int at[4];
  int nkey = find_bytes(snap, size, &key, 8, at, 4);
  if (nkey != 1) fprintf(stderr, "explicit pair key: %d occurrences, expected 1\n", nkey);
  CHECK(nkey == 1);
  const uint64_t bad_keys[] = {((uint64_t)0x40000000u << 32) | (uint32_t)hi, /* a slot out of range, above the other */
                               ((uint64_t)(uint32_t)hi << 32) | (uint32_t)hi, /* one shape twice */
                               ((uint64_t)(uint32_t)lo << 32) | 40u};         /* a freed slot */
  for (size_t i = 0; i < sizeof bad_keys / sizeof bad_keys[0]; ++i) {
    memcpy(bad, snap, (size_t)size);
    memcpy(bad + at[0], &bad_keys[i], 8);
    tb_test_resign(bad, size);
    expect_refused(&target, bad, size, TB_SNAPSHOT_CORRUPT, "corrupt");
  }
  /* the pair override's values, named as setContactPair names them; the matching's local points */
  const float nan = NAN;
  struct { float marker, value; const char* named; int occurrences; } cases[] = {
      {0.0271f, nan, "margin", 1}, {0.8183f, -1.0f, "friction[0]", 1}, {-0.3141f, nan, "corrupt", -1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    int where[16];
    int n = find_float(snap, size, cases[i].marker, where, 16);
    if (cases[i].occurrences >= 0) CHECK(n == cases[i].occurrences);
    else CHECK(n >= 1 && n <= 16);
    memcpy(bad, snap, (size_t)size);
    for (int k = 0; k < n && k < 16; ++k) memcpy(bad + where[k], &cases[i].value, 4); /* every occurrence */
    tb_test_resign(bad, size);
    expect_refused(&target, bad, size, TB_SNAPSHOT_CORRUPT, cases[i].named);
  }
  /* each stored copy of the resting spheres' body-local contact point (0, -r, 0) alone: refused,
   * or (a reported value: the contact store may hold NaN for "not available") the world restores
   * and steps, its state finite; the solver's anchor cache is one of the copies */
  int where[16];
  int n = find_float(snap, size, -0.3141f, where, 16);
  CHECK(n >= 3 && n <= 16);
  int refused = 0;
  for (int k = 0; k < n && k < 16; ++k) {
    memcpy(bad, snap, (size_t)size);
    memcpy(bad + where[k], &nan, 4);
    tb_test_resign(bad, size);
    if (tb_world_restore(target.w, bad, size) != TB_OK) {
      CHECK(tb_snapshot_last_error() == TB_SNAPSHOT_CORRUPT);
      CHECK(same_snapshot(target.w, target.before, target.size));
      ++refused;
      continue;
    }
    tb_status st = tb_world_step(target.w);
    if (st != TB_OK) fprintf(stderr, "copy %d of the local point (byte %d) set to NaN: restored, then the step failed: %s\n", k,
                             where[k], tb_last_error(target.w));
    CHECK(st == TB_OK);
    CHECK(tb_world_restore(target.w, target.before, target.size) == TB_OK);
  }
  CHECK(refused >= 2); /* the matching's points of both spheres at least */
  CHECK(tb_world_restore(target.w, snap, size) == TB_OK);
  free(bad);
  free(snap);
  tb_world_destroy(w);
  free_target(&target);
}

/* Every stored value refused or harmless: for each byte offset k (every seventh: every alignment)
 * of a small scene's snapshot (three bodies, two of them joined), the four bytes from k set to
 * those of `value`, the checksum made right; the world then refuses the snapshot (corrupt,
 * unchanged), or restores it and its next step succeeds. A value that a step divides by or replays
 * (a denormal timestep or Kamino rho, an inverse inertia that is not the inertia's inverse, a NaN
 * anchor or warm start) used to restore and make the step non-finite (island_lists_checked: a
 * circle in an island's list, which the same sweep over a jointed scene met as a hang). */
static void every_value_refused_or_steps(tb_preset preset, float value) {
  tb_world_def def = tb_default_world_def();
  CHECK(tb_preset_apply(preset, &def) == TB_OK);
  tb_world_id w = tb_world_create(&def);
  const float plane[4] = {0, 1, 0, 0}, r[4] = {0.3f, 0, 0, 0}, hb[4] = {0.2f, 0.25f, 0.3f, 0};
  tb_body_id g = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  CHECK(tb_shape_create(w, g, TB_SHAPE_PLANE, plane, ZERO, ID_Q, 0.5f, 0.0f, 1.0f) >= 0);
  tb_body_id bodies[3];
  for (int i = 0; i < 3; ++i) {
    const float p[3] = {(float)i * 0.7f, i & 1 ? 0.25f : 0.3f, 0};
    tb_body_id b = bodies[i] = tb_body_create(w, TB_BODY_DYNAMIC, p, ID_Q);
    CHECK(tb_shape_create(w, b, i & 1 ? TB_SHAPE_BOX : TB_SHAPE_SPHERE, i & 1 ? hb : r, ZERO, ID_Q, 0.5f, 0.0f, 1000.0f) >= 0);
  }
  tb_joint_def jd;
  tb_joint_default_def_into(&jd);
  jd.body0 = bodies[1];
  jd.body1 = bodies[2];
  jd.position0[0] = 0.35f;
  jd.position1[0] = -0.35f;
  CHECK(tb_joint_create(w, &jd) >= 0);
  for (int i = 0; i < 20; ++i) CHECK(tb_world_step(w) == TB_OK);
  int32_t size;
  uint8_t* snap = save(w, &size);
  uint8_t* bad = (uint8_t*)malloc((size_t)size);
  target_world target = make_target(preset, 0);
  int refused = 0, stepped = 0;
  for (int32_t k = TB_SNAPSHOT_HEADER_SIZE; k + 4 <= size; k += 7) {
    memcpy(bad, snap, (size_t)size);
    memcpy(bad + k, &value, 4);
    tb_test_resign(bad, size);
    if (tb_world_restore(target.w, bad, size) != TB_OK) {
      CHECK(tb_snapshot_last_error() == TB_SNAPSHOT_CORRUPT);
      ++refused;
      continue;
    }
    tb_status st = tb_world_step(target.w);
    if (st != TB_OK) fprintf(stderr, "%s: bytes %d..%d set to %g's: restored, then the step failed: %s\n",
                             tb_enum_name(TB_ENUM_PRESET, preset), k, k + 3, (double)value, tb_last_error(target.w));
    CHECK(st == TB_OK);
    ++stepped;
  }
  CHECK(refused > 0 && stepped > 0); /* both outcomes occur: the loop reached the checks and the values */
  CHECK(tb_world_restore(target.w, target.before, target.size) == TB_OK);
  CHECK(same_snapshot(target.w, target.before, target.size));
  free(bad);
  free(snap);
  tb_world_destroy(w);
  free_target(&target);
}

/* An island whose list runs in a circle (a crafted snapshot: the tail's next set to the island's
 * id) is refused as corrupt; it used to restore, and the next step's merge or detach walked the
 * circle for ever. Also a member on no list, and a list longer than its size. */
static void island_lists_checked(void) {
  tb_world_def def = tb_default_world_def();
  tb_world_id w = tb_world_create(&def);
  const float plane[4] = {0, 1, 0, 0}, r[4] = {0.3f, 0, 0, 0};
  tb_body_id g = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  CHECK(tb_shape_create(w, g, TB_SHAPE_PLANE, plane, ZERO, ID_Q, 0.5f, 0.0f, 1.0f) >= 0);
  tb_body_id bodies[3];
  for (int i = 0; i < 3; ++i) {
    const float p[3] = {(float)i * 2.0f, 0.3f, 0};
    bodies[i] = tb_body_create(w, TB_BODY_DYNAMIC, p, ID_Q);
    CHECK(tb_shape_create(w, bodies[i], TB_SHAPE_SPHERE, r, ZERO, ID_Q, 0.5f, 0.0f, 1000.0f) >= 0);
  }
  tb_joint_def jd;
  tb_joint_default_def_into(&jd);
  jd.type = TB_JOINT_DISTANCE;
  jd.body0 = bodies[1];
  jd.body1 = bodies[2];
  jd.length = 2.0f;
  CHECK(tb_joint_create(w, &jd) >= 0);
  for (int i = 0; i < 5; ++i) CHECK(tb_world_step(w) == TB_OK);
  int32_t size;
  uint8_t* snap = save(w, &size);
  /* slots 0 (ground), 1, 2, 3: the island arrays one after the other, island ids then next then
   * sizes; the joined slots 2 and 3 share one island, whose id is one of them */
  int32_t lists[2][12] = {{-1, 1, 2, 2, -1, -1, 3, -1, 1, 1, 2, 1}, {-1, 1, 3, 3, -1, -1, -1, 2, 1, 1, 1, 2}};
  int at[2] = {0, 0}, which = -1;
  for (int v = 0; v < 2 && which < 0; ++v)
    if (find_bytes(snap, size, lists[v], sizeof lists[v], at, 2) == 1) which = v;
  CHECK(which >= 0);
  if (which >= 0) {
    target_world target = make_target(TB_PRESET_PHYSX_TGS, 3);
    uint8_t* bad = (uint8_t*)malloc((size_t)size);
    int32_t id = which == 0 ? 2 : 3, tail = which == 0 ? 3 : 2;
    const struct { int index; int32_t value; } cases[] = {
        {4 + tail, id},     /* the tail's next: the id again, a circle */
        {4 + id, -1},       /* the id's next cut: the tail is on no list */
        {8 + id, 1},        /* the size one short of the list */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
      memcpy(bad, snap, (size_t)size);
      memcpy(bad + at[0] + 4 * cases[i].index, &cases[i].value, 4);
      tb_test_resign(bad, size);
      expect_refused(&target, bad, size, TB_SNAPSHOT_CORRUPT, "corrupt");
    }
    free(bad);
    free_target(&target);
  }
  free(snap);
  tb_world_destroy(w);
}

int main(void) {
  int64_t live = tb_live_bytes();
  for (int p = 0; p < TB_PRESET_COUNT; ++p) {
    round_trip((tb_preset)p, 1);
    round_trip((tb_preset)p, 3);
  }
  warm_start_carried();
  mujoco_warm_start_checked();
  capacity_changes_nothing();
  refusals();
  stored_values_checked();
  stored_lists_checked();
  island_lists_checked();
  const tb_preset swept[] = {TB_PRESET_PHYSX_TGS, TB_PRESET_NEWTON_XPBD, TB_PRESET_MUJOCO, TB_PRESET_KAMINO};
  for (size_t i = 0; i < sizeof swept / sizeof swept[0]; ++i) every_value_refused_or_steps(swept[i], NAN);
  every_value_refused_or_steps(TB_PRESET_PHYSX_TGS, 0.0f);
  adaptive_threads_kept();
  CHECK(tb_live_bytes() == live || (fprintf(stderr, "live bytes %lld, expected %lld\n", (long long)tb_live_bytes(), (long long)live), 0));
  return tb_test_report("test_snapshot");
}
