/* Public API of contact events: capacity, force thresholds (world and per pair), status and the
 * events of the last solve() (their detection: observe/events.c). */
#include "../observe/observe.h"
#include "api.h"

tb_status tb_world_set_event_capacity(tb_world_id world, int32_t capacity) {
  const char* fn = "setEventCapacity";
  GET_WORLD(fn);
  return tb_observe_set_event_capacity(w, fn, capacity);
}

tb_status tb_world_set_force_threshold(tb_world_id world, float newtons) {
  const char* fn = "setForceThreshold";
  GET_WORLD(fn);
  return tb_observe_set_force_threshold(w, fn, newtons);
}

tb_status tb_pair_set_force_threshold(tb_world_id world, tb_shape_id shape0, tb_shape_id shape1, float newtons) {
  const char* fn = "setPairForceThreshold";
  GET_WORLD(fn);
  return tb_observe_set_pair_force_threshold(w, fn, shape0, shape1, newtons);
}

tb_status tb_world_event_status(tb_world_id world, tb_event_status* out) {
  const char* fn = "eventStatus";
  GET_WORLD(fn);
  return tb_observe_event_status(w, fn, out);
}

const tb_contact_event* tb_world_events(tb_world_id world) {
  tb_world* w = tb_world_get(world);
  return w && w->observe ? w->observe->events : NULL;
}
