/* BVH build (median split) and AABB query. */
#include "bvh.h"

#include "../core/alloc.h"

typedef struct bvh_build {
  const tb_vec3 *lower, *upper;
  tb_bvh* bvh;
} bvh_build;

static float centroid(const bvh_build* b, int32_t item, int axis) {
  return 0.5f * (tb_comp(b->lower[item], axis) + tb_comp(b->upper[item], axis));
}

/* Partial sort of items[begin, end) so that the k-th (by centroid on axis, then index) is in
 * place with smaller ones before it (quickselect, deterministic pivot = middle element). */
static int item_less(const bvh_build* b, int32_t x, int32_t y, int axis) {
  float cx = centroid(b, x, axis), cy = centroid(b, y, axis);
  return cx < cy || (cx == cy && x < y);
}
static void select_kth(const bvh_build* b, int32_t* items, int32_t begin, int32_t end, int32_t k, int axis) {
  while (end - begin > 1) {
    int32_t pivot = items[begin + (end - begin) / 2];
    int32_t i = begin, j = end - 1;
    while (i <= j) {
      while (item_less(b, items[i], pivot, axis)) ++i;
      while (item_less(b, pivot, items[j], axis)) --j;
      if (i <= j) {
        int32_t t = items[i]; items[i] = items[j]; items[j] = t;
        ++i; --j;
      }
    }
    if (k <= j) end = j + 1;
    else if (k >= i) begin = i;
    else return;
  }
}

static int32_t build_node(bvh_build* b, int32_t begin, int32_t end) {
  tb_bvh* bvh = b->bvh;
  int32_t node = bvh->node_count++;
  int32_t* items = bvh->items;
  tb_vec3 lo = b->lower[items[begin]], hi = b->upper[items[begin]];
  tb_vec3 clo = tb_scale(tb_add(lo, hi), 0.5f), chi = clo;
  for (int32_t i = begin + 1; i < end; ++i) {
    lo = tb_vmin(lo, b->lower[items[i]]);
    hi = tb_vmax(hi, b->upper[items[i]]);
    tb_vec3 c = tb_scale(tb_add(b->lower[items[i]], b->upper[items[i]]), 0.5f);
    clo = tb_vmin(clo, c);
    chi = tb_vmax(chi, c);
  }
  bvh->nodes[node].lower = lo;
  bvh->nodes[node].upper = hi;
  if (end - begin <= TB_BVH_LEAF_SIZE) {
    bvh->nodes[node].first = begin;
    bvh->nodes[node].count = end - begin;
    return node;
  }
  tb_vec3 ext = tb_sub(chi, clo);
  int axis = ext.x >= ext.y && ext.x >= ext.z ? 0 : (ext.y >= ext.z ? 1 : 2);
  int32_t mid = begin + (end - begin) / 2;
  select_kth(b, items, begin, end, mid, axis);
  bvh->nodes[node].count = 0;
  build_node(b, begin, mid);
  bvh->nodes[node].first = build_node(b, mid, end);
  return node;
}

int tb_bvh_build(tb_bvh* bvh, const tb_vec3* lower, const tb_vec3* upper, int32_t count) {
  bvh->node_count = 0;
  bvh->item_count = count;
  /* a binary tree with leaves of >= 1 item has < 2 * count nodes */
  bvh->nodes = (tb_bvh_node*)tb_alloc(sizeof(tb_bvh_node) * (size_t)(2 * count));
  bvh->items = (int32_t*)tb_alloc(sizeof(int32_t) * (size_t)count);
  bvh->item_lower = (tb_vec3*)tb_alloc(sizeof(tb_vec3) * (size_t)count);
  bvh->item_upper = (tb_vec3*)tb_alloc(sizeof(tb_vec3) * (size_t)count);
  if (!bvh->nodes || !bvh->items || !bvh->item_lower || !bvh->item_upper) {
    tb_bvh_free(bvh);
    return 0;
  }
  for (int32_t i = 0; i < count; ++i) bvh->items[i] = i;
  bvh_build b = {lower, upper, bvh};
  build_node(&b, 0, count);
  for (int32_t i = 0; i < count; ++i) {
    bvh->item_lower[i] = lower[bvh->items[i]];
    bvh->item_upper[i] = upper[bvh->items[i]];
  }
  return 1;
}

void tb_bvh_free(tb_bvh* bvh) {
  if (bvh->nodes) tb_free(bvh->nodes, sizeof(tb_bvh_node) * (size_t)(2 * bvh->item_count));
  if (bvh->items) tb_free(bvh->items, sizeof(int32_t) * (size_t)bvh->item_count);
  if (bvh->item_lower) tb_free(bvh->item_lower, sizeof(tb_vec3) * (size_t)bvh->item_count);
  if (bvh->item_upper) tb_free(bvh->item_upper, sizeof(tb_vec3) * (size_t)bvh->item_count);
  bvh->nodes = NULL;
  bvh->items = NULL;
  bvh->item_lower = bvh->item_upper = NULL;
  bvh->node_count = 0;
}

static int overlaps(tb_vec3 alo, tb_vec3 ahi, tb_vec3 blo, tb_vec3 bhi) {
  return alo.x <= bhi.x && blo.x <= ahi.x && alo.y <= bhi.y && blo.y <= ahi.y && alo.z <= bhi.z && blo.z <= ahi.z;
}

int32_t tb_bvh_query(const tb_bvh* bvh, tb_vec3 lo, tb_vec3 hi, tb_bvh_visit_fn visit, void* ctx) {
  if (bvh->node_count == 0) return 0;
  int32_t stack[TB_BVH_STACK];
  int32_t top = 0, visited = 0;
  stack[top++] = 0;
  while (top > 0) {
    const tb_bvh_node* n = &bvh->nodes[stack[--top]];
    if (!overlaps(n->lower, n->upper, lo, hi)) continue;
    if (n->count > 0) {
      for (int32_t i = n->first; i < n->first + n->count; ++i) {
        if (!overlaps(bvh->item_lower[i], bvh->item_upper[i], lo, hi)) continue;
        ++visited;
        if (!visit(bvh->items[i], ctx)) return visited;
      }
      continue;
    }
    int32_t self = (int32_t)(n - bvh->nodes);
    stack[top++] = n->first;  /* right, popped second */
    stack[top++] = self + 1;  /* left */
  }
  return visited;
}
