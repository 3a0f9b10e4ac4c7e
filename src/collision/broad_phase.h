/* Broad phase over world AABBs: candidate pairs from the world's generator (internal). */
#ifndef TB_BROAD_PHASE_H
#define TB_BROAD_PHASE_H

#include "../world/world.h"

/* Collects the candidate pairs with overlapping AABBs of the world's generator (sweep and prune:
 * the pairs of overlapping fat boxes kept between steps, updated for the few shapes that left
 * theirs, else swept again over a persistent order in parallel chunks; all pairs; or the explicit
 * list) that pass tb_filter_pair, into
 * w->pairs ordered by (shape0, shape1) with their TB_PAIR_* flags. The pair arrays grow to hold
 * every pair (w->pairs_grew says they did). More pairs than a non-zero max_collision_pairs:
 * TB_ERR_CAPACITY, pair_count 0. */
tb_status tb_broad_phase(tb_world* w, const tb_step_context* step);
/* Frees the sweep order, its entries, the sorts' scratch and the fat boxes with their pairs. */
void tb_broad_phase_destroy(tb_world* w);

#endif
