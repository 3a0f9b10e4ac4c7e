/* The solver stage: runs the solver family of the world's preset (or of its solver axis).
 * PhysX PGS / TGS: solver_physx.c; Newton XPBD: solver_xpbd.c; Newton semi-implicit penalty:
 * solver_penalty.c. */
#include "solver.h"

tb_status tb_solve_world(tb_world* w) {
  switch (w->def.solver.solver) {
    case TB_SOLVER_PGS: return tb_solve_pgs(w);
    case TB_SOLVER_TGS: return tb_solve_tgs(w);
    case TB_SOLVER_XPBD: return tb_solve_xpbd(w);
    case TB_SOLVER_PENALTY: return tb_solve_penalty(w);
    default: return tb_world_fail(w, TB_ERR_INVALID_STATE, "solve: unknown solver %d", w->def.solver.solver);
  }
}
