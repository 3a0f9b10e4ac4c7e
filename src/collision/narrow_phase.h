/* Narrow phase: analytic contact manifolds between two posed shapes (internal).
 * Geometry only: no force is computed here. */
#ifndef TB_NARROW_PHASE_H
#define TB_NARROW_PHASE_H

#include "../core/math.h"
#include "../include/tribo.h"
#include "../world/contact_types.h"

/* Frees a shape's owned geometry (hull, heightfield, mesh); NULL is a no-op. */
void tb_shape_data_free(int32_t type, void* data);

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
