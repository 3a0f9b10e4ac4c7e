/* Quickhull in double precision with a relative tolerance, then coplanar triangles merged into
 * polygonal faces. Points within the tolerance of the hull are treated as on it. */
#include "hull.h"

#include <float.h>
#include <stdio.h>
#include <string.h>

#include "../core/alloc.h"
#include "support_field.h"

typedef struct qh_vec { double x, y, z; } qh_vec;

static qh_vec qv_sub(qh_vec a, qh_vec b) { qh_vec r = {a.x - b.x, a.y - b.y, a.z - b.z}; return r; }
static double qv_dot(qh_vec a, qh_vec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static qh_vec qv_cross(qh_vec a, qh_vec b) {
  qh_vec r = {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
  return r;
}
static double qv_len(qh_vec a) { return sqrt(qv_dot(a, a)); }

typedef struct qh_face {
  int32_t v[3];     /* counter-clockwise seen from outside */
  int32_t nb[3];    /* face across edge i = (v[i], v[i+1]) */
  qh_vec n;         /* outward unit normal */
  double d;         /* dot(n, x) on the plane */
  int32_t outside;  /* head of the outside point list, -1 = none */
  int32_t alive;
  int32_t visited;
} qh_face;

typedef struct qh {
  const qh_vec* p;
  int32_t np;
  int32_t* next;     /* outside list links per point */
  qh_face* f;
  int32_t nf, capf;
  int32_t* stack;    /* DFS / visible list scratch, capacity capf */
  int32_t* hor_f;    /* horizon: face and edge index */
  int32_t* hor_e;
  int32_t nh, caph;
  double eps;
  int oom;
} qh;

static int qh_grow_faces(qh* q) {
  if (q->nf < q->capf) return 1;
  int32_t cap = q->capf * 2;
  qh_face* nf = (qh_face*)tb_alloc((size_t)cap * sizeof(qh_face));
  int32_t* ns = (int32_t*)tb_alloc((size_t)cap * sizeof(int32_t));
  if (!nf || !ns) {
    if (nf) tb_free(nf, (size_t)cap * sizeof(qh_face));
    if (ns) tb_free(ns, (size_t)cap * sizeof(int32_t));
    q->oom = 1;
    return 0;
  }
  memcpy(nf, q->f, (size_t)q->nf * sizeof(qh_face));
  tb_free(q->f, (size_t)q->capf * sizeof(qh_face));
  tb_free(q->stack, (size_t)q->capf * sizeof(int32_t));
  q->f = nf;
  q->stack = ns;
  q->capf = cap;
  return 1;
}

static int32_t qh_add_face(qh* q, int32_t a, int32_t b, int32_t c) {
  if (!qh_grow_faces(q)) return -1;
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

static double qh_dist(const qh* q, int32_t f, int32_t p) { return qv_dot(q->f[f].n, q->p[p]) - q->f[f].d; }

/* Edge index of face g that runs b -> a (the twin of a -> b). */
static int qh_twin(const qh* q, int32_t g, int32_t a, int32_t b) {
  for (int k = 0; k < 3; ++k)
    if (q->f[g].v[k] == b && q->f[g].v[(k + 1) % 3] == a) return k;
  return -1;
}

static int qh_push_horizon(qh* q, int32_t f, int32_t e) {
  if (q->nh == q->caph) {
    int32_t cap = q->caph * 2;
    int32_t* a = (int32_t*)tb_alloc((size_t)cap * sizeof(int32_t));
    int32_t* b = (int32_t*)tb_alloc((size_t)cap * sizeof(int32_t));
    if (!a || !b) {
      if (a) tb_free(a, (size_t)cap * sizeof(int32_t));
      if (b) tb_free(b, (size_t)cap * sizeof(int32_t));
      q->oom = 1;
      return 0;
    }
    memcpy(a, q->hor_f, (size_t)q->nh * sizeof(int32_t));
    memcpy(b, q->hor_e, (size_t)q->nh * sizeof(int32_t));
    tb_free(q->hor_f, (size_t)q->caph * sizeof(int32_t));
    tb_free(q->hor_e, (size_t)q->caph * sizeof(int32_t));
    q->hor_f = a; q->hor_e = b; q->caph = cap;
  }
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

static void set_err(tb_hull_error* err, int code, const char* msg) {
  err->code = code;
  snprintf(err->message, sizeof err->message, "%s", msg);
}

static void qh_release(qh* q, qh_vec* pts) {
  tb_free(pts, (size_t)q->np * sizeof(qh_vec));
  tb_free(q->next, (size_t)q->np * sizeof(int32_t));
  tb_free(q->f, (size_t)q->capf * sizeof(qh_face));
  tb_free(q->stack, (size_t)q->capf * sizeof(int32_t));
  tb_free(q->hor_f, (size_t)q->caph * sizeof(int32_t));
  tb_free(q->hor_e, (size_t)q->caph * sizeof(int32_t));
}

/* Union-find root with path halving. */
static int32_t uf_find(int32_t* parent, int32_t x) {
  while (parent[x] != x) { parent[x] = parent[parent[x]]; x = parent[x]; }
  return x;
}

tb_hull* tb_hull_build(const float* points, int32_t count, int32_t field_res, tb_hull_error* err) {
  err->code = 0;
  err->message[0] = 0;
  if (!points || count < 4) {
    snprintf(err->message, sizeof err->message, "point_count must be >= 4 (got %d)", count);
    err->code = 1;
    return NULL;
  }
  if (count > TB_HULL_MAX_POINTS) {
    snprintf(err->message, sizeof err->message, "point_count must be <= %d (got %d)", TB_HULL_MAX_POINTS, count);
    err->code = 4;
    return NULL;
  }
  for (int32_t i = 0; i < 3 * count; ++i)
    if (!tb_is_finite(points[i])) {
      snprintf(err->message, sizeof err->message, "points[%d] must be finite (got %g)", i, (double)points[i]);
      err->code = 1;
      return NULL;
    }
  qh q;
  memset(&q, 0, sizeof q);
  q.np = count;
  qh_vec* pts = (qh_vec*)tb_alloc((size_t)count * sizeof(qh_vec));
  q.next = (int32_t*)tb_alloc((size_t)count * sizeof(int32_t));
  q.capf = 64;
  q.f = (qh_face*)tb_alloc((size_t)q.capf * sizeof(qh_face));
  q.stack = (int32_t*)tb_alloc((size_t)q.capf * sizeof(int32_t));
  q.caph = 32;
  q.hor_f = (int32_t*)tb_alloc((size_t)q.caph * sizeof(int32_t));
  q.hor_e = (int32_t*)tb_alloc((size_t)q.caph * sizeof(int32_t));
  if (!pts || !q.next || !q.f || !q.stack || !q.hor_f || !q.hor_e) {
    qh_release(&q, pts);
    set_err(err, 3, "out of memory");
    return NULL;
  }
  q.p = pts;
  double maxabs = 0.0;
  int32_t ext[6] = {0, 0, 0, 0, 0, 0}; /* min x, max x, min y, ... */
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
    q.next[i] = -1;
  }
  /* relative tolerance: a few float ulps of the coordinates' magnitude (inputs are float) */
  q.eps = 3.0 * (double)FLT_EPSILON * (maxabs > 0.0 ? maxabs : 1.0) * 4.0;
  /* initial simplex: the most distant pair of axis extremes, the farthest point from their
   * line, the farthest point from their plane */
  int32_t i0 = ext[0], i1 = ext[1];
  double best = -1.0;
  for (int a = 0; a < 6; ++a)
    for (int b = a + 1; b < 6; ++b) {
      qh_vec d = qv_sub(pts[ext[a]], pts[ext[b]]);
      if (qv_dot(d, d) > best) { best = qv_dot(d, d); i0 = ext[a]; i1 = ext[b]; }
    }
  if (sqrt(best) <= q.eps) {
    qh_release(&q, pts);
    set_err(err, 2, "points must contain at least 4 non-degenerate points (all points coincide)");
    return NULL;
  }
  qh_vec dir = qv_sub(pts[i1], pts[i0]);
  int32_t i2 = -1;
  best = 0.0;
  for (int32_t i = 0; i < count; ++i) {
    double l = qv_len(qv_cross(dir, qv_sub(pts[i], pts[i0])));
    if (l > best) { best = l; i2 = i; }
  }
  if (i2 < 0 || best / qv_len(dir) <= q.eps) {
    qh_release(&q, pts);
    set_err(err, 2, "points must not be collinear (all lie on one line within tolerance)");
    return NULL;
  }
  qh_vec pn = qv_cross(dir, qv_sub(pts[i2], pts[i0]));
  double pl = qv_len(pn);
  int32_t i3 = -1;
  best = 0.0;
  for (int32_t i = 0; i < count; ++i) {
    double dd = fabs(qv_dot(pn, qv_sub(pts[i], pts[i0]))) / pl;
    if (dd > best) { best = dd; i3 = i; }
  }
  if (i3 < 0 || best <= q.eps) {
    qh_release(&q, pts);
    set_err(err, 2, "points must not be coplanar (all lie in one plane within tolerance)");
    return NULL;
  }
  if (qv_dot(pn, qv_sub(pts[i3], pts[i0])) > 0.0) { int32_t t = i1; i1 = i2; i2 = t; } /* i3 below (i0,i1,i2) */
  /* faces: (i0,i1,i2) outward away from i3, and the three sides */
  int32_t f0 = qh_add_face(&q, i0, i1, i2);
  int32_t f1 = qh_add_face(&q, i0, i3, i1);
  int32_t f2 = qh_add_face(&q, i1, i3, i2);
  int32_t f3 = qh_add_face(&q, i2, i3, i0);
  const int32_t base[4] = {f0, f1, f2, f3};
  /* neighbours by twin search */
  for (int a = 0; a < 4; ++a)
    for (int k = 0; k < 3; ++k)
      for (int b = 0; b < 4; ++b)
        if (b != a && qh_twin(&q, base[b], q.f[base[a]].v[k], q.f[base[a]].v[(k + 1) % 3]) >= 0)
          q.f[base[a]].nb[k] = base[b];
  for (int32_t i = 0; i < count; ++i)
    if (i != i0 && i != i1 && i != i2 && i != i3) qh_assign(&q, i, base, 4);

  int32_t cursor = 0;
  int32_t* newf = NULL;
  int32_t newcap = 0;
  while (!q.oom) {
    while (cursor < q.nf && (!q.f[cursor].alive || q.f[cursor].outside < 0)) ++cursor;
    if (cursor >= q.nf) break;
    int32_t eye = q.f[cursor].outside;
    int32_t nvis = 0;
    if (!qh_find_visible(&q, cursor, eye, &nvis)) break;
    /* collect outside points of the visible faces (other than eye) */
    int32_t orphan = -1;
    for (int32_t i = 0; i < nvis; ++i) {
      qh_face* f = &q.f[q.stack[i]];
      for (int32_t p = f->outside; p >= 0;) {
        int32_t nx = q.next[p];
        if (p != eye) { q.next[p] = orphan; orphan = p; }
        p = nx;
      }
      f->outside = -1;
      f->alive = 0;
    }
    if (q.nh > newcap) {
      if (newf) tb_free(newf, (size_t)newcap * sizeof(int32_t));
      newcap = q.nh * 2;
      newf = (int32_t*)tb_alloc((size_t)newcap * sizeof(int32_t));
      if (!newf) { q.oom = 1; newcap = 0; break; }
    }
    int32_t nh = q.nh;
    for (int32_t h = 0; h < nh; ++h) {
      /* the horizon arrays stay valid: qh_add_face only grows faces and the stack */
      int32_t vf = q.hor_f[h], e = q.hor_e[h];
      int32_t a = q.f[vf].v[e], b = q.f[vf].v[(e + 1) % 3], outer = q.f[vf].nb[e];
      int32_t nfid = qh_add_face(&q, a, b, eye);
      if (nfid < 0) break;
      newf[h] = nfid;
      q.f[nfid].nb[0] = outer;
      q.f[outer].nb[qh_twin(&q, outer, a, b)] = nfid;
    }
    if (q.oom) break;
    /* link the cone faces: edge 1 (b -> eye) meets the face whose edge 0 starts at b */
    for (int32_t h = 0; h < nh; ++h) {
      qh_face* f = &q.f[newf[h]];
      for (int32_t g = 0; g < nh; ++g) {
        qh_face* o = &q.f[newf[g]];
        if (o->v[0] == f->v[1]) { f->nb[1] = newf[g]; o->nb[2] = newf[h]; }
      }
    }
    /* reset marks of the faces seen as invisible */
    for (int32_t h = 0; h < nh; ++h) {
      int32_t outer = q.f[newf[h]].nb[0];
      q.f[outer].visited = 0;
    }
    for (int32_t p = orphan; p >= 0;) {
      int32_t nx = q.next[p];
      q.next[p] = -1;
      qh_assign(&q, p, newf, nh);
      p = nx;
    }
  }
  if (newf) tb_free(newf, (size_t)newcap * sizeof(int32_t));
  if (q.oom) {
    qh_release(&q, pts);
    set_err(err, 3, "out of memory");
    return NULL;
  }

  /* merge coplanar neighbouring triangles (normals within ~0.1° and every vertex within the
   * tolerance of the other plane) into polygons */
  int32_t nf = q.nf;
  int32_t* parent = (int32_t*)tb_alloc((size_t)nf * sizeof(int32_t));
  int32_t* vmap = (int32_t*)tb_alloc((size_t)count * sizeof(int32_t));
  int32_t* fmap = (int32_t*)tb_alloc((size_t)nf * sizeof(int32_t));
  if (!parent || !vmap || !fmap) {
    if (parent) tb_free(parent, (size_t)nf * sizeof(int32_t));
    if (vmap) tb_free(vmap, (size_t)count * sizeof(int32_t));
    if (fmap) tb_free(fmap, (size_t)nf * sizeof(int32_t));
    qh_release(&q, pts);
    set_err(err, 3, "out of memory");
    return NULL;
  }
  for (int32_t f = 0; f < nf; ++f) parent[f] = f;
  /* pass 1: well-shaped neighbours with (nearly) the same plane */
  for (int32_t f = 0; f < nf; ++f) {
    if (!q.f[f].alive) continue;
    for (int k = 0; k < 3; ++k) {
      int32_t g = q.f[f].nb[k];
      if (g < f || qv_dot(q.f[f].n, q.f[g].n) < 1.0 - 1e-6) continue;
      int coplanar = 1;
      for (int m = 0; m < 3; ++m)
        if (fabs(qh_dist(&q, f, q.f[g].v[m])) > q.eps || fabs(qh_dist(&q, g, q.f[f].v[m])) > q.eps) coplanar = 0;
      if (coplanar) {
        int32_t ra = uf_find(parent, f), rb = uf_find(parent, g);
        if (ra != rb) parent[ra < rb ? rb : ra] = ra < rb ? ra : rb;
      }
    }
  }
  /* pass 2: a triangle left alone (a sliver along collinear points, whose own normal is
   * unreliable) joins the one neighbour whose plane holds its vertices best, so that a sliver
   * on an edge never bridges the two faces of that edge */
  for (int32_t f = 0; f < nf; ++f) fmap[f] = 0;
  for (int32_t f = 0; f < nf; ++f)
    if (q.f[f].alive) ++fmap[uf_find(parent, f)];
  for (int32_t f = 0; f < nf; ++f) {
    if (!q.f[f].alive || fmap[f] != 1 || parent[f] != f) continue;
    int32_t host = -1;
    double bd = q.eps;
    for (int k = 0; k < 3; ++k) {
      int32_t g = q.f[f].nb[k];
      double d = 0.0;
      for (int m = 0; m < 3; ++m) d = fmax(d, fabs(qh_dist(&q, g, q.f[f].v[m])));
      if (d <= bd) { bd = d; host = g; }
    }
    if (host >= 0) {
      int32_t rb = uf_find(parent, host); /* the smallest index stays the root */
      if (rb != f) parent[rb < f ? f : rb] = rb < f ? rb : f;
    }
  }
  /* count merged faces, boundary edges and used vertices */
  int32_t F = 0, idx_total = 0, V = 0;
  for (int32_t i = 0; i < count; ++i) vmap[i] = -1;
  for (int32_t f = 0; f < nf; ++f) {
    fmap[f] = -1;
    if (!q.f[f].alive) continue;
    if (uf_find(parent, f) == f) fmap[f] = F++;
  }
  for (int32_t f = 0; f < nf; ++f) {
    if (!q.f[f].alive) continue;
    int32_t r = uf_find(parent, f);
    for (int k = 0; k < 3; ++k)
      if (uf_find(parent, q.f[f].nb[k]) != r) {
        ++idx_total;
        int32_t vi = q.f[f].v[k];
        if (vmap[vi] < 0) vmap[vi] = V++;
      }
  }
  size_t bytes = sizeof(tb_hull) + (size_t)V * sizeof(tb_vec3) + (size_t)(F + 1) * sizeof(int32_t) +
                 (size_t)idx_total * sizeof(int32_t) + (size_t)F * (sizeof(tb_vec3) + sizeof(float));
  char* block = (char*)tb_alloc(bytes);
  if (!block) {
    tb_free(parent, (size_t)nf * sizeof(int32_t));
    tb_free(vmap, (size_t)count * sizeof(int32_t));
    tb_free(fmap, (size_t)nf * sizeof(int32_t));
    qh_release(&q, pts);
    set_err(err, 3, "out of memory");
    return NULL;
  }
  tb_hull* h = (tb_hull*)block;
  memset(h, 0, sizeof *h);
  char* cur = block + sizeof(tb_hull);
  h->vertices = (tb_vec3*)cur; cur += (size_t)V * sizeof(tb_vec3);
  h->face_normal = (tb_vec3*)cur; cur += (size_t)F * sizeof(tb_vec3);
  h->face_offset = (float*)cur; cur += (size_t)F * sizeof(float);
  h->face_first = (int32_t*)cur; cur += (size_t)(F + 1) * sizeof(int32_t);
  h->face_index = (int32_t*)cur;
  h->vertex_count = V;
  h->face_count = F;
  h->edge_count = idx_total / 2;
  h->bytes = bytes;
  h->tolerance = (float)q.eps;
  for (int32_t i = 0; i < count; ++i)
    if (vmap[i] >= 0) h->vertices[vmap[i]] = tb_v3((float)pts[i].x, (float)pts[i].y, (float)pts[i].z);
  /* polygon loops: walk the boundary of each merged group; a boundary edge a -> b is followed by
   * the boundary edge of the same group that starts at b */
  int32_t out = 0;
  for (int32_t f = 0; f < nf; ++f) {
    if (fmap[f] < 0) continue;
    int32_t r = f, fi = fmap[f];
    h->face_first[fi] = out;
    /* first boundary edge of the group */
    int32_t sf = -1, se = -1;
    for (int32_t g = f; g < nf && sf < 0; ++g) {
      if (!q.f[g].alive || uf_find(parent, g) != r) continue;
      for (int k = 0; k < 3; ++k)
        if (uf_find(parent, q.f[g].nb[k]) != r) { sf = g; se = k; break; }
    }
    int32_t cf = sf, ce = se;
    qh_vec nsum = {0, 0, 0};
    double dsum = 0.0;
    int32_t guard = 0;
    do {
      int32_t a = q.f[cf].v[ce], b = q.f[cf].v[(ce + 1) % 3];
      h->face_index[out++] = vmap[a];
      /* next boundary edge starting at b: rotate around b through the group's triangles */
      int32_t g = cf, e = (ce + 1) % 3; /* edge b -> c of cf */
      while (uf_find(parent, q.f[g].nb[e]) == r) {
        int32_t nbf = q.f[g].nb[e];
        int32_t t = qh_twin(&q, nbf, q.f[g].v[e], q.f[g].v[(e + 1) % 3]);
        g = nbf;
        e = (t + 1) % 3;
      }
      cf = g; ce = e;
      (void)b;
    } while ((cf != sf || ce != se) && ++guard < 4 * count + 16);
    /* Newell normal over the polygon, offset by the mean */
    int32_t first = h->face_first[fi], nv = out - first;
    for (int32_t k = 0; k < nv; ++k) {
      qh_vec a = pts[0], b = pts[0];
      tb_vec3 fa = h->vertices[h->face_index[first + k]], fb = h->vertices[h->face_index[first + (k + 1) % nv]];
      a.x = fa.x; a.y = fa.y; a.z = fa.z; b.x = fb.x; b.y = fb.y; b.z = fb.z;
      nsum.x += (a.y - b.y) * (a.z + b.z);
      nsum.y += (a.z - b.z) * (a.x + b.x);
      nsum.z += (a.x - b.x) * (a.y + b.y);
    }
    double nl = qv_len(nsum);
    if (nl > 0.0) { nsum.x /= nl; nsum.y /= nl; nsum.z /= nl; } else nsum = q.f[f].n;
    for (int32_t k = 0; k < nv; ++k) {
      tb_vec3 v = h->vertices[h->face_index[first + k]];
      dsum += nsum.x * v.x + nsum.y * v.y + nsum.z * v.z;
    }
    h->face_normal[fi] = tb_v3((float)nsum.x, (float)nsum.y, (float)nsum.z);
    h->face_offset[fi] = (float)(dsum / nv);
  }
  h->face_first[F] = out;
  /* a vertex on fewer than 3 faces lies on an edge between two merged faces (collinear input
   * points): drop it from both polygons and from the vertex list (unless a face would keep
   * fewer than 3 vertices) */
  {
    int32_t* deg = vmap; /* reuse: count >= V */
    for (int32_t i = 0; i < V; ++i) deg[i] = 0;
    for (int32_t k = 0; k < out; ++k) ++deg[h->face_index[k]];
    int32_t nv = 0;
    for (int32_t i = 0; i < V; ++i) deg[i] = deg[i] >= 3 ? nv++ : -1;
    int ok = nv < V;
    for (int32_t f = 0; f < F && ok; ++f) {
      int32_t kept = 0;
      for (int32_t k = h->face_first[f]; k < h->face_first[f + 1]; ++k) kept += deg[h->face_index[k]] >= 0;
      ok = kept >= 3;
    }
    if (ok) {
      for (int32_t i = 0; i < V; ++i)
        if (deg[i] >= 0) h->vertices[deg[i]] = h->vertices[i];
      int32_t w = 0;
      for (int32_t f = 0; f < F; ++f) {
        int32_t s0 = h->face_first[f], s1 = h->face_first[f + 1];
        h->face_first[f] = w;
        for (int32_t k = s0; k < s1; ++k)
          if (deg[h->face_index[k]] >= 0) h->face_index[w++] = deg[h->face_index[k]];
      }
      h->face_first[F] = w;
      out = w;
      V = nv;
      h->vertex_count = V;
    }
  }
  h->edge_count = out / 2;
  tb_free(parent, (size_t)nf * sizeof(int32_t));
  tb_free(vmap, (size_t)count * sizeof(int32_t));
  tb_free(fmap, (size_t)nf * sizeof(int32_t));
  qh_release(&q, pts);

  tb_vec3 c = tb_v3(0, 0, 0);
  for (int32_t i = 0; i < V; ++i) c = tb_add(c, h->vertices[i]);
  c = tb_scale(c, 1.0f / (float)V);
  h->centroid = c;
  float rad = 0.0f;
  for (int32_t i = 0; i < V; ++i) rad = fmaxf(rad, tb_length(tb_sub(h->vertices[i], c)));
  h->radius = rad;
  int32_t res = field_res < 0 ? (V >= TB_HULL_FIELD_MIN_VERTICES ? TB_HULL_DEFAULT_FIELD_RES : 0) : field_res;
  if (res > 0) {
    /* vertex adjacency (CSR) from the polygons' edges for the hill-climbing build: edge a -> b
     * lists b as a neighbour of a (the twin edge b -> a of the other face lists a for b) */
    int32_t E2 = h->face_first[h->face_count];
    int32_t* adj_first = (int32_t*)tb_alloc((size_t)(V + 1) * sizeof(int32_t));
    int32_t* adj = (int32_t*)tb_alloc((size_t)E2 * sizeof(int32_t));
    int32_t* fillpos = (int32_t*)tb_alloc((size_t)V * sizeof(int32_t));
    int have_adj = adj_first && adj && fillpos;
    if (have_adj) {
      for (int32_t i = 0; i <= V; ++i) adj_first[i] = 0;
      for (int32_t k = 0; k < E2; ++k) ++adj_first[h->face_index[k] + 1];
      for (int32_t i = 0; i < V; ++i) { adj_first[i + 1] += adj_first[i]; fillpos[i] = adj_first[i]; }
      for (int32_t f = 0; f < h->face_count; ++f) {
        int32_t s0 = h->face_first[f], n = h->face_first[f + 1] - s0;
        for (int32_t k = 0; k < n; ++k) {
          int32_t a = h->face_index[s0 + k], b = h->face_index[s0 + (k + 1) % n];
          adj[fillpos[a]++] = b;
        }
      }
    }
    h->field = tb_support_field_build(h->vertices, V, have_adj ? adj_first : NULL, have_adj ? adj : NULL, res);
    if (adj_first) tb_free(adj_first, (size_t)(V + 1) * sizeof(int32_t));
    if (adj) tb_free(adj, (size_t)E2 * sizeof(int32_t));
    if (fillpos) tb_free(fillpos, (size_t)V * sizeof(int32_t));
    if (!h->field) {
      tb_free(block, bytes);
      set_err(err, 3, "out of memory for the support field");
      return NULL;
    }
    h->bytes += h->field->bytes;
  }
  return h;
}

void tb_hull_free(tb_hull* h) {
  if (!h) return;
  size_t own = h->bytes;
  if (h->field) {
    own -= h->field->bytes;
    tb_support_field_free(h->field);
  }
  tb_free(h, own);
}

int32_t tb_hull_support_scan(const tb_hull* h, tb_vec3 d) {
  int32_t best = 0;
  float bd = tb_dot(h->vertices[0], d);
  for (int32_t i = 1; i < h->vertex_count; ++i) {
    float x = tb_dot(h->vertices[i], d);
    if (x > bd) { bd = x; best = i; }
  }
  return best;
}

int32_t tb_hull_support(const tb_hull* h, tb_vec3 d) {
  if (h->field) {
    int32_t ties = 1;
    int32_t v = tb_support_field_lookup(h->field, h->vertices, d, &ties);
    /* an ambiguous direction (a face or edge perpendicular to d): the exact scan's answer, so that
     * GJK / MPR see the same vertex as without the field, whichever cells hold the tie */
    if (ties <= 1) return v;
  }
  return tb_hull_support_scan(h, d);
}

void tb_hull_mass(const tb_hull* h, float* volume, tb_vec3* center, tb_mat3* inertia) {
  /* signed tetrahedra (r, a, b, c) over a fan of each face, r = vertex centroid; covariance of
   * a tetrahedron with one vertex at the origin: det/120 · (Σ v vᵀ + (Σ v)(Σ v)ᵀ) */
  const tb_vec3 r = h->centroid;
  double vol = 0.0, cx = 0.0, cy = 0.0, cz = 0.0, C[3][3] = {{0}};
  for (int32_t f = 0; f < h->face_count; ++f) {
    int32_t s = h->face_first[f], n = h->face_first[f + 1] - s;
    tb_vec3 a0 = tb_sub(h->vertices[h->face_index[s]], r);
    for (int32_t k = 1; k + 1 < n; ++k) {
      tb_vec3 b0 = tb_sub(h->vertices[h->face_index[s + k]], r), c0 = tb_sub(h->vertices[h->face_index[s + k + 1]], r);
      const double a[3] = {a0.x, a0.y, a0.z}, b[3] = {b0.x, b0.y, b0.z}, c[3] = {c0.x, c0.y, c0.z};
      double det = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
      vol += det / 6.0;
      cx += det / 24.0 * (a[0] + b[0] + c[0]);
      cy += det / 24.0 * (a[1] + b[1] + c[1]);
      cz += det / 24.0 * (a[2] + b[2] + c[2]);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          C[i][j] += det / 120.0 * (a[i] * a[j] + b[i] * b[j] + c[i] * c[j] +
                                    (a[i] + b[i] + c[i]) * (a[j] + b[j] + c[j]));
    }
  }
  double m[3] = {cx / vol, cy / vol, cz / vol};
  /* covariance about the centre of mass, then I = tr(C) 1 − C */
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) C[i][j] -= vol * m[i] * m[j];
  double tr = C[0][0] + C[1][1] + C[2][2];
  double I[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) I[i][j] = (i == j ? tr : 0.0) - C[i][j];
  *volume = (float)vol;
  *center = tb_add(r, tb_v3((float)m[0], (float)m[1], (float)m[2]));
  inertia->cx = tb_v3((float)I[0][0], (float)I[1][0], (float)I[2][0]);
  inertia->cy = tb_v3((float)I[0][1], (float)I[1][1], (float)I[2][1]);
  inertia->cz = tb_v3((float)I[0][2], (float)I[1][2], (float)I[2][2]);
}
