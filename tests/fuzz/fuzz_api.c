/* libFuzzer harness over the public C API: the input bytes are a program of calls (every shape type,
 * NaN/Inf/huge/tiny values, stale and foreign ids, queries, presets and option changes, capacity
 * changes, NULL pointers, an allocation that fails after n more allocations, joints of every type,
 * per-shape materials, filters and distances, MuJoCo pairs, contact overrides, snapshots; after every
 * step, every read of what it left: stats, statuses, contacts in each convention, joints, islands,
 * sleep states, pair distances, hull supports).
 * Asserts, besides the sanitizers: every body state is finite after every accepted step, a failed
 * step leaves the body state as it was, a world made from a snapshot steps bit for bit like the
 * world it was taken from (on another thread count: 2 where the world has 1, the build's stages
 * in chunks of one item), a restore of the world's own snapshot changes no body state,
 * and live bytes return to their start once the worlds are destroyed.
 * Build and run: make fuzz-smoke (60 s), make fuzz FUZZ_SECONDS=... */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/tribo.h"

typedef struct reader {
  const uint8_t* p;
  size_t n;
} reader;

static uint8_t u8(reader* r) {
  if (!r->n) return 0;
  --r->n;
  return *r->p++;
}
static int32_t i32(reader* r) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = v << 8 | u8(r);
  return (int32_t)v;
}

/* Floats from a table of hostile and ordinary values, or raw bits. */
static float f32(reader* r) {
  static const float table[] = {0.0f, 1.0f, -1.0f, 0.5f, 0.25f, 2.0f, 10.0f, -0.3f, 1e-3f, 1e-30f, 1e-40f, 1e30f,
                                3.4e38f, -3.4e38f, 1e6f, 1e12f, NAN, INFINITY, -INFINITY, 0.01f, 100.0f, 1000.0f};
  uint8_t k = u8(r);
  if (k < 200) return table[k % (sizeof table / sizeof table[0])];
  uint32_t bits = (uint32_t)i32(r);
  float f;
  memcpy(&f, &bits, 4);
  return f;
}
/* Mostly sane sizes so that scenes form; hostile values from f32 otherwise. */
static float size_of(reader* r) {
  uint8_t k = u8(r);
  return k < 192 ? 0.05f + (float)k / 128.0f : f32(r);
}
static void vec(reader* r, float* v, int n, int sane) {
  for (int i = 0; i < n; ++i) v[i] = sane ? (float)((int)u8(r) - 128) / 32.0f : f32(r);
}
static void quat(reader* r, float q[4]) {
  if (u8(r) < 224) {
    float a = (float)u8(r) / 40.0f;
    q[0] = sinf(a / 2); q[1] = 0; q[2] = 0; q[3] = cosf(a / 2);
  } else {
    vec(r, q, 4, 0);
  }
}

/* Allocation hook: fails the allocation `s_fail_in` allocations from now (0 = never). */
static long s_fail_in = 0;
static void* fuzz_alloc(size_t size, void* user) {
  (void)user;
  if (s_fail_in > 0 && --s_fail_in == 0) return NULL;
  return malloc(size);
}
static void fuzz_free(void* p, size_t size, void* user) { (void)size; (void)user; free(p); }

#define MAX_IDS 64
typedef struct scene {
  tb_world_id world;
  int32_t bodies[MAX_IDS], shapes[MAX_IDS], sensors[8], joints[MAX_IDS]; /* every id issued, removed ones kept: stale ids */
  int nb, ns, nsensor, nj;
} scene;

static int32_t pick(reader* r, const int32_t* ids, int n) {
  uint8_t k = u8(r);
  if (n > 0 && k < 224) return ids[k % n];
  return k < 240 ? (int32_t)k - 232 : i32(r); /* small, negative or arbitrary ids */
}

static void remember(int32_t* ids, int* n, int32_t id) {
  if (id >= 0 && *n < MAX_IDS) ids[(*n)++] = id;
}

static void check(int ok, const char* what, tb_world_id w) {
  if (ok) return;
  fprintf(stderr, "fuzz_api: %s (%s)\n", what, tb_last_error(w));
  abort();
}

/* Body state of every live slot: transform, linear and angular velocity (13 floats per slot). */
static size_t body_state(tb_world_id w, float* out, size_t max) {
  int32_t slots = tb_world_body_slot_count(w);
  size_t n = 0;
  for (int32_t i = 0; i < slots && n + 13 <= max; ++i) {
    if (!tb_body_slot_alive(w, i)) continue;
    const float* t = (const float*)tb_world_field(w, TB_FIELDS_BODY, 0);
    const float* lv = (const float*)tb_world_field(w, TB_FIELDS_BODY, 1);
    const float* av = (const float*)tb_world_field(w, TB_FIELDS_BODY, 2);
    memcpy(out + n, t + 7 * i, 7 * sizeof(float));
    memcpy(out + n + 7, lv + 3 * i, 3 * sizeof(float));
    memcpy(out + n + 10, av + 3 * i, 3 * sizeof(float));
    n += 13;
  }
  return n;
}

static float s_before[13 * 1024], s_after[13 * 1024];

/* After every step: every read of what the step left, consuming no input bytes (so no input changes
 * meaning): stats, solver status, readback info, the contacts in every convention, the joints, and
 * per remembered id the body's island, sleep state, shapes and joints, a shape pair's distance and
 * a shape's support (stale ids included). The sanitizers watch the reads. */
static float s_convert[16 * 256];
static void inspect(scene* s) {
  tb_world_id w = s->world;
  tb_step_stats st;
  tb_solver_status ss;
  tb_readback_info info;
  tb_contact_status cs;
  tb_world_step_stats(w, &st);
  tb_world_solver_status(w, &ss);
  tb_world_readback_info(w, &info);
  if (tb_world_contact_status(w, &cs) == TB_OK)
    for (int c = 0; c < TB_CONVENTION_COUNT; ++c) {
      int32_t stride = tb_contact_convention_stride((tb_contact_convention)c);
      int32_t n = stride > 0 ? (int32_t)(sizeof s_convert / sizeof s_convert[0]) / stride : 0;
      tb_contacts_convert(w, (tb_contact_convention)c, 0, cs.count < n ? cs.count : n, s_convert, &info);
    }
  tb_joint_id joints[8];
  tb_world_joints(w, joints, 8);
  for (int i = 0; i < s->nj; ++i) {
    tb_joint_def d;
    tb_joint_get_def(w, s->joints[i], &d);
  }
  for (int i = 0; i < s->nb; ++i) {
    tb_sleep_state sl;
    tb_shape_id shapes[4];
    tb_body_island(w, s->bodies[i]);
    tb_body_sleep_state(w, s->bodies[i], &sl);
    tb_body_get_shapes(w, s->bodies[i], shapes, 4);
    tb_body_get_joints(w, s->bodies[i], joints, 8);
  }
  for (int i = 0; i + 1 < s->ns && i < 8; ++i) {
    tb_pair_distance pd;
    tb_support_query sq;
    const float dir[3] = {0.3f, 1.0f, -0.2f};
    tb_world_shape_distance(w, s->shapes[i], s->shapes[i + 1], 1.0f, &pd);
    tb_shape_support(w, s->shapes[i], dir, &sq);
  }
}

static void step_op(scene* s, int kind) {
  size_t n = body_state(s->world, s_before, sizeof s_before / sizeof s_before[0]);
  tb_status st = kind == 0 ? tb_world_step(s->world) : kind == 1 ? tb_world_collide(s->world) : tb_world_solve(s->world);
  size_t m = body_state(s->world, s_after, sizeof s_after / sizeof s_after[0]);
  check(n == m, "a step changed the live body count", s->world);
  if (st == TB_OK) {
    for (size_t i = 0; i < m; ++i) check(isfinite(s_after[i]), "an accepted step left a non-finite body state", s->world);
  } else {
    check(memcmp(s_before, s_after, n * sizeof(float)) == 0, "a failed step changed the body state", s->world);
  }
  inspect(s);
}

static void add_shape(scene* s, reader* r) {
  tb_world_id w = s->world;
  int32_t body = pick(r, s->bodies, s->nb);
  float lp[3], lq[4], params[4];
  vec(r, lp, 3, u8(r) < 240);
  quat(r, lq);
  float friction = u8(r) < 240 ? 0.5f : f32(r), restitution = u8(r) < 240 ? 0.1f : f32(r);
  float density = u8(r) < 240 ? 500.0f : f32(r);
  int type = u8(r) % 9;
  int32_t id = -1;
  switch (type) {
    case TB_SHAPE_PLANE: params[0] = 0; params[1] = 1; params[2] = 0; params[3] = u8(r) < 240 ? 0.0f : f32(r);
      id = tb_shape_create(w, body, TB_SHAPE_PLANE, params, lp, lq, friction, restitution, density); break;
    case TB_SHAPE_HULL: {
      float pts[3 * 40];
      int count = 4 + u8(r) % 36;
      for (int i = 0; i < count; ++i) {
        if (u8(r) < 250) {
          float t = 2.399963f * (float)i, z = 1.0f - 2.0f * ((float)i + 0.5f) / (float)count, rr = sqrtf(fmaxf(0, 1 - z * z));
          float sc = 0.3f + (float)(i % 3) * 0.05f;
          pts[3 * i] = sc * rr * cosf(t); pts[3 * i + 1] = sc * z; pts[3 * i + 2] = sc * rr * sinf(t);
        } else {
          vec(r, pts + 3 * i, 3, 0);
        }
      }
      int res = u8(r) % 4 == 0 ? 8 + u8(r) % 24 : -1;
      id = tb_shape_create_hull_ex(w, body, pts, count, res, lp, lq, friction, restitution, density);
      break;
    }
    case TB_SHAPE_HEIGHTFIELD: {
      float h[36];
      int rows = 2 + u8(r) % 5, cols = 2 + u8(r) % 5;
      for (int i = 0; i < rows * cols; ++i) h[i] = u8(r) < 250 ? (float)(u8(r) % 8) * 0.05f : f32(r);
      id = tb_shape_create_heightfield(w, body, rows, cols, h, size_of(r), size_of(r), lp, lq, friction, restitution);
      break;
    }
    case TB_SHAPE_MESH: {
      float v[3 * 8];
      int32_t idx[3 * 6];
      int nv = 3 + u8(r) % 6, nt = 1 + u8(r) % 6;
      for (int i = 0; i < nv; ++i) {
        if (u8(r) < 250) {
          v[3 * i] = (float)(i % 3) * 2.0f - 2.0f; v[3 * i + 1] = (float)(u8(r) % 4) * 0.1f; v[3 * i + 2] = (float)(i / 3) * 2.0f - 2.0f;
        } else {
          vec(r, v + 3 * i, 3, 0);
        }
      }
      for (int i = 0; i < 3 * nt; ++i) idx[i] = u8(r) < 250 ? (int32_t)(u8(r) % nv) : i32(r);
      id = tb_shape_create_mesh(w, body, v, nv, idx, nt, lp, lq, friction, restitution);
      break;
    }
    default: /* sphere, capsule, box, cylinder, ellipsoid */
      for (int i = 0; i < 4; ++i) params[i] = size_of(r);
      id = tb_shape_create(w, body, (tb_shape_type)type, params, lp, lq, friction, restitution, density);
  }
  remember(s->shapes, &s->ns, id);
}

static void set_options(scene* s, reader* r) {
  tb_world_def d;
  check(tb_world_get_def(s->world, &d) == TB_OK, "getDef failed", s->world);
  switch (u8(r) % 12) {
    case 0: d.solver.position_iterations = u8(r) < 240 ? 1 + u8(r) % 16 : i32(r); break;
    case 1: d.solver.velocity_iterations = u8(r) < 240 ? u8(r) % 8 : i32(r); break;
    case 2: d.solver.newton.substeps = u8(r) < 240 ? 1 + u8(r) % 32 : i32(r); break;
    case 3: d.solver.newton.ke = f32(r); break;
    case 4: d.solver.newton.kd = f32(r); break;
    case 5: d.solver.newton.iterations = u8(r) < 240 ? 1 + u8(r) % 8 : i32(r); break;
    case 6: d.solver.speculative_distance = f32(r); break;
    case 7: d.solver.max_depenetration_velocity = f32(r); break;
    case 8: d.collision.broad_phase = u8(r) % 4; break;
    case 9: d.collision.max_collision_pairs = u8(r) < 200 ? u8(r) % 8 : i32(r); break;
    case 10: d.solver.combine_rule = u8(r) % 6; break;
    default: d.collision.filter_rule = u8(r) % 5; d.collision.distance_rule = u8(r) % 4; break;
  }
  if (u8(r) & 1) tb_world_set_solver(s->world, &d.solver);
  else tb_world_set_collision(s->world, &d.collision);
}

static void query(scene* s, reader* r) {
  tb_world_id w = s->world;
  float o[3], dir[3], prm[4], q[4];
  vec(r, o, 3, u8(r) < 240);
  vec(r, dir, 3, u8(r) < 240);
  tb_query_filter f = {pick(r, s->bodies, s->nb), (uint32_t)i32(r)};
  const tb_query_filter* fp = u8(r) & 1 ? &f : NULL;
  float maxd = u8(r) < 200 ? 20.0f : f32(r);
  tb_ray_hit hits[8];
  int32_t requested, ids[8];
  switch (u8(r) % 3) {
    case 0: tb_world_ray_cast(w, o, dir, maxd, fp, hits); break;
    case 1: tb_world_ray_cast_all(w, o, dir, maxd, fp, hits, (int32_t)(u8(r) % 9), &requested); break;
    default:
      for (int i = 0; i < 4; ++i) prm[i] = size_of(r);
      quat(r, q);
      tb_world_overlap(w, (tb_shape_type)(u8(r) % 9), prm, o, q, fp, ids, (int32_t)(u8(r) % 9), &requested);
  }
}

static void observe(scene* s, reader* r) {
  tb_world_id w = s->world;
  float out[6 * 64], force[3];
  int32_t idx[16], valid[8], steps[8];
  tb_wrench wr;
  tb_readback_info info;
  switch (u8(r) % 8) {
    case 0: {
      tb_sensor_id id = tb_sensor_create(w, pick(r, s->bodies, s->nb), u8(r) & 1 ? TB_ANY_BODY : pick(r, s->bodies, s->nb),
                                         u8(r) < 240 ? 1 + u8(r) % 8 : i32(r));
      if (id >= 0 && s->nsensor < 8) s->sensors[s->nsensor++] = id;
      break;
    }
    case 1: tb_sensor_read(w, pick(r, s->sensors, s->nsensor), force, &info); break;
    case 2: tb_sensor_history(w, pick(r, s->sensors, s->nsensor), out, valid, steps, (int32_t)(u8(r) % 9)); break;
    case 3: tb_world_set_event_capacity(w, u8(r) < 240 ? u8(r) % 32 : i32(r)); break;
    case 4: tb_body_contact_wrench(w, pick(r, s->bodies, s->nb), TB_ANY_BODY, u8(r) & 1, &wr, &info); break;
    case 5: tb_body_contacts(w, pick(r, s->bodies, s->nb), TB_ANY_BODY, u8(r) & 1, idx, (int32_t)(u8(r) % 17)); break;
    case 6: {
      int32_t slots = tb_world_body_slot_count(w);
      if (slots <= 64) tb_world_body_contact_wrenches(w, 0, out, slots, &info);
      break;
    }
    default: tb_contact_wrench(w, (int32_t)(u8(r) % 8), u8(r) & 1, NULL, &wr, &info); break;
  }
  tb_event_status es;
  if (tb_world_event_status(w, &es) == TB_OK && es.count > 0) {
    const tb_contact_event* e = tb_world_events(w);
    volatile float sink = e[es.count - 1].normal_force;
    (void)sink;
  }
}

/* A small positive value most of the time, a hostile one otherwise. */
static float amount(reader* r, float scale) { return u8(r) < 200 ? scale * (float)(u8(r) % 16) / 8.0f : f32(r); }

static void joint_op(scene* s, reader* r) {
  tb_world_id w = s->world;
  switch (u8(r) % 5) {
    case 0: case 1: {
      tb_joint_def d;
      tb_joint_default_def_into(&d);
      d.type = u8(r) < 240 ? u8(r) % TB_JOINT_TYPE_COUNT : i32(r);
      d.body0 = u8(r) < 40 ? TB_WORLD_BODY : pick(r, s->bodies, s->nb);
      d.body1 = u8(r) < 20 ? TB_WORLD_BODY : pick(r, s->bodies, s->nb);
      vec(r, d.position0, 3, u8(r) < 240);
      vec(r, d.position1, 3, u8(r) < 240);
      quat(r, d.rotation0);
      quat(r, d.rotation1);
      d.collide_connected = u8(r) % 2;
      if (u8(r) & 1) {
        d.enable_limit = 1;
        d.lower = -amount(r, 1.0f);
        d.upper = amount(r, 1.0f);
        d.cone_angle = u8(r) < 200 ? 0.1f + (float)(u8(r) % 10) * 0.3f : f32(r);
      }
      if (u8(r) & 1) {
        d.enable_motor = 1;
        d.motor_speed = u8(r) < 200 ? (float)((int)u8(r) - 128) / 16.0f : f32(r);
        d.max_motor_force = amount(r, 50.0f);
      }
      if (u8(r) & 1) {
        d.length = amount(r, 1.0f);
        d.stiffness = amount(r, 100.0f);
        d.damping = amount(r, 10.0f);
      }
      if (u8(r) & 1) {
        d.break_force = amount(r, 100.0f);
        d.break_torque = amount(r, 100.0f);
      }
      remember(s->joints, &s->nj, tb_joint_create(w, &d));
      break;
    }
    case 2: tb_joint_destroy(w, pick(r, s->joints, s->nj)); break;
    case 3: {
      tb_joint_state st;
      tb_wrench wr;
      float point[3];
      vec(r, point, 3, u8(r) < 240);
      tb_joint_get_state(w, pick(r, s->joints, s->nj), &st);
      tb_joint_wrench(w, pick(r, s->joints, s->nj), u8(r) % 3 == 2 ? (int32_t)u8(r) - 128 : u8(r) % 2, u8(r) & 1 ? point : NULL, &wr);
      break;
    }
    default: {
      tb_joint_id out[4];
      tb_body_destroy_with_joints(w, pick(r, s->bodies, s->nb), u8(r) & 1 ? out : NULL, (int32_t)(u8(r) % 5));
    }
  }
}

static void shape_settings(scene* s, reader* r) {
  tb_world_id w = s->world;
  int32_t shape = pick(r, s->shapes, s->ns), body = pick(r, s->bodies, s->nb);
  switch (u8(r) % 7) {
    case 0: {
      float m = amount(r, 0.01f), g = amount(r, 0.01f), co = amount(r, 0.01f);
      tb_shape_set_distances(w, shape, m, g, co, u8(r) < 200 ? co * 0.5f : f32(r));
      break;
    }
    case 1: {
      tb_material m;
      tb_material_default_into(0.5f, 0.0f, &m);
      m.static_friction = amount(r, 0.5f);
      m.dynamic_friction = amount(r, 0.5f);
      m.restitution = amount(r, 0.5f);
      m.friction_combine = u8(r) < 240 ? u8(r) % 5 : i32(r);
      m.restitution_combine = u8(r) % 5;
      if (u8(r) & 1) m.compliant_stiffness = amount(r, 1000.0f), m.compliant_damping = amount(r, 10.0f);
      if (u8(r) & 1) m.ke = amount(r, 1e4f), m.kd = amount(r, 10.0f), m.kf = amount(r, 10.0f), m.ka = amount(r, 0.01f);
      m.torsional_friction = amount(r, 0.01f);
      m.rolling_friction = amount(r, 0.001f);
      m.priority = (int32_t)(u8(r) % 3);
      m.condim = u8(r) < 240 ? (int32_t[]){1, 3, 4, 6}[u8(r) % 4] : i32(r);
      tb_shape_set_material(w, shape, u8(r) < 250 ? &m : NULL);
      break;
    }
    case 2: {
      tb_shape_filter f;
      tb_default_shape_filter(&f);
      f.world = (int32_t)(u8(r) % 4) - 1;
      f.collision_group = (int32_t)(u8(r) % 5) - 2;
      f.contype = u8(r) % 4;
      f.conaffinity = u8(r) % 4;
      for (int k = 0; k < 4; ++k) f.filter_data[k] = u8(r) < 200 ? u8(r) % 4 : (uint32_t)i32(r);
      f.trigger = u8(r) % 3; /* 2: refused */
      tb_shape_set_filter(w, shape, &f);
      break;
    }
    case 3: tb_world_set_timestep(w, u8(r) < 200 ? 1.0f / (float)(30 + u8(r) % 200) : f32(r)); break;
    case 4:
      if (u8(r) & 1) tb_body_set_max_contact_impulse(w, body, amount(r, 10.0f));
      else tb_body_set_solver_iterations(w, body, u8(r) < 200 ? (int32_t)(u8(r) % 12) - 1 : i32(r), u8(r) < 200 ? (int32_t)(u8(r) % 6) - 1 : i32(r));
      break;
    case 5: {
      tb_contact_pair_params p;
      tb_contact_pair_default_into(&p);
      p.margin = amount(r, 0.01f);
      p.gap = amount(r, 0.01f);
      for (int k = 0; k < 5; ++k) p.friction[k] = amount(r, 0.5f);
      p.condim = u8(r) < 240 ? (int32_t[]){1, 3, 4, 6}[u8(r) % 4] : i32(r);
      p.solref[0] = u8(r) < 200 ? 0.02f : f32(r);
      p.solimp[2] = amount(r, 0.001f);
      tb_world_set_contact_pair(w, shape, pick(r, s->shapes, s->ns), u8(r) < 240 ? &p : NULL);
      break;
    }
    default:
      if (u8(r) & 1) tb_world_solver_reset(w);
      else tb_contact_set_override(w, u8(r) < 240 ? (int32_t)(u8(r) % 16) : i32(r), amount(r, 1000.0f), amount(r, 10.0f), amount(r, 1.0f));
  }
}

/* Snapshots: a world made from one steps bit for bit like the world it was taken from; a restore of
 * the world's own snapshot changes no body state; a changed byte is refused or read without harm. */
static uint8_t s_snap[1 << 21];
static float s_copy[13 * 1024];
static void snapshot_op(scene* s, reader* r) {
  tb_world_id w = s->world;
  long fail_in = s_fail_in;
  s_fail_in = 0; /* the comparisons need both worlds to get their memory */
  int32_t n = tb_world_snapshot(w, NULL, 0);
  if (n > 0 && (size_t)n <= sizeof s_snap) {
    check(tb_world_snapshot(w, s_snap, n) == n, "a snapshot of the measured size failed", w);
    check(tb_snapshot_check(s_snap, n) == TB_SNAPSHOT_OK, "a fresh snapshot fails its check", w);
    int k = u8(r) % 3;
    if (k == 0) {
      /* the twin on the other thread count (1 or 2), both threads on every stage that splits */
      tb_world_def d;
      check(tb_world_get_def(w, &d) == TB_OK, "getDef failed", w);
      tb_world_id c = tb_world_create_from_snapshot(s_snap, n, d.thread_count == 1 ? 2 : 1);
      if (c >= 0) check(tb_world_set_adaptive_threads(c, 0) == TB_OK, "fixed threads refused", c);
      /* the load's own reason (tb_last_error(w) would be an earlier call's) */
      if (c < 0) fprintf(stderr, "fuzz_api: snapshot error %s: %s\n", tb_enum_name(TB_ENUM_SNAPSHOT_ERROR, tb_snapshot_last_error()), tb_last_error(-1));
      check(c >= 0, "a fresh snapshot was refused", w);
      for (int i = 1 + u8(r) % 3; i > 0; --i) {
        tb_status a = tb_world_step(w), b = tb_world_step(c);
        check(a == b, "a world from a snapshot stepped with another status", w);
        size_t na = body_state(w, s_after, sizeof s_after / sizeof s_after[0]);
        size_t nb = body_state(c, s_copy, sizeof s_copy / sizeof s_copy[0]);
        check(na == nb && memcmp(s_after, s_copy, na * sizeof(float)) == 0, "a world from a snapshot stepped to other bits", w);
      }
      check(tb_world_destroy(c) == TB_OK, "destroying the copy failed", c);
    } else if (k == 1) {
      size_t before = body_state(w, s_before, sizeof s_before / sizeof s_before[0]);
      check(tb_world_restore(w, s_snap, n) == TB_OK, "restoring the world's own snapshot failed", w);
      size_t after = body_state(w, s_after, sizeof s_after / sizeof s_after[0]);
      check(before == after && memcmp(s_before, s_after, before * sizeof(float)) == 0, "a restore changed the body state", w);
    } else {
      uint32_t at = (uint32_t)i32(r) % (uint32_t)n;
      s_snap[at] ^= (uint8_t)(1 + u8(r) % 255);
      tb_world_id c = tb_world_create_from_snapshot(s_snap, n, 0);
      if (c >= 0) {
        tb_world_step(c);
        check(tb_world_destroy(c) == TB_OK, "destroying a world of a changed snapshot failed", c);
      }
      tb_world_restore(w, s_snap, u8(r) & 1 ? n : (int32_t)(at + 1)); /* refused: the world as it was */
    }
  }
  s_fail_in = fail_in;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  reader rd = {data, size}, *r = &rd;
  tb_set_allocator(fuzz_alloc, fuzz_free, NULL);
  s_fail_in = 0;
  int64_t start = tb_live_bytes();
  /* legal ones stay small (a legal 1 << 24 pairs is 3 GB); the bound + 1 and beyond must be refused */
  static const int32_t caps[] = {1, 4, 64, 512, 4096, (1 << 24) + 1, 1 << 30, INT32_MAX, -1, 0};
  tb_world_def def = tb_default_world_def();
  /* the first byte: the preset, and (odd) the operations after the first twenty. An even first byte
   * reads an input as before they were added, so the corpus's regression inputs keep their meaning
   * (5ac127f0..., 89174d25...: first bytes 0x00 and 0x6a) */
  uint8_t first = u8(r);
  const int ops = first & 1 ? 23 : 20;
  tb_preset_apply((tb_preset)(first % TB_PRESET_COUNT), &def);
  def.body_capacity = 8;
  def.contact_capacity = 256;
  def.pair_capacity = 256;
  if (u8(r) >= 240) def.contact_capacity = caps[u8(r) % 10];
  if (u8(r) >= 240) def.pair_capacity = caps[u8(r) % 10];
  if (u8(r) >= 240) def.timestep = f32(r);
  scene s;
  memset(&s, 0, sizeof s);
  s.world = tb_world_create(&def);
  if (s.world < 0) {
    check(tb_live_bytes() == start, "a failed createWorld leaked", -1);
    return 0;
  }
  for (int op = 0; op < 200 && rd.n > 0; ++op) {
    tb_world_id w = s.world;
    float a[4], b[4];
    switch (u8(r) % ops) {
      case 0: case 1: {
        int type = u8(r) % 4; /* 3: an unknown type */
        vec(r, a, 3, u8(r) < 240);
        quat(r, b);
        remember(s.bodies, &s.nb, tb_body_create(w, (tb_body_type)(type == 3 ? 7 : type), a, b));
        break;
      }
      case 2: case 3: add_shape(&s, r); break;
      case 4: tb_body_destroy(w, pick(r, s.bodies, s.nb)); break;
      case 5: tb_shape_destroy(w, pick(r, s.shapes, s.ns)); break;
      case 6: vec(r, a, 3, u8(r) < 200); quat(r, b); tb_body_set_pose(w, pick(r, s.bodies, s.nb), a, b); break;
      case 7: vec(r, a, 3, u8(r) < 200); vec(r, b, 3, u8(r) < 200); tb_body_set_velocity(w, pick(r, s.bodies, s.nb), a, b); break;
      case 8: vec(r, a, 3, u8(r) < 240); vec(r, b, 3, 0); tb_body_set_mass(w, pick(r, s.bodies, s.nb), f32(r), a, b); break;
      case 9: case 10: case 11: step_op(&s, u8(r) % 4 == 0 ? 1 + u8(r) % 2 : 0); break;
      case 12: tb_world_set_preset(w, (tb_preset)(u8(r) % (TB_PRESET_COUNT + 1))); break;
      case 13: set_options(&s, r); break;
      case 14: query(&s, r); break;
      case 15: observe(&s, r); break;
      case 16: s_fail_in = 1 + u8(r) % 16; break; /* one allocation soon fails */
      case 17: {
        int k = u8(r) % 7;
        if (k == 0) tb_world_set_contact_capacity(w, caps[u8(r) % 10]);
        else if (k == 1) tb_world_set_pair_capacity(w, caps[u8(r) % 10]);
        else if (k == 2) tb_body_set_damping(w, pick(r, s.bodies, s.nb), f32(r), f32(r));
        else if (k == 3) tb_body_set_sleeping(w, pick(r, s.bodies, s.nb), u8(r) % 3);
        else if (k == 4) tb_body_discard(w, pick(r, s.bodies, s.nb));
        else if (k == 5) { /* adaptive threads: 0 / 1, or any integer (refused); threadMode reports the setting */
          int32_t want = u8(r) < 200 ? u8(r) % 2 : i32(r), adaptive = -1, serial = -1;
          double switches = -1.0;
          tb_status st = tb_world_set_adaptive_threads(w, want);
          check(tb_world_thread_mode(w, &adaptive, &serial, &switches) == TB_OK, "threadMode failed", w);
          check(st != TB_OK || adaptive == want, "threadMode does not report the adaptive setting just made", w);
          check((serial == 0 || serial == 1) && switches >= 0.0, "threadMode out of range", w);
        } else { /* threadMode with a missing output: refused */
          int32_t a = 0, b = 0;
          double c = 0.0;
          int m = u8(r) % 3;
          check(tb_world_thread_mode(w, m == 0 ? NULL : &a, m == 1 ? NULL : &b, m == 2 ? NULL : &c) != TB_OK,
                "threadMode accepted a NULL output", w);
        }
        break;
      }
      case 18: { /* filtering and pair lists */
        int32_t x = pick(r, s.shapes, s.ns), y = pick(r, s.shapes, s.ns);
        int k = u8(r) % 4;
        if (k == 0) tb_world_set_shape_pair_excluded(w, x, y, u8(r) % 3);
        else if (k == 1) tb_world_set_body_pair_excluded(w, pick(r, s.bodies, s.nb), pick(r, s.bodies, s.nb), u8(r) % 2);
        else if (k == 2) { int32_t ids[2] = {x, y}; tb_world_set_explicit_pairs(w, ids, u8(r) % 2); }
        else tb_body_set_parent(w, pick(r, s.bodies, s.nb), pick(r, s.bodies, s.nb));
        break;
      }
      case 20: joint_op(&s, r); break;
      case 21: shape_settings(&s, r); break;
      case 22: snapshot_op(&s, r); break;
      default: { /* NULL pointers where the API takes them */
        int k = u8(r) % 6;
        if (k == 0) tb_world_set_gravity(w, NULL);
        else if (k == 1) tb_world_set_solver(w, NULL);
        else if (k == 2) tb_body_create(w, TB_BODY_DYNAMIC, NULL, NULL);
        else if (k == 3) tb_body_set_pose(w, pick(r, s.bodies, s.nb), NULL, NULL);
        else if (k == 4) tb_shape_create(w, pick(r, s.bodies, s.nb), TB_SHAPE_SPHERE, NULL, NULL, NULL, 0.5f, 0, 1);
        else { vec(r, a, 3, 0); tb_world_set_gravity(w, a); }
        break;
      }
    }
  }
  s_fail_in = 0;
  check(tb_world_destroy(s.world) == TB_OK, "destroy failed", s.world);
  check(tb_live_bytes() == start, "live bytes did not return to the start after destroy", -1);
  return 0;
}
