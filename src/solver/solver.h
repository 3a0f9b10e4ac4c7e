/* Contact solvers of the presets (internal). */
#ifndef TB_SOLVER_H
#define TB_SOLVER_H

#include "../world/world.h"

int tb_solver_create(tb_world* w);
void tb_solver_destroy(tb_world* w);

/* Solver families; tb_solve_world() dispatches on def.solver.solver. */
tb_status tb_solve_pgs(tb_world* w);                /* PhysX PGS (solver.c) */
tb_status tb_solve_tgs(tb_world* w);                /* PhysX TGS (solver.c) */
tb_status tb_solve_xpbd(tb_world* w);               /* solver_xpbd.c */
tb_status tb_solve_penalty(tb_world* w);            /* solver_penalty.c */
tb_status tb_solve_kamino(tb_world* w);             /* solver_kamino.c */

/* Kamino PADMM parameters and scratch (solver_kamino.c). */
tb_kamino_params tb_kamino_params_default(void);
tb_status tb_kamino_params_check(tb_world* w, const char* fn, const tb_kamino_params* p);
void tb_kamino_destroy(tb_world* w);

#endif
