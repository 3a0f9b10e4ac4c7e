/* Material combine rules (placeholder: arithmetic means until the per-preset rules land). */
#include "material.h"

#include <string.h>

#include "../world/world.h"

void tb_combine_materials(const tb_world* w, int32_t s0, int32_t s1, tb_contact_material* out) {
  const tb_shapes* s = &w->shapes;
  memset(out, 0, sizeof *out);
  out->dynamic_friction = 0.5f * (s->friction[s0] + s->friction[s1]);
  out->static_friction = out->dynamic_friction;
  out->restitution = 0.5f * (s->restitution[s0] + s->restitution[s1]);
}
