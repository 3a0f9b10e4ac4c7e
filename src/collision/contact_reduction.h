/* Contact reduction (internal): many candidate points of one shape pair -> a bounded set.
 *
 * Rule: the deepest point first (smallest separation, the first on ties); then the point farthest
 * from it in the contact plane; then the point maximising the triangle area with those two; then
 * the point adding the most area outside that triangle. Points are compared by the midpoint of
 * point0 and point1 projected on the plane of `normal`. The kept points stay in their input order,
 * with their feature ids. O(count) per kept point. */
#ifndef TB_CONTACT_REDUCTION_H
#define TB_CONTACT_REDUCTION_H

#include "narrow_phase.h"

/* Selects at most max_points (1..4) of the count candidates; writes their indices (ascending) to
 * keep[] and returns how many. */
int tb_contact_reduce_select(const tb_manifold_point* cand, int count, tb_vec3 normal, int max_points,
                             int* keep);

/* Bounds a manifold in place to max_points (1..4); points_found keeps the count found before
 * (the larger of its old value and point_count). Returns the new point_count. */
int tb_manifold_reduce(tb_manifold* m, int max_points);

#endif
