/* EPA (expanding polytope): penetration depth and normal of overlapping cores, grown from the
 * GJK simplex. Fixed-size arrays on the stack: no allocation. */
#include "convex.h"

#define EPA_MAX_VERTS 128
#define EPA_MAX_FACES 256
#define EPA_MAX_EDGES 384

typedef struct epa_face { int32_t i[3]; tb_vec3 n; float d; int32_t alive; } epa_face;

static int epa_make_face(const tb_mink_vertex* v, epa_face* f, int32_t a, int32_t b, int32_t c) {
  tb_vec3 n = tb_cross(tb_sub(v[b].w, v[a].w), tb_sub(v[c].w, v[a].w));
  float l = tb_length(n);
  if (!(l > 1e-20f)) return 0;
  f->i[0] = a; f->i[1] = b; f->i[2] = c;
  f->n = tb_scale(n, 1.0f / l);
  f->d = tb_dot(f->n, v[a].w);
  f->alive = 1;
  return 1;
}

/* Completes the simplex to a tetrahedron (extra supports along directions that leave the span). */
static int epa_complete(const tb_convex* a, const tb_convex* b, tb_mink_vertex* v, int n) {
  const float eps = 1e-6f;
  if (n == 1) {
    const tb_vec3 dirs[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (int k = 0; k < 6 && n == 1; ++k) {
      tb_mink_support(a, b, dirs[k], &v[1]);
      if (tb_length(tb_sub(v[1].w, v[0].w)) > eps) n = 2;
    }
    if (n == 1) return 0;
  }
  if (n == 2) {
    tb_vec3 d = tb_normalize(tb_sub(v[1].w, v[0].w));
    tb_vec3 p, q;
    tb_basis(d, &p, &q);
    const tb_vec3 dirs[4] = {p, q, tb_neg(p), tb_neg(q)};
    for (int k = 0; k < 4 && n == 2; ++k) {
      tb_mink_support(a, b, dirs[k], &v[2]);
      if (tb_length(tb_cross(d, tb_sub(v[2].w, v[0].w))) > eps) n = 3;
    }
    if (n == 2) return 0;
  }
  if (n == 3) {
    tb_vec3 nt = tb_normalize(tb_cross(tb_sub(v[1].w, v[0].w), tb_sub(v[2].w, v[0].w)));
    tb_mink_support(a, b, nt, &v[3]);
    if (fabsf(tb_dot(nt, tb_sub(v[3].w, v[0].w))) <= eps) {
      tb_mink_support(a, b, tb_neg(nt), &v[3]);
      if (fabsf(tb_dot(nt, tb_sub(v[3].w, v[0].w))) <= eps) return 0;
    }
  }
  return 1;
}

void tb_epa(const tb_convex* a, const tb_convex* b, tb_convex_result* r) {
  tb_mink_vertex v[EPA_MAX_VERTS];
  epa_face f[EPA_MAX_FACES];
  int32_t edges[EPA_MAX_EDGES][2];
  int nv = r->simplex_count;
  for (int i = 0; i < nv; ++i) v[i] = r->simplex[i];
  r->overlap = 1;
  r->converged = 0;
  if (nv < 4 && !epa_complete(a, b, v, nv)) {
    /* flat difference: touching; depth 0 along the GJK normal */
    r->distance = 0.0f;
    return;
  }
  nv = 4;
  /* orient the tetrahedron's faces away from its centroid */
  tb_vec3 c = tb_scale(tb_add(tb_add(v[0].w, v[1].w), tb_add(v[2].w, v[3].w)), 0.25f);
  const int32_t tf[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
  int nf = 0;
  for (int k = 0; k < 4; ++k) {
    int32_t i0 = tf[k][0], i1 = tf[k][1], i2 = tf[k][2];
    if (tb_dot(tb_cross(tb_sub(v[i1].w, v[i0].w), tb_sub(v[i2].w, v[i0].w)), tb_sub(v[i0].w, c)) < 0.0f) {
      int32_t t = i1; i1 = i2; i2 = t;
    }
    if (!epa_make_face(v, &f[nf], i0, i1, i2)) { r->distance = 0.0f; return; }
    ++nf;
  }
  int best = 0;
  int it;
  for (it = 0; it < 100; ++it) {
    best = -1;
    for (int k = 0; k < nf; ++k)
      if (f[k].alive && (best < 0 || f[k].d < f[best].d)) best = k;
    if (best < 0) break;
    tb_mink_vertex w;
    tb_mink_support(a, b, f[best].n, &w);
    float gain = tb_dot(w.w, f[best].n) - f[best].d;
    if (gain <= 1e-6f + 1e-5f * fabsf(f[best].d)) { r->converged = 1; break; }
    if (nv == EPA_MAX_VERTS) break;
    int32_t wi = nv;
    v[nv++] = w;
    /* remove the faces w sees, as one connected region grown from the closest face (a face
     * seen only through rounding elsewhere would tear a second hole), collecting the horizon */
    int ne = 0, overflow = 0;
    const float vis = 1e-7f * (1.0f + fabsf(f[best].d));
    f[best].alive = 0;
    for (int grow = 1, first = 1; grow;) {
      grow = 0;
      for (int k = 0; k < nf; ++k) {
        if (first ? k != best : (!f[k].alive || tb_dot(f[k].n, tb_sub(w.w, v[f[k].i[0]].w)) <= vis)) continue;
        if (!first) {
          int touches = 0;
          for (int e = 0; e < 3 && !touches; ++e)
            for (int m = 0; m < ne && !touches; ++m)
              touches = edges[m][0] == f[k].i[(e + 1) % 3] && edges[m][1] == f[k].i[e];
          if (!touches) continue;
          f[k].alive = 0;
        }
        grow = 1;
        for (int e = 0; e < 3; ++e) {
          int32_t ea = f[k].i[e], eb = f[k].i[(e + 1) % 3];
          int found = -1;
          for (int m = 0; m < ne; ++m)
            if (edges[m][0] == eb && edges[m][1] == ea) { found = m; break; }
          if (found >= 0) {
            edges[found][0] = edges[ne - 1][0];
            edges[found][1] = edges[ne - 1][1];
            --ne;
          } else if (ne < EPA_MAX_EDGES) {
            edges[ne][0] = ea; edges[ne][1] = eb; ++ne;
          } else overflow = 1;
        }
      }
      first = 0;
    }
    /* compact the dead faces away, then add the cone over the horizon */
    int m = 0;
    for (int k = 0; k < nf; ++k)
      if (f[k].alive) f[m++] = f[k];
    nf = m;
    if (overflow || nf + ne > EPA_MAX_FACES) break;
    for (int e = 0; e < ne; ++e)
      if (epa_make_face(v, &f[nf], edges[e][0], edges[e][1], wi)) ++nf;
  }
  r->iterations += it;
  best = -1;
  for (int k = 0; k < nf; ++k)
    if (f[k].alive && (best < 0 || f[k].d < f[best].d)) best = k;
  if (best < 0) { r->distance = 0.0f; return; }
  const epa_face* bf = &f[best];
  /* barycentric coordinates of the projection of the origin on the closest face */
  tb_vec3 p = tb_scale(bf->n, bf->d);
  tb_vec3 A = v[bf->i[0]].w, B = v[bf->i[1]].w, C = v[bf->i[2]].w;
  float area = tb_dot(tb_cross(tb_sub(B, A), tb_sub(C, A)), bf->n);
  float l0 = tb_dot(tb_cross(tb_sub(B, p), tb_sub(C, p)), bf->n) / area;
  float l1 = tb_dot(tb_cross(tb_sub(C, p), tb_sub(A, p)), bf->n) / area;
  float l2 = 1.0f - l0 - l1;
  r->point_a = tb_add(tb_add(tb_scale(v[bf->i[0]].a, l0), tb_scale(v[bf->i[1]].a, l1)), tb_scale(v[bf->i[2]].a, l2));
  r->point_b = tb_add(tb_add(tb_scale(v[bf->i[0]].b, l0), tb_scale(v[bf->i[1]].b, l1)), tb_scale(v[bf->i[2]].b, l2));
  r->distance = fmaxf(bf->d, 0.0f);
  r->normal = tb_neg(bf->n); /* the face normal points out of B − A; B leaves along −n */
}
