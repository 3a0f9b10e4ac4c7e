#include "constraint_graph.h"

/* Each dynamic body's colours so far as one bit mask: a constraint's first free colour is the
 * lowest bit set in neither body's mask, the colour a scan of the colours in order would find. */
_Static_assert(TB_GRAPH_COLORS < 32, "a body's colours fit one 32-bit mask");

void tb_color_constraints(int32_t count, const int32_t* body_a, const int32_t* body_b, uint32_t* used, int32_t* color) {
  const uint32_t all = (UINT32_C(1) << TB_GRAPH_COLORS) - 1u;
  for (int32_t i = 0; i < count; ++i) {
    int32_t a = body_a[i], b = body_b[i];
    uint32_t taken = (a >= 0 ? used[a] : 0u) | (b >= 0 ? used[b] : 0u);
    uint32_t free = ~taken & all;
    if (!free) {
      color[i] = TB_OVERFLOW_COLOR;
      continue;
    }
    uint32_t bit = free & (0u - free); /* the lowest free colour */
    if (a >= 0) used[a] |= bit;
    if (b >= 0) used[b] |= bit;
    color[i] = __builtin_ctz(bit);
  }
}
