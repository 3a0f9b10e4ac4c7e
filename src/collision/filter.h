/* Pair filtering per rule (Newton, MuJoCo, PhysX, Genesis) and sleep (internal). The slot-pair
 * lists the filters read are world storage (src/world/pair_keys.h). */
#ifndef TB_FILTER_H
#define TB_FILTER_H

#include "../world/world.h"

/* TB_PAIR_* flags of the candidate pair of shape slots a, b (0 = rejected): the checks common to
 * every rule (different bodies, at least one awake dynamic body, not two planes), then the
 * world's filter rule. Reads only; safe from any thread. */
int32_t tb_filter_pair(const tb_world* w, int32_t a, int32_t b);

#endif
