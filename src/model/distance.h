/* Per-preset distance rules: which narrow-phase points a pair keeps, which get a solver row, and
 * the distance the solver drives to >= 0 (internal). The rule is collision.distance_rule
 * (tb_distance_rule); the per-shape values are set with tb_shape_set_distances(). */
#ifndef TB_DISTANCE_H
#define TB_DISTANCE_H

#include "../world/contact_types.h"

struct tb_world;

/* Classification of one point by the rule. */
typedef struct tb_distance_point {
  int32_t kept;     /* the record exists */
  int32_t active;   /* the solver gives it a normal row */
  int32_t excluded; /* MuJoCo gap-only contact */
  float distance;   /* m: separation - margin, what the solver drives to >= 0 */
} tb_distance_point;

/* The pair's summed values; motion (m) is the relative motion of the two bodies over one step
 * (|Δv|·h): PhysX adds it and solver.speculative_distance to its generation distance; Newton adds
 * it (capped) only with collision.speculative_widening; MuJoCo keeps exactly its thresholds. */
tb_distance_pair tb_distance_pair_of(const struct tb_world* w, int32_t s0, int32_t s1, float motion);
/* The same from both shapes' two values under the rule (tb_distance_of_shape, world.h), which
 * the narrow stage reads from the shapes' views. */
tb_distance_pair tb_distance_pair_from(const struct tb_world* w, int32_t s0, int32_t s1, const float d0[2], const float d1[2],
                                       float motion);

/* The rule on one point of surface separation s (m):
 *   newton: d = s - margin; kept when d <= gap; active when d < 0.
 *   mujoco: kept when s < margin + gap; active when s < margin, else excluded; distance s - margin.
 *   physx:  kept when s <= detect (= gap + speculative); always active; distance s - margin. */
tb_distance_point tb_distance_classify(const tb_distance_pair* p, float separation);

/* Applies the rule to a narrow-phase manifold: drops points that are not kept (keeping the order
 * of the others and lowering points_found by as many, so points_found > point_count still means
 * that reduction dropped points), sets each point's active / excluded flags (active only when the
 * pair has a solver response, solve != 0) and replaces separation by the rule's distance. */
void tb_distance_apply(const tb_distance_pair* p, int solve, tb_manifold* m);

#endif
