#include "broad_phase.h"

#include <stdlib.h>

/* A pair is a candidate when the shapes are on different bodies and at least one body is
 * dynamic (static/kinematic pairs never need contacts), and they are not both planes. */
static int pair_allowed(const tb_world* w, int32_t a, int32_t b) {
  const tb_shapes* s = &w->shapes;
  int32_t ba = s->body[a], bb = s->body[b];
  if (ba == bb) return 0;
  const int32_t* type = w->bodies.f.body_type;
  if (type[ba] != TB_BODY_DYNAMIC && type[bb] != TB_BODY_DYNAMIC) return 0;
  if (s->type[a] == TB_SHAPE_PLANE && s->type[b] == TB_SHAPE_PLANE) return 0;
  return 1;
}

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

tb_status tb_broad_phase(tb_world* w) {
  tb_shapes* s = &w->shapes;
  /* Keep live shapes in the previous order, append new ones, then insertion-sort. */
  if (w->sap_capacity < s->count) {
    if (!tb_grow((void**)&w->sap_order, sizeof(int32_t), w->sap_capacity, s->capacity))
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

  int32_t stored = 0, found = 0;
  for (int32_t i = 0; i < n; ++i) {
    int32_t a = order[i];
    tb_vec3 al = s->aabb_lower[a], au = s->aabb_upper[a];
    for (int32_t j = i + 1; j < n; ++j) {
      int32_t b = order[j];
      tb_vec3 bl = s->aabb_lower[b], bu = s->aabb_upper[b];
      if (bl.x > au.x) break;
      if (bl.y > au.y || bu.y < al.y || bl.z > au.z || bu.z < al.z) continue;
      if (!pair_allowed(w, a, b)) continue;
      ++found;
      if (stored < w->pair_capacity) {
        /* shape0 = lower (type, slot), so each pair routine sees a fixed order */
        int swap = s->type[a] > s->type[b] || (s->type[a] == s->type[b] && a > b);
        w->pairs[stored].shape0 = swap ? b : a;
        w->pairs[stored].shape1 = swap ? a : b;
        w->pairs[stored].flags = TB_PAIR_DETECT | TB_PAIR_SOLVE | TB_PAIR_NOTIFY;
        ++stored;
      }
    }
  }
  /* Pairs found beyond the capacity are dropped from this frame, counted and flagged. */
  qsort(w->pairs, (size_t)stored, sizeof(tb_pair), compare_pairs);
  w->pair_count = stored;
  w->pairs_requested = found;
  w->pairs_overflowed = found > w->pair_capacity;
  return TB_OK;
}
