/* Pairs that stay apart (internal): a lower bound of how far apart two shapes are, found when a
 * pair's test gave no point, and whether their motion since can have closed it to the detection
 * distance. While it cannot, the narrow stage leaves the pair without a test: the test would give
 * no point either, so the results are the same bit for bit (bench/RESULTS.md "perf25").
 *
 * Sphere, capsule and box pairs. Their routines give no point when the distance they compute (the
 * true distance within rounding) exceeds the detection distance; box–box gives none when a face
 * normal separates the boxes by more than it, and its points' separations are not below the true
 * distance on the face normals but may be on an edge pair's axis, so for two boxes the bound is the
 * separation along the face normals, which turn with the boxes. */
#ifndef TB_APART_H
#define TB_APART_H

#include "../core/math.h"
#include "../world/contact_types.h"

/* m: a lower bound of the distance between the surfaces of a (pose ta) and b (pose tb) as their
 * routine computes it, negative for a penetration: for sphere–sphere, sphere–capsule and
 * sphere–box the distance the routine computes; for capsule–capsule and capsule–box the gap between
 * the segment's axis-aligned box and the other segment's (world) or the box (in its frame), less
 * the radii; for box–box the largest separation along the six face normals, as
 * tb_collide_box_box computes them; each less a rounding allowance (3e-5 of the magnitudes, twice:
 * for the routine's rounding at these poses and at the next ones). -INFINITY where none is known:
 * another pair type, a sphere's centre or a capsule's segment inside or on the box. */
float tb_apart_distance(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b, tb_transform tb);

/* 1 when shapes a, b, at least `distance` (m, tb_apart_distance) apart at poses then_a, then_b,
 * are still farther apart than `detect` (m) at now_a, now_b: the distance less each shape's motion
 * bound (its centre's displacement plus the chord its farthest core point turns through), for two
 * boxes less what their face normals' turn can change along them, and less the rounding allowance
 * of what moved; and a capsule's segment or a sphere's centre still outside a box. NaN: 0. */
int tb_apart_holds(float distance, const tb_shape_geom* a, const tb_transform* then_a, const tb_transform* now_a,
                   const tb_shape_geom* b, const tb_transform* then_b, const tb_transform* now_b, float detect);

#endif
