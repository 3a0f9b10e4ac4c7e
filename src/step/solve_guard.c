/* The solver stage with its guard. */
#include <math.h>
#include <string.h>

#include "../solver/solver.h"
#include "step.h"

/* Copies the saved body state of every slot back (the step is undone). */
static void restore(tb_world* w, int32_t n) {
  tb_bodies* b = &w->bodies;
  for (int32_t j = 0; j < n; ++j) {
    memcpy(b->f.transform + 7 * j, w->backup + 13 * j, 7 * sizeof(float));
    memcpy(b->f.linear_velocity + 3 * j, w->backup + 13 * j + 7, 3 * sizeof(float));
    memcpy(b->f.angular_velocity + 3 * j, w->backup + 13 * j + 10, 3 * sizeof(float));
  }
}

/* The solver stage with a guard: the body state before it is kept, and a solver that fails (out of
 * memory) or leaves a non-finite pose or velocity on any body, dynamic or kinematic (an explicit
 * penalty step that is unstable for its stiffness and substeps, a kinematic velocity whose
 * rotation overflows), has its step undone and fails with a message naming the body, so the
 * world stays usable. */
tb_status tb_solve_guarded(tb_world* w, const tb_step_context* ctx) {
  tb_bodies* b = &w->bodies;
  const int32_t n = b->count;
  if (n > w->backup_capacity) {
    int32_t cap = w->backup_capacity > 0 ? w->backup_capacity : 64;
    while (cap < n) cap *= 2;
    float* nb = (float*)tb_alloc_array((size_t)cap, 13 * sizeof(float));
    if (!nb) return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "solve: out of memory for %d body states", cap);
    tb_free(w->backup, (size_t)w->backup_capacity * 13 * sizeof(float));
    w->backup = nb;
    w->backup_capacity = cap;
  }
  for (int32_t i = 0; i < n; ++i) {
    memcpy(w->backup + 13 * i, b->f.transform + 7 * i, 7 * sizeof(float));
    memcpy(w->backup + 13 * i + 7, b->f.linear_velocity + 3 * i, 3 * sizeof(float));
    memcpy(w->backup + 13 * i + 10, b->f.angular_velocity + 3 * i, 3 * sizeof(float));
  }
  tb_status st = tb_solve_world(w, ctx);
  if (st != TB_OK) {
    restore(w, n);
    w->contacts.readback_valid = 0;
    return st;
  }
  if (w->def.solver.solver != TB_SOLVER_MUJOCO) w->status.improvement = w->status.gradient = NAN; /* MuJoCo only */
  if (w->def.solver.solver != TB_SOLVER_KAMINO) /* the PADMM residuals exist only for Kamino */
    w->status.residual_primal = w->status.residual_dual = w->status.residual_complementarity = NAN;
  for (int32_t i = 0; i < n; ++i) {
    int32_t type = b->f.body_type[i];
    if (type < 0) continue; /* free slot */
    int finite = 1;
    for (int k = 0; k < 7; ++k) finite &= tb_is_finite(b->f.transform[7 * i + k]);
    for (int k = 0; k < 3; ++k) finite &= tb_is_finite(b->f.linear_velocity[3 * i + k]) & tb_is_finite(b->f.angular_velocity[3 * i + k]);
    if (finite) continue;
    restore(w, n);
    w->contacts.readback_valid = 0;
    int32_t sv = w->def.solver.solver;
    const char* hint = sv == TB_SOLVER_PENALTY && type == TB_BODY_DYNAMIC
                           ? " (an unstable explicit step: raise solver.newton.substeps, JS penaltySubsteps, or lower ke, kd)"
                           : " (its velocity or mass properties are too large for float32 over one step)";
    return tb_world_fail(w, TB_ERR_INVALID_STATE, "solve: the %s solver left %s body %d with a non-finite pose or velocity; the step was undone%s",
                         tb_enum_label(TB_ENUM_SOLVER, sv), tb_enum_label(TB_ENUM_BODY_TYPE, type), tb_make_id(i, b->generation[i]), hint);
  }
  return TB_OK;
}
