/* The substepped sequential-impulse contact solver (the `physx-tgs` preset) (internal). */
#ifndef TB_SOLVER_H
#define TB_SOLVER_H

#include "../world/world.h"

int tb_solver_create(tb_world* w);
void tb_solver_destroy(tb_world* w);

#endif
