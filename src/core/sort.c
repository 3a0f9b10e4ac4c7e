#include "sort.h"

#include <string.h>

uint32_t tb_sort_key_f32(float x) {
  float z = x + 0.0f; /* -0 + 0 = +0 in round-to-nearest: both zeros get one key */
  uint32_t u;
  memcpy(&u, &z, sizeof u);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

void tb_radix_sort_u32(uint32_t* key, int32_t* value, uint32_t* key_tmp, int32_t* value_tmp, int32_t n) {
  uint32_t *src_k = key, *dst_k = key_tmp;
  int32_t *src_v = value, *dst_v = value_tmp;
  for (int shift = 0; shift < 32; shift += 8) {
    int32_t count[257] = {0};
    for (int32_t i = 0; i < n; ++i) ++count[((src_k[i] >> shift) & 0xFFu) + 1];
    int same = 0;
    for (int d = 0; d < 256; ++d) same |= count[d + 1] == n;
    if (same) continue; /* one digit value for all keys: the pass would copy */
    for (int d = 0; d < 256; ++d) count[d + 1] += count[d];
    for (int32_t i = 0; i < n; ++i) {
      int32_t at = count[(src_k[i] >> shift) & 0xFFu]++;
      dst_k[at] = src_k[i];
      dst_v[at] = src_v[i];
    }
    uint32_t* tk = src_k; src_k = dst_k; dst_k = tk;
    int32_t* tv = src_v; src_v = dst_v; dst_v = tv;
  }
  if (src_k != key) {
    memcpy(key, src_k, (size_t)n * sizeof(uint32_t));
    memcpy(value, src_v, (size_t)n * sizeof(int32_t));
  }
}

void tb_sort_slot_pairs(uint64_t* key, uint64_t* tmp, int32_t n, int32_t range, int32_t* count) {
  /* keys already ascending (a scene's links in slot order, step after step) stay as they are: one
   * pass instead of four and two clears of count */
  int32_t i0 = 1;
  while (i0 < n && key[i0 - 1] <= key[i0]) ++i0;
  if (i0 >= n) return;
  /* the low word first, then the high word; each pass stable */
  memset(count, 0, ((size_t)range + 1) * sizeof(int32_t));
  for (int32_t i = 0; i < n; ++i) ++count[(uint32_t)key[i] + 1];
  for (int32_t k = 0; k < range; ++k) count[k + 1] += count[k];
  for (int32_t i = 0; i < n; ++i) tmp[count[(uint32_t)key[i]]++] = key[i];
  memset(count, 0, ((size_t)range + 1) * sizeof(int32_t));
  for (int32_t i = 0; i < n; ++i) ++count[(tmp[i] >> 32) + 1];
  for (int32_t k = 0; k < range; ++k) count[k + 1] += count[k];
  for (int32_t i = 0; i < n; ++i) key[count[tmp[i] >> 32]++] = tmp[i];
}

int32_t tb_lower_bound_u64(const uint64_t* keys, int32_t n, uint64_t k) {
  /* halving a window [base, base + len) that holds the answer's index or its end, with a select
   * instead of a branch on each comparison (a chunk's first key lands anywhere in the previous
   * frame's keys, so the comparisons follow no pattern a predictor learns) */
  if (n <= 0) return 0;
  int32_t base = 0, len = n;
  while (len > 1) {
    int32_t half = len / 2;
    base = keys[base + half - 1] < k ? base + half : base;
    len -= half;
  }
  return base + (keys[base] < k);
}
