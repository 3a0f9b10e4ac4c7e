/* Tribo collision benchmark: pair tests per second of the mesh and heightfield narrow phase.
 *
 *   make bench-mesh
 *
 * Scenes (fixed seeds, same every run):
 *   - mesh-vs-sphere: a 128 x 128 grid mesh (32 258 triangles, 0.25 m cells, bumps of ±0.2 m) and
 *     spheres of radius 0.3 m placed just touching the surface at 4096 positions;
 *   - heightfield-vs-box: a 256 x 256 heightfield (0.25 m cells, same bumps) and boxes of half
 *     extents (0.5, 0.3, 0.4) m, randomly rotated, penetrating by up to 5 cm at 4096 positions.
 * Each pair is tested through tb_collide (BVH / cell query, per-triangle tests, merging and
 * reduction) with max_separation 0.02 m. Reports the median over 5 rounds of pairs per second,
 * and the average contact points and candidates (points_found) per pair. Prints JSON. */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "collision/narrow_phase.h"
#include "geometry/triangle_mesh.h"

#define PAIRS 4096
#define ROUNDS 5
#define REPEAT 20

static uint32_t s_rng = 0x9E3779B9u;
static float frand01(void) {
  s_rng ^= s_rng << 13;
  s_rng ^= s_rng >> 17;
  s_rng ^= s_rng << 5;
  return (float)(s_rng >> 8) * (1.0f / 16777216.0f);
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static float bump(float x, float z) { return 0.2f * sinf(0.7f * x) * cosf(0.9f * z); }

static int cmp_double(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

typedef struct result { double pairs_per_s, points, found; } result;

static result run(const tb_shape_geom* convex, const tb_transform* poses, const tb_shape_geom* surf) {
  double rate[ROUNDS];
  long points = 0, found = 0;
  tb_transform ts = {{0, 0, 0}, {0, 0, 0, 1}};
  for (int r = 0; r < ROUNDS; ++r) {
    points = found = 0;
    double t0 = now_s();
    for (int k = 0; k < REPEAT; ++k)
      for (int i = 0; i < PAIRS; ++i) {
        tb_manifold m;
        tb_collide(convex, poses[i], surf, ts, 0.02f, &m);
        points += m.point_count;
        found += m.points_found;
      }
    rate[r] = (double)(PAIRS * REPEAT) / (now_s() - t0);
  }
  qsort(rate, ROUNDS, sizeof(double), cmp_double);
  result res = {rate[ROUNDS / 2], (double)points / (PAIRS * REPEAT), (double)found / (PAIRS * REPEAT)};
  return res;
}

int main(void) {
  static tb_transform poses[PAIRS];
  /* mesh */
  int n = 128;
  float cell = 0.25f;
  float* v = (float*)malloc(sizeof(float) * 3 * (size_t)(n * n));
  int32_t* idx = (int32_t*)malloc(sizeof(int32_t) * 6 * (size_t)((n - 1) * (n - 1)));
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      float x = ((float)c - 0.5f * (float)(n - 1)) * cell, z = ((float)r - 0.5f * (float)(n - 1)) * cell;
      v[3 * (r * n + c)] = x; v[3 * (r * n + c) + 1] = bump(x, z); v[3 * (r * n + c) + 2] = z;
    }
  int t = 0;
  for (int r = 0; r < n - 1; ++r)
    for (int c = 0; c < n - 1; ++c) {
      int s00 = r * n + c, s01 = s00 + 1, s10 = s00 + n, s11 = s10 + 1;
      int32_t* x = idx + 6 * t++;
      x[0] = s00; x[1] = s10; x[2] = s11; x[3] = s00; x[4] = s11; x[5] = s01;
    }
  tb_mesh_data* mesh;
  int32_t bad;
  if (tb_mesh_data_create(v, n * n, idx, 2 * t, &mesh, &bad) != TB_MESH_OK) return 1;
  tb_shape_geom gm = {TB_SHAPE_MESH, {0}, mesh};
  tb_shape_geom sphere = {TB_SHAPE_SPHERE, {0.3f, 0, 0, 0}, NULL};
  float half = 0.5f * (float)(n - 1) * cell - 1.0f;
  for (int i = 0; i < PAIRS; ++i) {
    float x = (2.0f * frand01() - 1.0f) * half, z = (2.0f * frand01() - 1.0f) * half;
    tb_transform p = {{x, bump(x, z) + 0.3f - 0.01f, z}, {0, 0, 0, 1}};
    poses[i] = p;
  }
  result rs = run(&sphere, poses, &gm);

  /* heightfield */
  int hn = 256;
  float* h = (float*)malloc(sizeof(float) * (size_t)(hn * hn));
  for (int r = 0; r < hn; ++r)
    for (int c = 0; c < hn; ++c)
      h[r * hn + c] = bump(((float)c - 0.5f * (float)(hn - 1)) * cell, ((float)r - 0.5f * (float)(hn - 1)) * cell);
  tb_heightfield_data* hf = tb_heightfield_data_create(hn, hn, h, cell, cell);
  tb_shape_geom ghf = {TB_SHAPE_HEIGHTFIELD, {cell, cell, (float)hn, (float)hn}, hf};
  tb_shape_geom box = {TB_SHAPE_BOX, {0.5f, 0.3f, 0.4f, 0}, NULL};
  half = 0.5f * (float)(hn - 1) * cell - 1.5f;
  for (int i = 0; i < PAIRS; ++i) {
    float x = (2.0f * frand01() - 1.0f) * half, z = (2.0f * frand01() - 1.0f) * half;
    float ax = frand01() - 0.5f, ay = frand01() - 0.5f, az = frand01() - 0.5f, ang = 0.6f * frand01();
    float depth = 0.05f * frand01();
    tb_transform p = {{x, bump(x, z) + 0.3f - depth, z}, tb_quat_axis_angle(tb_v3(ax, ay, az), ang)};
    poses[i] = p;
  }
  result rb = run(&box, poses, &ghf);

  printf("{\n  \"mesh_vs_sphere\": {\"triangles\": %d, \"pairs_per_s\": %.0f, \"points_per_pair\": %.2f, \"candidates_per_pair\": %.2f},\n",
         2 * t, rs.pairs_per_s, rs.points, rs.found);
  printf("  \"heightfield_vs_box\": {\"cells\": %d, \"pairs_per_s\": %.0f, \"points_per_pair\": %.2f, \"candidates_per_pair\": %.2f}\n}\n",
         (hn - 1) * (hn - 1), rb.pairs_per_s, rb.points, rb.found);
  tb_mesh_data_free(mesh);
  tb_heightfield_data_free(hf);
  free(v);
  free(idx);
  free(h);
  return 0;
}
