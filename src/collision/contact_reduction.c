/* Contact reduction: deepest point, then maximal area. */
#include "contact_reduction.h"

static tb_vec3 mid_point(const tb_manifold_point* p) { return tb_scale(tb_add(p->point0, p->point1), 0.5f); }

/* Doubled signed area of (p, q, r) about n. */
static float area2(tb_vec3 p, tb_vec3 q, tb_vec3 r, tb_vec3 n) { return tb_dot(tb_cross(tb_sub(q, p), tb_sub(r, p)), n); }

int tb_contact_reduce_select(const tb_manifold_point* cand, int count, tb_vec3 normal, int max_points, int* keep) {
  if (max_points < 1) max_points = 1;
  if (max_points > TB_MAX_MANIFOLD_POINTS) max_points = TB_MAX_MANIFOLD_POINTS;
  if (count <= max_points) {
    for (int i = 0; i < count; ++i) keep[i] = i;
    return count;
  }
  int sel[TB_MAX_MANIFOLD_POINTS], n = 0;
  /* 1: deepest */
  int a = 0;
  for (int i = 1; i < count; ++i)
    if (cand[i].separation < cand[a].separation) a = i;
  sel[n++] = a;
  tb_vec3 pa = mid_point(&cand[a]);
  /* 2: farthest from a in the contact plane */
  int b = -1;
  if (n < max_points) {
    float best = -1.0f;
    for (int i = 0; i < count; ++i) {
      if (i == a) continue;
      tb_vec3 d = tb_sub(mid_point(&cand[i]), pa);
      d = tb_sub(d, tb_scale(normal, tb_dot(d, normal)));
      float d2 = tb_length_sq(d);
      if (d2 > best) { best = d2; b = i; }
    }
    if (b >= 0) sel[n++] = b; /* none when every distance is NaN (overflowed coordinates) */
  }
  /* 3: largest triangle with a and b */
  int c = -1;
  float sign = 1.0f;
  if (n < max_points && b >= 0) {
    tb_vec3 pb = mid_point(&cand[b]);
    float best = -1.0f;
    for (int i = 0; i < count; ++i) {
      if (i == a || i == b) continue;
      float ar = area2(pa, pb, mid_point(&cand[i]), normal);
      if (fabsf(ar) > best) { best = fabsf(ar); c = i; sign = ar < 0.0f ? -1.0f : 1.0f; }
    }
    if (c >= 0) sel[n++] = c;
  }
  /* 4: the most area added outside triangle (a, b, c) */
  if (n < max_points && c >= 0) {
    tb_vec3 pb = mid_point(&cand[b]), pc = mid_point(&cand[c]);
    float best = 0.0f;
    int d = -1;
    for (int i = 0; i < count; ++i) {
      if (i == a || i == b || i == c) continue;
      tb_vec3 p = mid_point(&cand[i]);
      /* oriented like (a, b, c): an edge with negative area sees p outside */
      float e0 = sign * area2(pa, pb, p, normal), e1 = sign * area2(pb, pc, p, normal), e2 = sign * area2(pc, pa, p, normal);
      float added = -fminf(e0, fminf(e1, e2));
      if (added > best) { best = added; d = i; }
    }
    if (d >= 0) sel[n++] = d;
  }
  /* ascending indices: the input order */
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && sel[j - 1] > sel[j]; --j) {
      int t = sel[j]; sel[j] = sel[j - 1]; sel[j - 1] = t;
    }
  for (int i = 0; i < n; ++i) keep[i] = sel[i];
  return n;
}

int tb_manifold_reduce(tb_manifold* m, int max_points) {
  if (m->points_found < m->point_count) m->points_found = m->point_count;
  if (m->point_count <= max_points) return m->point_count;
  int keep[TB_MAX_MANIFOLD_POINTS];
  int n = tb_contact_reduce_select(m->points, m->point_count, m->normal, max_points, keep);
  for (int i = 0; i < n; ++i) m->points[i] = m->points[keep[i]]; /* keep[i] >= i: in-place is safe */
  m->point_count = n;
  return n;
}
