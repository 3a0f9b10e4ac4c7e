/* The one list of body and contact SoA fields: C storage, the field tables exposed through
 * tb_field_get(), and the JS typed-array views are all generated from it (internal).
 *
 * X(name, ctype, tb_field_type, components, unit, doc) */
#ifndef TB_FIELDS_H
#define TB_FIELDS_H

#include <stdint.h>

#include "../include/tribo.h"

#define TB_BODY_FIELDS(X)                                                                         \
  X(transform, float, TB_F32, 7, "m, 1",                                                          \
    "body origin position (world, m) then rotation quaternion x, y, z, w (body to world)")       \
  X(linear_velocity, float, TB_F32, 3, "m/s", "velocity of the centre of mass, world axes")      \
  X(angular_velocity, float, TB_F32, 3, "rad/s", "world axes")                                   \
  X(body_type, int32_t, TB_I32, 1, "enum", "0 static, 1 kinematic, 2 dynamic; -1 free slot")       \
  X(asleep, int32_t, TB_I32, 1, "0/1",                                                            \
    "1: asleep (with its island under automatic sleep): not integrated, velocities zero")

#define TB_CONTACT_FIELDS(X)                                                                      \
  X(shape0, int32_t, TB_I32, 1, "id", "first shape; the normal points away from it")             \
  X(shape1, int32_t, TB_I32, 1, "id", "second shape")                                            \
  X(body0, int32_t, TB_I32, 1, "id", "body of shape0; -1 when that body is static")              \
  X(body1, int32_t, TB_I32, 1, "id", "body of shape1; -1 when that body is static")              \
  X(point, float, TB_F32, 3, "m", "world; midpoint between the points on the two surfaces")      \
  X(normal, float, TB_F32, 3, "1",                                                                \
    "world unit vector from shape0 towards shape1; row 0 of the contact frame (normal, "        \
    "tangent0, tangent1)")                                                                      \
  X(separation, float, TB_F32, 1, "m",                                                            \
    "surface separation dot(point1 - point0, normal); negative = penetration")                  \
  X(normal_impulse, float, TB_F32, 1, "N·s",                                                      \
    "over the last step (sum of substeps); >= 0; on body1 along +normal, on body0 along -normal") \
  X(tangent_impulse, float, TB_F32, 2, "N·s",                                                     \
    "friction over the last step along tangent0, tangent1; on body1 (opposite on body0); PhysX " \
    "readback: the friction anchor's impulse, zero at points that are not anchors")             \
  X(tangent0, float, TB_F32, 3, "1", "world unit vector, perpendicular to the normal")           \
  X(tangent1, float, TB_F32, 3, "1", "world unit vector, normal × tangent0")                     \
  X(force, float, TB_F32, 3, "N",                                                                 \
    "average total contact force over the last step on body1 by body0, applied at point, world " \
    "axes: (normal_impulse·normal + tangent impulses·tangents) / timestep; opposite on body0")  \
  X(feature_id, uint32_t, TB_U32, 1, "id",                                                        \
    "geometric feature key; with the shape pair it matches a contact across frames")            \
  /* -- contact fields: distance rule and record -- */                                          \
  X(distance_rule, int32_t, TB_I32, 1, "enum",                                                    \
    "tb_distance_rule that produced the record: 0 newton, 1 mujoco, 2 physx")                    \
  X(distance, float, TB_F32, 1, "m",                                                              \
    "the rule's distance the solver drives to >= 0: newton d = separation - margin; mujoco "     \
    "dist - m = separation - margin; physx g = s - r = separation - margin (rest distance)")     \
  X(margin, float, TB_F32, 1, "m",                                                                \
    "summed over both shapes: newton margins m0 + m1; mujoco m1 + m2; physx restOffsets "        \
    "r0 + r1 (the rest distance)")                                                               \
  X(gap, float, TB_F32, 1, "m",                                                                   \
    "summed over both shapes: newton gaps (kept when distance <= gap); mujoco gaps (detected "   \
    "when separation < margin + gap); physx contactOffsets (generated when separation <= gap "  \
    "+ speculative distance + relative motion of one step)")                                    \
  X(active, int32_t, TB_I32, 1, "0/1",                                                            \
    "1: the contact gets a normal response; newton: distance < 0 at collide() (the XPBD kernel "  \
    "re-evaluates d at its current poses and acts only while d < 0); mujoco: separation < "      \
    "margin; physx: always; 0 for pairs without response (triggers, no-solve pairs)")            \
  X(excluded, int32_t, TB_I32, 1, "0/1",                                                          \
    "mujoco contact.exclude: detected in the gap (margin <= separation < margin + gap), no row") \
  X(point0, float, TB_F32, 3, "m", "world; on the surface of shape0")                              \
  X(point1, float, TB_F32, 3, "m", "world; on the surface of shape1")                              \
  X(local_point0, float, TB_F32, 3, "m",                                                          \
    "point0 in the frame of shape0's body (body origin and axes); a static shape (body0 = -1): "   \
    "world, = point0 (newton-e3 §2)")                                                            \
  X(local_point1, float, TB_F32, 3, "m", "point1 in the frame of shape1's body; static: world")  \
  X(reported_normal, float, TB_F32, 3, "1",                                                       \
    "world unit normal in the rule's reporting convention: physx from shape1 to shape0 "        \
    "(= -normal); newton and mujoco from shape0 to shape1 (= normal)")                          \
  X(reduced, int32_t, TB_I32, 1, "0/1",                                                           \
    "1 when contact reduction dropped points of this contact's shape pair in this frame")        \
  X(match_key, uint32_t, TB_U32, 1, "id",                                                         \
    "persistent key: given when the contact first appears, kept while it matches across frames " \
    "(same shape pair incl. generations, same feature or nearest within match_distance)")       \
  X(match_index, int32_t, TB_I32, 1, "index",                                                     \
    "index of the matched contact in the previous collide()'s store; -1 = new or not stored")   \
  X(age, int32_t, TB_I32, 1, "frames", "collide() calls the contact has been matched; 0 = new")   \
  /* combined material of the contact (the world's combine rule); NaN = the rule has none */      \
  X(static_friction, float, TB_F32, 1, "1",                                                       \
    "Coulomb coefficient for sticking; equals dynamic_friction except under the PhysX rule")     \
  X(dynamic_friction, float, TB_F32, 1, "1", "Coulomb coefficient while sliding (the rule's mu; MuJoCo: slide)") \
  X(restitution, float, TB_F32, 1, "1",                                                           \
    "bounce coefficient; NaN for a compliant (spring) contact and under the VBD rule")           \
  X(stiffness, float, TB_F32, 1, "N/m or 1/s²",                                                   \
    "PhysX compliant spring k (1/s² when material_flags has 8, acceleration spring); "           \
    "mean/VBD rules: ke (N/m); NaN for rigid PhysX and Kamino contacts")                         \
  X(damping, float, TB_F32, 1, "N·s/m or 1/s",                                                    \
    "PhysX compliant damper d (1/s for an acceleration spring); mean/VBD rules: kd (N·s/m); NaN " \
    "for rigid PhysX and Kamino contacts")                                                       \
  X(spin_friction, float, TB_F32, 2, "m",                                                         \
    "torsional then rolling coefficient (normal force -> torque limit); mean and MuJoCo rules, else NaN") \
  X(penalty_friction, float, TB_F32, 2, "N·s/m, m",                                               \
    "penalty friction gain kf (N·s/m) then adhesion distance ka (m); mean rule only, else NaN")  \
  X(material_flags, uint32_t, TB_U32, 1, "bits",                                                  \
    "1 no friction, 2 no strong friction, 4 compliant (spring) contact, 8 acceleration spring")  \
  X(condim, int32_t, TB_I32, 1, "1",                                                              \
    "MuJoCo rule: contact dimensionality 1, 3, 4 or 6; 0 under the other rules")                 \
  X(solref, float, TB_F32, 2, "s, 1 or 1/s², 1/s",                                               \
    "MuJoCo rule: (timeconst, dampratio) when solref[0] > 0, else direct (-stiffness 1/s², -damping 1/s); " \
    "NaN under the other rules")                                                                 \
  X(solimp, float, TB_F32, 5, "1, 1, m, 1, 1",                                                    \
    "MuJoCo rule: impedance dmin, dmax, width, midpoint, power; NaN under the other rules")       \
  X(adhesion, float, TB_F32, 1, "N",                                                              \
    "MuJoCo rule: adhesion force (the reported net normal force is fn - adhesion); NaN otherwise") \
  X(friction, float, TB_F32, 5, "1, 1, m, m, m",                                                  \
    "MuJoCo rule: sliding along tangent0 and tangent1, torsional, rolling about tangent0 and "   \
    "tangent1 (geoms: slide, slide, spin, roll, roll; an explicit pair: its own five); NaN otherwise") \
  X(solref_friction, float, TB_F32, 2, "s, 1 or 1/s², 1/s",                                       \
    "MuJoCo rule: an explicit pair's solreffriction (same formats as solref); 0, 0 = unset (solref " \
    "applies; always for geoms); NaN under the other rules")                                     \
  /* Newton readback and penalty overrides */                                                     \
  X(wrench, float, TB_F32, 6, "N, N·m",                                                           \
    "Newton convention: average wrench by body1 on body0 over the last step, world axes: force "  \
    "(N) then torque (N·m) about body0's centre of mass; filled by the XPBD solver; NaN when the " \
    "solver has none (penalty, PhysX: see tb_contacts_convert for the conversion)")             \
  X(readback_scale, float, TB_F32, 1, "1",                                                        \
    "XPBD contact-count weighting factor applied to this contact's impulses (1/N or "            \
    "2/(NA+NB), 1 = none); NaN for the other solvers")                                          \
  X(override_stiffness, float, TB_F32, 1, "N/m", "penalty override of ke; 0 = unset")            \
  X(override_damping, float, TB_F32, 1, "N·s/m", "penalty override of kd; 0 = unset")            \
  X(friction_scale, float, TB_F32, 1, "1", "penalty: multiplies μ when > 0; 0 = unset")       \
  X(anchor, int32_t, TB_I32, 1, "index",                                                          \
    "PhysX readback: friction anchor (0 or 1) of the contact's patch located at this point; -1 " \
    "when the point is not an anchor (a patch has at most two anchors)")                        \
  X(friction_anchor_impulse, float, TB_F32, 3, "N·s",                                             \
    "PhysX readback: friction impulse of the anchor at this point over the last step, world "    \
    "axes, on body1 (opposite on body0), applied at point; zero when anchor = -1 (a PhysX point " \
    "that is no anchor); NaN for the other solvers")                                            \
  /* MuJoCo readback */                                                                           \
  X(mujoco_force, float, TB_F32, 6, "N, N·m",                                                     \
    "MuJoCo readback (mj_contactForce): contact-frame force on body1 by body0 over the last step: " \
    "normal, along tangent0, tangent1 (N), torsion about normal, rolling about tangent0, tangent1 " \
    "(N·m); normal net of adhesion (fn - adhesion); components beyond condim are 0; NaN for the " \
    "other solvers. The torques (about point) are carried by tb_contacts_convert (newton, "       \
    "newton-mujoco-adapter), not by force, tb_contact_wrench or the per-body totals")            \
  X(efc_address, int32_t, TB_I32, 1, "index",                                                     \
    "MuJoCo readback: first solver row of the contact (efc_address); -1 when the contact has no " \
    "row (excluded, inactive) or the solver is not the MuJoCo one")                              \
  /* islands and sleep */                                                                         \
  X(sleeping, int32_t, TB_I32, 1, "0/1",                                                          \
    "1: both bodies sleep (or one sleeps and the other is static or kinematic): the record and "  \
    "its readback are those of the step before the island fell asleep, kept, not recomputed; "   \
    "such records follow the fresh ones at the end of the store")

#define TB_FIELD_ENUM_BODY(name, ctype, ftype, comps, unit, doc) TB_BODY_FIELD_##name,
#define TB_FIELD_ENUM_CONTACT(name, ctype, ftype, comps, unit, doc) TB_CONTACT_FIELD_##name,
enum { TB_BODY_FIELDS(TB_FIELD_ENUM_BODY) TB_BODY_FIELD_COUNT };
enum { TB_CONTACT_FIELDS(TB_FIELD_ENUM_CONTACT) TB_CONTACT_FIELD_COUNT };

#define TB_FIELD_MEMBER(name, ctype, ftype, comps, unit, doc) ctype* name;
/* Arrays of components * capacity values each. */
typedef struct tb_body_fields { TB_BODY_FIELDS(TB_FIELD_MEMBER) } tb_body_fields;
typedef struct tb_contact_fields { TB_CONTACT_FIELDS(TB_FIELD_MEMBER) } tb_contact_fields;

/* Array refs of every field, from the list (for tb_grow_arrays / tb_free_arrays); return the count. */
#include "alloc.h"
#include "../include/tribo.h"
int tb_body_field_arrays(tb_body_fields* f, tb_array_ref* out);
int tb_contact_field_arrays(tb_contact_fields* f, tb_array_ref* out);
void* tb_body_field_ptr(tb_body_fields* f, int32_t index);
/* Struct layout tables (src/core/layouts.c) of the sets from TB_FIELDS_MATERIAL on. */
int32_t tb_layout_count(int32_t set);
const tb_field_info* tb_layout_get(int32_t set, int32_t index);
int32_t tb_layout_size(int32_t set);
/* The info tables of the body and contact stores (other sets: 0 / NULL). */
int32_t tb_store_field_count(tb_field_set set);
const tb_field_info* tb_store_field_get(tb_field_set set, int32_t index);
void* tb_contact_field_ptr(tb_contact_fields* f, int32_t index);

#endif
