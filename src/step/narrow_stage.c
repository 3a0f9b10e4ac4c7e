/* Narrow phase stage: per candidate pair, in one parallel pass, the narrow phase, the reduction to
 * the configured points per pair, the distance rule, the combined material and, for the leading
 * pairs whose chunks ran in order, the contact matching. One pass keeps each pair's data in cache;
 * the jobs are the collision and model layers' functions. */
#include <math.h>
#include <stdatomic.h>
#include <string.h>

#include "../collision/apart.h"
#include "../collision/contact_reduction.h"
#include "../collision/narrow_phase.h"
#include "../core/jobs.h"
#include "../core/sort.h"
#include "../model/contact_match.h"
#include "../model/distance.h"
#include "../model/material.h"
#include "../model/persistent_manifold.h"
#include "step.h"

#define TB_NARROW_CHUNK TB_CHUNK(64)

typedef struct narrow_ctx {
  tb_world* w;
  float h; /* s: one step, ctx->dt */
  /* persistent manifolds and pairs left apart, added per chunk: sums, so the same with any thread
   * count */
  atomic_int refreshed, generated, apart;
  /* the leading run of pairs matched in this pass: (its end << 32) | their points. A chunk that
   * begins where the run ends continues it (every chunk, run on one thread; with more, the chunks
   * a thread takes while the ones before are done); the matching stage takes the pairs after it.
   * Who matches a pair changes none of its bits (tb_match_leading). On a line of its own: the
   * counters above go from thread to thread with every chunk. */
  _Alignas(64) _Atomic int64_t matched;
  atomic_int run_over; /* a chunk found the run ended before it: the chunks after need not look */
} narrow_ctx;

static int64_t matched_run(int32_t end, int32_t points) { return (int64_t)end << 32 | (uint32_t)points; }

/* Per pair: the narrow-phase manifold searched up to the distance rule's detection distance
 * (PhysX: plus the speculative distance and the relative motion of one step, so fast bodies are
 * caught before they tunnel), or, with persistent manifolds, the previous frame's points refreshed
 * while the pair's relative pose stays within the thresholds, or none for a pair that was apart and
 * whose shapes have not moved enough since to come within that distance (src/collision/apart.h:
 * the test would find none either); then the rule's keep / active / excluded classification. A
 * pair's choice reads only its own previous entry. */
static void narrow_job(int32_t begin, int32_t end, void* vctx) {
  narrow_ctx* ctx = (narrow_ctx*)vctx;
  tb_world* w = ctx->w;
  const tb_shapes* s = &w->shapes;
  tb_match_frame* frame = tb_match_next(&w->match);
  const tb_match_frame* prev = &w->match.frame[w->match.current];
  const int pcm = w->def.collision.persistent_manifolds;
  /* the previous frame's entry of the chunk's first pair, then a merge walk as keys ascend */
  int32_t pk = tb_lower_bound_u64(prev->key, prev->pair_count, tb_pair_match_key(s, w->pairs[begin].shape0, w->pairs[begin].shape1));
  int32_t refreshed = 0, generated = 0, apart = 0;
  int64_t run = atomic_load_explicit(&ctx->run_over, memory_order_relaxed) ? -1
                : atomic_load_explicit(&ctx->matched, memory_order_acquire);
  const int head = run >= 0 && (int32_t)(run >> 32) == begin; /* this chunk continues the matched run */
  if (!head && run >= 0) atomic_store_explicit(&ctx->run_over, 1, memory_order_relaxed);
  int32_t points = (int32_t)(uint32_t)run;
  for (int32_t i = begin; i < end; ++i) {
    int32_t a = w->pairs[i].shape0, c = w->pairs[i].shape1;
    const tb_shape_view *xa = &w->shape_views[a], *xc = &w->shape_views[c]; /* written with the bounds */
    tb_shape_geom ga, gc;
    tb_shape_view_geom(xa, &ga);
    tb_shape_view_geom(xc, &gc);
    tb_vec3 dv = tb_v3(xc->velocity.x - xa->velocity.x, xc->velocity.y - xa->velocity.y, xc->velocity.z - xa->velocity.z);
    tb_distance_pair dp = tb_distance_pair_from(w, a, c, xa->distance, xc->distance, tb_length(dv) * ctx->h);
    tb_pcm_side sa = {&ga, xa->pose, xa->frame}, sc = {&gc, xc->pose, xc->frame};
    tb_manifold* m = &w->manifolds[i];
    tb_pcm_cache* cache = &frame->pcm[i];
    int persistent = pcm && tb_pcm_pair_type(ga.type, gc.type);
    int32_t pi = -1;
    uint64_t key = tb_pair_match_key_of(a, xa->generation, c, xc->generation);
    while (pk < prev->pair_count && prev->key[pk] < key) ++pk;
    if (pk < prev->pair_count && prev->key[pk] == key) pi = pk;
    frame->key[i] = key;
    w->match.prev_pair[i] = pi; /* the matching's too */
    const tb_pcm_cache* was = pi >= 0 ? &prev->pcm[pi] : NULL;
    if (was && was->state == TB_PCM_APART &&
        tb_apart_holds(was->apart.distance, &ga, &was->apart.pose0, &xa->pose, &gc, &was->apart.pose1, &xc->pose, dp.detect)) {
      /* still apart: the manifold tb_collide gives a pair without points */
      m->normal = tb_v3(0.0f, 0.0f, 1.0f);
      m->point_count = m->points_found = 0;
      frame->reduced[i] = 0;
      tb_pcm_cache_copy(cache, was); /* measured from the poses of the last test */
      ++apart;
    } else if (persistent && pi >= 0 && tb_pcm_refresh(w, &sa, &sc, prev, pi, dp.detect, m, cache)) {
      frame->reduced[i] = prev->reduced[pi];
      ++refreshed;
    } else {
      tb_collide(&ga, xa->pose, &gc, xc->pose, dp.detect, m);
      /* the configured bound on points per pair (points_found keeps the count before) */
      tb_manifold_reduce(m, w->def.collision.max_points_per_pair);
      frame->reduced[i] = m->points_found > m->point_count;
      if (persistent) {
        tb_pcm_generated(&sa, &sc, m, cache);
        ++generated;
      } else tb_pcm_cache_clear(cache); /* TB_PCM_NONE */
      /* apart beyond the detection distance by a known margin: the next collides may leave it */
      float gap = m->point_count == 0 ? tb_apart_distance(&ga, xa->pose, &gc, xc->pose) : -INFINITY;
      if (gap > dp.detect) {
        cache->apart.pose0 = xa->pose;
        cache->apart.pose1 = xc->pose;
        cache->apart.distance = gap;
        cache->state = TB_PCM_APART;
      }
    }
    frame->dist[i] = dp;
    tb_distance_apply(&dp, (w->pairs[i].flags & TB_PAIR_SOLVE) != 0, m);
    tb_pair_count_points(&w->pairs[i], m);
    /* read only with points (the store fill and the solvers): most candidate pairs have none */
    if (w->material_memo.count == 0 && m->point_count > 0) tb_combine_materials(w, a, c, &w->manifold_material[i]);
  }
  if (head) {
    /* the matching stage takes what does not fit the frame's points (after it grew them) */
    int32_t matched = tb_match_leading(w, begin, end, &points);
    atomic_store_explicit(&ctx->matched, matched_run(matched, points), memory_order_release);
  }
  atomic_fetch_add_explicit(&ctx->refreshed, refreshed, memory_order_relaxed);
  atomic_fetch_add_explicit(&ctx->generated, generated, memory_order_relaxed);
  atomic_fetch_add_explicit(&ctx->apart, apart, memory_order_relaxed);
}

void tb_narrow_stage(tb_world* w, const tb_step_context* step) {
  narrow_ctx ctx = {.w = w, .h = step->dt};
  atomic_init(&ctx.refreshed, 0);
  atomic_init(&ctx.generated, 0);
  atomic_init(&ctx.apart, 0);
  atomic_init(&ctx.matched, matched_run(0, 0));
  atomic_init(&ctx.run_over, 0);
  tb_parallel_for(w->pair_count, TB_NARROW_CHUNK, step->thread_count, narrow_job, &ctx);
  /* the last pass's (a wake runs the stage again over every pair) */
  w->stats.refreshed_pairs = atomic_load(&ctx.refreshed);
  w->stats.regenerated_pairs = atomic_load(&ctx.generated);
  w->stats.apart_pairs = atomic_load(&ctx.apart);
  w->match.matched = (int32_t)(atomic_load(&ctx.matched) >> 32);
}
