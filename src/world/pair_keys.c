/* Slot-pair lists of the world: sorted sets kept by insertion, binary-searched by the filters. */
#include "pair_keys.h"

#include <stdlib.h>
#include <string.h>

#include "world.h"

int32_t tb_pair_keys_find(const tb_pair_keys* list, uint64_t key) {
  int32_t lo = 0, hi = list->count - 1;
  while (lo <= hi) {
    int32_t mid = lo + (hi - lo) / 2;
    if (list->key[mid] == key) return mid;
    if (list->key[mid] < key) lo = mid + 1; else hi = mid - 1;
  }
  return -1;
}

void tb_pair_keys_free(tb_pair_keys* l) {
  tb_free(l->key, (size_t)l->capacity * sizeof(uint64_t));
  tb_free(l->params, (size_t)l->capacity * sizeof(tb_contact_pair_params));
  memset(l, 0, sizeof *l);
}

int tb_pair_keys_reserve(tb_pair_keys* l, int32_t count, int with_params) {
  if (count <= l->capacity) return 1;
  with_params = with_params || l->params != NULL;
  if (count > TB_MAX_CAPACITY) return 0;
  int32_t cap = l->capacity ? l->capacity : 8;
  while (cap < count) cap *= 2; /* <= 2 * TB_MAX_CAPACITY: no int32 overflow */
  uint64_t* k = (uint64_t*)tb_alloc_array((size_t)cap, sizeof(uint64_t));
  tb_contact_pair_params* p = with_params ? (tb_contact_pair_params*)tb_alloc_array((size_t)cap, sizeof *p) : NULL;
  if (!k || (with_params && !p)) {
    tb_free(k, (size_t)cap * sizeof(uint64_t));
    tb_free(p, (size_t)cap * sizeof *p);
    return 0;
  }
  if (l->count) memcpy(k, l->key, (size_t)l->count * sizeof(uint64_t));
  if (with_params && l->count) memcpy(p, l->params, (size_t)l->count * sizeof *p);
  tb_free(l->key, (size_t)l->capacity * sizeof(uint64_t));
  tb_free(l->params, (size_t)l->capacity * sizeof *p);
  l->key = k;
  l->params = p;
  l->capacity = cap;
  return 1;
}

static void keys_remove_at(tb_pair_keys* l, int32_t i) {
  size_t n = (size_t)(l->count - i - 1);
  memmove(l->key + i, l->key + i + 1, n * sizeof(uint64_t));
  if (l->params) memmove(l->params + i, l->params + i + 1, n * sizeof(tb_contact_pair_params));
  --l->count;
}

tb_status tb_pair_keys_set(tb_world* w, tb_pair_keys* l, uint64_t key, int on, const tb_contact_pair_params* params,
                           const char* fn) {
  int32_t at = tb_pair_keys_find(l, key);
  if (!on) {
    if (at >= 0) keys_remove_at(l, at);
    return TB_OK;
  }
  if (at < 0) {
    if (!tb_pair_keys_reserve(l, l->count + 1, params != NULL))
      return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "%s: out of memory for %d pairs", fn, l->count + 1);
    at = 0;
    while (at < l->count && l->key[at] < key) ++at;
    size_t n = (size_t)(l->count - at);
    memmove(l->key + at + 1, l->key + at, n * sizeof(uint64_t));
    if (l->params) memmove(l->params + at + 1, l->params + at, n * sizeof(tb_contact_pair_params));
    l->key[at] = key;
    ++l->count;
  }
  if (params) l->params[at] = *params;
  return TB_OK;
}

static int compare_keys(const void* pa, const void* pb) {
  uint64_t a = *(const uint64_t*)pa, b = *(const uint64_t*)pb;
  return (a > b) - (a < b);
}

void tb_pair_keys_sort_unique(tb_pair_keys* l) {
  if (l->count > 1) qsort(l->key, (size_t)l->count, sizeof(uint64_t), compare_keys); /* key is NULL while empty */
  int32_t n = 0; /* duplicates collapse */
  for (int32_t i = 0; i < l->count; ++i)
    if (n == 0 || l->key[n - 1] != l->key[i]) l->key[n++] = l->key[i];
  l->count = n;
}

static void keys_forget_slot(tb_pair_keys* l, int32_t slot) {
  for (int32_t i = l->count - 1; i >= 0; --i)
    if ((int32_t)(l->key[i] >> 32) == slot || (int32_t)(l->key[i] & 0xFFFFFFFFu) == slot) keys_remove_at(l, i);
}

void tb_pair_lists_forget_shape(tb_world* w, int32_t shape_slot) {
  keys_forget_slot(&w->explicit_pairs, shape_slot);
  keys_forget_slot(&w->shape_exclusions, shape_slot);
  keys_forget_slot(&w->contact_pairs, shape_slot);
}

void tb_pair_lists_forget_body(tb_world* w, int32_t body_slot) {
  keys_forget_slot(&w->body_exclusions, body_slot);
  for (int32_t i = 0; i < w->bodies.count; ++i)
    if (w->bodies.parent[i] == body_slot) w->bodies.parent[i] = -1;
}

void tb_pair_lists_free(tb_world* w) {
  tb_pair_keys_free(&w->explicit_pairs);
  tb_pair_keys_free(&w->shape_exclusions);
  tb_pair_keys_free(&w->body_exclusions);
  tb_pair_keys_free(&w->contact_pairs);
  tb_pair_keys_free(&w->joint_pairs);
}

const tb_contact_pair_params* tb_filter_contact_pair(const tb_world* w, int32_t a, int32_t b) {
  int32_t i = tb_pair_keys_find(&w->contact_pairs, tb_slot_pair_key(a, b));
  return i >= 0 ? &w->contact_pairs.params[i] : NULL;
}

