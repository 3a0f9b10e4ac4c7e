/* Ray casts against heightfields and triangle meshes: a tilted planar terrain y = a·x + b·z built
 * both ways, against the closed-form ray–plane intersection; back faces and misses. */
#include <math.h>
#include <stdio.h>

#include "include/tribo.h"
#include "../../src/core/math.h"
#include "test_util.h"
#include "test_random.h"

static const float ID_Q[4] = {0, 0, 0, 1};
static const float ZERO[3] = {0, 0, 0};
static const float A = 0.2f, B = -0.1f; /* terrain slope: y = A x + B z */
#define N 33                              /* samples per side */
#define CELL 0.25f                        /* m */

static tb_world_id make_terrain(int mesh) {
  tb_world_def def = tb_default_world_def();
  tb_world_id w = tb_world_create(&def);
  CHECK(w >= 0);
  tb_body_id g = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  static float heights[N * N];
  static float verts[3 * N * N];
  static int32_t idx[6 * (N - 1) * (N - 1)];
  float half = 0.5f * (float)(N - 1) * CELL;
  for (int r = 0; r < N; ++r)
    for (int c = 0; c < N; ++c) {
      float x = (float)c * CELL - half, z = (float)r * CELL - half;
      heights[r * N + c] = A * x + B * z;
      verts[3 * (r * N + c)] = x;
      verts[3 * (r * N + c) + 1] = A * x + B * z;
      verts[3 * (r * N + c) + 2] = z;
    }
  int t = 0;
  for (int r = 0; r < N - 1; ++r)
    for (int c = 0; c < N - 1; ++c) { /* front side +y: counter-clockwise seen from above */
      int32_t s00 = r * N + c, s01 = s00 + 1, s10 = s00 + N, s11 = s10 + 1;
      int32_t tri[6] = {s00, s10, s11, s00, s11, s01};
      for (int k = 0; k < 6; ++k) idx[t++] = tri[k];
    }
  tb_shape_id s = mesh ? tb_shape_create_mesh(w, g, verts, N * N, idx, 2 * (N - 1) * (N - 1), ZERO, ID_Q, 0.5f, 0.0f)
                       : tb_shape_create_heightfield(w, g, N, N, heights, CELL, CELL, ZERO, ID_Q, 0.5f, 0.0f);
  CHECK(s >= 0);
  return w;
}

static void test_terrain(int mesh) {
  tb_world_id w = make_terrain(mesh);
  tb_vec3 n = tb_normalize(tb_v3(-A, 1.0f, -B));
  float half = 0.5f * (float)(N - 1) * CELL - 0.05f;
  int hits = 0;
  for (int i = 0; i < 400; ++i) {
    /* origin above the terrain, direction downwards (some grazing), landing inside the grid */
    float tx = half * frand(), tz = half * frand();
    tb_vec3 target = tb_v3(tx, A * tx + B * tz, tz);
    tb_vec3 dir = tb_normalize(tb_v3(frand(), -0.2f - frand01(), frand()));
    float back = 0.5f + 3.0f * frand01();
    tb_vec3 o = tb_sub(target, tb_scale(dir, back));
    if (fabsf(o.x) > half || fabsf(o.z) > half) continue; /* the terrain is finite */
    float od[3] = {o.x, o.y, o.z}, dd[3] = {dir.x, dir.y, dir.z};
    tb_ray_hit hit;
    int32_t r = tb_world_ray_cast(w, od, dd, INFINITY, NULL, &hit);
    CHECK(r == 1);
    if (r != 1) continue;
    ++hits;
    CHECK_NEAR(back, hit.distance, 2e-4);
    CHECK_NEAR(target.x, hit.point[0], 2e-4);
    CHECK_NEAR(target.y, hit.point[1], 2e-4);
    CHECK_NEAR(target.z, hit.point[2], 2e-4);
    CHECK_NEAR(n.x, hit.normal[0], 1e-5);
    CHECK_NEAR(n.y, hit.normal[1], 1e-5);
    CHECK_NEAR(n.z, hit.normal[2], 1e-5);
    /* max_distance short of the surface: no hit */
    CHECK(tb_world_ray_cast(w, od, dd, back - 0.01f, NULL, &hit) == 0);
  }
  CHECK(hits > 200);
  tb_ray_hit hit;
  /* from below, looking up: the back of the surface is not hit (front faces only) */
  float below[3] = {0.3f, -2.0f, 0.1f}, up[3] = {0, 1, 0};
  CHECK(tb_world_ray_cast(w, below, up, INFINITY, NULL, &hit) == 0);
  /* beside the terrain: miss; a long horizontal-ish ray across all cells above it: miss */
  float beside[3] = {20, 5, 0}, down[3] = {0, -1, 0};
  CHECK(tb_world_ray_cast(w, beside, down, INFINITY, NULL, &hit) == 0);
  float across[3] = {-10, 3, -10}, diag[3] = {1, 0, 1};
  CHECK(tb_world_ray_cast(w, across, diag, INFINITY, NULL, &hit) == 0);
  /* a shallow ray that crosses many cells before it meets the slope (the cell walk) */
  float far_o[3] = {-3.9f, 0.0f, 0.0f}, far_d[3] = {1.0f, 0.05f, 0.0f};
  CHECK(tb_world_ray_cast(w, far_o, far_d, INFINITY, NULL, &hit) == 1);
  /* the ray y = 0.05 (x + 3.9) meets y = A x at x = 0.05·3.9 / (A − 0.05) */
  float xh = 0.05f * 3.9f / (A - 0.05f);
  CHECK_NEAR(xh, hit.point[0], 1e-4);
  CHECK_NEAR(A * xh, hit.point[1], 1e-4);
  tb_world_destroy(w);
}

int main(void) {
  test_terrain(0);
  test_terrain(1);
  return tb_test_report("test_query_terrain");
}
