/* Tribo native benchmark: the pyramid, pile and readback scenes of bench/scenes.mjs (and the tray
 * and the level, by name only), through the
 * public C API (src/include/tribo.h) only (a TB_COUNT_BARRIERS build, bench/barrier_count.sh, also
 * reads the job system's count of parallel jobs). Prints one JSON object on stdout.
 *
 *   native_bench [--steps N] [--scenes pyramid,pile,readback,tray,level] [--threads T] [--side S] [--count A:B]
 *                [--adaptive 0|1] [--ab T [--hog]] [--preset NAME]
 *
 * --adaptive 0: worlds keep their thread count (tb_world_set_adaptive_threads). --ab T: see
 * bench_ab (the thread governor against 1 thread and T fixed threads, interleaved; --hog beside
 * a busy child process); needs a -DTB_THREADS build.
 *
 * --count A:B: under `valgrind --tool=callgrind --instr-atstart=no`, instruments only steps A..B-1
 * of each scene (step 0 is the first step), so bench/instr_counts.sh reads instructions per step
 * of a window without the scene setup (and step 0 alone, dumped to its own file first); outside
 * valgrind the client requests do nothing.
 *
 * --side S: the pile as S × S columns of 10 bodies in a container that grows with S (the scaling
 * table of run.mjs: S = 5, 10, 20, 40 gives 250, 1000, 4000, 16 000 bodies; 10 is the pile).
 *
 * tray (only when named): one dynamic plate on the ground carrying S × S boxes and spheres, so the
 * plate is in S² + 1 manifolds, all but 24 of them in the solver's overflow colour (solved in
 * order on one thread); reports ms/step, the overflow count and the live bytes (RESULTS "perf27").
 *
 * level (only when named): 10·S × 10·S touching static unit tiles and 1 000 spheres resting on
 * every other tile, 30 to a row (scenes.mjs level({ tiles: 10·S })).
 *
 * Built by bench/run.mjs:
 *   gcc -O2 -std=c11 -ffp-contract=off -msse2 -Isrc bench/native_bench.c $(find src -name '*.c') \
 *       -lm -lpthread -o build/native_bench
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <signal.h>
#include <sys/types.h>
#include <unistd.h>

#include "include/tribo.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#endif
#endif
#ifndef CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_STOP_INSTRUMENTATION
#define CALLGRIND_DUMP_STATS
#endif

/* --preset NAME: the worlds use that preset (tb_preset_apply) with sleeping off; default physx-tgs */
static int preset = -1;
static const char* const preset_names[] = {
#define TB_PRESET_NAME(id, name) name,
    TB_PRESETS(TB_PRESET_NAME)
#undef TB_PRESET_NAME
};

/* --adaptive 0: the world keeps its thread count (tb_world_set_adaptive_threads); default 1 */
static int adaptive = 1;

/* Steps [count_from, count_to) of each scene run instrumented (--count). */
static int count_from = -1, count_to = -1;

/* bench/barrier_count.sh builds with TB_COUNT_BARRIERS: the jobs of the window's steps that were
 * big enough to split over the threads (each ends in a barrier), from the job system's internal
 * count (src/core/jobs.h), the one thing here not from tribo.h. */
#if defined(TB_COUNT_BARRIERS)
int64_t tb_jobs_parallel_count(void);
#define PARALLEL_JOBS() tb_jobs_parallel_count()
#else
#define PARALLEL_JOBS() 0
#endif
static long long window_jobs;
static int window_steps;

/* stderr: barriers per step over the --count window (TB_COUNT_BARRIERS builds) */
static void report_barriers(const char* scene) {
#if defined(TB_COUNT_BARRIERS)
  if (window_steps > 0) fprintf(stderr, "%s: %.2f barriers per step over %d steps\n", scene, (double)window_jobs / window_steps, window_steps);
#else
  (void)scene;
#endif
  window_jobs = 0;
  window_steps = 0;
}

#define GRAVITY_Y (-9.81f)
#define DT (1.0f / 60.0f)
#define FRICTION 0.6f
#define RESTITUTION 0.0f
#define PI_D 3.14159265358979323846

static const float IDENTITY_Q[4] = {0, 0, 0, 1};
static const float ORIGIN[3] = {0, 0, 0};

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int cmp_double(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static double median(double* v, int n) {
  if (n <= 0) return NAN;
  qsort(v, (size_t)n, sizeof(double), cmp_double);
  return (n & 1) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Errors go to stderr (stdout may hold half a JSON object by then), exit code 2. */
static void fail(tb_world_id w, const char* what, int code) {
  const char* msg = tb_last_error(w);
  fflush(stdout);
  fprintf(stderr, "native_bench: %s failed (%d): %s\n", what, code, msg ? msg : "");
  exit(2);
}

typedef struct scene {
  tb_world_id world;
  tb_body_id* dyn; /* dynamic bodies, in creation order */
  int dyn_count, dyn_cap;
  float (*start)[3];
} scene;

static tb_world_id make_world(int threads) {
  tb_world_def def = tb_default_world_def();
  def.gravity[0] = 0; def.gravity[1] = GRAVITY_Y; def.gravity[2] = 0;
  def.timestep = DT;
  if (preset >= 0 && tb_preset_apply((tb_preset)preset, &def) != TB_OK) fail(-1, "tb_preset_apply", 1);
  def.solver.sleep.mode = TB_SLEEP_OFF; /* as for every engine of the bench (physx presets sleep by default) */
  if (threads > 0) def.thread_count = threads;
  tb_world_id w = tb_world_create(&def);
  if (w < 0) fail(w, "tb_world_create", w);
  if (!adaptive) tb_world_set_adaptive_threads(w, 0);
  return w;
}

static tb_body_id add_body(scene* s, tb_body_type type, float x, float y, float z, tb_shape_type shape,
                           const float params[4], float density) {
  float pos[3] = {x, y, z};
  tb_body_id b = tb_body_create(s->world, type, pos, IDENTITY_Q);
  if (b < 0) fail(s->world, "tb_body_create", b);
  tb_shape_id sh = tb_shape_create(s->world, b, shape, params, ORIGIN, IDENTITY_Q, FRICTION, RESTITUTION,
                                   density);
  if (sh < 0) fail(s->world, "tb_shape_create", sh);
  if (type == TB_BODY_DYNAMIC) {
    if (s->dyn_count == s->dyn_cap) {
      s->dyn_cap = s->dyn_cap ? 2 * s->dyn_cap : 256;
      s->dyn = realloc(s->dyn, (size_t)s->dyn_cap * sizeof *s->dyn);
      s->start = realloc(s->start, (size_t)s->dyn_cap * sizeof *s->start);
      if (!s->dyn || !s->start) { fprintf(stderr, "native_bench: out of memory\n"); exit(2); }
    }
    s->start[s->dyn_count][0] = x; s->start[s->dyn_count][1] = y; s->start[s->dyn_count][2] = z;
    s->dyn[s->dyn_count++] = b;
  }
  return b;
}

static void add_static_box(scene* s, float x, float y, float z, float hx, float hy, float hz) {
  const float p[4] = {hx, hy, hz, 0};
  add_body(s, TB_BODY_STATIC, x, y, z, TB_SHAPE_BOX, p, 1.0f);
}

static void free_scene(scene* s) {
  tb_world_destroy(s->world);
  free(s->dyn);
  free(s->start);
  memset(s, 0, sizeof *s);
}

static void get_pos(const scene* s, int i, float out[3]) {
  float st[13];
  int rc = tb_body_get_state(s->world, s->dyn[i], st);
  if (rc != TB_OK) fail(s->world, "tb_body_get_state", rc);
  out[0] = st[0]; out[1] = st[1]; out[2] = st[2];
}

/* One step, instrumented when step index k is in the --count window; with a window, step 0 is
 * instrumented too and dumped on its own (callgrind's out.N.1 file: the first step). */
static int counted_step(tb_world_id w, int k) {
  int on = count_from >= 0 && ((k >= count_from && k < count_to) || k == 0);
  int window = count_from >= 0 && k >= count_from && k < count_to;
  long long jobs = window ? PARALLEL_JOBS() : 0;
  if (on) CALLGRIND_START_INSTRUMENTATION;
  int rc = tb_world_step(w);
  if (on) CALLGRIND_STOP_INSTRUMENTATION;
  if (window) {
    window_jobs += PARALLEL_JOBS() - jobs;
    window_steps++;
  }
  if (on && k == 0 && count_from > 0) CALLGRIND_DUMP_STATS;
  return rc;
}

/* Mean ms/step of the last run_steps window: with adaptive threads its probes show in the mean,
 * not in the median. */
static double last_mean_ms;

/* Steps the scene `steps` times from step index `first`; returns the median ms/step over
 * [from, steps). */
static double run_steps(scene* s, int steps, int from, int first) {
  double* t = malloc(sizeof(double) * (size_t)(steps > 0 ? steps : 1));
  int n = 0;
  for (int i = 0; i < steps; i++) {
    double t0 = now_ms();
    int rc = counted_step(s->world, first + i);
    double t1 = now_ms();
    if (rc != TB_OK) fail(s->world, "tb_world_step", rc);
    if (i >= from) t[n++] = t1 - t0;
  }
  double sum = 0;
  for (int i = 0; i < n; i++) sum += t[i];
  last_mean_ms = n ? sum / n : 0;
  double m = median(t, n);
  free(t);
  return m;
}

/* Same layout as scenes.mjs pyramid(): ground box top at y = 0, rows touching. */
static void build_pyramid(scene* s, int threads, int rows) {
  s->world = make_world(threads);
  add_static_box(s, 0, -0.5f, 0, 50, 0.5f, 50);
  const float cube[4] = {0.5f, 0.5f, 0.5f, 0};
  for (int r = 0; r < rows; r++) {
    int n = rows - r;
    for (int i = 0; i < n; i++)
      add_body(s, TB_BODY_DYNAMIC, (float)((i - (n - 1) / 2.0) * 1.0), 0.5f + (float)r, 0, TB_SHAPE_BOX, cube, 1.0f);
  }
}

static void bench_pyramid(int steps, int threads, int rows) {
  scene s = {0};
  build_pyramid(&s, threads, rows);
  double ms = run_steps(&s, steps, steps / 2, 0);
  int top = s.dyn_count - 1;
  float p[3], top_dy = 0, max_dxz = 0;
  for (int i = 0; i < s.dyn_count; i++) {
    get_pos(&s, i, p);
    float dx = p[0] - s.start[i][0], dz = p[2] - s.start[i][2];
    float dxz = sqrtf(dx * dx + dz * dz);
    if (!(dxz <= max_dxz)) max_dxz = dxz; /* NaN propagates */
    if (i == top) top_dy = p[1] - s.start[i][1];
  }
  int stands = fabsf(top_dy) <= 0.1f && max_dxz <= 0.25f;
  printf("\"pyramid\": {\"bodies\": %d, \"steps\": %d, \"window\": [%d, %d], \"median_ms\": %.6f, \"mean_ms\": %.6f, "
         "\"top_dy\": %.6f, \"max_dxz\": %.6f, \"stands\": %s}",
         s.dyn_count, steps, steps / 2, steps, ms, last_mean_ms, top_dy, max_dxz, stands ? "true" : "false");
  report_barriers("pyramid");
  free_scene(&s);
}

/* Same layout as scenes.mjs pile(), including the deterministic ±0.05 m jitter. */
static void build_pile(scene* s, int threads, int side) {
  const int n = 10;
  const float spacing = 1.5f, wall = 0.5f, height = 20;
  const float inner = (float)side * spacing / 2 + 0.5f; /* 8 m for the 10 × 10 pile */
  s->world = make_world(threads);
  add_static_box(s, 0, -0.5f, 0, inner + 2 * wall, 0.5f, inner + 2 * wall);
  add_static_box(s, inner + wall, height / 2, 0, wall, height / 2, inner + 2 * wall);
  add_static_box(s, -(inner + wall), height / 2, 0, wall, height / 2, inner + 2 * wall);
  add_static_box(s, 0, height / 2, inner + wall, inner, height / 2, wall);
  add_static_box(s, 0, height / 2, -(inner + wall), inner, height / 2, wall);
  const float sphere[4] = {0.5f, 0, 0, 0}, box[4] = {0.5f, 0.5f, 0.5f, 0}, capsule[4] = {0.3f, 0.4f, 0, 0};
  uint32_t seed = 12345u;
  const double off = (side - 1) * spacing / 2.0;
  int k = 0;
  for (int y = 0; y < n; y++)
    for (int z = 0; z < side; z++)
      for (int x = 0; x < side; x++) {
        seed = seed * 1103515245u + 12345u;
        double jx = 0.05 * (((double)(seed >> 8) / 16777216.0) * 2 - 1);
        seed = seed * 1103515245u + 12345u;
        double jz = 0.05 * (((double)(seed >> 8) / 16777216.0) * 2 - 1);
        float px = (float)(x * spacing - off + jx), py = (float)(2 + y * spacing), pz = (float)(z * spacing - off + jz);
        switch (k % 3) {
          case 0: add_body(s, TB_BODY_DYNAMIC, px, py, pz, TB_SHAPE_SPHERE, sphere, 1.0f); break;
          case 1: add_body(s, TB_BODY_DYNAMIC, px, py, pz, TB_SHAPE_BOX, box, 1.0f); break;
          default: add_body(s, TB_BODY_DYNAMIC, px, py, pz, TB_SHAPE_CAPSULE, capsule, 1.0f); break;
        }
        k++;
      }
}

static void bench_pile(int steps, int threads, int side) {
  const float spacing = 1.5f, height = 20;
  const float inner = (float)side * spacing / 2 + 0.5f; /* as in build_pile */
  scene s = {0};
  build_pile(&s, threads, side);
  double t0 = now_ms();
  if (counted_step(s.world, 0) != TB_OK) fail(s.world, "tb_world_step", -1);
  double first = now_ms() - t0;
  double ms = run_steps(&s, steps - 1, steps / 2 - 1, 1);
  int escaped = 0;
  float maxv = 0, maxy = -1e30f, p[3], st[13];
  uint32_t hash = 2166136261u; /* FNV-1a over the bits of every body's final state: two builds or
                                * thread counts that must agree bit for bit are compared by it */
  for (int i = 0; i < s.dyn_count; i++) {
    get_pos(&s, i, p);
    if (!(fabsf(p[0]) < inner && fabsf(p[2]) < inner && p[1] > 0 && p[1] < height)) escaped++;
    if (p[1] > maxy) maxy = p[1];
    tb_body_get_state(s.world, s.dyn[i], st);
    float v = sqrtf(st[7] * st[7] + st[8] * st[8] + st[9] * st[9]);
    if (!(v <= maxv)) maxv = v;
    const unsigned char* bytes = (const unsigned char*)st;
    for (size_t k = 0; k < sizeof st; k++) hash = (hash ^ bytes[k]) * 16777619u;
  }
  printf("\"pile\": {\"bodies\": %d, \"steps\": %d, \"window\": [%d, %d], \"median_ms\": %.6f, \"mean_ms\": %.6f, "
         "\"first_step_ms\": %.6f, \"escaped\": %d, \"max_speed\": %.6f, \"max_y\": %.6f, \"live_bytes\": %lld, "
         "\"state_hash\": \"%08x\"}",
         s.dyn_count, steps, steps / 2, steps, ms, last_mean_ms, first, escaped, maxv, maxy, (long long)tb_live_bytes(), hash);
  report_barriers("pile");
  free_scene(&s);
}

/* The tray: a 0.1 m plate on the ground box, S × S boxes (0.24 × 0.2 × 0.24 m) and spheres
 * (r 0.14 m) on it 0.32 m apart; the plate is 0.16·S + 0.1 m in half extent. */
static void bench_tray(int steps, int threads, int side) {
  scene s = {0};
  s.world = make_world(threads);
  const float half = 0.16f * (float)side + 0.1f;
  add_static_box(&s, 0, -0.5f, 0, half + 1, 0.5f, half + 1);
  const float plate[4] = {half, 0.05f, half, 0}, box[4] = {0.12f, 0.1f, 0.12f, 0}, sphere[4] = {0.14f, 0, 0, 0};
  add_body(&s, TB_BODY_DYNAMIC, 0, 0.05f, 0, TB_SHAPE_BOX, plate, 1000.0f);
  for (int i = 0; i < side * side; i++) {
    int b = i % 2;
    float x = -0.16f * (float)(side - 1) + 0.32f * (float)(i % side), z = -0.16f * (float)(side - 1) + 0.32f * (float)(i / side);
    add_body(&s, TB_BODY_DYNAMIC, x, 0.1f + (b ? 0.1f : 0.14f) + 0.01f * (float)(i % 3), z, b ? TB_SHAPE_BOX : TB_SHAPE_SPHERE,
             b ? box : sphere, 500.0f);
  }
  double ms = run_steps(&s, steps, steps / 2, 0);
  tb_step_stats st;
  tb_world_step_stats(s.world, &st);
  float p[3];
  get_pos(&s, 0, p);
  printf("\"tray\": {\"bodies\": %d, \"steps\": %d, \"window\": [%d, %d], \"median_ms\": %.6f, \"mean_ms\": %.6f, "
         "\"manifolds\": %d, \"overflow\": %d, \"plate_y\": %.6f, \"live_bytes\": %lld}",
         s.dyn_count, steps, steps / 2, steps, ms, last_mean_ms, st.manifold_count, st.overflow_constraints, p[1],
         (long long)tb_live_bytes());
  free_scene(&s);
}

/* The level: static tiles touching, spheres resting on them (scenes.mjs level()). */
static void bench_level(int steps, int threads, int tiles) {
  scene s = {0};
  s.world = make_world(threads);
  const float unit[4] = {0.5f, 0.5f, 0.5f, 0}, ball[4] = {0.3f, 0, 0, 0};
  for (int i = 0; i < tiles * tiles; i++) add_body(&s, TB_BODY_STATIC, (float)(i % tiles), -0.5f, (float)(i / tiles), TB_SHAPE_BOX, unit, 1.0f);
  for (int i = 0; i < 1000; i++) add_body(&s, TB_BODY_DYNAMIC, 2.0f * (float)(i % 30), 0.31f, 2.0f * (float)(i / 30), TB_SHAPE_SPHERE, ball, 500.0f);
  double ms = run_steps(&s, steps, steps / 2, 0);
  float p[3], low = 1e30f;
  for (int i = 0; i < s.dyn_count; i++) {
    get_pos(&s, i, p);
    if (!(p[1] >= low)) low = p[1];
  }
  printf("\"level\": {\"tiles\": %d, \"bodies\": %d, \"steps\": %d, \"window\": [%d, %d], \"median_ms\": %.6f, "
         "\"mean_ms\": %.6f, \"lowest_y\": %.6f, \"live_bytes\": %lld}",
         tiles * tiles, s.dyn_count, steps, steps / 2, steps, ms, last_mean_ms, low, (long long)tb_live_bytes());
  free_scene(&s);
}

static int find_field(tb_field_set set, const char* const* names) {
  int count = tb_field_count(set);
  for (const char* const* nm = names; *nm; nm++)
    for (int i = 0; i < count; i++) {
      const tb_field_info* f = tb_field_get(set, i);
      if (f && f->name && strcmp(f->name, *nm) == 0) return i;
    }
  return -1;
}

/* 1 kg sphere resting on the ground, 120 steps: contact normal impulse / dt against m·g. */
static void bench_readback(int threads) {
  const int steps = 120;
  scene s = {0};
  s.world = make_world(threads);
  add_static_box(&s, 0, -0.5f, 0, 50, 0.5f, 50);
  const float r = 0.5f, sphere[4] = {r, 0, 0, 0};
  const float density = (float)(1.0 / (4.0 / 3.0 * PI_D * r * r * r));
  tb_body_id b = add_body(&s, TB_BODY_DYNAMIC, 0, r, 0, TB_SHAPE_SPHERE, sphere, density);
  run_steps(&s, steps, steps, 0);
  float mass[13] = {0};
  tb_body_get_mass(s.world, b, mass);
  static const char* const imp_names[] = {"normal_impulse", NULL};
  static const char* const b0_names[] = {"body0", "body_0", NULL};
  static const char* const b1_names[] = {"body1", "body_1", NULL};
  int fi = find_field(TB_FIELDS_CONTACT, imp_names);
  int f0 = find_field(TB_FIELDS_CONTACT, b0_names), f1 = find_field(TB_FIELDS_CONTACT, b1_names);
  tb_contact_status cs;
  memset(&cs, 0, sizeof cs);
  int rc = tb_world_contact_status(s.world, &cs);
  printf("\"readback\": {\"steps\": %d, \"mass\": %.6f, ", steps, mass[0]);
  if (fi < 0 || f0 < 0 || f1 < 0 || rc != TB_OK) {
    printf("\"unavailable\": \"contact fields normal_impulse/body0/body1 not found or contact status failed\"}");
  } else {
    const float* imp = (const float*)tb_world_field(s.world, TB_FIELDS_CONTACT, fi);
    const int32_t* b0 = (const int32_t*)tb_world_field(s.world, TB_FIELDS_CONTACT, f0);
    const int32_t* b1 = (const int32_t*)tb_world_field(s.world, TB_FIELDS_CONTACT, f1);
    double sum = 0;
    int points = 0;
    int32_t slot = b & 0xFFFFF;
    for (int i = 0; i < cs.count; i++) {
      if (b0[i] == b || b1[i] == b || b0[i] == slot || b1[i] == slot) { sum += imp[i]; points++; }
    }
    printf("\"impulse\": %.9g, \"points\": %d, \"readback_valid\": %d, \"ratio\": %.6f}", sum, points,
           cs.readback_valid, sum / DT / 9.81);
  }
  free_scene(&s);
}

/* --ab T: the thread governor against fixed threads. Three worlds of the same scene, built with
 * 1 thread, T threads fixed (tb_world_set_adaptive_threads 0) and T threads adaptive, step in
 * turns of AB_BLOCK steps (so machine load falls on all three alike and the pool's workers see
 * a world's own pace); ms/step median and mean over the second half, and whether the adaptive
 * world ended serial. --hog adds a busy child process for the whole run. */
#define AB_BLOCK 25
static void bench_ab(const char* name, int steps, int threads, int side) {
  scene sc[3] = {{0}};
  const char* label[3] = {"one", "fixed", "adaptive"};
  double* t[3];
  int n[3] = {0, 0, 0};
  for (int k = 0; k < 3; k++) {
    adaptive = k == 2;
    if (!strcmp(name, "pyramid")) build_pyramid(&sc[k], k ? threads : 1, 20);
    else build_pile(&sc[k], k ? threads : 1, side);
    t[k] = malloc(sizeof(double) * (size_t)steps);
  }
  for (int b = 0; b < steps; b += AB_BLOCK)
    for (int k = 0; k < 3; k++)
      for (int i = b; i < b + AB_BLOCK && i < steps; i++) {
        double t0 = now_ms();
        int rc = tb_world_step(sc[k].world);
        double t1 = now_ms();
        if (rc != TB_OK) fail(sc[k].world, "tb_world_step", rc);
        if (i >= steps / 2) t[k][n[k]++] = t1 - t0;
      }
  int32_t adaptive_on = 0, serial = 0;
  double switches = 0;
  tb_world_thread_mode(sc[2].world, &adaptive_on, &serial, &switches);
  printf("\"%s\": {", name);
  for (int k = 0; k < 3; k++) {
    double sum = 0;
    for (int i = 0; i < n[k]; i++) sum += t[k][i];
    printf("\"%s\": {\"median_ms\": %.6f, \"mean_ms\": %.6f}, ", label[k], median(t[k], n[k]), n[k] ? sum / n[k] : 0);
    free(t[k]);
    free_scene(&sc[k]);
  }
  printf("\"adaptive_serial_at_end\": %s, \"adaptive_switches\": %.0f}", serial ? "true" : "false", switches);
  adaptive = 1;
}

static pid_t hog_pid = -1;
static void stop_hog(void) { if (hog_pid > 0) kill(hog_pid, SIGKILL); }

int main(int argc, char** argv) {
  int steps = 600, threads = 0, side = 10, ab = 0, hog = 0;
  const char* scenes = "pyramid,pile,readback";
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--steps") && i + 1 < argc) steps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--scenes") && i + 1 < argc) scenes = argv[++i];
    else if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--side") && i + 1 < argc) side = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--count") && i + 1 < argc && sscanf(argv[i + 1], "%d:%d", &count_from, &count_to) == 2) ++i;
    else if (!strcmp(argv[i], "--adaptive") && i + 1 < argc) adaptive = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--ab") && i + 1 < argc) ab = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--hog")) hog = 1;
    else if (!strcmp(argv[i], "--preset") && i + 1 < argc) {
      const char* name = argv[++i];
      for (int k = 0; k < TB_PRESET_COUNT; ++k)
        if (!strcmp(name, preset_names[k])) preset = k;
      if (preset < 0) {
        fprintf(stderr, "native_bench: unknown preset %s\n", name);
        return 2;
      }
    }
    else { fprintf(stderr, "usage: %s [--steps N] [--scenes pyramid,pile,readback,tray,level] [--threads T] [--side S] [--count A:B] [--adaptive 0|1] [--ab T [--hog]] [--preset NAME]\n", argv[0]); return 1; }
  }
  if (hog) {
    hog_pid = fork();
    if (hog_pid == 0) for (volatile unsigned long x = 0;; ++x) {}
    atexit(stop_hog);
  }
  if (ab > 1) {
    printf("{\"build\": \"native\", \"ab_threads\": %d, \"hog\": %s, \"scenes\": {", ab, hog ? "true" : "false");
    int first = 1;
    if (strstr(scenes, "pyramid")) { bench_ab("pyramid", steps, ab, side); first = 0; }
    if (strstr(scenes, "pile")) { if (!first) printf(", "); bench_ab("pile", steps, ab, side); }
    printf("}}\n");
    return 0;
  }
  if (steps < 2) steps = 2;
  if (side < 1) side = 1;
  printf("{\"build\": \"native\", \"max_threads\": %d, \"scenes\": {", tb_max_threads());
  int first = 1;
  if (strstr(scenes, "pyramid")) { bench_pyramid(steps, threads, 20); first = 0; }
  if (strstr(scenes, "pile")) { if (!first) printf(", "); bench_pile(steps, threads, side); first = 0; }
  if (strstr(scenes, "readback")) { if (!first) printf(", "); bench_readback(threads); first = 0; }
  if (strstr(scenes, "tray")) { if (!first) printf(", "); bench_tray(steps, threads, side); first = 0; }
  if (strstr(scenes, "level")) { if (!first) printf(", "); bench_level(steps, threads, 10 * side); }
  printf("}}\n");
  return 0;
}
