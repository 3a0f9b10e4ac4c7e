/* The world definition: its fields by name (TB_FIELDS_WORLD_DEF), the defaults, the presets and
 * the checks of every definition field. Bindings read and write tb_world_def through the table
 * instead of hard-coded offsets, so the struct can grow. */
#include "world_def.h"

#include <stddef.h>
#include <string.h>

#include "../core/jobs.h"
#include "check.h"

/* X(path, type, unit, doc): path is the member designator inside tb_world_def. */
#define TB_WORLD_DEF_FIELDS(X)                                                                   \
  X(gravity, TB_F32, 3, "m/s²", "world vector")                                                 \
  X(timestep, TB_F32, 1, "s", "in [1e-12, 1e12]")                                              \
  X(body_capacity, TB_I32, 1, "1", "initial body slots; grows")                                 \
  X(contact_capacity, TB_I32, 1, "1", "initial contact points; the store grows")               \
  X(pair_capacity, TB_I32, 1, "1", "initial broad-phase pairs; the arrays grow")              \
  X(thread_count, TB_I32, 1, "1", "threads incl. the caller")                                   \
  X(solver.position_iterations, TB_I32, 1, "1", "position iterations / substeps")               \
  X(solver.velocity_iterations, TB_I32, 1, "1", "velocity iterations")                          \
  X(solver.bounce_threshold_velocity, TB_F32, 1, "m/s", "restitution only above")               \
  X(solver.max_depenetration_velocity, TB_F32, 1, "m/s", "cap on push-out speed; 1e32 = none") \
  X(solver.speculative_distance, TB_F32, 1, "m", "contacts kept up to this separation")         \
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
  X(solver.newton.xpbd_substeps, TB_I32, 1, "1", "XPBD substeps")                               \
  X(solver.newton.ke, TB_F32, 1, "N/m", "penalty fallback stiffness")                           \
  X(solver.newton.kd, TB_F32, 1, "N·s/m", "penalty fallback damping")                          \
  X(solver.newton.kf, TB_F32, 1, "N·s/m", "penalty fallback friction gain")                    \
  X(solver.newton.ka, TB_F32, 1, "m", "penalty fallback adhesion range")                        \
  X(solver.newton.friction_smoothing, TB_F32, 1, "m/s", "penalty Huber delta")                  \
  X(solver.newton.velocity_from_positions, TB_I32, 1, "0/1", "XPBD velocities from positions")  \
  X(solver.friction_every_iteration, TB_I32, 1, "0/1", "PGS friction in every position iteration") \
  X(solver.external_forces_every_iteration, TB_I32, 1, "0/1", "TGS gravity per internal step")  \
  X(solver.bias_coefficient, TB_F32, 1, "1", "PGS/TGS share of the penetration removed per step") \
  X(solver.mujoco.cone, TB_I32, 1, "enum", "MuJoCo tb_mujoco_cone")                             \
  X(solver.mujoco.algorithm, TB_I32, 1, "enum", "MuJoCo tb_mujoco_algorithm")                   \
  X(solver.mujoco.integrator, TB_I32, 1, "enum", "MuJoCo tb_mujoco_integrator")                 \
  X(solver.mujoco.iterations, TB_I32, 1, "1", "MuJoCo most solver iterations")                  \
  X(solver.mujoco.tolerance, TB_F32, 1, "1", "MuJoCo tolerance on the scaled improvement / gradient") \
  X(solver.mujoco.ls_iterations, TB_I32, 1, "1", "MuJoCo most line-search iterations")          \
  X(solver.mujoco.ls_tolerance, TB_F32, 1, "1", "MuJoCo line-search tolerance factor")         \
  X(solver.mujoco.impratio, TB_F32, 1, "1", "MuJoCo friction-to-normal impedance ratio")        \
  X(solver.mujoco.refsafe, TB_I32, 1, "0/1", "MuJoCo timeconst >= 2 timestep")                   \
  X(solver.mujoco.warmstart, TB_I32, 1, "0/1", "MuJoCo warm start from the last accelerations")    \
  X(solver.mujoco.default_timeconst, TB_F32, 1, "s", "solref timeconst of a new shape's material")   \
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
  X(solver.kamino.warm_start, TB_I32, 1, "0/1", "Kamino warm start from the matched impulses")    \
  /* -- def fields section: sleep -- */                                                           \
  X(solver.sleep.mode, TB_I32, 1, "enum", "tb_sleep_mode: automatic sleep rule")                  \
  X(solver.sleep.velocity_threshold, TB_F32, 1, "m/s", "Genesis hibernation velocity threshold")  \
  X(solver.sleep.steps, TB_I32, 1, "1", "Genesis consecutive steps below the threshold")          \
  X(solver.sleep.energy_threshold, TB_F32, 1, "m²/s²", "PhysX mass-normalised kinetic energy threshold") \
  X(solver.sleep.wake_counter, TB_F32, 1, "s", "PhysX wake counter reset value")                 \
  X(collision.broad_phase, TB_I32, 1, "enum", "tb_broad_phase_type")                            \
  X(collision.filter_rule, TB_I32, 1, "enum", "tb_filter_rule")                                 \
  X(collision.distance_rule, TB_I32, 1, "enum", "tb_distance_rule")                             \
  X(collision.matching, TB_I32, 1, "enum", "tb_matching")                                       \
  X(collision.max_points_per_pair, TB_I32, 1, "1", "contact reduction bound")                   \
  X(collision.match_distance, TB_F32, 1, "m", "matching and sticky distance")                   \
  X(collision.speculative_widening, TB_I32, 1, "0/1", "Newton: widen by relative speed x step, capped") \
  X(collision.max_speculative_extension, TB_F32, 1, "m", "Newton: cap of the speculative widening") \
  X(collision.constant_gap, TB_F32, 1, "m", "Newton: constant distance added to the gaps")       \
  X(collision.persistent_manifolds, TB_I32, 1, "0/1", "PhysX PCM: refresh box-box / capsule-box points below the pose thresholds") \
  /* -- def fields section: collision -- */                                                      \
  X(collision.max_collision_pairs, TB_I32, 1, "1", "most candidate pairs after filtering; 0 = unlimited")

#define INFO(path, type, comps, unit, doc) {#path, unit, doc, type, comps, (int32_t)offsetof(tb_world_def, path)},
static const tb_field_info s_def_info[] = {TB_WORLD_DEF_FIELDS(INFO)};
#undef INFO

int32_t tb_world_def_field_count(void) { return (int32_t)(sizeof s_def_info / sizeof s_def_info[0]); }
const tb_field_info* tb_world_def_field_get(int32_t index) {
  return index >= 0 && index < tb_world_def_field_count() ? &s_def_info[index] : NULL;
}

/* ---- defaults and presets ---- */

tb_newton_params tb_newton_params_default(void) {
  tb_newton_params p;
  memset(&p, 0, sizeof p);
  p.iterations = 2;         /* Newton SolverXPBD default */
  p.relaxation = 0.8f;      /* Newton rigid_contact_relaxation default */
  p.contact_weighting = 1;  /* Newton rigid_contact_con_weighting default */
  p.restitution = 0;        /* Newton enable_restitution default */
  p.restitution_iterations = 2;
  p.substeps = 8;
  p.xpbd_substeps = 10; /* Newton's XPBD examples: sim_substeps = 10 (example_pyramid.py) */
  p.ke = 2.5e3f; /* Newton ShapeConfig defaults: a shape material with ke = 0 takes these */
  p.kd = 1.0e2f;
  p.kf = 1.0e3f;
  p.ka = 0.0f;
  p.friction_smoothing = 1.0f; /* Newton friction_smoothing default */
  p.velocity_from_positions = 0; /* Newton 1.6: velocities follow every correction */
  return p;
}

tb_status tb_newton_params_check(tb_world* w, const char* fn, const tb_newton_params* p) {
  const tb_int_field ints[] = {
      {"iterations", p->iterations, 1, 64},
      {"contact_weighting", p->contact_weighting, 0, 1},
      {"restitution", p->restitution, 0, 1},
      {"restitution_iterations", p->restitution_iterations, 1, 64},
      {"substeps", p->substeps, 1, 1024},
      {"xpbd_substeps", p->xpbd_substeps, 1, 1024},
      {"velocity_from_positions", p->velocity_from_positions, 0, 1},
  };
  tb_status st = tb_check_ints(w, fn, "solver.newton.", TB_FIELDS_OF(ints));
  if (st != TB_OK) return st;
  if (!tb_is_finite(p->relaxation) || p->relaxation <= 0.0f || p->relaxation >= 2.0f)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: solver.newton.relaxation must be in (0, 2) (got %g)", fn, (double)p->relaxation);
  /* a zero stiffness or smoothing makes no contact force */
  const tb_float_field f[] = {
      {"ke", p->ke, TB_FLOAT_POSITIVE}, {"kd", p->kd, TB_FLOAT_NONNEG}, {"kf", p->kf, TB_FLOAT_NONNEG},
      {"ka", p->ka, TB_FLOAT_NONNEG}, {"friction_smoothing", p->friction_smoothing, TB_FLOAT_POSITIVE},
  };
  return tb_check_floats(w, fn, "solver.newton.", TB_FIELDS_OF(f));
}

tb_mujoco_params tb_mujoco_params_default(void) {
  tb_mujoco_params p;
  memset(&p, 0, sizeof p);
  p.cone = TB_MUJOCO_PYRAMIDAL; /* mjOption defaults */
  p.algorithm = TB_MUJOCO_NEWTON;
  p.integrator = TB_MUJOCO_EULER;
  p.iterations = 100;
  p.tolerance = 1e-8f;
  p.ls_iterations = 50;
  p.ls_tolerance = 0.01f;
  p.impratio = 1.0f;
  p.refsafe = 1;
  p.warmstart = 1; /* mjDSBL_WARMSTART off */
  p.default_timeconst = 0.02f; /* MuJoCo geom solref (0.02, 1) */
  return p;
}

tb_status tb_mujoco_params_check(tb_world* w, const char* fn, const tb_mujoco_params* p) {
  const tb_int_field ints[] = {
      {"cone", p->cone, 0, TB_MUJOCO_CONE_COUNT - 1},
      {"algorithm", p->algorithm, 0, TB_MUJOCO_ALGORITHM_COUNT - 1},
      {"integrator", p->integrator, 0, TB_MUJOCO_INTEGRATOR_COUNT - 1},
      {"iterations", p->iterations, 1, 1000},
      {"ls_iterations", p->ls_iterations, 1, 100},
      {"refsafe", p->refsafe, 0, 1},
      {"warmstart", p->warmstart, 0, 1},
  };
  tb_status st = tb_check_ints(w, fn, "solver.mujoco.", TB_FIELDS_OF(ints));
  if (st != TB_OK) return st;
  const tb_float_field f[] = {
      {"tolerance", p->tolerance, TB_FLOAT_NONNEG}, {"ls_tolerance", p->ls_tolerance, TB_FLOAT_POSITIVE},
      {"impratio", p->impratio, TB_FLOAT_POSITIVE}, {"default_timeconst", p->default_timeconst, TB_FLOAT_POSITIVE}};
  return tb_check_floats(w, fn, "solver.mujoco.", TB_FIELDS_OF(f));
}

tb_kamino_params tb_kamino_params_default(void) {
  tb_kamino_params p;
  memset(&p, 0, sizeof p);
  p.max_iterations = 200;          /* Kamino PADMMSolverConfig defaults */
  p.primal_tolerance = 1e-6f;
  p.dual_tolerance = 1e-6f;
  p.complementarity_tolerance = 1e-6f;
  p.eta = 1e-5f;
  p.rho = 1.0f;
  p.warm_start_scale = 0.9f;
  p.stabilization = 0.01f;         /* Kamino ConstraintStabilizationConfig gamma, delta */
  p.dead_zone = 1e-6f;
  p.warm_start = 1;
  return p;
}

tb_status tb_kamino_params_check(tb_world* w, const char* fn, const tb_kamino_params* p) {
  const tb_int_field ints[] = {{"max_iterations", p->max_iterations, 1, 10000}};
  tb_status st = tb_check_ints(w, fn, "solver.kamino.", TB_FIELDS_OF(ints));
  if (st != TB_OK) return st;
  if (p->warm_start != 0 && p->warm_start != 1)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: solver.kamino.warm_start must be 0 or 1 (got %d)", fn, p->warm_start);
  const tb_float_field f[] = {
      {"primal_tolerance", p->primal_tolerance, TB_FLOAT_POSITIVE}, {"dual_tolerance", p->dual_tolerance, TB_FLOAT_POSITIVE},
      {"complementarity_tolerance", p->complementarity_tolerance, TB_FLOAT_POSITIVE}, {"eta", p->eta, TB_FLOAT_POSITIVE},
      {"rho", p->rho, TB_FLOAT_POSITIVE}, {"warm_start_scale", p->warm_start_scale, TB_FLOAT_UNIT},
      {"stabilization", p->stabilization, TB_FLOAT_UNIT}, {"dead_zone", p->dead_zone, TB_FLOAT_NONNEG},
  };
  st = tb_check_floats(w, fn, "solver.kamino.", TB_FIELDS_OF(f));
  /* the iteration divides by rho: at 3e-9 and below it diverged to non-finite velocities in float32
   * (a box and a sphere resting on the ground), at 1e-8 it held */
  if (st == TB_OK && p->rho < TB_KAMINO_MIN_RHO)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: solver.kamino.rho must be >= %g (got %g)", fn, (double)TB_KAMINO_MIN_RHO,
                         (double)p->rho);
  return st;
}

tb_sleep_params tb_sleep_params_default(void) {
  tb_sleep_params p;
  memset(&p, 0, sizeof p);
  p.mode = TB_SLEEP_OFF;
  p.velocity_threshold = 2e-3f; /* Genesis hibernation_thresh_vel (m/s) without MuJoCo compatibility */
  p.steps = 10;                 /* Genesis: 10 consecutive steps below the threshold */
  p.energy_threshold = 5e-3f;   /* PhysX: 5e-5 · scale.speed² with scale.speed = 10 m/s (m²/s²) */
  p.wake_counter = 0.4f;        /* PhysX wakeCounterResetValue: 20 · 0.02 s */
  return p;
}

tb_status tb_sleep_params_check(tb_world* w, const char* fn, const tb_sleep_params* p) {
  tb_status st = tb_check_enum(w, fn, "solver.sleep.mode", p->mode, TB_SLEEP_MODE_COUNT);
  if (st != TB_OK) return st;
  if (p->steps < 1 || p->steps > 1000)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: solver.sleep.steps must be in [1, 1000] (got %d)", fn, p->steps);
  const struct { const char* name; float v; } f[] = {{"velocity_threshold", p->velocity_threshold},
                                                     {"energy_threshold", p->energy_threshold},
                                                     {"wake_counter", p->wake_counter}};
  for (size_t i = 0; i < sizeof f / sizeof f[0]; ++i)
    if (!tb_is_finite(f[i].v) || f[i].v <= 0.0f)
      return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: solver.sleep.%s must be finite and > 0 (got %g)", fn, f[i].name, (double)f[i].v);
  return TB_OK;
}

tb_world_def tb_world_def_default(void) {
  tb_world_def d;
  memset(&d, 0, sizeof d);
  d.gravity[1] = -9.81f;
  d.timestep = 1.0f / 60.0f;
  d.body_capacity = 64;
  d.contact_capacity = 256; /* small: the store grows with the scene */
  d.pair_capacity = 128;
  d.thread_count = 1;
  d.solver.position_iterations = 4;
  d.solver.velocity_iterations = 1;
  d.solver.bounce_threshold_velocity = 1.0f;
  d.solver.max_depenetration_velocity = TB_NO_DEPENETRATION_CAP;
  d.solver.speculative_distance = 0.02f;
  d.solver.bias_coefficient = 0.8f; /* PhysX PGS / TGS */
  d.collision.max_points_per_pair = TB_MAX_POINTS_PER_PAIR;
  d.collision.match_distance = 0.01f; /* m */
  d.collision.max_speculative_extension = 0.1f; /* m, Newton SpeculativeContactConfig default */
  d.solver.combine.kamino_restitution = TB_COMBINE_MIN; /* Kamino: friction average, restitution min */
  /* Newton XPBD / penalty parameters, valid for every preset so the solver axis can switch */
  d.solver.newton = tb_newton_params_default();
  d.solver.mujoco = tb_mujoco_params_default();
  d.solver.kamino = tb_kamino_params_default();
  d.solver.sleep = tb_sleep_params_default();
  tb_world_def_apply_preset(TB_PRESET_PHYSX_TGS, &d);
  return d;
}

tb_status tb_world_def_apply_preset(tb_preset preset, tb_world_def* def) {
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
      /* no cap on the push-out speed: PxsBodyCore maxPenBias = -1e32 (PxvDynamics.h) */
      s->max_depenetration_velocity = TB_NO_DEPENETRATION_CAP;
      s->friction_every_iteration = 0;
      s->external_forces_every_iteration = 0;
      /* every PxRigidDynamic sleeps: sleepThreshold and wake counter at their defaults */
      s->sleep = tb_sleep_params_default();
      s->sleep.mode = TB_SLEEP_PHYSX;
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
      /* newton-e3 §2: kept when d <= gap0 + gap1; speculative widening is opt-in */
      c->speculative_widening = 0;
      c->max_speculative_extension = 0.1f;
      c->constant_gap = 0.0f;
      s->sleep = tb_sleep_params_default(); /* Newton has no automatic sleep: off unless enabled */
      break;
    case TB_PRESET_MUJOCO:
      /* -- preset section: MuJoCo -- */
      s->solver = TB_SOLVER_MUJOCO;
      s->combine_rule = TB_COMBINE_RULE_MUJOCO;
      s->readback = TB_READBACK_MUJOCO;
      c->filter_rule = TB_FILTER_MUJOCO;
      c->distance_rule = TB_DISTANCE_MUJOCO;
      c->broad_phase = TB_BROAD_PHASE_SAP;
      c->matching = TB_MATCHING_LATEST;
      s->mujoco = tb_mujoco_params_default();
      s->sleep = tb_sleep_params_default(); /* MuJoCo has no sleep: off unless enabled */
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
      /* Newton distance rule as the Newton presets: kept when d <= gap0 + gap1, speculative
       * widening opt-in (newton-e3 §2); the gaps are Newton's default builder.rigid_gap, 0.1 m per
       * shape, as one constant 0.2 m per pair (Tribo's shapes default to gap 0), so a resting
       * contact pushed out to d > 0 stays in the solve */
      c->speculative_widening = 0;
      c->max_speculative_extension = 0.1f;
      c->constant_gap = 0.2f;
      s->sleep = tb_sleep_params_default(); /* off unless enabled */
      break;
    case TB_PRESET_GENESIS:
      /* -- preset section: Genesis -- */
      /* Genesis collision (seed genesis): sweep and prune, adjacency plus contype/conaffinity
       * filtering, MuJoCo's margin/gap distances and material mix (Genesis keeps MuJoCo's model),
       * support fields on hulls (the default resolution 180 of every hull) */
      s->solver = TB_SOLVER_MUJOCO;
      s->combine_rule = TB_COMBINE_RULE_MUJOCO;
      s->readback = TB_READBACK_MUJOCO; /* per point; force_a / force_b through the genesis convention */
      c->filter_rule = TB_FILTER_GENESIS;
      c->distance_rule = TB_DISTANCE_MUJOCO;
      c->broad_phase = TB_BROAD_PHASE_SAP;
      c->matching = TB_MATCHING_LATEST;
      /* Genesis RigidOptions (genesis/options/solvers.py): Newton constraint solver, 50 iterations,
       * tolerance 1e-6, 50 line-search iterations at 0.01, approximate implicitfast integration
       * (implicitfast here), pyramidal cones; a primitive geom's unset timeconst becomes
       * max(constraint_timeconst 0.01 s, 2 dt): 0.01 here, raised to 2 dt by refsafe */
      s->mujoco = tb_mujoco_params_default();
      s->mujoco.algorithm = TB_MUJOCO_NEWTON;
      s->mujoco.iterations = 50;
      s->mujoco.tolerance = 1e-6f;
      s->mujoco.default_timeconst = 0.01f;
      s->mujoco.ls_iterations = 50;
      s->mujoco.ls_tolerance = 0.01f;
      s->mujoco.integrator = TB_MUJOCO_IMPLICITFAST;
      s->mujoco.cone = TB_MUJOCO_PYRAMIDAL;
      /* use_hibernation on with hibernation_thresh_vel 2e-3 m/s (without MuJoCo compatibility), 10 steps */
      s->sleep = tb_sleep_params_default();
      s->sleep.mode = TB_SLEEP_GENESIS;
      break;
    default:
      return tb_world_fail(NULL, TB_ERR_INVALID_ARGUMENT, "presetApply: preset must be in [0, %d) (got %d)",
                           TB_PRESET_COUNT, (int)preset);
  }
  /* PhysX's contact cache (PxSceneFlag::eENABLE_PCM, on by default); no other seed has one */
  c->persistent_manifolds = preset == TB_PRESET_PHYSX_PGS || preset == TB_PRESET_PHYSX_TGS;
  return TB_OK;
}

/* ---- checks: each names the field and the value ---- */

tb_status tb_collision_params_check(tb_world* w, const char* fn, const tb_collision_params* c) {
  if (!c) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: params must not be NULL", fn);
  tb_status st;
  if ((st = tb_check_enum(w, fn, "collision.broad_phase", c->broad_phase, TB_BROAD_PHASE_COUNT)) ||
      (st = tb_check_enum(w, fn, "collision.filter_rule", c->filter_rule, TB_FILTER_RULE_COUNT)) ||
      (st = tb_check_enum(w, fn, "collision.distance_rule", c->distance_rule, TB_DISTANCE_RULE_COUNT)) ||
      (st = tb_check_enum(w, fn, "collision.matching", c->matching, TB_MATCHING_COUNT)))
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
  if (c->persistent_manifolds != 0 && c->persistent_manifolds != 1)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: collision.persistent_manifolds must be 0 or 1 (got %d)", fn,
                         c->persistent_manifolds);
  if (c->speculative_widening != 0 && c->speculative_widening != 1)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: collision.speculative_widening must be 0 or 1 (got %d)", fn,
                         c->speculative_widening);
  const tb_float_field f[] = {{"max_speculative_extension", c->max_speculative_extension, TB_FLOAT_NONNEG},
                              {"constant_gap", c->constant_gap, TB_FLOAT_NONNEG}};
  return tb_check_floats(w, fn, "collision.", TB_FIELDS_OF(f));
}

tb_status tb_solver_params_check(tb_world* w, const char* fn, const tb_solver_params* p) {
  if (!p) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: params must not be NULL", fn);
  tb_status st;
  if ((st = tb_check_enum(w, fn, "solver.solver", p->solver, TB_SOLVER_TYPE_COUNT)) ||
      (st = tb_check_enum(w, fn, "solver.combine_rule", p->combine_rule, TB_COMBINE_RULE_COUNT)) ||
      (st = tb_check_enum(w, fn, "solver.readback", p->readback, TB_READBACK_COUNT)))
    return st;
  /* the MuJoCo rows read condim, solref and solimp, which only the MuJoCo rule combines */
  if (p->solver == TB_SOLVER_MUJOCO && p->combine_rule != TB_COMBINE_RULE_MUJOCO)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: solver.combine_rule must be mujoco with the mujoco solver (its rows need "
                         "condim, solref and solimp, which only that rule gives) (got %s)", fn,
                         tb_enum_name(TB_ENUM_COMBINE_RULE, p->combine_rule));
  /* -- check section: solver -- */
  if ((st = tb_check_enum(w, fn, "solver.combine.kamino_friction", p->combine.kamino_friction, TB_COMBINE_MODE_COUNT)) ||
      (st = tb_check_enum(w, fn, "solver.combine.kamino_restitution", p->combine.kamino_restitution, TB_COMBINE_MODE_COUNT)))
    return st;
  if ((st = tb_newton_params_check(w, fn, &p->newton)) != TB_OK) return st;
  if ((st = tb_mujoco_params_check(w, fn, &p->mujoco)) != TB_OK) return st;
  if ((st = tb_kamino_params_check(w, fn, &p->kamino)) != TB_OK) return st;
  if ((st = tb_sleep_params_check(w, fn, &p->sleep)) != TB_OK) return st;
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
  const tb_float_field f[] = {
      {"bounce_threshold_velocity", p->bounce_threshold_velocity, TB_FLOAT_NONNEG},
      {"max_depenetration_velocity", p->max_depenetration_velocity, TB_FLOAT_POSITIVE},
      {"speculative_distance", p->speculative_distance, TB_FLOAT_NONNEG},
  };
  return tb_check_floats(w, fn, "solver.", TB_FIELDS_OF(f));
}

tb_status tb_timestep_check(tb_world* w, const char* fn, float timestep) {
  if (!(timestep >= TB_MIN_TIMESTEP && timestep <= TB_MAX_TIMESTEP)) /* NaN fails too */
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: timestep must be finite and in [%g, %g] s (got %g)", fn,
                         (double)TB_MIN_TIMESTEP, (double)TB_MAX_TIMESTEP, (double)timestep);
  return TB_OK;
}

/* Every field of a definition for tb_world_create (messages name fn). */
tb_status tb_world_def_check(const tb_world_def* def, const char* fn) {
  if (!tb_check_within(NULL, fn, "gravity", def->gravity, TB_MAX_GRAVITY, "m/s²")) return TB_ERR_INVALID_ARGUMENT;
  tb_status ts = tb_timestep_check(NULL, fn, def->timestep);
  if (ts != TB_OK) return ts;
  if (def->contact_capacity < 1 || def->pair_capacity < 1 || def->body_capacity < 1)
    return tb_world_fail(NULL, TB_ERR_INVALID_ARGUMENT, "%s: body/contact/pair capacities must be >= 1 (got %d, %d, %d)", fn,
                         def->body_capacity, def->contact_capacity, def->pair_capacity);
  const struct { const char* name; int32_t v, max; } caps[] = {
      {"body_capacity", def->body_capacity, TB_MAX_BODIES},
      {"contact_capacity", def->contact_capacity, TB_MAX_CAPACITY},
      {"pair_capacity", def->pair_capacity, TB_MAX_CAPACITY},
  };
  for (size_t i = 0; i < sizeof caps / sizeof caps[0]; ++i)
    if (caps[i].v > caps[i].max)
      return tb_world_fail(NULL, TB_ERR_CAPACITY, "%s: %s must be at most %d (got %d)", fn, caps[i].name, caps[i].max, caps[i].v);
  if (def->thread_count < 1 || def->thread_count > tb_jobs_max_threads())
    return tb_world_fail(NULL, TB_ERR_INVALID_ARGUMENT, "%s: threads must be in [1, %d] in this build (got %d)", fn,
                         tb_jobs_max_threads(), def->thread_count);
  tb_status st = tb_solver_params_check(NULL, fn, &def->solver);
  if (st == TB_OK) st = tb_collision_params_check(NULL, fn, &def->collision);
  return st;
}
