/* GJK (Gilbert–Johnson–Keerthi) distance between the cores of two convex shapes. The closest
 * point of the simplex is found by projecting the origin onto every face of it (at most 15
 * subsets) in double precision and keeping the nearest projection with positive barycentric
 * weights: simple and robust for the tiny simplices GJK uses. */
#include "convex.h"

void tb_mink_support(const tb_convex* a, const tb_convex* b, tb_vec3 d, tb_mink_vertex* v) {
  v->a = tb_convex_core_support(a, tb_neg(d));
  v->b = tb_convex_core_support(b, d);
  v->w = tb_sub(v->b, v->a);
}

/* Projection of the origin onto the affine hull of the points idx[0..k); barycentric weights in
 * lam. Returns 0 when the subset is degenerate. */
static int project_subset(const tb_mink_vertex* s, const int* idx, int k, double* lam) {
  if (k == 1) { lam[0] = 1.0; return 1; }
  double p0[3] = {s[idx[0]].w.x, s[idx[0]].w.y, s[idx[0]].w.z}, e[3][3];
  for (int i = 1; i < k; ++i) {
    e[i - 1][0] = s[idx[i]].w.x - p0[0];
    e[i - 1][1] = s[idx[i]].w.y - p0[1];
    e[i - 1][2] = s[idx[i]].w.z - p0[2];
  }
  int m = k - 1;
  double G[3][3], r[3], scale = 0.0;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < m; ++j) G[i][j] = e[i][0] * e[j][0] + e[i][1] * e[j][1] + e[i][2] * e[j][2];
    r[i] = -(e[i][0] * p0[0] + e[i][1] * p0[1] + e[i][2] * p0[2]);
    scale = fmax(scale, G[i][i]);
  }
  double t[3] = {0, 0, 0};
  if (m == 1) {
    if (G[0][0] <= 1e-24) return 0;
    t[0] = r[0] / G[0][0];
  } else if (m == 2) {
    double det = G[0][0] * G[1][1] - G[0][1] * G[1][0];
    if (fabs(det) <= 1e-12 * scale * scale || det == 0.0) return 0;
    t[0] = (r[0] * G[1][1] - G[0][1] * r[1]) / det;
    t[1] = (G[0][0] * r[1] - r[0] * G[1][0]) / det;
  } else {
    double det = G[0][0] * (G[1][1] * G[2][2] - G[1][2] * G[2][1]) - G[0][1] * (G[1][0] * G[2][2] - G[1][2] * G[2][0]) +
                 G[0][2] * (G[1][0] * G[2][1] - G[1][1] * G[2][0]);
    if (fabs(det) <= 1e-12 * scale * scale * scale || det == 0.0) return 0;
    for (int c = 0; c < 3; ++c) {
      double M[3][3];
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) M[i][j] = j == c ? r[i] : G[i][j];
      t[c] = (M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) - M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) +
              M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0])) / det;
    }
  }
  double sum = 0.0;
  for (int i = 0; i < m; ++i) { lam[i + 1] = t[i]; sum += t[i]; }
  lam[0] = 1.0 - sum;
  return 1;
}

/* The subset of s nearest the origin among those that contain (with_newest = 1) or do not
 * contain (0) the last point: its mask (0 = none valid) and weights. */
static int best_subset(const tb_mink_vertex* s, int n, int with_newest, double* best_lam) {
  const int newest = 1 << (n - 1);
  int best_mask = 0;
  double best_d2 = INFINITY;
  for (int mask = 1; mask < (1 << n); ++mask) {
    if (((mask & newest) != 0) != with_newest) continue;
    int idx[4], k = 0;
    for (int i = 0; i < n; ++i)
      if (mask & (1 << i)) idx[k++] = i;
    double lam[4];
    if (!project_subset(s, idx, k, lam)) continue;
    int ok = 1;
    for (int i = 0; i < k; ++i) ok &= lam[i] > 0.0;
    if (!ok) continue;
    double v[3] = {0, 0, 0};
    for (int i = 0; i < k; ++i) {
      v[0] += lam[i] * s[idx[i]].w.x;
      v[1] += lam[i] * s[idx[i]].w.y;
      v[2] += lam[i] * s[idx[i]].w.z;
    }
    double d2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    if (d2 < best_d2) {
      best_d2 = d2;
      best_mask = mask;
      for (int i = 0; i < k; ++i) best_lam[i] = lam[i];
    }
  }
  return best_mask;
}

/* Closest point of the simplex to the origin; reduces s to the supporting subset. Returns the
 * point (w), and the witnesses in *pa, *pb. The newest point belongs to the closest face
 * whenever GJK progressed, so the subsets holding it are tried first. */
static tb_vec3 solve_simplex(tb_mink_vertex* s, int* n, tb_vec3* pa, tb_vec3* pb) {
  double best_lam[4] = {1.0, 0.0, 0.0, 0.0};
  int best_mask = best_subset(s, *n, 1, best_lam);
  if (!best_mask) best_mask = best_subset(s, *n, 0, best_lam);
  if (!best_mask) best_mask = 1, best_lam[0] = 1.0; /* all degenerate: keep the first point */
  tb_mink_vertex kept[4];
  int k = 0;
  tb_vec3 a = tb_v3(0, 0, 0), b = tb_v3(0, 0, 0);
  for (int i = 0; i < *n; ++i)
    if (best_mask & (1 << i)) {
      a = tb_add(a, tb_scale(s[i].a, (float)best_lam[k]));
      b = tb_add(b, tb_scale(s[i].b, (float)best_lam[k]));
      kept[k++] = s[i];
    }
  for (int i = 0; i < k; ++i) s[i] = kept[i];
  *n = k;
  *pa = a;
  *pb = b;
  return tb_sub(b, a);
}

void tb_gjk(const tb_convex* a, const tb_convex* b, tb_convex_result* r) {
  tb_mink_vertex* s = r->simplex;
  int n = 0;
  tb_vec3 d = tb_sub(tb_convex_center(b), tb_convex_center(a));
  if (tb_length_sq(d) < 1e-20f) d = tb_v3(1, 0, 0);
  tb_mink_support(a, b, d, &s[n++]);
  tb_vec3 pa = s[0].a, pb = s[0].b, v = s[0].w;
  r->overlap = 0;
  r->converged = 0;
  int it;
  for (it = 0; it < 64; ++it) {
    float vv = tb_length_sq(v);
    float scale = fmaxf(tb_length_sq(s[0].w), 1e-12f);
    if (vv <= 1e-12f * scale || n == 4) { r->overlap = 1; r->converged = 1; break; }
    tb_mink_vertex w;
    tb_mink_support(a, b, tb_neg(v), &w);
    /* |v| minus the support's distance along v bounds the error of |v| */
    if (vv - tb_dot(v, w.w) <= 2e-6f * vv) { r->converged = 1; break; }
    int dup = 0;
    for (int i = 0; i < n; ++i) dup |= s[i].w.x == w.w.x && s[i].w.y == w.w.y && s[i].w.z == w.w.z;
    if (dup) { r->converged = 1; break; }
    s[n++] = w;
    tb_vec3 na, nb;
    tb_vec3 nv = solve_simplex(s, &n, &na, &nb);
    if (tb_length_sq(nv) >= vv && n < 4) { r->converged = 1; break; } /* no progress: v is final */
    v = nv; pa = na; pb = nb;
  }
  r->iterations = it;
  r->simplex_count = n;
  r->point_a = pa;
  r->point_b = pb;
  if (r->overlap) {
    r->distance = 0.0f;
    r->normal = tb_v3(0, 0, 1);
  } else {
    float l = tb_length(v);
    r->distance = l;
    r->normal = l > 0.0f ? tb_scale(v, 1.0f / l) : tb_v3(0, 0, 1);
  }
}
