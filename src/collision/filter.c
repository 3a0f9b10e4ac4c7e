/* Pair filtering per rule, body parent and sleep state, and the slot-pair lists (exclusions,
 * explicit pairs) with their public setters. */
#include "filter.h"

#include "../model/material.h"

#include <stdlib.h>
#include <string.h>

/* ---- slot-pair lists ---- */

int32_t tb_pair_keys_find(const tb_pair_keys* list, uint64_t key) {
  int32_t lo = 0, hi = list->count - 1;
  while (lo <= hi) {
    int32_t mid = lo + (hi - lo) / 2;
    if (list->key[mid] == key) return mid;
    if (list->key[mid] < key) lo = mid + 1; else hi = mid - 1;
  }
  return -1;
}

static void keys_free(tb_pair_keys* l) {
  tb_free(l->key, (size_t)l->capacity * sizeof(uint64_t));
  tb_free(l->params, (size_t)l->capacity * sizeof(tb_contact_pair_params));
  memset(l, 0, sizeof *l);
}

/* Room for `count` keys (and params when with_params); 0 on out of memory, list unchanged. */
static int keys_reserve(tb_pair_keys* l, int32_t count, int with_params) {
  if (count <= l->capacity) return 1;
  with_params = with_params || l->params != NULL;
  int32_t cap = l->capacity ? l->capacity : 8;
  while (cap < count) cap *= 2;
  uint64_t* k = (uint64_t*)tb_alloc((size_t)cap * sizeof(uint64_t));
  tb_contact_pair_params* p = with_params ? (tb_contact_pair_params*)tb_alloc((size_t)cap * sizeof *p) : NULL;
  if (!k || (with_params && !p)) {
    tb_free(k, (size_t)cap * sizeof(uint64_t));
    tb_free(p, (size_t)cap * sizeof *p);
    return 0;
  }
  if (l->count) memcpy(k, l->key, (size_t)l->count * sizeof(uint64_t));
  if (with_params && l->count) memcpy(p, l->params, (size_t)l->count * sizeof *p);
  tb_free(l->key, (size_t)l->capacity * sizeof(uint64_t));
  tb_free(l->params, (size_t)l->capacity * sizeof *p);
  l->key = k;
  l->params = p;
  l->capacity = cap;
  return 1;
}

static int compare_keys(const void* pa, const void* pb) {
  uint64_t a = *(const uint64_t*)pa, b = *(const uint64_t*)pb;
  return (a > b) - (a < b);
}

static void keys_remove_at(tb_pair_keys* l, int32_t i) {
  size_t n = (size_t)(l->count - i - 1);
  memmove(l->key + i, l->key + i + 1, n * sizeof(uint64_t));
  if (l->params) memmove(l->params + i, l->params + i + 1, n * sizeof(tb_contact_pair_params));
  --l->count;
}

/* Adds (on) or removes (off) key, keeping the order; params replace the stored ones. */
static tb_status keys_set(tb_world* w, tb_pair_keys* l, uint64_t key, int on, const tb_contact_pair_params* params,
                          const char* fn) {
  int32_t at = tb_pair_keys_find(l, key);
  if (!on) {
    if (at >= 0) keys_remove_at(l, at);
    return TB_OK;
  }
  if (at < 0) {
    if (!keys_reserve(l, l->count + 1, params != NULL))
      return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "%s: out of memory for %d pairs", fn, l->count + 1);
    at = 0;
    while (at < l->count && l->key[at] < key) ++at;
    size_t n = (size_t)(l->count - at);
    memmove(l->key + at + 1, l->key + at, n * sizeof(uint64_t));
    if (l->params) memmove(l->params + at + 1, l->params + at, n * sizeof(tb_contact_pair_params));
    l->key[at] = key;
    ++l->count;
  }
  if (params) l->params[at] = *params;
  return TB_OK;
}

static void keys_forget_slot(tb_pair_keys* l, int32_t slot) {
  for (int32_t i = l->count - 1; i >= 0; --i)
    if ((int32_t)(l->key[i] >> 32) == slot || (int32_t)(l->key[i] & 0xFFFFFFFFu) == slot) keys_remove_at(l, i);
}

void tb_filter_forget_shape(tb_world* w, int32_t shape_slot) {
  keys_forget_slot(&w->explicit_pairs, shape_slot);
  keys_forget_slot(&w->shape_exclusions, shape_slot);
  keys_forget_slot(&w->contact_pairs, shape_slot);
}

void tb_filter_forget_body(tb_world* w, int32_t body_slot) {
  keys_forget_slot(&w->body_exclusions, body_slot);
  for (int32_t i = 0; i < w->bodies.count; ++i)
    if (w->bodies.parent[i] == body_slot) w->bodies.parent[i] = -1;
}

void tb_filter_destroy(tb_world* w) {
  keys_free(&w->explicit_pairs);
  keys_free(&w->shape_exclusions);
  keys_free(&w->body_exclusions);
  keys_free(&w->contact_pairs);
}

const tb_contact_pair_params* tb_filter_contact_pair(const tb_world* w, int32_t a, int32_t b) {
  int32_t i = tb_pair_keys_find(&w->contact_pairs, tb_slot_pair_key(a, b));
  return i >= 0 ? &w->contact_pairs.params[i] : NULL;
}

/* ---- the rules ---- */

/* Newton collision groups: 0 none; positive with the same positive or any negative; negative with
 * everything but the same negative. */
static int newton_groups_collide(int32_t ga, int32_t gb) {
  if (ga == 0 || gb == 0) return 0;
  if (ga > 0) return ga == gb || gb < 0;
  return ga != gb;
}

static int bitmask_compatible(const tb_shape_filter* fa, const tb_shape_filter* fb) {
  return (fa->contype & fb->conaffinity) != 0 || (fb->contype & fa->conaffinity) != 0;
}

static int parent_child(const tb_bodies* b, int32_t ba, int32_t bb) {
  return b->parent[ba] == bb || b->parent[bb] == ba;
}

static int32_t physx_flags(const tb_shape_filter* fa, const tb_shape_filter* fb) {
  const uint32_t* a = fa->filter_data;
  const uint32_t* b = fb->filter_data;
  if (a[0] && a[1] && b[0] && b[1] && !((a[0] & b[1]) && (b[0] & a[1]))) return 0;
  if (fa->trigger && fb->trigger) return 0; /* PhysX has no trigger-trigger pairs */
  if (fa->trigger || fb->trigger) return TB_PAIR_DETECT | TB_PAIR_NOTIFY | TB_PAIR_TRIGGER;
  /* eCONTACT_DEFAULT = detect + solve; reports only where the user asked (word2) */
  int32_t f = TB_PAIR_DETECT | TB_PAIR_SOLVE;
  if ((a[2] & b[0]) || (b[2] & a[0])) f |= TB_PAIR_NOTIFY;
  return f;
}

int32_t tb_filter_pair(const tb_world* w, int32_t a, int32_t b) {
  const tb_shapes* s = &w->shapes;
  const tb_bodies* bd = &w->bodies;
  int32_t ba = s->body[a], bb = s->body[b];
  if (ba == bb) return 0;
  /* a pair needs one awake dynamic body: sleeping bodies act as static */
  const int32_t* type = bd->f.body_type;
  int awake_a = type[ba] == TB_BODY_DYNAMIC && !bd->sleeping[ba];
  int awake_b = type[bb] == TB_BODY_DYNAMIC && !bd->sleeping[bb];
  if (!awake_a && !awake_b) return 0;
  if (s->type[a] == TB_SHAPE_PLANE && s->type[b] == TB_SHAPE_PLANE) return 0;
  const tb_shape_filter* fa = &s->filter[a];
  const tb_shape_filter* fb = &s->filter[b];
  const int32_t all = TB_PAIR_DETECT | TB_PAIR_SOLVE | TB_PAIR_NOTIFY;
  switch (w->def.collision.filter_rule) {
    case TB_FILTER_NEWTON:
      if (fa->world >= 0 && fb->world >= 0 && fa->world != fb->world) return 0;
      if (!newton_groups_collide(fa->collision_group, fb->collision_group)) return 0;
      if (tb_pair_keys_find(&w->shape_exclusions, tb_slot_pair_key(a, b)) >= 0) return 0;
      return all;
    case TB_FILTER_MUJOCO:
      /* an explicit pair bypasses the bitmask, parent/child and body exclusions */
      if (tb_pair_keys_find(&w->contact_pairs, tb_slot_pair_key(a, b)) >= 0) return all | TB_PAIR_EXPLICIT;
      if (parent_child(bd, ba, bb)) return 0;
      if (tb_pair_keys_find(&w->body_exclusions, tb_slot_pair_key(ba, bb)) >= 0) return 0;
      return bitmask_compatible(fa, fb) ? all : 0;
    case TB_FILTER_PHYSX:
      return physx_flags(fa, fb);
    case TB_FILTER_GENESIS:
      if (parent_child(bd, ba, bb)) return 0;
      return bitmask_compatible(fa, fb) ? all : 0;
    default:
      return 0;
  }
}

/* ---- public setters ---- */

#define GET_WORLD(fn)                                                                      \
  tb_world* w = tb_world_get(world);                                                       \
  if (!w) return tb_world_fail(NULL, TB_ERR_NOT_FOUND, "%s: world %d does not exist", fn, world)

int32_t tb_shape_slot_checked(tb_world* w, tb_shape_id id, const char* fn) {
  int32_t s = tb_id_slot(id);
  const tb_shapes* sh = &w->shapes;
  if (id < 0 || s >= sh->count || sh->type[s] < 0 || sh->generation[s] != tb_id_gen(id)) {
    tb_world_fail(w, TB_ERR_NOT_FOUND, "%s: shape %d does not exist (never created or removed)", fn, id);
    return -1;
  }
  return s;
}

void tb_default_shape_filter(tb_shape_filter* out) {
  if (!out) return;
  memset(out, 0, sizeof *out);
  out->world = -1;
  out->collision_group = 1;
  out->contype = 1;
  out->conaffinity = 1;
  out->filter_data[0] = 1;           /* group 1 */
  out->filter_data[2] = 0xFFFFFFFFu; /* reports contacts with every group */
}

tb_status tb_shape_set_filter(tb_world_id world, tb_shape_id shape, const tb_shape_filter* filter) {
  const char* fn = "setShapeFilter";
  GET_WORLD(fn);
  int32_t s = tb_shape_slot_checked(w, shape, fn);
  if (s < 0) return TB_ERR_NOT_FOUND;
  if (!filter) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: filter must not be NULL", fn);
  if (filter->world < -1)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: world must be -1 (shared) or >= 0 (got %d)", fn, filter->world);
  if (filter->trigger != 0 && filter->trigger != 1)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: trigger must be 0 or 1 (got %d)", fn, filter->trigger);
  w->shapes.filter[s] = *filter;
  w->collided = 0;
  return TB_OK;
}

tb_status tb_shape_get_filter(tb_world_id world, tb_shape_id shape, tb_shape_filter* out) {
  const char* fn = "getShapeFilter";
  GET_WORLD(fn);
  int32_t s = tb_shape_slot_checked(w, shape, fn);
  if (s < 0) return TB_ERR_NOT_FOUND;
  if (!out) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", fn);
  *out = w->shapes.filter[s];
  return TB_OK;
}

tb_status tb_body_set_parent(tb_world_id world, tb_body_id body, tb_body_id parent) {
  const char* fn = "setParent";
  GET_WORLD(fn);
  int32_t b = tb_body_slot_checked(w, body, fn);
  if (b < 0) return TB_ERR_NOT_FOUND;
  int32_t p = -1;
  if (parent != -1) {
    p = tb_body_slot_checked(w, parent, fn);
    if (p < 0) return TB_ERR_NOT_FOUND;
    if (p == b) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: parent must differ from the body (got %d for body %d)", fn, parent, body);
  }
  w->bodies.parent[b] = p;
  w->collided = 0;
  return TB_OK;
}

tb_status tb_body_get_parent(tb_world_id world, tb_body_id body, tb_body_id* parent) {
  const char* fn = "getParent";
  GET_WORLD(fn);
  int32_t b = tb_body_slot_checked(w, body, fn);
  if (b < 0) return TB_ERR_NOT_FOUND;
  if (!parent) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: parent must not be NULL", fn);
  int32_t p = w->bodies.parent[b];
  *parent = p < 0 ? -1 : tb_make_id(p, w->bodies.generation[p]);
  return TB_OK;
}

tb_status tb_body_set_sleeping(tb_world_id world, tb_body_id body, int32_t asleep) {
  const char* fn = "setSleeping";
  GET_WORLD(fn);
  int32_t b = tb_body_slot_checked(w, body, fn);
  if (b < 0) return TB_ERR_NOT_FOUND;
  if (asleep != 0 && asleep != 1)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: asleep must be 0 or 1 (got %d)", fn, asleep);
  if (w->bodies.f.body_type[b] == TB_BODY_STATIC)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: body %d is static and cannot sleep", fn, body);
  w->bodies.sleeping[b] = (uint8_t)asleep;
  if (asleep) {
    memset(w->bodies.f.linear_velocity + 3 * b, 0, 3 * sizeof(float));
    memset(w->bodies.f.angular_velocity + 3 * b, 0, 3 * sizeof(float));
  }
  w->collided = 0;
  return TB_OK;
}

int32_t tb_body_is_sleeping(tb_world_id world, tb_body_id body) {
  tb_world* w = tb_world_get(world);
  if (!w) return -tb_world_fail(NULL, TB_ERR_NOT_FOUND, "isSleeping: world %d does not exist", world);
  int32_t b = tb_body_slot_checked(w, body, "isSleeping");
  if (b < 0) return -TB_ERR_NOT_FOUND;
  return w->bodies.sleeping[b];
}

/* Two shape ids to slots; distinct shapes required. */
static tb_status shape_pair_slots(tb_world* w, tb_shape_id a, tb_shape_id b, const char* fn, int32_t* sa, int32_t* sb) {
  *sa = tb_shape_slot_checked(w, a, fn);
  if (*sa < 0) return TB_ERR_NOT_FOUND;
  *sb = tb_shape_slot_checked(w, b, fn);
  if (*sb < 0) return TB_ERR_NOT_FOUND;
  if (*sa == *sb) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: the two shapes of a pair must differ (got %d twice)", fn, a);
  return TB_OK;
}

static tb_status check_flag(tb_world* w, const char* fn, const char* field, int32_t v) {
  if (v != 0 && v != 1) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s must be 0 or 1 (got %d)", fn, field, v);
  return TB_OK;
}

tb_status tb_world_set_explicit_pairs(tb_world_id world, const int32_t* shape_ids, int32_t pair_count) {
  const char* fn = "setExplicitPairs";
  GET_WORLD(fn);
  if (pair_count < 0) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: pair_count must be >= 0 (got %d)", fn, pair_count);
  if (pair_count > 0 && !shape_ids) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: shape_ids must not be NULL", fn);
  /* validate everything first: a failed call leaves the list unchanged */
  for (int32_t i = 0; i < pair_count; ++i) {
    int32_t sa, sb;
    tb_status st = shape_pair_slots(w, shape_ids[2 * i], shape_ids[2 * i + 1], fn, &sa, &sb);
    if (st != TB_OK) return st;
  }
  tb_pair_keys* l = &w->explicit_pairs;
  if (!keys_reserve(l, pair_count, 0))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "%s: out of memory for %d pairs", fn, pair_count);
  for (int32_t i = 0; i < pair_count; ++i)
    l->key[i] = tb_slot_pair_key(tb_id_slot(shape_ids[2 * i]), tb_id_slot(shape_ids[2 * i + 1]));
  qsort(l->key, (size_t)pair_count, sizeof(uint64_t), compare_keys);
  int32_t n = 0; /* duplicates collapse */
  for (int32_t i = 0; i < pair_count; ++i)
    if (n == 0 || l->key[n - 1] != l->key[i]) l->key[n++] = l->key[i];
  l->count = n;
  w->collided = 0;
  return TB_OK;
}

tb_status tb_world_set_shape_pair_excluded(tb_world_id world, tb_shape_id a, tb_shape_id b, int32_t excluded) {
  const char* fn = "excludeShapePair";
  GET_WORLD(fn);
  int32_t sa, sb;
  tb_status st = shape_pair_slots(w, a, b, fn, &sa, &sb);
  if (st == TB_OK) st = check_flag(w, fn, "excluded", excluded);
  if (st == TB_OK) st = keys_set(w, &w->shape_exclusions, tb_slot_pair_key(sa, sb), excluded, NULL, fn);
  if (st == TB_OK) w->collided = 0;
  return st;
}

tb_status tb_world_set_body_pair_excluded(tb_world_id world, tb_body_id a, tb_body_id b, int32_t excluded) {
  const char* fn = "excludeBodyPair";
  GET_WORLD(fn);
  int32_t ba = tb_body_slot_checked(w, a, fn);
  if (ba < 0) return TB_ERR_NOT_FOUND;
  int32_t bb = tb_body_slot_checked(w, b, fn);
  if (bb < 0) return TB_ERR_NOT_FOUND;
  if (ba == bb) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: the two bodies of a pair must differ (got %d twice)", fn, a);
  tb_status st = check_flag(w, fn, "excluded", excluded);
  if (st == TB_OK) st = keys_set(w, &w->body_exclusions, tb_slot_pair_key(ba, bb), excluded, NULL, fn);
  if (st == TB_OK) w->collided = 0;
  return st;
}

void tb_contact_pair_default_into(tb_contact_pair_params* out) {
  if (!out) return;
  memset(out, 0, sizeof *out);
  const float fr[5] = {1.0f, 1.0f, 0.005f, 0.0001f, 0.0001f}, imp[5] = {0.9f, 0.95f, 0.001f, 0.5f, 2.0f};
  memcpy(out->friction, fr, sizeof fr);
  out->condim = 3;
  out->solref[0] = 0.02f;
  out->solref[1] = 1.0f;
  memcpy(out->solimp, imp, sizeof imp);
}

tb_status tb_world_set_contact_pair(tb_world_id world, tb_shape_id a, tb_shape_id b, const tb_contact_pair_params* params) {
  const char* fn = "setContactPair";
  GET_WORLD(fn);
  int32_t sa, sb;
  tb_status st = shape_pair_slots(w, a, b, fn, &sa, &sb);
  if (st != TB_OK) return st;
  if (params) {
    if (!tb_is_finite(params->margin))
      return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: margin must be finite (got %g)", fn, (double)params->margin);
    if (!tb_is_finite(params->gap) || params->gap < 0.0f)
      return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: gap must be finite and >= 0 (got %g)", fn, (double)params->gap);
    for (int i = 0; i < 5; ++i)
      if (!tb_is_finite(params->friction[i]) || params->friction[i] < 0.0f)
        return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: friction[%d] must be finite and >= 0 (got %g)", fn, i,
                             (double)params->friction[i]);
    st = tb_mujoco_params_check(w, fn, "", params->condim, params->solref, params->solimp);
    if (st != TB_OK) return st;
    for (int i = 0; i < 2; ++i)
      if (!tb_is_finite(params->solreffriction[i]))
        return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: solreffriction[%d] must be finite (got %g)", fn, i,
                             (double)params->solreffriction[i]);
    if (!tb_is_finite(params->adhesion) || params->adhesion < 0.0f)
      return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: adhesion must be finite and >= 0 (got %g)", fn, (double)params->adhesion);
  }
  st = keys_set(w, &w->contact_pairs, tb_slot_pair_key(sa, sb), params != NULL, params, fn);
  if (st == TB_OK) w->collided = 0;
  return st;
}
