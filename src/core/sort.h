/* Deterministic linear-time sorts (internal). Both are stable, so the result is a function of the
 * input alone: equal keys keep their input order, whatever the thread count or the history. */
#ifndef TB_SORT_H
#define TB_SORT_H

#include <stddef.h>
#include <stdint.h>

/* An unsigned key ordered as the float x is under `<`, with -0 and +0 equal (finite x). */
uint32_t tb_sort_key_f32(float x);

/* Stable LSD radix sort of n (key, value) pairs by key, 8 bits per pass; a pass whose digit is the
 * same for every key is skipped. key_tmp and value_tmp hold n entries of scratch. */
void tb_radix_sort_u32(uint32_t* key, int32_t* value, uint32_t* key_tmp, int32_t* value_tmp, int32_t n);

/* Ascending sort of n 64-bit keys (a << 32 | b) whose halves a and b are slots in [0, range) (body
 * slot pairs): two stable counting passes, b then a (none when the keys already ascend). tmp holds
 * n entries of scratch, count range + 1. */
void tb_sort_slot_pairs(uint64_t* key, uint64_t* tmp, int32_t n, int32_t range, int32_t* count);

/* The first index in [0, n) whose key is not below k, n when none (keys ascending). */
int32_t tb_lower_bound_u64(const uint64_t* keys, int32_t n, uint64_t k);

#endif
