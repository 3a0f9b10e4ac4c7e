/* Graph colouring of contact manifolds: no two manifolds of one colour share a dynamic body, so
 * a colour is solved in parallel (threads) and four at a time (SIMD) (internal). */
#ifndef TB_CONSTRAINT_GRAPH_H
#define TB_CONSTRAINT_GRAPH_H

#include <stdint.h>

#define TB_GRAPH_COLORS 24
#define TB_OVERFLOW_COLOR TB_GRAPH_COLORS

/* Greedy colouring in manifold order (deterministic): each constraint takes the lowest colour
 * neither of its bodies has yet. body_a/body_b: dynamic solver body index or -1 (static and
 * kinematic bodies never constrain a colour). used: one zeroed mask per solver body (bit c: the
 * body has colour c). Writes color[i] in [0, TB_GRAPH_COLORS] (TB_OVERFLOW_COLOR when no colour
 * was free). */
void tb_color_constraints(int32_t count, const int32_t* body_a, const int32_t* body_b, uint32_t* used, int32_t* color);

#endif
