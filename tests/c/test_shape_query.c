/* Shape queries: tb_world_shape_distance (signed distance of a convex pair and the routine that
 * answered) and tb_shape_support (a hull's support field against the exact scan). */
#include <math.h>
#include <string.h>

#include "../../src/include/tribo.h"
#include "test_util.h"

static const float ZERO[3] = {0, 0, 0};
static const float ID_Q[4] = {0, 0, 0, 1};
/* a cube of half extent 0.5 m as a hull */
static const float CUBE[24] = {-0.5f, -0.5f, -0.5f, 0.5f, -0.5f, -0.5f, -0.5f, 0.5f, -0.5f, 0.5f, 0.5f, -0.5f,
                               -0.5f, -0.5f, 0.5f,  0.5f, -0.5f, 0.5f,  -0.5f, 0.5f, 0.5f,  0.5f, 0.5f, 0.5f};

static tb_world_id zero_g_world(void) {
  tb_world_def def = tb_default_world_def();
  def.gravity[0] = def.gravity[1] = def.gravity[2] = 0.0f;
  return tb_world_create(&def);
}

static tb_shape_id add(tb_world_id w, tb_shape_type type, const float params[4], float x) {
  const float p[3] = {x, 0, 0};
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, p, ID_Q);
  return tb_shape_create(w, b, type, params, ZERO, ID_Q, 0.5f, 0.0f, 1000.0f);
}

static tb_shape_id add_cube_hull(tb_world_id w, float x, int32_t res) {
  const float p[3] = {x, 0, 0};
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, p, ID_Q);
  return tb_shape_create_hull_ex(w, b, CUBE, 8, res, ZERO, ID_Q, 0.5f, 0.0f, 1000.0f);
}

/* Two spheres: the exact routine, d = |c_b − c_a| − r_a − r_b, normal along the centre line. */
static void test_spheres(void) {
  tb_world_id w = zero_g_world();
  const float ra[4] = {0.3f}, rb[4] = {0.2f};
  tb_shape_id a = add(w, TB_SHAPE_SPHERE, ra, 0.0f), b = add(w, TB_SHAPE_SPHERE, rb, 1.0f);
  tb_pair_distance r;
  CHECK(tb_world_shape_distance(w, a, b, 10.0f, &r) == 1);
  CHECK(r.method == TB_PAIR_ANALYTIC);
  CHECK_NEAR(0.5, r.distance, 1e-6);
  CHECK_NEAR(1.0, r.normal[0], 1e-6);
  CHECK_NEAR(0.3, r.point_a[0], 1e-6);
  CHECK_NEAR(0.8, r.point_b[0], 1e-6);
  /* farther than max_distance: no answer */
  CHECK(tb_world_shape_distance(w, a, b, 0.4f, &r) == 0);
  tb_world_destroy(w);
}

/* A cube hull and an ellipsoid with equal radii (a sphere of 0.3 m the exact routines do not
 * take): GJK when apart, MPR or EPA when overlapping, with the closed-form distance and depth;
 * the pair queried the other way round gives the mirrored answer. */
static void test_hull_ellipsoid(void) {
  tb_world_id w = zero_g_world();
  const float radii[4] = {0.3f, 0.3f, 0.3f};
  tb_shape_id a = add_cube_hull(w, 0.0f, -1), b = add(w, TB_SHAPE_ELLIPSOID, radii, 2.0f);
  tb_pair_distance r, m;
  CHECK(tb_world_shape_distance(w, a, b, 10.0f, &r) == 1);
  CHECK(r.method == TB_PAIR_GJK);
  CHECK_NEAR(2.0 - 0.5 - 0.3, r.distance, 1e-4);
  CHECK_NEAR(1.0, r.normal[0], 1e-4);
  CHECK_NEAR(0.5, r.point_a[0], 1e-4);
  CHECK_NEAR(1.7, r.point_b[0], 1e-4);
  /* overlapping by 0.2 m along x */
  const float p[3] = {0.6f, 0.05f, 0.0f};
  tb_body_id bb = tb_body_create(w, TB_BODY_DYNAMIC, p, ID_Q);
  tb_shape_id c = tb_shape_create(w, bb, TB_SHAPE_ELLIPSOID, radii, ZERO, ID_Q, 0.5f, 0.0f, 1000.0f);
  CHECK(tb_world_shape_distance(w, a, c, 0.0f, &r) == 1);
  CHECK(r.method == TB_PAIR_MPR || r.method == TB_PAIR_EPA);
  CHECK_NEAR(-0.2, r.distance, 2e-3);
  CHECK_NEAR(1.0, r.normal[0], 1e-2);
  CHECK(tb_world_shape_distance(w, c, a, 0.0f, &m) == 1);
  CHECK(m.method == r.method);
  CHECK_NEAR(r.distance, m.distance, 1e-6);
  for (int i = 0; i < 3; ++i) {
    CHECK_NEAR(-r.normal[i], m.normal[i], 1e-6);
    CHECK_NEAR(r.point_a[i], m.point_b[i], 1e-6);
  }
  tb_world_destroy(w);
}

/* Bad input: a plane, the same shape twice, a negative max_distance, a NULL out: refused by name. */
static void test_refusals(void) {
  tb_world_id w = zero_g_world();
  const float plane[4] = {0, 1, 0, 0}, r1[4] = {0.3f};
  tb_body_id g = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  tb_shape_id pl = tb_shape_create(w, g, TB_SHAPE_PLANE, plane, ZERO, ID_Q, 0.5f, 0.0f, 1.0f);
  tb_shape_id s = add(w, TB_SHAPE_SPHERE, r1, 1.0f);
  tb_pair_distance r;
  CHECK(tb_world_shape_distance(w, pl, s, 10.0f, &r) == -TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "shape a is a plane, not a convex shape") != NULL);
  CHECK(tb_world_shape_distance(w, s, s, 10.0f, &r) == -TB_ERR_INVALID_ARGUMENT);
  CHECK(tb_world_shape_distance(w, s, pl, -1.0f, &r) == -TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "maxDistance") != NULL);
  CHECK(tb_world_shape_distance(w, s, pl, 1.0f, NULL) == -TB_ERR_INVALID_ARGUMENT);
  const float d[3] = {1, 0, 0}, d0[3] = {0, 0, 0};
  tb_support_query q;
  CHECK(tb_shape_support(w, s, d, &q) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "not a hull") != NULL);
  tb_shape_id h = add_cube_hull(w, 3.0f, 16);
  CHECK(tb_shape_support(w, h, d0, &q) == TB_ERR_INVALID_ARGUMENT);
  tb_world_destroy(w);
}

/* Mean and largest lookup error (m) of a unit-sphere point cloud's hull at field resolution res,
 * over a fixed spiral of directions; counts directions where the lookup differs from the scan. */
static void support_errors(int32_t res, double* mean, double* worst, int* differ, int* consistent) {
  enum { N = 400, D = 500 };
  static float pts[3 * N];
  for (int i = 0; i < N; ++i) { /* Fibonacci sphere */
    double z = 1.0 - (2.0 * i + 1.0) / N, r = sqrt(1.0 - z * z), t = 2.399963229728653 * i;
    pts[3 * i] = (float)(r * cos(t));
    pts[3 * i + 1] = (float)(r * sin(t));
    pts[3 * i + 2] = (float)z;
  }
  tb_world_id w = zero_g_world();
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, ZERO, ID_Q);
  tb_shape_id h = tb_shape_create_hull_ex(w, b, pts, N, res, ZERO, ID_Q, 0.5f, 0.0f, 1000.0f);
  *mean = 0.0;
  *worst = 0.0;
  *differ = 0;
  *consistent = 1;
  for (int k = 0; k < D; ++k) {
    double z = 1.0 - (2.0 * k + 1.0) / D, r = sqrt(1.0 - z * z), t = 1.1 + 2.399963229728653 * k * 1.37;
    const float d[3] = {(float)(r * cos(t)), (float)(r * sin(t)), (float)z};
    tb_support_query q;
    CHECK(tb_shape_support(w, h, d, &q) == TB_OK);
    /* the reported error is the reach difference of the two reported points along d */
    double e = (q.scan_point[0] - q.field_point[0]) * d[0] + (q.scan_point[1] - q.field_point[1]) * d[1] +
               (q.scan_point[2] - q.field_point[2]) * d[2];
    if (fabs(fmax(0.0, e) - q.error) > 1e-6 || q.error < 0.0f) *consistent = 0;
    if (res == 0 && (q.field_vertex != -1 || q.error != 0.0f || q.used_vertex != q.scan_vertex)) *consistent = 0;
    *mean += q.error / D;
    if (q.error > *worst) *worst = q.error;
    if (q.field_vertex != q.scan_vertex) ++*differ;
  }
  tb_world_destroy(w);
}

/* A coarse field misses the exact support in places, by at most 2·R·(cell angle); a fine one
 * misses less; no field is the scan itself. */
static void test_support_field(void) {
  double m8, w8, m128, w128, m0, w0;
  int d8, d128, d0, c8, c128, c0;
  support_errors(8, &m8, &w8, &d8, &c8);
  support_errors(128, &m128, &w128, &d128, &c128);
  support_errors(0, &m0, &w0, &d0, &c0);
  CHECK(c8 && c128 && c0);
  CHECK(d8 > 0 && m8 > 0.0);
  CHECK(w8 <= 2.0 * 1.0 * (2.0 * 3.14159265 / 8.0));
  CHECK(m128 < 0.25 * m8);
  CHECK(w0 == 0.0);
}

int main(void) {
  test_spheres();
  test_hull_ellipsoid();
  test_refusals();
  test_support_field();
  return tb_test_report("shape_query");
}
