/* The solver stage: runs the solver family of the world's preset (or of its solver axis).
 * PhysX PGS / TGS: solver_physx.c; Newton XPBD: solver_xpbd.c; Newton semi-implicit penalty:
 * solver_penalty.c; MuJoCo soft constraints: solver_mujoco.c; Kamino PADMM: solver_kamino.c. */
#include "solver.h"

#include <string.h>

tb_status tb_solve_world(tb_world* w, const tb_step_context* step) {
  switch (w->def.solver.solver) {
    case TB_SOLVER_PGS: return tb_solve_pgs(w, step);
    case TB_SOLVER_TGS: return tb_solve_tgs(w, step);
    case TB_SOLVER_XPBD: return tb_solve_xpbd(w, step);
    case TB_SOLVER_PENALTY: return tb_solve_penalty(w, step);
    case TB_SOLVER_MUJOCO: return tb_solve_mujoco(w, step);
    case TB_SOLVER_KAMINO: return tb_solve_kamino(w, step);
    default: return tb_world_fail(w, TB_ERR_INVALID_STATE, "solve: unknown solver %d", w->def.solver.solver);
  }
}

int tb_solver_uses_records(const tb_world* w) {
  int32_t s = w->def.solver.solver;
  return s != TB_SOLVER_PGS && s != TB_SOLVER_TGS;
}

void tb_solver_status_set(tb_world* w, int32_t solver, int32_t position_iterations, int32_t velocity_iterations,
                          int32_t converged, float residual_velocity, float residual_penetration) {
  tb_solver_status* s = &w->status;
  memset(s, 0, sizeof *s);
  s->solver = solver;
  s->position_iterations = position_iterations;
  s->velocity_iterations = velocity_iterations;
  s->converged = converged;
  s->residual_velocity = residual_velocity;
  s->residual_penetration = residual_penetration;
}

void tb_solver_stats_serial(tb_world* w) {
  w->stats.threads_used = 1;
  w->stats.color_count = 0;
  w->stats.overflow_constraints = 0;
  int32_t manifolds = 0;
  for (int32_t m = 0; m < w->pair_count; ++m) manifolds += w->pairs[m].points > 0;
  w->stats.manifold_count = manifolds;
  w->collided = 0;
}
