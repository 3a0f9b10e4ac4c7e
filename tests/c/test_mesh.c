/* Tests of heightfields, triangle meshes, the BVH, contact reduction and compound bodies:
 * closed-form contacts of spheres, capsules and boxes on flat and tilted surfaces (incl. cell
 * edges and vertices), the internal-edge rule on a rolling sphere, the BVH against brute force,
 * the reduction rule and bound, compound mass and per-child contacts, input validation. */
#include "../../src/collision/contact_reduction.h"
#include "../../src/collision/narrow_phase.h"
#include "../../src/geometry/bvh.h"
#include "../../src/geometry/triangle_mesh.h"
#include "../../src/api/api.h" /* tb_world_get: the world as a reader sees it */
#include "../../src/world/world.h"
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TB_TEST_SEED 0xBADC0DEu
#include "test_random.h"

#define MS 0.05f
static const float ZERO[3] = {0, 0, 0};
static const float ID_Q[4] = {0, 0, 0, 1};

static int contact_field(const char* name) {
  for (int i = 0; i < tb_field_count(TB_FIELDS_CONTACT); ++i)
    if (strcmp(tb_field_get(TB_FIELDS_CONTACT, i)->name, name) == 0) return i;
  return -1;
}

/* ---- geometry builders ---- */

/* A rows x cols grid (same layout as a heightfield) as an indexed mesh; heights from fn(x, z). */
typedef float (*height_fn)(float x, float z);
static float flat_03(float x, float z) { (void)x; (void)z; return 0.3f; }
#define SLOPE_K 0.4f
static float slope(float x, float z) { (void)z; return SLOPE_K * x; }

static float* grid_heights(int rows, int cols, float cx, float cz, height_fn f) {
  float* h = (float*)malloc(sizeof(float) * (size_t)(rows * cols));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      h[r * cols + c] = f(((float)c - 0.5f * (float)(cols - 1)) * cx, ((float)r - 0.5f * (float)(rows - 1)) * cz);
  return h;
}

static tb_mesh_data* grid_mesh(int rows, int cols, float cx, float cz, height_fn f) {
  float* v = (float*)malloc(sizeof(float) * 3 * (size_t)(rows * cols));
  int32_t* idx = (int32_t*)malloc(sizeof(int32_t) * 6 * (size_t)((rows - 1) * (cols - 1)));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      float x = ((float)c - 0.5f * (float)(cols - 1)) * cx, z = ((float)r - 0.5f * (float)(rows - 1)) * cz;
      v[3 * (r * cols + c)] = x; v[3 * (r * cols + c) + 1] = f(x, z); v[3 * (r * cols + c) + 2] = z;
    }
  int t = 0;
  for (int r = 0; r < rows - 1; ++r)
    for (int c = 0; c < cols - 1; ++c) {
      int s00 = r * cols + c, s01 = s00 + 1, s10 = s00 + cols, s11 = s10 + 1;
      int32_t tri[6] = {s00, s10, s11, s00, s11, s01};
      memcpy(idx + 6 * t++, tri, sizeof tri);
    }
  tb_mesh_data* m;
  int32_t bad;
  int st = tb_mesh_data_create(v, rows * cols, idx, 2 * t, &m, &bad);
  CHECK(st == TB_MESH_OK);
  free(v);
  free(idx);
  return m;
}

static tb_transform pose(float x, float y, float z) {
  tb_transform t = {tb_v3(x, y, z), tb_quat_identity()};
  return t;
}

/* ---- sphere on flat surfaces ---- */

/* Sphere of radius r at (x, yc, z) over a flat surface at height y0 (world): one point, normal
 * from the sphere down, separation yc - r - y0, surface point directly below the centre. */
static void check_sphere_flat(tb_shape_geom* surf, tb_transform ts, float y0, float x, float z, float gap) {
  float r = 0.5f;
  tb_shape_geom sph = {TB_SHAPE_SPHERE, {r, 0, 0, 0}, NULL};
  tb_transform tsp = pose(x, y0 + r + gap, z);
  tb_manifold m;
  int n = tb_collide(&sph, tsp, surf, ts, MS, &m);
  CHECK_NEAR(1, n, 0);
  if (n < 1) return;
  CHECK_VEC_NEAR(tb_v3(0, -1, 0), m.normal, 1e-5);
  CHECK_NEAR(gap, m.points[0].separation, 1e-5);
  CHECK_VEC_NEAR(tb_v3(x, y0 + gap, z), m.points[0].point0, 1e-5); /* on the sphere */
  CHECK_VEC_NEAR(tb_v3(x, y0, z), m.points[0].point1, 1e-5);       /* on the surface */
  /* the same contact from the other side */
  tb_manifold m2;
  CHECK_NEAR(1, tb_collide(surf, ts, &sph, tsp, MS, &m2), 0);
  CHECK_VEC_NEAR(tb_v3(0, 1, 0), m2.normal, 1e-5);
  CHECK_NEAR(gap, m2.points[0].separation, 1e-5);
}

static void test_sphere_flat(void) {
  int rows = 5, cols = 6;
  float cx = 1.0f, cz = 0.5f;
  float* h = grid_heights(rows, cols, cx, cz, flat_03);
  tb_heightfield_data* hf = tb_heightfield_data_create(rows, cols, h, cx, cz);
  tb_mesh_data* mesh = grid_mesh(rows, cols, cx, cz, flat_03);
  tb_shape_geom ghf = {TB_SHAPE_HEIGHTFIELD, {cx, cz, (float)rows, (float)cols}, hf};
  tb_shape_geom gm = {TB_SHAPE_MESH, {0}, mesh};
  tb_transform ts = pose(1.0f, -2.0f, 0.25f);
  float y0 = 0.3f - 2.0f;
  /* cell interior, on a cell edge along x, along z, on a diagonal, on a vertex, at a border edge */
  const float xz[][2] = {{0.3f, 0.1f}, {0.5f, 0.1f}, {0.3f, 0.25f}, {0.25f, 0.125f}, {0.5f, 0.25f}, {1.5f, 0.5f}, {0.0f, 0.0f}};
  const float gaps[] = {-0.02f, 0.0f, 0.03f};
  for (int g = 0; g < 3; ++g)
    for (unsigned i = 0; i < sizeof xz / sizeof xz[0]; ++i) {
      float x = ts.p.x + xz[i][0], z = ts.p.z + xz[i][1];
      check_sphere_flat(&ghf, ts, y0, x, z, gaps[g]);
      check_sphere_flat(&gm, ts, y0, x, z, gaps[g]);
    }
  /* beyond max_separation: nothing; outside the grid: nothing */
  tb_shape_geom sph = {TB_SHAPE_SPHERE, {0.5f, 0, 0, 0}, NULL};
  tb_manifold m;
  CHECK_NEAR(0, tb_collide(&sph, pose(1.3f, y0 + 0.5f + 0.06f, 0.3f), &ghf, ts, MS, &m), 0);
  CHECK_NEAR(0, tb_collide(&sph, pose(1.0f + 3.6f, y0 + 0.4f, 0.3f), &ghf, ts, MS, &m), 0);
  CHECK_NEAR(0, tb_collide(&sph, pose(1.0f + 3.6f, y0 + 0.4f, 0.3f), &gm, ts, MS, &m), 0);
  /* sphere just beyond the border edge, within max_separation: the border edge is active, so
   * the normal points from the edge to the centre (not straight down) */
  float xe = ts.p.x + 2.5f; /* border at local x = 2.5 */
  float d = sqrtf(0.3f * 0.3f + 0.3f * 0.3f);
  for (int s = 0; s < 2; ++s)
    for (int at_vertex = 0; at_vertex < 2; ++at_vertex) {
      tb_manifold me;
      int ne = tb_collide(&sph, pose(xe + 0.3f, y0 + 0.3f, at_vertex ? 0.25f : 0.5f), s ? &gm : &ghf, ts, MS, &me);
      CHECK_NEAR(1, ne, 0);
      CHECK_NEAR(d - 0.5f, me.points[0].separation, 1e-5);
      CHECK_VEC_NEAR(tb_v3(-0.3f / d, -0.3f / d, 0.0f), me.normal, 1e-5);
    }
  tb_heightfield_data_free(hf);
  tb_mesh_data_free(mesh);
  free(h);
}

/* A query box with NaN sides: a convex whose box in the field's frame is inf · 0 on a side (here a
 * capsule of infinite half-height along the field's y, which |R|·extent turns into NaN in x and
 * z; the fuzzer reached the same through poses beyond float range, tests/fuzz/corpus). The NaN
 * reached the cell range's float-to-int conversion, undefined behaviour: `make asan` (UBSan,
 * no recovery) aborts here before the fix. Now a NaN side spans the whole field and the call
 * returns a point count in range. */
static void test_nan_query_box(void) {
  int rows = 4, cols = 4;
  float cx = 0.25f, cz = 0.25f;
  float* h = grid_heights(rows, cols, cx, cz, flat_03);
  tb_heightfield_data* hf = tb_heightfield_data_create(rows, cols, h, cx, cz);
  tb_shape_geom ghf = {TB_SHAPE_HEIGHTFIELD, {cx, cz, (float)rows, (float)cols}, hf};
  tb_shape_geom cap = {TB_SHAPE_CAPSULE, {0.2f, INFINITY, 0.0f, 0.0f}, NULL};
  tb_manifold m;
  int n = tb_collide(&cap, pose(0.1f, 0.3f, -0.1f), &ghf, pose(0, 0, 0), MS, &m);
  CHECK(n >= 0 && n <= TB_MAX_MANIFOLD_POINTS);
  tb_heightfield_data_free(hf);
  free(h);
}

/* ---- sphere on a tilted heightfield: the normal is the slope normal everywhere ---- */

static void test_sphere_tilted(void) {
  int rows = 6, cols = 7;
  float cx = 0.5f, cz = 0.4f;
  float* h = grid_heights(rows, cols, cx, cz, slope);
  tb_heightfield_data* hf = tb_heightfield_data_create(rows, cols, h, cx, cz);
  tb_mesh_data* mesh = grid_mesh(rows, cols, cx, cz, slope);
  tb_shape_geom ghf = {TB_SHAPE_HEIGHTFIELD, {cx, cz, (float)rows, (float)cols}, hf};
  tb_shape_geom gm = {TB_SHAPE_MESH, {0}, mesh};
  /* every edge of a planar grid is flat: all internal edges inactive */
  for (int t = 0; t < 2 * (rows - 1) * (cols - 1); ++t) {
    int r = (t / 2) / (cols - 1), c = (t / 2) % (cols - 1);
    int interior = r > 0 && r < rows - 2 && c > 0 && c < cols - 2;
    if (interior) CHECK_NEAR(0, hf->edge_active[t], 0);
  }
  tb_vec3 ns = tb_normalize(tb_v3(-SLOPE_K, 1.0f, 0.0f));
  float r = 0.3f;
  const float xz[][2] = {{0.1f, 0.05f}, {0.25f, 0.2f}, {0.0f, 0.0f}, {0.25f, 0.0f}, {-0.5f, 0.2f}, {0.13f, 0.13f}};
  tb_shape_geom sph = {TB_SHAPE_SPHERE, {r, 0, 0, 0}, NULL};
  for (unsigned i = 0; i < sizeof xz / sizeof xz[0]; ++i)
    for (int s = 0; s < 2; ++s) {
      tb_shape_geom* g = s ? &gm : &ghf;
      tb_vec3 surf = tb_v3(xz[i][0], slope(xz[i][0], xz[i][1]), xz[i][1]);
      float pen = 0.015f;
      tb_vec3 c = tb_add(surf, tb_scale(ns, r - pen));
      tb_manifold m;
      int n = tb_collide(&sph, pose(c.x, c.y, c.z), g, pose(0, 0, 0), MS, &m);
      CHECK_NEAR(1, n, 0);
      CHECK_VEC_NEAR(tb_neg(ns), m.normal, 1e-5);
      CHECK_NEAR(-pen, m.points[0].separation, 1e-5);
      CHECK_VEC_NEAR(surf, m.points[0].point1, 1e-5);
      /* the same configuration moved by a random rigid motion: same separation, moved normal */
      tb_transform g2 = {tb_scale(rand_vec(), 5.0f), rand_quat()};
      tb_manifold m2;
      n = tb_collide(&sph, tb_transform_mul(g2, pose(c.x, c.y, c.z)), g, g2, MS, &m2);
      CHECK_NEAR(1, n, 0);
      CHECK_VEC_NEAR(tb_rotate(g2.q, tb_neg(ns)), m2.normal, 1e-4);
      CHECK_NEAR(-pen, m2.points[0].separation, 1e-4);
      CHECK_VEC_NEAR(tb_transform_point(g2, surf), m2.points[0].point1, 1e-4);
    }
  tb_heightfield_data_free(hf);
  tb_mesh_data_free(mesh);
  free(h);
}

/* ---- box and capsule on a mesh floor ---- */

static void test_box_capsule_floor(void) {
  /* a floor of two triangles, 10 m square, at y = 0 */
  const float v[] = {-5, 0, -5, 5, 0, -5, 5, 0, 5, -5, 0, 5};
  const int32_t idx[] = {0, 2, 1, 0, 3, 2};
  tb_mesh_data* mesh;
  int32_t bad;
  CHECK(tb_mesh_data_create(v, 4, idx, 2, &mesh, &bad) == TB_MESH_OK);
  CHECK_VEC_NEAR(tb_v3(0, 1, 0), mesh->normals[0], 1e-6);
  tb_shape_geom gm = {TB_SHAPE_MESH, {0}, mesh};
  tb_shape_geom box = {TB_SHAPE_BOX, {0.5f, 0.25f, 0.4f, 0}, NULL};
  float pen = 0.01f;
  tb_transform tbx = {tb_v3(0.7f, 0.25f - pen, -0.3f), tb_quat_axis_angle(tb_v3(0, 1, 0), 0.3f)};
  tb_manifold m;
  int n = tb_collide(&box, tbx, &gm, pose(0, 0, 0), MS, &m);
  CHECK_NEAR(4, n, 0);
  CHECK_VEC_NEAR(tb_v3(0, -1, 0), m.normal, 1e-5);
  /* the four bottom corners, each at depth pen */
  for (int i = 0; i < n; ++i) {
    CHECK_NEAR(-pen, m.points[i].separation, 1e-5);
    tb_vec3 lp = tb_inv_transform_point(tbx, m.points[i].point0);
    CHECK_NEAR(0.5f, fabsf(lp.x), 1e-5);
    CHECK_NEAR(-0.25f, lp.y, 1e-5);
    CHECK_NEAR(0.4f, fabsf(lp.z), 1e-5);
  }
  /* capsule lying along x: two points at the segment ends */
  tb_shape_geom cap = {TB_SHAPE_CAPSULE, {0.2f, 0.6f, 0, 0}, NULL};
  tb_transform tc = {tb_v3(-1.0f, 0.2f - pen, 1.0f), tb_quat_axis_angle(tb_v3(0, 0, 1), 0.5f * TB_PI)};
  n = tb_collide(&cap, tc, &gm, pose(0, 0, 0), MS, &m);
  CHECK(n >= 2);
  CHECK_VEC_NEAR(tb_v3(0, -1, 0), m.normal, 1e-5);
  float xmin = 1e9f, xmax = -1e9f;
  for (int i = 0; i < n; ++i) {
    CHECK_NEAR(-pen, m.points[i].separation, 1e-5);
    xmin = fminf(xmin, m.points[i].point1.x);
    xmax = fmaxf(xmax, m.points[i].point1.x);
  }
  CHECK_NEAR(-1.6f, xmin, 1e-5);
  CHECK_NEAR(-0.4f, xmax, 1e-5);
  tb_mesh_data_free(mesh);

  /* box on a heightfield finer than the box: still 4 points, all at depth pen, found more */
  float* h = grid_heights(21, 21, 0.2f, 0.2f, flat_03);
  tb_heightfield_data* hf = tb_heightfield_data_create(21, 21, h, 0.2f, 0.2f);
  tb_shape_geom ghf = {TB_SHAPE_HEIGHTFIELD, {0.2f, 0.2f, 21, 21}, hf};
  tb_transform tb2 = {tb_v3(0.05f, 0.3f + 0.25f - pen, 0.03f), tb_quat_identity()};
  n = tb_collide(&box, tb2, &ghf, pose(0, 0, 0), MS, &m);
  CHECK_NEAR(4, n, 0);
  CHECK(m.points_found > 4);
  CHECK_VEC_NEAR(tb_v3(0, -1, 0), m.normal, 1e-5);
  for (int i = 0; i < n; ++i) CHECK_NEAR(-pen, m.points[i].separation, 1e-5);
  tb_heightfield_data_free(hf);
  free(h);
}

/* A capsule lying across many flat internal edges: every point at the true depth on the surface
 * below (the internal-edge rule: edge regions of flat edges take the face normal). */
static void test_capsule_across_edges(void) {
  int rows = 17, cols = 17;
  float cell = 0.25f;
  float* h = grid_heights(rows, cols, cell, cell, flat_03);
  tb_heightfield_data* hf = tb_heightfield_data_create(rows, cols, h, cell, cell);
  tb_mesh_data* mesh = grid_mesh(rows, cols, cell, cell, flat_03);
  tb_shape_geom ghf = {TB_SHAPE_HEIGHTFIELD, {cell, cell, (float)rows, (float)cols}, hf};
  tb_shape_geom gm = {TB_SHAPE_MESH, {0}, mesh};
  tb_shape_geom cap = {TB_SHAPE_CAPSULE, {0.2f, 0.6f, 0, 0}, NULL};
  float pen = 0.01f;
  for (int i = 0; i < 8; ++i) {
    float yaw = 0.37f * (float)i, x = 0.11f * (float)i - 0.4f, z = 0.07f * (float)i - 0.2f;
    tb_quat q = tb_quat_mul(tb_quat_axis_angle(tb_v3(0, 1, 0), yaw), tb_quat_axis_angle(tb_v3(0, 0, 1), 0.5f * TB_PI));
    tb_transform tc = {tb_v3(x, 0.3f + 0.2f - pen, z), q};
    for (int s = 0; s < 2; ++s) {
      tb_manifold m;
      int n = tb_collide(&cap, tc, s ? &gm : &ghf, pose(0, 0, 0), MS, &m);
      CHECK(n >= 2);
      CHECK_VEC_NEAR(tb_v3(0, -1, 0), m.normal, 1e-5);
      for (int k = 0; k < n; ++k) {
        CHECK_NEAR(-pen, m.points[k].separation, 1e-5);
        CHECK_NEAR(0.3f, m.points[k].point1.y, 1e-5);
      }
    }
  }
  tb_heightfield_data_free(hf);
  tb_mesh_data_free(mesh);
  free(h);
}

/* General convex shapes (tb_collide_convex per triangle): an upright cylinder on a fine flat
 * heightfield and a cube hull on a 2-triangle mesh floor touch with the face normal, at the
 * true depth, with several points. */
static void test_general_convex(void) {
  float* h = grid_heights(21, 21, 0.2f, 0.2f, flat_03);
  tb_heightfield_data* hf = tb_heightfield_data_create(21, 21, h, 0.2f, 0.2f);
  tb_shape_geom ghf = {TB_SHAPE_HEIGHTFIELD, {0.2f, 0.2f, 21, 21}, hf};
  tb_shape_geom cyl = {TB_SHAPE_CYLINDER, {0.3f, 0.4f, 0, 0}, NULL};
  float pen = 0.01f;
  for (int i = 0; i < 4; ++i) {
    tb_transform tc = {tb_v3(0.07f * (float)i, 0.3f + 0.4f - pen, -0.05f * (float)i), tb_quat_axis_angle(tb_v3(0, 1, 0), 0.4f * (float)i)};
    tb_manifold m;
    int n = tb_collide(&cyl, tc, &ghf, pose(0, 0, 0), MS, &m);
    CHECK(n >= 3);
    CHECK_VEC_NEAR(tb_v3(0, -1, 0), m.normal, 1e-4);
    for (int k = 0; k < n; ++k) {
      CHECK_NEAR(-pen, m.points[k].separation, 1e-4);
      /* on the bottom disc (perturbation points to within 1 mm) */
      tb_vec3 lp = tb_inv_transform_point(tc, m.points[k].point0);
      CHECK_NEAR(-0.4f, lp.y, 1e-4);
      CHECK(sqrtf(lp.x * lp.x + lp.z * lp.z) <= 0.3f + 1e-3f); /* GJK/MPR tolerance */
    }
  }
  tb_heightfield_data_free(hf);
  free(h);

  tb_world_def def = tb_default_world_def();
  tb_world_id w = tb_world_create(&def);
  tb_body_id ground = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  const float v[] = {-5, 0, -5, 5, 0, -5, 5, 0, 5, -5, 0, 5};
  const int32_t idx[] = {0, 2, 1, 0, 3, 2};
  CHECK(tb_shape_create_mesh(w, ground, v, 4, idx, 2, ZERO, ID_Q, 0.5f, 0.0f) >= 0);
  float pts[24];
  for (int i = 0; i < 8; ++i) {
    pts[3 * i] = i & 1 ? 0.3f : -0.3f;
    pts[3 * i + 1] = i & 2 ? 0.3f : -0.3f;
    pts[3 * i + 2] = i & 4 ? 0.3f : -0.3f;
  }
  float p[3] = {0.4f, 0.3f - pen, -0.2f};
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, p, ID_Q);
  CHECK(tb_shape_create_hull(w, b, pts, 8, ZERO, ID_Q, 0.5f, 0.0f, 1000.0f) >= 0);
  CHECK(tb_world_collide(w) == TB_OK);
  tb_contact_status st;
  tb_world_contact_status(w, &st);
  CHECK_NEAR(4, st.count, 0);
  const float* sep = (const float*)tb_world_field(w, TB_FIELDS_CONTACT, contact_field("separation"));
  const float* nrm = (const float*)tb_world_field(w, TB_FIELDS_CONTACT, contact_field("normal"));
  for (int i = 0; i < st.count; ++i) {
    CHECK_NEAR(-pen, sep[i], 1e-4);
    CHECK_NEAR(-1.0f, nrm[3 * i + 1], 1e-4);
  }
  tb_world_destroy(w);
}

/* More candidates than the gathering buffer (compaction while gathering): a 2 m box on 0.1 m
 * cells still gives 4 points at the true depth spanning the box's bottom face. */
static void test_many_candidates(void) {
  float* h = grid_heights(41, 41, 0.1f, 0.1f, flat_03);
  tb_heightfield_data* hf = tb_heightfield_data_create(41, 41, h, 0.1f, 0.1f);
  tb_shape_geom ghf = {TB_SHAPE_HEIGHTFIELD, {0.1f, 0.1f, 41, 41}, hf};
  tb_shape_geom box = {TB_SHAPE_BOX, {1.0f, 0.2f, 1.0f, 0}, NULL};
  float pen = 0.01f;
  tb_transform tb2 = {tb_v3(0.03f, 0.3f + 0.2f - pen, -0.02f), tb_quat_identity()};
  tb_manifold m;
  int n = tb_collide(&box, tb2, &ghf, pose(0, 0, 0), MS, &m);
  CHECK_NEAR(4, n, 0);
  CHECK(m.points_found > 64);
  float xmin = 1e9f, xmax = -1e9f, zmin = 1e9f, zmax = -1e9f;
  for (int i = 0; i < n; ++i) {
    CHECK_NEAR(-pen, m.points[i].separation, 1e-5);
    xmin = fminf(xmin, m.points[i].point0.x); xmax = fmaxf(xmax, m.points[i].point0.x);
    zmin = fminf(zmin, m.points[i].point0.z); zmax = fmaxf(zmax, m.points[i].point0.z);
  }
  /* the kept points span most of the 2 m x 2 m face (area maximisation) */
  CHECK((xmax - xmin) > 1.5f && (zmax - zmin) > 1.5f);
  tb_heightfield_data_free(hf);
  free(h);
}

/* Boxes and spheres on a bumpy heightfield, 1 and 2 threads: bitwise-identical states. */
static float bumpy(float x, float z) { return 0.15f * sinf(1.3f * x) * cosf(0.8f * z); }
static void run_terrain(int threads, float* out) {
  tb_world_def def = tb_default_world_def();
  def.thread_count = threads;
  tb_world_id w = tb_world_create(&def);
  tb_body_id ground = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  float* h = grid_heights(33, 33, 0.25f, 0.25f, bumpy);
  tb_shape_create_heightfield(w, ground, 33, 33, h, 0.25f, 0.25f, ZERO, ID_Q, 0.6f, 0);
  tb_body_id ids[24];
  for (int i = 0; i < 24; ++i) {
    float p[3] = {-2.5f + 1.1f * (float)(i % 5), 0.8f + 0.3f * (float)(i / 5), -2.0f + 0.9f * (float)(i % 4)};
    ids[i] = tb_body_create(w, TB_BODY_DYNAMIC, p, ID_Q);
    float bx[4] = {0.2f, 0.15f, 0.25f, 0}, sp[4] = {0.2f, 0, 0, 0};
    tb_shape_create(w, ids[i], i % 2 ? TB_SHAPE_BOX : TB_SHAPE_SPHERE, i % 2 ? bx : sp, ZERO, ID_Q, 0.6f, 0, 500);
  }
  for (int s = 0; s < 90; ++s) tb_world_step(w);
  for (int i = 0; i < 24; ++i) tb_body_get_state(w, ids[i], out + 13 * i);
  free(h);
  tb_world_destroy(w);
}
static void test_terrain_deterministic(void) {
  static float a[24 * 13], b[24 * 13];
  run_terrain(1, a);
  run_terrain(tb_max_threads() > 1 ? 2 : 1, b);
  CHECK(memcmp(a, b, sizeof a) == 0);
  int on_ground = 0;
  for (int i = 0; i < 24; ++i) on_ground += a[13 * i + 1] < 0.6f && a[13 * i + 1] > -0.2f;
  CHECK_NEAR(24, on_ground, 0); /* nothing fell through or flew off */
}

/* ---- contact reduction ---- */

static void test_reduction(void) {
  /* 5 x 5 grid of points in the plane y = 0 with separations; the deepest is at (1, 2) inside */
  tb_manifold_point cand[25];
  for (int i = 0; i < 25; ++i) {
    float x = (float)(i % 5), z = (float)(i / 5);
    cand[i].point0 = cand[i].point1 = tb_v3(x, 0, z);
    cand[i].separation = -0.01f - 0.001f * (float)(i % 3);
    cand[i].feature_id = 100u + (uint32_t)i;
    cand[i].active = 1;
  }
  cand[11].separation = -0.05f; /* (1, 2) */
  tb_vec3 n = tb_v3(0, 1, 0);
  int keep[4];
  for (int maxp = 1; maxp <= 4; ++maxp) {
    int k = tb_contact_reduce_select(cand, 25, n, maxp, keep);
    CHECK_NEAR(maxp, k, 0);
    int has_deepest = 0;
    for (int i = 0; i < k; ++i) has_deepest |= keep[i] == 11;
    CHECK(has_deepest);
    for (int i = 1; i < k; ++i) CHECK(keep[i] > keep[i - 1]);
  }
  /* 2 points: the deepest and the farthest from it in the plane: corner (4, 0) or (4, 4) */
  int k = tb_contact_reduce_select(cand, 25, n, 2, keep);
  CHECK(k == 2 && keep[0] == 4 && keep[1] == 11); /* (4, 0) and (4, 4) tie: the first */
  /* 4 points: deepest + 3 corners; the kept area is the best possible with the deepest kept:
   * triangle (1,2) excluded, the three corners (4,0), (4,4) and (0,0) or (0,4) */
  k = tb_contact_reduce_select(cand, 25, n, 4, keep);
  int corners = 0;
  for (int i = 0; i < k; ++i) corners += keep[i] == 0 || keep[i] == 4 || keep[i] == 20 || keep[i] == 24;
  CHECK_NEAR(3, corners, 0);
  /* manifold bound keeps feature ids and reports the count before */
  tb_manifold m;
  m.normal = n;
  m.point_count = 4;
  m.points_found = 0;
  for (int i = 0; i < 4; ++i) m.points[i] = cand[i == 3 ? 11 : 4 * i];
  CHECK_NEAR(2, tb_manifold_reduce(&m, 2), 0);
  CHECK_NEAR(4, m.points_found, 0);
  CHECK(m.points[0].feature_id == 111u || m.points[1].feature_id == 111u);
}

/* ---- BVH: the query visits exactly the boxes that overlap (random) ---- */

static int32_t s_hits[4096];
static int s_nhits;
static int collect(int32_t item, void* ctx) { (void)ctx; s_hits[s_nhits++] = item; return 1; }

static void test_bvh_random(void) {
  enum { N = 700 };
  tb_vec3 lo[N], hi[N];
  for (int i = 0; i < N; ++i) {
    tb_vec3 c = tb_scale(rand_vec(), 10.0f);
    tb_vec3 e = tb_v3(0.05f + frand01(), 0.05f + frand01(), 0.05f + frand01());
    lo[i] = tb_sub(c, e);
    hi[i] = tb_add(c, e);
  }
  tb_bvh bvh;
  CHECK(tb_bvh_build(&bvh, lo, hi, N));
  CHECK(bvh.node_count < 2 * N);
  int mismatches = 0, total = 0;
  for (int q = 0; q < 300; ++q) {
    tb_vec3 c = tb_scale(rand_vec(), 11.0f);
    tb_vec3 e = tb_v3(2.0f * frand01(), 2.0f * frand01(), 2.0f * frand01());
    tb_vec3 qlo = tb_sub(c, e), qhi = tb_add(c, e);
    s_nhits = 0;
    int32_t visited = tb_bvh_query(&bvh, qlo, qhi, collect, NULL);
    CHECK_NEAR(s_nhits, visited, 0);
    static uint8_t seen[N];
    memset(seen, 0, sizeof seen);
    for (int i = 0; i < s_nhits; ++i) {
      if (seen[s_hits[i]]) ++mismatches; /* no duplicates */
      seen[s_hits[i]] = 1;
    }
    for (int i = 0; i < N; ++i) {
      int ov = lo[i].x <= qhi.x && qlo.x <= hi[i].x && lo[i].y <= qhi.y && qlo.y <= hi[i].y && lo[i].z <= qhi.z && qlo.z <= hi[i].z;
      if (ov != seen[i]) ++mismatches;
      total += ov;
    }
  }
  CHECK_NEAR(0, mismatches, 0);
  CHECK(total > 300); /* the queries did hit something */
  tb_bvh_free(&bvh);
}

/* ---- world: rolling sphere, compound bodies, validation ---- */

static void test_rolling_no_ghost(void) {
  for (int use_mesh = 0; use_mesh < 2; ++use_mesh) {
    tb_world_def def = tb_default_world_def();
    tb_world_id w = tb_world_create(&def);
    tb_body_id ground = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
    int rows = 41, cols = 41;
    float cell = 0.25f;
    float* h = grid_heights(rows, cols, cell, cell, flat_03);
    if (use_mesh) {
      tb_mesh_data* tmp = grid_mesh(rows, cols, cell, cell, flat_03);
      CHECK(tb_shape_create_mesh(w, ground, (const float*)tmp->vertices, tmp->vertex_count, tmp->indices,
                                 tmp->triangle_count, ZERO, ID_Q, 0.8f, 0.0f) >= 0);
      tb_mesh_data_free(tmp);
    } else {
      CHECK(tb_shape_create_heightfield(w, ground, rows, cols, h, cell, cell, ZERO, ID_Q, 0.8f, 0.0f) >= 0);
    }
    float r = 0.2f, p[3] = {-4.0f, 0.3f + r, -3.0f}, sp[4] = {r, 0, 0, 0};
    tb_body_id ball = tb_body_create(w, TB_BODY_DYNAMIC, p, ID_Q);
    tb_shape_create(w, ball, TB_SHAPE_SPHERE, sp, ZERO, ID_Q, 0.8f, 0.0f, 1000.0f);
    float v[3] = {3.0f, 0.0f, 2.1f}, om[3] = {2.1f / r, 0.0f, -3.0f / r};
    tb_body_set_velocity(w, ball, v, om);
    int nf = contact_field("normal");
    float worst = 1.0f, ymax = 0.0f;
    int touching = 0;
    for (int s = 0; s < 150; ++s) {
      CHECK(tb_world_collide(w) == TB_OK);
      tb_contact_status st;
      tb_world_contact_status(w, &st);
      const float* nrm = (const float*)tb_world_field(w, TB_FIELDS_CONTACT, nf);
      for (int i = 0; i < st.count; ++i) worst = fminf(worst, -nrm[3 * i + 1]); /* shape0 = sphere: normal points down */
      touching += st.count > 0;
      CHECK(tb_world_solve(w) == TB_OK);
      float out[13];
      tb_body_get_state(w, ball, out);
      ymax = fmaxf(ymax, fabsf(out[1] - (0.3f + r)));
    }
    CHECK_NEAR(150, touching, 0);
    CHECK(worst > 0.999f);
    CHECK(ymax < 0.01f); /* no hop over the cell edges */
    free(h);
    tb_world_destroy(w);
  }
}

static void test_compound(void) {
  tb_world_def def = tb_default_world_def();
  tb_world_id w = tb_world_create(&def);
  tb_body_id ground = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  const float v[] = {-5, 0, -5, 5, 0, -5, 5, 0, 5, -5, 0, 5};
  const int32_t idx[] = {0, 2, 1, 0, 3, 2};
  tb_shape_id floor = tb_shape_create_mesh(w, ground, v, 4, idx, 2, ZERO, ID_Q, 0.6f, 0.0f);
  CHECK(floor >= 0);
  /* a box (1 x 0.5 x 1 m, 400 kg/m³) at x = -0.6 and a sphere (r = 0.25, 1000 kg/m³) at x = +0.7 */
  float bx[4] = {0.5f, 0.25f, 0.5f, 0}, sp[4] = {0.25f, 0, 0, 0};
  float pb[3] = {-0.6f, 0, 0}, ps[3] = {0.7f, 0, 0};
  float p0[3] = {0, 0.25f + 0.002f, 0};
  tb_body_id body = tb_body_create(w, TB_BODY_DYNAMIC, p0, ID_Q);
  tb_shape_id sb = tb_shape_create(w, body, TB_SHAPE_BOX, bx, pb, ID_Q, 0.6f, 0, 400.0f);
  tb_shape_id ss = tb_shape_create(w, body, TB_SHAPE_SPHERE, sp, ps, ID_Q, 0.6f, 0, 1000.0f);
  double mb = 400.0 * 1.0 * 0.5 * 1.0, ms = 1000.0 * 4.0 / 3.0 * 3.14159265358979 * 0.015625;
  double m = mb + ms, xc = (mb * -0.6 + ms * 0.7) / m;
  /* parallel-axis theorem about the common centre (axes y and z see the x offsets) */
  double ib_y = mb / 12.0 * (1.0 + 1.0), ib_z = mb / 12.0 * (1.0 + 0.25), is = 0.4 * ms * 0.0625;
  double iyy = ib_y + mb * (xc + 0.6) * (xc + 0.6) + is + ms * (0.7 - xc) * (0.7 - xc);
  double izz = ib_z + mb * (xc + 0.6) * (xc + 0.6) + is + ms * (0.7 - xc) * (0.7 - xc);
  double ixx = mb / 12.0 * (0.25 + 1.0) + is;
  float out[13];
  tb_body_get_mass(w, body, out);
  CHECK_NEAR(m, out[0], 1e-4 * m);
  CHECK_NEAR(xc, out[1], 1e-5);
  CHECK_NEAR(ixx, out[4], 1e-4 * ixx);
  CHECK_NEAR(iyy, out[8], 1e-4 * iyy);
  CHECK_NEAR(izz, out[12], 1e-4 * izz);
  /* drop it: contacts from both children, with their shape ids; at rest the normal impulses sum
   * to m g h */
  int f_s0 = contact_field("shape0"), f_s1 = contact_field("shape1"), f_ni = contact_field("normal_impulse");
  for (int s = 0; s < 180; ++s) CHECK(tb_world_step(w) == TB_OK);
  tb_contact_status st;
  tb_world_contact_status(w, &st);
  const int32_t* s0 = (const int32_t*)tb_world_field(w, TB_FIELDS_CONTACT, f_s0);
  const int32_t* s1 = (const int32_t*)tb_world_field(w, TB_FIELDS_CONTACT, f_s1);
  const float* ni = (const float*)tb_world_field(w, TB_FIELDS_CONTACT, f_ni);
  int from_box = 0, from_sphere = 0;
  double total = 0.0;
  for (int i = 0; i < st.count; ++i) {
    CHECK(s1[i] == floor);
    from_box += s0[i] == sb;
    from_sphere += s0[i] == ss;
    total += ni[i];
  }
  CHECK_NEAR(4, from_box, 0);
  CHECK_NEAR(1, from_sphere, 0);
  double mg = m * 9.81;
  CHECK_NEAR(mg, total / def.timestep, 0.01 * mg);
  tb_world_destroy(w);
}

/* A static body with several new shapes (a heightfield and a mesh side by side, each at its own
 * local pose): each sphere touches its own child shape, and the record names it. */
static void test_static_compound(void) {
  tb_world_def def = tb_default_world_def();
  tb_world_id w = tb_world_create(&def);
  float bp[3] = {0, -1, 0};
  tb_body_id ground = tb_body_create(w, TB_BODY_STATIC, bp, ID_Q);
  float* h = grid_heights(9, 9, 0.25f, 0.25f, flat_03);
  float left[3] = {-2, 0, 0}, right[3] = {2, 0.5f, 0};
  tb_shape_id hf = tb_shape_create_heightfield(w, ground, 9, 9, h, 0.25f, 0.25f, left, ID_Q, 0.5f, 0);
  const float v[] = {-1, 0, -1, 1, 0, -1, 1, 0, 1, -1, 0, 1};
  const int32_t idx[] = {0, 2, 1, 0, 3, 2};
  tb_shape_id mesh = tb_shape_create_mesh(w, ground, v, 4, idx, 2, right, ID_Q, 0.5f, 0);
  CHECK(hf >= 0 && mesh >= 0);
  float sp[4] = {0.2f, 0, 0, 0}, pa[3] = {-2.1f, -1 + 0.3f + 0.19f, 0.1f}, pb[3] = {2.2f, -1 + 0.5f + 0.19f, -0.3f};
  tb_body_id a = tb_body_create(w, TB_BODY_DYNAMIC, pa, ID_Q), b = tb_body_create(w, TB_BODY_DYNAMIC, pb, ID_Q);
  tb_shape_id sa = tb_shape_create(w, a, TB_SHAPE_SPHERE, sp, ZERO, ID_Q, 0.5f, 0, 1000);
  tb_shape_id sb = tb_shape_create(w, b, TB_SHAPE_SPHERE, sp, ZERO, ID_Q, 0.5f, 0, 1000);
  CHECK(tb_world_collide(w) == TB_OK);
  tb_contact_status st;
  tb_world_contact_status(w, &st);
  CHECK_NEAR(2, st.count, 0);
  const int32_t* s0 = (const int32_t*)tb_world_field(w, TB_FIELDS_CONTACT, contact_field("shape0"));
  const int32_t* s1 = (const int32_t*)tb_world_field(w, TB_FIELDS_CONTACT, contact_field("shape1"));
  const int32_t* b1 = (const int32_t*)tb_world_field(w, TB_FIELDS_CONTACT, contact_field("body1"));
  const float* sep = (const float*)tb_world_field(w, TB_FIELDS_CONTACT, contact_field("separation"));
  for (int i = 0; i < st.count; ++i) {
    CHECK((s0[i] == sa && s1[i] == hf) || (s0[i] == sb && s1[i] == mesh));
    CHECK_NEAR(-1, b1[i], 0); /* static body */
    CHECK_NEAR(-0.01f, sep[i], 1e-5);
  }
  free(h);
  tb_world_destroy(w);
}

static void test_points_found_in_world(void) {
  tb_world_def def = tb_default_world_def();
  tb_world_id wid = tb_world_create(&def);
  tb_body_id ground = tb_body_create(wid, TB_BODY_STATIC, ZERO, ID_Q);
  float* h = grid_heights(21, 21, 0.2f, 0.2f, flat_03);
  CHECK(tb_shape_create_heightfield(wid, ground, 21, 21, h, 0.2f, 0.2f, ZERO, ID_Q, 0.5f, 0.0f) >= 0);
  float bx[4] = {0.5f, 0.25f, 0.5f, 0}, p[3] = {0.05f, 0.3f + 0.25f - 0.01f, 0.02f};
  tb_body_id b = tb_body_create(wid, TB_BODY_DYNAMIC, p, ID_Q);
  tb_shape_create(wid, b, TB_SHAPE_BOX, bx, ZERO, ID_Q, 0.5f, 0, 100.0f);
  tb_collision_params cp = def.collision;
  for (int maxp = 4; maxp >= 1; --maxp) {
    cp.max_points_per_pair = maxp;
    CHECK(tb_world_set_collision(wid, &cp) == TB_OK);
    CHECK(tb_world_collide(wid) == TB_OK);
    tb_world* w = tb_world_get(wid);
    CHECK_NEAR(1, w->pair_count, 0);
    CHECK_NEAR(maxp, w->manifolds[0].point_count, 0);
    CHECK(w->manifolds[0].points_found > 4);
    /* the deepest point is always kept */
    float deepest = 0.0f;
    for (int i = 0; i < w->manifolds[0].point_count; ++i) deepest = fminf(deepest, w->manifolds[0].points[i].separation);
    CHECK_NEAR(-0.01f, deepest, 1e-5);
    tb_contact_status st;
    tb_world_contact_status(wid, &st);
    CHECK_NEAR(maxp, st.count, 0);
  }
  free(h);
  tb_world_destroy(wid);
}

static void test_validation(void) {
  tb_world_def def = tb_default_world_def();
  tb_world_id w = tb_world_create(&def);
  tb_body_id ground = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  tb_body_id dyn = tb_body_create(w, TB_BODY_DYNAMIC, ZERO, ID_Q);
  float h[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
  const float v[] = {0, 0, 0, 1, 0, 0, 0, 0, 1, 2, 0, 0};
  const int32_t idx[] = {0, 2, 1};
  int64_t live = tb_live_bytes();
#define EXPECT_FAIL(call, status, text)                                     \
  do {                                                                      \
    CHECK((call) == -(status));                                             \
    if (!strstr(tb_last_error(w), text)) fprintf(stderr, "message: %s\n", tb_last_error(w)); \
    CHECK(strstr(tb_last_error(w), text) != NULL);                          \
  } while (0)
  EXPECT_FAIL(tb_shape_create_heightfield(w, dyn, 3, 3, h, 1, 1, ZERO, ID_Q, 0.5f, 0), TB_ERR_INVALID_ARGUMENT, "may only belong to a static body");
  EXPECT_FAIL(tb_shape_create_heightfield(w, 999, 3, 3, h, 1, 1, ZERO, ID_Q, 0.5f, 0), TB_ERR_NOT_FOUND, "does not exist");
  EXPECT_FAIL(tb_shape_create_heightfield(w, ground, 1, 3, h, 1, 1, ZERO, ID_Q, 0.5f, 0), TB_ERR_INVALID_ARGUMENT, "rows must be in [2, 4096] (got 1)");
  EXPECT_FAIL(tb_shape_create_heightfield(w, ground, 3, 5000, h, 1, 1, ZERO, ID_Q, 0.5f, 0), TB_ERR_INVALID_ARGUMENT, "cols must be in [2, 4096] (got 5000)");
  EXPECT_FAIL(tb_shape_create_heightfield(w, ground, 3, 3, h, 0, 1, ZERO, ID_Q, 0.5f, 0), TB_ERR_INVALID_ARGUMENT, "cellSize[0] must be finite and > 0 (got 0)");
  EXPECT_FAIL(tb_shape_create_heightfield(w, ground, 3, 3, h, 1, -2, ZERO, ID_Q, 0.5f, 0), TB_ERR_INVALID_ARGUMENT, "cellSize[1] must be finite and > 0 (got -2)");
  h[4] = NAN;
  EXPECT_FAIL(tb_shape_create_heightfield(w, ground, 3, 3, h, 1, 1, ZERO, ID_Q, 0.5f, 0), TB_ERR_INVALID_ARGUMENT, "heights[4] must be finite (got nan)");
  h[4] = 0;
  EXPECT_FAIL(tb_shape_create_heightfield(w, ground, 3, 3, h, 1, 1, ZERO, ID_Q, -1.0f, 0), TB_ERR_INVALID_ARGUMENT, "friction must be finite and >= 0 (got -1)");
  EXPECT_FAIL(tb_shape_create_mesh(w, dyn, v, 4, idx, 1, ZERO, ID_Q, 0.5f, 0), TB_ERR_INVALID_ARGUMENT, "may only belong to a static body");
  EXPECT_FAIL(tb_shape_create_mesh(w, ground, v, 2, idx, 1, ZERO, ID_Q, 0.5f, 0), TB_ERR_INVALID_ARGUMENT, "vertex count must be in [3, 16777216] (got 2)");
  EXPECT_FAIL(tb_shape_create_mesh(w, ground, v, 4, idx, 0, ZERO, ID_Q, 0.5f, 0), TB_ERR_INVALID_ARGUMENT, "triangle count must be in [1, 16777216] (got 0)");
  const int32_t out_of_range[] = {0, 2, 4};
  EXPECT_FAIL(tb_shape_create_mesh(w, ground, v, 4, out_of_range, 1, ZERO, ID_Q, 0.5f, 0), TB_ERR_INVALID_ARGUMENT, "indices[2] must be in [0, 4) (got 4)");
  const int32_t degenerate[] = {0, 2, 1, 0, 1, 3}; /* 0, 1, 3 are collinear */
  EXPECT_FAIL(tb_shape_create_mesh(w, ground, v, 4, degenerate, 2, ZERO, ID_Q, 0.5f, 0), TB_ERR_INVALID_ARGUMENT, "triangle 1 (indices 0, 1, 3) is degenerate");
  float vn[12];
  memcpy(vn, v, sizeof vn);
  vn[7] = INFINITY;
  EXPECT_FAIL(tb_shape_create_mesh(w, ground, vn, 4, idx, 1, ZERO, ID_Q, 0.5f, 0), TB_ERR_INVALID_ARGUMENT, "vertices[2] must be finite");
  float qbad[4] = {0, 0, 0, 2};
  EXPECT_FAIL(tb_shape_create_mesh(w, ground, v, 4, idx, 1, ZERO, qbad, 0.5f, 0), TB_ERR_INVALID_ARGUMENT, "rotation must be a unit quaternion");
  float hp[4] = {1, 1, 0, 0};
  EXPECT_FAIL(tb_shape_create(w, ground, TB_SHAPE_MESH, hp, ZERO, ID_Q, 0.5f, 0, 1), TB_ERR_INVALID_ARGUMENT, "not available through addShape");
  /* nothing was added or leaked; the world still works */
  CHECK_NEAR(live, tb_live_bytes(), 0);
  CHECK(tb_shape_create_mesh(w, ground, v, 4, idx, 1, ZERO, ID_Q, 0.5f, 0) >= 0);
  CHECK(tb_shape_create_heightfield(w, ground, 3, 3, h, 1, 1, ZERO, ID_Q, 0.5f, 0) >= 0);
  CHECK(tb_world_step(w) == TB_OK);
  CHECK(tb_body_destroy(w, ground) == TB_OK); /* frees the geometry */
  tb_world_destroy(w);
}

/* Random poses of every convex type against a bumpy heightfield and the same surface as a mesh:
 * at most 4 points, unit normals, no NaN, separation = n·(p1 − p0), and the same contact seen
 * from the other side when the two shapes are swapped (normal negated, points exchanged). */
static float bumps(float x, float z) { return 0.15f * sinf(1.7f * x) * cosf(1.3f * z); }

static void test_terrain_random_pairs(void) {
  const int rows = 17, cols = 17;
  const float cell = 0.25f;
  float* h = grid_heights(rows, cols, cell, cell, bumps);
  tb_heightfield_data* hf = tb_heightfield_data_create(rows, cols, h, cell, cell);
  tb_mesh_data* mesh = grid_mesh(rows, cols, cell, cell, bumps);
  free(h);
  tb_shape_geom surfaces[2] = {{TB_SHAPE_HEIGHTFIELD, {cell, cell, (float)rows, (float)cols}, hf}, {TB_SHAPE_MESH, {0}, mesh}};
  const tb_shape_geom convex[5] = {{TB_SHAPE_SPHERE, {0.2f, 0, 0, 0}, NULL},   {TB_SHAPE_CAPSULE, {0.12f, 0.2f, 0, 0}, NULL},
                                   {TB_SHAPE_BOX, {0.2f, 0.1f, 0.15f, 0}, NULL}, {TB_SHAPE_CYLINDER, {0.15f, 0.1f, 0, 0}, NULL},
                                   {TB_SHAPE_ELLIPSOID, {0.2f, 0.12f, 0.1f, 0}, NULL}};
  int contacts = 0;
  for (int i = 0; i < 300; ++i) {
    const tb_shape_geom* surf = &surfaces[i & 1];
    const tb_shape_geom* cv = &convex[(i / 2) % 5];
    /* the surface posed with a random rigid motion; the convex shape near it */
    tb_transform ts = {tb_scale(rand_vec(), 2.0f), rand_quat()};
    float x = 1.5f * frand(), z = 1.5f * frand();
    tb_vec3 local = tb_v3(x, bumps(x, z) + 0.2f * frand(), z);
    tb_transform tc = {tb_transform_point(ts, local), rand_quat()};
    tb_manifold m, w;
    int n = tb_collide(cv, tc, surf, ts, 0.05f, &m);
    int nw = tb_collide(surf, ts, cv, tc, 0.05f, &w);
    CHECK(n >= 0 && n <= 4 && nw == n);
    if (n == 0 || nw != n) continue;
    ++contacts;
    CHECK_NEAR(1.0, tb_length(m.normal), 1e-4);
    CHECK_VEC_NEAR(tb_neg(m.normal), w.normal, 1e-6);
    for (int j = 0; j < n; ++j) {
      const tb_manifold_point* p = &m.points[j];
      CHECK(tb_is_finite(p->separation) && tb_is_finite(p->point0.x + p->point0.y + p->point0.z) &&
            tb_is_finite(p->point1.x + p->point1.y + p->point1.z));
      CHECK_NEAR(tb_dot(tb_sub(p->point1, p->point0), m.normal), p->separation, 1e-4);
      CHECK(p->separation <= 0.05f + 1e-5f);
      CHECK_VEC_NEAR(p->point0, w.points[j].point1, 1e-6);
      CHECK_VEC_NEAR(p->point1, w.points[j].point0, 1e-6);
      CHECK_NEAR(p->separation, w.points[j].separation, 1e-6);
    }
  }
  CHECK(contacts > 100); /* most poses touch: the checks above ran */
  tb_heightfield_data_free(hf);
  tb_mesh_data_free(mesh);
}

int main(void) {
  test_nan_query_box();
  int64_t live = tb_live_bytes();
  test_sphere_flat();
  test_sphere_tilted();
  test_box_capsule_floor();
  test_capsule_across_edges();
  test_general_convex();
  test_many_candidates();
  test_terrain_deterministic();
  test_reduction();
  test_bvh_random();
  test_rolling_no_ghost();
  test_compound();
  test_static_compound();
  test_points_found_in_world();
  test_validation();
  test_terrain_random_pairs();
  CHECK_NEAR(live, tb_live_bytes(), 0);
  return tb_test_report("test_mesh");
}
