/* Broad-phase benchmark: time of the candidate-pair stage alone (tb_broad_phase: generator and
 * filter) for N moving AABBs, incremental sweep and prune against all pairs.
 *
 *   make bench-broadphase        (native gcc -O2, one thread)
 *
 * Scene: N dynamic unit cubes' AABBs (half extent 0.5 m) in a cube of side L chosen so that each
 * AABB overlaps about two others on average (L³ = 8 N / 2), moving at up to 2 m/s per axis with
 * dt = 1/60 s and reflecting at the walls. The AABBs are written straight into the world's shape
 * store each frame (no narrow phase runs); the timed call is tb_broad_phase(). Prints one line per
 * (generator, N): median and mean µs per frame over the timed frames, and the pair count. */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collision/broad_phase.h"
#include "step/step.h"
#include "api/api.h" /* tb_world_get: the world as a reader sees it */
#include "world/world.h"

#define WARMUP 20
#define FRAMES 200
#define DT (1.0f / 60.0f)

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

static int cmp_double(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static uint32_t s_rng = 0x2545F491u;
static float rnd01(void) {
  s_rng ^= s_rng << 13;
  s_rng ^= s_rng >> 17;
  s_rng ^= s_rng << 5;
  return (float)(s_rng >> 8) * (1.0f / 16777216.0f);
}

static void run(int n, int32_t generator, const char* name) {
  tb_world_def def = tb_default_world_def();
  def.gravity[1] = 0.0f;
  def.pair_capacity = 8 * n;
  tb_world_id id = tb_world_create(&def);
  float side = cbrtf(8.0f * (float)n / 2.0f);
  const float q[4] = {0, 0, 0, 1}, zero[3] = {0, 0, 0}, half[4] = {0.5f, 0.5f, 0.5f, 0};
  s_rng = 0x2545F491u;
  tb_vec3* pos = (tb_vec3*)malloc(sizeof(tb_vec3) * (size_t)n);
  tb_vec3* vel = (tb_vec3*)malloc(sizeof(tb_vec3) * (size_t)n);
  for (int i = 0; i < n; ++i) {
    float x = rnd01() * side, y = rnd01() * side, z = rnd01() * side;
    pos[i] = tb_v3(x, y, z);
    float vx = 4.0f * rnd01() - 2.0f, vy = 4.0f * rnd01() - 2.0f, vz = 4.0f * rnd01() - 2.0f;
    vel[i] = tb_v3(vx, vy, vz);
    float p[3] = {x, y, z};
    tb_body_id b = tb_body_create(id, TB_BODY_DYNAMIC, p, q);
    tb_shape_create(id, b, TB_SHAPE_BOX, half, zero, q, 0.5f, 0.0f, 1000.0f);
  }
  def.collision.broad_phase = generator;
  tb_world_set_collision(id, &def.collision);
  tb_world* w = tb_world_get(id);
  tb_world_collide(id); /* sizes the scratch arena and the sweep order */
  double* t = (double*)malloc(sizeof(double) * FRAMES);
  double sum = 0.0;
  long pairs = 0;
  for (int f = 0; f < WARMUP + FRAMES; ++f) {
    for (int i = 0; i < n; ++i) {
      tb_vec3 p = tb_add(pos[i], tb_scale(vel[i], DT));
      if (p.x < 0 || p.x > side) vel[i].x = -vel[i].x;
      if (p.y < 0 || p.y > side) vel[i].y = -vel[i].y;
      if (p.z < 0 || p.z > side) vel[i].z = -vel[i].z;
      pos[i] = p;
      w->shapes.aabb_lower[i] = tb_sub(p, tb_v3(0.5f, 0.5f, 0.5f));
      w->shapes.aabb_upper[i] = tb_add(p, tb_v3(0.5f, 0.5f, 0.5f));
    }
    tb_arena_reset(&w->arena);
    double t0 = now_us();
    const tb_step_context step = tb_step_context_of(w);
    tb_status st = tb_broad_phase(w, &step);
    double dt = now_us() - t0;
    if (st != TB_OK) { fprintf(stderr, "broad phase failed: %s\n", tb_last_error(id)); exit(1); }
    if (f >= WARMUP) {
      t[f - WARMUP] = dt;
      sum += dt;
      pairs += w->pair_count;
    }
  }
  qsort(t, FRAMES, sizeof(double), cmp_double);
  printf("%-10s N=%6d  median %9.1f us/frame  mean %9.1f us/frame  pairs/frame %8.1f  side %.1f m%s\n", name, n,
         t[FRAMES / 2], sum / FRAMES, (double)pairs / FRAMES, (double)side, w->pairs_overflowed ? "  (pair overflow!)" : "");
  free(t);
  free(pos);
  free(vel);
  tb_world_destroy(id);
}

int main(void) {
  run(1000, TB_BROAD_PHASE_SAP, "sap");
  run(1000, TB_BROAD_PHASE_ALL_PAIRS, "all-pairs");
  run(10000, TB_BROAD_PHASE_SAP, "sap");
  return 0;
}
