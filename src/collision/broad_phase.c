/* Candidate pair generators (sweep and prune, all pairs, explicit list) and the filter rule
 * applied to every candidate. All generators store the same pairs in the same order. */
#include "broad_phase.h"

#include <stdlib.h>

#include "filter.h"

static int compare_pairs(const void* pa, const void* pb) {
  const tb_pair* a = (const tb_pair*)pa;
  const tb_pair* b = (const tb_pair*)pb;
  if (a->shape0 != b->shape0) return a->shape0 < b->shape0 ? -1 : 1;
  return (a->shape1 > b->shape1) - (a->shape1 < b->shape1);
}

/* Sweep order key: lower x, ties broken by slot so the order is a total one. */
static int before(const tb_shapes* s, int32_t a, int32_t b) {
  float xa = s->aabb_lower[a].x, xb = s->aabb_lower[b].x;
  return xa < xb || (xa == xb && a < b);
}

static int aabbs_overlap(const tb_shapes* s, int32_t a, int32_t b) {
  tb_vec3 al = s->aabb_lower[a], au = s->aabb_upper[a], bl = s->aabb_lower[b], bu = s->aabb_upper[b];
  return !(bl.x > au.x || bu.x < al.x || bl.y > au.y || bu.y < al.y || bl.z > au.z || bu.z < al.z);
}

typedef struct pair_sink {
  int32_t stored, found;
} pair_sink;

/* One candidate with overlapping AABBs: the filter decides, then it is stored (up to capacity). */
static void consider(tb_world* w, pair_sink* out, int32_t a, int32_t b) {
  int32_t flags = tb_filter_pair(w, a, b);
  if (!flags) return;
  ++out->found;
  if (out->stored >= w->pair_capacity) return;
  const tb_shapes* s = &w->shapes;
  /* shape0 = lower (type, slot), so each pair routine sees a fixed order */
  int swap = s->type[a] > s->type[b] || (s->type[a] == s->type[b] && a > b);
  tb_pair* p = &w->pairs[out->stored++];
  p->shape0 = swap ? b : a;
  p->shape1 = swap ? a : b;
  p->flags = flags;
}

/* Keeps live shapes in the previous order, appends new ones, then insertion-sorts (nearly sorted
 * between steps) and sweeps along x. */
static tb_status sweep_and_prune(tb_world* w, pair_sink* out) {
  tb_shapes* s = &w->shapes;
  if (w->sap_capacity < s->count) {
    const tb_array_ref arrays[] = {{(void**)&w->sap_order, sizeof(int32_t)}, {(void**)&w->sap_entries, sizeof(tb_sap_entry)}};
    if (!tb_grow_arrays(arrays, 2, w->sap_capacity, s->capacity))
      return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "collide: out of memory for the sweep order");
    w->sap_capacity = s->capacity;
  }
  uint8_t* present = (uint8_t*)tb_arena_push(&w->arena, (size_t)s->count);
  if (!present) return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "collide: scratch arena too small");
  for (int32_t i = 0; i < s->count; ++i) present[i] = 0;
  int32_t n = 0;
  for (int32_t i = 0; i < w->sap_count; ++i) {
    int32_t id = w->sap_order[i];
    if (id < s->count && s->type[id] >= 0 && !present[id]) {
      present[id] = 1;
      w->sap_order[n++] = id;
    }
  }
  for (int32_t id = 0; id < s->count; ++id)
    if (s->type[id] >= 0 && !present[id]) w->sap_order[n++] = id;
  w->sap_count = n;
  int32_t* order = w->sap_order;
  for (int32_t i = 1; i < n; ++i) {
    int32_t v = order[i];
    int32_t j = i - 1;
    while (j >= 0 && before(s, v, order[j])) {
      order[j + 1] = order[j];
      --j;
    }
    order[j + 1] = v;
  }
  tb_sap_entry* e = w->sap_entries;
  for (int32_t i = 0; i < n; ++i) {
    e[i].lower = s->aabb_lower[order[i]];
    e[i].upper = s->aabb_upper[order[i]];
    e[i].slot = order[i];
  }
  for (int32_t i = 0; i < n; ++i) {
    tb_vec3 al = e[i].lower, au = e[i].upper;
    for (int32_t j = i + 1; j < n && e[j].lower.x <= au.x; ++j) {
      tb_vec3 bl = e[j].lower, bu = e[j].upper;
      if (bl.y > au.y || bu.y < al.y || bl.z > au.z || bu.z < al.z) continue;
      consider(w, out, e[i].slot, e[j].slot);
    }
  }
  return TB_OK;
}

void tb_broad_phase_destroy(tb_world* w) {
  const tb_array_ref arrays[] = {{(void**)&w->sap_order, sizeof(int32_t)}, {(void**)&w->sap_entries, sizeof(tb_sap_entry)}};
  tb_free_arrays(arrays, 2, w->sap_capacity);
  w->sap_capacity = w->sap_count = 0;
}

static void all_pairs(tb_world* w, pair_sink* out) {
  const tb_shapes* s = &w->shapes;
  for (int32_t a = 0; a < s->count; ++a) {
    if (s->type[a] < 0) continue;
    for (int32_t b = a + 1; b < s->count; ++b)
      if (s->type[b] >= 0 && aabbs_overlap(s, a, b)) consider(w, out, a, b);
  }
}

/* The list holds live slots only (removed shapes leave it). */
static void explicit_pairs(tb_world* w, pair_sink* out) {
  const tb_pair_keys* l = &w->explicit_pairs;
  for (int32_t i = 0; i < l->count; ++i) {
    int32_t a = (int32_t)(l->key[i] >> 32), b = (int32_t)(l->key[i] & 0xFFFFFFFFu);
    if (aabbs_overlap(&w->shapes, a, b)) consider(w, out, a, b);
  }
}

tb_status tb_broad_phase(tb_world* w) {
  pair_sink out = {0, 0};
  switch (w->def.collision.broad_phase) {
    case TB_BROAD_PHASE_ALL_PAIRS: all_pairs(w, &out); break;
    case TB_BROAD_PHASE_EXPLICIT: explicit_pairs(w, &out); break;
    default: {
      tb_status st = sweep_and_prune(w, &out);
      if (st != TB_OK) return st;
    }
  }
  int32_t limit = w->def.collision.max_collision_pairs;
  if (limit > 0 && out.found > limit) {
    /* Genesis: an overflow of max_collision_pairs stops the step; nothing is truncated */
    w->pair_count = 0;
    w->collided = 0;
    w->pairs_requested = out.found;
    w->pairs_overflowed = 0;
    return tb_world_fail(w, TB_ERR_CAPACITY,
                         "collide: %d candidate pairs exceed max_collision_pairs %d (raise it; the step did not run)",
                         out.found, limit);
  }
  /* Pairs found beyond the capacity are dropped from this frame, counted and flagged. */
  if (out.stored > 1) qsort(w->pairs, (size_t)out.stored, sizeof(tb_pair), compare_pairs);
  w->pair_count = out.stored;
  w->pairs_requested = out.found;
  w->pairs_overflowed = out.found > w->pair_capacity;
  return TB_OK;
}
