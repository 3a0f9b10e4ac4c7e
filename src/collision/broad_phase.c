/* Candidate pair generators (sweep and prune, all pairs, explicit list) and the filter rule
 * applied to every candidate. All generators store the same pairs in the same order.
 *
 * Sweep and prune keeps its pairs between steps: each shape has a fat box (its AABB grown by a
 * margin), a sweep finds the pairs of overlapping fat boxes, and a step tests only those pairs'
 * AABBs, in the pairs' order, so nothing is sorted. A shape whose AABB leaves its fat box gets a new
 * one and is tested against every other fat box; when more than a few do at once (a scene in
 * motion), the step sweeps the AABBs themselves as without fat boxes, and the fat boxes are swept
 * again once the scene calms. The 1 000-body pile's steps 300-600 sweep nothing (bench/RESULTS.md
 * "perf22"). */
#include "broad_phase.h"

#include <math.h>
#include <string.h>

#include "../core/sort.h"
#include "../core/jobs.h"
#include "../core/simd.h"
#include "filter.h"

/* Candidates of one entry tested before the filter sees those that meet (sweep_job). */
#define TB_SWEEP_BATCH 32

/* Fat pairs per chunk of the parallel emit (emit_all). */
#define TB_EMIT_CHUNK TB_CHUNK(256)

/* Most z bands of the sweep (see split_bands). */
#define TB_MAX_SWEEP_BANDS 64

/* A fat box is the AABB grown on every side by this share of its largest finite extent: scale-free,
 * so a pile of dice and a pile of crates keep about as many fat pairs per shape. */
#define TB_FAT_MARGIN 0.05f
/* Shapes leaving their fat box in one step that get new fat pairs without a sweep: one in
 * TB_FAT_MOVED_SHARE of the shapes, at least TB_FAT_MIN_MOVED, at most TB_FAT_MAX_MOVED (their query
 * costs a pass over the shapes and, per moved shape, the fat boxes within its x range); with more,
 * the step sweeps the AABBs as without fat boxes. */
#define TB_FAT_MOVED_SHARE 128
#define TB_FAT_MIN_MOVED 16
#define TB_FAT_MAX_MOVED 256
/* While more move, a step stops updating fat boxes there (it sweeps the AABBs anyway), except every
 * this many steps, when all are updated: the fat pairs return within that many steps of the scene
 * calming, and a moving scene pays for a full update only now and then. */
#define TB_FAT_FULL_PERIOD 8
/* Fat boxes with more overlapping pairs than a world holds (where the AABBs, smaller, may have
 * far fewer: long thin shapes side by side) are not kept: the collides sweep the AABBs, and only
 * every this many collides try the fat boxes again (a try costs a sweep). */
#define TB_FAT_RETRY_PERIOD 64

/* The broad phase's own data: scratch of the sorts and the sweep, sized by the shape and pair
 * capacities (so it grows when they do, never in a steady state, and never inside a loop), and the
 * fat boxes with their pairs, kept from step to step (not in snapshots: a restored world starts
 * without them and sweeps again). */
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
  /* fat boxes per shape slot [0, fat_count), the type each was made for (-1: no live shape), and
   * every pair of overlapping fat boxes as (shape0, shape1) keys in ascending order, oriented as
   * consider() stores them; valid = 0: sweep again */
  int32_t fat_capacity; /* entries of fat_lower, fat_upper, fat_type, fat_moved */
  tb_vec3* fat_lower;
  tb_vec3* fat_upper;
  int32_t* fat_type;
  uint8_t* fat_moved;
  int32_t fat_count;
  int fat_valid;
  int32_t fat_partial; /* passes in a row that stopped past the few (update_fat) */
  int32_t fat_wait;    /* collides before the fat boxes are swept again after too many pairs */
  int32_t fat_pair_count, fat_pair_capacity; /* entries of fat_keys, fat_keys_tmp, fat_pair_tmp */
  uint64_t* fat_keys;
  uint64_t* fat_keys_tmp;
  /* the sweep's pairs in order, before they become keys; the moved shapes' new keys; the parallel
   * emit's pairs, each chunk's from its first fat pair's index */
  tb_pair* fat_pair_tmp;
  int32_t emit_capacity; /* entries of emit_first: chunks of the parallel emit and one */
  int32_t* emit_first;   /* per chunk of the emit: its pairs' count, then its first pair's index (and
                          * one past the last chunk: the end of its pairs) */
  /* the live fat boxes by their lower x bound, which the moved shapes' query sweeps: the order of
   * each sweep of the fat boxes, then kept in order (fat_capacity entries each; _tmp: the next) */
  int32_t fat_x_count;
  int32_t* fat_x;
  int32_t* fat_x_tmp;
  int32_t moved[TB_FAT_MAX_MOVED];   /* the shapes given a new fat box this step, in slot order */
  int32_t moved_x[TB_FAT_MAX_MOVED]; /* those still live, by their new fat box's lower x bound */
  int32_t moved_x_count;
} tb_broad_scratch;

/* The per-slot arrays of the fat boxes (fat_capacity entries each) into out; returns the count. */
static int fat_slot_arrays(tb_broad_scratch* b, tb_array_ref* out) {
  const tb_array_ref r[] = {{(void**)&b->fat_lower, sizeof(tb_vec3)}, {(void**)&b->fat_upper, sizeof(tb_vec3)},
                            {(void**)&b->fat_type, sizeof(int32_t)}, {(void**)&b->fat_moved, sizeof(uint8_t)},
                            {(void**)&b->fat_x, sizeof(int32_t)},    {(void**)&b->fat_x_tmp, sizeof(int32_t)}};
  for (int i = 0; i < 6; ++i) out[i] = r[i];
  return 6;
}

/* The per-fat-pair arrays (fat_pair_capacity entries each) into out; returns the count. */
static int fat_pair_arrays(tb_broad_scratch* b, tb_array_ref* out) {
  const tb_array_ref r[] = {{(void**)&b->fat_keys, sizeof(uint64_t)}, {(void**)&b->fat_keys_tmp, sizeof(uint64_t)},
                            {(void**)&b->fat_pair_tmp, sizeof(tb_pair)}};
  for (int i = 0; i < 3; ++i) out[i] = r[i];
  return 3;
}

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
  tb_array_ref per_slot[6];
  tb_free_arrays(per_slot, fat_slot_arrays(b, per_slot), b->fat_capacity);
  tb_array_ref per_fat_pair[3];
  tb_free_arrays(per_fat_pair, fat_pair_arrays(b, per_fat_pair), b->fat_pair_capacity);
  tb_free(b->emit_first, (size_t)b->emit_capacity * sizeof(int32_t));
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

#define TB_GROUP_CHUNK TB_CHUNK(128) /* shapes per chunk: a small scene sorts its few groups without a barrier */

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
static int before(const tb_vec3* lower, int32_t a, int32_t b) {
  float xa = lower[a].x, xb = lower[b].x;
  return xa < xb || (xa == xb && a < b);
}

/* 1 when boxes a and b overlap (or a bound is NaN): the six tests joined with |, not ||, so that the
 * answer costs no branch (the emit makes its list of meeting fat pairs with it). */
static inline int boxes_overlap(const tb_vec3* lower, const tb_vec3* upper, int32_t a, int32_t b) {
  tb_vec3 al = lower[a], au = upper[a], bl = lower[b], bu = upper[b];
  return !((bl.x > au.x) | (bu.x < al.x) | (bl.y > au.y) | (bu.y < al.y) | (bl.z > au.z) | (bu.z < al.z));
}

static inline int aabbs_overlap(const tb_shapes* s, int32_t a, int32_t b) { return boxes_overlap(s->aabb_lower, s->aabb_upper, a, b); }

typedef struct pair_sink {
  tb_pair* pairs;
  int32_t capacity, stored, found;
  int in_regions; /* the sweep left its pairs in its chunk regions (found of them), not in pairs */
  int ordered;    /* the pairs are in pairs, already ordered by (shape0, shape1) */
  int past_bound; /* more than TB_MAX_CAPACITY pairs: all_pairs stopped counting (found is a lower
                   * bound), or the sweep of fat boxes gave up (fat_pairs sweeps the AABBs) */
} pair_sink;

/* Shape0 of a pair: the lower (type, slot), so each pair routine sees a fixed order. */
static inline int swapped(const tb_shapes* s, int32_t a, int32_t b) {
  int32_t ta = s->type[a], tb = s->type[b];
  return (ta > tb) | ((ta == tb) & (a > b)); /* | and &: no branch on an outcome that goes either way */
}

/* Stores pair (a, b) with its flags, shape0 first, while there is room (tb_broad_phase grows the
 * arrays and generates again when there was not); counts it either way. */
static inline void store_pair(const tb_shapes* s, pair_sink* out, int32_t a, int32_t b, int32_t flags) {
  ++out->found;
  if (out->stored >= out->capacity) return;
  int swap = swapped(s, a, b);
  tb_pair* p = &out->pairs[out->stored++];
  p->shape0 = swap ? b : a;
  p->shape1 = swap ? a : b;
  p->flags = flags;
  p->points = p->active = 0; /* the narrow stage counts them */
}

/* One candidate with overlapping AABBs: stored when the filter keeps it. */
static void consider(const tb_world* w, pair_sink* out, int32_t a, int32_t b) {
  int32_t flags = tb_filter_pair(w, a, b);
  if (flags) store_pair(&w->shapes, out, a, b, flags);
}

/* One pair of overlapping fat boxes that may pair (tb_filter_may_pair), stored unfiltered (the
 * filter runs on the pairs whose AABBs meet, every step: its inputs change between steps). */
static void consider_fat(const tb_world* w, pair_sink* out, int32_t a, int32_t b) {
  if (tb_filter_may_pair(w, a, b)) store_pair(&w->shapes, out, a, b, 0);
}

/* Insertion sort by before(), the cheapest for the nearly sorted order of the last step; gives up
 * (returns 0, order permuted) after `budget` moves. */
static int insertion_sort_bounded(const tb_vec3* lower, int32_t* order, int32_t n, int64_t budget) {
  for (int32_t i = 1; i < n; ++i) {
    int32_t v = order[i];
    int32_t j = i - 1;
    while (j >= 0 && before(lower, v, order[j])) {
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
static void radix_sweep_order(const tb_shapes* s, const tb_vec3* lower, int32_t* order, int32_t n, tb_broad_scratch* b) {
  int32_t k = 0;
  for (int32_t id = 0; id < s->count; ++id)
    if (s->type[id] >= 0) {
      b->key[k] = tb_sort_key_f32(lower[id].x);
      order[k++] = id;
    }
  tb_radix_sort_u32(b->key, order, b->key_tmp, b->value_tmp, n);
}

/* More pairs (of `what`) than a world holds: the step stops, naming the count and the bound. */
static tb_status too_many_pairs(tb_world* w, int64_t n, const char* what) {
  return tb_world_fail(w, TB_ERR_CAPACITY, "collide: %lld %s exceed the most a world holds, %d (the step did not run)",
                       (long long)n, what, TB_MAX_CAPACITY);
}

#define TB_SWEEP_CHUNK TB_CHUNK(128)
_Static_assert((int64_t)TB_SWEEP_CHUNK * TB_MAX_BODIES <= INT32_MAX, "a sweep chunk's pair count fits an int32_t");

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
  int fat; /* the boxes are fat boxes: store every overlapping pair, unfiltered */
} sweep_ctx;

/* Entries [begin, end) of e against the entries after them in their band, into the chunk's own
 * region; the chunk's found count says whether the region held them all. */
static void sweep_job(int32_t begin, int32_t end, void* vctx) {
  const sweep_ctx* ctx = (const sweep_ctx*)vctx;
  const tb_sap_entry* e = ctx->e;
  int32_t c = begin / TB_SWEEP_CHUNK;
  pair_sink out = {ctx->b->region + (size_t)c * (size_t)ctx->b->region_chunk, ctx->b->region_chunk, 0, 0, 0, 0, 0};
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
        if (ctx->fat) consider_fat(ctx->w, &out, e[i].slot, b->slot);
        else if (tb_filter_may_pair(ctx->w, e[i].slot, b->slot)) consider(ctx->w, &out, e[i].slot, b->slot);
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
 * between steps) and sweeps the boxes [lower, upper] of the shapes along x, in parallel chunks of
 * the order; fat: the fat boxes, every overlapping pair unfiltered (consider_fat). */
static tb_status sweep_and_prune(tb_world* w, const tb_step_context* step, const tb_vec3* lower, const tb_vec3* upper, int fat,
                                 pair_sink* out) {
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
  if (!insertion_sort_bounded(lower, order, n, 8 * (int64_t)n + 1024)) {
    tb_broad_scratch* b = scratch_of(w, s->capacity, 0, 1);
    if (!b) return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "collide: out of memory for the sweep sort");
    radix_sweep_order(s, lower, order, n, b);
  }
  tb_sap_entry* e = w->sap_entries;
  for (int32_t i = 0; i < n; ++i) {
    e[i].lower = lower[order[i]];
    e[i].upper = upper[order[i]];
    e[i].slot = order[i];
  }
  tb_broad_scratch* b = scratch_of(w, 0, 0, 0);
  if (!b) return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "collide: out of memory for the sweep");
  sweep_ctx ctx = {.w = w, .e = e, .n = n, .band_start = b->band_start, .bands = choose_bands(e, n), .b = b, .fat = fat};
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
    /* a chunk's count fits (128 entries, each with at most a world's shapes); their sum may not.
     * More pairs than a world holds stop the step here, before the regions grow to hold them */
    int32_t most = 0;
    int64_t total = 0;
    for (int32_t c = 0; c < chunks; ++c) {
      most = b->chunk_found[c] > most ? b->chunk_found[c] : most;
      total += b->chunk_found[c];
    }
    if (total > TB_MAX_CAPACITY) {
      if (!fat) return too_many_pairs(w, total, "candidate pairs");
      out->past_bound = 1; /* fat_pairs sweeps the AABBs instead */
      return TB_OK;
    }
    if (most <= b->region_chunk) break;
    per = most + most / 2 + 16;
  }
  /* the pairs stay in the regions; tb_broad_phase orders them into the pair arrays */
  for (int32_t c = 0; c < chunks; ++c) out->found += b->chunk_found[c];
  out->in_regions = 1;
  return TB_OK;
}

/* ---- fat boxes and their pairs, kept between steps ---- */

/* Room for the fat boxes of `shapes` slots (new slots hold no box). */
static int fat_reserve(tb_broad_scratch* b, int32_t shapes) {
  if (b->fat_capacity >= shapes) return 1;
  tb_array_ref per_slot[6];
  if (!tb_grow_arrays(per_slot, fat_slot_arrays(b, per_slot), b->fat_capacity, shapes)) return 0;
  for (int32_t i = b->fat_capacity; i < shapes; ++i) {
    b->fat_type[i] = -1;
    b->fat_moved[i] = 0;
  }
  b->fat_capacity = shapes;
  return 1;
}

/* Room for n fat pairs (doubling; at least one, so the arrays exist). */
static int fat_pairs_reserve(tb_broad_scratch* b, int32_t n) {
  if (n < 1) n = 1;
  if (b->fat_pair_capacity >= n) return 1;
  int32_t cap = b->fat_pair_capacity > 0 ? b->fat_pair_capacity : 64;
  while (cap < n) cap = cap > INT32_MAX / 2 ? n : 2 * cap;
  /* the emit's chunk counts first: the pair arrays' capacity says both have room */
  int32_t chunks = (int32_t)(((int64_t)cap + TB_EMIT_CHUNK - 1) / TB_EMIT_CHUNK) + 1;
  if (b->emit_capacity < chunks) {
    if (!tb_grow((void**)&b->emit_first, sizeof(int32_t), b->emit_capacity, chunks)) return 0;
    b->emit_capacity = chunks;
  }
  tb_array_ref per_pair[3];
  if (!tb_grow_arrays(per_pair, fat_pair_arrays(b, per_pair), b->fat_pair_capacity, cap)) return 0;
  b->fat_pair_capacity = cap;
  return 1;
}

/* A pair of slots as one key, first << 32 | second (the layout of the pair-key lists too), so that
 * ascending keys are the pairs' (shape0, shape1) order; and its halves. */
static inline uint64_t pair_key(int32_t first, int32_t second) { return (uint64_t)(uint32_t)first << 32 | (uint32_t)second; }
static inline int32_t key_first(uint64_t key) { return (int32_t)(key >> 32); }
static inline int32_t key_second(uint64_t key) { return (int32_t)(key & 0xFFFFFFFFu); }

/* The key of pair (a, b) oriented as store_pair stores it. */
static inline uint64_t fat_key(const tb_shapes* s, int32_t a, int32_t b) {
  return swapped(s, a, b) ? pair_key(b, a) : pair_key(a, b);
}

/* New fat boxes for the shapes whose AABB left theirs, and for new, removed and retyped shapes, into
 * b->moved. Returns how many, limit + 1 for more, or -1 for an AABB with a NaN bound
 * (nothing contains it: that step sweeps the AABBs themselves). Past the few, a pass stops, except
 * every TB_FAT_FULL_PERIOD-th in a row, which visits every shape. A slot's fat type is its shape
 * type and whether its body is dynamic (2·type + 1 when dynamic): a shape destroyed and one made
 * on a body of the other kind in its slot (a static crate made dynamic) is queried again, since
 * the fat pairs of a shape on a static or kinematic body leave out the others of its kind. */
static int32_t update_fat(const tb_world* w, tb_broad_scratch* b, int32_t limit) {
  const tb_shapes* s = &w->shapes;
  int32_t n = s->count > b->fat_count ? s->count : b->fat_count, moved = 0;
  int full = 0; /* past the few, visiting every shape */
  for (int32_t i = 0; i < n; ++i) {
    int32_t type = i < s->count && s->type[i] >= 0 ? 2 * s->type[i] + tb_filter_on_dynamic(w, i) : -1;
    if (type < 0) {
      if (b->fat_type[i] < 0) continue;
      b->fat_type[i] = -1; /* removed: its pairs go */
    } else {
      tb_vec3 l = s->aabb_lower[i], u = s->aabb_upper[i], fl = b->fat_lower[i], fu = b->fat_upper[i];
      if (l.x != l.x || l.y != l.y || l.z != l.z || u.x != u.x || u.y != u.y || u.z != u.z) return -1;
      if (b->fat_type[i] == type && l.x >= fl.x && l.y >= fl.y && l.z >= fl.z && u.x <= fu.x && u.y <= fu.y && u.z <= fu.z)
        continue;
      float ex = u.x - l.x, ey = u.y - l.y, ez = u.z - l.z, e = 0.0f; /* the largest finite extent, m */
      if (ex < INFINITY && ex > e) e = ex;
      if (ey < INFINITY && ey > e) e = ey;
      if (ez < INFINITY && ez > e) e = ez;
      float m = TB_FAT_MARGIN * e;
      b->fat_lower[i] = tb_v3(l.x - m, l.y - m, l.z - m);
      b->fat_upper[i] = tb_v3(u.x + m, u.y + m, u.z + m);
      b->fat_type[i] = type;
    }
    if (moved == limit) {
      if (b->fat_partial < TB_FAT_FULL_PERIOD) {
        /* one more than the few: this step sweeps the AABBs, and the other shapes' fat boxes wait
         * for a step that visits them all */
        ++b->fat_partial;
        b->fat_count = n;
        return moved + 1;
      }
      full = 1;
    }
    if (!full) b->moved[moved] = i;
    ++moved;
  }
  b->fat_partial = 0;
  b->fat_count = s->count;
  return full ? limit + 1 : moved;
}

/* Every pair of overlapping fat boxes, by the sweep, into b->fat_keys in order; with more than a
 * world holds, none (fat_valid stays 0) and no new try for TB_FAT_RETRY_PERIOD collides. */
static tb_status fat_sweep(tb_world* w, const tb_step_context* step, tb_broad_scratch* b) {
  b->fat_valid = 0;
  pair_sink raw = {NULL, 0, 0, 0, 0, 0, 0};
  tb_status st = sweep_and_prune(w, step, b->fat_lower, b->fat_upper, 1, &raw);
  if (st != TB_OK) return st;
  if (raw.past_bound) {
    b->fat_wait = TB_FAT_RETRY_PERIOD;
    ++w->sap_fat_refused;
    return TB_OK;
  }
  int32_t n = raw.found;
  if (!fat_pairs_reserve(b, n) || !scratch_of(w, w->shapes.capacity, n, 0))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "collide: out of memory for %d pairs of fat boxes", n);
  pair_runs runs = {b->region, b->region_chunk, b->region_runs, b->chunk_found};
  order_pairs(step, &runs, b->fat_pair_tmp, w->shapes.count, b);
  for (int32_t i = 0; i < n; ++i)
    b->fat_keys[i] = pair_key(b->fat_pair_tmp[i].shape0, b->fat_pair_tmp[i].shape1);
  b->fat_pair_count = n;
  /* the sweep left the live shapes in order of their fat boxes' lower x (before()): the moved
   * shapes' query sweeps that order */
  if (w->sap_count > 0) memcpy(b->fat_x, w->sap_order, (size_t)w->sap_count * sizeof(int32_t)); /* none: both may be NULL */
  b->fat_x_count = w->sap_count;
  b->fat_valid = 1;
  ++w->sap_sweeps;
  return TB_OK;
}

/* The live moved shapes into b->moved_x by their new fat box's lower x bound (insertion: a few). */
static void sort_moved_x(tb_broad_scratch* b, int32_t moved) {
  const tb_vec3* lo = b->fat_lower;
  int32_t n = 0;
  for (int32_t k = 0; k < moved; ++k) {
    int32_t x = b->moved[k];
    if (b->fat_type[x] < 0) continue;
    int32_t j = n++;
    while (j > 0 && lo[b->moved_x[j - 1]].x > lo[x].x) {
      b->moved_x[j] = b->moved_x[j - 1];
      --j;
    }
    b->moved_x[j] = x;
  }
  b->moved_x_count = n;
}

/* Pair (x, y) of fat boxes when they overlap and may pair (consider_fat): its key into out[n] (out
 * NULL: counted only). */
static inline int32_t moved_pair(const tb_world* w, const tb_broad_scratch* b, int32_t x, int32_t y, uint64_t* out, int32_t n) {
  if (!boxes_overlap(b->fat_lower, b->fat_upper, x, y) || !tb_filter_may_pair(w, x, y)) return n;
  if (out) out[n] = fat_key(&w->shapes, x, y);
  return n + 1;
}

/* The pairs of the moved shapes' new fat boxes (b->moved_x, flagged in fat_moved) with every other
 * fat box, as keys into out (NULL: counted only): one sweep along x of the kept fat boxes (b->fat_x,
 * skipping the moved shapes' old places) against the moved ones, each pair found from whichever of
 * the two comes first by lower x bound (the kept box on a tie), so a step costs a pass over the
 * boxes and, per moved shape, the boxes within its x range; then the moved shapes among
 * themselves. The set is the pairs whose fat boxes overlap, whatever the order of the search. With
 * out, the same walk also leaves the x order after the moves in b->fat_x. */
static int32_t moved_pairs(const tb_world* w, tb_broad_scratch* b, uint64_t* out) {
  const tb_vec3 *lo = b->fat_lower, *up = b->fat_upper;
  const int32_t *xs = b->fat_x, *mx = b->moved_x;
  const int32_t nk = b->fat_x_count, nm = b->moved_x_count;
  int32_t* order = out ? b->fat_x_tmp : NULL;
  int32_t n = 0, i = 0, j = 0, at = 0;
  for (;;) {
    while (i < nk && b->fat_moved[xs[i]]) ++i;
    if (i == nk && j == nm) break;
    if (j == nm || (i < nk && lo[xs[i]].x <= lo[mx[j]].x)) {
      int32_t y = xs[i++];
      if (order) order[at++] = y;
      for (int32_t k = j; k < nm && lo[mx[k]].x <= up[y].x; ++k) n = moved_pair(w, b, mx[k], y, out, n);
    } else {
      int32_t x = mx[j++];
      if (order) order[at++] = x;
      for (int32_t k = i; k < nk; ++k) {
        /* a moved shape's old place: its box is the new one, which is not in this order (a stop
         * at it would miss the kept boxes after it) */
        if (b->fat_moved[xs[k]]) continue;
        if (lo[xs[k]].x > up[x].x) break;
        n = moved_pair(w, b, x, xs[k], out, n);
      }
    }
  }
  for (int32_t p = 0; p < nm; ++p)
    for (int32_t q = p + 1; q < nm; ++q) n = moved_pair(w, b, mx[p], mx[q], out, n);
  if (order) {
    b->fat_x_tmp = b->fat_x;
    b->fat_x = order;
    b->fat_x_count = at;
  }
  return n;
}

/* Ascending sort of n keys, tmp n entries of scratch: insertion for the few of a step where a few
 * shapes moved, the counting sort of slot pairs for more. */
static void sort_keys(uint64_t* key, uint64_t* tmp, int32_t n, int32_t range, int32_t* count) {
  if (n > 32) {
    tb_sort_slot_pairs(key, tmp, n, range, count);
    return;
  }
  for (int32_t i = 1; i < n; ++i) {
    uint64_t v = key[i];
    int32_t j = i - 1;
    while (j >= 0 && key[j] > v) {
      key[j + 1] = key[j];
      --j;
    }
    key[j + 1] = v;
  }
}

/* The fat pairs [begin, end) (one chunk, at most TB_EMIT_CHUNK) whose AABBs overlap and that the
 * filter keeps, in key order, into dst while room lasts; returns how many (stored or not). The
 * AABB test goes either way about as often in a pile (two in three fat pairs meet), so it makes a
 * list of the chunk's meeting pairs without a branch on its outcome, and only those see the
 * filter. The keys are oriented as store_pair orients a pair (fat_key), so they are stored as
 * they are. */
static int32_t emit_chunk(const tb_world* w, const uint64_t* keys, int32_t begin, int32_t end, tb_pair* dst, int32_t room) {
  int32_t meet[TB_EMIT_CHUNK], m = 0, n = 0;
  for (int32_t i = begin; i < end; ++i) {
    meet[m] = i;
    m += aabbs_overlap(&w->shapes, key_first(keys[i]), key_second(keys[i]));
  }
  for (int32_t k = 0; k < m; ++k) {
    int32_t a = key_first(keys[meet[k]]), c = key_second(keys[meet[k]]);
    int32_t flags = tb_filter_pair(w, a, c);
    if (!flags) continue;
    if (n < room) dst[n] = (tb_pair){a, c, flags, 0, 0}; /* points and active: the narrow stage counts them */
    ++n;
  }
  return n;
}

/* The parallel emit: each chunk's pairs into fat_pair_tmp from its first fat pair's index and its
 * count into emit_first, the counts summed in chunk order, then each chunk's pairs copied to its
 * place: the pairs and their order do not depend on the thread count. */
typedef struct emit_ctx {
  const tb_world* w;
  tb_broad_scratch* b;
  pair_sink* out;
} emit_ctx;

static void emit_chunk_job(int32_t begin, int32_t end, void* vctx) {
  const emit_ctx* ctx = (const emit_ctx*)vctx;
  tb_broad_scratch* b = ctx->b;
  b->emit_first[begin / TB_EMIT_CHUNK] = emit_chunk(ctx->w, b->fat_keys, begin, end, b->fat_pair_tmp + begin, end - begin);
}

static void emit_copy_job(int32_t begin, int32_t end, void* vctx) {
  const emit_ctx* ctx = (const emit_ctx*)vctx;
  const pair_sink* out = ctx->out;
  const int32_t* first = &ctx->b->emit_first[begin / TB_EMIT_CHUNK];
  int32_t n = first[1] - first[0];
  (void)end;
  /* up to the capacity (found counts on) */
  if (first[0] + n > out->capacity) n = out->capacity - first[0];
  if (n > 0) memcpy(out->pairs + first[0], ctx->b->fat_pair_tmp + begin, (size_t)n * sizeof(tb_pair));
}

/* The fat pairs (b->fat_keys) whose AABBs overlap, through the filter into out in key order: chunk
 * by chunk straight into out on one thread, else in the two parallel passes above. */
static void emit_all(const tb_world* w, const tb_step_context* step, tb_broad_scratch* b, pair_sink* out) {
  int32_t n = b->fat_pair_count;
  if (step->thread_count <= 1) {
    for (int32_t i = 0; i < n; i += TB_EMIT_CHUNK) {
      int32_t room = out->capacity - out->stored;
      int32_t k = emit_chunk(w, b->fat_keys, i, i + TB_EMIT_CHUNK < n ? i + TB_EMIT_CHUNK : n, out->pairs + out->stored, room);
      out->found += k;
      out->stored += k < room ? k : room;
    }
    return;
  }
  emit_ctx ctx = {w, b, out};
  tb_parallel_for(n, TB_EMIT_CHUNK, step->thread_count, emit_chunk_job, &ctx);
  int32_t chunks = (n + TB_EMIT_CHUNK - 1) / TB_EMIT_CHUNK, found = out->found;
  for (int32_t c = 0; c < chunks; ++c) {
    int32_t k = b->emit_first[c];
    b->emit_first[c] = found;
    found += k;
  }
  b->emit_first[chunks] = found;
  out->found = found;
  tb_parallel_for(n, TB_EMIT_CHUNK, step->thread_count, emit_copy_job, &ctx);
  out->stored = found < out->capacity ? found : out->capacity;
}

/* Brings the fat pairs up to date with `moved` shapes moved (their old pairs dropped, their new ones,
 * tested against every fat box, merged in), then emits them. Returns 0 when out of memory. */
static int fat_emit(const tb_world* w, const tb_step_context* step, tb_broad_scratch* b, int32_t moved, pair_sink* out) {
  const tb_shapes* s = &w->shapes;
  if (moved > 0) {
    for (int32_t k = 0; k < moved; ++k) b->fat_moved[b->moved[k]] = 1;
    sort_moved_x(b, moved);
    int32_t fresh = moved_pairs(w, b, NULL);
    if (!fat_pairs_reserve(b, b->fat_pair_count + fresh) || b->count_capacity <= s->count) {
      for (int32_t k = 0; k < moved; ++k) b->fat_moved[b->moved[k]] = 0;
      return 0;
    }
    /* the new keys and their sort's scratch in fat_pair_tmp (room for two keys a pair) */
    uint64_t* add = (uint64_t*)(void*)b->fat_pair_tmp;
    moved_pairs(w, b, add);
    sort_keys(add, add + fresh, fresh, s->count, b->count);
    uint64_t* merged = b->fat_keys_tmp;
    int32_t i = 0, j = 0, n = 0;
    for (;;) {
      /* the next kept key (neither shape moved) */
      while (i < b->fat_pair_count && (b->fat_moved[key_first(b->fat_keys[i])] || b->fat_moved[key_second(b->fat_keys[i])])) ++i;
      int old = i < b->fat_pair_count, add_next = j < fresh;
      if (!old && !add_next) break;
      merged[n++] = old && (!add_next || b->fat_keys[i] < add[j]) ? b->fat_keys[i++] : add[j++];
    }
    for (int32_t k = 0; k < moved; ++k) b->fat_moved[b->moved[k]] = 0;
    b->fat_keys_tmp = b->fat_keys;
    b->fat_keys = merged;
    b->fat_pair_count = n;
  }
  emit_all(w, step, b, out);
  return 1;
}

/* Sweep and prune over fat boxes: the fat pairs brought up to date, and those whose AABBs overlap
 * through the filter, stored in key order (the order of the other generators). */
static tb_status fat_pairs(tb_world* w, const tb_step_context* step, pair_sink* out) {
  const tb_shapes* s = &w->shapes;
  tb_broad_scratch* b = scratch_of(w, s->capacity, 0, 0);
  if (!b || !fat_reserve(b, s->capacity)) return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "collide: out of memory for the fat boxes");
  int32_t limit = s->count / TB_FAT_MOVED_SHARE;
  if (limit < TB_FAT_MIN_MOVED) limit = TB_FAT_MIN_MOVED;
  if (limit > TB_FAT_MAX_MOVED) limit = TB_FAT_MAX_MOVED;
  int32_t moved = update_fat(w, b, limit);
  w->sap_fat_moved = moved;
  if (b->fat_wait > 0) --b->fat_wait;
  if (moved >= 0 && moved <= limit && !b->fat_valid && b->fat_wait == 0) {
    tb_status st = fat_sweep(w, step, b);
    if (st != TB_OK) return st;
    moved = 0;
  }
  if (moved < 0 || moved > limit || !b->fat_valid) {
    /* a scene in motion (or a NaN bound), or fat boxes with too many pairs: the sweep of the AABBs
     * themselves, as cheap as a sweep of the fat boxes and without their extra pairs; the fat
     * pairs are swept again once it calms */
    b->fat_valid = 0;
    w->sap_fat_pairs = 0;
    return sweep_and_prune(w, step, s->aabb_lower, s->aabb_upper, 0, out);
  }
  if (!fat_emit(w, step, b, moved, out)) {
    b->fat_valid = 0;
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "collide: out of memory for pairs of fat boxes");
  }
  w->sap_fat_pairs = b->fat_pair_count;
  out->ordered = 1;
  return TB_OK;
}

void tb_broad_phase_destroy(tb_world* w) {
  const tb_array_ref arrays[] = {{(void**)&w->sap_order, sizeof(int32_t)}, {(void**)&w->sap_entries, sizeof(tb_sap_entry)}};
  tb_free_arrays(arrays, 2, w->sap_capacity);
  w->sap_capacity = w->sap_count = 0;
  free_scratch(w);
}

/* Every pair by brute force, up to one past the most a world holds: n shapes at one place give
 * n(n − 1)/2 pairs, past an int32_t count from 65 536 shapes, and the step fails past the bound
 * whatever the exact count. */
static void all_pairs(tb_world* w, pair_sink* out) {
  const tb_shapes* s = &w->shapes;
  for (int32_t a = 0; a < s->count; ++a) {
    if (out->found > TB_MAX_CAPACITY) {
      out->past_bound = 1;
      return;
    }
    if (s->type[a] < 0) continue;
    for (int32_t b = a + 1; b < s->count; ++b)
      if (s->type[b] >= 0 && aabbs_overlap(s, a, b)) consider(w, out, a, b);
  }
}

/* The list holds live slots only (removed shapes leave it). */
static void explicit_pairs(tb_world* w, pair_sink* out) {
  const tb_pair_keys* l = &w->explicit_pairs;
  for (int32_t i = 0; i < l->count; ++i) {
    int32_t a = key_first(l->key[i]), b = key_second(l->key[i]);
    if (aabbs_overlap(&w->shapes, a, b)) consider(w, out, a, b);
  }
}

static tb_status generate(tb_world* w, const tb_step_context* step, pair_sink* out) {
  switch (w->def.collision.broad_phase) {
    case TB_BROAD_PHASE_ALL_PAIRS: all_pairs(w, out); return TB_OK;
    case TB_BROAD_PHASE_EXPLICIT: explicit_pairs(w, out); return TB_OK;
    default: return fat_pairs(w, step, out);
  }
}

tb_status tb_broad_phase(tb_world* w, const tb_step_context* step) {
  pair_sink out = {w->pairs, w->pair_capacity, 0, 0, 0, 0, 0};
  tb_status st = generate(w, step, &out);
  if (st != TB_OK) return st;
  if (out.past_bound)
    return tb_world_fail(w, TB_ERR_CAPACITY, "collide: more than %d candidate pairs, the most a world holds (the step did not run)",
                         TB_MAX_CAPACITY);
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
    if (out.found > TB_MAX_CAPACITY) return too_many_pairs(w, out.found, "candidate pairs");
    int32_t cap = w->pair_capacity;
    while (cap < out.found) cap = cap > INT32_MAX / 2 ? out.found : 2 * cap;
    if (!tb_pairs_grow(w, cap))
      return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "collide: out of memory for %d candidate pairs", cap);
    out = (pair_sink){w->pairs, w->pair_capacity, 0, 0, 0, 0, 0};
    st = generate(w, step, &out);
    if (st != TB_OK) return st;
  }
  if (!out.ordered) {
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
  }
  w->pair_count = out.stored;
  w->pairs_requested = out.found;
  w->pairs_overflowed = 0;
  return TB_OK;
}
