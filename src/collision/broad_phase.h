/* Sweep-and-prune broad phase over world AABBs (internal). */
#ifndef TB_BROAD_PHASE_H
#define TB_BROAD_PHASE_H

#include "../world/world.h"

/* Re-sorts the persistent sweep order by AABB lower x (insertion sort: nearly sorted between
 * steps) and collects candidate pairs into w->pairs, ordered by (shape0, shape1). Pairs beyond
 * the capacity are counted in w->pairs_requested and flagged in w->pairs_overflowed. */
tb_status tb_broad_phase(tb_world* w);

#endif
