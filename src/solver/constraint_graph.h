/* Graph colouring of contact manifolds: no two manifolds of one colour share a dynamic body, so
 * a colour is solved in parallel (threads) and four at a time (SIMD) (internal). */
#ifndef TB_CONSTRAINT_GRAPH_H
#define TB_CONSTRAINT_GRAPH_H

#include <stdint.h>

#define TB_GRAPH_COLORS 24
#define TB_OVERFLOW_COLOR TB_GRAPH_COLORS

/* Greedy colouring in manifold order (deterministic). body_a/body_b: dynamic solver body index
 * or -1 (static and kinematic bodies never constrain a colour). bits: TB_GRAPH_COLORS * words
 * zeroed words, words = ceil(body_count / 64). Writes color[i] in [0, TB_GRAPH_COLORS]
 * (TB_OVERFLOW_COLOR when no colour was free). */
void tb_color_constraints(int32_t count, const int32_t* body_a, const int32_t* body_b, uint64_t* bits,
                          int32_t words, int32_t* color);

#endif
