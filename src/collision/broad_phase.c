/* Candidate pair generators (sweep and prune, all pairs, explicit list) and the filter rule
 * applied to every candidate. All generators store the same pairs in the same order. */
#include "broad_phase.h"

#include <math.h>
#include <string.h>

#include "../core/sort.h"
#include "../core/jobs.h"
#include "../core/simd.h"
#include "filter.h"

/* Candidates of one entry tested before the filter sees those that meet (sweep_job). */
#define TB_SWEEP_BATCH 32

/* Most z bands of the sweep (see split_bands). */
#define TB_MAX_SWEEP_BANDS 64

/* Scratch of the two linear sorts, sized by the shape and pair capacities (so it grows when they
 * do, never in a steady state, and never inside a loop). */
typedef struct tb_broad_scratch {
  int32_t count_capacity; /* entries of count: slot range + 1 */
  int32_t* count;
  int32_t shape_capacity; /* entries of key, key_tmp, value_tmp */
  uint32_t* key;
  uint32_t* key_tmp;
  int32_t* value_tmp;
  int32_t pair_capacity; /* entries of pair_tmp */
  tb_pair* pair_tmp;
  /* parallel sweep: chunk c of the sweep order writes its pairs to region[c * region_chunk ...] */
  int32_t chunk_capacity; /* entries of chunk_found */
  int32_t* chunk_found;
  int32_t region_chunk, region_capacity;
  int32_t region_runs; /* chunks of the last sweep */
  tb_pair* region;
  /* z bands: the sweep order split into bands along z, each entry in every band it overlaps */
  int32_t band_entry_capacity; /* entries of band_entries, band_of_entry and band_lowest */
  tb_sap_entry* band_entries;
  int32_t* band_of_entry;
  uint8_t* band_lowest; /* 1: the copy's band is its entry's lowest (the band of its lower z) */
  int32_t band_start[TB_MAX_SWEEP_BANDS + 1];
} tb_broad_scratch;

static tb_broad_scratch* scratch_of(tb_world* w, int32_t shapes, int32_t pairs, int sweep_keys) {
  tb_broad_scratch* b = w->broad_scratch;
  if (!b) {
    b = (tb_broad_scratch*)tb_alloc_zero(sizeof *b);
    if (!b) return NULL;
    w->broad_scratch = b;
  }
  if (b->count_capacity < shapes + 1) {
    int32_t cap = shapes + 1;
    if (!tb_grow((void**)&b->count, sizeof(int32_t), b->count_capacity, cap)) return NULL;
    b->count_capacity = cap;
  }
  if (sweep_keys && b->shape_capacity < shapes) {
    int32_t cap = shapes;
    const tb_array_ref per_shape[] = {{(void**)&b->key, sizeof(uint32_t)}, {(void**)&b->key_tmp, sizeof(uint32_t)},
                                      {(void**)&b->value_tmp, sizeof(int32_t)}};
    if (!tb_grow_arrays(per_shape, 3, b->shape_capacity, cap)) return NULL;
    b->shape_capacity = cap;
  }
  if (b->pair_capacity < pairs) {
    int32_t cap = pairs;
    if (!tb_grow((void**)&b->pair_tmp, sizeof(tb_pair), b->pair_capacity, cap)) return NULL;
    b->pair_capacity = cap;
  }
  return b;
}

static void free_scratch(tb_world* w) {
  tb_broad_scratch* b = w->broad_scratch;
  if (!b) return;
  const tb_array_ref per_shape[] = {{(void**)&b->key, sizeof(uint32_t)}, {(void**)&b->key_tmp, sizeof(uint32_t)},
                                    {(void**)&b->value_tmp, sizeof(int32_t)}};
  tb_free_arrays(per_shape, 3, b->shape_capacity);
  tb_free(b->count, (size_t)b->count_capacity * sizeof(int32_t));
  tb_free(b->pair_tmp, (size_t)b->pair_capacity * sizeof(tb_pair));
  tb_free(b->chunk_found, (size_t)b->chunk_capacity * sizeof(int32_t));
  tb_free(b->region, (size_t)b->region_capacity * sizeof(tb_pair));
  const tb_array_ref per_band_entry[] = {{(void**)&b->band_entries, sizeof(tb_sap_entry)},
                                         {(void**)&b->band_of_entry, sizeof(int32_t)},
                                         {(void**)&b->band_lowest, sizeof(uint8_t)}};
  tb_free_arrays(per_band_entry, 3, b->band_entry_capacity);
  tb_free(b, sizeof *b);
  w->broad_scratch = NULL;
}

/* Pairs in runs (the sweep's chunk regions, or one run): run r holds found[r] pairs from
 * base + r * stride. */
typedef struct pair_runs {
  const tb_pair* base;
  int32_t stride, count;
  const int32_t* found;
} pair_runs;

/* The runs' pairs grouped by shape0 into p (a counting pass over shape0 slots [0, range) and a
 * scatter, in run order); afterwards b->count[s] is the end of shape s's group, so group s is
 * [s > 0 ? count[s - 1] : 0, count[s]). */
static void group_by_shape0(const pair_runs* runs, tb_pair* p, int32_t range, tb_broad_scratch* b) {
  int32_t* count = b->count;
  memset(count, 0, ((size_t)range + 1) * sizeof(int32_t));
  for (int32_t r = 0; r < runs->count; ++r) {
    const tb_pair* src = runs->base + (size_t)r * (size_t)runs->stride;
    for (int32_t k = 0; k < runs->found[r]; ++k) ++count[src[k].shape0 + 1];
  }
  for (int32_t s = 0; s < range; ++s) count[s + 1] += count[s];
  for (int32_t r = 0; r < runs->count; ++r) {
    const tb_pair* src = runs->base + (size_t)r * (size_t)runs->stride;
    for (int32_t k = 0; k < runs->found[r]; ++k) p[count[src[k].shape0]++] = src[k];
  }
}

/* One group [lo, hi) by shape1 (unique within a group, so any correct sort gives this order):
 * insertion for the few pairs of a moving shape, a merge sort through tmp[lo, hi) for a ground's
 * many. */
static void sort_group(tb_pair* p, tb_pair* tmp, int32_t lo, int32_t hi) {
  if (hi - lo <= 16) {
    for (int32_t i = lo + 1; i < hi; ++i) {
      tb_pair v = p[i];
      int32_t j = i - 1;
      while (j >= lo && p[j].shape1 > v.shape1) {
        p[j + 1] = p[j];
        --j;
      }
      p[j + 1] = v;
    }
    return;
  }
  int32_t mid = lo + (hi - lo) / 2;
  sort_group(p, tmp, lo, mid);
  sort_group(p, tmp, mid, hi);
  if (p[mid - 1].shape1 < p[mid].shape1) return; /* already in order */
  int32_t i = lo, j = mid, k = lo;
  while (i < mid && j < hi) tmp[k++] = p[i].shape1 < p[j].shape1 ? p[i++] : p[j++];
  while (i < mid) tmp[k++] = p[i++];
  while (j < hi) tmp[k++] = p[j++];
  memcpy(p + lo, tmp + lo, (size_t)(hi - lo) * sizeof(tb_pair));
}

typedef struct group_ctx {
  tb_pair* pairs;
  tb_broad_scratch* b;
} group_ctx;

#define TB_GROUP_CHUNK 128 /* shapes per chunk: a small scene sorts its few groups without a barrier */

/* Job over shape0 slots [begin, end): their groups by shape1. */
static void sort_groups_job(int32_t begin, int32_t end, void* vctx) {
  const group_ctx* ctx = (const group_ctx*)vctx;
  const int32_t* count = ctx->b->count;
  for (int32_t s = begin; s < end; ++s) {
    int32_t lo = s > 0 ? count[s - 1] : 0, hi = count[s];
    if (hi - lo > 1) sort_group(ctx->pairs, ctx->b->pair_tmp, lo, hi);
  }
}

/* The pairs of the runs into p ordered by (shape0, shape1): grouped by shape0 serially (a pass
 * over the pairs), then each group sorted in parallel over shape slots; the order is the one the
 * pairs have, whatever the thread count. */
static void order_pairs(const tb_step_context* step, const pair_runs* runs, tb_pair* p, int32_t range, tb_broad_scratch* b) {
  group_by_shape0(runs, p, range, b);
  group_ctx ctx = {p, b};
  tb_parallel_for(range, TB_GROUP_CHUNK, step->thread_count, sort_groups_job, &ctx);
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
  tb_pair* pairs;
  int32_t capacity, stored, found;
  int in_regions; /* the sweep left its pairs in its chunk regions (found of them), not in pairs */
} pair_sink;

/* One candidate with overlapping AABBs: the filter decides, then it is stored while there is room
 * (tb_broad_phase grows the arrays and generates again when there was not). */
static void consider(const tb_world* w, pair_sink* out, int32_t a, int32_t b) {
  int32_t flags = tb_filter_pair(w, a, b);
  if (!flags) return;
  ++out->found;
  if (out->stored >= out->capacity) return;
  const tb_shapes* s = &w->shapes;
  /* shape0 = lower (type, slot), so each pair routine sees a fixed order; | and & rather than
   * || and &&: no branch on an outcome that goes either way */
  int32_t ta = s->type[a], tb = s->type[b];
  int swap = (ta > tb) | ((ta == tb) & (a > b));
  tb_pair* p = &out->pairs[out->stored++];
  p->shape0 = swap ? b : a;
  p->shape1 = swap ? a : b;
  p->flags = flags;
  p->points = p->active = 0; /* the narrow stage counts them */
}

/* Insertion sort by before(), the cheapest for the nearly sorted order of the last step; gives up
 * (returns 0, order permuted) after `budget` moves. */
static int insertion_sort_bounded(const tb_shapes* s, int32_t* order, int32_t n, int64_t budget) {
  for (int32_t i = 1; i < n; ++i) {
    int32_t v = order[i];
    int32_t j = i - 1;
    while (j >= 0 && before(s, v, order[j])) {
      order[j + 1] = order[j];
      --j;
    }
    order[j + 1] = v;
    budget -= i - 1 - j;
    if (budget < 0) return 0;
  }
  return 1;
}

/* The same order by a radix sort of lower x over the live slots in slot order (stable, so ties
 * stay by slot), for a first step or a shuffled scene: linear where insertion would be n². */
static void radix_sweep_order(const tb_shapes* s, int32_t* order, int32_t n, tb_broad_scratch* b) {
  int32_t k = 0;
  for (int32_t id = 0; id < s->count; ++id)
    if (s->type[id] >= 0) {
      b->key[k] = tb_sort_key_f32(s->aabb_lower[id].x);
      order[k++] = id;
    }
  tb_radix_sort_u32(b->key, order, b->key_tmp, b->value_tmp, n);
}

#define TB_SWEEP_CHUNK 128

/* z bands of the sweep: a sweep along x alone visits every AABB of an x slab, about n·(n/side)
 * entries in a scene spread over a floor; split along z too, each AABB goes to every band it
 * overlaps and a pair is reported by the one band holding the larger of the two lower z (both
 * AABBs overlap that z), so the bands find each overlapping pair exactly once. */
typedef struct sweep_bands {
  int32_t count; /* 1: one band, the sweep order itself */
  float z0, inv_width; /* band k holds z in [z0 + k/inv_width, z0 + (k+1)/inv_width) */
} sweep_bands;

static int32_t band_of(const sweep_bands* g, float z) {
  float t = (z - g->z0) * g->inv_width;
  if (!(t > 0.0f)) return 0; /* below the first band (or -inf) */
  if (t >= (float)(g->count - 1)) return g->count - 1;
  return (int32_t)t;
}

/* Band width: 2 × the mean z extent e of the AABBs no longer than an eighth of the scene's z range
 * (walls, grounds and planes span many bands and would only widen them). A band of width w holds
 * about n(w + e)/range entries, each copied (1 + e/w) times, so the sweep's tests go as
 * (w + e)²/w: least at w = e, 4.5e at 2e (6.25e at 4e, the old width), and 2e copies fewer. At most
 * TB_MAX_SWEEP_BANDS bands, one band for small or flat scenes. From the AABBs alone, so the same
 * for every thread count. */
static sweep_bands choose_bands(const tb_sap_entry* e, int32_t n) {
  sweep_bands g = {1, 0.0f, 0.0f};
  if (n < 512) return g;
  float lo = INFINITY, hi = -INFINITY;
  for (int32_t i = 0; i < n; ++i) {
    if (!(e[i].upper.z - e[i].lower.z < INFINITY)) continue;
    lo = fminf(lo, e[i].lower.z);
    hi = fmaxf(hi, e[i].upper.z);
  }
  float range = hi - lo;
  if (!(range > 0.0f && range < INFINITY)) return g;
  double sum = 0.0;
  int32_t small = 0;
  for (int32_t i = 0; i < n; ++i) {
    float ext = e[i].upper.z - e[i].lower.z;
    if (ext <= 0.125f * range) { sum += ext; ++small; }
  }
  if (small == 0 || !(sum > 0.0)) return g;
  float width = 2.0f * (float)(sum / small);
  float bands = floorf(range / width);
  if (!(bands >= 2.0f)) return g;
  g.count = bands > (float)TB_MAX_SWEEP_BANDS ? TB_MAX_SWEEP_BANDS : (int32_t)bands;
  g.z0 = lo;
  g.inv_width = (float)g.count / range;
  return g;
}

typedef struct sweep_ctx {
  const tb_world* w;
  const tb_sap_entry* e; /* the sweep order, or the bands' entries one band after another */
  int32_t n;
  const int32_t* band_of_entry; /* band of each entry of e (bands > 1) */
  const uint8_t* band_lowest;   /* whether that band is the entry's lowest (bands > 1) */
  const int32_t* band_start;    /* entries of band k: [band_start[k], band_start[k + 1]) */
  sweep_bands bands;
  tb_broad_scratch* b;
} sweep_ctx;

/* Entries [begin, end) of e against the entries after them in their band, into the chunk's own
 * region; the chunk's found count says whether the region held them all. */
static void sweep_job(int32_t begin, int32_t end, void* vctx) {
  const sweep_ctx* ctx = (const sweep_ctx*)vctx;
  const tb_sap_entry* e = ctx->e;
  int32_t c = begin / TB_SWEEP_CHUNK;
  pair_sink out = {ctx->b->region + (size_t)c * (size_t)ctx->b->region_chunk, ctx->b->region_chunk, 0, 0, 0};
  for (int32_t i = begin; i < end; ++i) {
    tb_vec3 au = e[i].upper;
    /* lanes 1, 2 (y, z) of the four floats from lower.x and from upper.x of an entry */
    const tb_f4 al4 = tb_f4_load(&e[i].lower.x), au4 = tb_f4_load(&e[i].upper.x);
    int32_t band = ctx->bands.count > 1 ? ctx->band_of_entry[i] : 0;
    int32_t n = ctx->bands.count > 1 ? ctx->band_start[band + 1] : ctx->n;
    int32_t j = i + 1;
    while (j < n && e[j].lower.x <= au.x) {
      /* the candidates that also meet in y and z, a batch at a time: each is written and the count
       * advances only when it meets, so no branch depends on that outcome */
      int32_t met[TB_SWEEP_BATCH], count = 0;
      for (; j < n && e[j].lower.x <= au.x && count < TB_SWEEP_BATCH; ++j) {
        /* apart in y or z: bl > au or bu < al (a NaN bound compares false and is not apart) */
        tb_f4 apart = tb_f4_or(tb_f4_gt(tb_f4_load(&e[j].lower.x), au4), tb_f4_lt(tb_f4_load(&e[j].upper.x), al4));
        met[count] = j;
        count += (tb_f4_bitmask(apart) & 0x6) == 0;
      }
      for (int32_t k = 0; k < count; ++k) {
        const tb_sap_entry* b = &e[met[k]];
        /* a pair is the band's of the larger lower z, band_of(fmaxf(al.z, bl.z)); band_of is
         * monotonic (NaN in band 0), so that is the larger of the two entries' lowest bands, and
         * both are at most this band, which holds both copies */
        if (ctx->bands.count > 1 && !ctx->band_lowest[i] && !ctx->band_lowest[met[k]]) continue; /* another band's */
        consider(ctx->w, &out, e[i].slot, b->slot);
      }
    }
  }
  ctx->b->chunk_found[c] = out.found;
}

/* The sweep order's entries copied into their bands (x order kept in each); returns the total, or
 * -1 when out of memory. */
static int32_t split_bands(const tb_sap_entry* e, int32_t n, const sweep_bands* g, tb_broad_scratch* b) {
  int32_t* start = b->band_start;
  memset(start, 0, sizeof b->band_start);
  for (int32_t i = 0; i < n; ++i) {
    int32_t k0 = band_of(g, e[i].lower.z), k1 = band_of(g, e[i].upper.z);
    for (int32_t k = k0; k <= k1; ++k) ++start[k + 1];
  }
  for (int32_t k = 0; k < g->count; ++k) start[k + 1] += start[k];
  int32_t total = start[g->count];
  if (b->band_entry_capacity < total) {
    int32_t cap = total + total / 2;
    const tb_array_ref per_band_entry[] = {{(void**)&b->band_entries, sizeof(tb_sap_entry)},
                                           {(void**)&b->band_of_entry, sizeof(int32_t)},
                                           {(void**)&b->band_lowest, sizeof(uint8_t)}};
    if (!tb_grow_arrays(per_band_entry, 3, b->band_entry_capacity, cap)) return -1;
    b->band_entry_capacity = cap;
  }
  int32_t next[TB_MAX_SWEEP_BANDS];
  memcpy(next, start, sizeof next);
  for (int32_t i = 0; i < n; ++i) {
    int32_t k0 = band_of(g, e[i].lower.z), k1 = band_of(g, e[i].upper.z);
    for (int32_t k = k0; k <= k1; ++k) {
      b->band_entries[next[k]] = e[i];
      b->band_lowest[next[k]] = k == k0;
      b->band_of_entry[next[k]++] = k;
    }
  }
  return total;
}

/* Keeps live shapes in the previous order, appends new ones, then insertion-sorts (nearly sorted
 * between steps) and sweeps along x, in parallel chunks of the order. */
static tb_status sweep_and_prune(tb_world* w, const tb_step_context* step, pair_sink* out) {
  tb_shapes* s = &w->shapes;
  if (w->sap_capacity < s->count) {
    const tb_array_ref arrays[] = {{(void**)&w->sap_order, sizeof(int32_t)}, {(void**)&w->sap_entries, sizeof(tb_sap_entry)}};
    if (!tb_grow_arrays(arrays, 2, w->sap_capacity, s->capacity))
      return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "collide: out of memory for the sweep order");
    w->sap_capacity = s->capacity;
  }
  /* per-step scratch, given back below: tb_broad_phase sweeps again after the pairs grew */
  size_t arena_mark = w->arena.used;
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
  tb_arena_pop(&w->arena, arena_mark);
  int32_t* order = w->sap_order;
  if (!insertion_sort_bounded(s, order, n, 8 * (int64_t)n + 1024)) {
    tb_broad_scratch* b = scratch_of(w, s->capacity, 0, 1);
    if (!b) return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "collide: out of memory for the sweep sort");
    radix_sweep_order(s, order, n, b);
  }
  tb_sap_entry* e = w->sap_entries;
  for (int32_t i = 0; i < n; ++i) {
    e[i].lower = s->aabb_lower[order[i]];
    e[i].upper = s->aabb_upper[order[i]];
    e[i].slot = order[i];
  }
  tb_broad_scratch* b = scratch_of(w, 0, 0, 0);
  if (!b) return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "collide: out of memory for the sweep");
  sweep_ctx ctx = {.w = w, .e = e, .n = n, .band_start = b->band_start, .bands = choose_bands(e, n), .b = b};
  w->sap_bands = ctx.bands.count;
  if (ctx.bands.count > 1) {
    ctx.n = split_bands(e, n, &ctx.bands, b);
    if (ctx.n < 0) return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "collide: out of memory for the sweep bands");
    ctx.e = b->band_entries;
    ctx.band_of_entry = b->band_of_entry;
    ctx.band_lowest = b->band_lowest;
  }
  int32_t chunks = (ctx.n + TB_SWEEP_CHUNK - 1) / TB_SWEEP_CHUNK;
  if (b->chunk_capacity < chunks) {
    if (!tb_grow((void**)&b->chunk_found, sizeof(int32_t), b->chunk_capacity, chunks))
      return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "collide: out of memory for the sweep");
    b->chunk_capacity = chunks;
  }
  /* regions of at least twice the pair capacity in all, so they grow with it (not in a steady
   * scene); a chunk that finds more than its region holds makes them larger and sweeps again */
  int32_t per = chunks > 0 ? (int32_t)((2 * (int64_t)w->pair_capacity + chunks - 1) / chunks) : 0;
  for (;;) {
    if (b->region_chunk < per) {
      if ((int64_t)per * chunks > INT32_MAX) return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "collide: too many candidate pairs");
      if (b->region_capacity < per * chunks) {
        tb_free(b->region, (size_t)b->region_capacity * sizeof(tb_pair));
        b->region_capacity = 0;
        b->region_chunk = 0; /* none until the allocation succeeds: the next sweep allocates again */
        b->region = (tb_pair*)tb_alloc((size_t)per * (size_t)chunks * sizeof(tb_pair));
        if (!b->region) return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "collide: out of memory for the sweep");
        b->region_capacity = per * chunks;
      }
      b->region_chunk = per;
    }
    if ((int64_t)b->region_chunk * chunks > b->region_capacity) b->region_chunk = b->region_capacity / chunks;
    b->region_runs = chunks;
    tb_parallel_for(ctx.n, TB_SWEEP_CHUNK, step->thread_count, sweep_job, &ctx);
    int32_t most = 0;
    for (int32_t c = 0; c < chunks; ++c) most = b->chunk_found[c] > most ? b->chunk_found[c] : most;
    if (most <= b->region_chunk) break;
    per = most + most / 2 + 16;
  }
  /* the pairs stay in the regions; tb_broad_phase orders them into the pair arrays */
  for (int32_t c = 0; c < chunks; ++c) out->found += b->chunk_found[c];
  out->in_regions = 1;
  return TB_OK;
}

void tb_broad_phase_destroy(tb_world* w) {
  const tb_array_ref arrays[] = {{(void**)&w->sap_order, sizeof(int32_t)}, {(void**)&w->sap_entries, sizeof(tb_sap_entry)}};
  tb_free_arrays(arrays, 2, w->sap_capacity);
  w->sap_capacity = w->sap_count = 0;
  free_scratch(w);
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

static tb_status generate(tb_world* w, const tb_step_context* step, pair_sink* out) {
  switch (w->def.collision.broad_phase) {
    case TB_BROAD_PHASE_ALL_PAIRS: all_pairs(w, out); return TB_OK;
    case TB_BROAD_PHASE_EXPLICIT: explicit_pairs(w, out); return TB_OK;
    default: return sweep_and_prune(w, step, out);
  }
}

tb_status tb_broad_phase(tb_world* w, const tb_step_context* step) {
  pair_sink out = {w->pairs, w->pair_capacity, 0, 0, 0};
  tb_status st = generate(w, step, &out);
  if (st != TB_OK) return st;
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
  /* More pairs than room: grow (doubling, so a growing scene grows rarely) and generate again;
   * the generators are deterministic, so the second pass stores exactly the pairs counted. */
  w->pairs_grew = out.found > w->pair_capacity;
  if (w->pairs_grew) {
    if (out.found > TB_MAX_CAPACITY)
      return tb_world_fail(w, TB_ERR_CAPACITY, "collide: %d candidate pairs exceed the most a world holds, %d (the step did not run)",
                           out.found, TB_MAX_CAPACITY);
    int32_t cap = w->pair_capacity;
    while (cap < out.found) cap = cap > INT32_MAX / 2 ? out.found : 2 * cap;
    if (!tb_pairs_grow(w, cap))
      return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "collide: out of memory for %d candidate pairs", cap);
    out = (pair_sink){w->pairs, w->pair_capacity, 0, 0, 0};
    st = generate(w, step, &out);
    if (st != TB_OK) return st;
  }
  tb_broad_scratch* b = scratch_of(w, w->shapes.capacity, w->pair_capacity, 0);
  if (!b) return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "collide: out of memory for the pair sort");
  pair_runs runs = {b->region, b->region_chunk, b->region_runs, b->chunk_found};
  if (out.in_regions) {
    out.stored = out.found; /* the arrays hold them all now */
  } else {
    /* the other generators' pairs, one run */
    if (out.stored > 0) memcpy(b->pair_tmp, w->pairs, (size_t)out.stored * sizeof(tb_pair));
    runs = (pair_runs){b->pair_tmp, out.stored, 1, &out.stored};
  }
  order_pairs(step, &runs, w->pairs, w->shapes.count, b);
  w->pair_count = out.stored;
  w->pairs_requested = out.found;
  w->pairs_overflowed = 0;
  return TB_OK;
}
