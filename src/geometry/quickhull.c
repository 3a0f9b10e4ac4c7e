/* Quickhull in double precision with a relative tolerance: the initial simplex from the axis
 * extremes, then each face's farthest outside point is added by replacing the faces it sees with
 * a cone from the horizon. */
#include "quickhull.h"

#include <float.h>
#include <string.h>

#include "../core/alloc.h"

/* Room for n elements in a group of arrays sharing the capacity *cap (doubling, contents kept);
 * 0 and q->oom when out of memory. */
static int qh_grow(qh* q, const tb_array_ref* arrays, int count, int32_t* cap, int32_t n) {
  if (tb_grow_capacity(arrays, count, cap, n)) return 1;
  q->oom = 1;
  return 0;
}

static int32_t qh_add_face(qh* q, int32_t a, int32_t b, int32_t c) {
  const tb_array_ref faces[] = {{(void**)&q->f, sizeof(qh_face)}, {(void**)&q->stack, sizeof(int32_t)}};
  if (!qh_grow(q, faces, 2, &q->capf, q->nf + 1)) return -1;
  qh_face* f = &q->f[q->nf];
  f->v[0] = a; f->v[1] = b; f->v[2] = c;
  f->nb[0] = f->nb[1] = f->nb[2] = -1;
  qh_vec n = qv_cross(qv_sub(q->p[b], q->p[a]), qv_sub(q->p[c], q->p[a]));
  double l = qv_len(n);
  if (l > 0.0) { n.x /= l; n.y /= l; n.z /= l; }
  f->n = n;
  /* plane through the mean of the three points: less biased than through one vertex */
  f->d = (qv_dot(n, q->p[a]) + qv_dot(n, q->p[b]) + qv_dot(n, q->p[c])) / 3.0;
  f->outside = -1;
  f->alive = 1;
  f->visited = 0;
  return q->nf++;
}

static int qh_push_horizon(qh* q, int32_t f, int32_t e) {
  const tb_array_ref horizon[] = {{(void**)&q->hor_f, sizeof(int32_t)}, {(void**)&q->hor_e, sizeof(int32_t)}};
  if (!qh_grow(q, horizon, 2, &q->caph, q->nh + 1)) return 0;
  q->hor_f[q->nh] = f;
  q->hor_e[q->nh] = e;
  ++q->nh;
  return 1;
}

/* Visible faces from point `eye` (flood from face f0) are marked visited = 1 and listed in
 * q->stack[0..*nvis); the horizon edges (visible face, edge to an invisible face) go to hor_*. */
static int qh_find_visible(qh* q, int32_t f0, int32_t eye, int32_t* nvis) {
  int32_t n = 0, top = 0;
  q->nh = 0;
  q->f[f0].visited = 1;
  q->stack[n++] = f0;
  while (top < n) {
    int32_t f = q->stack[top++];
    for (int k = 0; k < 3; ++k) {
      int32_t g = q->f[f].nb[k];
      if (q->f[g].visited == 1) continue;
      /* visibility at a far smaller threshold than the point tolerance: a face the eye sees
       * within the tolerance but is kept would leave a concave ridge in the hull */
      if (q->f[g].visited == 0 && qh_dist(q, g, eye) > q->eps * 1e-4) {
        q->f[g].visited = 1;
        q->stack[n++] = g;
      } else {
        q->f[g].visited = 2; /* seen, not visible */
        if (!qh_push_horizon(q, f, k)) return 0;
      }
    }
  }
  /* a face first seen as invisible from one side stays invisible: drop horizon entries whose
   * outer face was later marked visible (cannot happen since visible is decided once) */
  *nvis = n;
  return 1;
}

static void qh_assign(qh* q, int32_t p, const int32_t* faces, int32_t nfaces) {
  double best = q->eps;
  int32_t bf = -1;
  for (int32_t i = 0; i < nfaces; ++i) {
    double d = qh_dist(q, faces[i], p);
    if (d > best) { best = d; bf = faces[i]; }
  }
  if (bf < 0) return; /* inside or on the hull within tolerance */
  /* keep the farthest point first in the list */
  qh_face* f = &q->f[bf];
  if (f->outside >= 0 && qh_dist(q, bf, f->outside) >= best) {
    q->next[p] = q->next[f->outside];
    q->next[f->outside] = p;
  } else {
    q->next[p] = f->outside;
    f->outside = p;
  }
}

void tb_quickhull_release(qh* q, qh_vec* pts) {
  tb_free(pts, (size_t)q->np * sizeof(qh_vec));
  tb_free(q->next, (size_t)q->np * sizeof(int32_t));
  tb_free(q->f, (size_t)q->capf * sizeof(qh_face));
  tb_free(q->stack, (size_t)q->capf * sizeof(int32_t));
  tb_free(q->hor_f, (size_t)q->caph * sizeof(int32_t));
  tb_free(q->hor_e, (size_t)q->caph * sizeof(int32_t));
}

/* Allocates the work arrays, copies the points to double, finds the axis extremes (ext: min x,
 * max x, min y, ...) and sets the tolerance from the coordinates' magnitude (m). */
static int qh_init(qh* q, qh_vec** pts_out, const float* points, int32_t count, int32_t ext[6], tb_hull_error* err) {
  memset(q, 0, sizeof *q);
  q->np = count;
  qh_vec* pts = (qh_vec*)tb_alloc((size_t)count * sizeof(qh_vec));
  q->next = (int32_t*)tb_alloc((size_t)count * sizeof(int32_t));
  q->capf = 64;
  q->f = (qh_face*)tb_alloc((size_t)q->capf * sizeof(qh_face));
  q->stack = (int32_t*)tb_alloc((size_t)q->capf * sizeof(int32_t));
  q->caph = 32;
  q->hor_f = (int32_t*)tb_alloc((size_t)q->caph * sizeof(int32_t));
  q->hor_e = (int32_t*)tb_alloc((size_t)q->caph * sizeof(int32_t));
  if (!pts || !q->next || !q->f || !q->stack || !q->hor_f || !q->hor_e) {
    tb_quickhull_release(q, pts);
    qh_set_error(err, 3, "out of memory");
    return 0;
  }
  q->p = pts;
  *pts_out = pts;
  double maxabs = 0.0;
  for (int k = 0; k < 6; ++k) ext[k] = 0;
  for (int32_t i = 0; i < count; ++i) {
    pts[i].x = points[3 * i]; pts[i].y = points[3 * i + 1]; pts[i].z = points[3 * i + 2];
    const double c[3] = {pts[i].x, pts[i].y, pts[i].z};
    for (int k = 0; k < 3; ++k) {
      const double lo[3] = {pts[ext[0]].x, pts[ext[2]].y, pts[ext[4]].z};
      const double hi[3] = {pts[ext[1]].x, pts[ext[3]].y, pts[ext[5]].z};
      if (c[k] < lo[k]) ext[2 * k] = i;
      if (c[k] > hi[k]) ext[2 * k + 1] = i;
      if (fabs(c[k]) > maxabs) maxabs = fabs(c[k]);
    }
    q->next[i] = -1;
  }
  /* relative tolerance: a few float ulps of the coordinates' magnitude (inputs are float) */
  q->eps = 3.0 * (double)FLT_EPSILON * (maxabs > 0.0 ? maxabs : 1.0) * 4.0;
  return 1;
}

/* Initial simplex: the most distant pair of axis extremes, the farthest point from their line,
 * the farthest point from their plane; its four faces with their neighbours, and every other
 * point assigned to the face it is farthest outside of. Returns 0 with err set (nothing freed)
 * when the points coincide or are collinear or coplanar within the tolerance. */
static int qh_initial_simplex(qh* q, int32_t count, const int32_t ext[6], tb_hull_error* err) {
  const qh_vec* pts = q->p;
  int32_t i0 = ext[0], i1 = ext[1];
  double best = -1.0;
  for (int a = 0; a < 6; ++a)
    for (int b = a + 1; b < 6; ++b) {
      qh_vec d = qv_sub(pts[ext[a]], pts[ext[b]]);
      if (qv_dot(d, d) > best) { best = qv_dot(d, d); i0 = ext[a]; i1 = ext[b]; }
    }
  if (sqrt(best) <= q->eps) {
    qh_set_error(err, 2, "points must contain at least 4 non-degenerate points (all points coincide)");
    return 0;
  }
  qh_vec dir = qv_sub(pts[i1], pts[i0]);
  int32_t i2 = -1;
  best = 0.0;
  for (int32_t i = 0; i < count; ++i) {
    double l = qv_len(qv_cross(dir, qv_sub(pts[i], pts[i0])));
    if (l > best) { best = l; i2 = i; }
  }
  if (i2 < 0 || best / qv_len(dir) <= q->eps) {
    qh_set_error(err, 2, "points must not be collinear (all lie on one line within tolerance)");
    return 0;
  }
  qh_vec pn = qv_cross(dir, qv_sub(pts[i2], pts[i0]));
  double pl = qv_len(pn);
  int32_t i3 = -1;
  best = 0.0;
  for (int32_t i = 0; i < count; ++i) {
    double dd = fabs(qv_dot(pn, qv_sub(pts[i], pts[i0]))) / pl;
    if (dd > best) { best = dd; i3 = i; }
  }
  if (i3 < 0 || best <= q->eps) {
    qh_set_error(err, 2, "points must not be coplanar (all lie in one plane within tolerance)");
    return 0;
  }
  if (qv_dot(pn, qv_sub(pts[i3], pts[i0])) > 0.0) { int32_t t = i1; i1 = i2; i2 = t; } /* i3 below (i0,i1,i2) */
  /* faces: (i0,i1,i2) outward away from i3, and the three sides */
  int32_t f0 = qh_add_face(q, i0, i1, i2);
  int32_t f1 = qh_add_face(q, i0, i3, i1);
  int32_t f2 = qh_add_face(q, i1, i3, i2);
  int32_t f3 = qh_add_face(q, i2, i3, i0);
  const int32_t base[4] = {f0, f1, f2, f3};
  /* neighbours by twin search */
  for (int a = 0; a < 4; ++a)
    for (int k = 0; k < 3; ++k)
      for (int b = 0; b < 4; ++b)
        if (b != a && qh_twin(q, base[b], q->f[base[a]].v[k], q->f[base[a]].v[(k + 1) % 3]) >= 0)
          q->f[base[a]].nb[k] = base[b];
  for (int32_t i = 0; i < count; ++i)
    if (i != i0 && i != i1 && i != i2 && i != i3) qh_assign(q, i, base, 4);
  return 1;
}

/* Adds the farthest outside point of face `cursor`: the faces it sees die, a cone of new faces
 * joins it to the horizon, and the dead faces' outside points go to the new faces. *newf (with
 * capacity *newcap) is scratch for the cone's faces. Returns 0 when out of memory. */
static int qh_add_point(qh* q, int32_t cursor, int32_t** newf_io, int32_t* newcap) {
  int32_t eye = q->f[cursor].outside;
  int32_t nvis = 0;
  if (!qh_find_visible(q, cursor, eye, &nvis)) return 0;
  /* collect outside points of the visible faces (other than eye) */
  int32_t orphan = -1;
  for (int32_t i = 0; i < nvis; ++i) {
    qh_face* f = &q->f[q->stack[i]];
    for (int32_t p = f->outside; p >= 0;) {
      int32_t nx = q->next[p];
      if (p != eye) { q->next[p] = orphan; orphan = p; }
      p = nx;
    }
    f->outside = -1;
    f->alive = 0;
  }
  if (q->nh > *newcap) {
    if (*newf_io) tb_free(*newf_io, (size_t)*newcap * sizeof(int32_t));
    *newcap = q->nh * 2;
    *newf_io = (int32_t*)tb_alloc((size_t)*newcap * sizeof(int32_t));
    if (!*newf_io) { q->oom = 1; *newcap = 0; return 0; }
  }
  int32_t* newf = *newf_io;
  int32_t nh = q->nh;
  for (int32_t h = 0; h < nh; ++h) {
    /* the horizon arrays stay valid: qh_add_face only grows faces and the stack */
    int32_t vf = q->hor_f[h], e = q->hor_e[h];
    int32_t a = q->f[vf].v[e], b = q->f[vf].v[(e + 1) % 3], outer = q->f[vf].nb[e];
    int32_t nfid = qh_add_face(q, a, b, eye);
    if (nfid < 0) return 0;
    newf[h] = nfid;
    q->f[nfid].nb[0] = outer;
    q->f[outer].nb[qh_twin(q, outer, a, b)] = nfid;
  }
  /* link the cone faces: edge 1 (b -> eye) meets the face whose edge 0 starts at b */
  for (int32_t h = 0; h < nh; ++h) {
    qh_face* f = &q->f[newf[h]];
    for (int32_t g = 0; g < nh; ++g) {
      qh_face* o = &q->f[newf[g]];
      if (o->v[0] == f->v[1]) { f->nb[1] = newf[g]; o->nb[2] = newf[h]; }
    }
  }
  /* reset marks of the faces seen as invisible */
  for (int32_t h = 0; h < nh; ++h) {
    int32_t outer = q->f[newf[h]].nb[0];
    q->f[outer].visited = 0;
  }
  for (int32_t p = orphan; p >= 0;) {
    int32_t nx = q->next[p];
    q->next[p] = -1;
    qh_assign(q, p, newf, nh);
    p = nx;
  }
  return 1;
}

int tb_quickhull(qh* q, qh_vec** pts, const float* points, int32_t count, tb_hull_error* err) {
  int32_t ext[6];
  *pts = NULL;
  if (!qh_init(q, pts, points, count, ext, err)) return 0;
  if (!qh_initial_simplex(q, count, ext, err)) {
    tb_quickhull_release(q, *pts);
    return 0;
  }
  /* faces in creation order: each live face with outside points gives its farthest one */
  int32_t cursor = 0;
  int32_t* newf = NULL;
  int32_t newcap = 0;
  while (!q->oom) {
    while (cursor < q->nf && (!q->f[cursor].alive || q->f[cursor].outside < 0)) ++cursor;
    if (cursor >= q->nf) break;
    if (!qh_add_point(q, cursor, &newf, &newcap)) break;
  }
  if (newf) tb_free(newf, (size_t)newcap * sizeof(int32_t));
  if (q->oom) {
    tb_quickhull_release(q, *pts);
    qh_set_error(err, 3, "out of memory");
    return 0;
  }
  return 1;
}
