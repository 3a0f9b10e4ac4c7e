/* SoA storage of the world: every store's arrays come from its field list (world.h, core/fields.h)
 * and grow and free together, all or nothing. */
#include <string.h>

#include "world.h"


#define TB_STORE_REF(name, type, per_slot, doc) TB_ARRAY_REF(out, n, st, name, (per_slot) * sizeof(type));

int tb_body_store_arrays(tb_bodies* st, tb_array_ref* out) {
  int n = tb_body_field_arrays(&st->f, out);
  TB_BODY_ARRAYS(TB_STORE_REF)
  return n;
}

int tb_shape_store_arrays(tb_shapes* st, tb_array_ref* out) {
  int n = 0;
  TB_SHAPE_ARRAYS(TB_STORE_REF)
  return n;
}

int tb_pair_store_arrays(tb_world* st, tb_array_ref* out) {
  int n = 0;
  TB_PAIR_ARRAYS(TB_STORE_REF)
  return n;
}

int tb_joint_store_arrays(tb_joints* st, tb_array_ref* out) {
  int n = 0;
  TB_JOINT_ARRAYS(TB_STORE_REF)
  return n;
}

#undef TB_STORE_REF

/* Grows the n arrays of one store from *capacity to cap elements (never shrinks). */
static int grow_store(const tb_array_ref* arrays, int n, int32_t* capacity, int32_t cap) {
  if (!tb_grow_arrays(arrays, n, *capacity, cap)) return 0;
  if (cap > *capacity) *capacity = cap;
  return 1;
}

int tb_bodies_grow(tb_bodies* b, int32_t cap) {
  tb_array_ref a[TB_MAX_ARRAYS];
  return grow_store(a, tb_body_store_arrays(b, a), &b->capacity, cap);
}

int tb_shapes_grow(tb_shapes* s, int32_t cap) {
  tb_array_ref a[TB_MAX_ARRAYS];
  return grow_store(a, tb_shape_store_arrays(s, a), &s->capacity, cap);
}

int tb_contacts_grow(tb_contact_store* c, int32_t cap) {
  tb_array_ref a[TB_MAX_ARRAYS];
  int32_t old = c->capacity;
  if (!grow_store(a, tb_contact_field_arrays(&c->f, a), &c->capacity, cap)) return 0;
  tb_contacts_dirty(c, TB_STORE_ALL_GROUPS, old, c->capacity); /* new records hold whatever memory held */
  return 1;
}

void tb_contacts_dirty(tb_contact_store* c, uint32_t groups, int32_t begin, int32_t end) {
  if (begin >= end) return;
  for (int g = 0; g < TB_STORE_GROUPS; ++g) {
    if (!(groups & (1u << g))) continue;
    int32_t* b = &c->dirty_begin[g];
    int32_t* e = &c->dirty_end[g];
    if (*b >= *e) { *b = begin; *e = end; continue; } /* was clean */
    if (begin < *b) *b = begin;                          /* else the hull of both */
    if (end > *e) *e = end;
  }
}

int tb_pairs_grow(tb_world* w, int32_t cap) {
  tb_array_ref a[TB_MAX_ARRAYS];
  return grow_store(a, tb_pair_store_arrays(w, a), &w->pair_capacity, cap);
}

int tb_joints_grow(tb_joints* j, int32_t cap) {
  tb_array_ref a[TB_MAX_ARRAYS];
  return grow_store(a, tb_joint_store_arrays(j, a), &j->capacity, cap);
}

/* ---- matching frames: the per-pair arrays of a frame, then its per-point arrays ---- */

int tb_match_pair_arrays(tb_match_frame* f, tb_array_ref* out) {
  const tb_array_ref all[TB_MATCH_PAIR_ARRAYS] = {
      {(void**)&f->key, sizeof(uint64_t)},   {(void**)&f->count, sizeof(int32_t)},
      {(void**)&f->first, sizeof(int32_t)},  {(void**)&f->reduced, sizeof(int32_t)},
      {(void**)&f->dist, sizeof(tb_distance_pair)}, {(void**)&f->pcm, sizeof(tb_pcm_cache)}};
  for (int i = 0; i < TB_MATCH_PAIR_ARRAYS; ++i) out[i] = all[i];
  return TB_MATCH_PAIR_ARRAYS;
}

int tb_match_point_arrays(tb_match_frame* f, tb_array_ref* out) {
  const tb_array_ref all[TB_MATCH_POINT_ARRAYS] = {
      {(void**)&f->feature, sizeof(uint32_t)}, {(void**)&f->id, sizeof(uint32_t)},
      {(void**)&f->age, sizeof(int32_t)},      {(void**)&f->previous, sizeof(int32_t)},
      {(void**)&f->local0, sizeof(tb_vec3)},   {(void**)&f->local1, sizeof(tb_vec3)}};
  for (int i = 0; i < TB_MATCH_POINT_ARRAYS; ++i) out[i] = all[i];
  return TB_MATCH_POINT_ARRAYS;
}

/* The arrays of both frames of one kind (arrays_of: per pair or per point). */
static int both_frames(tb_match_data* m, int (*arrays_of)(tb_match_frame*, tb_array_ref*), tb_array_ref* out) {
  int n = arrays_of(&m->frame[0], out);
  return n + arrays_of(&m->frame[1], out + n);
}

/* Everything with an element per pair: both frames' per-pair arrays and the narrow stage's previous
 * entries (prev_pair); everything with an element per point: both frames' per-point arrays. */
static int per_pair_arrays(tb_match_data* m, tb_array_ref* out) {
  int n = both_frames(m, tb_match_pair_arrays, out);
  out[n++] = (tb_array_ref){(void**)&m->prev_pair, sizeof(int32_t)};
  return n;
}

static int per_point_arrays(tb_match_data* m, tb_array_ref* out) { return both_frames(m, tb_match_point_arrays, out); }

static int reserve_frames(tb_match_data* m, int (*arrays_of)(tb_match_data*, tb_array_ref*), int32_t* capacity, int32_t n) {
  if (n <= *capacity) return 1;
  int32_t cap = *capacity > 0 ? 2 * *capacity : 16;
  while (cap < n) cap = cap > INT32_MAX / 2 ? n : 2 * cap;
  tb_array_ref a[2 * TB_MATCH_PAIR_ARRAYS + 1];
  _Static_assert(TB_MATCH_POINT_ARRAYS <= TB_MATCH_PAIR_ARRAYS, "a holds either kind");
  if (!tb_grow_arrays(a, arrays_of(m, a), *capacity, cap)) return 0;
  *capacity = cap;
  return 1;
}

int tb_match_reserve(tb_world* w, int32_t pairs) {
  return reserve_frames(&w->match, per_pair_arrays, &w->match.capacity, pairs);
}

int tb_shape_views_reserve(tb_world* w) {
  return tb_reserve_aligned(&w->shape_views_block, (void**)&w->shape_views, &w->shape_view_capacity, w->shapes.count,
                            sizeof(tb_shape_view), w->shape_view_capacity);
}

int tb_match_reserve_points(tb_world* w, int32_t points) {
  return reserve_frames(&w->match, per_point_arrays, &w->match.point_capacity, points);
}

void tb_match_free(tb_match_data* m) {
  tb_array_ref a[2 * TB_MATCH_PAIR_ARRAYS + 1];
  tb_free_arrays(a, per_pair_arrays(m, a), m->capacity);
  tb_free_arrays(a, per_point_arrays(m, a), m->point_capacity);
  memset(m, 0, sizeof *m);
}

/* ---- freeing ---- */

void tb_world_storage_free(tb_world* w, void (*free_data)(int32_t type, void* data)) {
  tb_array_ref arrays[TB_MAX_ARRAYS];
  tb_free(w->backup, (size_t)w->backup_capacity * 13 * sizeof(float));
  w->backup = NULL;
  w->backup_capacity = 0;
  tb_round_sums* rs = &w->round_sums;
  for (int i = 0; i < 2; ++i) tb_free(rs->contact[i], (size_t)rs->contact_capacity * TB_ROUND_CONTACT * sizeof(float));
  tb_free(rs->taken, (size_t)rs->contact_capacity * sizeof(int32_t));
  for (int i = 0; i < 2; ++i) tb_free(rs->place[i], (size_t)rs->contact_capacity * sizeof(tb_round_place));
  tb_free(rs->ended, (size_t)rs->ended_capacity * sizeof(tb_round_ended));
  tb_free(rs->body, (size_t)rs->body_capacity * 6 * sizeof(float));
  tb_free(rs->joint, (size_t)rs->joint_capacity * 8 * sizeof(float));
  tb_free(rs->backup, (size_t)rs->backup_capacity * 13 * sizeof(float));
  memset(rs, 0, sizeof *rs);
  /* owned shape geometry (hulls, heightfields, meshes) of the shapes still alive */
  for (int32_t s = 0; w->shapes.type && s < w->shapes.count; ++s)
    if (w->shapes.type[s] >= 0 && w->shapes.data[s]) {
      free_data(w->shapes.type[s], w->shapes.data[s]);
      w->shapes.data[s] = NULL;
    }
  tb_free_arrays(arrays, tb_body_store_arrays(&w->bodies, arrays), w->bodies.capacity);
  tb_free_arrays(arrays, tb_shape_store_arrays(&w->shapes, arrays), w->shapes.capacity);
  tb_free_arrays(arrays, tb_pair_store_arrays(w, arrays), w->pair_capacity);
  tb_free_arrays(arrays, tb_joint_store_arrays(&w->joints, arrays), w->joints.capacity);
  tb_free_arrays(arrays, tb_contact_field_arrays(&w->contacts.f, arrays), w->contacts.capacity);
  /* islands and sleep */
  tb_free_arrays(arrays, tb_contact_field_arrays(&w->sleep_contacts.f, arrays), w->sleep_contacts.capacity);
  tb_free(w->sleep_contact_flags, (size_t)w->sleep_contact_flags_capacity * sizeof(int32_t));
  tb_free(w->links, (size_t)w->link_capacity * sizeof(uint64_t));
  tb_free(w->links_next, (size_t)w->link_capacity * sizeof(uint64_t));
  tb_free(w->links_sort_tmp, (size_t)w->links_sort_capacity * sizeof(uint64_t));
  tb_free(w->links_listed, (size_t)w->links_listed_capacity * sizeof(uint64_t));
  tb_free(w->island_scratch, (size_t)w->island_scratch_capacity * sizeof(int32_t));
  tb_free(w->sleep_log, (size_t)w->sleep_log_capacity * sizeof(int32_t));
  tb_match_free(&w->match);
  tb_free_aligned(w->shape_views_block, w->shape_view_capacity, sizeof(tb_shape_view));
  w->shape_views = NULL;
  w->shape_views_block = NULL;
  w->shape_view_capacity = 0;
  tb_pair_lists_free(w);
  tb_arena_destroy(&w->arena);
}
