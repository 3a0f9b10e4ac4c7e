/* Contact matching across collide() calls (newton-e3 §2 "latest" / "sticky"). */
#include "contact_match.h"

#include <string.h>

#include "../world/world.h"

#define TB_MATCH_ARRAYS 11

/* Every array of a frame with one element per pair (per-point arrays hold 4 values per pair). */
static int frame_arrays(tb_match_frame* f, tb_array_ref* out) {
  const size_t P = TB_MAX_MANIFOLD_POINTS;
  const tb_array_ref all[TB_MATCH_ARRAYS] = {
      {(void**)&f->key, sizeof(uint64_t)},         {(void**)&f->count, sizeof(int32_t)},
      {(void**)&f->reduced, sizeof(int32_t)},      {(void**)&f->dist, sizeof(tb_distance_pair)},
      {(void**)&f->feature, P * sizeof(uint32_t)}, {(void**)&f->id, P * sizeof(uint32_t)},
      {(void**)&f->age, P * sizeof(int32_t)},      {(void**)&f->previous, P * sizeof(int32_t)},
      {(void**)&f->store, P * sizeof(int32_t)},    {(void**)&f->local0, P * sizeof(tb_vec3)},
      {(void**)&f->local1, P * sizeof(tb_vec3)}};
  for (int i = 0; i < TB_MATCH_ARRAYS; ++i) out[i] = all[i];
  return TB_MATCH_ARRAYS;
}

static int both_frames(tb_match_data* m, tb_array_ref* out) {
  int n = frame_arrays(&m->frame[0], out);
  return n + frame_arrays(&m->frame[1], out + n);
}

int tb_match_reserve(tb_world* w, int32_t pairs) {
  tb_match_data* m = &w->match;
  if (pairs <= m->capacity) return 1;
  int32_t cap = m->capacity > 0 ? 2 * m->capacity : 16;
  while (cap < pairs) cap *= 2;
  tb_array_ref a[2 * TB_MATCH_ARRAYS];
  if (!tb_grow_arrays(a, both_frames(m, a), m->capacity, cap)) return 0;
  m->capacity = cap;
  return 1;
}

void tb_match_free(tb_match_data* m) {
  tb_array_ref a[2 * TB_MATCH_ARRAYS];
  tb_free_arrays(a, both_frames(m, a), m->capacity);
  memset(m, 0, sizeof *m);
}

/* Index of the previous point that matches point j of the new manifold, or -1: the same feature
 * id first, else the nearest unclaimed point whose body-local points are within dmax. */
static int32_t find_match(const tb_match_frame* prev, int32_t pi, const tb_manifold_point* p, tb_vec3 l0,
                          tb_vec3 l1, float dmax, const int* claimed) {
  int32_t base = 4 * pi, best = -1;
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

void tb_match_contacts(tb_world* w) {
  tb_match_data* md = &w->match;
  const tb_match_frame* prev = &md->frame[md->current];
  tb_match_frame* cur = tb_match_next(md);
  const tb_manifold_cache* cache = &w->cache;
  const tb_shapes* s = &w->shapes;
  const tb_bodies* b = &w->bodies;
  const int sticky = w->def.collision.matching == TB_MATCHING_STICKY;
  const float dmax = w->def.collision.match_distance;
  const int warm = w->def.solver.warm_starting;
  int32_t pk = 0, ck = 0;
  for (int32_t i = 0; i < w->pair_count; ++i) {
    int32_t s0 = w->pairs[i].shape0, s1 = w->pairs[i].shape1;
    uint64_t key = tb_pair_match_key(s, s0, s1);
    while (pk < prev->pair_count && prev->key[pk] < key) ++pk;
    while (ck < cache->pair_count && cache->key[ck] < key) ++ck;
    int32_t pi = pk < prev->pair_count && prev->key[pk] == key ? pk : -1;
    int32_t ci = warm && ck < cache->pair_count && cache->key[ck] == key ? ck : -1;
    /* body-local points; a static shape's (body -1 in the record) are world points (newton-e3 §2) */
    tb_transform x0 = tb_body_pose(b, s->body[s0]), x1 = tb_body_pose(b, s->body[s1]);
    const tb_transform world = {tb_v3(0, 0, 0), tb_quat_identity()};
    if (b->f.body_type[s->body[s0]] == TB_BODY_STATIC) x0 = world;
    if (b->f.body_type[s->body[s1]] == TB_BODY_STATIC) x1 = world;
    tb_manifold* m = &w->manifolds[i];
    const tb_distance_pair* dp = &cur->dist[i];
    int claimed[TB_MAX_MANIFOLD_POINTS] = {0};
    cur->key[i] = key;
    cur->count[i] = m->point_count;
    for (int32_t j = 0; j < m->point_count; ++j) {
      tb_manifold_point* p = &m->points[j];
      int32_t k = 4 * i + j;
      tb_vec3 l0 = tb_inv_transform_point(x0, p->point0), l1 = tb_inv_transform_point(x1, p->point1);
      int32_t q = pi >= 0 ? find_match(prev, pi, p, l0, l1, dmax, claimed) : -1;
      float pn = 0.0f;
      tb_vec3 pt = tb_v3(0, 0, 0);
      if (q >= 0) {
        int32_t pq = 4 * pi + q;
        claimed[q] = 1;
        cur->id[k] = prev->id[pq];
        cur->age[k] = prev->age[pq] + 1;
        cur->previous[k] = prev->store[pq];
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
          }
        }
        if (ci >= 0)
          for (int32_t r = 0; r < cache->count[ci]; ++r)
            if (cache->feature[4 * ci + r] == prev->feature[pq]) {
              pn = cache->normal_impulse[4 * ci + r];
              pt = cache->friction_impulse[4 * ci + r];
              break;
            }
      } else {
        cur->id[k] = md->next_id++;
        cur->age[k] = 0;
        cur->previous[k] = -1;
      }
      cur->feature[k] = p->feature_id;
      cur->local0[k] = l0;
      cur->local1[k] = l1;
      cur->store[k] = -1;
      w->warm_normal[k] = pn;
      w->warm_friction[k] = pt;
    }
  }
  cur->pair_count = w->pair_count;
  md->current = 1 - md->current;
}
