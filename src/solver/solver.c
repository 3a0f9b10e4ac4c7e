/* The solver stage: runs the solver family of the world's preset (or of its solver axis).
 * PhysX PGS / TGS: solver_physx.c; Newton XPBD: solver_xpbd.c; Newton semi-implicit penalty:
 * solver_penalty.c; MuJoCo soft constraints: solver_mujoco.c; Kamino PADMM: solver_kamino.c. */
#include "solver.h"

#include <string.h>

#include "solver_physx.h"

typedef tb_status tb_solve_fn(tb_world* w, const tb_step_context* step);

/* Through a table, not a switch: each solver stays a function of its own in the wasm build, whose
 * optimiser (binaryen) inlines every function with one caller, and a switch made all six solvers
 * one function of 280 kB of machine code with the solve stage around them; V8 then kept the
 * stage's loop variables in memory (bench/RESULTS.md "perf18": the pile 2 % faster). */
static tb_solve_fn* const k_solvers[TB_SOLVER_TYPE_COUNT] = {
    [TB_SOLVER_PGS] = tb_solve_pgs,         [TB_SOLVER_TGS] = tb_solve_tgs,       [TB_SOLVER_XPBD] = tb_solve_xpbd,
    [TB_SOLVER_PENALTY] = tb_solve_penalty, [TB_SOLVER_MUJOCO] = tb_solve_mujoco, [TB_SOLVER_KAMINO] = tb_solve_kamino,
};

tb_status tb_solve_world(tb_world* w, const tb_step_context* step) {
  int32_t s = w->def.solver.solver;
  if (s < 0 || s >= TB_SOLVER_TYPE_COUNT || !k_solvers[s]) return tb_world_fail(w, TB_ERR_INVALID_STATE, "solve: unknown solver %d", s);
  return k_solvers[s](w, step);
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

void tb_solver_status_ready(tb_world* w, const tb_step_context* step) {
  if (!w->status_owed) return;
  w->status_owed = 0;
  if (w->solver) tb_physx_residuals(w, step); /* only PGS / TGS owe residuals */
}

void tb_solver_status_forget(tb_world* w) { w->status_owed = 0; }

void tb_solver_note_spring(tb_world* w, int32_t joint, double h, double k, double c, double weight) {
  double ratio = h * h * k * weight + 2.0 * h * c * weight;
  if (ratio > w->spring_ratio) {
    w->spring_ratio = ratio;
    w->spring_joint = joint;
  }
}

void tb_solver_forget_warm_starts(tb_world* w) {
  tb_mujoco_forget(w);
  tb_kamino_reset(w);
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
