/* The world definition's fields by name (TB_FIELDS_WORLD_DEF): bindings read and write
 * tb_world_def through this table instead of hard-coded offsets, so the struct can grow. */
#include <stddef.h>

#include "../include/tribo.h"

/* X(path, type, unit, doc): path is the member designator inside tb_world_def. */
#define TB_WORLD_DEF_FIELDS(X)                                                                   \
  X(gravity, TB_F32, 3, "m/s²", "world vector")                                                 \
  X(timestep, TB_F32, 1, "s", "> 0")                                                            \
  X(body_capacity, TB_I32, 1, "1", "initial body slots; grows")                                 \
  X(contact_capacity, TB_I32, 1, "1", "contact points the store holds; overflow is reported")   \
  X(pair_capacity, TB_I32, 1, "1", "broad-phase candidate pairs; overflow is reported")         \
  X(thread_count, TB_I32, 1, "1", "threads incl. the caller")                                   \
  X(solver.position_iterations, TB_I32, 1, "1", "position iterations / substeps")               \
  X(solver.velocity_iterations, TB_I32, 1, "1", "velocity iterations")                          \
  X(solver.bounce_threshold_velocity, TB_F32, 1, "m/s", "restitution only above")               \
  X(solver.max_depenetration_velocity, TB_F32, 1, "m/s", "cap on push-out speed")               \
  X(solver.contact_hertz, TB_F32, 1, "Hz", "soft contact stiffness")                            \
  X(solver.contact_damping_ratio, TB_F32, 1, "1", "soft contact damping ratio")                 \
  X(solver.linear_slop, TB_F32, 1, "m", "penetration allowed without push-out")                 \
  X(solver.speculative_distance, TB_F32, 1, "m", "contacts kept up to this separation")         \
  X(solver.warm_starting, TB_I32, 1, "0/1", "warm start from matched contacts")                 \
  X(solver.solver, TB_I32, 1, "enum", "tb_solver_type")                                         \
  X(solver.combine_rule, TB_I32, 1, "enum", "tb_combine_rule")                                  \
  X(solver.readback, TB_I32, 1, "enum", "tb_readback")                                          \
  X(solver.combine.kamino_friction, TB_I32, 1, "enum", "tb_combine_mode of the Kamino rule")     \
  X(solver.combine.kamino_restitution, TB_I32, 1, "enum", "tb_combine_mode of the Kamino rule")  \
  X(solver.newton.iterations, TB_I32, 1, "1", "XPBD iterations")                                \
  X(solver.newton.relaxation, TB_F32, 1, "1", "XPBD relaxation")                                \
  X(solver.newton.contact_weighting, TB_I32, 1, "0/1", "XPBD contact-count weighting")          \
  X(solver.newton.restitution, TB_I32, 1, "0/1", "XPBD restitution pass")                       \
  X(solver.newton.restitution_iterations, TB_I32, 1, "1", "XPBD restitution iterations")        \
  X(solver.newton.substeps, TB_I32, 1, "1", "penalty substeps")                                 \
  X(solver.newton.ke, TB_F32, 1, "N/m", "penalty fallback stiffness")                           \
  X(solver.newton.kd, TB_F32, 1, "N·s/m", "penalty fallback damping")                          \
  X(solver.newton.kf, TB_F32, 1, "N·s/m", "penalty fallback friction gain")                    \
  X(solver.newton.ka, TB_F32, 1, "m", "penalty fallback adhesion range")                        \
  X(solver.newton.friction_smoothing, TB_F32, 1, "m/s", "penalty Huber delta")                  \
  X(solver.newton.velocity_from_positions, TB_I32, 1, "0/1", "XPBD velocities from positions")  \
  X(solver.friction_every_iteration, TB_I32, 1, "0/1", "PGS friction in every position iteration") \
  X(solver.external_forces_every_iteration, TB_I32, 1, "0/1", "TGS gravity per internal step")  \
  X(solver.bias_coefficient, TB_F32, 1, "1", "PGS/TGS share of the penetration removed per step") \
  /* -- def fields section: solver -- */                                                        \
  X(solver.kamino.max_iterations, TB_I32, 1, "1", "Kamino PADMM iterations at most")            \
  X(solver.kamino.primal_tolerance, TB_F32, 1, "N·s", "Kamino r_p tolerance")                   \
  X(solver.kamino.dual_tolerance, TB_F32, 1, "m/s", "Kamino r_d tolerance")                     \
  X(solver.kamino.complementarity_tolerance, TB_F32, 1, "J", "Kamino r_c tolerance")            \
  X(solver.kamino.eta, TB_F32, 1, "1", "Kamino proximal regularisation (preconditioned)")       \
  X(solver.kamino.rho, TB_F32, 1, "1", "Kamino ADMM penalty (preconditioned)")                  \
  X(solver.kamino.warm_start_scale, TB_F32, 1, "1", "Kamino warm-start factor")                 \
  X(solver.kamino.stabilization, TB_F32, 1, "1", "Kamino share of a penetration removed per step") \
  X(solver.kamino.dead_zone, TB_F32, 1, "m", "Kamino distance dead zone")                       \
  X(collision.broad_phase, TB_I32, 1, "enum", "tb_broad_phase_type")                            \
  X(collision.filter_rule, TB_I32, 1, "enum", "tb_filter_rule")                                 \
  X(collision.distance_rule, TB_I32, 1, "enum", "tb_distance_rule")                             \
  X(collision.matching, TB_I32, 1, "enum", "tb_matching")                                       \
  X(collision.max_points_per_pair, TB_I32, 1, "1", "contact reduction bound")                   \
  X(collision.match_distance, TB_F32, 1, "m", "matching and sticky distance")                   \
  /* -- def fields section: collision -- */                                                      \
  X(collision.max_collision_pairs, TB_I32, 1, "1", "most candidate pairs after filtering; 0 = unlimited")

#define INFO(path, type, comps, unit, doc) {#path, unit, doc, type, comps, (int32_t)offsetof(tb_world_def, path)},
static const tb_field_info s_def_info[] = {TB_WORLD_DEF_FIELDS(INFO)};
#undef INFO

int32_t tb_world_def_field_count(void) { return (int32_t)(sizeof s_def_info / sizeof s_def_info[0]); }
const tb_field_info* tb_world_def_field_get(int32_t index) {
  return index >= 0 && index < tb_world_def_field_count() ? &s_def_info[index] : NULL;
}
