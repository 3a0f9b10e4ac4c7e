/* Shared by the public C API files (internal): the world lookup every call starts with, and the
 * body and shape operations more than one entity's file needs. */
#ifndef TB_API_H
#define TB_API_H

#include "../world/check.h"
#include "../world/world.h"

/* The live world of a public id, or NULL, with the contact store written: the records and
 * readback the last step owes (tb_step_contacts_ready). Every call that reads the contacts, or
 * changes what their records are made from (ids, body types, the world's settings, the solver's
 * data), reaches its world this way; so does any call not listed under tb_world_peek. */
tb_world* tb_world_get(tb_world_id id);
/* The same without writing the store: the pipeline calls (step, collide, solve, which start a new
 * set of records or owe more of one), destroy, and the calls that read neither the contacts nor
 * anything a step owes and change nothing, which a render or game loop may make after every
 * step: body state and mass, the world's settings, step statistics, solver status, the contact
 * status (counts), the thread mode, id checks, and the ray, overlap and shape queries. */
tb_world* tb_world_peek(tb_world_id id);

/* Declares `w` for the public id `world`, or returns TB_ERR_NOT_FOUND naming fn. */
#define GET_WORLD(fn) GET_WORLD_WITH(tb_world_get, fn)
#define GET_WORLD_PEEK(fn) GET_WORLD_WITH(tb_world_peek, fn)
#define GET_WORLD_WITH(lookup, fn)                                                         \
  tb_world* w = lookup(world);                                                             \
  if (!w) return tb_world_fail(NULL, TB_ERR_NOT_FOUND, "%s: world %d does not exist", fn, world)
/* The same for calls that return a count or an id: the status negated. */
#define GET_WORLD_NEG(fn) GET_WORLD_NEG_WITH(tb_world_get, fn)
#define GET_WORLD_NEG_PEEK(fn) GET_WORLD_NEG_WITH(tb_world_peek, fn)
#define GET_WORLD_NEG_WITH(lookup, fn)                                                     \
  tb_world* w = lookup(world);                                                             \
  if (!w) return -tb_world_fail(NULL, TB_ERR_NOT_FOUND, "%s: world %d does not exist", fn, world)

/* Checks that a new shape (type, params, owned data, density, pose in the body frame) has mass
 * properties float32 holds and that the dynamic body slot's combined ones stay usable; fails
 * naming fn and the shape type. */
tb_status tb_body_check_new_shape(tb_world* w, int32_t slot, int32_t type, const float params[4], const void* data,
                                  float density, tb_transform local, const char* fn);
/* Shapes that own geometry (shapes.data): hulls, meshes, heightfields. */
static inline int tb_shape_has_geometry(int32_t type) {
  return type == TB_SHAPE_HULL || type == TB_SHAPE_MESH || type == TB_SHAPE_HEIGHTFIELD;
}
/* Checks the stored values of live shape slot s (params, pose in the body frame, friction,
 * restitution, density, distances, material) as creating and setting them checks them; fails
 * naming fn. Restore runs it on every shape of a snapshot. */
tb_status tb_shape_check_slot(tb_world* w, const char* fn, int32_t s);
/* The same for live body slot `slot` (state, damping, solver settings, mass properties). */
tb_status tb_body_check_slot(tb_world* w, const char* fn, int32_t slot);
/* Recomputes mass, centre and inertia of a body from its shapes (unless set explicitly). */
void tb_body_update_mass(tb_world* w, int32_t slot);
/* Frees shape slot s (owned geometry, pair lists) onto the free list, or retires it when its
 * generations are used up; the caller unlinks it. */
void tb_shape_slot_free(tb_world* w, int32_t s);
/* Every field of a joint definition, each error naming fn and the field; slots of the two sides
 * in s0, s1 (-1 the world). addJoint and restore run it. */
tb_status tb_joint_check_def(tb_world* w, const char* fn, const tb_joint_def* d, int32_t* s0, int32_t* s1);
/* The values of a MuJoCo pair override (setContactPair and restore), each error naming fn and
 * the field. */
tb_status tb_contact_pair_check(tb_world* w, const char* fn, const tb_contact_pair_params* params);
/* Removes every joint of body slot b (src/api/joint.c); tb_body_destroy calls it. */
void tb_joints_forget_body(tb_world* w, int32_t body_slot);
/* The same without the free list and the generation (tb_body_discard restores both itself). */
void tb_shape_slot_clear(tb_world* w, int32_t s);

/* Everything a world owns, freed: world storage, then each layer's scratch (src/api/world.c). */
void tb_world_destroy_storage(tb_world* w);

#endif
