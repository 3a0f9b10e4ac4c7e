/* The world registry and the id checks: worlds, bodies and shapes are named by ids that pack a
 * slot and a generation (Box2D's b2WorldId / b2BodyId), so a stale id never reaches a reused slot. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "world.h"

static tb_world s_worlds[TB_MAX_WORLDS];
static char s_global_error[TB_ERROR_LEN];

static int32_t world_id(int32_t slot, int32_t gen) { return (gen << TB_WORLD_SLOT_BITS) | slot; }

tb_world* tb_world_get(tb_world_id id) {
  if (id < 0) return NULL;
  int32_t slot = tb_world_id_slot(id), gen = id >> TB_WORLD_SLOT_BITS;
  if (!s_worlds[slot].alive || s_worlds[slot].generation != gen) return NULL;
  return &s_worlds[slot];
}

tb_world* tb_world_claim(tb_world_id* id) {
  for (int32_t i = 0; i < TB_MAX_WORLDS; ++i)
    if (!s_worlds[i].alive && s_worlds[i].generation <= TB_WORLD_GEN_MAX) {
      tb_world* w = &s_worlds[i];
      int32_t gen = w->generation;
      memset(w, 0, sizeof *w);
      w->generation = gen;
      w->undo_body = -1;
      *id = world_id(i, gen);
      return w;
    }
  return NULL;
}

void tb_world_publish(tb_world* w) { w->alive = 1; }

void tb_world_release(tb_world* w) {
  int32_t gen = w->generation;
  memset(w, 0, sizeof *w);
  w->generation = gen + 1; /* the released id no longer resolves; past TB_WORLD_GEN_MAX the slot is retired */
}

tb_status tb_world_fail(tb_world* w, tb_status status, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  vsnprintf(w ? w->error : s_global_error, TB_ERROR_LEN, fmt, args);
  va_end(args);
  return status;
}

const char* tb_world_error_text(const tb_world* w) { return w ? w->error : s_global_error; }

const char* tb_shape_type_name(int32_t t) { return tb_enum_label(TB_ENUM_SHAPE_TYPE, t); }

int32_t tb_body_slot_of(const tb_world* w, tb_body_id id) {
  const tb_bodies* b = &w->bodies;
  int32_t slot = tb_id_slot(id);
  if (id < 0 || slot >= b->count || b->f.body_type[slot] < 0 || b->generation[slot] != tb_id_gen(id)) return -1;
  return slot;
}

int32_t tb_shape_slot_of(const tb_world* w, tb_shape_id id) {
  const tb_shapes* s = &w->shapes;
  int32_t slot = tb_id_slot(id);
  if (id < 0 || slot >= s->count || s->type[slot] < 0 || s->generation[slot] != tb_id_gen(id)) return -1;
  return slot;
}

int32_t tb_joint_slot_of(const tb_world* w, tb_joint_id id) {
  const tb_joints* j = &w->joints;
  int32_t slot = tb_id_slot(id);
  if (id < 0 || slot >= j->count || j->def[slot].type < 0 || j->generation[slot] != tb_id_gen(id)) return -1;
  return slot;
}

int32_t tb_joint_slot_checked(tb_world* w, tb_joint_id id, const char* fn) {
  int32_t slot = tb_joint_slot_of(w, id);
  if (slot < 0) tb_world_fail(w, TB_ERR_NOT_FOUND, "%s: joint %d does not exist (never created or removed)", fn, id);
  return slot;
}

int32_t tb_body_slot_checked(tb_world* w, tb_body_id id, const char* fn) {
  int32_t slot = tb_body_slot_of(w, id);
  if (slot < 0) tb_world_fail(w, TB_ERR_NOT_FOUND, "%s: body %d does not exist (never created or removed)", fn, id);
  return slot;
}

int32_t tb_shape_slot_checked(tb_world* w, tb_shape_id id, const char* fn) {
  int32_t slot = tb_shape_slot_of(w, id);
  if (slot < 0) tb_world_fail(w, TB_ERR_NOT_FOUND, "%s: shape %d does not exist (never created or removed)", fn, id);
  return slot;
}
