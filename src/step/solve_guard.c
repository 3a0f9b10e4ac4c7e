/* The solver stage with its guard. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../core/simd.h"
#include "../solver/solver.h"
#include "step.h"

/* Copies the saved body state of every slot back (the step is undone); static bodies were not
 * saved: nothing in a step moves them (a level of 10 000 static tiles would copy 13 floats of each
 * twice a step; bench/RESULTS.md "perf27"). */
void tb_body_state_restore(tb_world* w, const float* saved) {
  tb_bodies* b = &w->bodies;
  for (int32_t j = 0; j < b->count; ++j) {
    if (b->f.body_type[j] == TB_BODY_STATIC) continue;
    memcpy(b->f.transform + 7 * j, saved + 13 * j, 7 * sizeof(float));
    memcpy(b->f.linear_velocity + 3 * j, saved + 13 * j + 7, 3 * sizeof(float));
    memcpy(b->f.angular_velocity + 3 * j, saved + 13 * j + 10, 3 * sizeof(float));
  }
}

tb_status tb_body_state_save(tb_world* w, float** saved, int32_t* capacity) {
  tb_bodies* b = &w->bodies;
  const int32_t n = b->count;
  if (n > *capacity) {
    int32_t cap = *capacity > 0 ? *capacity : 64;
    while (cap < n) cap *= 2;
    float* nb = (float*)tb_alloc_array((size_t)cap, 13 * sizeof(float));
    if (!nb) return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "solve: out of memory for %d body states", cap);
    tb_free(*saved, (size_t)*capacity * 13 * sizeof(float));
    *saved = nb;
    *capacity = cap;
  }
  for (int32_t i = 0; i < n; ++i) {
    if (b->f.body_type[i] == TB_BODY_STATIC) continue; /* tb_body_state_restore skips them too */
    memcpy(*saved + 13 * i, b->f.transform + 7 * i, 7 * sizeof(float));
    memcpy(*saved + 13 * i + 7, b->f.linear_velocity + 3 * i, 3 * sizeof(float));
    memcpy(*saved + 13 * i + 10, b->f.angular_velocity + 3 * i, 3 * sizeof(float));
  }
  return TB_OK;
}

/* A failed solve undone: the body state before it and no readback. A solver that ran to its end
 * and left a non-finite state also forgets its warm starts (its solution may be the non-finite
 * one); one that failed for memory stopped before writing them, so a retry is the step that never
 * failed, bit for bit (test_robust). */
static void undo_solve(tb_world* w, int forget_warm_starts) {
  tb_body_state_restore(w, w->backup);
  w->contacts.readback_valid = 0;
  if (forget_warm_starts) tb_solver_forget_warm_starts(w);
}

/* The solver stage with a guard: the body state before it is kept, and a solver that fails (out of
 * memory) or leaves a non-finite pose or velocity on any body, dynamic or kinematic (an explicit
 * penalty step that is unstable for its stiffness and substeps, a kinematic velocity whose
 * rotation overflows), has its step undone and fails with a message naming the body, so the
 * world stays usable. */
tb_status tb_solve_guarded(tb_world* w, const tb_step_context* ctx) {
  tb_bodies* b = &w->bodies;
  const int32_t n = b->count;
  tb_status saved = tb_body_state_save(w, &w->backup, &w->backup_capacity);
  if (saved != TB_OK) return saved;
  /* the last solve's least stable spring: the failing solve's own ratio may be NaN (its spring's
   * direction from an overflowed stretch) */
  const double last_ratio = w->spring_ratio;
  const int32_t last_joint = w->spring_joint;
  w->spring_ratio = 0.0;
  w->spring_joint = -1;
  tb_status st = tb_solve_world(w, ctx);
  if (st != TB_OK) {
    undo_solve(w, 0);
    return st;
  }
  if (w->def.solver.solver != TB_SOLVER_MUJOCO) w->status.improvement = w->status.gradient = NAN; /* MuJoCo only */
  if (w->def.solver.solver != TB_SOLVER_KAMINO) /* the PADMM residuals exist only for Kamino */
    w->status.residual_primal = w->status.residual_dual = w->status.residual_complementarity = NAN;
  /* every slot's state at once first (free slots and static bodies too: a value there that is not
   * finite only sends the check to the body by body search below, which skips them) */
  if (tb_floats_finite(b->f.transform, 7 * (size_t)n) && tb_floats_finite(b->f.linear_velocity, 3 * (size_t)n) &&
      tb_floats_finite(b->f.angular_velocity, 3 * (size_t)n))
    return TB_OK;
  for (int32_t i = 0; i < n; ++i) {
    int32_t type = b->f.body_type[i];
    if (type < 0 || type == TB_BODY_STATIC) continue; /* free slot; a static body does not move */
    int finite = 1;
    for (int k = 0; k < 7; ++k) finite &= tb_is_finite(b->f.transform[7 * i + k]);
    for (int k = 0; k < 3; ++k) finite &= tb_is_finite(b->f.linear_velocity[3 * i + k]) & tb_is_finite(b->f.angular_velocity[3 * i + k]);
    if (finite) continue;
    undo_solve(w, 1);
    int32_t sv = w->def.solver.solver;
    char hint[192];
    if (!(w->spring_ratio >= TB_EXPLICIT_SPRING_LIMIT) && last_joint >= 0 && last_joint < w->joints.count && w->joints.def[last_joint].type >= 0) {
      w->spring_ratio = last_ratio;
      w->spring_joint = last_joint;
    }
    /* the Newton family damps explicitly, v·(1 − c·h) per internal step h: unstable past the limit */
    const int explicit_damping = sv == TB_SOLVER_XPBD || sv == TB_SOLVER_PENALTY || sv == TB_SOLVER_KAMINO;
    const float c = b->linear_damping[i] > b->angular_damping[i] ? b->linear_damping[i] : b->angular_damping[i];
    if (explicit_damping && type == TB_BODY_DYNAMIC && (double)(c * ctx->h) > TB_EXPLICIT_DAMPING_LIMIT)
      snprintf(hint, sizeof hint, " (its damping is explicit and unstable: c·h = %g 1/s · %g s = %g > %g; lower it below %g 1/s)",
               (double)c, (double)ctx->h, (double)(c * ctx->h), TB_EXPLICIT_DAMPING_LIMIT, TB_EXPLICIT_DAMPING_LIMIT / ctx->h);
    else if (w->spring_ratio >= TB_EXPLICIT_SPRING_LIMIT) /* the likeliest cause: an explicit spring past its bound */
      snprintf(hint, sizeof hint, " (joint %d's spring is explicit and unstable: h²·k·w + 2·h·c·w = %g >= %g; lower its stiffness or damping, or %s)",
               tb_make_id(w->spring_joint, w->joints.generation[w->spring_joint]), w->spring_ratio, TB_EXPLICIT_SPRING_LIMIT,
               sv == TB_SOLVER_PENALTY ? "h: raise solver.newton.substeps, JS penaltySubsteps" : "the timestep");
    else if (sv == TB_SOLVER_PENALTY && type == TB_BODY_DYNAMIC)
      snprintf(hint, sizeof hint, " (an unstable explicit step: raise solver.newton.substeps, JS penaltySubsteps, or lower ke, kd)");
    else
      snprintf(hint, sizeof hint, " (its velocity or mass properties are too large for float32 over one step)");
    return tb_world_fail(w, TB_ERR_INVALID_STATE, "solve: the %s solver left %s body %d with a non-finite pose or velocity; the step was undone%s",
                         tb_enum_label(TB_ENUM_SOLVER, sv), tb_enum_label(TB_ENUM_BODY_TYPE, type), tb_make_id(i, b->generation[i]), hint);
  }
  return TB_OK;
}
