/* Public API of the field tables: the fields of the body and contact stores and of the world
 * definition by index, the store arrays bindings view in place, and the id checks bindings run
 * before a call (tb_body_alive, tb_id_check). */
#include "../observe/observe.h"
#include "../world/world_def.h"
#include "api.h"

/* Sets: the world definition, the two stores, then the public structs' layouts (core/layouts.c). */
int32_t tb_field_count(tb_field_set set) {
  if (set == TB_FIELDS_WORLD_DEF) return tb_world_def_field_count();
  if (set == TB_FIELDS_BODY || set == TB_FIELDS_CONTACT) return tb_store_field_count(set);
  return tb_layout_count(set);
}

const tb_field_info* tb_field_get(tb_field_set set, int32_t index) {
  if (set == TB_FIELDS_WORLD_DEF) return tb_world_def_field_get(index);
  if (set == TB_FIELDS_BODY || set == TB_FIELDS_CONTACT) return tb_store_field_get(set, index);
  return tb_layout_get(set, index);
}

int32_t tb_field_set_size(tb_field_set set) {
  if (set == TB_FIELDS_WORLD_DEF) return (int32_t)sizeof(tb_world_def);
  return tb_layout_size(set);
}

void* tb_world_field(tb_world_id world, tb_field_set set, int32_t index) {
  tb_world* w = set == TB_FIELDS_CONTACT ? tb_world_get(world) : tb_world_peek(world);
  if (!w) return NULL;
  if (set == TB_FIELDS_BODY) return tb_body_field_ptr(&w->bodies.f, index);
  if (set == TB_FIELDS_CONTACT) return tb_contact_field_ptr(&w->contacts.f, index);
  return NULL;
}

int32_t tb_world_body_slot_count(tb_world_id world) {
  tb_world* w = tb_world_peek(world);
  return w ? w->bodies.count : 0;
}

int32_t tb_body_slot_alive(tb_world_id world, int32_t slot) {
  tb_world* w = tb_world_peek(world);
  return w && slot >= 0 && slot < w->bodies.count && w->bodies.f.body_type[slot] >= 0;
}

int32_t tb_body_alive(tb_world_id world, tb_body_id body) {
  tb_world* w = tb_world_peek(world);
  return w && tb_body_slot_of(w, body) >= 0;
}

int32_t tb_shape_alive(tb_world_id world, tb_shape_id shape) {
  tb_world* w = tb_world_peek(world);
  return w && tb_shape_slot_of(w, shape) >= 0;
}

int32_t tb_id_check(tb_world_id world, tb_id_kind kind, int32_t id) {
  const tb_world* w = tb_world_peek(world);
  if (!w) return TB_ID_NEVER_CREATED;
  switch (kind) {
    case TB_ID_BODY: return tb_body_id_state(w, id);
    case TB_ID_SHAPE: return tb_shape_id_state(w, id);
    case TB_ID_JOINT: return tb_joint_id_state(w, id);
    case TB_ID_SENSOR: return tb_observe_sensor_state(w, id);
    default: return TB_ID_NEVER_CREATED;
  }
}
