/* Contact matching across collide() calls (newton-e3 §2 "latest" / "sticky"). */
#include "contact_match.h"

#include <string.h>

#include "../core/jobs.h"
#include "../core/simd_vec3.h"
#include "../core/sort.h"
#include "../world/world.h"
#include "distance.h"

/* Index of the previous point that matches point j of the new manifold, or -1: the same feature
 * id first, else the nearest unclaimed point whose body-local points are within dmax. */
static int32_t find_match(const tb_match_frame* prev, int32_t pi, const tb_manifold_point* p, tb_vec3 l0,
                          tb_vec3 l1, float dmax, const int* claimed) {
  int32_t base = prev->first[pi], best = -1;
  for (int32_t q = 0; q < prev->count[pi]; ++q)
    if (!claimed[q] && prev->feature[base + q] == p->feature_id) return q;
  float best_d = dmax * dmax;
  for (int32_t q = 0; q < prev->count[pi]; ++q) {
    if (claimed[q]) continue;
    float d0 = tb_length_sq(tb_sub(l0, prev->local0[base + q]));
    float d1 = tb_length_sq(tb_sub(l1, prev->local1[base + q]));
    float d = d0 > d1 ? d0 : d1;
    if (d <= best_d) { best_d = d; best = q; }
  }
  return best;
}

_Static_assert(TB_MAX_MANIFOLD_POINTS <= TB_LANES, "a manifold's points fit the lanes of one v3w");

/* Pair i's points (pi: its previous frame's entry or -1) matched with the previous frame's, written
 * at its first point cur->first[i]. */
static void match_points(tb_world* w, const tb_match_frame* prev, tb_match_frame* cur, int sticky, float dmax,
                         int32_t i, int32_t pi) {
  int32_t s0 = w->pairs[i].shape0, s1 = w->pairs[i].shape1;
  tb_manifold* m = &w->manifolds[i];
  int32_t first = cur->first[i];
  /* body-local points; a static shape's (body -1 in the record) are world points (newton-e3 §2) */
  tb_transform x0 = w->shape_views[s0].frame, x1 = w->shape_views[s1].frame;
  const tb_distance_pair* dp = &cur->dist[i];
  int claimed[TB_MAX_MANIFOLD_POINTS] = {0}, replayed = 0;
  /* a refreshed manifold holds the previous points in their order with their feature ids; when
   * the distance rule dropped none, point j is previous point j (what find_match returns) */
  int same = pi >= 0 && cur->pcm[i].state == TB_PCM_REFRESHED && m->point_count == prev->count[pi];
  /* from three points on, the points in each body's frame four at a time (as in tb_pcm_refresh) */
  int lanes = m->point_count >= 3;
  float b0[3][TB_LANES], b1[3][TB_LANES];
  if (lanes) {
    v3w_store(b0, v3w_inv_transform_point(x0, v3w_gather(&m->points[0].point0, sizeof(tb_manifold_point), m->point_count)));
    v3w_store(b1, v3w_inv_transform_point(x1, v3w_gather(&m->points[0].point1, sizeof(tb_manifold_point), m->point_count)));
  }
  if (same && !sticky) {
    /* point j is previous point j, nothing to replay: the records copied along (the loop below
     * with q = j, without its tests per point) */
    int32_t pf = prev->first[pi], stored = prev->stored;
    for (int32_t j = 0; j < m->point_count; ++j) {
      int32_t k = first + j, pq = pf + j;
      cur->id[k] = prev->id[pq];
      cur->age[k] = prev->age[pq] + 1;
      cur->previous[k] = stored ? pq : -1;
      cur->feature[k] = m->points[j].feature_id;
      cur->local0[k] = lanes ? v3w_rows_lane(b0, j) : tb_inv_transform_point(x0, m->points[j].point0);
      cur->local1[k] = lanes ? v3w_rows_lane(b1, j) : tb_inv_transform_point(x1, m->points[j].point1);
    }
    return;
  }
  for (int32_t j = 0; j < m->point_count; ++j) {
    tb_manifold_point* p = &m->points[j];
    int32_t k = first + j;
    tb_vec3 l0 = lanes ? v3w_rows_lane(b0, j) : tb_inv_transform_point(x0, p->point0);
    tb_vec3 l1 = lanes ? v3w_rows_lane(b1, j) : tb_inv_transform_point(x1, p->point1);
    int32_t q = same ? j : pi >= 0 ? find_match(prev, pi, p, l0, l1, dmax, claimed) : -1;
    if (q >= 0) {
      int32_t pq = prev->first[pi] + q;
      claimed[q] = 1;
      cur->id[k] = prev->id[pq];
      cur->age[k] = prev->age[pq] + 1;
      cur->previous[k] = prev->stored ? pq : -1;
      if (sticky) {
        /* replay the previous body-local points while the new ones stay within dmax of them */
        tb_vec3 a0 = tb_transform_point(x0, prev->local0[pq]), a1 = tb_transform_point(x1, prev->local1[pq]);
        if (tb_length(tb_sub(a0, p->point0)) <= dmax && tb_length(tb_sub(a1, p->point1)) <= dmax) {
          tb_distance_point c = tb_distance_classify(dp, tb_dot(tb_sub(a1, a0), m->normal));
          p->point0 = a0;
          p->point1 = a1;
          l0 = prev->local0[pq];
          l1 = prev->local1[pq];
          p->separation = c.distance;
          p->active = c.active && (w->pairs[i].flags & TB_PAIR_SOLVE) != 0;
          p->excluded = c.excluded;
          replayed = 1;
        }
      }
    } else {
      cur->id[k] = 0; /* assigned in pair order by tb_match_contacts */
      cur->age[k] = 0;
      cur->previous[k] = -1;
    }
    cur->feature[k] = p->feature_id;
    cur->local0[k] = l0;
    cur->local1[k] = l1;
  }
  if (replayed) tb_pair_count_points(&w->pairs[i], m); /* a replayed point may change activity */
}

#define TB_MATCH_CHUNK TB_CHUNK(64)
#define TB_MATCH_BLOCK 64 /* pairs whose lists match_range makes at a time */

/* Pairs [begin, end), whose first points are set (cur->first) and whose keys and previous entries the
 * narrow stage wrote (cur->key, tb_match_data.prev_pair): each pair matches its points with its previous
 * manifold's and writes only its own slots. A new point gets age 0 and its persistent id later, in
 * pair order. */
static void match_range(tb_world* w, const tb_match_frame* prev, tb_match_frame* cur, int32_t begin, int32_t end) {
  const int sticky = w->def.collision.matching == TB_MATCHING_STICKY;
  const float dmax = w->def.collision.match_distance;
  const int32_t* prev_pair = w->match.prev_pair;
  for (int32_t block = begin; block < end; block += TB_MATCH_BLOCK) {
    int32_t block_end = end - block > TB_MATCH_BLOCK ? block + TB_MATCH_BLOCK : end;
    /* every pair's count, and a list of the pairs with points, made without a branch on whether a
     * pair has points (about half of a pile's candidate pairs, in no order a predictor learns) */
    int32_t with[TB_MATCH_BLOCK], nw = 0;
    for (int32_t i = block; i < block_end; ++i) {
      int32_t count = w->pairs[i].points; /* the narrow stage's count of the manifold's points */
      cur->count[i] = count;
      /* a point's record is its index in this frame (tb_contact_store_reserve); first read whether
       * or not the pair has points, so the choice is a select, not a branch */
      int32_t first = cur->first[i];
      w->manifold_contact[i] = count > 0 ? first : -1;
      with[nw] = i;
      nw += count > 0;
    }
    for (int32_t h = 0; h < nw; ++h) match_points(w, prev, cur, sticky, dmax, with[h], prev_pair[with[h]]);
  }
}

typedef struct match_ctx {
  tb_world* w;
  const tb_match_frame* prev;
  tb_match_frame* cur;
  int32_t from; /* the first pair the narrow stage left (tb_match_data.matched) */
} match_ctx;

/* Pairs from + [begin, end). */
static void match_job(int32_t begin, int32_t end, void* vctx) {
  const match_ctx* ctx = (const match_ctx*)vctx;
  match_range(ctx->w, ctx->prev, ctx->cur, begin + ctx->from, end + ctx->from);
}

int32_t tb_match_leading(tb_world* w, int32_t begin, int32_t end, int32_t* points) {
  tb_match_frame* cur = tb_match_next(&w->match);
  int32_t n = *points, taken = begin;
  for (; taken < end && n + w->pairs[taken].points <= w->match.point_capacity; ++taken) {
    cur->first[taken] = n;
    n += w->pairs[taken].points;
  }
  match_range(w, &w->match.frame[w->match.current], cur, begin, taken);
  *points = n;
  return taken;
}

int32_t tb_match_count_points(tb_world* w) {
  tb_match_frame* cur = tb_match_next(&w->match);
  /* the narrow stage set the first points of the pairs before its run's end */
  int32_t from = w->match.matched, n = from > 0 ? cur->first[from - 1] + w->pairs[from - 1].points : 0;
  for (int32_t i = from; i < w->pair_count; ++i) {
    cur->first[i] = n;
    n += w->pairs[i].points;
  }
  cur->point_count = n;
  return n;
}

void tb_match_contacts(tb_world* w, const tb_step_context* step) {
  tb_match_data* md = &w->match;
  match_ctx ctx = {w, &md->frame[md->current], tb_match_next(md), md->matched};
  tb_parallel_for(w->pair_count - md->matched, TB_MATCH_CHUNK, step->thread_count, match_job, &ctx);
  /* persistent ids of the new points, in pair and point order (the matched ones have age >= 1) */
  tb_match_frame* cur = ctx.cur;
  for (int32_t k = 0; k < cur->point_count; ++k)
    if (cur->age[k] == 0) cur->id[k] = md->next_id++;
  cur->pair_count = w->pair_count;
  cur->stored = 0; /* until the store fill makes its points the records */
  md->current = 1 - md->current;
}
