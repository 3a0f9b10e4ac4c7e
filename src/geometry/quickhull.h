/* Quickhull in double precision with a relative tolerance (internal to the hull build): the
 * triangles of the convex hull of a point cloud, with their neighbours across each edge. Points
 * within the tolerance of the hull are treated as on it. hull_faces.c then merges the coplanar
 * triangles into polygonal faces. */
#ifndef TB_QUICKHULL_H
#define TB_QUICKHULL_H

#include <math.h>
#include <stdio.h>

#include "hull.h"

typedef struct qh_vec { double x, y, z; } qh_vec;

static inline qh_vec qv_sub(qh_vec a, qh_vec b) { qh_vec r = {a.x - b.x, a.y - b.y, a.z - b.z}; return r; }
static inline double qv_dot(qh_vec a, qh_vec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline qh_vec qv_cross(qh_vec a, qh_vec b) {
  qh_vec r = {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
  return r;
}
static inline double qv_len(qh_vec a) { return sqrt(qv_dot(a, a)); }

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
  double eps;        /* m: the relative point tolerance */
  int oom;
} qh;

/* Signed distance of point p above the plane of face f (m). */
static inline double qh_dist(const qh* q, int32_t f, int32_t p) { return qv_dot(q->f[f].n, q->p[p]) - q->f[f].d; }

/* Edge index of face g that runs b -> a (the twin of a -> b). */
static inline int qh_twin(const qh* q, int32_t g, int32_t a, int32_t b) {
  for (int k = 0; k < 3; ++k)
    if (q->f[g].v[k] == b && q->f[g].v[(k + 1) % 3] == a) return k;
  return -1;
}

static inline void qh_set_error(tb_hull_error* err, int code, const char* msg) {
  err->code = code;
  snprintf(err->message, sizeof err->message, "%s", msg);
}

/* Hull triangles of points[0..count) (finite, count >= 4): fills q (faces with alive = 1 form the
 * hull) and *pts (the points in double). Returns 1, or 0 with err set and nothing left to free. */
int tb_quickhull(qh* q, qh_vec** pts, const float* points, int32_t count, tb_hull_error* err);
/* Frees what tb_quickhull allocated. */
void tb_quickhull_release(qh* q, qh_vec* pts);

/* The hull of q's triangles with coplanar triangles merged into polygons (hull_faces.c): vertices,
 * faces, normals, offsets, tolerance and bytes set; centroid, radius and support field not yet.
 * NULL with err set when out of memory. */
tb_hull* tb_hull_from_triangles(const qh* q, const qh_vec* pts, int32_t count, tb_hull_error* err);

#endif
