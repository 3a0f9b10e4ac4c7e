/* Public API of worlds: the definition's defaults and presets, lifecycle, definition setters and
 * getters, status, the last error, and the three pipeline calls collide() / solve() / step()
 * (src/step). */
#include <string.h>

#include "../collision/broad_phase.h"
#include "../collision/narrow_phase.h"
#include "../core/jobs.h"
#include "../model/material.h"
#include "../observe/observe.h"
#include "../solver/mujoco.h"
#include "../solver/newton.h"
#include "../solver/solver.h"
#include "../step/step.h"
#include "../world/world_def.h"
#include "api.h"

tb_world_def tb_default_world_def(void) { return tb_world_def_default(); }

void tb_default_world_def_into(tb_world_def* out) {
  if (out) *out = tb_world_def_default();
}

int32_t tb_world_def_size(void) { return (int32_t)sizeof(tb_world_def); }

tb_status tb_preset_apply(tb_preset preset, tb_world_def* def) { return tb_world_def_apply_preset(preset, def); }

tb_world* tb_world_get(tb_world_id id) {
  tb_world* w = tb_world_lookup(id);
  if (w) {
    tb_step_contacts_ready(w);
    tb_step_status_ready(w);
  }
  return w;
}

tb_world* tb_world_peek(tb_world_id id) { return tb_world_lookup(id); }

const char* tb_last_error(tb_world_id world) { return tb_world_error_text(tb_world_peek(world)); }

/* Everything a world owns, freed: world storage, then each layer's scratch. */
void tb_world_destroy_storage(tb_world* w) {
  tb_world_storage_free(w, tb_shape_data_free);
  tb_solver_destroy(w);
  tb_newton_destroy(w);
  tb_mujoco_destroy(w);
  tb_kamino_destroy(w);
  tb_broad_phase_destroy(w);
  tb_material_memo_destroy(w);
  tb_observe_destroy(w); /* observation: sensors and events */
}

tb_world_id tb_world_create(const tb_world_def* def) {
  const char* fn = "createWorld";
  if (!def) return -tb_world_fail(NULL, TB_ERR_INVALID_ARGUMENT, "createWorld: def must not be null");
  tb_world_id id;
  tb_world* w = tb_world_claim(&id);
  if (!w) return -tb_world_fail(NULL, TB_ERR_CAPACITY, "createWorld: at most %d worlds may exist at once", TB_MAX_WORLDS);
  tb_status st = tb_world_def_check(def, fn);
  if (st != TB_OK) return -st;

  w->def = *def;
  w->last_stage = -1; /* TB_STAGE_NONE: no stage has run */
  w->bodies.free_head = -1;
  w->shapes.free_head = -1;
  w->joints.free_head = -1;
  int ok = tb_bodies_grow(&w->bodies, def->body_capacity) && tb_shapes_grow(&w->shapes, def->body_capacity) &&
           tb_pairs_grow(w, def->pair_capacity) && tb_contacts_grow(&w->contacts, def->contact_capacity);
  ok = ok && tb_solver_create(w);
  if (!ok) {
    tb_world_destroy_storage(w);
    tb_world_release(w);
    return -tb_world_fail(NULL, TB_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
  }
  tb_jobs_reserve(def->thread_count);
  tb_world_publish(w);
  return id;
}

tb_status tb_world_destroy(tb_world_id world) {
  tb_world* w = tb_world_peek(world);
  if (!w) return tb_world_fail(NULL, TB_ERR_NOT_FOUND, "free: world %d does not exist", world);
  tb_world_destroy_storage(w);
  tb_world_release(w);
  return TB_OK;
}

tb_status tb_world_set_gravity(tb_world_id world, const float gravity[3]) {
  GET_WORLD("setGravity");
  if (!tb_check_within(w, "setGravity", "gravity", gravity, TB_MAX_GRAVITY, "m/s²")) return TB_ERR_INVALID_ARGUMENT;
  memcpy(w->def.gravity, gravity, sizeof w->def.gravity);
  return TB_OK;
}

tb_status tb_world_set_timestep(tb_world_id world, float timestep) {
  GET_WORLD("setTimestep");
  tb_status st = tb_timestep_check(w, "setTimestep", timestep);
  if (st != TB_OK) return st;
  w->def.timestep = timestep;
  return TB_OK;
}

tb_status tb_world_set_solver(tb_world_id world, const tb_solver_params* params) {
  GET_WORLD("setSolver");
  tb_status st = tb_solver_params_check(w, "setSolver", params);
  if (st != TB_OK) return st;
  w->def.solver = *params;
  tb_world_static_bounds_stale(w); /* the speculative distance */
  return TB_OK;
}

tb_status tb_world_set_collision(tb_world_id world, const tb_collision_params* params) {
  GET_WORLD("setCollision");
  if (!params) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "setCollision: params must not be NULL");
  tb_status st = tb_collision_params_check(w, "setCollision", params);
  if (st != TB_OK) return st;
  w->def.collision = *params;
  tb_world_static_bounds_stale(w); /* the distance rule, the constant gap */
  return TB_OK;
}

tb_status tb_world_set_preset(tb_world_id world, tb_preset preset) {
  GET_WORLD("setPreset");
  tb_world_def d = w->def;
  if (tb_world_def_apply_preset(preset, &d) != TB_OK)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "setPreset: preset must be in [0, %d) (got %d)", TB_PRESET_COUNT, (int)preset);
  w->def = d;
  tb_world_static_bounds_stale(w);
  return TB_OK;
}

tb_status tb_world_get_def(tb_world_id world, tb_world_def* out) {
  GET_WORLD_PEEK("getDef");
  if (!out) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "getDef: out must not be NULL");
  *out = w->def;
  return TB_OK;
}

tb_status tb_world_set_contact_capacity(tb_world_id world, int32_t capacity) {
  GET_WORLD("setContactCapacity");
  if (capacity < 1)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "setContactCapacity: capacity must be >= 1 (got %d)", capacity);
  if (capacity > TB_MAX_CAPACITY)
    return tb_world_fail(w, TB_ERR_CAPACITY, "setContactCapacity: capacity must be at most %d (got %d)", TB_MAX_CAPACITY, capacity);
  if (capacity <= w->contacts.capacity) return TB_OK;
  /* the records move with the store: the world keeps its contacts, readback and collide() */
  if (!tb_contacts_grow(&w->contacts, capacity))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "setContactCapacity: out of memory for %d contacts", capacity);
  return TB_OK;
}

tb_status tb_world_set_pair_capacity(tb_world_id world, int32_t capacity) {
  GET_WORLD("setPairCapacity");
  if (capacity < 1)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "setPairCapacity: capacity must be >= 1 (got %d)", capacity);
  if (capacity > TB_MAX_CAPACITY)
    return tb_world_fail(w, TB_ERR_CAPACITY, "setPairCapacity: capacity must be at most %d (got %d)", TB_MAX_CAPACITY, capacity);
  if (capacity <= w->pair_capacity) return TB_OK;
  /* the pairs and their manifolds move with the arrays: the world keeps them and its collide() */
  if (!tb_pairs_grow(w, capacity))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "setPairCapacity: out of memory for %d pairs", capacity);
  return TB_OK;
}

tb_status tb_world_solver_status(tb_world_id world, tb_solver_status* out) {
  GET_WORLD_PEEK("solverStatus");
  if (!out) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "solverStatus: out must not be NULL");
  tb_step_status_ready(w);
  *out = w->status;
  return TB_OK;
}

tb_status tb_world_solver_reset(tb_world_id world) {
  GET_WORLD("resetSolver");
  tb_solver_forget_warm_starts(w);
  return TB_OK;
}

tb_status tb_world_step_stats(tb_world_id world, tb_step_stats* out) {
  GET_WORLD_PEEK("stepStats");
  if (!out) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "stepStats: out must not be NULL");
  *out = w->stats;
  return TB_OK;
}

tb_status tb_world_collide(tb_world_id world) {
  GET_WORLD_PEEK("collide");
  return tb_step_collide(w);
}

tb_status tb_world_solve(tb_world_id world) {
  GET_WORLD_PEEK("solve");
  if (!w->collided)
    return tb_world_fail(w, TB_ERR_INVALID_STATE, "solve: call collide() first (the contacts are stale or missing)");
  return tb_step_solve(w);
}

tb_status tb_world_step(tb_world_id world) {
  GET_WORLD_PEEK("step");
  tb_governor_begin(&w->governor, w->def.thread_count); /* all threads or one: the faster */
  tb_status st = tb_step_collide(w);
  if (st == TB_OK) st = tb_step_solve(w);
  if (st == TB_OK) tb_governor_end(&w->governor, w->def.thread_count);
  else w->governor.probing = TB_PROBE_NONE; /* a failed step is no measurement */
  return st;
}

tb_status tb_world_set_adaptive_threads(tb_world_id world, int32_t adaptive) {
  GET_WORLD("setAdaptiveThreads");
  if (adaptive != 0 && adaptive != 1)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "setAdaptiveThreads: adaptive must be 0 or 1 (got %d)", adaptive);
  tb_thread_governor g = {0};
  g.fixed = !adaptive;
  w->governor = g; /* a fresh start either way: measured again from the next step */
  return TB_OK;
}

tb_status tb_world_thread_mode(tb_world_id world, int32_t* adaptive, int32_t* serial, double* switches) {
  GET_WORLD_PEEK("threadMode");
  if (!adaptive || !serial || !switches)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "threadMode: adaptive, serial and switches must not be NULL");
  *adaptive = !w->governor.fixed;
  *serial = w->def.thread_count > 1 && !w->governor.fixed && w->governor.serial; /* the mode, not a probe's */
  *switches = (double)w->governor.switches;
  return TB_OK;
}
