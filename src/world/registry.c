/* The world registry and the id checks: worlds, bodies and shapes are named by ids that pack a
 * slot and a generation (Box2D's b2WorldId / b2BodyId), so a stale id never reaches a reused slot. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "world.h"

static tb_world s_worlds[TB_MAX_WORLDS];
static char s_global_error[TB_ERROR_LEN];

static int32_t world_id(int32_t slot, int32_t gen) { return (gen << TB_WORLD_SLOT_BITS) | slot; }

tb_world* tb_world_lookup(tb_world_id id) {
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
      w->id_salt = TB_ID_WORLD_BAND * i;
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
  char* out = w ? w->error : s_global_error;
  va_list args;
  va_start(args, fmt);
  int n = vsnprintf(out, TB_ERROR_LEN, fmt, args);
  va_end(args);
  if (n >= TB_ERROR_LEN) {
    /* cut: end on a whole UTF-8 character (not inside a multi-byte one) followed by the marker */
    static const char marker[] = "\xE2\x80\xA6"; /* U+2026 … */
    size_t at = TB_ERROR_LEN - sizeof marker;
    while (at > 0 && ((unsigned char)out[at] & 0xC0) == 0x80) --at;
    memcpy(out + at, marker, sizeof marker);
  }
  return status;
}

const char* tb_world_error_text(const tb_world* w) { return w ? w->error : s_global_error; }

const char* tb_shape_type_name(int32_t t) { return tb_enum_label(TB_ENUM_SHAPE_TYPE, t); }

tb_id_state tb_id_classify(const tb_world* w, int32_t id, int32_t count, const int32_t* generation, int live) {
  int32_t slot = tb_id_slot(id), gen = tb_id_gen(id);
  if (id < 0) return TB_ID_NEVER_CREATED;
  /* a slot this world never handed out: its first id would carry the world's salt */
  if (slot >= count || !generation) return gen == w->id_salt ? TB_ID_NEVER_CREATED : TB_ID_FOREIGN;
  if (gen == generation[slot]) return live ? TB_ID_LIVE : TB_ID_REMOVED; /* (a retired slot keeps its last) */
  /* generations counted from the salt: older ones were handed out and removed, newer ones never */
  int32_t age = (gen - w->id_salt) & TB_ID_GEN_MASK, now = (generation[slot] - w->id_salt) & TB_ID_GEN_MASK;
  return age < now ? TB_ID_REMOVED : TB_ID_FOREIGN;
}

tb_status tb_id_fail(tb_world* w, tb_id_state state, const char* fn, const char* field, int32_t id) {
  static const char* const why[] = {"", "removed", "never created", "an id of another world"};
  return tb_world_fail(w, TB_ERR_NOT_FOUND, "%s: %s %d does not exist in this world (%s)", fn, field, id,
                       why[state > 0 && state < TB_ID_STATE_COUNT ? state : TB_ID_NEVER_CREATED]);
}

tb_id_state tb_body_id_state(const tb_world* w, tb_body_id id) {
  const tb_bodies* b = &w->bodies;
  int32_t slot = tb_id_slot(id);
  return tb_id_classify(w, id, b->count, b->generation, slot < b->count && b->f.body_type[slot] >= 0);
}

tb_id_state tb_shape_id_state(const tb_world* w, tb_shape_id id) {
  const tb_shapes* s = &w->shapes;
  int32_t slot = tb_id_slot(id);
  return tb_id_classify(w, id, s->count, s->generation, slot < s->count && s->type[slot] >= 0);
}

tb_id_state tb_joint_id_state(const tb_world* w, tb_joint_id id) {
  const tb_joints* j = &w->joints;
  int32_t slot = tb_id_slot(id);
  return tb_id_classify(w, id, j->count, j->generation, slot < j->count && j->def[slot].type >= 0);
}

int32_t tb_body_slot_of(const tb_world* w, tb_body_id id) { return tb_body_id_state(w, id) == TB_ID_LIVE ? tb_id_slot(id) : -1; }
int32_t tb_shape_slot_of(const tb_world* w, tb_shape_id id) { return tb_shape_id_state(w, id) == TB_ID_LIVE ? tb_id_slot(id) : -1; }
int32_t tb_joint_slot_of(const tb_world* w, tb_joint_id id) { return tb_joint_id_state(w, id) == TB_ID_LIVE ? tb_id_slot(id) : -1; }
int32_t tb_shape_body_slot(const tb_world* w, tb_shape_id id) {
  int32_t s = tb_shape_slot_of(w, id);
  return s < 0 ? -1 : w->shapes.body[s];
}


int32_t tb_joint_slot_checked(tb_world* w, tb_joint_id id, const char* fn) {
  tb_id_state st = tb_joint_id_state(w, id);
  if (st != TB_ID_LIVE) return tb_id_fail(w, st, fn, "joint", id), -1;
  return tb_id_slot(id);
}

int32_t tb_body_slot_checked(tb_world* w, tb_body_id id, const char* fn) {
  tb_id_state st = tb_body_id_state(w, id);
  if (st != TB_ID_LIVE) return tb_id_fail(w, st, fn, "body", id), -1;
  return tb_id_slot(id);
}

int32_t tb_shape_slot_checked(tb_world* w, tb_shape_id id, const char* fn) {
  tb_id_state st = tb_shape_id_state(w, id);
  if (st != TB_ID_LIVE) return tb_id_fail(w, st, fn, "shape", id), -1;
  return tb_id_slot(id);
}
