/* Collision micro-benchmarks: narrow-phase pair tests per second for every convex pair type
 * (poses near contact, as in a resting scene), and hull support queries by support field vs
 * exact vertex scan at 10 to 10 000 vertices. Prints a markdown section for bench/RESULTS.md.
 * Build and run: make bench-collision. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../src/collision/convex.h"
#include "../src/geometry/hull.h"
#include "../src/geometry/support_field.h"

#define TB_TEST_SEED 0xBE7C4u
#include "../tests/c/test_random.h"

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Hull of n points on an ellipsoid-ish surface (all of them vertices in general position). */
static tb_hull* sphere_hull(int n, int field_res) {
  float* p = (float*)malloc(sizeof(float) * 3 * (size_t)n);
  for (int i = 0; i < n; ++i) {
    /* Fibonacci sphere: evenly spread, every point a vertex */
    float z = 1.0f - 2.0f * ((float)i + 0.5f) / (float)n, a = 2.39996323f * (float)i, r = sqrtf(1.0f - z * z);
    p[3 * i] = 0.5f * r * cosf(a); p[3 * i + 1] = 0.4f * z; p[3 * i + 2] = 0.45f * r * sinf(a);
  }
  tb_hull_error err;
  tb_hull* h = tb_hull_build(p, n, field_res, &err);
  free(p);
  if (!h) { fprintf(stderr, "hull of %d points: %s\n", n, err.message); exit(1); }
  return h;
}

#define POSES 256

int main(void) {
  tb_hull* cube = NULL;
  {
    float p[24];
    for (int i = 0; i < 8; ++i) { p[3 * i] = (i & 1) ? 0.4f : -0.4f; p[3 * i + 1] = (i & 2) ? 0.3f : -0.3f; p[3 * i + 2] = (i & 4) ? 0.35f : -0.35f; }
    tb_hull_error err;
    cube = tb_hull_build(p, 8, 0, &err);
  }
  tb_hull* round = sphere_hull(200, -1); /* >= 64 vertices: the default support field */
  const struct { const char* name; tb_shape_geom g; } shapes[] = {
      {"plane", {TB_SHAPE_PLANE, {0, 1, 0, 0}, NULL}},
      {"sphere", {TB_SHAPE_SPHERE, {0.4f, 0, 0, 0}, NULL}},
      {"capsule", {TB_SHAPE_CAPSULE, {0.25f, 0.4f, 0, 0}, NULL}},
      {"box", {TB_SHAPE_BOX, {0.4f, 0.3f, 0.35f, 0}, NULL}},
      {"cylinder", {TB_SHAPE_CYLINDER, {0.35f, 0.4f, 0, 0}, NULL}},
      {"ellipsoid", {TB_SHAPE_ELLIPSOID, {0.5f, 0.3f, 0.4f, 0}, NULL}},
      {"hull-8", {TB_SHAPE_HULL, {0, 0, 0, 0}, cube}},
      {"hull-200 (field)", {TB_SHAPE_HULL, {0, 0, 0, 0}, round}},
  };
  const int S = (int)(sizeof shapes / sizeof shapes[0]);
  tb_transform ta[POSES], tbp[POSES];
  printf("## Collision\n\n");
  printf("Written from `make bench-collision` (bench/collision_bench.c, native gcc -O2, one thread).\n");
  printf("Pair tests: %d random pose pairs with centres 0.4–1.0 m apart (most touch or overlap), each\n", POSES);
  printf("called repeatedly through `tb_collide` for about 0.2 s; the rate counts full manifolds (first point,\n");
  printf("multi-point rule, reduction). Plane pairs: the shape's centre 0–0.6 m above the plane.\n\n");
  printf("| pair | tests/s | mean points | share with contact |\n| --- | ---: | ---: | ---: |\n");
  volatile float sink = 0.0f;
  for (int i = 0; i < S; ++i)
    for (int j = i; j < S; ++j) {
      if (shapes[j].g.type == TB_SHAPE_PLANE) continue;
      for (int k = 0; k < POSES; ++k) {
        ta[k].p = tb_scale(rand_vec(), 0.1f);
        ta[k].q = rand_quat();
        tbp[k].p = tb_add(ta[k].p, tb_scale(rand_unit(), 0.4f + 0.6f * frand01()));
        tbp[k].q = rand_quat();
        if (shapes[i].g.type == TB_SHAPE_PLANE) {
          ta[k].p = tb_v3(0, 0, 0); ta[k].q = tb_quat_identity();
          tbp[k].p.y = 0.6f * frand01();
        }
      }
      long calls = 0, points = 0, hits = 0;
      double t0 = now_s(), t1 = t0;
      while (t1 - t0 < 0.2) {
        for (int k = 0; k < POSES; ++k) {
          tb_manifold m;
          int n = tb_collide(&shapes[i].g, ta[k], &shapes[j].g, tbp[k], 0.02f, &m);
          points += n;
          hits += n > 0;
          if (n) sink += m.points[0].separation;
        }
        calls += POSES;
        t1 = now_s();
      }
      printf("| %s – %s | %.3g | %.2f | %.0f%% |\n", shapes[i].name, shapes[j].name, (double)calls / (t1 - t0),
             (double)points / (double)calls, 100.0 * (double)hits / (double)calls);
    }
  printf("\nSupport queries on hulls of n points on an ellipsoid (Fibonacci lattice, every point a vertex):\n");
  printf("support field (resolution 180, 4-cell lookup) against the exact vertex scan, 4096 random unit\n");
  printf("directions in a loop for about 0.2 s each. \"worst gap\" is max over the directions of\n");
  printf("dot(scan, d) − dot(field, d) (m); the bound is the cell angle × hull diameter.\n\n");
  printf("| vertices | field lookups/s | scan lookups/s | field/scan | field exact | worst gap (m) | bound (m) | field memory (bytes) | build (s) |\n");
  printf("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  enum { D = 4096 };
  static tb_vec3 dirs[D];
  for (int k = 0; k < D; ++k) dirs[k] = rand_unit();
  const int counts[4] = {10, 100, 1000, 10000};
  for (int c = 0; c < 4; ++c) {
    double tb0 = now_s();
    tb_hull* h = sphere_hull(counts[c], 180);
    double build = now_s() - tb0;
    int exact = 0;
    float worst = 0.0f;
    for (int k = 0; k < D; ++k) {
      int32_t f = tb_support_field_lookup(h->field, h->vertices, dirs[k], NULL), s = tb_hull_support_scan(h, dirs[k]);
      exact += f == s;
      worst = fmaxf(worst, tb_dot(h->vertices[s], dirs[k]) - tb_dot(h->vertices[f], dirs[k]));
    }
    long nf = 0, ns = 0;
    double t0 = now_s(), t1 = t0;
    int32_t acc = 0;
    while (t1 - t0 < 0.2) {
      for (int k = 0; k < D; ++k) acc += tb_support_field_lookup(h->field, h->vertices, dirs[k], NULL);
      nf += D;
      t1 = now_s();
    }
    double rf = (double)nf / (t1 - t0);
    t0 = now_s(); t1 = t0;
    while (t1 - t0 < 0.2) {
      for (int k = 0; k < D; ++k) acc += tb_hull_support_scan(h, dirs[k]);
      ns += D;
      t1 = now_s();
    }
    double rs = (double)ns / (t1 - t0);
    sink += (float)acc;
    printf("| %d | %.3g | %.3g | %.2f | %.1f%% | %.2g | %.2g | %zu | %.3f |\n", h->vertex_count, rf, rs, rf / rs,
           100.0 * exact / D, (double)worst, (double)(2.0f * h->radius * tb_support_field_cell_angle(180)),
           h->field->bytes, build);
    tb_hull_free(h);
  }
  tb_hull_free(cube);
  tb_hull_free(round);
  fprintf(stderr, "(checksum %g)\n", (double)sink);
  return 0;
}
