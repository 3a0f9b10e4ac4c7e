/* Layouts of the public structs that bindings fill or read (TB_FIELDS_MATERIAL and the sets after
 * it): member, element type and component count per struct, with offsets from offsetof, so a
 * binding never copies an offset by hand. The units and meanings are the comments in tribo.h.
 *
 * X(S, member, tb_field_type, components), S the struct. A member's size must be components * 4 bytes (8 for
 * TB_I64): checked at compile time below. */
#include <stddef.h>

#include "../include/tribo.h"
#include "fields.h"

#define MATERIAL(X, S)                                                                                \
  X(S, static_friction, TB_F32, 1) X(S, dynamic_friction, TB_F32, 1) X(S, restitution, TB_F32, 1)          \
  X(S, friction_combine, TB_I32, 1) X(S, restitution_combine, TB_I32, 1) X(S, damping_combine, TB_I32, 1)  \
  X(S, flags, TB_I32, 1) X(S, compliant_stiffness, TB_F32, 1) X(S, compliant_damping, TB_F32, 1)           \
  X(S, torsional_friction, TB_F32, 1) X(S, rolling_friction, TB_F32, 1) X(S, ke, TB_F32, 1)               \
  X(S, kd, TB_F32, 1) X(S, kf, TB_F32, 1) X(S, ka, TB_F32, 1) X(S, priority, TB_I32, 1) X(S, condim, TB_I32, 1)  \
  X(S, solmix, TB_F32, 1) X(S, solref, TB_F32, 2) X(S, solimp, TB_F32, 5) X(S, adhesion, TB_F32, 1)
#define RAY_HIT(X, S) X(S, shape, TB_I32, 1) X(S, body, TB_I32, 1) X(S, point, TB_F32, 3) X(S, normal, TB_F32, 3) X(S, distance, TB_F32, 1)
#define QUERY_FILTER(X, S) X(S, skip_body, TB_I32, 1) X(S, mask, TB_U32, 1)
#define SHAPE_FILTER(X, S)                                                                            \
  X(S, world, TB_I32, 1) X(S, collision_group, TB_I32, 1) X(S, contype, TB_U32, 1) X(S, conaffinity, TB_U32, 1) \
  X(S, filter_data, TB_U32, 4) X(S, trigger, TB_I32, 1)
#define CONTACT_PAIR(X, S)                                                                            \
  X(S, margin, TB_F32, 1) X(S, gap, TB_F32, 1) X(S, friction, TB_F32, 5) X(S, condim, TB_I32, 1)          \
  X(S, solref, TB_F32, 2) X(S, solreffriction, TB_F32, 2) X(S, solimp, TB_F32, 5) X(S, adhesion, TB_F32, 1)
#define CONTACT_STATUS(X, S)                                                                          \
  X(S, count, TB_I32, 1) X(S, capacity, TB_I32, 1) X(S, requested, TB_I32, 1) X(S, overflowed, TB_I32, 1)     \
  X(S, pair_count, TB_I32, 1) X(S, pair_capacity, TB_I32, 1) X(S, pairs_requested, TB_I32, 1)              \
  X(S, pairs_overflowed, TB_I32, 1) X(S, readback_valid, TB_I32, 1) X(S, grew, TB_I32, 1) X(S, pairs_grew, TB_I32, 1)
#define STEP_STATS(X, S)                                                                              \
  X(S, threads_used, TB_I32, 1) X(S, color_count, TB_I32, 1) X(S, overflow_constraints, TB_I32, 1)         \
  X(S, manifold_count, TB_I32, 1) X(S, substeps, TB_I32, 1)                                       \
  X(S, island_count, TB_I32, 1) X(S, sleeping_islands, TB_I32, 1) X(S, sleeping_bodies, TB_I32, 1)  \
  X(S, skipped_shapes, TB_I32, 1) X(S, sleeping_pairs, TB_I32, 1) X(S, sleeping_contacts, TB_I32, 1)
#define READBACK_INFO(X, S)                                                                           \
  X(S, convention, TB_I32, 1) X(S, valid, TB_I32, 1) X(S, per_contact_force, TB_I32, 1)                    \
  X(S, includes_friction, TB_I32, 1) X(S, includes_restitution, TB_I32, 1) X(S, includes_torsional, TB_I32, 1) \
  X(S, substeps, TB_I32, 1) X(S, scale, TB_F32, 1) X(S, per_body_force, TB_I32, 1)
#define SOLVER_STATUS(X, S)                                                                           \
  X(S, solver, TB_I32, 1) X(S, position_iterations, TB_I32, 1) X(S, velocity_iterations, TB_I32, 1)        \
  X(S, converged, TB_I32, 1) X(S, residual_velocity, TB_F32, 1) X(S, residual_penetration, TB_F32, 1)     \
  X(S, improvement, TB_F32, 1) X(S, gradient, TB_F32, 1) X(S, residual_primal, TB_F32, 1)                 \
  X(S, residual_dual, TB_F32, 1) X(S, residual_complementarity, TB_F32, 1)
#define HULL_INFO(X, S)                                                                               \
  X(S, vertex_count, TB_I32, 1) X(S, face_count, TB_I32, 1) X(S, edge_count, TB_I32, 1)                    \
  X(S, support_field_resolution, TB_I32, 1) X(S, support_field_bytes, TB_I64, 1) X(S, total_bytes, TB_I64, 1) \
  X(S, radius, TB_F32, 1)
#define WRENCH(X, S) X(S, force, TB_F32, 3) X(S, torque, TB_F32, 3) X(S, point, TB_F32, 3)
#define CONTACT_EVENT(X, S)                                                                           \
  X(S, type, TB_I32, 1) X(S, shape0, TB_I32, 1) X(S, shape1, TB_I32, 1) X(S, body0, TB_I32, 1) X(S, body1, TB_I32, 1) \
  X(S, feature_id, TB_U32, 1) X(S, normal_force, TB_F32, 1) X(S, point, TB_F32, 3)
#define EVENT_STATUS(X, S)                                                                            \
  X(S, count, TB_I32, 1) X(S, capacity, TB_I32, 1) X(S, requested, TB_I32, 1) X(S, overflowed, TB_I32, 1)     \
  X(S, force_available, TB_I32, 1) X(S, step, TB_I32, 1)

#define JOINT_DEF(X, S)                                                                               \
  X(S, type, TB_I32, 1) X(S, body0, TB_I32, 1) X(S, body1, TB_I32, 1) X(S, position0, TB_F32, 3)             \
  X(S, rotation0, TB_F32, 4) X(S, position1, TB_F32, 3) X(S, rotation1, TB_F32, 4)                          \
  X(S, collide_connected, TB_I32, 1) X(S, enable_limit, TB_I32, 1) X(S, lower, TB_F32, 1) X(S, upper, TB_F32, 1) \
  X(S, cone_angle, TB_F32, 1) X(S, enable_motor, TB_I32, 1) X(S, motor_speed, TB_F32, 1)                    \
  X(S, max_motor_force, TB_F32, 1) X(S, length, TB_F32, 1) X(S, stiffness, TB_F32, 1) X(S, damping, TB_F32, 1) \
  X(S, break_force, TB_F32, 1) X(S, break_torque, TB_F32, 1)
#define JOINT_STATE(X, S)                                                                             \
  X(S, type, TB_I32, 1) X(S, convention, TB_I32, 1) X(S, valid, TB_I32, 1) X(S, broken, TB_I32, 1)         \
  X(S, position, TB_F32, 1) X(S, speed, TB_F32, 1) X(S, motor_force, TB_F32, 1) X(S, wrench, TB_F32, 9) \
  X(S, sleeping, TB_I32, 1)

/* set, struct, member list */
#define TB_LAYOUTS(X)                                                                              \
  X(TB_FIELDS_MATERIAL, tb_material, MATERIAL)                                                    \
  X(TB_FIELDS_RAY_HIT, tb_ray_hit, RAY_HIT)                                                       \
  X(TB_FIELDS_QUERY_FILTER, tb_query_filter, QUERY_FILTER)                                        \
  X(TB_FIELDS_SHAPE_FILTER, tb_shape_filter, SHAPE_FILTER)                                        \
  X(TB_FIELDS_CONTACT_PAIR, tb_contact_pair_params, CONTACT_PAIR)                                 \
  X(TB_FIELDS_CONTACT_STATUS, tb_contact_status, CONTACT_STATUS)                                  \
  X(TB_FIELDS_STEP_STATS, tb_step_stats, STEP_STATS)                                              \
  X(TB_FIELDS_READBACK_INFO, tb_readback_info, READBACK_INFO)                                     \
  X(TB_FIELDS_SOLVER_STATUS, tb_solver_status, SOLVER_STATUS)                                     \
  X(TB_FIELDS_HULL_INFO, tb_hull_info, HULL_INFO)                                                 \
  X(TB_FIELDS_WRENCH, tb_wrench, WRENCH)                                                          \
  X(TB_FIELDS_CONTACT_EVENT, tb_contact_event, CONTACT_EVENT)                                     \
  X(TB_FIELDS_EVENT_STATUS, tb_event_status, EVENT_STATUS)                                        \
  X(TB_FIELDS_JOINT_DEF, tb_joint_def, JOINT_DEF)                                                 \
  X(TB_FIELDS_JOINT_STATE, tb_joint_state, JOINT_STATE)

#define WORD_BYTES(type) ((type) == TB_I64 ? 8 : 4)

/* One table per struct; each member's size is checked against its type and components. */
#define MEMBER(st, m, type, comps) {#m, "", "", type, comps, (int32_t)offsetof(st, m)},
#define CHECK(st, m, type, comps) \
  _Static_assert(sizeof(((st*)0)->m) == (size_t)(comps) * WORD_BYTES(type), #st "." #m " size");
#define TABLE(set, st, list) list(CHECK, st) static const tb_field_info s_##set[] = {list(MEMBER, st)};
TB_LAYOUTS(TABLE)
#undef TABLE
#undef CHECK
#undef MEMBER

typedef struct layout {
  const tb_field_info* fields;
  int32_t count;
  int32_t size;
} layout;

#define ENTRY(set, st, list) [set] = {s_##set, (int32_t)(sizeof s_##set / sizeof s_##set[0]), (int32_t)sizeof(st)},
static const layout s_layouts[TB_FIELD_SET_COUNT] = {TB_LAYOUTS(ENTRY)};
#undef ENTRY

static const layout* layout_of(int32_t set) {
  return set >= 0 && set < TB_FIELD_SET_COUNT && s_layouts[set].fields ? &s_layouts[set] : NULL;
}

int32_t tb_layout_count(int32_t set) {
  const layout* l = layout_of(set);
  return l ? l->count : 0;
}

const tb_field_info* tb_layout_get(int32_t set, int32_t index) {
  const layout* l = layout_of(set);
  return l && index >= 0 && index < l->count ? &l->fields[index] : NULL;
}

int32_t tb_layout_size(int32_t set) {
  const layout* l = layout_of(set);
  return l ? l->size : 0;
}
