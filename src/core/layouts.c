/* Layouts of the public structs that bindings fill or read (TB_FIELDS_MATERIAL and the sets after
 * it): member, element type and component count per struct, with offsets from offsetof, so a
 * binding never copies an offset by hand. Units and docs are those of the comments in tribo.h.
 *
 * X(S, member, tb_field_type, components, unit, doc), S the struct: unit "1" for a dimensionless
 * number, "0/1" a flag, "-1/0/1" a flag that may be undefined (-1), "id" / "enum" / "bits" /
 * "index" the integer kinds (an "enum" member's doc starts with its enum's C name, tb_...),
 * several units one per component group, a unit followed by " | null" a single value that may be
 * not available (NaN for TB_F32, -1 for a count; null in JS, never a 0); doc says the frame
 * (world, body, contact) and the reference point where one applies. A member's size must be
 * components * 4 bytes (8 for TB_I64): checked at compile time below. */
#include <stddef.h>

#include "../include/tribo.h"
#include "fields.h"

#define MATERIAL(X, S)                                                                                \
  X(S, static_friction, TB_F32, 1, "1", "Coulomb μ for sticking (PhysX rule), >= 0")                       \
  X(S, dynamic_friction, TB_F32, 1, "1", "Coulomb μ while sliding; the μ of every other rule, >= 0")       \
  X(S, restitution, TB_F32, 1, "1", "rigid bounce coefficient in [0, 1]")                                 \
  X(S, friction_combine, TB_I32, 1, "enum", "tb_combine_mode of static and dynamic friction (PhysX rule)") \
  X(S, restitution_combine, TB_I32, 1, "enum", "tb_combine_mode of restitution and compliant stiffness (PhysX rule)") \
  X(S, damping_combine, TB_I32, 1, "enum", "tb_combine_mode of compliant_damping (PhysX rule)")            \
  X(S, flags, TB_I32, 1, "bits", "TB_MATERIAL_* bits")                                                    \
  X(S, compliant_stiffness, TB_F32, 1, "N/m or 1/s²",                                                      \
    "PhysX compliant contact stiffness (1/s² with the acceleration-spring flag); 0 = rigid")              \
  X(S, compliant_damping, TB_F32, 1, "N·s/m or 1/s", "damping of a compliant contact (1/s with the acceleration-spring flag)") \
  X(S, torsional_friction, TB_F32, 1, "m", "Newton μ_torsional: normal force to spin torque limit")        \
  X(S, rolling_friction, TB_F32, 1, "m", "Newton μ_rolling: normal force to rolling torque limit")         \
  X(S, ke, TB_F32, 1, "N/m", "Newton penalty normal stiffness; 0 = the world's solver.newton ke, kd, kf, ka") \
  X(S, kd, TB_F32, 1, "N·s/m", "Newton penalty normal damping")                                           \
  X(S, kf, TB_F32, 1, "N·s/m", "Newton penalty friction gain")                                            \
  X(S, ka, TB_F32, 1, "m", "Newton adhesion distance")                                                    \
  X(S, priority, TB_I32, 1, "1", "MuJoCo: the higher priority side's parameters win")                     \
  X(S, condim, TB_I32, 1, "1", "MuJoCo contact dimensionality: 1, 3, 4 or 6")                             \
  X(S, solmix, TB_F32, 1, "1", "MuJoCo weight of this side's solref / solimp at equal priority, >= 0")    \
  X(S, solref, TB_F32, 2, "s, 1 or 1/s², 1/s",                                                            \
    "MuJoCo (timeconst, dampratio) when solref[0] > 0, else direct (-stiffness, -damping)")               \
  X(S, solimp, TB_F32, 5, "1, 1, m, 1, 1", "MuJoCo impedance: dmin, dmax in (0, 1), width, midpoint in [0, 1], power >= 1") \
  X(S, adhesion, TB_F32, 1, "N", "MuJoCo geom adhesion: the net normal force is fn - adhesion")
#define RAY_HIT(X, S)                                                                                 \
  X(S, shape, TB_I32, 1, "id", "the shape hit")                                                           \
  X(S, body, TB_I32, 1, "id", "its body; -1 when the body is static")                                     \
  X(S, point, TB_F32, 3, "m", "hit point, world: origin + distance · unit direction")                      \
  X(S, normal, TB_F32, 3, "1", "unit surface normal at the hit, world, out of the shape; -direction when the ray starts inside") \
  X(S, distance, TB_F32, 1, "m", "along the unit ray direction from the origin; 0 when starting inside")
#define QUERY_FILTER(X, S)                                                                            \
  X(S, skip_body, TB_I32, 1, "id", "shapes of this body are ignored; -1 none")                            \
  X(S, mask, TB_U32, 1, "bits", "shapes whose contype has no bit of mask are ignored")
#define SHAPE_FILTER(X, S)                                                                            \
  X(S, world, TB_I32, 1, "index", "Newton shape world: -1 shared with every world; two different non-negative worlds never collide") \
  X(S, collision_group, TB_I32, 1, "index",                                                               \
    "Newton: 0 collides with nothing; > 0 with the same positive group and any negative; < 0 with all but the same negative group") \
  X(S, contype, TB_U32, 1, "bits", "MuJoCo / Genesis: compatible when (contype0 & conaffinity1) or (contype1 & conaffinity0); the query mask target") \
  X(S, conaffinity, TB_U32, 1, "bits", "MuJoCo / Genesis: see contype")                                   \
  X(S, filter_data, TB_U32, 4, "bits", "PhysX words: own groups, groups it collides with, groups it reports, free") \
  X(S, trigger, TB_I32, 1, "0/1", "PhysX trigger shape: detect and report, never a response")
#define CONTACT_PAIR(X, S)                                                                            \
  X(S, margin, TB_F32, 1, "m", "contacts act when dist < margin (replaces m0 + m1)")                      \
  X(S, gap, TB_F32, 1, "m", "detected without force when margin <= dist < margin + gap, >= 0")            \
  X(S, friction, TB_F32, 5, "1, 1, m, m, m", "MuJoCo order: sliding along tangent0, tangent1, torsional, rolling about tangent0, tangent1") \
  X(S, condim, TB_I32, 1, "1", "MuJoCo contact dimensionality: 1, 3, 4 or 6")                             \
  X(S, solref, TB_F32, 2, "s, 1 or 1/s², 1/s",                                                            \
    "MuJoCo (timeconst, dampratio) when solref[0] > 0, else direct (-stiffness, -damping)")               \
  X(S, solreffriction, TB_F32, 2, "s, 1 or 1/s², 1/s", "solref of the elliptic friction rows; (0, 0) = solref applies") \
  X(S, solimp, TB_F32, 5, "1, 1, m, 1, 1", "MuJoCo impedance: dmin, dmax in (0, 1), width, midpoint in [0, 1], power >= 1") \
  X(S, adhesion, TB_F32, 1, "N", "the reported net normal force is fn - adhesion, >= 0")
#define CONTACT_STATUS(X, S)                                                                          \
  X(S, count, TB_I32, 1, "1", "contacts stored (== requested)")                                           \
  X(S, capacity, TB_I32, 1, "1", "contacts the store holds now")                                          \
  X(S, requested, TB_I32, 1, "1", "contacts found")                                                       \
  X(S, overflowed, TB_I32, 1, "0/1", "always 0: the store grows instead of dropping contacts")            \
  X(S, pair_count, TB_I32, 1, "1", "broad-phase candidate pairs stored (== pairs_requested)")             \
  X(S, pair_capacity, TB_I32, 1, "1", "pairs the pair arrays hold now")                                   \
  X(S, pairs_requested, TB_I32, 1, "1", "candidate pairs found")                                          \
  X(S, pairs_overflowed, TB_I32, 1, "0/1", "always 0: the pair arrays grow instead of dropping pairs")     \
  X(S, readback_valid, TB_I32, 1, "0/1", "1 after solve() filled impulses and forces for this contact set") \
  X(S, grew, TB_I32, 1, "0/1", "1 when this collide() grew the contact store")                            \
  X(S, pairs_grew, TB_I32, 1, "0/1", "1 when this collide() grew the pair arrays")
#define STEP_STATS(X, S)                                                                              \
  X(S, threads_used, TB_I32, 1, "1", "threads that ran jobs in the last solve(), incl. the caller")      \
  X(S, color_count, TB_I32, 1, "1", "graph colours with constraints (PhysX solvers; 0 otherwise)")        \
  X(S, overflow_constraints, TB_I32, 1, "1", "manifolds solved serially outside the colours")             \
  X(S, manifold_count, TB_I32, 1, "1", "manifolds with points solved")                                   \
  X(S, substeps, TB_I32, 1, "1", "internal steps of the solver in one step")                           \
  X(S, island_count, TB_I32, 1, "1", "islands of dynamic bodies after the step, awake and asleep")        \
  X(S, sleeping_islands, TB_I32, 1, "1", "islands asleep")                                                \
  X(S, sleeping_bodies, TB_I32, 1, "1", "dynamic bodies asleep: not integrated, not solved")              \
  X(S, skipped_shapes, TB_I32, 1, "1", "shapes whose bounds collide() did not update (their body sleeps)") \
  X(S, sleeping_pairs, TB_I32, 1, "1", "shape pairs of sleeping bodies not collided, their records kept") \
  X(S, sleeping_contacts, TB_I32, 1, "1", "kept contact records (flagged sleeping) at the end of the store") \
  X(S, refreshed_pairs, TB_I32, 1, "1", "persistent manifolds: pairs refreshed from their previous points in the last collide()") \
  X(S, regenerated_pairs, TB_I32, 1, "1", "persistent manifolds: pairs of the refreshed types fully generated in the last collide()") \
  X(S, apart_pairs, TB_I32, 1, "1", "pairs left without a test in the last collide(): apart at their last test by more than their shapes moved since")
#define READBACK_INFO(X, S)                                                                           \
  X(S, convention, TB_I32, 1, "enum", "tb_readback of the solver that filled the store")                  \
  X(S, valid, TB_I32, 1, "0/1", "1 after solve() filled this contact set")                                \
  X(S, per_contact_force, TB_I32, 1, "0/1", "1 when normal_impulse, tangent_impulse and force are computed") \
  X(S, includes_friction, TB_I32, 1, "0/1", "1 when the tangent impulses are part of the readback")      \
  X(S, includes_restitution, TB_I32, 1, "0/1", "1 when the restitution impulse is included")              \
  X(S, includes_torsional, TB_I32, 1, "0/1", "1 when a torsional friction row is included")               \
  X(S, substeps, TB_I32, 1, "1", "impulses are sums over this many substeps of one step")                 \
  X(S, scale, TB_F32, 1, "1", "contact-count weighting already applied (1 = none)")                       \
  X(S, per_body_force, TB_I32, 1, "0/1", "1 when the solver keeps per-body contact totals")
#define SOLVER_STATUS(X, S)                                                                           \
  X(S, solver, TB_I32, 1, "enum", "tb_solver_type of the last solve()")                                   \
  X(S, position_iterations, TB_I32, 1, "1", "used (max over islands)")                                    \
  X(S, velocity_iterations, TB_I32, 1, "1", "used")                                                       \
  X(S, converged, TB_I32, 1, "-1/0/1", "1 a tolerance was met, 0 it was not, -1 the solver has no tolerance") \
  X(S, residual_velocity, TB_F32, 1, "m/s", "largest normal velocity error after the last iteration, or NaN") \
  X(S, residual_penetration, TB_F32, 1, "m", "deepest penetration left after the step, or NaN")           \
  X(S, improvement, TB_F32, 1, "1/s²", "MuJoCo: last scaled cost decrease (cost / trace of the mass matrix); NaN otherwise") \
  X(S, gradient, TB_F32, 1, "1/s²", "MuJoCo CG / Newton: scaled norm of the cost gradient; NaN otherwise") \
  X(S, residual_primal, TB_F32, 1, "N·s", "Kamino PADMM: ||x - y||∞ of the last iteration; NaN otherwise") \
  X(S, residual_dual, TB_F32, 1, "m/s", "Kamino PADMM: velocity residual of the last iteration; NaN otherwise") \
  X(S, residual_complementarity, TB_F32, 1, "J", "Kamino PADMM: max over contacts |λ·v|; NaN otherwise")
#define HULL_INFO(X, S)                                                                               \
  X(S, vertex_count, TB_I32, 1, "1", "hull vertices (input points inside or on a face dropped)")          \
  X(S, face_count, TB_I32, 1, "1", "polygonal faces after merging coplanar triangles")                    \
  X(S, edge_count, TB_I32, 1, "1", "edges: V - E + F = 2")                                               \
  X(S, support_field_resolution, TB_I32, 1, "1", "cells per side of the support field; 0 = none (exact scan)") \
  X(S, support_field_bytes, TB_I64, 1, "bytes", "memory of the support field")                           \
  X(S, total_bytes, TB_I64, 1, "bytes", "memory of the hull incl. the field")                             \
  X(S, radius, TB_F32, 1, "m", "largest vertex distance from the vertex centroid")
#define WRENCH(X, S)                                                                                  \
  X(S, force, TB_F32, 3, "N", "force, world axes")                                                        \
  X(S, torque, TB_F32, 3, "N·m", "torque about point, world axes")                                        \
  X(S, point, TB_F32, 3, "m", "reference point of the torque, world")
#define CONTACT_EVENT(X, S)                                                                           \
  X(S, type, TB_I32, 1, "enum", "tb_event_type")                                                          \
  X(S, shape0, TB_I32, 1, "id", "first shape; the normal points from shape0 to shape1")                   \
  X(S, shape1, TB_I32, 1, "id", "second shape")                                                           \
  X(S, body0, TB_I32, 1, "id", "body of shape0; -1 static")                                               \
  X(S, body1, TB_I32, 1, "id", "body of shape1; -1 static")                                               \
  X(S, feature_id, TB_U32, 1, "id", "contact events: the point's feature; 0 for force events")            \
  X(S, normal_force, TB_F32, 1, "N", "contact events the point's normal force, force events the pair's total; NaN without per-contact force") \
  X(S, point, TB_F32, 3, "m", "contact point, world (force events: the pair's first point)")
#define EVENT_STATUS(X, S)                                                                            \
  X(S, count, TB_I32, 1, "1", "events stored for the last solve() (<= capacity)")                         \
  X(S, capacity, TB_I32, 1, "1", "events the buffer holds")                                               \
  X(S, requested, TB_I32, 1, "1", "events produced; > capacity means overflow (the first ones are kept)") \
  X(S, overflowed, TB_I32, 1, "0/1", "1 when requested > capacity")                                       \
  X(S, force_available, TB_I32, 1, "0/1", "0 when force events could not be computed; contact events are still reported") \
  X(S, step, TB_I32, 1, "1", "solve() counter of these events")

#define JOINT_DEF(X, S)                                                                               \
  X(S, type, TB_I32, 1, "enum", "tb_joint_type")                                                          \
  X(S, body0, TB_I32, 1, "id", "parent body; -1 = the world")                                             \
  X(S, body1, TB_I32, 1, "id", "child body; -1 = the world; not body0")                                   \
  X(S, position0, TB_F32, 3, "m", "frame0's origin in body0's frame (world when body0 = -1)")             \
  X(S, rotation0, TB_F32, 4, "1", "unit quaternion x, y, z, w: frame0 in body0's frame")                  \
  X(S, position1, TB_F32, 3, "m", "frame1's origin in body1's frame")                                     \
  X(S, rotation1, TB_F32, 4, "1", "unit quaternion x, y, z, w: frame1 in body1's frame")                  \
  X(S, collide_connected, TB_I32, 1, "0/1", "contacts between body0 and body1 (0: their pairs are filtered out)") \
  X(S, enable_limit, TB_I32, 1, "0/1", "the limit lower, upper (cone_angle) acts")                        \
  X(S, lower, TB_F32, 1, "rad or m", "limit: revolute θ and spherical twist (rad), prismatic s and distance length (m)") \
  X(S, upper, TB_F32, 1, "rad or m", "limit, as lower; lower <= upper")                                   \
  X(S, cone_angle, TB_F32, 1, "rad", "spherical limit on the swing of frame1's x axis, in (0, π]")         \
  X(S, enable_motor, TB_I32, 1, "0/1", "revolute and prismatic motor")                                    \
  X(S, motor_speed, TB_F32, 1, "rad/s or m/s", "target speed of body1 relative to body0")                 \
  X(S, max_motor_force, TB_F32, 1, "N·m or N", "the motor's bound (revolute N·m, prismatic N), >= 0")     \
  X(S, length, TB_F32, 1, "m", "distance joint rest length, >= 0")                                        \
  X(S, stiffness, TB_F32, 1, "N/m", "distance joint spring; 0 = rigid (or rope with the limit)")          \
  X(S, damping, TB_F32, 1, "N·s/m", "distance joint spring damping")                                      \
  X(S, break_force, TB_F32, 1, "N", "breaks when |readback force| exceeds it; INFINITY = never")          \
  X(S, break_torque, TB_F32, 1, "N·m", "breaks when |readback torque| exceeds it; INFINITY = never")
#define JOINT_STATE(X, S)                                                                             \
  X(S, type, TB_I32, 1, "enum", "tb_joint_type")                                                          \
  X(S, convention, TB_I32, 1, "enum", "tb_readback of the wrench")                                        \
  X(S, valid, TB_I32, 1, "0/1", "1 when the wrench and motor_force are from the last solve()")            \
  X(S, broken, TB_I32, 1, "0/1", "1 once the break force or torque was exceeded: no longer solved")       \
  X(S, position, TB_F32, 1, "rad or m", "revolute θ (rad), prismatic s, distance length (m), else 0; at the current poses") \
  X(S, speed, TB_F32, 1, "rad/s or m/s", "rate of position, else 0")                                      \
  X(S, motor_force, TB_F32, 1, "N·m or N", "average over the step, on body1 about / along the axis")      \
  X(S, wrench, TB_F32, 9, "N, N·m, m",                                                                    \
    "reaction force (world), torque about point (world), point (world): PhysX on body0 about frame0's origin, Newton on body1 about its centre of mass") \
  X(S, sleeping, TB_I32, 1, "0/1", "1: both sides rest and one sleeps: the readback of the step before it fell asleep, kept")
#define PAIR_DISTANCE(X, S)                                                                           \
  X(S, distance, TB_F32, 1, "m", "signed: dot(point_b - point_a, normal); > 0 the gap, < 0 minus the penetration depth; no margins") \
  X(S, normal, TB_F32, 3, "1", "world unit vector from shape a towards shape b")                          \
  X(S, point_a, TB_F32, 3, "m", "world point on a's surface")                                             \
  X(S, point_b, TB_F32, 3, "m", "world point on b's surface")                                             \
  X(S, method, TB_I32, 1, "enum", "tb_pair_method that answered")                                         \
  X(S, refined, TB_I32, 1, "0/1", "1 when shallow or touching: normal and points re-found by GJK with b moved out")
#define SUPPORT_QUERY(X, S)                                                                           \
  X(S, field_vertex, TB_I32, 1, "index", "hull vertex of the 4-cell support-field lookup; -1 without a field") \
  X(S, scan_vertex, TB_I32, 1, "index", "hull vertex of the exact scan (the first on ties)")              \
  X(S, ties, TB_I32, 1, "1", "distinct vertices of the 4 cells tied at the maximum; 0 without a field")   \
  X(S, used_vertex, TB_I32, 1, "index", "the vertex the narrow phase uses (field unless tied, else scan)") \
  X(S, field_point, TB_F32, 3, "m", "world point of the lookup's vertex (the scan's without a field)")    \
  X(S, scan_point, TB_F32, 3, "m", "world point of the scan's vertex")                                    \
  X(S, error, TB_F32, 1, "m", "dot(scan_point - field_point, unit direction) >= 0: how much less far the lookup reaches")
#define SLEEP_STATE(X, S)                                                                             \
  X(S, rule, TB_I32, 1, "enum", "tb_sleep_mode the world runs: which of the counters below are computed") \
  X(S, wake_counter, TB_F32, 1, "s | null", "PhysX rule: runs down by the timestep while the body is quiet, it may sleep at 0; null under another rule") \
  X(S, cluster_factor, TB_F32, 1, "1 | null",                                                           \
    "PhysX rule: c = 1 + the body's counted shape pairs and joints at the last check, the factor on the energy threshold; null under another rule") \
  X(S, steps_below, TB_I32, 1, "1 | null", "Genesis rule: consecutive steps below the velocity threshold, the body may sleep at the rule's steps; null under another rule")

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
  X(TB_FIELDS_JOINT_STATE, tb_joint_state, JOINT_STATE)                                           \
  X(TB_FIELDS_PAIR_DISTANCE, tb_pair_distance, PAIR_DISTANCE)                                     \
  X(TB_FIELDS_SUPPORT_QUERY, tb_support_query, SUPPORT_QUERY)                                    \
  X(TB_FIELDS_SLEEP_STATE, tb_sleep_state, SLEEP_STATE)

#define WORD_BYTES(type) ((type) == TB_I64 ? 8 : 4)

/* One table per struct; each member's size is checked against its type and components. */
#define MEMBER(st, m, type, comps, unit, doc) {#m, unit, doc, type, comps, (int32_t)offsetof(st, m)},
#define CHECK(st, m, type, comps, unit, doc) \
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
