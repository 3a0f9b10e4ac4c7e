/* Public API of the contact store: its status, what the readback includes, per-contact overrides. */
#include <string.h>

#include "api.h"

tb_status tb_world_contact_status(tb_world_id world, tb_contact_status* out) {
  GET_WORLD_PEEK("contactStatus");
  if (!out) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "contactStatus: out must not be NULL");
  out->count = w->contacts.count;
  out->capacity = w->contacts.capacity;
  out->requested = w->contacts.requested;
  out->overflowed = w->contacts.overflowed;
  out->pair_count = w->pair_count;
  out->pair_capacity = w->pair_capacity;
  out->pairs_requested = w->pairs_requested;
  out->pairs_overflowed = w->pairs_overflowed;
  out->grew = w->contacts.grew;
  out->pairs_grew = w->pairs_grew;
  out->readback_valid = w->contacts.readback_valid;
  return TB_OK;
}

tb_status tb_world_readback_info(tb_world_id world, tb_readback_info* out) {
  GET_WORLD("readbackInfo");
  if (!out) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "readbackInfo: out must not be NULL");
  *out = w->readback;
  out->valid = w->contacts.readback_valid && !w->contacts.overflowed;
  return TB_OK;
}

tb_status tb_contact_set_override(tb_world_id world, int32_t contact, float stiffness, float damping, float friction_scale) {
  tb_world* w = tb_world_get(world);
  const char* fn = "setContactOverride";
  if (!w) return tb_world_fail(NULL, TB_ERR_NOT_FOUND, "%s: world %d does not exist", fn, world);
  const struct { const char* name; float v; } f[] = {{"stiffness", stiffness}, {"damping", damping}, {"frictionScale", friction_scale}};
  for (int i = 0; i < 3; ++i)
    if (!tb_is_finite(f[i].v) || f[i].v < 0.0f)
      return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s must be finite and >= 0 (0 = unset) (got %g)", fn, f[i].name, (double)f[i].v);
  if (!w->collided) return tb_world_fail(w, TB_ERR_INVALID_STATE, "%s: call collide() first (overrides apply to its contacts)", fn);
  if (contact < 0 || contact >= w->contacts.count)
    return tb_world_fail(w, TB_ERR_NOT_FOUND, "%s: contact must be in [0, %d) (got %d)", fn, w->contacts.count, contact);
  tb_contact_fields* cf = &w->contacts.f;
  if (!w->overrides_pending) { /* the first override of this collide(): clear the last step's */
    size_t n = (size_t)w->contacts.count;
    memset(cf->override_stiffness, 0, n * sizeof(float));
    memset(cf->override_damping, 0, n * sizeof(float));
    memset(cf->friction_scale, 0, n * sizeof(float));
    w->overrides_pending = 1;
  }
  cf->override_stiffness[contact] = stiffness;
  cf->override_damping[contact] = damping;
  cf->friction_scale[contact] = friction_scale;
  return TB_OK;
}
