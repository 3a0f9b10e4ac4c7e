/* Support-mapped convex shapes and the general convex algorithms: GJK (distance and closest
 * points when separated), EPA (depth and normal when overlapping), MPR (penetration, the default
 * for general convex pairs, refined by GJK/EPA when it does not converge) (internal).
 * Geometry only: no force is computed here. */
#ifndef TB_CONVEX_H
#define TB_CONVEX_H

#include "narrow_phase.h"

#define TB_CONVEX_TRIANGLE 100 /* a triangle of a mesh or heightfield; vertices in tri[] */

/* A posed convex shape as the general algorithms see it. */
typedef struct tb_convex {
  int32_t type;          /* tb_shape_type of a convex shape, or TB_CONVEX_TRIANGLE */
  float params[4];       /* as documented at tb_shape_type */
  const void* data;      /* hull geometry for TB_SHAPE_HULL */
  tb_vec3 tri[3];        /* triangle vertices in the pose's frame (TB_CONVEX_TRIANGLE) */
  tb_transform pose;     /* shape to world */
} tb_convex;

/* The farthest point of c in world direction dir (not necessarily unit), world frame (m). */
tb_vec3 tb_convex_support(const tb_convex* c, tb_vec3 dir);

/* Contact manifold of two convex shapes (a is shape0; normal from a towards b), up to
 * max_separation (m) apart, by the analytic routine when one exists, else MPR (+ GJK/EPA
 * refinement) for the first point and the multi-point rule for the rest. Returns point_count. */
int tb_collide_convex(const tb_convex* a, const tb_convex* b, float max_separation, tb_manifold* out);

#endif
