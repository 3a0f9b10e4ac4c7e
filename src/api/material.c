/* Public API of shape materials: the default, set (checked, every field) and get. */
#include "../model/material.h"
#include "api.h"

void tb_material_default_into(float friction, float restitution, tb_material* out) {
  if (out) tb_material_defaults(friction, restitution, out);
}

tb_status tb_shape_set_material(tb_world_id world, tb_shape_id shape, const tb_material* material) {
  const char* fn = "setMaterial";
  GET_WORLD(fn);
  int32_t s = tb_shape_slot_checked(w, shape, fn);
  if (s < 0) return TB_ERR_NOT_FOUND;
  if (!material) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: material must not be NULL", fn);
  tb_status st = tb_material_check(w, fn, material);
  if (st != TB_OK) return st;
  tb_shapes* sh = &w->shapes;
  tb_material_memo_release(w); /* the last collide's pairs keep the material they were found with */
  sh->material[s] = *material;
  /* the plain per-shape coefficients follow the material (μ of the mean rules, restitution) */
  sh->friction[s] = material->dynamic_friction;
  sh->restitution[s] = material->restitution;
  return TB_OK;
}

tb_status tb_shape_get_material(tb_world_id world, tb_shape_id shape, tb_material* out) {
  const char* fn = "getMaterial";
  GET_WORLD(fn);
  int32_t s = tb_shape_slot_checked(w, shape, fn);
  if (s < 0) return TB_ERR_NOT_FOUND;
  if (!out) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", fn);
  *out = w->shapes.material[s];
  return TB_OK;
}

