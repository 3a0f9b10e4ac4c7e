/* MPR (Minkowski portal refinement, Snethen's XenoCollide, as in libccd): penetration of two
 * overlapping cores along the refined portal normal. */
#include "convex.h"

#define MPR_TOLERANCE 1e-6f
#define MPR_MAX_ITERATIONS 64

static tb_vec3 portal_dir(const tb_mink_vertex* p) {
  return tb_normalize(tb_cross(tb_sub(p[2].w, p[1].w), tb_sub(p[3].w, p[1].w)));
}

static void expand_portal(tb_mink_vertex* p, const tb_mink_vertex* v4) {
  tb_vec3 v4v0 = tb_cross(v4->w, p[0].w);
  if (tb_dot(p[1].w, v4v0) > 0.0f) {
    if (tb_dot(p[2].w, v4v0) > 0.0f) p[1] = *v4;
    else p[3] = *v4;
  } else {
    if (tb_dot(p[3].w, v4v0) > 0.0f) p[2] = *v4;
    else p[1] = *v4;
  }
}

static int reach_tolerance(const tb_mink_vertex* p, const tb_mink_vertex* v4, tb_vec3 dir) {
  float d4 = tb_dot(v4->w, dir);
  float m = fminf(fminf(d4 - tb_dot(p[1].w, dir), d4 - tb_dot(p[2].w, dir)), d4 - tb_dot(p[3].w, dir));
  return m <= MPR_TOLERANCE * fmaxf(1.0f, fabsf(d4));
}

/* Portal discovery: 0 = portal found, 1 = origin on the segment v0–v1, -1 = no overlap. */
static int discover_portal(const tb_convex* a, const tb_convex* b, tb_mink_vertex* p) {
  p[0].a = tb_convex_center(a);
  p[0].b = tb_convex_center(b);
  p[0].w = tb_sub(p[0].b, p[0].a);
  if (tb_length_sq(p[0].w) < 1e-20f) { p[0].w.x += 1e-5f; }
  tb_vec3 dir = tb_normalize(tb_neg(p[0].w));
  tb_mink_support(a, b, dir, &p[1]);
  if (tb_dot(p[1].w, dir) <= 0.0f) return -1;
  dir = tb_cross(p[0].w, p[1].w);
  if (tb_length_sq(dir) < 1e-20f) return 1;
  dir = tb_normalize(dir);
  tb_mink_support(a, b, dir, &p[2]);
  if (tb_dot(p[2].w, dir) <= 0.0f) return -1;
  dir = tb_normalize(tb_cross(tb_sub(p[1].w, p[0].w), tb_sub(p[2].w, p[0].w)));
  if (tb_dot(dir, p[0].w) > 0.0f) {
    tb_mink_vertex t = p[1]; p[1] = p[2]; p[2] = t;
    dir = tb_neg(dir);
  }
  for (int it = 0; it < MPR_MAX_ITERATIONS; ++it) {
    tb_mink_support(a, b, dir, &p[3]);
    if (tb_dot(p[3].w, dir) <= 0.0f) return -1;
    int cont = 0;
    if (tb_dot(tb_cross(p[1].w, p[3].w), p[0].w) < 0.0f) {
      p[2] = p[3]; cont = 1;
    } else if (tb_dot(tb_cross(p[3].w, p[2].w), p[0].w) < 0.0f) {
      p[1] = p[3]; cont = 1;
    }
    if (!cont) return 0;
    dir = tb_normalize(tb_cross(tb_sub(p[1].w, p[0].w), tb_sub(p[2].w, p[0].w)));
  }
  return -1;
}

/* Moves the portal until the origin lies inside the portal's tetrahedron: 0 = overlap, -1 = no. */
static int refine_portal(const tb_convex* a, const tb_convex* b, tb_mink_vertex* p) {
  for (int it = 0; it < MPR_MAX_ITERATIONS; ++it) {
    tb_vec3 dir = portal_dir(p);
    if (tb_dot(p[1].w, dir) >= -1e-7f) return 0;
    tb_mink_vertex v4;
    tb_mink_support(a, b, dir, &v4);
    if (tb_dot(v4.w, dir) < 0.0f || reach_tolerance(p, &v4, dir)) return -1;
    expand_portal(p, &v4);
  }
  return -1;
}

void tb_mpr(const tb_convex* a, const tb_convex* b, tb_convex_result* r) {
  tb_mink_vertex p[4];
  r->overlap = 0;
  r->converged = 0;
  r->iterations = 0;
  int res = discover_portal(a, b, p);
  if (res < 0) return;
  if (res == 1) {
    /* the origin lies on the segment from the interior point to the support: depth along it */
    float l = tb_length(p[1].w);
    r->overlap = 1;
    r->converged = 1;
    r->distance = l;
    r->normal = l > 0.0f ? tb_scale(p[1].w, -1.0f / l) : tb_v3(0, 0, 1);
    r->point_a = p[1].a;
    r->point_b = p[1].b;
    return;
  }
  if (refine_portal(a, b, p) < 0) return;
  r->overlap = 1;
  int it;
  for (it = 0; it < MPR_MAX_ITERATIONS; ++it) {
    tb_vec3 dir = portal_dir(p);
    tb_mink_vertex v4;
    tb_mink_support(a, b, dir, &v4);
    if (reach_tolerance(p, &v4, dir)) { r->converged = 1; break; }
    expand_portal(p, &v4);
  }
  r->iterations = it;
  /* closest point of the portal triangle to the origin, by barycentric coordinates */
  tb_vec3 A = p[1].w, B = p[2].w, C = p[3].w;
  tb_vec3 n = tb_cross(tb_sub(B, A), tb_sub(C, A));
  float nn = tb_length_sq(n);
  float l0 = 1.0f / 3.0f, l1 = 1.0f / 3.0f, l2 = 1.0f / 3.0f;
  if (nn > 1e-30f) {
    tb_vec3 q = tb_scale(n, tb_dot(n, A) / nn); /* projection of the origin on the plane */
    l0 = tb_dot(tb_cross(tb_sub(B, q), tb_sub(C, q)), n) / nn;
    l1 = tb_dot(tb_cross(tb_sub(C, q), tb_sub(A, q)), n) / nn;
    l2 = 1.0f - l0 - l1;
  }
  tb_vec3 q = tb_add(tb_add(tb_scale(A, l0), tb_scale(B, l1)), tb_scale(C, l2));
  float depth = tb_length(q);
  r->distance = depth;
  tb_vec3 dir = depth > 1e-12f ? tb_scale(q, 1.0f / depth) : portal_dir(p);
  r->normal = tb_neg(dir);
  r->point_a = tb_add(tb_add(tb_scale(p[1].a, l0), tb_scale(p[2].a, l1)), tb_scale(p[3].a, l2));
  r->point_b = tb_add(tb_add(tb_scale(p[1].b, l0), tb_scale(p[2].b, l1)), tb_scale(p[3].b, l2));
}
