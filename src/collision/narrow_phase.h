/* Narrow phase: analytic contact manifolds between two posed shapes (internal).
 * Geometry only: no force is computed here. */
#ifndef TB_NARROW_PHASE_H
#define TB_NARROW_PHASE_H

#include "../core/math.h"
#include "../include/tribo.h"

#define TB_MAX_MANIFOLD_POINTS TB_MAX_POINTS_PER_PAIR

/* A shape's geometry as the narrow phase sees it; params as documented at tb_shape_type. */
typedef struct tb_shape_geom {
  int32_t type;      /* tb_shape_type */
  float params[4];
  const void* data;  /* hull / heightfield / mesh geometry (owned by the shape), else NULL */
} tb_shape_geom;

/* Frees a shape's owned geometry (hull, heightfield, mesh); NULL is a no-op. */
void tb_shape_data_free(int32_t type, void* data);

typedef struct tb_manifold_point {
  tb_vec3 point0;      /* on the surface of shape0, world (m) */
  tb_vec3 point1;      /* on the surface of shape1, world (m) */
  /* m: from the narrow phase, dot(point1 - point0, normal), negative = penetration; collide()'s
   * distance stage (src/model/distance.h) then replaces it by the rule's distance that the solver
   * drives to >= 0: separation - summed margins (Newton, MuJoCo) or rest offsets (PhysX). */
  float separation;
  uint32_t feature_id; /* same value across frames for the same pair of features */
  int32_t active;      /* 1: the solver gives it a row; 0: detected only (gap, trigger, no-solve) */
  int32_t excluded;    /* 1: MuJoCo gap-only contact (detected, no row); set by the distance stage */
} tb_manifold_point;

typedef struct tb_manifold {
  tb_vec3 normal;      /* world unit vector from shape0 towards shape1 */
  int32_t point_count; /* 0..TB_MAX_MANIFOLD_POINTS */
  int32_t points_found;/* points before reduction; > point_count when reduction dropped some */
  tb_manifold_point points[TB_MAX_MANIFOLD_POINTS];
} tb_manifold;

/* The same contact seen from the other shape: normal negated, the two points of each of the first
 * n points exchanged. */
static inline void tb_manifold_mirror(tb_manifold* m, int n) {
  m->normal = tb_neg(m->normal);
  for (int i = 0; i < n; ++i) {
    tb_vec3 t = m->points[i].point0;
    m->points[i].point0 = m->points[i].point1;
    m->points[i].point1 = t;
  }
}

/* Contact manifold of shape a (pose ta) against shape b (pose tb); a is "shape0". Keeps points
 * whose separation <= max_separation (m). Any type order is accepted; the result is the same
 * contact seen from the other side when a and b are swapped (normal negated, points swapped).
 * Returns point_count. */
int tb_collide(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b, tb_transform tb,
               float max_separation, tb_manifold* out);

/* Local-frame AABB half extents are not enough for rotated shapes: world AABB of a posed shape.
 * Planes get a huge box. */
void tb_shape_aabb(const tb_shape_geom* g, tb_transform t, tb_vec3* lower, tb_vec3* upper);

#endif
