/* Observation layer: lazily created storage, the readback check every getter shares, and the
 * hook that runs sensors and events after each solve(). */
#include "observe.h"

#include <string.h>

/* js/observe.js keeps a tb_readback_info in 128 scratch bytes and a wrench in 64 */
_Static_assert(sizeof(tb_readback_info) <= 128, "tb_readback_info: grow INFO_AT room in js/observe.js");
_Static_assert(sizeof(tb_wrench) <= 64, "tb_wrench: the JS binding keeps it in 64 scratch bytes");

tb_observe* tb_observe_get(tb_world* w, const char* fn) {
  if (w->observe) return w->observe;
  tb_observe* o = (tb_observe*)tb_alloc_zero(sizeof(tb_observe));
  if (!o) {
    tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "%s: out of memory for the observation state", fn);
    return NULL;
  }
  w->observe = o;
  return o;
}

void tb_observe_destroy(tb_world* w) {
  tb_observe* o = w->observe;
  if (!o) return;
  tb_observe_sensors_free(&o->sensors);
  tb_observe_events_free(o);
  tb_free(o, sizeof *o);
  w->observe = NULL;
}

tb_status tb_observe_readback(tb_world* w, const char* fn, tb_readback_info* info) {
  tb_readback_info r = w->readback;
  r.valid = w->contacts.readback_valid && !w->contacts.overflowed;
  if (info) *info = r;
  if (!r.per_contact_force) {
    int32_t s = w->def.solver.solver;
    return tb_world_fail(w, TB_ERR_INVALID_STATE,
                         "%s: not available: the %s solver computes no per-contact force (readback.per_contact_force = 0)", fn,
                         tb_enum_label(TB_ENUM_SOLVER, s));
  }
  if (w->contacts.overflowed)
    return tb_world_fail(w, TB_ERR_INVALID_STATE,
                         "%s: not available: the contact store overflowed (requested %d > capacity %d), raise the contact capacity",
                         fn, w->contacts.requested, w->contacts.capacity);
  if (!w->contacts.readback_valid)
    return tb_world_fail(w, TB_ERR_INVALID_STATE, "%s: not available: no solve() has filled the contacts of the last collide()", fn);
  return TB_OK;
}

tb_vec3 tb_observe_body_center(const tb_world* w, int32_t slot) {
  return tb_transform_point(tb_body_pose(&w->bodies, slot), w->bodies.local_center[slot]);
}

int32_t tb_observe_body_slot(tb_world* w, tb_body_id id, const char* fn, const char* field) {
  int32_t slot = tb_body_slot_of(w, id);
  if (slot < 0) tb_id_fail(w, tb_body_id_state(w, id), fn, field, id);
  return slot;
}

tb_status tb_observe_check_with(tb_world* w, tb_body_id with, const char* fn) {
  if (with == TB_ANY_BODY || with == -1) return TB_OK;
  if (with < 0)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: with must be TB_ANY_BODY (-2), -1 (static) or a body id (got %d)", fn, with);
  return tb_observe_body_slot(w, with, fn, "with body") < 0 ? TB_ERR_NOT_FOUND : TB_OK;
}

int tb_observe_reads_contacts(const tb_world* w) {
  const tb_observe* o = w->observe;
  return o && (o->sensors.count > 0 || o->event_capacity > 0);
}

void tb_observe_after_solve(tb_world* w, const tb_step_context* step) {
  tb_observe* o = w->observe;
  if (!o) return;
  o->solve_count++;
  tb_readback_info r = w->readback;
  int available = r.per_contact_force && w->contacts.readback_valid && !w->contacts.overflowed;
  tb_observe_sensors_update(w, o, available);
  tb_observe_events_update(w, o, available, step->dt);
}
