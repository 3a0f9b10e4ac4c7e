/* Slot-pair lists of the world (internal): sorted sets of unordered slot pairs, with optional
 * per-pair values, for the exclusions, the explicit broad-phase candidates and the MuJoCo explicit
 * contact pairs. Storage only: the filter rules that read them live in collision/filter.c. */
#ifndef TB_PAIR_KEYS_H
#define TB_PAIR_KEYS_H

#include "../include/tribo.h"

struct tb_world;

/* A sorted set of unordered slot pairs, key (min << 32) | max, with optional values. */
typedef struct tb_pair_keys {
  uint64_t* key;                  /* ascending */
  tb_contact_pair_params* params; /* per key, only for the MuJoCo explicit pairs; else NULL */
  int32_t count, capacity;
} tb_pair_keys;

/* Key of an unordered slot pair: (min << 32) | max. */
static inline uint64_t tb_slot_pair_key(int32_t a, int32_t b) {
  uint32_t lo = (uint32_t)(a < b ? a : b), hi = (uint32_t)(a < b ? b : a);
  return ((uint64_t)lo << 32) | hi;
}

/* Index of key in the list, or -1. */
int32_t tb_pair_keys_find(const tb_pair_keys* list, uint64_t key);
/* Room for `count` keys (and params when with_params); 0 on out of memory, list unchanged. */
int tb_pair_keys_reserve(tb_pair_keys* l, int32_t count, int with_params);
/* Adds (on) or removes (off) key, keeping the order; params replace the stored ones. Fails with a
 * message naming fn on out of memory. */
tb_status tb_pair_keys_set(struct tb_world* w, tb_pair_keys* l, uint64_t key, int on, const tb_contact_pair_params* params,
                           const char* fn);
/* Sorts the count keys ascending and collapses duplicates (lists without params). */
void tb_pair_keys_sort_unique(tb_pair_keys* l);
void tb_pair_keys_free(tb_pair_keys* l);

/* Parameters of the MuJoCo explicit pair of shape slots a, b, or NULL (the distance and material
 * stages read them here, where they are stored). */
const tb_contact_pair_params* tb_filter_contact_pair(const struct tb_world* w, int32_t a, int32_t b);

/* A removed shape / body leaves every list (and parent links to a removed body are cleared). */
void tb_pair_lists_forget_shape(struct tb_world* w, int32_t shape_slot);
void tb_pair_lists_forget_body(struct tb_world* w, int32_t body_slot);
void tb_pair_lists_free(struct tb_world* w);

#endif
