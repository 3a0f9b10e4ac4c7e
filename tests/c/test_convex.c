/* Tests of the convex narrow phase: support functions, GJK / EPA / MPR against closed forms and
 * against the analytic routines, every new pair type, randomised invariants, the hull builder,
 * support fields, mass properties and resting contact forces. */
#include "../../src/collision/convex.h"
#include "../../src/geometry/hull.h"
#include "../../src/geometry/mass.h"
#include "../../src/geometry/support_field.h"
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#ifndef TB_TEST_SEED
#define TB_TEST_SEED 0xC0FFEEu
#endif
#include "test_random.h"

#define MS 0.05f

static tb_transform pose(float x, float y, float z, tb_quat q) {
  tb_transform t = {tb_v3(x, y, z), q};
  return t;
}
static tb_quat qid(void) { return tb_quat_identity(); }
static tb_quat qaa(float ax, float ay, float az, float deg) {
  return tb_quat_axis_angle(tb_normalize(tb_v3(ax, ay, az)), deg * TB_PI / 180.0f);
}
static tb_shape_geom geom(int type, float p0, float p1, float p2, float p3, const void* data) {
  tb_shape_geom g = {type, {p0, p1, p2, p3}, data};
  return g;
}
static float min_sep(const tb_manifold* m) {
  float s = INFINITY;
  for (int i = 0; i < m->point_count; ++i) s = fminf(s, m->points[i].separation);
  return s;
}
static int manifold_ok(const tb_manifold* m) {
  if (fabsf(tb_length(m->normal) - 1.0f) > 1e-4f) return 0;
  for (int i = 0; i < m->point_count; ++i) {
    const tb_manifold_point* p = &m->points[i];
    if (!tb_is_finite(p->separation) || !tb_is_finite(p->point0.x + p->point0.y + p->point0.z) ||
        !tb_is_finite(p->point1.x + p->point1.y + p->point1.z))
      return 0;
  }
  return 1;
}

static const float cube_pts[8][3] = {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},
                                     {-1, 1, 1},   {1, 1, 1},   {-1, -1, 1}, {1, -1, 1}};

/* A hull of the box with half extents h (8 corners plus interior points). */
static tb_hull* box_hull(tb_vec3 h, int field_res) {
  float pts[3 * 20];
  int n = 0;
  for (int i = 0; i < 8; ++i) {
    pts[3 * n] = cube_pts[i][0] * h.x; pts[3 * n + 1] = cube_pts[i][1] * h.y; pts[3 * n + 2] = cube_pts[i][2] * h.z;
    ++n;
  }
  for (int i = 0; i < 12; ++i) {
    tb_vec3 v = rand_vec();
    pts[3 * n] = 0.9f * v.x * h.x; pts[3 * n + 1] = 0.9f * v.y * h.y; pts[3 * n + 2] = 0.9f * v.z * h.z;
    ++n;
  }
  tb_hull_error err;
  tb_hull* hl = tb_hull_build(pts, n, field_res, &err);
  CHECK(hl != NULL);
  return hl;
}

/* ---- hull builder ---- */

static void test_hull_cube(void) {
  tb_hull* h = box_hull(tb_v3(1, 1, 1), 0);
  if (!h) return;
  CHECK(h->vertex_count == 8);
  CHECK(h->face_count == 6);
  CHECK(h->edge_count == 12);
  for (int f = 0; f < h->face_count; ++f) {
    CHECK(h->face_first[f + 1] - h->face_first[f] == 4);
    CHECK_NEAR(1.0, h->face_offset[f], 1e-6);
    tb_vec3 n = h->face_normal[f];
    CHECK_NEAR(1.0, fabsf(n.x) + fabsf(n.y) + fabsf(n.z), 1e-6); /* axis-aligned */
    /* counter-clockwise seen from outside: the polygon's Newell normal is the face normal */
    int32_t s = h->face_first[f];
    tb_vec3 a = h->vertices[h->face_index[s]], b = h->vertices[h->face_index[s + 1]], c = h->vertices[h->face_index[s + 2]];
    CHECK(tb_dot(tb_cross(tb_sub(b, a), tb_sub(c, a)), n) > 0.0f);
  }
  float vol;
  tb_vec3 com;
  tb_mat3 I;
  tb_hull_mass(h, &vol, &com, &I);
  CHECK_NEAR(8.0, vol, 1e-5);
  CHECK_NEAR(0.0, tb_length(com), 1e-6);
  /* unit density cube of side 2: I = m (a² + b²) / 12 = 8 · 8 / 12 */
  CHECK_NEAR(8.0 * 8.0 / 12.0, I.cx.x, 1e-4);
  CHECK_NEAR(8.0 * 8.0 / 12.0, I.cz.z, 1e-4);
  CHECK_NEAR(0.0, I.cx.y, 1e-5);
  tb_hull_free(h);
}

static void test_hull_sphere_points(void) {
  enum { N = 2000 };
  static float pts[3 * N];
  for (int i = 0; i < N; ++i) {
    tb_vec3 v = rand_unit();
    float r = i % 5 == 0 ? 0.5f + 0.45f * frand01() : 1.0f; /* some interior points */
    pts[3 * i] = 2.0f + r * v.x; pts[3 * i + 1] = -1.0f + r * v.y; pts[3 * i + 2] = 0.5f + r * v.z;
  }
  tb_hull_error err;
  tb_hull* h = tb_hull_build(pts, N, 0, &err);
  CHECK(h != NULL);
  if (!h) return;
  CHECK(h->vertex_count - h->edge_count + h->face_count == 2);
  CHECK(h->vertex_count > 1000 && h->vertex_count <= N - N / 5 + 1);
  /* every input point inside or on the hull within the tolerance */
  float worst = -INFINITY;
  for (int i = 0; i < N; ++i) {
    tb_vec3 p = tb_v3(pts[3 * i], pts[3 * i + 1], pts[3 * i + 2]);
    for (int f = 0; f < h->face_count; ++f) worst = fmaxf(worst, tb_dot(h->face_normal[f], p) - h->face_offset[f]);
  }
  CHECK(worst <= 4.0f * h->tolerance);
  /* volume below the sphere's and above 97% of it for 1600 points on the sphere */
  float vol;
  tb_vec3 com;
  tb_mat3 I;
  tb_hull_mass(h, &vol, &com, &I);
  CHECK(vol < 4.0f / 3.0f * TB_PI && vol > 0.97f * 4.0f / 3.0f * TB_PI);
  CHECK_VEC_NEAR(tb_v3(2.0f, -1.0f, 0.5f), com, 0.01f);
  /* convexity: every vertex on or below every face plane */
  for (int f = 0; f < h->face_count; ++f)
    for (int i = 0; i < h->vertex_count; ++i)
      if (tb_dot(h->face_normal[f], h->vertices[i]) - h->face_offset[f] > 4.0f * h->tolerance) { CHECK(0); f = h->face_count; break; }
  tb_hull_free(h);
}

/* A 5×5×5 lattice (points on faces and edges, collinear and coplanar), axis-aligned and rotated:
 * the hull is the cube with its 8 corners, 12 edges, 6 faces. */
static void test_hull_lattice(void) {
  static float pts[3 * 125];
  tb_quat q = qid();
  for (int pass = 0; pass < 3; ++pass) {
    int n = 0;
    for (int i = 0; i < 5; ++i)
      for (int j = 0; j < 5; ++j)
        for (int k = 0; k < 5; ++k) {
          tb_vec3 v = tb_rotate(q, tb_v3(0.25f * (float)i - 0.5f, 0.25f * (float)j - 0.5f, 0.25f * (float)k - 0.5f));
          pts[3 * n] = v.x; pts[3 * n + 1] = v.y; pts[3 * n + 2] = v.z;
          ++n;
        }
    tb_hull_error err;
    tb_hull* h = tb_hull_build(pts, n, 0, &err);
    CHECK(h != NULL);
    if (!h) return;
    CHECK(h->vertex_count == 8 && h->edge_count == 12 && h->face_count == 6);
    float vol;
    tb_vec3 com;
    tb_mat3 I;
    tb_hull_mass(h, &vol, &com, &I);
    CHECK_NEAR(1.0, vol, 1e-5);
    CHECK_NEAR(1.0 / 6.0, I.cx.x, 1e-5); /* unit cube, unit density: (1 + 1) / 12 */
    CHECK_NEAR(0.0, I.cx.y, 1e-6);       /* isotropic: no products of inertia in any frame */
    tb_hull_free(h);
    q = rand_quat();
  }
}

static void test_hull_rejects(void) {
  tb_hull_error err;
  float pts[3 * 8];
  memcpy(pts, cube_pts, sizeof pts);
  CHECK(tb_hull_build(pts, 3, -1, &err) == NULL);
  CHECK(strstr(err.message, "point_count must be >= 4 (got 3)") != NULL);
  pts[5] = NAN;
  CHECK(tb_hull_build(pts, 8, -1, &err) == NULL);
  CHECK(strstr(err.message, "points[5] must be finite") != NULL);
  /* coplanar: the 4 corners of the z = -1 face, repeated */
  float plane[3 * 6] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0, 0.5f, 0.5f, 0, 0.1f, -0.3f, 0};
  CHECK(tb_hull_build(plane, 6, -1, &err) == NULL);
  CHECK(strstr(err.message, "coplanar") != NULL);
  float line[3 * 5] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, -1, -1, -1};
  CHECK(tb_hull_build(line, 5, -1, &err) == NULL);
  CHECK(strstr(err.message, "collinear") != NULL);
  float same[3 * 4] = {1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3};
  CHECK(tb_hull_build(same, 4, -1, &err) == NULL);
  CHECK(strstr(err.message, "non-degenerate") != NULL);
  CHECK(tb_hull_build(pts, TB_HULL_MAX_POINTS + 1, -1, &err) == NULL);
  CHECK(err.code == 4 && strstr(err.message, "<= 100000") != NULL);
}

/* 27 points in a ball of 0.35 m and one 242 km away (a fuzzer's input, tests/fuzz): the tolerance
 * follows the coordinates' magnitude (0.35 m here), so every face of the thin cone lies within it
 * of its neighbours' planes and the merge joined all of them into one group without a boundary,
 * whose loop read an edge index of -1 (UBSan: hull_faces.c) or, built without sanitizers, turned
 * around a vertex forever. Such points span no solid within the tolerance: refused by name, as
 * flat or collinear points are. */
static void test_hull_rejects_needle(void) {
  const float needle[3 * 28] = {
      0.0794592723f, 0.289285719f, 0.0f, -0.11622332f, 0.31250003f, 0.106470153f,
      0.0199438073f, 0.328571409f, -0.227251112f, 0.1207335f, 0.225000009f, 0.157475159f,
      -0.253157139f, 0.237500027f, -0.0447795913f, 0.268176526f, 0.242857143f, -0.170592397f,
      -0.0657624304f, 0.160714284f, 0.244634882f, -0.142877296f, 0.162500024f, -0.275099695f,
      0.345520079f, 0.157142863f, 0.126182362f, -0.262587965f, 0.0964285806f, 0.108393244f,
      0.143634796f, 0.087500006f, -0.306941062f, 242306.688f, 4.40178161e-26f, 0.0f,
      -0.258069813f, 0.0321428627f, -0.14955537f, 0.34161818f, 0.0124999946f, -0.075105153f,
      -0.229903221f, -0.0142857078f, 0.327017516f, -0.0383328795f, -0.0321428441f, -0.295799673f,
      0.263326734f, -0.0625000149f, 0.221929699f, -0.38696754f, -0.100000001f, 0.0160042979f,
      0.2013634f, -0.0964285657f, -0.200385451f, -0.0148656294f, -0.137500033f, 0.321516365f,
      -0.226987988f, -0.18571429f, -0.272004902f, 0.251057774f, -0.160714284f, 0.033777345f,
      -0.228285521f, -0.212499991f, 0.1588379f, 0.0644843504f, -0.271428585f, -0.286650121f,
      0.0986576304f, -0.225000009f, 0.172167584f, -0.190166533f, -0.287499994f, -0.0606666952f,
      0.163525283f, -0.357142895f, -0.0755543262f, -0.0306753106f, -0.289285719f, 0.0732993931f,
  };
  tb_hull_error err;
  tb_hull* h = tb_hull_build(needle, 28, 8, &err);
  CHECK(h == NULL);
  if (h) tb_hull_free(h);
  else CHECK(err.code == 2 && strstr(err.message, "points must span a solid") != NULL);
  if (!h) printf("needle hull: %s\n", err.message);
}

/* ---- support fields ---- */

static void test_support_field(void) {
  enum { N = 3000 };
  static float pts[3 * N];
  for (int i = 0; i < N; ++i) {
    tb_vec3 v = rand_unit();
    pts[3 * i] = 0.3f + 1.5f * v.x; pts[3 * i + 1] = 0.8f * v.y; pts[3 * i + 2] = v.z;
  }
  tb_hull_error err;
  tb_hull* h = tb_hull_build(pts, N, 64, &err);
  CHECK(h != NULL && h->field != NULL);
  if (!h || !h->field) return;
  CHECK(h->field->bytes >= (size_t)64 * 64 * sizeof(int32_t));
  /* the hill-climbing build stores the exact support of every cell direction */
  int cells_bad = 0;
  for (int32_t j = 0; j < 64; ++j)
    for (int32_t i = 0; i < 64; ++i) {
      tb_vec3 d = tb_support_field_direction(64, i, j);
      float got = tb_dot(h->vertices[h->field->vertex[j * 64 + i]], d);
      float want = tb_dot(h->vertices[tb_hull_support_scan(h, d)], d);
      cells_bad += !(got >= want - 1e-6f);
    }
  CHECK(cells_bad == 0);
  float bound = 2.0f * h->radius * tb_support_field_cell_angle(64);
  float worst = 0.0f;
  int ties = 0, exact = 0;
  for (int k = 0; k < 2000; ++k) {
    tb_vec3 d = rand_unit();
    int32_t t;
    int32_t fi = tb_support_field_lookup(h->field, h->vertices, d, &t);
    int32_t si = tb_hull_support_scan(h, d);
    float gap = tb_dot(h->vertices[si], d) - tb_dot(h->vertices[fi], d);
    CHECK(gap >= 0.0f);
    worst = fmaxf(worst, gap);
    ties += t > 1;
    exact += fi == si;
  }
  CHECK(worst <= bound);
  CHECK(ties > 0);        /* 3000 points: neighbouring cells often pick different vertices */
  CHECK(exact > 1000);    /* and the field is usually exact */
  /* on a cube, directions along a face normal tie between the face's vertices; a generic
   * direction near a corner does not */
  tb_hull* c = box_hull(tb_v3(1, 1, 1), 32);
  if (c) {
    int32_t t;
    tb_support_field_lookup(c->field, c->vertices, tb_v3(0.0f, 0.0f, 1.0f), &t);
    CHECK(t > 1);
    int32_t v = tb_support_field_lookup(c->field, c->vertices, tb_v3(0.5f, 0.6f, 0.62f), &t);
    CHECK(t == 1);
    CHECK_VEC_NEAR(tb_v3(1, 1, 1), c->vertices[v], 0.0f);
    tb_hull_free(c);
  }
  tb_hull_free(h);
}

/* Non-finite directions give a defined answer, with no float → int conversion out of range on
 * the way (make asan: -fsanitize=float-cast-overflow). A NaN component makes the angles NaN,
 * which read cell (0, 0) (the +z pole), and every dot NaN, so no tie is counted. An infinite
 * component gives a vertex in range (z = inf / inf is NaN: the +z pole's cells); an infinite x
 * alone keeps finite angles and its side. */
static void test_support_field_non_finite(void) {
  tb_hull* c = box_hull(tb_v3(1, 2, 3), 32);
  CHECK(c != NULL && c->field != NULL);
  if (!c || !c->field) return;
  const float nan = NAN, inf = INFINITY;
  const tb_vec3 nan_dirs[] = {tb_v3(nan, 0, 0), tb_v3(0, nan, 1), tb_v3(1, 0, nan), tb_v3(nan, nan, nan)};
  for (int k = 0; k < 4; ++k) {
    int32_t t = -1;
    int32_t v = tb_support_field_lookup(c->field, c->vertices, nan_dirs[k], &t);
    CHECK(v == c->field->vertex[0]);
    CHECK(t == 0);
  }
  const tb_vec3 all[] = {tb_v3(nan, 0, 0), tb_v3(0, 0, -inf), tb_v3(inf, inf, inf), tb_v3(-inf, nan, inf), tb_v3(inf, 0, 0)};
  for (int k = 0; k < 5; ++k) {
    int32_t t = -1;
    int32_t v = tb_support_field_lookup(c->field, c->vertices, all[k], &t);
    CHECK(v >= 0 && v < c->vertex_count && t >= 0 && t <= 4);
    int32_t s = tb_hull_support(c, all[k]);
    CHECK(s >= 0 && s < c->vertex_count);
  }
  int32_t t;
  CHECK(c->vertices[tb_support_field_lookup(c->field, c->vertices, tb_v3(inf, 0, 0), &t)].x == 1.0f);
  tb_hull_free(c);
}

/* ---- closed forms for the new pair types ---- */

static void test_cylinder_sphere(void) {
  tb_shape_geom cyl = geom(TB_SHAPE_CYLINDER, 0.5f, 1.0f, 0, 0, NULL), sph = geom(TB_SHAPE_SPHERE, 0.25f, 0, 0, 0, NULL);
  for (int k = 0; k < 4; ++k) {
    /* a rigid motion of the whole configuration */
    tb_quat g = k == 0 ? qid() : qaa(frand(), frand(), frand(), 90.0f * frand());
    tb_vec3 o = tb_scale(rand_vec(), 3.0f);
    tb_transform tc = {o, g};
    /* side: sphere centre at 0.7 from the axis, at height 0.3: gap 0.7 − 0.5 − 0.25 = −0.05 */
    tb_manifold m;
    tb_transform ts = {tb_transform_point(tc, tb_v3(0.7f, 0.3f, 0.0f)), qid()};
    int n = tb_collide(&cyl, tc, &sph, ts, MS, &m);
    CHECK(n == 1);
    CHECK_NEAR(-0.05, min_sep(&m), 1e-5);
    CHECK_VEC_NEAR(tb_rotate(g, tb_v3(1, 0, 0)), m.normal, 1e-5);
    CHECK_VEC_NEAR(tb_transform_point(tc, tb_v3(0.5f, 0.3f, 0.0f)), m.points[0].point0, 1e-5);
    /* cap: sphere above the top cap, separated by 0.03 */
    ts.p = tb_transform_point(tc, tb_v3(0.1f, 1.28f, -0.2f));
    n = tb_collide(&cyl, tc, &sph, ts, MS, &m);
    CHECK(n == 1);
    CHECK_NEAR(0.03, min_sep(&m), 1e-5);
    CHECK_VEC_NEAR(tb_rotate(g, tb_v3(0, 1, 0)), m.normal, 1e-5);
    /* swapped order: same contact seen from the sphere */
    n = tb_collide(&sph, ts, &cyl, tc, MS, &m);
    CHECK(n == 1);
    CHECK_NEAR(0.03, min_sep(&m), 1e-5);
    CHECK_VEC_NEAR(tb_rotate(g, tb_v3(0, -1, 0)), m.normal, 1e-5);
    /* beyond max_separation: nothing */
    ts.p = tb_transform_point(tc, tb_v3(0.1f, 1.35f, -0.2f));
    CHECK(tb_collide(&cyl, tc, &sph, ts, MS, &m) == 0);
  }
}

static void test_ellipsoid_plane(void) {
  tb_shape_geom pl = geom(TB_SHAPE_PLANE, 0, 1, 0, 0, NULL), el = geom(TB_SHAPE_ELLIPSOID, 0.6f, 0.3f, 0.4f, 0, NULL);
  for (int k = 0; k < 6; ++k) {
    tb_quat q = qaa(frand(), frand(), frand(), 180.0f * frand());
    /* lowest point below the centre by sqrt(nᵀ R A² Rᵀ n), n = +y */
    tb_vec3 nl = tb_inv_rotate(q, tb_v3(0, 1, 0));
    float h = sqrtf(0.36f * nl.x * nl.x + 0.09f * nl.y * nl.y + 0.16f * nl.z * nl.z);
    float y = h - 0.01f + 0.02f * (float)k / 5.0f;
    tb_manifold m;
    int n = tb_collide(&pl, pose(0, 0, 0, qid()), &el, pose(0.3f, y, -0.2f, q), MS, &m);
    CHECK(n == 1); /* a curved surface touches in one point */
    CHECK_NEAR(y - h, min_sep(&m), 1e-5);
    CHECK_VEC_NEAR(tb_v3(0, 1, 0), m.normal, 1e-6);
    CHECK_NEAR(0.0, m.points[0].point0.y, 1e-6);
  }
}

static void test_cylinder_plane(void) {
  tb_shape_geom pl = geom(TB_SHAPE_PLANE, 0, 1, 0, 0, NULL), cyl = geom(TB_SHAPE_CYLINDER, 0.5f, 0.4f, 0, 0, NULL);
  tb_manifold m;
  /* upright, penetrating 0.01: 4 points on the rim, 90° apart */
  int n = tb_collide(&pl, pose(0, 0, 0, qid()), &cyl, pose(1, 0.39f, 2, qaa(0, 1, 0, 20)), MS, &m);
  CHECK(n == 4);
  if (n == 4) CHECK_NEAR(2.0 * 0.25, tb_length_sq(tb_sub(m.points[0].point1, m.points[1].point1)), 1e-3);
  for (int i = 0; i < n; ++i) {
    CHECK_NEAR(-0.01, m.points[i].separation, 1e-5);
    float r = tb_length(tb_sub(tb_v3(m.points[i].point1.x, 0, m.points[i].point1.z), tb_v3(1, 0, 2)));
    CHECK_NEAR(0.5, r, 1e-4);
  }
  /* lying on its side: a line contact, two points at the cap ends */
  n = tb_collide(&pl, pose(0, 0, 0, qid()), &cyl, pose(0, 0.5f, 0, qaa(0, 0, 1, 90)), MS, &m);
  CHECK(n == 2);
  if (n == 2) CHECK_NEAR(0.8, fabsf(m.points[0].point1.x - m.points[1].point1.x), 1e-4);
  /* tilted by 30° about z: the lowest rim point at y − (h cos 30 + r sin 30) */
  float y = 0.4f * cosf(TB_PI / 6) + 0.5f * sinf(TB_PI / 6) + 0.02f;
  n = tb_collide(&pl, pose(0, 0, 0, qid()), &cyl, pose(0, y, 0, qaa(0, 0, 1, 30)), MS, &m);
  CHECK(n >= 1);
  CHECK_NEAR(0.02, min_sep(&m), 1e-5);
}

/* Pairs of the new types in configurations with closed forms, each under several rigid motions
 * of the whole configuration (rotations included). */
static void test_more_closed_forms(void) {
  tb_shape_geom el = geom(TB_SHAPE_ELLIPSOID, 0.6f, 0.3f, 0.4f, 0, NULL), sp = geom(TB_SHAPE_SPHERE, 0.2f, 0, 0, 0, NULL);
  tb_shape_geom c1 = geom(TB_SHAPE_CYLINDER, 0.5f, 0.3f, 0, 0, NULL), c2 = geom(TB_SHAPE_CYLINDER, 0.3f, 0.2f, 0, 0, NULL);
  tb_shape_geom cap = geom(TB_SHAPE_CAPSULE, 0.1f, 0.3f, 0, 0, NULL), big = geom(TB_SHAPE_BOX, 1.0f, 0.2f, 1.0f, 0, NULL);
  tb_shape_geom e2 = geom(TB_SHAPE_ELLIPSOID, 0.2f, 0.5f, 0.3f, 0, NULL);
  for (int k = 0; k < 5; ++k) {
    tb_transform g = {tb_scale(rand_vec(), 2.0f), k == 0 ? qid() : rand_quat()};
    tb_vec3 ex = tb_rotate(g.q, tb_v3(1, 0, 0)), ey = tb_rotate(g.q, tb_v3(0, 1, 0));
    tb_transform o = g;
    tb_manifold m;
    for (int gi = 0; gi < 3; ++gi) {
      float gap = -0.02f + 0.02f * (float)gi; /* penetrating, touching, separated */
      /* ellipsoid – sphere along the ellipsoid's x axis: gap = d − a − r */
      tb_transform ts = {tb_transform_point(g, tb_v3(0.6f + 0.2f + gap, 0, 0)), rand_quat()};
      CHECK(tb_collide(&el, o, &sp, ts, MS, &m) == 1);
      CHECK_NEAR(gap, min_sep(&m), 5e-5);
      CHECK_VEC_NEAR(ex, m.normal, 3e-3); /* curved pairs: MPR / EPA normals to ~0.2° */
      /* ellipsoid – ellipsoid along y: gap = d − 0.3 − 0.5 */
      tb_transform te = {tb_transform_point(g, tb_v3(0, 0.8f + gap, 0)), g.q};
      CHECK(tb_collide(&el, o, &e2, te, MS, &m) == 1);
      CHECK_NEAR(gap, min_sep(&m), 5e-5);
      CHECK_VEC_NEAR(ey, m.normal, 3e-3);
      /* cylinder on cylinder, coaxial caps: the smaller cap's rim, 4 points at the gap */
      tb_transform tc = {tb_transform_point(g, tb_v3(0.05f, 0.3f + 0.2f + gap, -0.05f)), tb_quat_mul(g.q, qaa(0, 1, 0, 30))};
      int n = tb_collide(&c1, o, &c2, tc, MS, &m);
      CHECK(n == 4);
      int on_rim = 0;
      for (int i = 0; i < n; ++i) {
        CHECK_NEAR(gap, m.points[i].separation, 1e-4); /* perturbed points: 0.5% of the depth */
        tb_vec3 l = tb_inv_transform_point(tc, m.points[i].point1);
        float rr = sqrtf(l.x * l.x + l.z * l.z);
        CHECK(rr <= 0.3f + 2.5e-3f);                 /* on the small cap */
        on_rim += fabsf(rr - 0.3f) <= 2.5e-3f;       /* perturbed points: on its rim (to 1%) */
      }
      CHECK(on_rim >= 3);
      CHECK_VEC_NEAR(ey, m.normal, 1e-4);
      /* cylinders side by side, axes parallel: a line contact over the overlap of the two
       * heights (0.4 m): points spread along it, gap = d − r1 − r2 */
      tc.p = tb_transform_point(g, tb_v3(0.8f + gap, 0.1f, 0));
      tc.q = g.q;
      n = tb_collide(&c1, o, &c2, tc, MS, &m);
      CHECK(n >= 2);
      float lo = INFINITY, hi = -INFINITY;
      for (int i = 0; i < n; ++i) {
        CHECK_NEAR(gap, m.points[i].separation, 1e-4);
        float y = tb_dot(tb_sub(m.points[i].point1, g.p), ey);
        lo = fminf(lo, y); hi = fmaxf(hi, y);
      }
      CHECK_NEAR(-0.1, lo, 2e-3);
      CHECK_NEAR(0.3, hi, 2e-3);
      CHECK_VEC_NEAR(ex, m.normal, 5e-3); /* MPR on a curved side at 0.02 m depth: ~0.3° */
      /* capsule lying across the cylinder's top cap: a line contact at both segment ends */
      tb_transform tk = {tb_transform_point(g, tb_v3(0, 0.3f + 0.1f + gap, 0)), tb_quat_mul(g.q, qaa(0, 0, 1, 90))};
      n = tb_collide(&c1, o, &cap, tk, MS, &m);
      CHECK(n >= 2);
      float span = 0.0f;
      for (int i = 0; i < n; ++i) {
        CHECK_NEAR(gap, m.points[i].separation, 5e-5);
        for (int j2 = 0; j2 < n; ++j2) span = fmaxf(span, tb_length(tb_sub(m.points[i].point1, m.points[j2].point1)));
      }
      CHECK_NEAR(0.6, span, 3e-3); /* the capsule's segment length (perturbation: 0.5%) */
      CHECK_VEC_NEAR(ey, m.normal, 1e-4);
      /* cylinder standing on a large box: 4 rim points at the gap */
      tb_transform tb2 = {tb_transform_point(g, tb_v3(0.1f, 0.2f + 0.3f + gap, 0.2f)), g.q};
      n = tb_collide(&big, o, &c1, tb2, MS, &m);
      CHECK(n == 4);
      for (int i = 0; i < n; ++i) CHECK_NEAR(gap, m.points[i].separation, 5e-5);
      CHECK_VEC_NEAR(ey, m.normal, 1e-4);
    }
  }
}

/* A hull built from a box's corners collides like the box (hull–plane, hull–box, hull–hull). */
static void test_hull_equals_box(void) {
  tb_vec3 he = tb_v3(0.5f, 0.3f, 0.4f);
  tb_hull* h = box_hull(he, -1);
  if (!h) return;
  tb_shape_geom hg = geom(TB_SHAPE_HULL, 0, 0, 0, 0, h), bg = geom(TB_SHAPE_BOX, he.x, he.y, he.z, 0, NULL);
  tb_shape_geom pl = geom(TB_SHAPE_PLANE, 0, 1, 0, 0, NULL);
  tb_shape_geom big = geom(TB_SHAPE_BOX, 2.0f, 0.5f, 2.0f, 0, NULL);
  for (int k = 0; k < 5; ++k) {
    tb_quat q = k == 0 ? qid() : qaa(0, 1, 0, 70.0f * frand());
    float y = 0.3f - 0.01f + 0.005f * (float)k;
    tb_manifold mh, mb;
    int nh = tb_collide(&pl, pose(0, 0, 0, qid()), &hg, pose(0.1f, y, 0, q), MS, &mh);
    int nb = tb_collide(&pl, pose(0, 0, 0, qid()), &bg, pose(0.1f, y, 0, q), MS, &mb);
    CHECK(nh == 4 && nb == 4);
    CHECK_NEAR(min_sep(&mb), min_sep(&mh), 1e-5);
    CHECK_NEAR(y - 0.3f, min_sep(&mh), 1e-5);
    /* on a large box: face clipping gives the 4 corners */
    nh = tb_collide(&big, pose(0, -0.5f, 0, qid()), &hg, pose(0.1f, y, 0, q), MS, &mh);
    nb = tb_collide(&big, pose(0, -0.5f, 0, qid()), &bg, pose(0.1f, y, 0, q), MS, &mb);
    CHECK(nh == 4 && nb == 4);
    CHECK_NEAR(min_sep(&mb), min_sep(&mh), 1e-5);
    CHECK(fabsf(tb_dot(mh.normal, mb.normal)) > 0.9999f);
    for (int i = 0; i < nh; ++i) CHECK_NEAR(y - 0.3f, mh.points[i].separation, 1e-5);
  }
  /* hull on hull, rotated about the normal: 4 points (clipped square against square) */
  tb_manifold m;
  int n = tb_collide(&hg, pose(0, 0, 0, qid()), &hg, pose(0.05f, 0.59f, 0, qaa(0, 1, 0, 45)), MS, &m);
  CHECK(n == 4);
  CHECK_NEAR(-0.01, min_sep(&m), 1e-5);
  CHECK(fabsf(m.normal.y) > 0.9999f);
  tb_hull_free(h);
}

/* Feature ids: the same points keep the same ids when the pose moves a little between frames
 * (clipped polytope faces, hull vertices on a plane, perturbation directions). */
static int same_ids(const tb_manifold* a, const tb_manifold* b) {
  if (a->point_count != b->point_count) return 0;
  for (int i = 0; i < a->point_count; ++i) {
    int found = 0;
    for (int j = 0; j < b->point_count; ++j) found |= a->points[i].feature_id == b->points[j].feature_id;
    if (!found) return 0;
  }
  return 1;
}

static void test_feature_ids(void) {
  tb_hull* h = box_hull(tb_v3(0.3f, 0.2f, 0.25f), 0);
  if (!h) return;
  tb_shape_geom hg = geom(TB_SHAPE_HULL, 0, 0, 0, 0, h), big = geom(TB_SHAPE_BOX, 2.0f, 0.5f, 2.0f, 0, NULL);
  tb_shape_geom pl = geom(TB_SHAPE_PLANE, 0, 1, 0, 0, NULL), cyl = geom(TB_SHAPE_CYLINDER, 0.3f, 0.2f, 0, 0, NULL);
  const tb_shape_geom* movers[3] = {&hg, &hg, &cyl};
  const tb_shape_geom* grounds[3] = {&big, &pl, &pl};
  const float y0[3] = {-0.5f, 0.0f, 0.0f};
  for (int c = 0; c < 3; ++c) {
    tb_manifold m0, m1;
    tb_transform tg = pose(0, y0[c], 0, qid());
    tb_transform t0 = pose(0.1f, 0.195f, 0.05f, qaa(0.3f, 1, 0.2f, 0.5f));
    int n0 = tb_collide(grounds[c], tg, movers[c], t0, MS, &m0);
    CHECK(n0 == 4);
    int distinct = 1;
    for (int i = 0; i < n0; ++i)
      for (int j = i + 1; j < n0; ++j) distinct &= m0.points[i].feature_id != m0.points[j].feature_id;
    CHECK(distinct);
    for (int k = 0; k < 5; ++k) {
      /* the next frames: moved by up to 1 mm and 0.2° */
      tb_transform t1 = {tb_add(t0.p, tb_scale(rand_vec(), 1e-3f)), tb_quat_mul(qaa(frand(), frand(), frand(), 0.2f), t0.q)};
      tb_collide(grounds[c], tg, movers[c], t1, MS, &m1);
      CHECK(same_ids(&m0, &m1));
      if (!same_ids(&m0, &m1)) {
        fprintf(stderr, "  case %d:", c);
        for (int i = 0; i < m0.point_count; ++i) fprintf(stderr, " %x", m0.points[i].feature_id);
        fprintf(stderr, " |");
        for (int i = 0; i < m1.point_count; ++i) fprintf(stderr, " %x", m1.points[i].feature_id);
        fprintf(stderr, "\n");
      }
    }
  }
  tb_hull_free(h);
}

/* ---- analytic routines against GJK / EPA ---- */

static void gjk_epa(const tb_convex* a, const tb_convex* b, float* sep, tb_vec3* n) {
  tb_convex_result r;
  tb_gjk(a, b, &r);
  if (r.overlap) tb_epa(a, b, &r);
  float rad = tb_convex_radius(a) + tb_convex_radius(b);
  *sep = r.overlap ? -r.distance - rad : r.distance - rad;
  *n = r.normal;
}

static tb_convex cvx(int type, float p0, float p1, float p2, const void* data, tb_transform t) {
  tb_convex c;
  memset(&c, 0, sizeof c);
  c.type = type;
  c.params[0] = p0; c.params[1] = p1; c.params[2] = p2;
  c.data = data;
  c.pose = t;
  return c;
}

/* 1 when n is (±) a local axis of the frame qa or qb. */
static int is_face_axis(tb_vec3 n, tb_quat qa, tb_quat qb) {
  for (int k = 0; k < 3; ++k) {
    tb_vec3 e = k == 0 ? tb_v3(1, 0, 0) : (k == 1 ? tb_v3(0, 1, 0) : tb_v3(0, 0, 1));
    if (fabsf(tb_dot(n, tb_rotate(qa, e))) > 1.0f - 1e-6f || fabsf(tb_dot(n, tb_rotate(qb, e))) > 1.0f - 1e-6f) return 1;
  }
  return 0;
}

static void compare_analytic(tb_convex a, tb_convex b, const char* what) {
  tb_shape_geom ga = geom(a.type, a.params[0], a.params[1], a.params[2], 0, NULL);
  tb_shape_geom gb = geom(b.type, b.params[0], b.params[1], b.params[2], 0, NULL);
  tb_manifold m;
  int n = tb_collide(&ga, a.pose, &gb, b.pose, 10.0f, &m);
  float sep;
  tb_vec3 nn;
  gjk_epa(&a, &b, &sep, &nn);
  CHECK(n >= 1);
  if (n < 1) return;
  /* nearly parallel box faces: the SAT routine keeps either face within its tolerance, EPA
   * takes the exact minimum; both normals are then face normals of the two boxes */
  int faces = a.type == TB_SHAPE_BOX && b.type == TB_SHAPE_BOX && is_face_axis(m.normal, a.pose.q, b.pose.q) &&
              is_face_axis(nn, a.pose.q, b.pose.q) && tb_dot(m.normal, nn) > cosf(1.0f * TB_PI / 180.0f);
  int bad = !(fabsf(min_sep(&m) - sep) <= 1e-4f) || !(faces || tb_length(tb_sub(m.normal, nn)) <= 1e-3f);
  if (bad) fprintf(stderr, "  %s: analytic %g (%g %g %g) general %g (%g %g %g)\n", what, (double)min_sep(&m),
                   (double)m.normal.x, (double)m.normal.y, (double)m.normal.z, (double)sep, (double)nn.x, (double)nn.y, (double)nn.z);
  CHECK_NEAR(min_sep(&m), sep, 1e-4);
  CHECK(faces || tb_length(tb_sub(m.normal, nn)) <= 1e-3f);
}

static void test_analytic_vs_general(void) {
  for (int k = 0; k < 20; ++k) {
    tb_quat qa = rand_quat(), qb = rand_quat();
    tb_vec3 pa = tb_scale(rand_vec(), 0.2f);
    tb_vec3 dir = rand_unit();
    /* separated and overlapping distances */
    float dist = k % 2 ? 1.4f : 0.9f;
    tb_transform ta = {pa, qa}, tbb = {tb_add(pa, tb_scale(dir, dist)), qb};
    compare_analytic(cvx(TB_SHAPE_SPHERE, 0.5f, 0, 0, NULL, ta), cvx(TB_SHAPE_SPHERE, 0.6f, 0, 0, NULL, tbb), "sphere-sphere");
    compare_analytic(cvx(TB_SHAPE_SPHERE, 0.5f, 0, 0, NULL, ta), cvx(TB_SHAPE_BOX, 0.3f, 0.5f, 0.4f, NULL, tbb), "sphere-box");
    compare_analytic(cvx(TB_SHAPE_SPHERE, 0.3f, 0, 0, NULL, ta), cvx(TB_SHAPE_CAPSULE, 0.2f, 0.5f, 0, NULL, tbb), "sphere-capsule");
  }
  /* capsule–box and box–box: face contacts with clear minimum axes (the SAT routines prefer
   * face axes by a small margin, so edge-edge near-ties are not compared) */
  for (int k = 0; k < 10; ++k) {
    tb_quat qa = qaa(frand(), frand(), frand(), 10.0f * frand());
    tb_quat qb = qaa(0, 1, 0, 90.0f * frand());
    float y = 0.55f + 0.1f * frand();
    tb_transform ta = {tb_v3(0, 0, 0), qid()}, tbb = {tb_v3(0.2f * frand(), y, 0.2f * frand()), tb_quat_mul(qb, qa)};
    compare_analytic(cvx(TB_SHAPE_BOX, 1.0f, 0.3f, 1.0f, NULL, ta), cvx(TB_SHAPE_CAPSULE, 0.25f, 0.4f, 0, NULL,
                     (tb_transform){tbb.p, tb_quat_mul(qaa(0, 0, 1, 90), tbb.q)}), "box-capsule");
    compare_analytic(cvx(TB_SHAPE_BOX, 1.0f, 0.3f, 1.0f, NULL, ta), cvx(TB_SHAPE_BOX, 0.3f, 0.25f, 0.2f, NULL, tbb), "box-box");
    /* boxes as hulls through the whole convex path (MPR default) against box-box */
    tb_hull* ha = box_hull(tb_v3(1.0f, 0.3f, 1.0f), 0);
    tb_hull* hb = box_hull(tb_v3(0.3f, 0.25f, 0.2f), 0);
    if (ha && hb) {
      tb_convex ca = cvx(TB_SHAPE_HULL, 0, 0, 0, ha, ta), cb = cvx(TB_SHAPE_HULL, 0, 0, 0, hb, tbb);
      tb_shape_geom ga = geom(TB_SHAPE_BOX, 1.0f, 0.3f, 1.0f, 0, NULL), gb = geom(TB_SHAPE_BOX, 0.3f, 0.25f, 0.2f, 0, NULL);
      tb_manifold mh, mb;
      tb_collide_convex(&ca, &cb, 10.0f, &mh);
      tb_collide(&ga, ta, &gb, tbb, 10.0f, &mb);
      CHECK_NEAR(min_sep(&mb), min_sep(&mh), 1e-4);
      CHECK(tb_length(tb_sub(mb.normal, mh.normal)) <= 1e-3f ||
            (is_face_axis(mb.normal, ta.q, tbb.q) && is_face_axis(mh.normal, ta.q, tbb.q) &&
             tb_dot(mb.normal, mh.normal) > cosf(1.0f * TB_PI / 180.0f)));
      float s;
      tb_vec3 nn;
      gjk_epa(&ca, &cb, &s, &nn);
      CHECK_NEAR(min_sep(&mb), s, 1e-4);
    }
    tb_hull_free(ha);
    tb_hull_free(hb);
  }
}

/* GJK distance and closest points between separated shapes against closed forms. */
static void test_gjk_closed_forms(void) {
  /* ellipsoid semi-axes (1, 0.5, 0.25) at the origin, sphere core at (3, 0, 0) r 0.5: gap 1.5 */
  tb_convex e = cvx(TB_SHAPE_ELLIPSOID, 1.0f, 0.5f, 0.25f, NULL, pose(0, 0, 0, qid()));
  tb_convex s = cvx(TB_SHAPE_SPHERE, 0.5f, 0, 0, NULL, pose(3, 0, 0, qid()));
  tb_convex_result r;
  tb_gjk(&e, &s, &r);
  CHECK(!r.overlap);
  CHECK_NEAR(2.0, r.distance, 1e-4);
  CHECK_VEC_NEAR(tb_v3(1, 0, 0), r.point_a, 1e-3);
  CHECK_VEC_NEAR(tb_v3(1, 0, 0), r.normal, 1e-3);
  /* cylinder over cylinder, caps facing: gap along the axis */
  tb_convex c0 = cvx(TB_SHAPE_CYLINDER, 0.5f, 0.5f, 0, NULL, pose(0, 0, 0, qid()));
  tb_convex c1 = cvx(TB_SHAPE_CYLINDER, 0.3f, 0.2f, 0, NULL, pose(0.4f, 0.8f, 0.1f, qid()));
  tb_gjk(&c0, &c1, &r);
  CHECK_NEAR(0.1, r.distance, 1e-5);
  CHECK_VEC_NEAR(tb_v3(0, 1, 0), r.normal, 1e-4);
  /* overlapping cylinders side by side (axes parallel): depth r0 + r1 − d by MPR and by EPA */
  c1.pose = pose(0.7f, 0.1f, 0, qid());
  tb_mpr(&c0, &c1, &r);
  CHECK(r.overlap);
  CHECK_NEAR(0.1, r.distance, 1e-4);
  CHECK_VEC_NEAR(tb_v3(1, 0, 0), r.normal, 1e-3);
  tb_gjk(&c0, &c1, &r);
  CHECK(r.overlap);
  tb_epa(&c0, &c1, &r);
  CHECK_NEAR(0.1, r.distance, 2e-4);
  CHECK_VEC_NEAR(tb_v3(1, 0, 0), r.normal, 3e-3);
}

/* Triangle of a mesh against a sphere and a box (the mesh path). */
static void test_triangle(void) {
  tb_convex t;
  memset(&t, 0, sizeof t);
  t.type = TB_CONVEX_TRIANGLE;
  t.tri[0] = tb_v3(-1, 0, -1); t.tri[1] = tb_v3(0, 0, 1); t.tri[2] = tb_v3(1, 0, -1);
  t.pose = pose(0, 0, 0, qid());
  tb_convex s = cvx(TB_SHAPE_SPHERE, 0.25f, 0, 0, NULL, pose(0.1f, 0.2f, -0.1f, qid()));
  tb_manifold m;
  CHECK(tb_collide_convex(&t, &s, MS, &m) == 1);
  CHECK_NEAR(-0.05, min_sep(&m), 1e-5);
  CHECK_VEC_NEAR(tb_v3(0, 1, 0), m.normal, 1e-5);
  tb_convex b = cvx(TB_SHAPE_BOX, 0.1f, 0.1f, 0.1f, NULL, pose(0.0f, 0.09f, -0.2f, qid()));
  int n = tb_collide_convex(&t, &b, MS, &m);
  CHECK(n == 4);
  for (int i = 0; i < n; ++i) CHECK_NEAR(-0.01, m.points[i].separation, 1e-5);
  CHECK(fabsf(m.normal.y) > 0.9999f);
}

/* ---- randomised invariants for every pair of new types ---- */

static int vec_same(tb_vec3 a, tb_vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

static void test_random_pairs(void) {
  tb_hull* h = box_hull(tb_v3(0.4f, 0.3f, 0.35f), -1);
  enum { N = 200 };
  static float pts[3 * N];
  for (int i = 0; i < N; ++i) {
    tb_vec3 v = rand_unit();
    pts[3 * i] = 0.5f * v.x; pts[3 * i + 1] = 0.3f * v.y; pts[3 * i + 2] = 0.4f * v.z;
  }
  tb_hull_error err;
  tb_hull* hs = tb_hull_build(pts, N, -1, &err); /* >= 64 vertices: uses its support field */
  CHECK(hs && hs->field);
  if (!h || !hs) return;
  const tb_shape_geom shapes[] = {
      geom(TB_SHAPE_PLANE, 0, 1, 0, 0, NULL),       geom(TB_SHAPE_SPHERE, 0.4f, 0, 0, 0, NULL),
      geom(TB_SHAPE_CAPSULE, 0.25f, 0.4f, 0, 0, NULL), geom(TB_SHAPE_BOX, 0.4f, 0.3f, 0.35f, 0, NULL),
      geom(TB_SHAPE_CYLINDER, 0.35f, 0.4f, 0, 0, NULL), geom(TB_SHAPE_ELLIPSOID, 0.5f, 0.3f, 0.4f, 0, NULL),
      geom(TB_SHAPE_HULL, 0, 0, 0, 0, h),           geom(TB_SHAPE_HULL, 0, 0, 0, 0, hs)};
  const int S = (int)(sizeof shapes / sizeof shapes[0]);
  int contacts = 0, sym_bad = 0, mirror_bad = 0;
  for (int i = 0; i < S; ++i)
    for (int j = i; j < S; ++j) {
      if (shapes[i].type <= TB_SHAPE_BOX && shapes[j].type <= TB_SHAPE_BOX) continue;
      if (shapes[j].type == TB_SHAPE_PLANE) continue;
      for (int k = 0; k < 40; ++k) {
        tb_transform ta = {tb_scale(rand_vec(), 0.1f), rand_quat()};
        tb_transform tbb = {tb_add(ta.p, tb_scale(rand_unit(), 0.4f + 0.6f * frand01())), rand_quat()};
        if (shapes[i].type == TB_SHAPE_PLANE) ta = pose(0, 0, 0, qid()), tbb.p.y = 0.6f * frand();
        tb_manifold m, ms;
        int n = tb_collide(&shapes[i], ta, &shapes[j], tbb, 0.1f, &m);
        CHECK(manifold_ok(&m));
        CHECK(n <= 4 && m.points_found >= n);
        contacts += n > 0;
        /* consistency: separation = dot(p1 − p0, n) */
        for (int p = 0; p < n; ++p)
          CHECK_NEAR(tb_dot(tb_sub(m.points[p].point1, m.points[p].point0), m.normal), m.points[p].separation, 1e-4);
        /* the exchanged order goes through the mirrored cell of the pair table: the same contact
         * seen from the other shape, bit for bit */
        int nr = tb_collide(&shapes[j], tbb, &shapes[i], ta, 0.1f, &ms);
        int rbad = nr != n || m.points_found != ms.points_found || (n && !vec_same(m.normal, tb_neg(ms.normal)));
        for (int p = 0; p < n && !rbad; ++p)
          rbad = m.points[p].separation != ms.points[p].separation || m.points[p].feature_id != ms.points[p].feature_id ||
                 !vec_same(m.points[p].point0, ms.points[p].point1) || !vec_same(m.points[p].point1, ms.points[p].point0);
        mirror_bad += rbad;
        if (shapes[i].type == TB_SHAPE_PLANE) continue;
        /* symmetry of tb_collide_convex (used directly by the mesh path): a↔b mirrors the
         * manifold exactly (normal negated, points swapped) */
        tb_convex ca = tb_convex_from_geom(&shapes[i], ta), cb = tb_convex_from_geom(&shapes[j], tbb);
        int n1 = tb_collide_convex(&ca, &cb, 0.1f, &m);
        int n2 = tb_collide_convex(&cb, &ca, 0.1f, &ms);
        int bad = n1 != n2 || (n1 && tb_length(tb_add(m.normal, ms.normal)) > 1e-6f);
        for (int p = 0; p < n1 && !bad; ++p)
          bad = m.points[p].separation != ms.points[p].separation || m.points[p].feature_id != ms.points[p].feature_id ||
                tb_length(tb_sub(m.points[p].point0, ms.points[p].point1)) > 0.0f;
        sym_bad += bad;
        if (n1) CHECK(manifold_ok(&m) && manifold_ok(&ms));
        /* the penetration methods agree on the first contact up to MPR's non-minimal portals:
         * EPA's depth is never larger than MPR's by more than the tolerance (EPA finds the
         * minimum, MPR the exit along the centre line) */
        tb_convex_options single = tb_convex_default_options(), epa = single;
        single.multi_contact = TB_MULTI_SINGLE;
        epa.multi_contact = TB_MULTI_SINGLE;
        epa.penetration = TB_PENETRATION_EPA;
        tb_manifold me;
        if (tb_collide_convex_ex(&ca, &cb, 1.0f, &single, &m) && tb_collide_convex_ex(&ca, &cb, 1.0f, &epa, &me)) {
          float field_tol = shapes[i].data == hs || shapes[j].data == hs ? 2.0f * hs->radius * tb_support_field_cell_angle(hs->field->res) : 0.0f;
          CHECK(me.points[0].separation >= m.points[0].separation - 2e-4f - 2e-3f * fabsf(m.points[0].separation) - field_tol);
          if (me.points[0].separation < m.points[0].separation - 2e-4f - 2e-3f * fabsf(m.points[0].separation) - field_tol)
            fprintf(stderr, "  epa deeper than mpr %d-%d: %g vs %g\n", shapes[i].type, shapes[j].type,
                    (double)me.points[0].separation, (double)m.points[0].separation);
        }
      }
    }
  CHECK(contacts > 200);
  CHECK(sym_bad == 0);
  CHECK(mirror_bad == 0);
  tb_hull_free(h);
  tb_hull_free(hs);
}

/* ---- world: shapes, mass properties, resting forces ---- */

static void test_world_shapes(void) {
  tb_world_def def = tb_default_world_def();
  tb_world_id w = tb_world_create(&def);
  const float o[3] = {0, 0, 0}, q[4] = {0, 0, 0, 1};
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, o, q);
  float mass[13];
  /* cylinder r 0.5, h 0.4, density 1000: m = ρ π r² 2h */
  const float cp[4] = {0.5f, 0.4f, 0, 0};
  CHECK(tb_shape_create(w, b, TB_SHAPE_CYLINDER, cp, o, q, 0.5f, 0, 1000) >= 0);
  tb_body_get_mass(w, b, mass);
  float m = 1000.0f * TB_PI * 0.25f * 0.8f;
  CHECK_NEAR(m, mass[0], 1e-2);
  CHECK_NEAR(m * (3 * 0.25 + 4 * 0.16) / 12.0, mass[4], 1e-3);
  CHECK_NEAR(0.5 * m * 0.25, mass[8], 1e-3);
  tb_body_id b2 = tb_body_create(w, TB_BODY_DYNAMIC, o, q);
  const float ep[4] = {0.5f, 0.3f, 0.2f, 0};
  CHECK(tb_shape_create(w, b2, TB_SHAPE_ELLIPSOID, ep, o, q, 0.5f, 0, 1000) >= 0);
  tb_body_get_mass(w, b2, mass);
  m = 1000.0f * 4.0f / 3.0f * TB_PI * 0.5f * 0.3f * 0.2f;
  CHECK_NEAR(m, mass[0], 1e-2);
  CHECK_NEAR(m * (0.09 + 0.04) / 5.0, mass[4], 1e-3);
  /* a hull of a box placed off-centre and rotated: the box's mass properties */
  tb_body_id b3 = tb_body_create(w, TB_BODY_DYNAMIC, o, q);
  float pts[24];
  for (int i = 0; i < 8; ++i) { pts[3 * i] = 0.5f * cube_pts[i][0] + 1.0f; pts[3 * i + 1] = 0.2f * cube_pts[i][1]; pts[3 * i + 2] = 0.3f * cube_pts[i][2]; }
  const float lp[3] = {0, 1, 0};
  tb_quat r90 = qaa(0, 0, 1, 90);
  const float lq[4] = {r90.x, r90.y, r90.z, r90.w};
  tb_shape_id hs = tb_shape_create_hull(w, b3, pts, 8, lp, lq, 0.5f, 0, 500);
  CHECK(hs >= 0);
  tb_body_get_mass(w, b3, mass);
  m = 500.0f * 1.0f * 0.4f * 0.6f;
  CHECK_NEAR(m, mass[0], 1e-3);
  /* centre (1, 0, 0) in the shape frame → rotated 90° about z → (0, 1, 0) + (0, 1, 0) */
  CHECK_NEAR(0.0, mass[1], 1e-5);
  CHECK_NEAR(2.0, mass[2], 1e-5);
  /* body x axis = shape y axis: Ixx = shape Iyy = m (1² + 0.6²) / 12; body y = shape x:
   * Iyy = m (0.4² + 0.6²) / 12 (full side lengths 1, 0.4, 0.6) */
  CHECK_NEAR(m * (1.0 + 0.36) / 12.0, mass[4], 1e-4);
  CHECK_NEAR(m * (0.16 + 0.36) / 12.0, mass[8], 1e-4);
  CHECK_NEAR(m * (1.0 + 0.16) / 12.0, mass[12], 1e-4);
  tb_hull_info info;
  CHECK(tb_shape_get_hull(w, hs, &info) == TB_OK);
  CHECK(info.vertex_count == 8 && info.face_count == 6 && info.edge_count == 12);
  CHECK(info.support_field_resolution == 0 && info.support_field_bytes == 0 && info.total_bytes > 0);
  /* a forced field reports its memory */
  tb_shape_id hf = tb_shape_create_hull_ex(w, b3, pts, 8, 90, o, q, 0.5f, 0, 500);
  CHECK(tb_shape_get_hull(w, hf, &info) == TB_OK);
  CHECK(info.support_field_resolution == 90 && info.support_field_bytes >= 90 * 90 * 4);
  /* validation */
  const float bad[4] = {0.5f, -0.1f, 0, 0};
  CHECK(tb_shape_create(w, b, TB_SHAPE_CYLINDER, bad, o, q, 0.5f, 0, 1000) == -TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "cylinder halfHeight must be > 0 (got -0.1)") != NULL);
  CHECK(tb_shape_create(w, b, TB_SHAPE_ELLIPSOID, bad, o, q, 0.5f, 0, 1000) == -TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "ellipsoid radii[1] must be > 0") != NULL);
  CHECK(tb_shape_create(w, b, TB_SHAPE_HULL, cp, o, q, 0.5f, 0, 1000) == -TB_ERR_INVALID_ARGUMENT);
  int64_t live = tb_live_bytes();
  float flat[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
  CHECK(tb_shape_create_hull(w, b3, flat, 4, o, q, 0.5f, 0, 500) == -TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "addHull: points must not be coplanar") != NULL);
  CHECK(tb_live_bytes() == live); /* nothing leaked, nothing added */
  CHECK(tb_shape_create_hull_ex(w, b3, pts, 8, 3, o, q, 0.5f, 0, 500) == -TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "supportField.resolution") != NULL);
  CHECK(tb_shape_get_hull(w, 12345, &info) == TB_ERR_NOT_FOUND);
  tb_world_destroy(w);
}

/* A cylinder and a hull resting on a plane: the total normal force equals m g. */
static void test_resting(int type) {
  tb_world_def def = tb_default_world_def();
  tb_world_id w = tb_world_create(&def);
  const float o[3] = {0, 0, 0}, q[4] = {0, 0, 0, 1};
  tb_body_id ground = tb_body_create(w, TB_BODY_STATIC, o, q);
  const float pp[4] = {0, 1, 0, 0};
  tb_shape_create(w, ground, TB_SHAPE_PLANE, pp, o, q, 0.5f, 0, 1);
  const float p0[3] = {0, 0.42f, 0};
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, p0, q);
  if (type == TB_SHAPE_CYLINDER) {
    const float cp[4] = {0.3f, 0.4f, 0, 0};
    tb_shape_create(w, b, TB_SHAPE_CYLINDER, cp, o, q, 0.5f, 0, 1000);
  } else {
    enum { N = 100 };
    float pts[3 * N];
    for (int i = 0; i < N; ++i) {
      float a = 2.0f * TB_PI * (float)(i % 50) / 50.0f;
      pts[3 * i] = 0.3f * cosf(a); pts[3 * i + 1] = i < 50 ? -0.4f : 0.4f; pts[3 * i + 2] = 0.3f * sinf(a);
    }
    CHECK(tb_shape_create_hull(w, b, pts, N, o, q, 0.5f, 0, 1000) >= 0);
  }
  float mass[13];
  tb_body_get_mass(w, b, mass);
  for (int s = 0; s < 120; ++s) tb_world_step(w);
  tb_contact_status st;
  tb_world_contact_status(w, &st);
  const float* imp = (const float*)tb_world_field(w, TB_FIELDS_CONTACT, 7);
  float sum = 0.0f;
  for (int i = 0; i < st.count; ++i) sum += imp[i];
  float force = sum / def.timestep;
  CHECK(st.count >= 3);
  CHECK_NEAR(mass[0] * 9.81f, force, 0.01f * mass[0] * 9.81f);
  float state[13];
  tb_body_get_state(w, b, state);
  CHECK_NEAR(0.4, state[1], 0.01); /* resting on its cap */
  tb_world_destroy(w);
}

/* A pile of cylinders, ellipsoids and hulls: 1 and 3 threads give bitwise-identical
 * transforms; contact only dissipates energy, and nothing sinks into the ground. */
static void run_convex_pile(int threads, float* out, int* count) {
  tb_world_def def = tb_default_world_def();
  def.thread_count = threads;
  tb_world_id w = tb_world_create(&def);
  const float o[3] = {0, 0, 0}, q0[4] = {0, 0, 0, 1}, pp[4] = {0, 1, 0, 0};
  tb_shape_create(w, tb_body_create(w, TB_BODY_STATIC, o, q0), TB_SHAPE_PLANE, pp, o, q0, 0.6f, 0, 1);
  float hull_pts[3 * 24];
  for (int i = 0; i < 24; ++i) {
    float a = 2.0f * TB_PI * (float)(i % 8) / 8.0f, y = (float)(i / 8) * 0.2f - 0.2f;
    float r = i / 8 == 1 ? 0.3f : 0.2f;
    hull_pts[3 * i] = r * cosf(a); hull_pts[3 * i + 1] = y; hull_pts[3 * i + 2] = r * sinf(a);
  }
  const float cyl[4] = {0.25f, 0.2f, 0, 0}, ell[4] = {0.3f, 0.2f, 0.25f, 0};
  enum { N = 48 };
  tb_body_id ids[N];
  double e_start = 0.0;
  for (int i = 0; i < N; ++i) {
    float p[3] = {(float)(i % 4) * 0.8f, 0.5f + (float)(i / 16) * 0.8f, (float)((i / 4) % 4) * 0.8f};
    float q[4] = {0.1f * (float)(i % 3), 0.0f, 0.05f * (float)(i % 2), 1.0f};
    float l = sqrtf(q[0] * q[0] + q[2] * q[2] + 1.0f);
    q[0] /= l; q[2] /= l; q[3] /= l;
    tb_body_id b = ids[i] = tb_body_create(w, TB_BODY_DYNAMIC, p, q);
    if (i % 3 == 0) tb_shape_create(w, b, TB_SHAPE_CYLINDER, cyl, o, q0, 0.6f, 0, 500);
    else if (i % 3 == 1) tb_shape_create(w, b, TB_SHAPE_ELLIPSOID, ell, o, q0, 0.6f, 0, 500);
    else tb_shape_create_hull(w, b, hull_pts, 24, o, q0, 0.6f, 0, 500);
    float mass[13];
    tb_body_get_mass(w, b, mass);
    e_start += mass[0] * 9.81 * p[1];
  }
  for (int s = 0; s < 180; ++s) CHECK(tb_world_step(w) == TB_OK);
  memcpy(out, tb_world_field(w, TB_FIELDS_BODY, 0), sizeof(float) * 7 * (size_t)(N + 1));
  *count = N + 1;
  double e_end = 0.0, ymin = INFINITY;
  for (int i = 0; i < N; ++i) {
    float mass[13], st[13];
    tb_body_get_mass(w, ids[i], mass);
    tb_body_get_state(w, ids[i], st);
    double v2 = (double)st[7] * st[7] + (double)st[8] * st[8] + (double)st[9] * st[9];
    e_end += mass[0] * (0.5 * v2 + 9.81 * st[1]);
    ymin = fmin(ymin, st[1]);
  }
  CHECK(e_end < e_start);
  CHECK(ymin > 0.15); /* nothing sank into the ground (smallest half size 0.2) */
  tb_world_destroy(w);
}

static void test_convex_pile_deterministic(void) {
  static float a[7 * 64], b[7 * 64];
  int na = 0, nb = 0;
  run_convex_pile(1, a, &na);
  run_convex_pile(3, b, &nb);
  CHECK(na == nb);
  CHECK(memcmp(a, b, sizeof(float) * 7 * (size_t)na) == 0);
}

int main(void) {
  test_hull_cube();
  test_hull_sphere_points();
  test_hull_lattice();
  test_hull_rejects();
  test_hull_rejects_needle();
  test_support_field();
  test_support_field_non_finite();
  test_cylinder_sphere();
  test_ellipsoid_plane();
  test_cylinder_plane();
  test_more_closed_forms();
  test_hull_equals_box();
  test_gjk_closed_forms();
  test_triangle();
  test_feature_ids();
  test_analytic_vs_general();
  test_random_pairs();
  test_world_shapes();
  test_resting(TB_SHAPE_CYLINDER);
  test_resting(TB_SHAPE_HULL);
  test_convex_pile_deterministic();
  return tb_test_report("test_convex");
}
