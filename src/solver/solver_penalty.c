/* Newton penalty solver (placeholder until it lands). */
#include "solver.h"

tb_status tb_solve_penalty(tb_world* w) {
  return tb_world_fail(w, TB_ERR_INVALID_STATE, "solve: the penalty solver is not available in this build");
}
