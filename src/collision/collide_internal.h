/* Narrow phase internals: pair routines and shared geometric helpers (internal).
 *
 * Every pair routine has the signature of tb_collide and is written for one type order
 * (lower tb_shape_type first: plane < sphere < capsule < box). tb_collide swaps and flips for the
 * other order. A routine fills out->normal (unit, from a to b), out->points[] and point_count, and
 * returns point_count. */
#ifndef TB_COLLIDE_INTERNAL_H
#define TB_COLLIDE_INTERNAL_H

#include "narrow_phase.h"

typedef int (*tb_collide_fn)(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b,
                             tb_transform tb, float max_separation, tb_manifold* out);

int tb_collide_plane_sphere(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b,
                            tb_transform tb, float max_separation, tb_manifold* out);
int tb_collide_plane_capsule(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b,
                             tb_transform tb, float max_separation, tb_manifold* out);
int tb_collide_plane_box(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b,
                         tb_transform tb, float max_separation, tb_manifold* out);
int tb_collide_sphere_sphere(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b,
                             tb_transform tb, float max_separation, tb_manifold* out);
int tb_collide_sphere_capsule(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b,
                              tb_transform tb, float max_separation, tb_manifold* out);
int tb_collide_sphere_box(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b,
                          tb_transform tb, float max_separation, tb_manifold* out);
int tb_collide_capsule_capsule(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b,
                               tb_transform tb, float max_separation, tb_manifold* out);
int tb_collide_capsule_box(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b,
                           tb_transform tb, float max_separation, tb_manifold* out);
int tb_collide_box_box(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b,
                       tb_transform tb, float max_separation, tb_manifold* out);
/* a: any convex shape (sphere .. hull); b: heightfield or mesh (collide_mesh.c). */
int tb_collide_convex_mesh(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b,
                           tb_transform tb, float max_separation, tb_manifold* out);

/* ---- shared helpers (static inline: no link-time symbols) ---- */

/* Unit vector of v, or `fallback` when v is (near) zero. */
static inline tb_vec3 tb_np_normalize_or(tb_vec3 v, tb_vec3 fallback) {
  float l2 = tb_length_sq(v);
  if (!(l2 > 1e-24f)) return fallback;
  return tb_scale(v, 1.0f / sqrtf(l2));
}

/* Deterministic unit vector perpendicular to unit u. */
static inline tb_vec3 tb_np_perpendicular(tb_vec3 u) {
  /* cross with the world axis least aligned with u */
  tb_vec3 ax = fabsf(u.x) <= fabsf(u.y) && fabsf(u.x) <= fabsf(u.z) ? tb_v3(1, 0, 0)
               : (fabsf(u.y) <= fabsf(u.z) ? tb_v3(0, 1, 0) : tb_v3(0, 0, 1));
  return tb_np_normalize_or(tb_cross(u, ax), tb_v3(1, 0, 0));
}

static inline void tb_np_set_comp(tb_vec3* v, int i, float s) {
  if (i == 0) v->x = s; else if (i == 1) v->y = s; else v->z = s;
}

static inline tb_vec3 tb_np_axis(int i) {
  return i == 0 ? tb_v3(1, 0, 0) : (i == 1 ? tb_v3(0, 1, 0) : tb_v3(0, 0, 1));
}

/* Closest points between segments [p0,p1] and [q0,q1] (Ericson 5.1.9, robust to degenerate and
 * parallel segments). Outputs the parameters s (on p) and t (on q) in [0,1]. */
static inline void tb_np_closest_segments(tb_vec3 p0, tb_vec3 p1, tb_vec3 q0, tb_vec3 q1, float* s_out,
                                          float* t_out) {
  tb_vec3 d1 = tb_sub(p1, p0), d2 = tb_sub(q1, q0), r = tb_sub(p0, q0);
  float a = tb_dot(d1, d1), e = tb_dot(d2, d2), f = tb_dot(d2, r);
  const float eps = 1e-12f;
  float s = 0.0f, t = 0.0f;
  if (a <= eps && e <= eps) {
    s = 0.0f; t = 0.0f;
  } else if (a <= eps) {
    s = 0.0f; t = tb_clampf(f / e, 0.0f, 1.0f);
  } else {
    float c = tb_dot(d1, r);
    if (e <= eps) {
      t = 0.0f; s = tb_clampf(-c / a, 0.0f, 1.0f);
    } else {
      float b = tb_dot(d1, d2);
      float denom = a * e - b * b;
      s = denom > 1e-6f * a * e ? tb_clampf((b * f - c * e) / denom, 0.0f, 1.0f) : 0.0f;
      t = (b * s + f) / e;
      if (t < 0.0f) {
        t = 0.0f; s = tb_clampf(-c / a, 0.0f, 1.0f);
      } else if (t > 1.0f) {
        t = 1.0f; s = tb_clampf((b - c) / a, 0.0f, 1.0f);
      }
    }
  }
  *s_out = s;
  *t_out = t;
}

/* Point of the segment from e0 along seg (e0 + t·seg, t in [0, 1]) closest to p; a segment of
 * (nearly) no length gives its middle. */
static inline tb_vec3 tb_np_segment_closest(tb_vec3 e0, tb_vec3 seg, tb_vec3 p) {
  float l2 = tb_length_sq(seg);
  float t = l2 > 1e-20f ? tb_clampf(tb_dot(tb_sub(p, e0), seg) / l2, 0.0f, 1.0f) : 0.5f;
  return tb_mul_add(e0, t, seg);
}

/* Two posed boxes as their separating-axis tests read them: half extents, axes (world), the centre
 * offset d = b − a and |ax[i]·bx[j]|. */
typedef struct tb_np_box_pair {
  tb_vec3 ha, hb, ax[3], bx[3], d;
  float ar[3][3];
} tb_np_box_pair;

static inline void tb_np_box_pair_of(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b, tb_transform tb,
                                     tb_np_box_pair* p) {
  p->ha = tb_v3(a->params[0], a->params[1], a->params[2]);
  p->hb = tb_v3(b->params[0], b->params[1], b->params[2]);
  tb_mat3 ma = tb_mat3_from_quat(ta.q), mb = tb_mat3_from_quat(tb.q);
  p->ax[0] = ma.cx; p->ax[1] = ma.cy; p->ax[2] = ma.cz;
  p->bx[0] = mb.cx; p->bx[1] = mb.cy; p->bx[2] = mb.cz;
  p->d = tb_sub(tb.p, ta.p);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) p->ar[i][j] = fabsf(tb_dot(p->ax[i], p->bx[j]));
}

/* m: the boxes' separation along a's face normal i (negative: overlap along it). */
static inline float tb_np_box_face_sep_a(const tb_np_box_pair* p, int i) {
  return fabsf(tb_dot(p->d, p->ax[i])) - tb_comp(p->ha, i) - (p->hb.x * p->ar[i][0] + p->hb.y * p->ar[i][1] + p->hb.z * p->ar[i][2]);
}

/* m: the boxes' separation along b's face normal j. */
static inline float tb_np_box_face_sep_b(const tb_np_box_pair* p, int j) {
  return fabsf(tb_dot(p->d, p->bx[j])) - tb_comp(p->hb, j) - (p->ha.x * p->ar[0][j] + p->ha.y * p->ar[1][j] + p->ha.z * p->ar[2][j]);
}

/* World unit normal n and offset d of a posed plane: solid half-space dot(n, x) <= d. */
static inline void tb_np_plane_world(const tb_shape_geom* g, tb_transform t, tb_vec3* n, float* d) {
  tb_vec3 nl = tb_v3(g->params[0], g->params[1], g->params[2]);
  float l = tb_length(nl), dl = g->params[3];
  if (l > 1e-12f) { nl = tb_scale(nl, 1.0f / l); dl /= l; } else { nl = tb_v3(0, 1, 0); }
  *n = tb_rotate(t.q, nl);
  *d = dl + tb_dot(*n, t.p);
}

/* Box edge along local axis m; bits: bit0 = side of axis (m+1)%3, bit1 = side of axis (m+2)%3
 * (1 = +). Global edge index = 4*m + bits. e0 has coordinate m = -h_m, e1 has +h_m. */
static inline void tb_np_box_edge(tb_vec3 h, int m, int bits, tb_vec3* e0, tb_vec3* e1) {
  int j = (m + 1) % 3, l = (m + 2) % 3;
  tb_vec3 e = tb_v3(0, 0, 0);
  tb_np_set_comp(&e, j, (bits & 1) ? tb_comp(h, j) : -tb_comp(h, j));
  tb_np_set_comp(&e, l, (bits & 2) ? tb_comp(h, l) : -tb_comp(h, l));
  *e0 = e;
  *e1 = e;
  tb_np_set_comp(e0, m, -tb_comp(h, m));
  tb_np_set_comp(e1, m, tb_comp(h, m));
}

/* SAT axis choice tolerances (as in Gregorius' box-box): a later axis must beat the earlier by a
 * relative and an absolute margin, for frame-to-frame coherence. */
#define TB_NP_REL_FACE_TOL 0.98f
#define TB_NP_REL_EDGE_TOL 0.90f
#define TB_NP_ABS_TOL 0.0025f
/* Margin by which a candidate separation must exceed `ref` to replace it (relative part only for
 * penetration: for separated shapes the larger separation is also the more accurate one). */
static inline float tb_np_sat_margin(float ref, float rel) {
  return TB_NP_ABS_TOL + (ref < 0.0f ? (1.0f - rel) * -ref : 0.0f);
}

/* Writes one manifold point; separation computed from the points so that it is consistent. */
static inline void tb_np_point(tb_manifold_point* mp, tb_vec3 p0, tb_vec3 p1, tb_vec3 n, uint32_t id) {
  mp->point0 = p0;
  mp->point1 = p1;
  mp->separation = tb_dot(tb_sub(p1, p0), n);
  mp->feature_id = id;
}

/* Reduces `count` candidate points to at most 4, written to out->points: the deepest, plus the three
 * others that maximise the area of the kept polygon (exhaustive over triples; count <= 16). Keeps
 * the candidates' order. Returns the number written. */
int tb_np_reduce_points(const tb_manifold_point* cand, int count, tb_vec3 normal, tb_manifold* out);

#endif
