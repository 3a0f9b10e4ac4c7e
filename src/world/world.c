/* World, body and shape management with input validation (public API). */
#include "world.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../core/jobs.h"
#include "../geometry/hull.h"
#include "../geometry/mass.h"
#include "../geometry/triangle_mesh.h"
#include "../geometry/support_field.h"
#include "../model/material.h"
#include "../observe/observe.h"
#include "../solver/solver.h"
#include "../collision/filter.h"
#include "../collision/broad_phase.h"
#include "../solver/newton.h"

static tb_world s_worlds[TB_MAX_WORLDS];
static char s_global_error[TB_ERROR_LEN];

tb_world* tb_world_get(tb_world_id id) {
  if (id < 0 || id >= TB_MAX_WORLDS || !s_worlds[id].alive) return NULL;
  return &s_worlds[id];
}

tb_status tb_world_fail(tb_world* w, tb_status status, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  vsnprintf(w ? w->error : s_global_error, TB_ERROR_LEN, fmt, args);
  va_end(args);
  return status;
}

const char* tb_last_error(tb_world_id world) {
  tb_world* w = tb_world_get(world);
  return w ? w->error : s_global_error;
}

static const char* shape_type_name(int32_t t) {
  static const char* names[] = {"plane", "sphere", "capsule", "box", "cylinder", "ellipsoid", "hull", "heightfield", "mesh"};
  return t >= 0 && t < TB_SHAPE_TYPE_COUNT ? names[t] : "unknown";
}

/* ---- validation helpers: each names the field and the value ---- */

static int check_finite(tb_world* w, const char* fn, const char* field, const float* v, int n) {
  for (int i = 0; i < n; ++i)
    if (!tb_is_finite(v[i])) {
      tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s[%d] must be finite (got %g)", fn, field, i, (double)v[i]);
      return 0;
    }
  return 1;
}

static int check_quat(tb_world* w, const char* fn, const char* field, const float* q) {
  if (!check_finite(w, fn, field, q, 4)) return 0;
  float l = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (fabsf(l - 1.0f) > 1e-3f) {
    tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s must be a unit quaternion (got length %g)", fn, field, (double)l);
    return 0;
  }
  return 1;
}

static tb_status check_enum(tb_world* w, const char* fn, const char* field, int32_t v, int32_t count) {
  if (v < 0 || v >= count)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s must be in [0, %d) (got %d)", fn, field, count, v);
  return TB_OK;
}

static tb_status check_collision(tb_world* w, const char* fn, const tb_collision_params* c) {
  tb_status st;
  if ((st = check_enum(w, fn, "collision.broad_phase", c->broad_phase, TB_BROAD_PHASE_COUNT)) ||
      (st = check_enum(w, fn, "collision.filter_rule", c->filter_rule, TB_FILTER_RULE_COUNT)) ||
      (st = check_enum(w, fn, "collision.distance_rule", c->distance_rule, TB_DISTANCE_RULE_COUNT)) ||
      (st = check_enum(w, fn, "collision.matching", c->matching, TB_MATCHING_COUNT)))
    return st;
  if (c->max_points_per_pair < 1 || c->max_points_per_pair > TB_MAX_POINTS_PER_PAIR)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: collision.max_points_per_pair must be in [1, %d] (got %d)", fn,
                         TB_MAX_POINTS_PER_PAIR, c->max_points_per_pair);
  /* -- check section: collision -- */
  if (c->max_collision_pairs < 0)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: collision.max_collision_pairs must be >= 0 (0 = unlimited) (got %d)", fn,
                         c->max_collision_pairs);
  if (!tb_is_finite(c->match_distance) || c->match_distance < 0.0f)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: collision.match_distance must be finite and >= 0 (got %g)", fn,
                         (double)c->match_distance);
  return TB_OK;
}

static tb_status check_solver(tb_world* w, const char* fn, const tb_solver_params* p) {
  tb_status st;
  if ((st = check_enum(w, fn, "solver.solver", p->solver, TB_SOLVER_TYPE_COUNT)) ||
      (st = check_enum(w, fn, "solver.combine_rule", p->combine_rule, TB_COMBINE_RULE_COUNT)) ||
      (st = check_enum(w, fn, "solver.readback", p->readback, TB_READBACK_COUNT)))
    return st;
  /* -- check section: solver -- */
  if ((st = check_enum(w, fn, "solver.combine.kamino_friction", p->combine.kamino_friction, TB_COMBINE_MODE_COUNT)) ||
      (st = check_enum(w, fn, "solver.combine.kamino_restitution", p->combine.kamino_restitution, TB_COMBINE_MODE_COUNT)))
    return st;
  if ((st = tb_newton_params_check(w, fn, &p->newton)) != TB_OK) return st;
  if ((st = tb_kamino_params_check(w, fn, &p->kamino)) != TB_OK) return st;
  if (p->friction_every_iteration != 0 && p->friction_every_iteration != 1)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: solver.friction_every_iteration must be 0 or 1 (got %d)", fn, p->friction_every_iteration);
  if (p->external_forces_every_iteration != 0 && p->external_forces_every_iteration != 1)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: solver.external_forces_every_iteration must be 0 or 1 (got %d)", fn,
                         p->external_forces_every_iteration);
  if (!tb_is_finite(p->bias_coefficient) || p->bias_coefficient <= 0.0f || p->bias_coefficient > 1.0f)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: solver.bias_coefficient must be in (0, 1] (got %g)", fn, (double)p->bias_coefficient);
  if (p->position_iterations < 1 || p->position_iterations > 64)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: solver.position_iterations must be in [1, 64] (got %d)", fn, p->position_iterations);
  if (p->velocity_iterations < 0 || p->velocity_iterations > 64)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: solver.velocity_iterations must be in [0, 64] (got %d)", fn, p->velocity_iterations);
  /* strict: the value must be > 0 (a zero would divide or disable the contact) */
  const struct { const char* name; float v; int strict; } f[] = {
      {"bounce_threshold_velocity", p->bounce_threshold_velocity, 0},
      {"max_depenetration_velocity", p->max_depenetration_velocity, 1},
      {"contact_hertz", p->contact_hertz, 1},
      {"contact_damping_ratio", p->contact_damping_ratio, 0},
      {"linear_slop", p->linear_slop, 0},
      {"speculative_distance", p->speculative_distance, 0},
  };
  for (size_t i = 0; i < sizeof f / sizeof f[0]; ++i)
    if (!tb_is_finite(f[i].v) || f[i].v < 0.0f || (f[i].strict && f[i].v == 0.0f))
      return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: solver.%s must be %s (got %g)", fn, f[i].name,
                           f[i].strict ? "finite and > 0" : "finite and >= 0", (double)f[i].v);
  return TB_OK;
}

/* ---- world ---- */

tb_world_def tb_default_world_def(void) {
  tb_world_def d;
  memset(&d, 0, sizeof d);
  d.gravity[1] = -9.81f;
  d.timestep = 1.0f / 60.0f;
  d.body_capacity = 64;
  d.contact_capacity = 1 << 16;
  d.pair_capacity = 1 << 15;
  d.thread_count = 1;
  d.solver.position_iterations = 4;
  d.solver.velocity_iterations = 1;
  d.solver.bounce_threshold_velocity = 1.0f;
  d.solver.max_depenetration_velocity = 3.0f;
  d.solver.contact_hertz = 30.0f;
  d.solver.contact_damping_ratio = 10.0f;
  d.solver.linear_slop = 0.0f;
  d.solver.speculative_distance = 0.02f;
  d.solver.warm_starting = 1;
  d.solver.bias_coefficient = 0.8f; /* PhysX PGS / TGS */
  d.collision.max_points_per_pair = TB_MAX_POINTS_PER_PAIR;
  d.collision.match_distance = 0.01f; /* m */
  d.solver.combine.kamino_restitution = TB_COMBINE_MIN; /* Kamino: friction average, restitution min */
  /* Newton XPBD / penalty parameters, valid for every preset so the solver axis can switch */
  d.solver.newton = tb_newton_params_default();
  d.solver.kamino = tb_kamino_params_default();
  tb_preset_apply(TB_PRESET_PHYSX_TGS, &d);
  return d;
}

tb_status tb_preset_apply(tb_preset preset, tb_world_def* def) {
  if (!def) return tb_world_fail(NULL, TB_ERR_INVALID_ARGUMENT, "presetApply: def must not be NULL");
  tb_solver_params* s = &def->solver;
  tb_collision_params* c = &def->collision;
  switch (preset) {
    case TB_PRESET_PHYSX_PGS:
    case TB_PRESET_PHYSX_TGS:
      s->solver = preset == TB_PRESET_PHYSX_PGS ? TB_SOLVER_PGS : TB_SOLVER_TGS;
      s->combine_rule = TB_COMBINE_RULE_PHYSX;
      s->readback = TB_READBACK_PHYSX;
      c->filter_rule = TB_FILTER_PHYSX;
      c->distance_rule = TB_DISTANCE_PHYSX;
      c->broad_phase = TB_BROAD_PHASE_SAP;
      c->matching = TB_MATCHING_LATEST;
      /* -- preset section: PhysX -- */
      /* PxRigidDynamic defaults 4 position / 1 velocity iterations; bounce threshold 0.2 ·
       * scale.speed (10 m/s); PGS bias 0.8 of the penetration per step; friction in the last three
       * position iterations; gravity once per step */
      s->position_iterations = 4;
      s->velocity_iterations = 1;
      s->bounce_threshold_velocity = 2.0f;
      s->bias_coefficient = 0.8f;
      s->friction_every_iteration = 0;
      s->external_forces_every_iteration = 0;
      break;
    case TB_PRESET_NEWTON_XPBD:
    case TB_PRESET_NEWTON_SEMI:
      s->solver = preset == TB_PRESET_NEWTON_XPBD ? TB_SOLVER_XPBD : TB_SOLVER_PENALTY;
      s->combine_rule = TB_COMBINE_RULE_MEAN;
      s->readback = TB_READBACK_NEWTON;
      c->filter_rule = TB_FILTER_NEWTON;
      c->distance_rule = TB_DISTANCE_NEWTON;
      c->broad_phase = TB_BROAD_PHASE_SAP;
      c->matching = TB_MATCHING_LATEST;
      /* -- preset section: Newton -- */
      s->newton = tb_newton_params_default();
      break;
    case TB_PRESET_KAMINO:
      s->solver = TB_SOLVER_KAMINO;
      s->combine_rule = TB_COMBINE_RULE_KAMINO;
      s->readback = TB_READBACK_NEWTON;
      c->filter_rule = TB_FILTER_NEWTON;
      c->distance_rule = TB_DISTANCE_NEWTON;
      c->broad_phase = TB_BROAD_PHASE_SAP;
      c->matching = TB_MATCHING_LATEST;
      /* -- preset section: Kamino -- */
      /* Kamino MaterialManagerConfig: friction average, restitution min; PADMMSolverConfig defaults */
      s->combine.kamino_friction = TB_COMBINE_AVERAGE;
      s->combine.kamino_restitution = TB_COMBINE_MIN;
      s->kamino = tb_kamino_params_default();
      s->warm_starting = 1;
      break;
    default:
      return tb_world_fail(NULL, TB_ERR_INVALID_ARGUMENT, "presetApply: preset must be in [0, %d) (got %d)",
                           TB_PRESET_COUNT, (int)preset);
  }
  return TB_OK;
}

void tb_default_world_def_into(tb_world_def* out) { if (out) *out = tb_default_world_def(); }
int32_t tb_world_def_size(void) { return (int32_t)sizeof(tb_world_def); }

#define TB_MAX_ARRAYS 64 /* per-slot arrays of one store (fields + internal); contact fields keep growing */

/* Every per-slot array of the body store: the public fields (from the field list) and the rest. */
static int body_arrays(tb_bodies* b, tb_array_ref* out) {
  int n = tb_body_field_arrays(&b->f, out);
  const tb_array_ref more[] = {
      {(void**)&b->generation, sizeof(int32_t)},       {(void**)&b->mass, sizeof(float)},
      {(void**)&b->inv_mass, sizeof(float)},           {(void**)&b->local_center, sizeof(tb_vec3)},
      {(void**)&b->inv_inertia_local, sizeof(tb_mat3)}, {(void**)&b->inertia_local, sizeof(tb_mat3)},
      {(void**)&b->mass_explicit, sizeof(uint8_t)},    {(void**)&b->linear_damping, sizeof(float)},
      {(void**)&b->angular_damping, sizeof(float)},    {(void**)&b->first_shape, sizeof(int32_t)},
      {(void**)&b->solver_index, sizeof(int32_t)},
      /* filtering and sleep */
      {(void**)&b->parent, sizeof(int32_t)},           {(void**)&b->sleeping, sizeof(uint8_t)},
      /* PhysX per-body solver settings */
      {(void**)&b->max_contact_impulse, sizeof(float)}, {(void**)&b->position_iterations, sizeof(int32_t)},
      {(void**)&b->velocity_iterations, sizeof(int32_t)},
  };
  for (size_t i = 0; i < sizeof more / sizeof more[0]; ++i) out[n++] = more[i];
  return n;
}

static int shape_arrays(tb_shapes* s, tb_array_ref* out) {
  const tb_array_ref all[] = {
      {(void**)&s->body, sizeof(int32_t)},        {(void**)&s->generation, sizeof(int32_t)},
      {(void**)&s->type, sizeof(int32_t)},        {(void**)&s->params, 4 * sizeof(float)},
      {(void**)&s->local, sizeof(tb_transform)},  {(void**)&s->friction, sizeof(float)},
      {(void**)&s->restitution, sizeof(float)},   {(void**)&s->density, sizeof(float)},
      {(void**)&s->next, sizeof(int32_t)},        {(void**)&s->aabb_lower, sizeof(tb_vec3)},
      {(void**)&s->aabb_upper, sizeof(tb_vec3)},  {(void**)&s->world_pose, sizeof(tb_transform)},
      {(void**)&s->data, sizeof(void*)},
      /* -- shape array section: filtering -- */
      {(void**)&s->filter, sizeof(tb_shape_filter)},
      /* -- shape array section: distances -- */
      {(void**)&s->margin, sizeof(float)},        {(void**)&s->gap, sizeof(float)},
      {(void**)&s->contact_offset, sizeof(float)}, {(void**)&s->rest_offset, sizeof(float)},
      /* -- shape array section: materials -- */
      {(void**)&s->material, sizeof(tb_material)},
  };
  int n = 0;
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) out[n++] = all[i];
  return n;
}

static int grow_bodies(tb_bodies* b, int32_t cap) {
  tb_array_ref arrays[TB_MAX_ARRAYS];
  if (!tb_grow_arrays(arrays, body_arrays(b, arrays), b->capacity, cap)) return 0;
  if (cap > b->capacity) b->capacity = cap;
  return 1;
}

static void free_bodies(tb_bodies* b) {
  tb_array_ref arrays[TB_MAX_ARRAYS];
  tb_free_arrays(arrays, body_arrays(b, arrays), b->capacity);
}

static int grow_shapes(tb_shapes* s, int32_t cap) {
  tb_array_ref arrays[TB_MAX_ARRAYS];
  if (!tb_grow_arrays(arrays, shape_arrays(s, arrays), s->capacity, cap)) return 0;
  if (cap > s->capacity) s->capacity = cap;
  return 1;
}

static void free_shapes(tb_shapes* s) {
  tb_array_ref arrays[TB_MAX_ARRAYS];
  tb_free_arrays(arrays, shape_arrays(s, arrays), s->capacity);
}

static int grow_contacts(tb_contact_store* c, int32_t cap) {
  tb_array_ref arrays[TB_MAX_ARRAYS];
  if (!tb_grow_arrays(arrays, tb_contact_field_arrays(&c->f, arrays), c->capacity, cap)) return 0;
  if (cap > c->capacity) c->capacity = cap;
  return 1;
}

static void free_contacts(tb_contact_store* c) {
  tb_array_ref arrays[TB_MAX_ARRAYS];
  tb_free_arrays(arrays, tb_contact_field_arrays(&c->f, arrays), c->capacity);
}

static void free_pairs(tb_world* w) {
  size_t n = (size_t)w->pair_capacity;
  tb_free(w->pairs, n * sizeof(tb_pair));
  tb_free(w->manifolds, n * sizeof(tb_manifold));
  tb_free(w->manifold_contact, n * sizeof(int32_t));
  tb_free(w->manifold_material, n * sizeof(tb_contact_material));
  w->manifold_material = NULL;
  tb_free(w->warm_normal, 4 * n * sizeof(float));
  tb_free(w->warm_friction, 4 * n * sizeof(tb_vec3));
  w->pairs = NULL; w->manifolds = NULL; w->manifold_contact = NULL;
  w->warm_normal = NULL; w->warm_friction = NULL;
  tb_manifold_cache* c = &w->cache;
  tb_free(c->key, n * sizeof(uint64_t));
  tb_free(c->count, n * sizeof(int32_t));
  tb_free(c->feature, 4 * n * sizeof(uint32_t));
  tb_free(c->normal_impulse, 4 * n * sizeof(float));
  tb_free(c->friction_impulse, 4 * n * sizeof(tb_vec3));
  memset(c, 0, sizeof *c);
}

static int alloc_pairs(tb_world* w, int32_t cap) {
  w->pairs = (tb_pair*)tb_alloc((size_t)cap * sizeof(tb_pair));
  w->manifolds = (tb_manifold*)tb_alloc((size_t)cap * sizeof(tb_manifold));
  w->manifold_contact = (int32_t*)tb_alloc((size_t)cap * sizeof(int32_t));
  w->manifold_material = (tb_contact_material*)tb_alloc((size_t)cap * sizeof(tb_contact_material));
  w->warm_normal = (float*)tb_alloc(4 * (size_t)cap * sizeof(float));
  w->warm_friction = (tb_vec3*)tb_alloc(4 * (size_t)cap * sizeof(tb_vec3));
  tb_manifold_cache* c = &w->cache;
  c->key = (uint64_t*)tb_alloc((size_t)cap * sizeof(uint64_t));
  c->count = (int32_t*)tb_alloc((size_t)cap * sizeof(int32_t));
  c->feature = (uint32_t*)tb_alloc(4 * (size_t)cap * sizeof(uint32_t));
  c->normal_impulse = (float*)tb_alloc(4 * (size_t)cap * sizeof(float));
  c->friction_impulse = (tb_vec3*)tb_alloc(4 * (size_t)cap * sizeof(tb_vec3));
  c->pair_count = 0;
  w->pair_capacity = cap;
  return w->pairs && w->manifolds && w->manifold_contact && w->manifold_material && w->warm_normal && w->warm_friction && c->key &&
         c->count && c->feature && c->normal_impulse && c->friction_impulse;
}

static void destroy_storage(tb_world* w) {
  tb_free(w->backup, (size_t)w->backup_capacity * 13 * sizeof(float));
  w->backup = NULL;
  w->backup_capacity = 0;
  /* owned shape geometry (hulls, heightfields, meshes) of the shapes still alive */
  for (int32_t s = 0; w->shapes.type && s < w->shapes.count; ++s)
    if (w->shapes.type[s] >= 0 && w->shapes.data[s]) {
      tb_shape_data_free(w->shapes.type[s], w->shapes.data[s]);
      w->shapes.data[s] = NULL;
    }
  free_bodies(&w->bodies);
  free_shapes(&w->shapes);
  free_pairs(w);
  free_contacts(&w->contacts);
  tb_match_free(&w->match);
  tb_solver_destroy(w);
  tb_newton_destroy(w);
  tb_kamino_destroy(w);
  tb_arena_destroy(&w->arena);
  tb_filter_destroy(w);
  tb_broad_phase_destroy(w);
  tb_observe_destroy(w); /* observation: sensors and events */
}

tb_world_id tb_world_create(const tb_world_def* def) {
  if (!def) return -tb_world_fail(NULL, TB_ERR_INVALID_ARGUMENT, "createWorld: def must not be null");
  int32_t id = -1;
  for (int32_t i = 0; i < TB_MAX_WORLDS; ++i)
    if (!s_worlds[i].alive) { id = i; break; }
  if (id < 0) return -tb_world_fail(NULL, TB_ERR_CAPACITY, "createWorld: at most %d worlds may exist at once", TB_MAX_WORLDS);
  const char* fn = "createWorld";
  if (!check_finite(NULL, fn, "gravity", def->gravity, 3)) return -TB_ERR_INVALID_ARGUMENT;
  if (!tb_is_finite(def->timestep) || def->timestep <= 0.0f)
    return -tb_world_fail(NULL, TB_ERR_INVALID_ARGUMENT, "%s: timestep must be finite and > 0 (got %g)", fn, (double)def->timestep);
  if (def->contact_capacity < 1 || def->pair_capacity < 1 || def->body_capacity < 1)
    return -tb_world_fail(NULL, TB_ERR_INVALID_ARGUMENT, "%s: body/contact/pair capacities must be >= 1 (got %d, %d, %d)", fn,
                          def->body_capacity, def->contact_capacity, def->pair_capacity);
  if (def->thread_count < 1 || def->thread_count > tb_max_threads())
    return -tb_world_fail(NULL, TB_ERR_INVALID_ARGUMENT, "%s: threads must be in [1, %d] in this build (got %d)", fn,
                          tb_max_threads(), def->thread_count);
  tb_status st = check_solver(NULL, fn, &def->solver);
  if (st == TB_OK) st = check_collision(NULL, fn, &def->collision);
  if (st != TB_OK) return -st;

  tb_world* w = &s_worlds[id];
  int32_t gen = w->generation;
  memset(w, 0, sizeof *w);
  w->generation = gen + 1;
  w->def = *def;
  w->bodies.free_head = -1;
  w->shapes.free_head = -1;
  int ok = grow_bodies(&w->bodies, def->body_capacity) && grow_shapes(&w->shapes, def->body_capacity) &&
           alloc_pairs(w, def->pair_capacity) &&
           grow_contacts(&w->contacts, def->contact_capacity);
  ok = ok && tb_solver_create(w);
  if (!ok) {
    destroy_storage(w);
    memset(w, 0, sizeof *w);
    w->generation = gen + 1;
    return -tb_world_fail(NULL, TB_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
  }
  tb_jobs_reserve(def->thread_count);
  w->alive = 1;
  return id;
}

tb_status tb_world_destroy(tb_world_id world) {
  tb_world* w = tb_world_get(world);
  if (!w) return tb_world_fail(NULL, TB_ERR_NOT_FOUND, "free: world %d does not exist", world);
  int32_t gen = w->generation;
  destroy_storage(w);
  memset(w, 0, sizeof *w);
  w->generation = gen;
  return TB_OK;
}

#define GET_WORLD(fn)                                                                      \
  tb_world* w = tb_world_get(world);                                                       \
  if (!w) return tb_world_fail(NULL, TB_ERR_NOT_FOUND, "%s: world %d does not exist", fn, world)

tb_status tb_world_set_gravity(tb_world_id world, const float gravity[3]) {
  GET_WORLD("setGravity");
  if (!check_finite(w, "setGravity", "gravity", gravity, 3)) return TB_ERR_INVALID_ARGUMENT;
  memcpy(w->def.gravity, gravity, sizeof w->def.gravity);
  return TB_OK;
}

tb_status tb_world_set_timestep(tb_world_id world, float timestep) {
  GET_WORLD("setTimestep");
  if (!tb_is_finite(timestep) || timestep <= 0.0f)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "setTimestep: timestep must be finite and > 0 (got %g)", (double)timestep);
  w->def.timestep = timestep;
  return TB_OK;
}

tb_status tb_world_set_solver(tb_world_id world, const tb_solver_params* params) {
  GET_WORLD("setSolver");
  tb_status st = check_solver(w, "setSolver", params);
  if (st != TB_OK) return st;
  w->def.solver = *params;
  return TB_OK;
}

tb_status tb_world_set_collision(tb_world_id world, const tb_collision_params* params) {
  GET_WORLD("setCollision");
  if (!params) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "setCollision: params must not be NULL");
  tb_status st = check_collision(w, "setCollision", params);
  if (st != TB_OK) return st;
  w->def.collision = *params;
  return TB_OK;
}

tb_status tb_world_set_preset(tb_world_id world, tb_preset preset) {
  GET_WORLD("setPreset");
  tb_world_def d = w->def;
  if (tb_preset_apply(preset, &d) != TB_OK)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "setPreset: preset must be in [0, %d) (got %d)", TB_PRESET_COUNT, (int)preset);
  w->def = d;
  return TB_OK;
}

tb_status tb_world_get_def(tb_world_id world, tb_world_def* out) {
  GET_WORLD("getDef");
  if (!out) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "getDef: out must not be NULL");
  *out = w->def;
  return TB_OK;
}

tb_status tb_world_set_contact_capacity(tb_world_id world, int32_t capacity) {
  GET_WORLD("setContactCapacity");
  if (capacity < 1)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "setContactCapacity: capacity must be >= 1 (got %d)", capacity);
  if (capacity <= w->contacts.capacity) return TB_OK;
  if (!grow_contacts(&w->contacts, capacity))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "setContactCapacity: out of memory for %d contacts", capacity);
  w->contacts.count = 0;
  w->contacts.readback_valid = 0;
  w->collided = 0;
  return TB_OK;
}

tb_status tb_world_set_pair_capacity(tb_world_id world, int32_t capacity) {
  GET_WORLD("setPairCapacity");
  if (capacity < 1)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "setPairCapacity: capacity must be >= 1 (got %d)", capacity);
  if (capacity <= w->pair_capacity) return TB_OK;
  tb_world old = *w; /* the old pair arrays, freed below through free_pairs */
  if (!alloc_pairs(w, capacity)) {
    free_pairs(w);
    w->pairs = old.pairs; w->manifolds = old.manifolds; w->manifold_contact = old.manifold_contact;
    w->warm_normal = old.warm_normal; w->warm_friction = old.warm_friction;
    w->manifold_material = old.manifold_material; /* combined materials stay with the old pairs */
    w->cache = old.cache;
    w->pair_capacity = old.pair_capacity;
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "setPairCapacity: out of memory for %d pairs", capacity);
  }
  /* keep the warm-start cache: the next step still matches the last solved impulses */
  const tb_manifold_cache* oc = &old.cache;
  tb_manifold_cache* nc = &w->cache;
  size_t n = (size_t)oc->pair_count;
  memcpy(nc->key, oc->key, n * sizeof(uint64_t));
  memcpy(nc->count, oc->count, n * sizeof(int32_t));
  memcpy(nc->feature, oc->feature, 4 * n * sizeof(uint32_t));
  memcpy(nc->normal_impulse, oc->normal_impulse, 4 * n * sizeof(float));
  memcpy(nc->friction_impulse, oc->friction_impulse, 4 * n * sizeof(tb_vec3));
  nc->pair_count = oc->pair_count;
  free_pairs(&old);
  w->pair_count = 0;
  w->collided = 0;
  return TB_OK;
}

/* ---- bodies ---- */

static int32_t body_slot(tb_world* w, tb_body_id id, const char* fn) {
  int32_t slot = tb_id_slot(id);
  if (id < 0 || slot >= w->bodies.count || w->bodies.f.body_type[slot] < 0 ||
      w->bodies.generation[slot] != tb_id_gen(id)) {
    tb_world_fail(w, TB_ERR_NOT_FOUND, "%s: body %d does not exist (never created or removed)", fn, id);
    return -1;
  }
  return slot;
}

/* filtering and queries: the id checks and type names of this file, for src/collision */
int32_t tb_body_slot_checked(tb_world* w, tb_body_id id, const char* fn) { return body_slot(w, id, fn); }
const char* tb_shape_type_name(int32_t type) { return shape_type_name(type); }

/* Recomputes mass, centre and inertia of a body from its shapes (unless set explicitly). */
static void update_mass(tb_world* w, int32_t slot) {
  tb_bodies* b = &w->bodies;
  if (b->mass_explicit[slot]) return;
  tb_mass_props total = {0.0f, {0, 0, 0}, tb_mat3_zero()};
  for (int32_t s = b->first_shape[slot]; s >= 0; s = w->shapes.next[s])
    total = tb_mass_combine(total, tb_shape_mass_data(w->shapes.type[s], w->shapes.params + 4 * s, w->shapes.data[s],
                                                      w->shapes.density[s], w->shapes.local[s]));
  int dynamic = b->f.body_type[slot] == TB_BODY_DYNAMIC;
  if (!dynamic || total.mass <= 0.0f) {
    /* A dynamic body without massive shapes gets 1 kg and unit inertia so that it still moves. */
    total.mass = dynamic ? 1.0f : 0.0f;
    total.center = tb_v3(0, 0, 0);
    total.inertia = dynamic ? tb_mat3_diag(tb_v3(1, 1, 1)) : tb_mat3_zero();
  }
  b->mass[slot] = total.mass;
  b->inv_mass[slot] = total.mass > 0.0f ? 1.0f / total.mass : 0.0f;
  b->local_center[slot] = total.center;
  b->inertia_local[slot] = total.inertia;
  b->inv_inertia_local[slot] = dynamic ? tb_mat3_inverse(total.inertia) : tb_mat3_zero();
}

tb_body_id tb_body_create(tb_world_id world, tb_body_type type, const float position[3], const float rotation[4]) {
  tb_world* w = tb_world_get(world);
  if (!w) return -tb_world_fail(NULL, TB_ERR_NOT_FOUND, "addBody: world %d does not exist", world);
  const char* fn = "addBody";
  if (type != TB_BODY_STATIC && type != TB_BODY_KINEMATIC && type != TB_BODY_DYNAMIC)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: type must be static (0), kinematic (1) or dynamic (2) (got %d)", fn, (int)type);
  if (!check_finite(w, fn, "position", position, 3) || !check_quat(w, fn, "rotation", rotation)) return -TB_ERR_INVALID_ARGUMENT;
  tb_bodies* b = &w->bodies;
  int32_t slot;
  if (b->free_head >= 0) {
    slot = b->free_head;
    b->free_head = b->first_shape[slot];
  } else {
    if (b->count >= TB_ID_INDEX_MASK)
      return -tb_world_fail(w, TB_ERR_CAPACITY, "%s: at most %d bodies", fn, TB_ID_INDEX_MASK);
    if (b->count == b->capacity && !grow_bodies(b, b->capacity * 2))
      return -tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "%s: out of memory for %d bodies", fn, b->capacity * 2);
    slot = b->count++;
  }
  float* t = b->f.transform + 7 * slot;
  memcpy(t, position, 3 * sizeof(float));
  tb_quat q = tb_quat_normalize((tb_quat){rotation[0], rotation[1], rotation[2], rotation[3]});
  t[3] = q.x; t[4] = q.y; t[5] = q.z; t[6] = q.w;
  memset(b->f.linear_velocity + 3 * slot, 0, 3 * sizeof(float));
  memset(b->f.angular_velocity + 3 * slot, 0, 3 * sizeof(float));
  b->f.body_type[slot] = (int32_t)type;
  b->mass_explicit[slot] = 0;
  b->linear_damping[slot] = 0.0f;
  b->angular_damping[slot] = 0.0f;
  b->first_shape[slot] = -1;
  b->solver_index[slot] = -1;
  b->parent[slot] = -1; /* filtering and sleep */
  b->sleeping[slot] = 0;
  b->max_contact_impulse[slot] = INFINITY; /* PhysX settings: no cap, the world's iterations */
  b->position_iterations[slot] = -1;
  b->velocity_iterations[slot] = -1;
  update_mass(w, slot);
  w->collided = 0;
  return tb_make_id(slot, b->generation[slot]);
}

static void destroy_shape_slot(tb_world* w, int32_t s) {
  tb_shapes* sh = &w->shapes;
  tb_filter_forget_shape(w, s); /* filtering: the slot leaves the pair lists */
  tb_shape_data_free(sh->type[s], sh->data[s]);
  sh->data[s] = NULL;
  sh->type[s] = -1;
  sh->generation[s] = (sh->generation[s] + 1) & TB_ID_GEN_MASK;
  sh->next[s] = sh->free_head;
  sh->free_head = s;
}

tb_status tb_body_destroy(tb_world_id world, tb_body_id body) {
  GET_WORLD("removeBody");
  int32_t slot = body_slot(w, body, "removeBody");
  if (slot < 0) return TB_ERR_NOT_FOUND;
  tb_bodies* b = &w->bodies;
  for (int32_t s = b->first_shape[slot]; s >= 0;) {
    int32_t next = w->shapes.next[s];
    destroy_shape_slot(w, s);
    s = next;
  }
  tb_filter_forget_body(w, slot); /* filtering: exclusions and parent links */
  b->f.body_type[slot] = -1;
  b->generation[slot] = (b->generation[slot] + 1) & TB_ID_GEN_MASK;
  b->first_shape[slot] = b->free_head;
  b->free_head = slot;
  w->collided = 0; /* the manifolds may name the removed body: solve() needs a new collide() */
  return TB_OK;
}

tb_status tb_body_set_pose(tb_world_id world, tb_body_id body, const float position[3], const float rotation[4]) {
  GET_WORLD("setPose");
  int32_t slot = body_slot(w, body, "setPose");
  if (slot < 0) return TB_ERR_NOT_FOUND;
  if (!check_finite(w, "setPose", "position", position, 3) || !check_quat(w, "setPose", "rotation", rotation))
    return TB_ERR_INVALID_ARGUMENT;
  float* t = w->bodies.f.transform + 7 * slot;
  memcpy(t, position, 3 * sizeof(float));
  tb_quat q = tb_quat_normalize((tb_quat){rotation[0], rotation[1], rotation[2], rotation[3]});
  t[3] = q.x; t[4] = q.y; t[5] = q.z; t[6] = q.w;
  w->collided = 0;
  return TB_OK;
}

tb_status tb_body_set_velocity(tb_world_id world, tb_body_id body, const float linear[3], const float angular[3]) {
  GET_WORLD("setVelocity");
  int32_t slot = body_slot(w, body, "setVelocity");
  if (slot < 0) return TB_ERR_NOT_FOUND;
  if (!check_finite(w, "setVelocity", "linear", linear, 3) || !check_finite(w, "setVelocity", "angular", angular, 3))
    return TB_ERR_INVALID_ARGUMENT;
  if (w->bodies.f.body_type[slot] == TB_BODY_STATIC)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "setVelocity: body %d is static and cannot move", body);
  memcpy(w->bodies.f.linear_velocity + 3 * slot, linear, 3 * sizeof(float));
  memcpy(w->bodies.f.angular_velocity + 3 * slot, angular, 3 * sizeof(float));
  return TB_OK;
}

tb_status tb_body_get_state(tb_world_id world, tb_body_id body, float out[13]) {
  GET_WORLD("getState");
  int32_t slot = body_slot(w, body, "getState");
  if (slot < 0) return TB_ERR_NOT_FOUND;
  if (!out) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "getState: out must not be NULL");
  memcpy(out, w->bodies.f.transform + 7 * slot, 7 * sizeof(float));
  memcpy(out + 7, w->bodies.f.linear_velocity + 3 * slot, 3 * sizeof(float));
  memcpy(out + 10, w->bodies.f.angular_velocity + 3 * slot, 3 * sizeof(float));
  return TB_OK;
}

tb_status tb_body_set_damping(tb_world_id world, tb_body_id body, float linear_per_s, float angular_per_s) {
  GET_WORLD("setDamping");
  int32_t slot = body_slot(w, body, "setDamping");
  if (slot < 0) return TB_ERR_NOT_FOUND;
  if (!tb_is_finite(linear_per_s) || linear_per_s < 0.0f)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "setDamping: linearDamping must be finite and >= 0 (got %g)", (double)linear_per_s);
  if (!tb_is_finite(angular_per_s) || angular_per_s < 0.0f)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "setDamping: angularDamping must be finite and >= 0 (got %g)", (double)angular_per_s);
  w->bodies.linear_damping[slot] = linear_per_s;
  w->bodies.angular_damping[slot] = angular_per_s;
  return TB_OK;
}

/* ---- PhysX per-body solver settings ---- */

tb_status tb_body_set_max_contact_impulse(tb_world_id world, tb_body_id body, float max_impulse) {
  GET_WORLD("setMaxContactImpulse");
  int32_t slot = body_slot(w, body, "setMaxContactImpulse");
  if (slot < 0) return TB_ERR_NOT_FOUND;
  if (isnan(max_impulse) || max_impulse <= 0.0f)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "setMaxContactImpulse: maxContactImpulse must be > 0 (N·s, Infinity = none) (got %g)",
                         (double)max_impulse);
  w->bodies.max_contact_impulse[slot] = max_impulse;
  return TB_OK;
}

tb_status tb_body_set_solver_iterations(tb_world_id world, tb_body_id body, int32_t position_iterations, int32_t velocity_iterations) {
  GET_WORLD("setSolverIterations");
  int32_t slot = body_slot(w, body, "setSolverIterations");
  if (slot < 0) return TB_ERR_NOT_FOUND;
  if (position_iterations != -1 && (position_iterations < 1 || position_iterations > 255))
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "setSolverIterations: positionIterations must be in [1, 255] or -1 (got %d)",
                         position_iterations);
  if (velocity_iterations != -1 && (velocity_iterations < 0 || velocity_iterations > 255))
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "setSolverIterations: velocityIterations must be in [0, 255] or -1 (got %d)",
                         velocity_iterations);
  w->bodies.position_iterations[slot] = position_iterations;
  w->bodies.velocity_iterations[slot] = velocity_iterations;
  return TB_OK;
}

tb_status tb_body_set_mass(tb_world_id world, tb_body_id body, float mass, const float center[3], const float inertia[3]) {
  GET_WORLD("setMass");
  int32_t slot = body_slot(w, body, "setMass");
  if (slot < 0) return TB_ERR_NOT_FOUND;
  if (w->bodies.f.body_type[slot] != TB_BODY_DYNAMIC)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "setMass: body %d is not dynamic", body);
  if (!tb_is_finite(mass) || mass <= 0.0f)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "setMass: mass must be finite and > 0 (got %g)", (double)mass);
  if (!check_finite(w, "setMass", "center", center, 3) || !check_finite(w, "setMass", "inertia", inertia, 3))
    return TB_ERR_INVALID_ARGUMENT;
  for (int i = 0; i < 3; ++i)
    if (inertia[i] <= 0.0f)
      return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "setMass: inertia[%d] must be > 0 (got %g)", i, (double)inertia[i]);
  tb_bodies* b = &w->bodies;
  b->mass_explicit[slot] = 1;
  b->mass[slot] = mass;
  b->inv_mass[slot] = 1.0f / mass;
  b->local_center[slot] = tb_v3(center[0], center[1], center[2]);
  b->inertia_local[slot] = tb_mat3_diag(tb_v3(inertia[0], inertia[1], inertia[2]));
  b->inv_inertia_local[slot] = tb_mat3_diag(tb_v3(1.0f / inertia[0], 1.0f / inertia[1], 1.0f / inertia[2]));
  return TB_OK;
}

tb_status tb_body_get_mass(tb_world_id world, tb_body_id body, float out[13]) {
  GET_WORLD("getMass");
  int32_t slot = body_slot(w, body, "getMass");
  if (slot < 0) return TB_ERR_NOT_FOUND;
  if (!out) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "getMass: out must not be NULL");
  tb_bodies* b = &w->bodies;
  out[0] = b->mass[slot];
  out[1] = b->local_center[slot].x; out[2] = b->local_center[slot].y; out[3] = b->local_center[slot].z;
  tb_mat3 m = b->inertia_local[slot];
  const float rows[9] = {m.cx.x, m.cy.x, m.cz.x, m.cx.y, m.cy.y, m.cz.y, m.cx.z, m.cy.z, m.cz.z};
  memcpy(out + 4, rows, sizeof rows);
  return TB_OK;
}

/* ---- shapes ---- */

/* Stores a validated shape on body slot bslot; takes ownership of data (freed on failure). */
static tb_shape_id insert_shape(tb_world* w, int32_t bslot, tb_shape_type type, const float params[4], void* data,
                                const float local_position[3], const float local_rotation[4], float friction,
                                float restitution, float density) {
  const char* fn = "addShape";
  tb_shapes* sh = &w->shapes;
  int32_t s;
  if (sh->free_head >= 0) {
    s = sh->free_head;
    sh->free_head = sh->next[s];
  } else {
    if (sh->count >= TB_ID_INDEX_MASK) return tb_shape_data_free(type, data), -tb_world_fail(w, TB_ERR_CAPACITY, "%s: at most %d shapes", fn, TB_ID_INDEX_MASK);
    if (sh->count == sh->capacity && !grow_shapes(sh, sh->capacity * 2))
      return tb_shape_data_free(type, data), -tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "%s: out of memory for %d shapes", fn, sh->capacity * 2);
    s = sh->count++;
  }
  sh->body[s] = bslot;
  sh->type[s] = type;
  memcpy(sh->params + 4 * s, params, 4 * sizeof(float));
  sh->local[s].p = tb_v3(local_position[0], local_position[1], local_position[2]);
  sh->local[s].q = tb_quat_normalize((tb_quat){local_rotation[0], local_rotation[1], local_rotation[2], local_rotation[3]});
  sh->friction[s] = friction;
  sh->restitution[s] = restitution;
  sh->density[s] = density;
  sh->data[s] = data;
  /* -- insert section: per-shape defaults (filtering, distances, materials) -- */
  tb_default_shape_filter(&sh->filter[s]);
  sh->margin[s] = sh->gap[s] = sh->contact_offset[s] = sh->rest_offset[s] = 0.0f;
  tb_material_default_into(friction, restitution, &sh->material[s]);
  /* append, so shapes keep their creation order within a body */
  sh->next[s] = -1;
  int32_t* link = &w->bodies.first_shape[bslot];
  while (*link >= 0) link = &sh->next[*link];
  *link = s;
  update_mass(w, bslot);
  w->collided = 0;
  return tb_make_id(s, sh->generation[s]);
}

tb_shape_id tb_shape_create(tb_world_id world, tb_body_id body, tb_shape_type type, const float params[4],
                            const float local_position[3], const float local_rotation[4], float friction,
                            float restitution, float density) {
  tb_world* w = tb_world_get(world);
  if (!w) return -tb_world_fail(NULL, TB_ERR_NOT_FOUND, "addShape: world %d does not exist", world);
  const char* fn = "addShape";
  int32_t bslot = body_slot(w, body, fn);
  if (bslot < 0) return -TB_ERR_NOT_FOUND;
  if ((int)type < 0 || type >= TB_SHAPE_TYPE_COUNT)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: type must be a known shape type 0..%d (got %d)", fn, TB_SHAPE_TYPE_COUNT - 1, (int)type);
  const char* tn = shape_type_name(type);
  if (!check_finite(w, fn, "params", params, 4) || !check_finite(w, fn, "position", local_position, 3) ||
      !check_quat(w, fn, "rotation", local_rotation))
    return -TB_ERR_INVALID_ARGUMENT;
  switch (type) {
    case TB_SHAPE_PLANE: {
      float l = sqrtf(params[0] * params[0] + params[1] * params[1] + params[2] * params[2]);
      if (fabsf(l - 1.0f) > 1e-3f)
        return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: plane normal must be a unit vector (got length %g)", fn, (double)l);
      if (w->bodies.f.body_type[bslot] != TB_BODY_STATIC)
        return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: a plane may only belong to a static body (body %d is not static)", fn, body);
      break;
    }
    case TB_SHAPE_SPHERE:
      if (params[0] <= 0.0f) return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: sphere radius must be > 0 (got %g)", fn, (double)params[0]);
      break;
    case TB_SHAPE_CAPSULE:
      if (params[0] <= 0.0f) return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: capsule radius must be > 0 (got %g)", fn, (double)params[0]);
      if (params[1] <= 0.0f) return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: capsule halfHeight must be > 0 (got %g)", fn, (double)params[1]);
      break;
    case TB_SHAPE_BOX:
      for (int i = 0; i < 3; ++i)
        if (params[i] <= 0.0f)
          return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: box halfExtents[%d] must be > 0 (got %g)", fn, i, (double)params[i]);
      break;
    /* -- create section: cylinder, ellipsoid -- */
    case TB_SHAPE_CYLINDER:
      if (params[0] <= 0.0f) return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: cylinder radius must be > 0 (got %g)", fn, (double)params[0]);
      if (params[1] <= 0.0f) return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: cylinder halfHeight must be > 0 (got %g)", fn, (double)params[1]);
      break;
    case TB_SHAPE_ELLIPSOID:
      for (int i = 0; i < 3; ++i)
        if (params[i] <= 0.0f)
          return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: ellipsoid radii[%d] must be > 0 (got %g)", fn, i, (double)params[i]);
      break;
    default:
      return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: shape type %s is not available through addShape", fn, tn);
  }
  if (!tb_is_finite(friction) || friction < 0.0f)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s friction must be finite and >= 0 (got %g)", fn, tn, (double)friction);
  if (!tb_is_finite(restitution) || restitution < 0.0f || restitution > 1.0f)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s restitution must be in [0, 1] (got %g)", fn, tn, (double)restitution);
  if (!tb_is_finite(density) || density <= 0.0f)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s density must be finite and > 0 (got %g)", fn, tn, (double)density);

  return insert_shape(w, bslot, type, params, NULL, local_position, local_rotation, friction, restitution, density);
}

/* ---- heightfield and mesh shapes (static bodies; geometry owned by the shape) ---- */

/* Checks shared by heightfield and mesh creation; returns the body slot or -status. */
static int32_t static_geometry_checks(tb_world* w, tb_body_id body, const char* fn, const char* tn,
                                      const float local_position[3], const float local_rotation[4],
                                      float friction, float restitution) {
  int32_t bslot = body_slot(w, body, fn);
  if (bslot < 0) return -TB_ERR_NOT_FOUND;
  if (w->bodies.f.body_type[bslot] != TB_BODY_STATIC)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: a %s may only belong to a static body (body %d is not static)", fn, tn, body);
  if (!local_position || !local_rotation)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s position and rotation must not be NULL", fn, tn);
  if (!check_finite(w, fn, "position", local_position, 3) || !check_quat(w, fn, "rotation", local_rotation))
    return -TB_ERR_INVALID_ARGUMENT;
  if (!tb_is_finite(friction) || friction < 0.0f)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s friction must be finite and >= 0 (got %g)", fn, tn, (double)friction);
  if (!tb_is_finite(restitution) || restitution < 0.0f || restitution > 1.0f)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s restitution must be in [0, 1] (got %g)", fn, tn, (double)restitution);
  return bslot;
}

tb_shape_id tb_shape_create_heightfield(tb_world_id world, tb_body_id body, int32_t rows, int32_t cols,
                                        const float* heights, float cell_x, float cell_z,
                                        const float local_position[3], const float local_rotation[4],
                                        float friction, float restitution) {
  tb_world* w = tb_world_get(world);
  const char* fn = "addShape", *tn = "heightfield";
  if (!w) return -tb_world_fail(NULL, TB_ERR_NOT_FOUND, "%s: world %d does not exist", fn, world);
  int32_t bslot = static_geometry_checks(w, body, fn, tn, local_position, local_rotation, friction, restitution);
  if (bslot < 0) return bslot;
  if (rows < 2 || rows > TB_HEIGHTFIELD_MAX_SAMPLES)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: heightfield rows must be in [2, %d] (got %d)", fn, TB_HEIGHTFIELD_MAX_SAMPLES, rows);
  if (cols < 2 || cols > TB_HEIGHTFIELD_MAX_SAMPLES)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: heightfield cols must be in [2, %d] (got %d)", fn, TB_HEIGHTFIELD_MAX_SAMPLES, cols);
  if (!tb_is_finite(cell_x) || cell_x <= 0.0f)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: heightfield cellSize[0] must be finite and > 0 (got %g)", fn, (double)cell_x);
  if (!tb_is_finite(cell_z) || cell_z <= 0.0f)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: heightfield cellSize[1] must be finite and > 0 (got %g)", fn, (double)cell_z);
  if (!heights) return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: heightfield heights must not be NULL", fn);
  if (!check_finite(w, fn, "heightfield heights", heights, rows * cols)) return -TB_ERR_INVALID_ARGUMENT;
  tb_heightfield_data* data = tb_heightfield_data_create(rows, cols, heights, cell_x, cell_z);
  if (!data) return -tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "%s: out of memory for a %d x %d heightfield", fn, rows, cols);
  const float params[4] = {cell_x, cell_z, (float)rows, (float)cols};
  /* density is unused: static shapes have no mass */
  return insert_shape(w, bslot, TB_SHAPE_HEIGHTFIELD, params, data, local_position, local_rotation, friction, restitution, 1.0f);
}

tb_shape_id tb_shape_create_mesh(tb_world_id world, tb_body_id body, const float* vertices, int32_t vertex_count,
                                 const int32_t* indices, int32_t triangle_count, const float local_position[3],
                                 const float local_rotation[4], float friction, float restitution) {
  tb_world* w = tb_world_get(world);
  const char* fn = "addShape", *tn = "mesh";
  if (!w) return -tb_world_fail(NULL, TB_ERR_NOT_FOUND, "%s: world %d does not exist", fn, world);
  int32_t bslot = static_geometry_checks(w, body, fn, tn, local_position, local_rotation, friction, restitution);
  if (bslot < 0) return bslot;
  if (vertex_count < 3 || vertex_count > TB_MESH_MAX_ELEMENTS)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: mesh vertex count must be in [3, %d] (got %d)", fn, TB_MESH_MAX_ELEMENTS, vertex_count);
  if (triangle_count < 1 || triangle_count > TB_MESH_MAX_ELEMENTS)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: mesh triangle count must be in [1, %d] (got %d)", fn, TB_MESH_MAX_ELEMENTS, triangle_count);
  if (!vertices || !indices) return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: mesh vertices and indices must not be NULL", fn);
  tb_mesh_data* data;
  int32_t bad;
  int r = tb_mesh_data_create(vertices, vertex_count, indices, triangle_count, &data, &bad);
  switch (r) {
    case TB_MESH_OK: break;
    case TB_MESH_NONFINITE_VERTEX: {
      const float* v = vertices + 3 * bad;
      return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: mesh vertices[%d] must be finite (got %g, %g, %g)", fn, bad, (double)v[0], (double)v[1], (double)v[2]);
    }
    case TB_MESH_INDEX_RANGE:
      return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: mesh indices[%d] must be in [0, %d) (got %d)", fn, bad, vertex_count, indices[bad]);
    case TB_MESH_DEGENERATE:
      return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: mesh triangle %d (indices %d, %d, %d) is degenerate (zero area)", fn, bad,
                            indices[3 * bad], indices[3 * bad + 1], indices[3 * bad + 2]);
    default:
      return -tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "%s: out of memory for a mesh of %d triangles", fn, triangle_count);
  }
  const float params[4] = {(float)vertex_count, (float)triangle_count, 0.0f, 0.0f};
  return insert_shape(w, bslot, TB_SHAPE_MESH, params, data, local_position, local_rotation, friction, restitution, 1.0f);
}

/* ---- convex hull shapes ---- */

tb_shape_id tb_shape_create_hull_ex(tb_world_id world, tb_body_id body, const float* points, int32_t point_count,
                                    int32_t support_field_resolution, const float local_position[3],
                                    const float local_rotation[4], float friction, float restitution, float density) {
  tb_world* w = tb_world_get(world);
  if (!w) return -tb_world_fail(NULL, TB_ERR_NOT_FOUND, "addHull: world %d does not exist", world);
  const char* fn = "addHull";
  int32_t bslot = body_slot(w, body, fn);
  if (bslot < 0) return -TB_ERR_NOT_FOUND;
  if (!points) return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: points must not be NULL", fn);
  if (!check_finite(w, fn, "position", local_position, 3) || !check_quat(w, fn, "rotation", local_rotation))
    return -TB_ERR_INVALID_ARGUMENT;
  if (support_field_resolution != -1 && support_field_resolution != 0 &&
      (support_field_resolution < 8 || support_field_resolution > 1024))
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT,
                          "%s: supportField.resolution must be -1 (default), 0 (none) or in [8, 1024] (got %d)", fn,
                          support_field_resolution);
  if (!tb_is_finite(friction) || friction < 0.0f)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: hull friction must be finite and >= 0 (got %g)", fn, (double)friction);
  if (!tb_is_finite(restitution) || restitution < 0.0f || restitution > 1.0f)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: hull restitution must be in [0, 1] (got %g)", fn, (double)restitution);
  if (!tb_is_finite(density) || density <= 0.0f)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: hull density must be finite and > 0 (got %g)", fn, (double)density);
  tb_hull_error err;
  tb_hull* h = tb_hull_build(points, point_count, support_field_resolution, &err);
  if (!h) {
    tb_status st = err.code == 3 ? TB_ERR_OUT_OF_MEMORY : (err.code == 4 ? TB_ERR_CAPACITY : TB_ERR_INVALID_ARGUMENT);
    return -tb_world_fail(w, st, "%s: %s", fn, err.message);
  }
  /* params: bounding radius about the vertex centroid, vertex and face counts (informative) */
  const float params[4] = {h->radius, (float)h->vertex_count, (float)h->face_count, 0.0f};
  return insert_shape(w, bslot, TB_SHAPE_HULL, params, h, local_position, local_rotation, friction, restitution, density);
}

tb_shape_id tb_shape_create_hull(tb_world_id world, tb_body_id body, const float* points, int32_t point_count,
                                 const float local_position[3], const float local_rotation[4], float friction,
                                 float restitution, float density) {
  return tb_shape_create_hull_ex(world, body, points, point_count, -1, local_position, local_rotation, friction,
                                 restitution, density);
}

tb_status tb_shape_get_hull(tb_world_id world, tb_shape_id shape, tb_hull_info* out) {
  GET_WORLD("getHull");
  int32_t s = tb_id_slot(shape);
  tb_shapes* sh = &w->shapes;
  if (shape < 0 || s >= sh->count || sh->type[s] < 0 || sh->generation[s] != tb_id_gen(shape))
    return tb_world_fail(w, TB_ERR_NOT_FOUND, "getHull: shape %d does not exist (never created or removed)", shape);
  if (sh->type[s] != TB_SHAPE_HULL)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "getHull: shape %d is a %s, not a hull", shape, shape_type_name(sh->type[s]));
  if (!out) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "getHull: out must not be NULL");
  const tb_hull* h = (const tb_hull*)sh->data[s];
  out->vertex_count = h->vertex_count;
  out->face_count = h->face_count;
  out->edge_count = h->edge_count;
  out->support_field_resolution = h->field ? h->field->res : 0;
  out->support_field_bytes = h->field ? (int64_t)h->field->bytes : 0;
  out->total_bytes = (int64_t)h->bytes;
  out->radius = h->radius;
  return TB_OK;
}

tb_status tb_shape_destroy(tb_world_id world, tb_shape_id shape) {
  GET_WORLD("removeShape");
  int32_t s = tb_id_slot(shape);
  tb_shapes* sh = &w->shapes;
  if (shape < 0 || s >= sh->count || sh->type[s] < 0 || sh->generation[s] != tb_id_gen(shape))
    return tb_world_fail(w, TB_ERR_NOT_FOUND, "removeShape: shape %d does not exist (never created or removed)", shape);
  int32_t bslot = sh->body[s];
  int32_t* link = &w->bodies.first_shape[bslot];
  while (*link != s) link = &sh->next[*link];
  *link = sh->next[s];
  destroy_shape_slot(w, s);
  update_mass(w, bslot);
  w->collided = 0;
  return TB_OK;
}

/* ---- distances and matching ---- */

tb_status tb_shape_set_distances(tb_world_id world, tb_shape_id shape, float margin, float gap, float contact_offset,
                                 float rest_offset) {
  const char* fn = "setShapeDistances";
  GET_WORLD(fn);
  int32_t s = tb_id_slot(shape);
  tb_shapes* sh = &w->shapes;
  if (shape < 0 || s >= sh->count || sh->type[s] < 0 || sh->generation[s] != tb_id_gen(shape))
    return tb_world_fail(w, TB_ERR_NOT_FOUND, "%s: shape %d does not exist (never created or removed)", fn, shape);
  const struct { const char* name; float v; } f[] = {{"margin", margin}, {"gap", gap}, {"contactOffset", contact_offset}};
  for (size_t i = 0; i < sizeof f / sizeof f[0]; ++i)
    if (!tb_is_finite(f[i].v) || f[i].v < 0.0f)
      return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s must be finite and >= 0 (got %g)", fn, f[i].name, (double)f[i].v);
  if (!tb_is_finite(rest_offset) || rest_offset > contact_offset)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: restOffset must be finite and <= contactOffset %g (got %g)", fn,
                         (double)contact_offset, (double)rest_offset);
  sh->margin[s] = margin;
  sh->gap[s] = gap;
  sh->contact_offset[s] = contact_offset;
  sh->rest_offset[s] = rest_offset;
  w->collided = 0;
  return TB_OK;
}

tb_status tb_shape_get_distances(tb_world_id world, tb_shape_id shape, float out[4]) {
  const char* fn = "getShapeDistances";
  GET_WORLD(fn);
  int32_t s = tb_id_slot(shape);
  const tb_shapes* sh = &w->shapes;
  if (shape < 0 || s >= sh->count || sh->type[s] < 0 || sh->generation[s] != tb_id_gen(shape))
    return tb_world_fail(w, TB_ERR_NOT_FOUND, "%s: shape %d does not exist (never created or removed)", fn, shape);
  if (!out) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", fn);
  out[0] = sh->margin[s];
  out[1] = sh->gap[s];
  out[2] = sh->contact_offset[s];
  out[3] = sh->rest_offset[s];
  return TB_OK;
}

/* ---- fields and status ---- */

void* tb_world_field(tb_world_id world, tb_field_set set, int32_t index) {
  tb_world* w = tb_world_get(world);
  if (!w) return NULL;
  if (set == TB_FIELDS_BODY) return tb_body_field_ptr(&w->bodies.f, index);
  if (set == TB_FIELDS_CONTACT) return tb_contact_field_ptr(&w->contacts.f, index);
  return NULL;
}

int32_t tb_world_body_slot_count(tb_world_id world) {
  tb_world* w = tb_world_get(world);
  return w ? w->bodies.count : 0;
}

int32_t tb_body_slot_alive(tb_world_id world, int32_t slot) {
  tb_world* w = tb_world_get(world);
  return w && slot >= 0 && slot < w->bodies.count && w->bodies.f.body_type[slot] >= 0;
}

tb_status tb_world_contact_status(tb_world_id world, tb_contact_status* out) {
  GET_WORLD("contactStatus");
  if (!out) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "contactStatus: out must not be NULL");
  out->count = w->contacts.count;
  out->capacity = w->contacts.capacity;
  out->requested = w->contacts.requested;
  out->overflowed = w->contacts.overflowed;
  out->pair_count = w->pair_count;
  out->pair_capacity = w->pair_capacity;
  out->pairs_requested = w->pairs_requested;
  out->pairs_overflowed = w->pairs_overflowed;
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

tb_status tb_world_solver_status(tb_world_id world, tb_solver_status* out) {
  GET_WORLD("solverStatus");
  if (!out) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "solverStatus: out must not be NULL");
  *out = w->status;
  return TB_OK;
}

tb_status tb_world_step_stats(tb_world_id world, tb_step_stats* out) {
  GET_WORLD("stepStats");
  if (!out) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "stepStats: out must not be NULL");
  *out = w->stats;
  return TB_OK;
}

tb_status tb_world_collide(tb_world_id world) {
  GET_WORLD("collide");
  return tb_collide_world(w);
}

/* The solver stage with a guard: the body state before it is kept, and a solver that leaves a
 * non-finite pose or velocity (an explicit penalty step that is unstable for its stiffness and
 * substeps, for instance) has its step undone and fails with a message, so the world stays
 * usable. Then the observers (sensors, events) of every solver. */
static tb_status solve_guarded(tb_world* w) {
  tb_bodies* b = &w->bodies;
  const int32_t n = b->count;
  if (n > w->backup_capacity) {
    int32_t cap = w->backup_capacity > 0 ? w->backup_capacity : 64;
    while (cap < n) cap *= 2;
    float* nb = (float*)tb_alloc((size_t)cap * 13 * sizeof(float));
    if (!nb) return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "solve: out of memory for %d body states", cap);
    tb_free(w->backup, (size_t)w->backup_capacity * 13 * sizeof(float));
    w->backup = nb;
    w->backup_capacity = cap;
  }
  for (int32_t i = 0; i < n; ++i) {
    memcpy(w->backup + 13 * i, b->f.transform + 7 * i, 7 * sizeof(float));
    memcpy(w->backup + 13 * i + 7, b->f.linear_velocity + 3 * i, 3 * sizeof(float));
    memcpy(w->backup + 13 * i + 10, b->f.angular_velocity + 3 * i, 3 * sizeof(float));
  }
  tb_status st = tb_solve_world(w);
  if (st != TB_OK) return st;
  for (int32_t i = 0; i < n; ++i) {
    if (b->f.body_type[i] != TB_BODY_DYNAMIC) continue;
    int finite = 1;
    for (int k = 0; k < 7; ++k) finite &= tb_is_finite(b->f.transform[7 * i + k]);
    for (int k = 0; k < 3; ++k) finite &= tb_is_finite(b->f.linear_velocity[3 * i + k]) & tb_is_finite(b->f.angular_velocity[3 * i + k]);
    if (finite) continue;
    for (int32_t j = 0; j < n; ++j) {
      memcpy(b->f.transform + 7 * j, w->backup + 13 * j, 7 * sizeof(float));
      memcpy(b->f.linear_velocity + 3 * j, w->backup + 13 * j + 7, 3 * sizeof(float));
      memcpy(b->f.angular_velocity + 3 * j, w->backup + 13 * j + 10, 3 * sizeof(float));
    }
    w->contacts.readback_valid = 0;
    static const char* names[] = {"pgs", "tgs", "xpbd", "penalty", "mujoco", "kamino"};
    int32_t sv = w->def.solver.solver;
    return tb_world_fail(w, TB_ERR_INVALID_STATE,
                         "solve: the %s solver left body %d with a non-finite pose or velocity; the step was undone "
                         "(an unstable explicit step: for the penalty solver raise the substeps, solver.newton.substeps or JS penaltySubsteps, or lower ke, kd)",
                         sv >= 0 && sv < TB_SOLVER_TYPE_COUNT ? names[sv] : "?", tb_make_id(i, b->generation[i]));
  }
  tb_observe_after_solve(w);
  return TB_OK;
}

tb_status tb_world_solve(tb_world_id world) {
  GET_WORLD("solve");
  if (!w->collided)
    return tb_world_fail(w, TB_ERR_INVALID_STATE, "solve: call collide() first (the contacts are stale or missing)");
  return solve_guarded(w);
}

tb_status tb_world_step(tb_world_id world) {
  GET_WORLD("step");
  tb_status st = tb_collide_world(w);
  if (st != TB_OK) return st;
  return solve_guarded(w);
}

/* ---- shapes of a body (bindings map shape ids to materials through this) ---- */

int32_t tb_body_get_shapes(tb_world_id world, tb_body_id body, tb_shape_id* out, int32_t capacity) {
  tb_world* w = tb_world_get(world);
  if (!w) return -tb_world_fail(NULL, TB_ERR_NOT_FOUND, "shapesOf: world %d does not exist", world);
  int32_t slot = body_slot(w, body, "shapesOf");
  if (slot < 0) return -TB_ERR_NOT_FOUND;
  if (capacity < 0 || (capacity > 0 && !out))
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "shapesOf: capacity must be >= 0 with a non-NULL out (got %d)", capacity);
  const tb_shapes* sh = &w->shapes;
  int32_t n = 0;
  for (int32_t s = w->bodies.first_shape[slot]; s >= 0; s = sh->next[s]) ++n;
  if (!out) return n;
  if (n > capacity)
    return -tb_world_fail(w, TB_ERR_CAPACITY, "shapesOf: body %d has %d shapes, more than capacity %d", body, n, capacity);
  int32_t i = 0;
  for (int32_t s = w->bodies.first_shape[slot]; s >= 0; s = sh->next[s]) out[i++] = tb_make_id(s, sh->generation[s]);
  return n;
}
