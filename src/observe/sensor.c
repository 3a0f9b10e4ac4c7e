/* Contact sensors: the linear contact force on a body (optionally only from one counterpart),
 * sampled after every solve() into a ring buffer whose capacity is fixed at creation. */
#include <math.h>
#include <string.h>

#include "observe.h"

#define MAX_SENSOR_CAPACITY (1 << 20)

int tb_observe_sensor_arrays(tb_sensors* s, tb_array_ref* a) {
  int n = 0;
  TB_ARRAY_REF(a, n, s, generation, sizeof(int32_t));
  TB_ARRAY_REF(a, n, s, body, sizeof(int32_t));
  TB_ARRAY_REF(a, n, s, with, sizeof(int32_t));
  TB_ARRAY_REF(a, n, s, capacity, sizeof(int32_t));
  TB_ARRAY_REF(a, n, s, head, sizeof(int32_t));
  TB_ARRAY_REF(a, n, s, filled, sizeof(int32_t));
  TB_ARRAY_REF(a, n, s, history, sizeof(float*));
  TB_ARRAY_REF(a, n, s, valid, sizeof(int32_t*));
  TB_ARRAY_REF(a, n, s, steps, sizeof(int32_t*));
  return n;
}

static void free_ring(tb_sensors* s, int32_t i) {
  size_t cap = (size_t)s->capacity[i];
  tb_free(s->history[i], 3 * cap * sizeof(float));
  tb_free(s->valid[i], cap * sizeof(int32_t));
  tb_free(s->steps[i], cap * sizeof(int32_t));
  s->history[i] = NULL; s->valid[i] = NULL; s->steps[i] = NULL;
}

void tb_observe_sensors_free(tb_sensors* s) {
  for (int32_t i = 0; i < s->count; ++i)
    if (s->body[i] >= 0) free_ring(s, i);
  tb_array_ref a[16];
  tb_free_arrays(a, tb_observe_sensor_arrays(s, a), s->slots);
  memset(s, 0, sizeof *s);
}

tb_sensor_id tb_observe_sensor_create(tb_world* w, const char* fn, tb_body_id body, tb_body_id with, int32_t capacity) {
  if (tb_observe_body_slot(w, body, fn, "body") < 0) return -TB_ERR_NOT_FOUND;
  tb_status st = tb_observe_check_with(w, with, fn);
  if (st != TB_OK) return -st;
  if (capacity < 1 || capacity > MAX_SENSOR_CAPACITY)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: capacity must be in [1, %d] (got %d)", fn, MAX_SENSOR_CAPACITY, capacity);
  tb_observe* o = tb_observe_get(w, fn);
  if (!o) return -TB_ERR_OUT_OF_MEMORY;
  tb_sensors* s = &o->sensors;
  int32_t i = 0;
  while (i < s->count && s->body[i] != -1) ++i; /* first free slot (-2: retired) */
  if (i == s->count) {
    if (s->count >= TB_ID_INDEX_MASK) return -tb_world_fail(w, TB_ERR_CAPACITY, "%s: at most %d sensors", fn, TB_ID_INDEX_MASK);
    if (s->count == s->slots) {
      int32_t n = s->slots ? 2 * s->slots : 8;
      tb_array_ref a[16];
      if (!tb_grow_arrays(a, tb_observe_sensor_arrays(s, a), s->slots, n))
        return -tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "%s: out of memory for %d sensors", fn, n);
      for (int32_t k = s->slots; k < n; ++k) s->generation[k] = w->id_salt;
      s->slots = n;
    }
  }
  size_t cap = (size_t)capacity;
  float* h = (float*)tb_alloc_array(3 * cap, sizeof(float)); /* cap <= MAX_SENSOR_CAPACITY */
  int32_t* v = (int32_t*)tb_alloc_array(cap, sizeof(int32_t));
  int32_t* k = (int32_t*)tb_alloc_array(cap, sizeof(int32_t));
  if (!h || !v || !k) {
    tb_free(h, 3 * cap * sizeof(float)); tb_free(v, cap * sizeof(int32_t)); tb_free(k, cap * sizeof(int32_t));
    return -tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "%s: out of memory for a history of %d samples", fn, capacity);
  }
  if (i == s->count) s->count++;
  tb_undo_forget(w); /* the sensor names the body: it can no longer be discarded */
  s->body[i] = body;
  s->with[i] = with;
  s->capacity[i] = capacity;
  s->head[i] = 0;
  s->filled[i] = 0;
  s->history[i] = h; s->valid[i] = v; s->steps[i] = k;
  return tb_make_id(i, s->generation[i]);
}

tb_id_state tb_observe_sensor_state(const tb_world* w, tb_sensor_id sensor) {
  const tb_sensors* s = w->observe ? &w->observe->sensors : NULL;
  int32_t i = tb_id_slot(sensor), count = s ? s->count : 0;
  return tb_id_classify(w, sensor, count, s ? s->generation : NULL, i < count && s->body[i] >= 0);
}

int32_t tb_observe_sensor_alive(const tb_world* w, tb_sensor_id sensor) { return tb_observe_sensor_state(w, sensor) == TB_ID_LIVE; }

/* Sensor slot of a live sensor id, or -1 (error set). */
static int32_t sensor_slot(tb_world* w, tb_sensor_id id, const char* fn) {
  tb_id_state st = tb_observe_sensor_state(w, id);
  if (st != TB_ID_LIVE) return tb_id_fail(w, st, fn, "sensor", id), -1;
  return tb_id_slot(id);
}

tb_status tb_observe_sensor_destroy(tb_world* w, const char* fn, tb_sensor_id sensor) {
  int32_t i = sensor_slot(w, sensor, fn);
  if (i < 0) return TB_ERR_NOT_FOUND;
  tb_sensors* s = &w->observe->sensors;
  free_ring(s, i);
  s->body[i] = tb_slot_release(&s->generation[i], w->id_salt) ? -1 : -2; /* -2: retired, never reused */
  return TB_OK;
}

void tb_observe_sensors_update(tb_world* w, tb_observe* o, int available) {
  tb_sensors* s = &o->sensors;
  for (int32_t i = 0; i < s->count; ++i) {
    if (s->body[i] < 0) continue;
    const tb_bodies* b = &w->bodies;
    int32_t slot = tb_id_slot(s->body[i]);
    int alive = slot < b->count && b->f.body_type[slot] >= 0 && b->generation[slot] == tb_id_gen(s->body[i]);
    int32_t with = s->with[i];
    if (with >= 0) {
      int32_t ws = tb_id_slot(with);
      alive = alive && ws < b->count && b->f.body_type[ws] >= 0 && b->generation[ws] == tb_id_gen(with);
    }
    tb_vec3 f = tb_v3(NAN, NAN, NAN), t;
    int ok = available && alive;
    if (ok) tb_observe_body_sum(w, slot, with, TB_OBSERVE_EXCLUDE_SELF, &f, &t);
    int32_t h = s->head[i];
    float* dst = s->history[i] + 3 * h;
    dst[0] = f.x; dst[1] = f.y; dst[2] = f.z;
    s->valid[i][h] = ok;
    s->steps[i][h] = o->solve_count;
    s->head[i] = (h + 1) % s->capacity[i];
    if (s->filled[i] < s->capacity[i]) s->filled[i]++;
  }
}

tb_status tb_observe_sensor_read(tb_world* w, const char* fn, tb_sensor_id sensor, float force[3], tb_readback_info* info) {
  int32_t i = sensor_slot(w, sensor, fn);
  if (i < 0) return TB_ERR_NOT_FOUND;
  if (!force) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: force must not be NULL", fn);
  tb_sensors* s = &w->observe->sensors;
  if (info) {
    *info = w->readback;
    info->valid = w->contacts.readback_valid && !w->contacts.overflowed;
  }
  if (s->filled[i] == 0) return tb_world_fail(w, TB_ERR_INVALID_STATE, "%s: sensor %d has no sample yet (no solve() since it was created)", fn, sensor);
  int32_t last = (s->head[i] + s->capacity[i] - 1) % s->capacity[i];
  if (!s->valid[i][last]) {
    return tb_world_fail(w, TB_ERR_INVALID_STATE, "%s: sensor %d: the latest sample is not available (%s)", fn, sensor,
                         w->readback.per_contact_force ? "invalid readback or a removed body" : "the solver computes no per-contact force");
  }
  memcpy(force, s->history[i] + 3 * last, 3 * sizeof(float));
  return TB_OK;
}

int32_t tb_observe_sensor_history(tb_world* w, const char* fn, tb_sensor_id sensor, float* forces, int32_t* valid, int32_t* steps, int32_t max) {
  int32_t i = sensor_slot(w, sensor, fn);
  if (i < 0) return -TB_ERR_NOT_FOUND;
  if (max < 0) return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: max must be >= 0 (got %d)", fn, max);
  if (!forces && max > 0) return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: forces must not be NULL", fn);
  const tb_sensors* s = &w->observe->sensors;
  int32_t n = s->filled[i] < max ? s->filled[i] : max;
  int32_t cap = s->capacity[i];
  /* the n newest samples, oldest first */
  int32_t start = (s->head[i] - n + cap) % cap;
  for (int32_t j = 0; j < n; ++j) {
    int32_t r = (start + j) % cap;
    memcpy(forces + 3 * j, s->history[i] + 3 * r, 3 * sizeof(float));
    if (valid) valid[j] = s->valid[i][r];
    if (steps) steps[j] = s->steps[i][r];
  }
  return n;
}
