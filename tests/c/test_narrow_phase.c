/* Tests of the narrow phase (src/collision): closed-form contacts for every pair type, manifold
 * point counts, randomised invariants (unit normals, consistent separations, a/b symmetry, points
 * on their shapes), feature-id stability and world AABBs. */
#include "../../src/collision/narrow_phase.h"
#include "test_util.h"

#include <stdlib.h>

#define MS 0.05f /* max separation used by the closed-form tests */

/* ---- helpers ---- */

#define TB_TEST_SEED 0x1234567u
#include "test_random.h"

static tb_shape_geom plane_g(float nx, float ny, float nz, float d) {
  tb_shape_geom g = {TB_SHAPE_PLANE, {nx, ny, nz, d}, NULL};
  return g;
}
static tb_shape_geom sphere_g(float r) {
  tb_shape_geom g = {TB_SHAPE_SPHERE, {r, 0, 0, 0}, NULL};
  return g;
}
static tb_shape_geom capsule_g(float r, float hh) {
  tb_shape_geom g = {TB_SHAPE_CAPSULE, {r, hh, 0, 0}, NULL};
  return g;
}
static tb_shape_geom box_g(float hx, float hy, float hz) {
  tb_shape_geom g = {TB_SHAPE_BOX, {hx, hy, hz, 0}, NULL};
  return g;
}
static tb_transform pose(float x, float y, float z, tb_quat q) {
  tb_transform t = {tb_v3(x, y, z), q};
  return t;
}
static tb_transform pose_p(tb_vec3 p, tb_quat q) {
  tb_transform t = {p, q};
  return t;
}
static tb_quat qid(void) { return tb_quat_identity(); }
static tb_quat qaa(float ax, float ay, float az, float deg) {
  return tb_quat_axis_angle(tb_v3(ax, ay, az), deg * TB_PI / 180.0f);
}
/* Applies a rigid motion g to a pose (moves the whole configuration). */
static tb_transform moved(tb_transform g, tb_transform t) { return tb_transform_mul(g, t); }

static int collide(tb_shape_geom a, tb_transform ta, tb_shape_geom b, tb_transform tb, float ms, tb_manifold* m) {
  int n = tb_collide(&a, ta, &b, tb, ms, m);
  CHECK(n == m->point_count);
  return n;
}
static float min_sep(const tb_manifold* m) {
  float s = INFINITY;
  for (int i = 0; i < m->point_count; ++i) s = fminf(s, m->points[i].separation);
  return s;
}
static int all_sep_near(const tb_manifold* m, float sep, float tol) {
  for (int i = 0; i < m->point_count; ++i)
    if (!(fabsf(m->points[i].separation - sep) <= tol)) return 0;
  return 1;
}
static int cmp_float(const void* x, const void* y) {
  float a = *(const float*)x, b = *(const float*)y;
  return a < b ? -1 : (a > b ? 1 : 0);
}
static int cmp_u32(const void* x, const void* y) {
  uint32_t a = *(const uint32_t*)x, b = *(const uint32_t*)y;
  return a < b ? -1 : (a > b ? 1 : 0);
}
static void sorted_ids(const tb_manifold* m, uint32_t ids[4]) {
  for (int i = 0; i < 4; ++i) ids[i] = i < m->point_count ? m->points[i].feature_id : 0xFFFFFFFFu;
  qsort(ids, 4, sizeof(uint32_t), cmp_u32);
}

/* Signed distance of world point p to a posed shape (negative inside). */
static float shape_distance(tb_shape_geom g, tb_transform t, tb_vec3 p) {
  tb_vec3 l = tb_inv_transform_point(t, p);
  switch (g.type) {
    case TB_SHAPE_PLANE: return l.x * g.params[0] + l.y * g.params[1] + l.z * g.params[2] - g.params[3];
    case TB_SHAPE_SPHERE: return tb_length(l) - g.params[0];
    case TB_SHAPE_CAPSULE: {
      float y = tb_clampf(l.y, -g.params[1], g.params[1]);
      return tb_length(tb_sub(l, tb_v3(0, y, 0))) - g.params[0];
    }
    default: {
      tb_vec3 q = tb_sub(tb_vabs(l), tb_v3(g.params[0], g.params[1], g.params[2]));
      tb_vec3 o = tb_vmax(q, tb_v3(0, 0, 0));
      float inside = fminf(fmaxf(q.x, fmaxf(q.y, q.z)), 0.0f);
      return tb_length(o) + inside;
    }
  }
}

/* Invariants every manifold satisfies. */
static void check_manifold(const tb_manifold* m, float ms) {
  CHECK(m->point_count >= 0 && m->point_count <= TB_MAX_MANIFOLD_POINTS);
  if (m->point_count == 0) return;
  CHECK_NEAR(1.0, tb_length(m->normal), 1e-4);
  for (int i = 0; i < m->point_count; ++i) {
    const tb_manifold_point* p = &m->points[i];
    CHECK(tb_is_finite(p->point0.x) && tb_is_finite(p->point0.y) && tb_is_finite(p->point0.z));
    CHECK(tb_is_finite(p->point1.x) && tb_is_finite(p->point1.y) && tb_is_finite(p->point1.z));
    CHECK(tb_is_finite(p->separation));
    CHECK_NEAR(p->separation, tb_dot(tb_sub(p->point1, p->point0), m->normal), 1e-4);
    CHECK(p->separation <= ms + 1e-6f);
    for (int j = 0; j < i; ++j) CHECK(p->feature_id != m->points[j].feature_id);
  }
}

/* ---- plane pairs ---- */

static void test_plane_sphere(void) {
  tb_manifold m;
  /* y-up plane through the origin */
  CHECK(collide(plane_g(0, 1, 0, 0), pose(0, 0, 0, qid()), sphere_g(0.5f), pose(0.3f, 0.45f, -0.2f, qid()), MS, &m) == 1);
  CHECK_VEC_NEAR(tb_v3(0, 1, 0), m.normal, 1e-6);
  CHECK_NEAR(-0.05, m.points[0].separation, 1e-6);
  CHECK_VEC_NEAR(tb_v3(0.3f, 0.0f, -0.2f), m.points[0].point0, 1e-6);
  CHECK_VEC_NEAR(tb_v3(0.3f, -0.05f, -0.2f), m.points[0].point1, 1e-6);
  /* rotated, translated plane with an offset: sphere 0.7 above its surface */
  tb_transform tp = pose(1, 2, 3, qaa(1, 0, 0, 30));
  tb_vec3 n = tb_rotate(tp.q, tb_v3(0, 1, 0));
  tb_vec3 on = tb_transform_point(tp, tb_v3(0.4f, 0.2f, -0.3f)); /* a point of the surface (d = 0.2) */
  tb_vec3 c = tb_mul_add(on, 0.7f, n);
  CHECK(collide(plane_g(0, 1, 0, 0.2f), tp, sphere_g(0.75f), pose_p(c, rand_quat()), MS, &m) == 1);
  CHECK_VEC_NEAR(n, m.normal, 1e-5);
  CHECK_NEAR(-0.05, m.points[0].separation, 1e-5);
  CHECK_VEC_NEAR(on, m.points[0].point0, 1e-5);
  /* separated within the margin: positive separation; beyond: nothing */
  CHECK(collide(plane_g(0, 1, 0, 0.2f), tp, sphere_g(0.67f), pose_p(c, qid()), MS, &m) == 1);
  CHECK_NEAR(0.03, m.points[0].separation, 1e-5);
  CHECK(collide(plane_g(0, 1, 0, 0.2f), tp, sphere_g(0.6f), pose_p(c, qid()), MS, &m) == 0);
  /* swapped order: negated normal, same separation */
  CHECK(collide(sphere_g(0.75f), pose_p(c, qid()), plane_g(0, 1, 0, 0.2f), tp, MS, &m) == 1);
  CHECK_VEC_NEAR(tb_neg(n), m.normal, 1e-5);
  CHECK_NEAR(-0.05, m.points[0].separation, 1e-5);
  CHECK_VEC_NEAR(on, m.points[0].point1, 1e-5);
}

static void test_plane_capsule(void) {
  tb_manifold m;
  /* lying flat (axis along x): 2 points at the segment ends */
  CHECK(collide(plane_g(0, 1, 0, 0), pose(0, 0, 0, qid()), capsule_g(0.2f, 0.6f), pose(1, 0.19f, 2, qaa(0, 0, 1, 90)), MS, &m) == 2);
  CHECK_VEC_NEAR(tb_v3(0, 1, 0), m.normal, 1e-6);
  CHECK(all_sep_near(&m, -0.01f, 1e-5));
  float xs[2] = {m.points[0].point1.x, m.points[1].point1.x};
  CHECK_NEAR(0.4, fminf(xs[0], xs[1]), 1e-5);
  CHECK_NEAR(1.6, fmaxf(xs[0], xs[1]), 1e-5);
  CHECK_NEAR(-0.01, m.points[0].point1.y, 1e-5);
  CHECK_NEAR(0.0, m.points[0].point0.y, 1e-6);
  /* tilted 60 deg from vertical about z: lowest end at cy - hh cos60 */
  float cy = 0.35f;
  CHECK(collide(plane_g(0, 1, 0, 0), pose(0, 0, 0, qid()), capsule_g(0.1f, 0.5f), pose(0, cy, 0, qaa(0, 0, 1, 60)), MS, &m) == 1);
  CHECK_NEAR(cy - 0.5f * 0.5f - 0.1f, m.points[0].separation, 1e-5);
  CHECK_NEAR(0.5f * sinf(60.0f * TB_PI / 180.0f), m.points[0].point1.x, 1e-5);
  /* the same, on a rotated plane with the whole scene moved */
  tb_transform g = pose(-2, 1, 0.5f, qaa(0.3f, 1, -0.2f, 77));
  CHECK(collide(plane_g(0, 1, 0, 0), g, capsule_g(0.1f, 0.5f), moved(g, pose(0, cy, 0, qaa(0, 0, 1, 60))), MS, &m) == 1);
  CHECK_NEAR(cy - 0.25f - 0.1f, m.points[0].separation, 1e-5);
  CHECK_VEC_NEAR(tb_rotate(g.q, tb_v3(0, 1, 0)), m.normal, 1e-5);
  /* lying flat on a plane with a non-axis normal: 2 points */
  tb_vec3 n = tb_normalize(tb_v3(1, 2, 2));
  tb_quat q = tb_quat_mul(tb_quat_axis_angle(tb_cross(tb_v3(0, 1, 0), n), acosf(n.y)), qaa(1, 0, 0, 90));
  CHECK(collide(plane_g(n.x, n.y, n.z, 0.5f), pose(0, 0, 0, qid()), capsule_g(0.3f, 1.0f),
                pose_p(tb_scale(n, 0.5f + 0.28f), q), MS, &m) == 2);
  CHECK(all_sep_near(&m, -0.02f, 1e-5));
  CHECK_VEC_NEAR(n, m.normal, 1e-5);
}

static void test_plane_box(void) {
  tb_manifold m;
  /* resting flat: 4 points, the bottom corners, ids = vertices with y = -h */
  CHECK(collide(plane_g(0, 1, 0, 0), pose(0, 0, 0, qid()), box_g(0.5f, 0.25f, 1.0f), pose(1, 0.24f, 0, qid()), MS, &m) == 4);
  CHECK(all_sep_near(&m, -0.01f, 1e-6));
  uint32_t ids[4];
  sorted_ids(&m, ids);
  CHECK(ids[0] == 0 && ids[1] == 1 && ids[2] == 4 && ids[3] == 5);
  for (int i = 0; i < 4; ++i) {
    CHECK_NEAR(0.5, fabsf(m.points[i].point1.x - 1.0f), 1e-6);
    CHECK_NEAR(1.0, fabsf(m.points[i].point1.z), 1e-6);
  }
  /* rotated 45 deg about z, resting on an edge: 2 points at cy - h*sqrt2 */
  float h = 0.5f, cy = 0.7f;
  CHECK(collide(plane_g(0, 1, 0, 0), pose(0, 0, 0, qid()), box_g(h, h, h), pose(0, cy, 0, qaa(0, 0, 1, 45)), MS, &m) == 2);
  CHECK(all_sep_near(&m, cy - h * sqrtf(2.0f), 1e-5));
  CHECK_NEAR(0.0, m.points[0].point1.x, 1e-5);
  CHECK_NEAR(h, fabsf(m.points[0].point1.z), 1e-5);
  CHECK_NEAR(-m.points[0].point1.z, m.points[1].point1.z, 1e-5);
  /* tilted by alpha about z and beta about x: lowest vertex closed form */
  float al = 20.0f * TB_PI / 180.0f, be = 35.0f * TB_PI / 180.0f;
  tb_vec3 hb = tb_v3(0.4f, 0.3f, 0.2f);
  tb_quat q = tb_quat_mul(tb_quat_axis_angle(tb_v3(0, 0, 1), al), tb_quat_axis_angle(tb_v3(1, 0, 0), be));
  /* row y of Rz(al) Rx(be) = (sin al, cos al cos be, -cos al sin be) */
  float low = hb.x * sinf(al) + hb.y * cosf(al) * cosf(be) + hb.z * cosf(al) * sinf(be);
  cy = 0.4f;
  CHECK(collide(plane_g(0, 1, 0, 0), pose(0, 0, 0, qid()), box_g(hb.x, hb.y, hb.z), pose(0, cy, 0, q), 0.01f, &m) == 1);
  CHECK_NEAR(cy - low, m.points[0].separation, 1e-5);
  CHECK_NEAR(cy - low, m.points[0].point1.y, 1e-5);
  /* the same inside a moved frame with the plane offset d = 0.3 */
  tb_transform g = pose(3, -1, 2, qaa(1, 1, 0, 50));
  CHECK(collide(plane_g(0, 1, 0, 0.3f), g, box_g(hb.x, hb.y, hb.z), moved(g, pose(0, cy + 0.3f, 0, q)), 0.01f, &m) == 1);
  CHECK_NEAR(cy - low, m.points[0].separation, 1e-5);
  /* large margin: all 8 vertices qualify, reduced to 4 with the deepest kept */
  CHECK(collide(plane_g(0, 1, 0, 0), pose(0, 0, 0, qid()), box_g(hb.x, hb.y, hb.z), pose(0, cy, 0, q), 10.0f, &m) == 4);
  CHECK_NEAR(cy - low, min_sep(&m), 1e-5);
  check_manifold(&m, 10.0f);
}

/* ---- sphere pairs ---- */

static void test_sphere_sphere(void) {
  tb_manifold m;
  tb_vec3 dir = tb_normalize(tb_v3(1, -2, 0.5f));
  tb_vec3 ca = tb_v3(0.1f, 0.2f, 0.3f);
  float d = 0.8f;
  tb_vec3 cb = tb_mul_add(ca, d, dir);
  CHECK(collide(sphere_g(0.5f), pose_p(ca, qid()), sphere_g(0.4f), pose_p(cb, rand_quat()), MS, &m) == 1);
  CHECK_VEC_NEAR(dir, m.normal, 1e-5);
  CHECK_NEAR(d - 0.9f, m.points[0].separation, 1e-5);
  CHECK_VEC_NEAR(tb_mul_add(ca, 0.5f, dir), m.points[0].point0, 1e-5);
  CHECK_VEC_NEAR(tb_mul_add(cb, -0.4f, dir), m.points[0].point1, 1e-5);
  /* separated within / beyond the margin */
  CHECK(collide(sphere_g(0.4f), pose_p(ca, qid()), sphere_g(0.37f), pose_p(cb, qid()), MS, &m) == 1);
  CHECK_NEAR(0.03, m.points[0].separation, 1e-5);
  CHECK(collide(sphere_g(0.3f), pose_p(ca, qid()), sphere_g(0.37f), pose_p(cb, qid()), MS, &m) == 0);
  /* coincident centres: unit fallback normal, full depth */
  CHECK(collide(sphere_g(0.3f), pose_p(ca, qid()), sphere_g(0.2f), pose_p(ca, qid()), MS, &m) == 1);
  CHECK_NEAR(1.0, tb_length(m.normal), 1e-6);
  CHECK_NEAR(-0.5, m.points[0].separation, 1e-6);
}

static void test_sphere_capsule(void) {
  tb_manifold m;
  tb_transform tc = pose(1, 2, 3, qaa(1, 2, 3, 40));
  tb_vec3 u = tb_rotate(tc.q, tb_v3(0, 1, 0));
  tb_vec3 perp = tb_rotate(tc.q, tb_normalize(tb_v3(1, 0, 1)));
  /* beside the segment (0.3 along the axis), 0.6 from it */
  tb_vec3 c = tb_add(tb_mul_add(tc.p, 0.3f, u), tb_scale(perp, 0.6f));
  CHECK(collide(sphere_g(0.4f), pose_p(c, qid()), capsule_g(0.25f, 0.5f), tc, MS, &m) == 1);
  CHECK_VEC_NEAR(tb_neg(perp), m.normal, 1e-5);
  CHECK_NEAR(0.6f - 0.65f, m.points[0].separation, 1e-5);
  CHECK_VEC_NEAR(tb_add(tb_mul_add(tc.p, 0.3f, u), tb_scale(perp, 0.25f)), m.points[0].point1, 1e-5);
  /* beyond the +y end: distance to the end point */
  tb_vec3 end = tb_mul_add(tc.p, 0.5f, u);
  tb_vec3 dir = tb_normalize(tb_add(u, tb_scale(perp, 0.5f)));
  c = tb_mul_add(end, 0.62f, dir);
  CHECK(collide(capsule_g(0.25f, 0.5f), tc, sphere_g(0.4f), pose_p(c, qid()), MS, &m) == 1);
  CHECK_VEC_NEAR(dir, m.normal, 1e-5);
  CHECK_NEAR(0.62f - 0.65f, m.points[0].separation, 1e-5);
  CHECK_VEC_NEAR(tb_mul_add(end, 0.25f, dir), m.points[0].point0, 1e-5);
  /* centre on the segment: unit normal perpendicular to the axis, depth r + rc */
  CHECK(collide(sphere_g(0.1f), pose_p(tb_mul_add(tc.p, -0.2f, u), qid()), capsule_g(0.25f, 0.5f), tc, MS, &m) == 1);
  CHECK_NEAR(1.0, tb_length(m.normal), 1e-6);
  CHECK_NEAR(0.0, tb_dot(m.normal, u), 1e-5);
  CHECK_NEAR(-0.35, m.points[0].separation, 1e-5);
}

static void test_sphere_box(void) {
  tb_manifold m;
  tb_transform tb = pose(-1, 0.5f, 2, qaa(1, -1, 0.5f, 33));
  tb_shape_geom box = box_g(1.0f, 0.5f, 0.75f);
  /* over the +y face */
  tb_vec3 cl = tb_v3(0.3f, 0.5f + 0.45f, -0.2f);
  CHECK(collide(sphere_g(0.5f), pose_p(tb_transform_point(tb, cl), qid()), box, tb, MS, &m) == 1);
  CHECK_VEC_NEAR(tb_rotate(tb.q, tb_v3(0, -1, 0)), m.normal, 1e-5);
  CHECK_NEAR(-0.05, m.points[0].separation, 1e-5);
  CHECK_VEC_NEAR(tb_transform_point(tb, tb_v3(0.3f, 0.5f, -0.2f)), m.points[0].point1, 1e-5);
  /* over the (+x, +y) edge: distance to the edge */
  float ax = 0.3f, ay = 0.4f; /* offsets beyond the faces: distance 0.5 */
  cl = tb_v3(1.0f + ax, 0.5f + ay, 0.1f);
  CHECK(collide(sphere_g(0.52f), pose_p(tb_transform_point(tb, cl), qid()), box, tb, MS, &m) == 1);
  CHECK_NEAR(0.5f - 0.52f, m.points[0].separation, 1e-5);
  CHECK_VEC_NEAR(tb_rotate(tb.q, tb_v3(-0.6f, -0.8f, 0)), m.normal, 1e-5);
  CHECK_VEC_NEAR(tb_transform_point(tb, tb_v3(1.0f, 0.5f, 0.1f)), m.points[0].point1, 1e-5);
  /* over the (+x, -y, +z) corner */
  cl = tb_v3(1.0f + 0.2f, -0.5f - 0.3f, 0.75f + 0.1f);
  float dc = sqrtf(0.04f + 0.09f + 0.01f);
  CHECK(collide(box, tb, sphere_g(0.35f), pose_p(tb_transform_point(tb, cl), qid()), MS, &m) == 1);
  CHECK_NEAR(dc - 0.35f, m.points[0].separation, 1e-5);
  CHECK_VEC_NEAR(tb_rotate(tb.q, tb_scale(tb_v3(0.2f, -0.3f, 0.1f), 1.0f / dc)), m.normal, 1e-5);
  CHECK_VEC_NEAR(tb_transform_point(tb, tb_v3(1.0f, -0.5f, 0.75f)), m.points[0].point0, 1e-5);
  /* centre inside, nearest face +y (0.1 away): pushed out through it */
  cl = tb_v3(0.2f, 0.4f, 0.1f);
  CHECK(collide(sphere_g(0.2f), pose_p(tb_transform_point(tb, cl), qid()), box, tb, MS, &m) == 1);
  CHECK_VEC_NEAR(tb_rotate(tb.q, tb_v3(0, -1, 0)), m.normal, 1e-5);
  CHECK_NEAR(-0.3, m.points[0].separation, 1e-5);
  /* centre exactly at the box centre: the smallest half extent (y) */
  CHECK(collide(sphere_g(0.2f), pose_p(tb.p, qid()), box, tb, MS, &m) == 1);
  CHECK_NEAR(1.0, fabsf(tb_dot(m.normal, tb_rotate(tb.q, tb_v3(0, 1, 0)))), 1e-5);
  CHECK_NEAR(-0.7, m.points[0].separation, 1e-5);
}

/* ---- capsule pairs ---- */

static void test_capsule_capsule(void) {
  tb_manifold m;
  tb_transform g = pose(0.5f, -1, 2, qaa(-1, 2, 1, 65)); /* moves the whole scene */
  tb_quat along_x = qaa(0, 0, 1, 90), along_z = qaa(1, 0, 0, 90);
  tb_vec3 gy = tb_rotate(g.q, tb_v3(0, 1, 0));
  /* crossing at right angles, 0.5 apart: one point */
  CHECK(collide(capsule_g(0.2f, 1), moved(g, pose(0, 0, 0, along_x)), capsule_g(0.32f, 0.7f),
                moved(g, pose(0.1f, 0.5f, 0.2f, along_z)), MS, &m) == 1);
  CHECK_VEC_NEAR(gy, m.normal, 1e-5);
  CHECK_NEAR(-0.02, m.points[0].separation, 1e-5);
  CHECK_VEC_NEAR(tb_transform_point(g, tb_v3(0.1f, 0.2f, 0)), m.points[0].point0, 1e-5);
  /* skew at 35 degrees */
  CHECK(collide(capsule_g(0.2f, 1), moved(g, pose(0, 0, 0, along_x)), capsule_g(0.2f, 0.7f),
                moved(g, pose(0.1f, 0.42f, 0.2f, tb_quat_mul(qaa(0, 1, 0, 35), along_x))), MS, &m) == 1);
  CHECK_NEAR(0.02, m.points[0].separation, 1e-5);
  CHECK_VEC_NEAR(gy, m.normal, 1e-5);
  /* parallel, overlapping along x on [-0.7, 1]: two points at the overlap ends */
  CHECK(collide(capsule_g(0.2f, 1), moved(g, pose(0, 0, 0, along_x)), capsule_g(0.25f, 0.6f),
                moved(g, pose(0.3f, 0.44f, 0, along_x)), MS, &m) == 2);
  CHECK(all_sep_near(&m, -0.01f, 1e-5));
  CHECK_VEC_NEAR(gy, m.normal, 1e-5);
  {
    float x0 = tb_inv_transform_point(g, m.points[0].point0).x, x1 = tb_inv_transform_point(g, m.points[1].point0).x;
    CHECK_NEAR(-0.3, fminf(x0, x1), 1e-5);
    CHECK_NEAR(0.9, fmaxf(x0, x1), 1e-5);
  }
  /* colinear, end to end with a 0.43 gap between the segments: normal along the axis */
  CHECK(collide(capsule_g(0.2f, 1), moved(g, pose(0, 0, 0, along_x)), capsule_g(0.25f, 0.6f),
                moved(g, pose(1.0f + 0.43f + 0.6f, 0, 0, along_x)), MS, &m) == 1);
  CHECK_NEAR(-0.02, m.points[0].separation, 1e-5);
  CHECK_VEC_NEAR(tb_rotate(g.q, tb_v3(1, 0, 0)), m.normal, 1e-5);
  /* coincident axes: unit normal perpendicular to the axis, depth ra + rb */
  CHECK(collide(capsule_g(0.2f, 1), moved(g, pose(0, 0, 0, along_x)), capsule_g(0.1f, 0.5f),
                moved(g, pose(0.2f, 0, 0, along_x)), MS, &m) == 2);
  CHECK_NEAR(1.0, tb_length(m.normal), 1e-6);
  CHECK_NEAR(0.0, tb_dot(m.normal, tb_rotate(g.q, tb_v3(1, 0, 0))), 1e-5);
  CHECK(all_sep_near(&m, -0.3f, 1e-5));
}

static void test_capsule_box(void) {
  tb_manifold m;
  tb_transform tb = pose(2, 0.5f, -1, qaa(0.2f, 1, -0.4f, 25));
  tb_shape_geom box = box_g(1.0f, 0.5f, 0.8f);
  tb_vec3 by = tb_rotate(tb.q, tb_v3(0, 1, 0));
  /* lying on the +y face along x: 2 points at the ends */
  CHECK(collide(capsule_g(0.1f, 0.5f), moved(tb, pose(0.2f, 0.5f + 0.08f, 0.3f, qaa(0, 0, 1, 90))), box, tb, MS, &m) == 2);
  CHECK_VEC_NEAR(tb_neg(by), m.normal, 1e-5);
  CHECK(all_sep_near(&m, -0.02f, 1e-5));
  {
    tb_vec3 l0 = tb_inv_transform_point(tb, m.points[0].point1), l1 = tb_inv_transform_point(tb, m.points[1].point1);
    CHECK_NEAR(-0.3, fminf(l0.x, l1.x), 1e-5);
    CHECK_NEAR(0.7, fmaxf(l0.x, l1.x), 1e-5);
    CHECK_NEAR(0.5, l0.y, 1e-5);
  }
  /* lying on the face but overhanging the +x edge: clipped at the edge */
  CHECK(collide(box, tb, capsule_g(0.1f, 0.5f), moved(tb, pose(0.8f, 0.5f + 0.13f, 0.3f, qaa(0, 0, 1, 90))), MS, &m) == 2);
  CHECK_VEC_NEAR(by, m.normal, 1e-5);
  CHECK(all_sep_near(&m, 0.03f, 1e-5));
  {
    tb_vec3 l0 = tb_inv_transform_point(tb, m.points[0].point0), l1 = tb_inv_transform_point(tb, m.points[1].point0);
    CHECK_NEAR(0.3, fminf(l0.x, l1.x), 1e-5);
    CHECK_NEAR(1.0, fmaxf(l0.x, l1.x), 1e-5);
  }
  /* crossing the (+x, +y) edge, segment perpendicular to the edge's outward diagonal */
  tb_vec3 diag = tb_normalize(tb_v3(1, 1, 0));
  tb_vec3 dir = tb_normalize(tb_v3(1, -1, 0.5f)); /* perpendicular to diag and to the edge's z */
  tb_quat qc = tb_quat_axis_angle(tb_cross(tb_v3(0, 1, 0), dir), acosf(dir.y));
  tb_vec3 cl = tb_mul_add(tb_v3(1.0f, 0.5f, 0.2f), 0.13f, diag);
  CHECK(collide(capsule_g(0.15f, 0.6f), moved(tb, pose_p(cl, qc)), box, tb, MS, &m) == 1);
  CHECK_NEAR(-0.02, m.points[0].separation, 1e-5);
  CHECK_VEC_NEAR(tb_rotate(tb.q, tb_neg(diag)), m.normal, 1e-5);
  CHECK_VEC_NEAR(tb_transform_point(tb, tb_v3(1.0f, 0.5f, 0.2f)), m.points[0].point1, 1e-5);
  /* end cap near the (+x,+y,+z) corner */
  tb_vec3 corner = tb_v3(1.0f, 0.5f, 0.8f);
  tb_vec3 cd = tb_normalize(tb_v3(1, 2, 2));
  cl = tb_mul_add(tb_mul_add(corner, 0.3f, cd), 0.5f, cd); /* segment along cd, lower end 0.3 away */
  qc = tb_quat_axis_angle(tb_cross(tb_v3(0, 1, 0), cd), acosf(cd.y));
  CHECK(collide(capsule_g(0.28f, 0.5f), moved(tb, pose_p(cl, qc)), box, tb, MS, &m) == 1);
  CHECK_NEAR(0.02, m.points[0].separation, 1e-5);
  CHECK_VEC_NEAR(tb_rotate(tb.q, tb_neg(cd)), m.normal, 1e-5);
  CHECK_VEC_NEAR(tb_transform_point(tb, corner), m.points[0].point1, 1e-5);
  /* vertical, the segment poking 0.3 into the top face: SAT face, depth 0.3 + r */
  CHECK(collide(capsule_g(0.1f, 0.5f), moved(tb, pose(0.2f, 0.5f + 0.5f - 0.3f, 0.1f, qid())), box, tb, MS, &m) == 1);
  CHECK_NEAR(-0.4, m.points[0].separation, 1e-5);
  CHECK_VEC_NEAR(tb_neg(by), m.normal, 1e-5);
  /* segment entirely inside, nearest face -z (0.1 away) */
  CHECK(collide(capsule_g(0.1f, 0.3f), moved(tb, pose(0.0f, 0.0f, -0.7f, qaa(0, 0, 1, 90))), box, tb, MS, &m) == 2);
  CHECK(all_sep_near(&m, -0.2f, 1e-5));
  CHECK_VEC_NEAR(tb_rotate(tb.q, tb_v3(0, 0, 1)), m.normal, 1e-5);
}

/* ---- box-box ---- */

static void test_box_box(void) {
  tb_manifold m;
  tb_transform g = pose(-0.5f, 1.5f, 0.25f, qaa(1, 0.5f, -0.3f, 70));
  tb_vec3 gy = tb_rotate(g.q, tb_v3(0, 1, 0));
  tb_shape_geom big = box_g(1.0f, 0.5f, 1.0f), small = box_g(0.5f, 0.5f, 0.5f);
  /* small box flat on a big one: 4 points, the small box's bottom corners */
  CHECK(collide(big, moved(g, pose(0, 0, 0, qid())), small, moved(g, pose(0.3f, 0.99f, -0.2f, qid())), MS, &m) == 4);
  CHECK_VEC_NEAR(gy, m.normal, 1e-5);
  CHECK(all_sep_near(&m, -0.01f, 1e-5));
  for (int i = 0; i < 4; ++i) {
    tb_vec3 l = tb_inv_transform_point(g, m.points[i].point0);
    CHECK_NEAR(0.5, fabsf(l.x - 0.3f), 1e-5);
    CHECK_NEAR(0.5, fabsf(l.z + 0.2f), 1e-5);
    CHECK_NEAR(0.5, l.y, 1e-5);
  }
  /* partial overlap: the overlap rectangle [0.3,1] x [0.2,1] */
  CHECK(collide(small, moved(g, pose(0.8f, 0.99f, 0.7f, qid())), big, moved(g, pose(0, 0, 0, qid())), MS, &m) == 4);
  CHECK_VEC_NEAR(tb_neg(gy), m.normal, 1e-5);
  CHECK(all_sep_near(&m, -0.01f, 1e-5));
  {
    int corners = 0;
    for (int i = 0; i < 4; ++i) {
      tb_vec3 l = tb_inv_transform_point(g, m.points[i].point1);
      int cx = fabsf(l.x - 0.3f) < 1e-5f || fabsf(l.x - 1.0f) < 1e-5f;
      int cz = fabsf(l.z - 0.2f) < 1e-5f || fabsf(l.z - 1.0f) < 1e-5f;
      corners += cx && cz;
      CHECK(l.x >= 0.3f - 1e-5f && l.x <= 1.0f + 1e-5f && l.z >= 0.2f - 1e-5f && l.z <= 1.0f + 1e-5f);
    }
    CHECK(corners == 4);
  }
  /* face to face, rotated 30 deg about the normal: octagon of 8 clip points reduced to 4 */
  tb_shape_geom cube = box_g(0.5f, 0.5f, 0.5f);
  tb_transform t0 = moved(g, pose(0, 0, 0, qid())), t1 = moved(g, pose(0, 0.98f, 0, qaa(0, 1, 0, 30)));
  CHECK(collide(cube, t0, cube, t1, MS, &m) == 4);
  CHECK(all_sep_near(&m, -0.02f, 1e-5));
  CHECK_VEC_NEAR(gy, m.normal, 1e-5);
  {
    tb_vec3 l[4];
    for (int i = 0; i < 4; ++i) {
      tb_vec3 a = tb_inv_transform_point(t0, m.points[i].point0);
      tb_vec3 b = tb_inv_transform_point(t1, m.points[i].point1);
      CHECK(fabsf(a.x) <= 0.5f + 1e-5f && fabsf(a.z) <= 0.5f + 1e-5f); /* inside a's face */
      CHECK(fabsf(b.x) <= 0.5f + 1e-5f && fabsf(b.z) <= 0.5f + 1e-5f); /* inside b's face */
      CHECK_NEAR(0.5, a.y, 1e-5);
      CHECK_NEAR(-0.5, b.y, 1e-5);
      l[i] = a;
    }
    /* the kept quad is the largest one through the (arbitrary, all equal) deepest octagon vertex:
     * 0.5447 for either vertex class (the octagon's area is 0.845) */
    float area = 0.0f;
    for (int i = 0; i < 4; ++i) {
      tb_vec3 p = l[i], q = l[(i + 1) % 4];
      area += p.z * q.x - p.x * q.z;
    }
    CHECK(fabsf(0.5f * area) > 0.5446f);
  }
  /* edge-edge: a rotated 45 deg about z (top edge along z), b rotated 45 deg about x (bottom edge
   * along x): normal = z x x = y */
  float h = 0.5f, r2 = h * sqrtf(2.0f);
  for (int k = 0; k < 2; ++k) {
    float gap = k == 0 ? -0.02f : 0.03f;
    tb_transform ta = moved(g, pose(0, 0, 0, qaa(0, 0, 1, 45)));
    tb_transform tb = moved(g, pose(0.05f, 2.0f * r2 + gap, -0.1f, qaa(1, 0, 0, 45)));
    CHECK(collide(cube, ta, cube, tb, MS, &m) == 1);
    CHECK_VEC_NEAR(gy, m.normal, 1e-5);
    CHECK_NEAR(gap, m.points[0].separation, 1e-5);
    CHECK_VEC_NEAR(tb_transform_point(g, tb_v3(0.0f, r2, -0.1f)), m.points[0].point0, 1e-5);
    CHECK_VEC_NEAR(tb_transform_point(g, tb_v3(0.0f, r2 + gap, -0.1f)), m.points[0].point1, 1e-5);
    CHECK_VEC_NEAR(tb_normalize(tb_cross(tb_rotate(ta.q, tb_v3(0, 0, 1)), tb_rotate(tb.q, tb_v3(1, 0, 0)))), m.normal, 1e-5);
  }
  /* separated face to face within the margin: separation = gap; beyond: nothing */
  CHECK(collide(big, moved(g, pose(0, 0, 0, qid())), small, moved(g, pose(0.1f, 1.03f, 0.1f, qid())), MS, &m) == 4);
  CHECK(all_sep_near(&m, 0.03f, 1e-5));
  CHECK(collide(big, moved(g, pose(0, 0, 0, qid())), small, moved(g, pose(0.1f, 1.07f, 0.1f, qid())), MS, &m) == 0);
  /* side contact along x */
  CHECK(collide(big, moved(g, pose(0, 0, 0, qid())), small, moved(g, pose(1.49f, 0.2f, 0.3f, qid())), MS, &m) == 4);
  CHECK(all_sep_near(&m, -0.01f, 1e-5));
  CHECK_VEC_NEAR(tb_rotate(g.q, tb_v3(1, 0, 0)), m.normal, 1e-5);
  /* deep: small box centre inside the big one near its -z face */
  CHECK(collide(big, pose(0, 0, 0, qid()), small, pose(0.1f, 0.0f, -0.8f, qid()), MS, &m) >= 1);
  CHECK_VEC_NEAR(tb_v3(0, 0, -1), m.normal, 1e-5);
  CHECK_NEAR(-0.7, min_sep(&m), 1e-5);
}

/* ---- feature ids ---- */

static void test_feature_ids(void) {
  tb_manifold m0, m1;
  uint32_t i0[4], i1[4];
  tb_shape_geom big = box_g(1.0f, 0.5f, 1.0f), small = box_g(0.4f, 0.3f, 0.5f);
  tb_transform ta = pose(0, 0, 0, qid());
  /* fully inside the face, and partially overhanging (clip points) */
  const float xs[2] = {0.2f, 0.85f};
  for (int k = 0; k < 2; ++k) {
    tb_transform t0 = pose(xs[k], 0.79f, 0.1f, qaa(0, 1, 0, 10));
    tb_transform t1 = pose(xs[k] + 0.001f, 0.7905f, 0.1f, qaa(0, 1, 0, 10.5f));
    CHECK(collide(big, ta, small, t0, MS, &m0) == 4);
    CHECK(collide(big, ta, small, t1, MS, &m1) == 4);
    sorted_ids(&m0, i0);
    sorted_ids(&m1, i1);
    for (int i = 0; i < 4; ++i) CHECK(i0[i] == i1[i]);
    /* swapping a and b gives the same ids */
    CHECK(collide(small, t0, big, ta, MS, &m1) == 4);
    sorted_ids(&m1, i1);
    for (int i = 0; i < 4; ++i) CHECK(i0[i] == i1[i]);
  }
  /* tilted 0.5 deg about x as well: still the same ids */
  CHECK(collide(big, ta, small, pose(0.85f, 0.79f, 0.1f, qaa(0, 1, 0, 10)), MS, &m0) == 4);
  CHECK(collide(big, ta, small, pose(0.85f, 0.79f, 0.1f, tb_quat_mul(qaa(1, 0, 0, 0.5f), qaa(0, 1, 0, 10))), MS, &m1) == 4);
  sorted_ids(&m0, i0);
  sorted_ids(&m1, i1);
  for (int i = 0; i < 4; ++i) CHECK(i0[i] == i1[i]);
  /* box on plane and capsule on box */
  CHECK(collide(plane_g(0, 1, 0, 0), ta, small, pose(0, 0.29f, 0, qid()), MS, &m0) == 4);
  CHECK(collide(plane_g(0, 1, 0, 0), ta, small, pose(0.001f, 0.2905f, 0, qaa(1, 0, 1, 0.5f)), MS, &m1) == 4);
  sorted_ids(&m0, i0);
  sorted_ids(&m1, i1);
  for (int i = 0; i < 4; ++i) CHECK(i0[i] == i1[i]);
  CHECK(collide(capsule_g(0.1f, 0.5f), pose(0.1f, 0.59f, 0, qaa(0, 0, 1, 90)), big, ta, MS, &m0) == 2);
  CHECK(collide(capsule_g(0.1f, 0.5f), pose(0.101f, 0.5905f, 0, qaa(0, 0, 1, 90.5f)), big, ta, MS, &m1) == 2);
  CHECK(m0.points[0].feature_id == m1.points[0].feature_id && m0.points[1].feature_id == m1.points[1].feature_id);
}

/* ---- randomised invariants ---- */

static tb_shape_geom rand_shape(int type) {
  switch (type) {
    case TB_SHAPE_PLANE: {
      tb_vec3 n = rand_unit();
      return plane_g(n.x, n.y, n.z, 0.3f * frand());
    }
    case TB_SHAPE_SPHERE: return sphere_g(0.1f + 0.6f * frand01());
    case TB_SHAPE_CAPSULE: {
      float r = 0.05f + 0.4f * frand01();
      float hh = frand01() < 0.05f ? 0.0f : 0.05f + 0.7f * frand01();
      return capsule_g(r, hh);
    }
    default: {
      tb_vec3 h = tb_add(tb_scale(tb_add(rand_vec(), tb_v3(1, 1, 1)), 0.3f), tb_v3(0.05f, 0.05f, 0.05f));
      return box_g(h.x, h.y, h.z);
    }
  }
}
/* Random pose; one in four is "aligned" (90-degree rotations, positions on a 0.25 grid) to hit
 * parallel and coincident cases. */
static tb_transform rand_pose(int aligned) {
  if (aligned) {
    static const tb_vec3 axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    int ax = (int)(frand01() * 3.0f) % 3, k = (int)(frand01() * 4.0f) % 4;
    tb_vec3 r = rand_vec();
    tb_vec3 p = tb_v3(0.25f * floorf(4.0f * r.x), 0.25f * floorf(4.0f * r.y), 0.25f * floorf(4.0f * r.z));
    return pose_p(p, tb_quat_axis_angle(axes[ax], 0.5f * TB_PI * (float)k));
  }
  tb_vec3 p = rand_vec();
  return pose_p(p, rand_quat());
}

static void test_random(void) {
  const float ms = 0.1f;
  int counts[4][4] = {{0}};
  int contacts = 0;
  for (int ta_type = 0; ta_type < 4; ++ta_type) {
    for (int tb_type = 0; tb_type < 4; ++tb_type) {
      if (ta_type == TB_SHAPE_PLANE && tb_type == TB_SHAPE_PLANE) continue;
      for (int it = 0; it < 2000; ++it) {
        int aligned = (it & 3) == 0;
        tb_shape_geom a = rand_shape(ta_type);
        tb_shape_geom b = rand_shape(tb_type);
        tb_transform pa = rand_pose(aligned);
        tb_transform pb = rand_pose(aligned);
        if (aligned && (it & 7) == 0) pb.p = pa.p; /* coincident centres */
        tb_manifold m, s;
        int n = collide(a, pa, b, pb, ms, &m);
        int ns = collide(b, pb, a, pa, ms, &s);
        check_manifold(&m, ms);
        check_manifold(&s, ms);
        CHECK(n == ns);
        if (n != ns || n == 0) continue;
        ++contacts;
        ++counts[ta_type][tb_type];
        CHECK_VEC_NEAR(tb_neg(m.normal), s.normal, 1e-4);
        float sm[4], ss[4];
        uint32_t im[4], is[4];
        for (int i = 0; i < n; ++i) { sm[i] = m.points[i].separation; ss[i] = s.points[i].separation; }
        qsort(sm, (size_t)n, sizeof(float), cmp_float);
        qsort(ss, (size_t)n, sizeof(float), cmp_float);
        for (int i = 0; i < n; ++i) CHECK_NEAR(sm[i], ss[i], 1e-4);
        sorted_ids(&m, im);
        sorted_ids(&s, is);
        for (int i = 0; i < 4; ++i) CHECK(im[i] == is[i]);
        for (int i = 0; i < n; ++i) {
          /* each point lies in (the closure of) its own shape */
          CHECK(shape_distance(a, pa, m.points[i].point0) <= 1e-4f);
          CHECK(shape_distance(b, pb, m.points[i].point1) <= 1e-4f);
        }
        /* the deepest separation is not below minus the largest possible overlap */
        CHECK(min_sep(&m) > -4.0f);
      }
    }
  }
  /* enough contacts of every kind for the checks above to mean something */
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      if (i + j > 0) CHECK(counts[i][j] > 100);
  CHECK(contacts > 5000);
}

/* Sphere against any shape: the separation is the signed distance of the centre to the shape
 * (computed independently) minus the radius, for random poses, inside or outside. */
static void test_random_sphere_exact(void) {
  for (int it = 0; it < 2000; ++it) {
    int type = it % 4;
    tb_shape_geom b = rand_shape(type);
    tb_transform pb = rand_pose(0);
    tb_shape_geom a = sphere_g(0.05f + 0.3f * frand01());
    tb_transform pa = rand_pose(0);
    tb_manifold m;
    /* the sphere's surface distance is |shape distance of the centre| - r */
    float dc = shape_distance(b, pb, pa.p);
    if (collide(a, pa, b, pb, 10.0f, &m) < 1) { CHECK(0); continue; }
    CHECK_NEAR(dc - a.params[0], min_sep(&m), 1e-4); /* inside a box: nearest face depth */
  }
}

/* ---- AABBs ---- */

static void test_aabb(void) {
  tb_vec3 lo, hi;
  for (int it = 0; it < 200; ++it) {
    tb_vec3 pos = tb_scale(rand_vec(), 5.0f);
    tb_transform t = pose_p(pos, rand_quat());
    tb_shape_geom bx = box_g(0.3f, 0.7f, 0.2f);
    tb_shape_aabb(&bx, t, &lo, &hi);
    tb_vec3 vlo = tb_v3(INFINITY, INFINITY, INFINITY), vhi = tb_neg(vlo);
    for (int v = 0; v < 8; ++v) {
      tb_vec3 p = tb_transform_point(t, tb_v3((v & 1) ? 0.3f : -0.3f, (v & 2) ? 0.7f : -0.7f, (v & 4) ? 0.2f : -0.2f));
      vlo = tb_vmin(vlo, p);
      vhi = tb_vmax(vhi, p);
    }
    CHECK_VEC_NEAR(vlo, lo, 1e-5);
    CHECK_VEC_NEAR(vhi, hi, 1e-5);
    tb_shape_geom cp = capsule_g(0.25f, 0.6f);
    tb_shape_aabb(&cp, t, &lo, &hi);
    tb_vec3 e0 = tb_transform_point(t, tb_v3(0, -0.6f, 0)), e1 = tb_transform_point(t, tb_v3(0, 0.6f, 0));
    CHECK_VEC_NEAR(tb_sub(tb_vmin(e0, e1), tb_v3(0.25f, 0.25f, 0.25f)), lo, 1e-5);
    CHECK_VEC_NEAR(tb_add(tb_vmax(e0, e1), tb_v3(0.25f, 0.25f, 0.25f)), hi, 1e-5);
    tb_shape_geom sp = sphere_g(0.4f);
    tb_shape_aabb(&sp, t, &lo, &hi);
    CHECK_VEC_NEAR(tb_sub(t.p, tb_v3(0.4f, 0.4f, 0.4f)), lo, 1e-6);
    CHECK_VEC_NEAR(tb_add(t.p, tb_v3(0.4f, 0.4f, 0.4f)), hi, 1e-6);
  }
  /* planes: huge, tightened along an exactly axis-aligned normal */
  tb_shape_geom pl = plane_g(0, 1, 0, 0.5f);
  tb_shape_aabb(&pl, pose(0, 2, 0, qid()), &lo, &hi);
  CHECK_NEAR(2.5, hi.y, 1e-6);
  CHECK(lo.y <= -1e17f && lo.x <= -1e17f && hi.x >= 1e17f && hi.z >= 1e17f);
  tb_shape_aabb(&pl, pose(0, 0, 0, qaa(1, 0, 0, 30)), &lo, &hi);
  CHECK(lo.y <= -1e17f && hi.y >= 1e17f && lo.z <= -1e17f && hi.z >= 1e17f);
}

int main(void) {
  test_plane_sphere();
  test_plane_capsule();
  test_plane_box();
  test_sphere_sphere();
  test_sphere_capsule();
  test_sphere_box();
  test_capsule_capsule();
  test_capsule_box();
  test_box_box();
  test_feature_ids();
  test_random();
  test_random_sphere_exact();
  test_aabb();
  return tb_test_report("test_narrow_phase");
}
