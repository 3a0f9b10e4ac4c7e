/* Public API of bodies: lifecycle, pose and velocity, damping, mass, PhysX per-body settings, and
 * the shapes of a body. */
#include <string.h>

#include "../geometry/mass.h"
#include "../solver/island.h"
#include "api.h"

/* Mass properties of a body's shapes (density), combined about their centre of mass. */
static tb_mass_props shapes_mass(const tb_world* w, int32_t slot) {
  tb_mass_props total = {0.0f, {0, 0, 0}, tb_mat3_zero()};
  for (int32_t s = w->bodies.first_shape[slot]; s >= 0; s = w->shapes.next[s])
    total = tb_mass_combine(total, tb_shape_mass_data(w->shapes.type[s], w->shapes.params + 4 * s, w->shapes.data[s],
                                                      w->shapes.density[s], w->shapes.local[s]));
  return total;
}

static int finite_positive(float v) { return tb_is_finite(v) && v > 0.0f && tb_is_finite(1.0f / v); }

/* Mass properties the solvers can use: mass and the inertia diagonal finite and > 0 with finite
 * inverses, every inertia entry finite and the inverse inertia finite and non-zero. */
static int mass_props_usable(const tb_mass_props* m) {
  if (!finite_positive(m->mass)) return 0;
  const float* e = &m->inertia.cx.x;
  for (int i = 0; i < 9; ++i)
    if (!tb_is_finite(e[i])) return 0;
  if (!finite_positive(m->inertia.cx.x) || !finite_positive(m->inertia.cy.y) || !finite_positive(m->inertia.cz.z)) return 0;
  tb_mat3 inv = tb_mat3_inverse(m->inertia);
  const float* v = &inv.cx.x;
  for (int i = 0; i < 9; ++i)
    if (!tb_is_finite(v[i])) return 0;
  return inv.cx.x > 0.0f && inv.cy.y > 0.0f && inv.cz.z > 0.0f;
}

tb_status tb_body_check_new_shape(tb_world* w, int32_t slot, int32_t type, const float params[4], const void* data,
                                  float density, tb_transform local, const char* fn) {
  if (type == TB_SHAPE_PLANE || type == TB_SHAPE_HEIGHTFIELD || type == TB_SHAPE_MESH) return TB_OK; /* no mass */
  const char* tn = tb_shape_type_name(type);
  tb_mass_props own = tb_shape_mass_data(type, params, data, density, local);
  if (!mass_props_usable(&own))
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT,
                         "%s: %s mass properties do not fit float32 (mass %g kg, inertia %g, %g, %g kg·m²): its size or density "
                         "is too large or too small", fn, tn, (double)own.mass, (double)own.inertia.cx.x, (double)own.inertia.cy.y,
                         (double)own.inertia.cz.z);
  const tb_bodies* b = &w->bodies;
  if (b->f.body_type[slot] != TB_BODY_DYNAMIC || b->mass_explicit[slot]) return TB_OK;
  tb_mass_props total = tb_mass_combine(shapes_mass(w, slot), own);
  if (!mass_props_usable(&total))
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT,
                         "%s: with this %s the body's mass properties do not fit float32 (mass %g kg, inertia %g, %g, %g kg·m² "
                         "about the centre of mass): the shapes are too far apart or too different in size", fn, tn,
                         (double)total.mass, (double)total.inertia.cx.x, (double)total.inertia.cy.y, (double)total.inertia.cz.z);
  return TB_OK;
}

/* The mass properties of a body without setMass: its shapes' (a dynamic body without massive
 * shapes gets 1 kg and unit inertia so that it still moves; static and kinematic bodies zeros),
 * with the inverses the solvers read. */
typedef struct derived_mass {
  tb_mass_props props;
  float inv_mass;
  tb_mat3 inv_inertia;
} derived_mass;

static derived_mass mass_from_shapes(const tb_world* w, int32_t slot) {
  derived_mass m;
  int dynamic = w->bodies.f.body_type[slot] == TB_BODY_DYNAMIC;
  if (dynamic) m.props = shapes_mass(w, slot); /* a static or kinematic body's are zeros below */
  if (!dynamic || m.props.mass <= 0.0f) {
    m.props.mass = dynamic ? 1.0f : 0.0f;
    m.props.center = tb_v3(0, 0, 0);
    m.props.inertia = dynamic ? tb_mat3_diag(tb_v3(1, 1, 1)) : tb_mat3_zero();
  }
  m.inv_mass = m.props.mass > 0.0f ? 1.0f / m.props.mass : 0.0f;
  m.inv_inertia = dynamic ? tb_mat3_inverse(m.props.inertia) : tb_mat3_zero();
  return m;
}

void tb_body_update_mass(tb_world* w, int32_t slot) {
  tb_bodies* b = &w->bodies;
  if (b->mass_explicit[slot]) return;
  derived_mass m = mass_from_shapes(w, slot);
  b->mass[slot] = m.props.mass;
  b->inv_mass[slot] = m.inv_mass;
  b->local_center[slot] = m.props.center;
  b->inertia_local[slot] = m.props.inertia;
  b->inv_inertia_local[slot] = m.inv_inertia;
}

/* Damping (setDamping and restore): each finite and in [0, TB_MAX_DAMPING] 1/s. */
static tb_status check_damping(tb_world* w, const char* fn, float linear_per_s, float angular_per_s) {
  const char* names[2] = {"linearDamping", "angularDamping"};
  const float v[2] = {linear_per_s, angular_per_s};
  for (int i = 0; i < 2; ++i)
    if (!(v[i] >= 0.0f && v[i] <= TB_MAX_DAMPING)) /* NaN fails too */
      return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s must be finite and in [0, %g] 1/s (got %g)", fn, names[i],
                           (double)TB_MAX_DAMPING, (double)v[i]);
  return TB_OK;
}

/* PhysX per-body settings (setMaxContactImpulse, setSolverIterations and restore): an impulse cap
 * > 0 in N·s (Infinity: none); iterations in [1, 255] and [0, 255], or -1 for the world's. */
static tb_status check_max_impulse(tb_world* w, const char* fn, float max_impulse) {
  if (isnan(max_impulse) || max_impulse <= 0.0f)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: maxContactImpulse must be > 0 (N·s, Infinity = none) (got %g)", fn,
                         (double)max_impulse);
  return TB_OK;
}

static tb_status check_iterations(tb_world* w, const char* fn, int32_t position_iterations, int32_t velocity_iterations) {
  if (position_iterations != -1 && (position_iterations < 1 || position_iterations > 255))
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: positionIterations must be in [1, 255] or -1 (got %d)", fn,
                         position_iterations);
  if (velocity_iterations != -1 && (velocity_iterations < 0 || velocity_iterations > 255))
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: velocityIterations must be in [0, 255] or -1 (got %d)", fn,
                         velocity_iterations);
  return TB_OK;
}

/* A stored body (restore): state as setPose / setVelocity check it, damping, per-body solver
 * settings and the mass properties the solvers divide by (what its shapes or setMass give; its
 * shapes checked first: they are read here). */
tb_status tb_body_check_slot(tb_world* w, const char* fn, int32_t slot) {
  const tb_bodies* b = &w->bodies;
  const float* t = b->f.transform + 7 * slot;
  if (!tb_check_finite(w, fn, "position", t, 3) || !tb_check_quat(w, fn, "rotation", t + 3) ||
      !tb_check_finite(w, fn, "linearVelocity", b->f.linear_velocity + 3 * slot, 3) ||
      !tb_check_finite(w, fn, "angularVelocity", b->f.angular_velocity + 3 * slot, 3))
    return TB_ERR_INVALID_ARGUMENT;
  tb_status st = check_damping(w, fn, b->linear_damping[slot], b->angular_damping[slot]);
  if (st != TB_OK) return st;
  st = check_max_impulse(w, fn, b->max_contact_impulse[slot]);
  if (st == TB_OK) st = check_iterations(w, fn, b->position_iterations[slot], b->velocity_iterations[slot]);
  if (st != TB_OK) return st;
  /* the mass properties the body's shapes give (tb_body_update_mass), bit for bit; or setMass's:
   * mass and a diagonal inertia finite and > 0 (1e30 kg with 1e-24 kg·m² is one), the inverses
   * 1/x, the centre finite */
  float mass = b->mass[slot];
  const float* e = &b->inertia_local[slot].cx.x;
  const float* inv = &b->inv_inertia_local[slot].cx.x;
  int ok;
  if (!b->mass_explicit[slot]) {
    derived_mass m = mass_from_shapes(w, slot);
    ok = memcmp(&m.props.mass, &b->mass[slot], sizeof(float)) == 0 && memcmp(&m.inv_mass, &b->inv_mass[slot], sizeof(float)) == 0 &&
         memcmp(&m.props.center, &b->local_center[slot], sizeof(tb_vec3)) == 0 &&
         memcmp(&m.props.inertia, &b->inertia_local[slot], sizeof(tb_mat3)) == 0 &&
         memcmp(&m.inv_inertia, &b->inv_inertia_local[slot], sizeof(tb_mat3)) == 0;
    if (!ok)
      return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: mass %g kg, centre and inertia %g, %g, %g kg·m² (and their inverses) must be "
                           "what its shapes give (%g kg, %g, %g, %g kg·m²)", fn, (double)mass, (double)e[0], (double)e[4], (double)e[8],
                           (double)m.props.mass, (double)m.props.inertia.cx.x, (double)m.props.inertia.cy.y, (double)m.props.inertia.cz.z);
    return TB_OK;
  }
  ok = b->f.body_type[slot] == TB_BODY_DYNAMIC && finite_positive(mass) && b->inv_mass[slot] == 1.0f / mass;
  for (int i = 0; i < 9; ++i) {
    int diagonal = i % 4 == 0;
    ok &= diagonal ? finite_positive(e[i]) && inv[i] == 1.0f / e[i] : e[i] == 0.0f && inv[i] == 0.0f;
  }
  if (!tb_check_finite(w, fn, "centerOfMass", &b->local_center[slot].x, 3)) return TB_ERR_INVALID_ARGUMENT;
  if (!ok)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: mass %g kg (inverse %g) and inertia %g, %g, %g kg·m² must be finite "
                         "and > 0 with their inverses, as setMass sets them (a dynamic body, a diagonal inertia)", fn, (double)mass,
                         (double)b->inv_mass[slot], (double)e[0], (double)e[4], (double)e[8]);
  return TB_OK;
}

tb_body_id tb_body_create(tb_world_id world, tb_body_type type, const float position[3], const float rotation[4]) {
  tb_world* w = tb_world_get(world);
  if (!w) return -tb_world_fail(NULL, TB_ERR_NOT_FOUND, "addBody: world %d does not exist", world);
  const char* fn = "addBody";
  if (type != TB_BODY_STATIC && type != TB_BODY_KINEMATIC && type != TB_BODY_DYNAMIC)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: type must be static (0), kinematic (1) or dynamic (2) (got %d)", fn, (int)type);
  if (!tb_check_position(w, fn, position) || !tb_check_quat(w, fn, "rotation", rotation)) return -TB_ERR_INVALID_ARGUMENT;
  tb_bodies* b = &w->bodies;
  int32_t slot, fresh = b->free_head < 0;
  if (!fresh) {
    slot = b->free_head;
    b->free_head = b->first_shape[slot];
  } else {
    if (b->count >= TB_MAX_BODIES)
      return -tb_world_fail(w, TB_ERR_CAPACITY, "%s: at most %d body slots (each retired after 2048 ids)", fn, TB_MAX_BODIES);
    if (b->count == b->capacity && !tb_bodies_grow(b, b->capacity * 2))
      return -tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "%s: out of memory for %d bodies", fn, b->capacity * 2);
    slot = b->count++;
    b->generation[slot] = w->id_salt;
  }
  w->undo_body = slot; /* tb_body_discard can take this creation back */
  w->undo_body_fresh = fresh;
  w->undo_shape_count = w->shapes.count;
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
  b->f.asleep[slot] = 0;
  b->max_contact_impulse[slot] = INFINITY; /* PhysX settings: no cap, the world's iterations */
  b->position_iterations[slot] = -1;
  b->velocity_iterations[slot] = -1;
  tb_island_add_body(w, slot); /* a dynamic body: its own island, awake */
  tb_body_update_mass(w, slot);
  w->collided = 0;
  return tb_make_id(slot, b->generation[slot]);
}

tb_status tb_body_destroy(tb_world_id world, tb_body_id body) {
  GET_WORLD("removeBody");
  int32_t slot = tb_body_slot_checked(w, body, "removeBody");
  if (slot < 0) return TB_ERR_NOT_FOUND;
  tb_bodies* b = &w->bodies;
  tb_island_remove_body(w, slot); /* islands resting on it wake */
  for (int32_t s = b->first_shape[slot]; s >= 0;) {
    int32_t next = w->shapes.next[s];
    tb_shape_slot_free(w, s);
    s = next;
  }
  tb_pair_lists_forget_body(w, slot); /* filtering: exclusions and parent links */
  tb_joints_forget_body(w, slot);     /* joints: tb_body_destroy_with_joints lists them */
  b->f.body_type[slot] = -1;
  b->first_shape[slot] = -1;
  if (tb_slot_release(&b->generation[slot], w->id_salt)) {
    b->first_shape[slot] = b->free_head;
    b->free_head = slot;
  }
  tb_undo_forget(w);
  w->collided = 0; /* the manifolds may name the removed body: solve() needs a new collide() */
  return TB_OK;
}

tb_status tb_body_discard(tb_world_id world, tb_body_id body) {
  const char* fn = "discardBody";
  GET_WORLD(fn);
  int32_t slot = tb_body_slot_checked(w, body, fn);
  if (slot < 0) return TB_ERR_NOT_FOUND;
  if (w->undo_body != slot)
    return tb_world_fail(w, TB_ERR_INVALID_STATE,
                         "%s: body %d is not the last body created, or a body, shape, joint or sensor was created or removed, or "
                         "collide() ran since; remove it with removeBody", fn, body);
  tb_bodies* b = &w->bodies;
  tb_shapes* sh = &w->shapes;
  /* its shapes, newest first: slots from the free list go back to its head in the order they
   * left it; fresh slots (>= the count before) are dropped with the count */
  while (b->first_shape[slot] >= 0) {
    int32_t* link = &b->first_shape[slot];
    while (sh->next[*link] >= 0) link = &sh->next[*link];
    int32_t s = *link;
    *link = -1;
    tb_shape_slot_clear(w, s);
    if (s < w->undo_shape_count) {
      sh->next[s] = sh->free_head;
      sh->free_head = s;
    }
  }
  sh->count = w->undo_shape_count;
  tb_pair_lists_forget_body(w, slot);
  b->f.body_type[slot] = -1;
  b->first_shape[slot] = -1;
  if (w->undo_body_fresh) {
    b->count = slot; /* it was the top slot */
  } else {
    b->first_shape[slot] = b->free_head;
    b->free_head = slot;
  }
  tb_undo_forget(w);
  w->collided = 0;
  return TB_OK;
}

tb_status tb_body_set_pose(tb_world_id world, tb_body_id body, const float position[3], const float rotation[4]) {
  GET_WORLD("setPose");
  int32_t slot = tb_body_slot_checked(w, body, "setPose");
  if (slot < 0) return TB_ERR_NOT_FOUND;
  if (!tb_check_position(w, "setPose", position) || !tb_check_quat(w, "setPose", "rotation", rotation))
    return TB_ERR_INVALID_ARGUMENT;
  float* t = w->bodies.f.transform + 7 * slot;
  memcpy(t, position, 3 * sizeof(float));
  tb_quat q = tb_quat_normalize((tb_quat){rotation[0], rotation[1], rotation[2], rotation[3]});
  t[3] = q.x; t[4] = q.y; t[5] = q.z; t[6] = q.w;
  tb_island_touch_body(w, slot);
  if (w->bodies.f.body_type[slot] == TB_BODY_STATIC) tb_world_static_bounds_stale(w);
  w->collided = 0;
  return TB_OK;
}

tb_status tb_body_set_velocity(tb_world_id world, tb_body_id body, const float linear[3], const float angular[3]) {
  GET_WORLD("setVelocity");
  int32_t slot = tb_body_slot_checked(w, body, "setVelocity");
  if (slot < 0) return TB_ERR_NOT_FOUND;
  if (!tb_check_within(w, "setVelocity", "linear", linear, TB_MAX_SPEED, "m/s") ||
      !tb_check_within(w, "setVelocity", "angular", angular, TB_MAX_ANGULAR_SPEED, "rad/s"))
    return TB_ERR_INVALID_ARGUMENT;
  if (w->bodies.f.body_type[slot] == TB_BODY_STATIC)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "setVelocity: body %d is static and cannot move", body);
  memcpy(w->bodies.f.linear_velocity + 3 * slot, linear, 3 * sizeof(float));
  memcpy(w->bodies.f.angular_velocity + 3 * slot, angular, 3 * sizeof(float));
  tb_island_touch_body(w, slot);
  return TB_OK;
}

tb_status tb_body_get_state(tb_world_id world, tb_body_id body, float out[13]) {
  GET_WORLD_PEEK("getState");
  int32_t slot = tb_body_slot_checked(w, body, "getState");
  if (slot < 0) return TB_ERR_NOT_FOUND;
  if (!out) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "getState: out must not be NULL");
  memcpy(out, w->bodies.f.transform + 7 * slot, 7 * sizeof(float));
  memcpy(out + 7, w->bodies.f.linear_velocity + 3 * slot, 3 * sizeof(float));
  memcpy(out + 10, w->bodies.f.angular_velocity + 3 * slot, 3 * sizeof(float));
  return TB_OK;
}

tb_status tb_body_set_damping(tb_world_id world, tb_body_id body, float linear_per_s, float angular_per_s) {
  GET_WORLD("setDamping");
  int32_t slot = tb_body_slot_checked(w, body, "setDamping");
  if (slot < 0) return TB_ERR_NOT_FOUND;
  tb_status st = check_damping(w, "setDamping", linear_per_s, angular_per_s);
  if (st != TB_OK) return st;
  w->bodies.linear_damping[slot] = linear_per_s;
  w->bodies.angular_damping[slot] = angular_per_s;
  return TB_OK;
}

/* ---- PhysX per-body solver settings ---- */

tb_status tb_body_set_max_contact_impulse(tb_world_id world, tb_body_id body, float max_impulse) {
  GET_WORLD("setMaxContactImpulse");
  int32_t slot = tb_body_slot_checked(w, body, "setMaxContactImpulse");
  if (slot < 0) return TB_ERR_NOT_FOUND;
  tb_status st = check_max_impulse(w, "setMaxContactImpulse", max_impulse);
  if (st != TB_OK) return st;
  w->bodies.max_contact_impulse[slot] = max_impulse;
  return TB_OK;
}

tb_status tb_body_set_solver_iterations(tb_world_id world, tb_body_id body, int32_t position_iterations, int32_t velocity_iterations) {
  GET_WORLD("setSolverIterations");
  int32_t slot = tb_body_slot_checked(w, body, "setSolverIterations");
  if (slot < 0) return TB_ERR_NOT_FOUND;
  tb_status st = check_iterations(w, "setSolverIterations", position_iterations, velocity_iterations);
  if (st != TB_OK) return st;
  w->bodies.position_iterations[slot] = position_iterations;
  w->bodies.velocity_iterations[slot] = velocity_iterations;
  return TB_OK;
}

tb_status tb_body_set_mass(tb_world_id world, tb_body_id body, float mass, const float center[3], const float inertia[3]) {
  GET_WORLD("setMass");
  int32_t slot = tb_body_slot_checked(w, body, "setMass");
  if (slot < 0) return TB_ERR_NOT_FOUND;
  if (w->bodies.f.body_type[slot] != TB_BODY_DYNAMIC)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "setMass: body %d is not dynamic", body);
  /* float32 must hold the value and its inverse: (1.2e-38, 3.4e38) with 1/x finite */
  if (!finite_positive(mass))
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "setMass: mass must be finite and > 0 (got %g) with a finite inverse (kg, at least 3e-39)", (double)mass);
  if (!tb_check_finite(w, "setMass", "center", center, 3) || !tb_check_finite(w, "setMass", "inertia", inertia, 3))
    return TB_ERR_INVALID_ARGUMENT;
  for (int i = 0; i < 3; ++i)
    if (!finite_positive(inertia[i]))
      return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "setMass: inertia[%d] must be > 0 (got %g) with a finite inverse (kg·m², at least 3e-39)", i, (double)inertia[i]);
  tb_bodies* b = &w->bodies;
  b->mass_explicit[slot] = 1;
  b->mass[slot] = mass;
  b->inv_mass[slot] = 1.0f / mass;
  b->local_center[slot] = tb_v3(center[0], center[1], center[2]);
  b->inertia_local[slot] = tb_mat3_diag(tb_v3(inertia[0], inertia[1], inertia[2]));
  b->inv_inertia_local[slot] = tb_mat3_diag(tb_v3(1.0f / inertia[0], 1.0f / inertia[1], 1.0f / inertia[2]));
  tb_island_touch_body(w, slot);
  return TB_OK;
}

tb_status tb_body_get_mass(tb_world_id world, tb_body_id body, float out[13]) {
  GET_WORLD_PEEK("getMass");
  int32_t slot = tb_body_slot_checked(w, body, "getMass");
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

/* ---- shapes of a body (bindings map shape ids to materials through this) ---- */

int32_t tb_body_get_shapes(tb_world_id world, tb_body_id body, tb_shape_id* out, int32_t capacity) {
  tb_world* w = tb_world_get(world);
  if (!w) return -tb_world_fail(NULL, TB_ERR_NOT_FOUND, "shapesOf: world %d does not exist", world);
  int32_t slot = tb_body_slot_checked(w, body, "shapesOf");
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
