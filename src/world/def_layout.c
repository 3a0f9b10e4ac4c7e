/* Byte offsets of the world definition's fields by name, so that bindings write tb_world_def
 * without copying its layout (fields may be added to it). */
#include <stddef.h>
#include <string.h>

#include "../include/tribo.h"

#define TB_DEF_FIELD(path) {#path, (int32_t)offsetof(tb_world_def, path)}

static const struct { const char* name; int32_t offset; } s_def_fields[] = {
    TB_DEF_FIELD(gravity),
    TB_DEF_FIELD(timestep),
    TB_DEF_FIELD(body_capacity),
    TB_DEF_FIELD(contact_capacity),
    TB_DEF_FIELD(pair_capacity),
    TB_DEF_FIELD(thread_count),
    TB_DEF_FIELD(solver.solver),
    TB_DEF_FIELD(solver.combine_rule),
    TB_DEF_FIELD(solver.readback),
    TB_DEF_FIELD(solver.position_iterations),
    TB_DEF_FIELD(solver.velocity_iterations),
    TB_DEF_FIELD(solver.bounce_threshold_velocity),
    TB_DEF_FIELD(solver.max_depenetration_velocity),
    TB_DEF_FIELD(solver.contact_hertz),
    TB_DEF_FIELD(solver.contact_damping_ratio),
    TB_DEF_FIELD(solver.linear_slop),
    TB_DEF_FIELD(solver.speculative_distance),
    TB_DEF_FIELD(solver.warm_starting),
    /* PhysX PGS / TGS */
    TB_DEF_FIELD(solver.friction_every_iteration),
    TB_DEF_FIELD(solver.external_forces_every_iteration),
    TB_DEF_FIELD(solver.bias_coefficient),
    TB_DEF_FIELD(collision.broad_phase),
    TB_DEF_FIELD(collision.filter_rule),
    TB_DEF_FIELD(collision.distance_rule),
    TB_DEF_FIELD(collision.matching),
    TB_DEF_FIELD(collision.max_points_per_pair),
};

int32_t tb_world_def_offset(const char* name) {
  if (!name) return -1;
  for (size_t i = 0; i < sizeof s_def_fields / sizeof s_def_fields[0]; ++i)
    if (strcmp(s_def_fields[i].name, name) == 0) return s_def_fields[i].offset;
  return -1;
}
