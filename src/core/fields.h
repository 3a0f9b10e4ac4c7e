/* The one list of body and contact SoA fields: C storage, the field tables exposed through
 * tb_field_get(), and the JS typed-array views are all generated from it (internal).
 *
 * X(name, ctype, tb_field_type, components, unit, doc) */
#ifndef TB_FIELDS_H
#define TB_FIELDS_H

#include <stdint.h>

#define TB_BODY_FIELDS(X)                                                                         \
  X(transform, float, TB_F32, 7, "m, 1",                                                          \
    "body origin position (world, m) then rotation quaternion x, y, z, w (body to world)")       \
  X(linear_velocity, float, TB_F32, 3, "m/s", "velocity of the centre of mass, world axes")      \
  X(angular_velocity, float, TB_F32, 3, "rad/s", "world axes")                                   \
  X(body_type, int32_t, TB_I32, 1, "enum", "0 static, 1 kinematic, 2 dynamic; -1 free slot")

#define TB_CONTACT_FIELDS(X)                                                                      \
  X(shape0, int32_t, TB_I32, 1, "id", "first shape; the normal points away from it")             \
  X(shape1, int32_t, TB_I32, 1, "id", "second shape")                                            \
  X(body0, int32_t, TB_I32, 1, "id", "body of shape0; -1 when that body is static")              \
  X(body1, int32_t, TB_I32, 1, "id", "body of shape1; -1 when that body is static")              \
  X(point, float, TB_F32, 3, "m", "world; midpoint between the points on the two surfaces")      \
  X(normal, float, TB_F32, 3, "1", "world unit vector from shape0 towards shape1")               \
  X(separation, float, TB_F32, 1, "m", "signed distance along the normal; negative = penetration") \
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
  X(anchor, int32_t, TB_I32, 1, "index",                                                          \
    "PhysX readback: friction anchor (0 or 1) of the contact's patch located at this point; -1 " \
    "when the point is not an anchor (a patch has at most two anchors)")                        \
  X(friction_anchor_impulse, float, TB_F32, 3, "N·s",                                             \
    "PhysX readback: friction impulse of the anchor at this point over the last step, world "    \
    "axes, on body1 (opposite on body0), applied at point; zero when anchor = -1")

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
int tb_body_field_arrays(tb_body_fields* f, tb_array_ref* out);
int tb_contact_field_arrays(tb_contact_fields* f, tb_array_ref* out);
void* tb_body_field_ptr(tb_body_fields* f, int32_t index);
void* tb_contact_field_ptr(tb_contact_fields* f, int32_t index);

#endif
