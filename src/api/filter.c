/* Public API of filtering: shape filter data, body parent and sleep state, and the slot-pair
 * lists (exclusions, explicit candidates, MuJoCo explicit pairs). The rules are collision/filter.c. */
#include <math.h>
#include <string.h>

#include "../model/material.h"
#include "../solver/island.h"
#include "api.h"

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
  tb_island_set_sleeping(w, b, asleep, w->def.timestep);
  w->collided = 0;
  return TB_OK;
}

int32_t tb_body_is_sleeping(tb_world_id world, tb_body_id body) {
  tb_world* w = tb_world_get(world);
  if (!w) return -tb_world_fail(NULL, TB_ERR_NOT_FOUND, "isSleeping: world %d does not exist", world);
  int32_t b = tb_body_slot_checked(w, body, "isSleeping");
  if (b < 0) return -TB_ERR_NOT_FOUND;
  return w->bodies.f.asleep[b];
}

int32_t tb_body_island(tb_world_id world, tb_body_id body) {
  tb_world* w = tb_world_get(world);
  if (!w) return -tb_world_fail(NULL, TB_ERR_NOT_FOUND, "island: world %d does not exist", world);
  int32_t b = tb_body_slot_checked(w, body, "island");
  if (b < 0) return -TB_ERR_NOT_FOUND;
  int32_t id = w->bodies.island[b];
  return id < 0 ? -1 : tb_make_id(id, w->bodies.generation[id]);
}

tb_status tb_body_sleep_state(tb_world_id world, tb_body_id body, tb_sleep_state* out) {
  tb_world* w = tb_world_get(world);
  if (!w) return tb_world_fail(NULL, TB_ERR_NOT_FOUND, "sleepState: world %d does not exist", world);
  if (!out) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "sleepState: out must not be NULL");
  int32_t b = tb_body_slot_checked(w, body, "sleepState");
  if (b < 0) return TB_ERR_NOT_FOUND;
  if (w->bodies.f.body_type[b] != TB_BODY_DYNAMIC)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "sleepState: body %d is not dynamic (only dynamic bodies sleep by a rule)", body);
  int32_t mode = w->def.solver.sleep.mode;
  out->rule = mode;
  out->wake_counter = mode == TB_SLEEP_PHYSX ? w->bodies.wake_counter[b] : NAN;
  out->cluster_factor = mode == TB_SLEEP_PHYSX ? (float)(1 + w->bodies.counted_interactions[b]) : NAN;
  out->steps_below = mode == TB_SLEEP_GENESIS ? w->bodies.sleep_steps[b] : -1;
  return TB_OK;
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
  if (pair_count > TB_MAX_CAPACITY)
    return tb_world_fail(w, TB_ERR_CAPACITY, "%s: pair_count must be at most %d (got %d)", fn, TB_MAX_CAPACITY, pair_count);
  if (pair_count > 0 && !shape_ids) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: shape_ids must not be NULL", fn);
  /* validate everything first: a failed call leaves the list unchanged */
  for (int32_t i = 0; i < pair_count; ++i) {
    int32_t sa, sb;
    tb_status st = shape_pair_slots(w, shape_ids[2 * i], shape_ids[2 * i + 1], fn, &sa, &sb);
    if (st != TB_OK) return st;
  }
  tb_pair_keys* l = &w->explicit_pairs;
  if (!tb_pair_keys_reserve(l, pair_count, 0))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "%s: out of memory for %d pairs", fn, pair_count);
  for (int32_t i = 0; i < pair_count; ++i)
    l->key[i] = tb_slot_pair_key(tb_id_slot(shape_ids[2 * i]), tb_id_slot(shape_ids[2 * i + 1]));
  l->count = pair_count;
  tb_pair_keys_sort_unique(l);
  w->collided = 0;
  return TB_OK;
}

tb_status tb_world_set_shape_pair_excluded(tb_world_id world, tb_shape_id a, tb_shape_id b, int32_t excluded) {
  const char* fn = "excludeShapePair";
  GET_WORLD(fn);
  int32_t sa, sb;
  tb_status st = shape_pair_slots(w, a, b, fn, &sa, &sb);
  if (st == TB_OK) st = check_flag(w, fn, "excluded", excluded);
  if (st == TB_OK) st = tb_pair_keys_set(w, &w->shape_exclusions, tb_slot_pair_key(sa, sb), excluded, NULL, fn);
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
  if (st == TB_OK) st = tb_pair_keys_set(w, &w->body_exclusions, tb_slot_pair_key(ba, bb), excluded, NULL, fn);
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

tb_status tb_contact_pair_check(tb_world* w, const char* fn, const tb_contact_pair_params* params) {
  if (!tb_is_finite(params->margin))
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: margin must be finite (got %g)", fn, (double)params->margin);
  if (!tb_is_finite(params->gap) || params->gap < 0.0f)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: gap must be finite and >= 0 (got %g)", fn, (double)params->gap);
  for (int i = 0; i < 5; ++i)
    if (!tb_is_finite(params->friction[i]) || params->friction[i] < 0.0f)
      return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: friction[%d] must be finite and >= 0 (got %g)", fn, i,
                           (double)params->friction[i]);
  tb_status st = tb_mujoco_contact_params_check(w, fn, "", params->condim, params->solref, params->solimp);
  if (st != TB_OK) return st;
  for (int i = 0; i < 2; ++i)
    if (!tb_is_finite(params->solreffriction[i]))
      return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: solreffriction[%d] must be finite (got %g)", fn, i,
                           (double)params->solreffriction[i]);
  if (!tb_is_finite(params->adhesion) || params->adhesion < 0.0f)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: adhesion must be finite and >= 0 (got %g)", fn, (double)params->adhesion);
  return TB_OK;
}

tb_status tb_world_set_contact_pair(tb_world_id world, tb_shape_id a, tb_shape_id b, const tb_contact_pair_params* params) {
  const char* fn = "setContactPair";
  GET_WORLD(fn);
  int32_t sa, sb;
  tb_status st = shape_pair_slots(w, a, b, fn, &sa, &sb);
  if (st != TB_OK) return st;
  if (params) {
    st = tb_contact_pair_check(w, fn, params);
    if (st != TB_OK) return st;
  }
  st = tb_pair_keys_set(w, &w->contact_pairs, tb_slot_pair_key(sa, sb), params != NULL, params, fn);
  if (st == TB_OK) w->collided = 0;
  return st;
}
