/* Observation layer (internal): readback checks shared by every getter, per-body totals, sensor
 * and event storage. Everything reads the contact store, so it works for every solver. */
#ifndef TB_OBSERVE_H
#define TB_OBSERVE_H

#include "../world/world.h"

/* Sensors: structure of arrays indexed by slot; ids pack slot and generation. */
typedef struct tb_sensors {
  int32_t* generation;
  int32_t* body;        /* body id; -1 free slot */
  int32_t* with;        /* counterpart filter (TB_ANY_BODY, -1 static, or a body id) */
  int32_t* capacity;    /* samples in the ring */
  int32_t* head;        /* next write position */
  int32_t* filled;      /* samples stored (<= capacity) */
  float** history;      /* per sensor: 3 * capacity floats, N, world */
  int32_t** valid;      /* per sensor: capacity flags */
  int32_t** steps;      /* per sensor: capacity solve() counters */
  int32_t count, slots;
} tb_sensors;

/* A per-pair threshold: ordered shape ids (lower first) and the value in N. */
typedef struct tb_pair_threshold {
  int32_t shape0, shape1;
  float newtons;
} tb_pair_threshold;

/* One contact of a solve() as the events compare it (sorted by key, then feature). */
typedef struct tb_event_contact {
  uint64_t key;          /* (shape0 id << 32) | shape1 id, ids with generation */
  uint32_t feature;
  int32_t body0, body1;
  float normal_force;    /* N, NaN when not available */
  float point[3];
} tb_event_contact;

/* One pair's total normal force of a solve(), for the threshold events (sorted by key). */
typedef struct tb_event_pair {
  uint64_t key;
  int32_t body0, body1;
  float normal_force;    /* N; NaN when not available */
  float point[3];
} tb_event_pair;

typedef struct tb_observe {
  int32_t solve_count;   /* solve() calls that completed */
  tb_sensors sensors;

  /* events */
  int32_t event_capacity;
  tb_contact_event* events;
  int32_t event_count, event_requested, force_available, event_step;
  float world_threshold; /* N, 0 = off */
  tb_pair_threshold* thresholds;
  int32_t threshold_count, threshold_capacity;
  tb_event_contact* contacts[2]; /* previous and current sets, swapped each solve() */
  int32_t contact_count[2], contact_capacity[2];
  tb_event_pair* pairs[2];
  int32_t pair_count[2], pair_capacity[2];
  int32_t current;               /* index of the latest set in contacts[] / pairs[] */
  int32_t have_previous;         /* the previous set exists (events ran on the last solve()) */
} tb_observe;

/* Creates w->observe on first use; NULL when out of memory (the world error is set). */
tb_observe* tb_observe_get(tb_world* w, const char* fn);
void tb_observe_destroy(tb_world* w);
/* Whether tb_observe_after_solve reads the contact store (a sensor or events are on). */
int tb_observe_reads_contacts(const tb_world* w);
/* Called at the end of every successful solve(): sensors and events. */
void tb_observe_after_solve(tb_world* w, const tb_step_context* step);

/* The readback flags of the current contact set; TB_OK when forces can be read, else
 * TB_ERR_INVALID_STATE with a message naming fn and the reason. info may be NULL. */
tb_status tb_observe_readback(tb_world* w, const char* fn, tb_readback_info* info);

/* Centre of mass of a body slot in world (m), from the current pose. */
tb_vec3 tb_observe_body_center(const tb_world* w, int32_t slot);
/* Body slot of a valid body id, or -1 (world error set, naming fn). */
int32_t tb_observe_body_slot(tb_world* w, tb_body_id id, const char* fn, const char* field);
/* Body slot of side `side` (0/1) of contact-store entry k, or -1 when its shape was removed. */
int32_t tb_observe_contact_body_slot(const tb_world* w, int32_t k, int side);
/* Checks a counterpart filter (TB_ANY_BODY, -1 or an existing body id); TB_OK or an error. */
tb_status tb_observe_check_with(tb_world* w, tb_body_id with, const char* fn);
/* Sum of the contact wrenches on body slot `slot` about its centre of mass, filtered by `with`
 * and flags. Does not check the readback. */
void tb_observe_body_sum(const tb_world* w, int32_t slot, tb_body_id with, int32_t flags, tb_vec3* force,
                         tb_vec3* torque);

void tb_observe_sensors_update(tb_world* w, tb_observe* o, int available);
void tb_observe_sensors_free(tb_sensors* s);
/* Every per-sensor array (slots elements each); returns their count (<= 16). */
int tb_observe_sensor_arrays(tb_sensors* s, tb_array_ref* a);
void tb_observe_events_update(tb_world* w, tb_observe* o, int available, float dt);
void tb_observe_events_free(tb_observe* o);

/* The observation calls behind src/api (sensor.c, event.c, wrench.c): each takes the world of the
 * public call and fn, the call's name in messages, and checks its other arguments. */
tb_sensor_id tb_observe_sensor_create(tb_world* w, const char* fn, tb_body_id body, tb_body_id with, int32_t capacity);
int32_t tb_observe_sensor_alive(const tb_world* w, tb_sensor_id sensor);
tb_id_state tb_observe_sensor_state(const tb_world* w, tb_sensor_id sensor); /* tb_id_check's sensor part */
tb_status tb_observe_sensor_destroy(tb_world* w, const char* fn, tb_sensor_id sensor);
tb_status tb_observe_sensor_read(tb_world* w, const char* fn, tb_sensor_id sensor, float force[3], tb_readback_info* info);
int32_t tb_observe_sensor_history(tb_world* w, const char* fn, tb_sensor_id sensor, float* forces, int32_t* valid,
                                  int32_t* steps, int32_t max);
tb_status tb_observe_set_event_capacity(tb_world* w, const char* fn, int32_t capacity);
tb_status tb_observe_set_force_threshold(tb_world* w, const char* fn, float newtons);
tb_status tb_observe_set_pair_force_threshold(tb_world* w, const char* fn, tb_shape_id shape0, tb_shape_id shape1, float newtons);
tb_status tb_observe_event_status(tb_world* w, const char* fn, tb_event_status* out);
int32_t tb_observe_body_contacts(tb_world* w, const char* fn, tb_body_id body, tb_body_id with, int32_t flags, int32_t* out,
                                 int32_t max);
tb_status tb_observe_body_contact_wrench(tb_world* w, const char* fn, tb_body_id body, tb_body_id with, int32_t flags,
                                         tb_wrench* out, tb_readback_info* info);
tb_status tb_observe_body_contact_wrenches(tb_world* w, const char* fn, int32_t flags, float* out, int32_t slots,
                                           tb_readback_info* info);
tb_status tb_observe_contact_wrench(tb_world* w, const char* fn, int32_t contact, int32_t side, const float point[3],
                                    tb_wrench* out, tb_readback_info* info);
/* The pure wrench tools behind tb_wrench_shift, tb_wrench_reaction, tb_wrench_average and
 * tb_contact_convention_stride (errors to the global message). */
tb_status tb_observe_wrench_shift(const tb_wrench* in, const float to[3], tb_wrench* out);
tb_status tb_observe_wrench_reaction(const tb_wrench* on0, const float c1[3], tb_wrench* out);
tb_status tb_observe_wrench_average(const tb_wrench* samples, const float* h, int32_t count, const float point[3],
                                    tb_wrench* out);
int32_t tb_observe_convention_stride(tb_contact_convention convention);
tb_status tb_observe_contacts_convert(tb_world* w, const char* fn, tb_contact_convention convention, int32_t first,
                                      int32_t count, float* out, tb_readback_info* info);

#endif
