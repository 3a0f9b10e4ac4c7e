/* Public API of queries: the closest ray hit, all ray hits by distance, shape overlap
 * (the tests themselves: collision/query.c). */
#include "../collision/query.h"
#include "api.h"

typedef struct closest_ctx {
  tb_ray_hit best;
  int found;
} closest_ctx;

static void keep_closest(void* vctx, const tb_ray_hit* hit) {
  closest_ctx* c = (closest_ctx*)vctx;
  if (!c->found || hit->distance < c->best.distance) { c->best = *hit; c->found = 1; } /* slot order breaks ties */
}

int32_t tb_world_ray_cast(tb_world_id world, const float origin[3], const float direction[3], float max_distance,
                          const tb_query_filter* filter, tb_ray_hit* hit) {
  GET_WORLD_NEG_PEEK("rayCast");
  if (!hit) return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "rayCast: hit must not be NULL");
  closest_ctx c;
  c.found = 0;
  tb_status st = tb_query_ray(w, "rayCast", origin, direction, max_distance, filter, keep_closest, &c);
  if (st != TB_OK) return -st;
  if (c.found) *hit = c.best;
  return c.found;
}

typedef struct all_ctx {
  tb_ray_hit* hits;
  int32_t capacity, stored, found;
} all_ctx;

/* Keeps the nearest `capacity` hits sorted by distance; equal distances keep slot order. */
static void keep_sorted(void* vctx, const tb_ray_hit* hit) {
  all_ctx* c = (all_ctx*)vctx;
  ++c->found;
  int32_t at = c->stored;
  while (at > 0 && c->hits[at - 1].distance > hit->distance) --at;
  if (at >= c->capacity) return;
  int32_t last = c->stored < c->capacity ? c->stored : c->capacity - 1;
  for (int32_t i = last; i > at; --i) c->hits[i] = c->hits[i - 1];
  c->hits[at] = *hit;
  if (c->stored < c->capacity) ++c->stored;
}

int32_t tb_world_ray_cast_all(tb_world_id world, const float origin[3], const float direction[3], float max_distance,
                              const tb_query_filter* filter, tb_ray_hit* hits, int32_t capacity, int32_t* requested) {
  const char* fn = "rayCastAll";
  GET_WORLD_NEG_PEEK(fn);
  if (capacity < 0) return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: capacity must be >= 0 (got %d)", fn, capacity);
  if (capacity > TB_MAX_CAPACITY)
    return -tb_world_fail(w, TB_ERR_CAPACITY, "%s: capacity must be at most %d (got %d)", fn, TB_MAX_CAPACITY, capacity);
  if ((capacity > 0 && !hits) || !requested)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: hits and requested must not be NULL", fn);
  all_ctx c = {hits, capacity, 0, 0};
  tb_status st = tb_query_ray(w, fn, origin, direction, max_distance, filter, keep_sorted, &c);
  if (st != TB_OK) return -st;
  *requested = c.found;
  return c.stored;
}

int32_t tb_world_overlap(tb_world_id world, tb_shape_type type, const float params[4], const float position[3],
                         const float rotation[4], const tb_query_filter* filter, tb_shape_id* shape_ids, int32_t capacity,
                         int32_t* requested) {
  const char* fn = "overlap";
  GET_WORLD_NEG_PEEK(fn);
  if (!params || !position || !rotation || !requested || (capacity > 0 && !shape_ids))
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: params, position, rotation, shape_ids and requested must not be NULL", fn);
  if (capacity < 0) return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: capacity must be >= 0 (got %d)", fn, capacity);
  if (capacity > TB_MAX_CAPACITY)
    return -tb_world_fail(w, TB_ERR_CAPACITY, "%s: capacity must be at most %d (got %d)", fn, TB_MAX_CAPACITY, capacity);
  return tb_query_overlap(w, fn, (int32_t)type, params, position, rotation, filter, shape_ids, capacity, requested);
}
