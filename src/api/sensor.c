/* Public API of contact sensors: create, alive, remove, the latest sample and the history
 * (sampling after each solve(): observe/sensor.c). */
#include "../observe/observe.h"
#include "api.h"

tb_sensor_id tb_sensor_create(tb_world_id world, tb_body_id body, tb_body_id with, int32_t capacity) {
  const char* fn = "addContactSensor";
  GET_WORLD_NEG(fn);
  return tb_observe_sensor_create(w, fn, body, with, capacity);
}

int32_t tb_sensor_alive(tb_world_id world, tb_sensor_id sensor) {
  const tb_world* w = tb_world_get(world);
  return w && tb_observe_sensor_alive(w, sensor);
}

tb_status tb_sensor_destroy(tb_world_id world, tb_sensor_id sensor) {
  const char* fn = "removeContactSensor";
  GET_WORLD(fn);
  return tb_observe_sensor_destroy(w, fn, sensor);
}

tb_status tb_sensor_read(tb_world_id world, tb_sensor_id sensor, float force[3], tb_readback_info* info) {
  const char* fn = "readContactSensor";
  GET_WORLD(fn);
  return tb_observe_sensor_read(w, fn, sensor, force, info);
}

int32_t tb_sensor_history(tb_world_id world, tb_sensor_id sensor, float* forces, int32_t* valid, int32_t* steps, int32_t max) {
  const char* fn = "contactSensorHistory";
  GET_WORLD_NEG(fn);
  return tb_observe_sensor_history(w, fn, sensor, forces, valid, steps, max);
}
