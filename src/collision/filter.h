/* Pair filtering per rule (Newton, MuJoCo, PhysX, Genesis), sleep, and the slot-pair lists the
 * filters and the explicit broad phase read (internal). */
#ifndef TB_FILTER_H
#define TB_FILTER_H

#include "../world/world.h"

/* Key of an unordered slot pair: (min << 32) | max. */
static inline uint64_t tb_slot_pair_key(int32_t a, int32_t b) {
  uint32_t lo = (uint32_t)(a < b ? a : b), hi = (uint32_t)(a < b ? b : a);
  return ((uint64_t)lo << 32) | hi;
}

/* Index of key in the list, or -1. */
int32_t tb_pair_keys_find(const tb_pair_keys* list, uint64_t key);

/* TB_PAIR_* flags of the candidate pair of shape slots a, b (0 = rejected): the checks common to
 * every rule (different bodies, at least one awake dynamic body, not two planes), then the
 * world's filter rule. Reads only; safe from any thread. */
int32_t tb_filter_pair(const tb_world* w, int32_t a, int32_t b);

/* Parameters of the MuJoCo explicit pair of shape slots a, b, or NULL. */
const tb_contact_pair_params* tb_filter_contact_pair(const tb_world* w, int32_t a, int32_t b);

/* A removed shape / body leaves every list (and parent links to a removed body are cleared). */
void tb_filter_forget_shape(tb_world* w, int32_t shape_slot);
void tb_filter_forget_body(tb_world* w, int32_t body_slot);
void tb_filter_destroy(tb_world* w);

#endif
