#include "constraint_graph.h"

void tb_color_constraints(int32_t count, const int32_t* body_a, const int32_t* body_b, uint64_t* bits,
                          int32_t words, int32_t* color) {
  for (int32_t i = 0; i < count; ++i) {
    int32_t a = body_a[i], b = body_b[i];
    int32_t chosen = TB_OVERFLOW_COLOR;
    for (int32_t c = 0; c < TB_GRAPH_COLORS; ++c) {
      uint64_t* set = bits + (int64_t)c * words;
      if (a >= 0 && (set[a >> 6] >> (a & 63)) & 1u) continue;
      if (b >= 0 && (set[b >> 6] >> (b & 63)) & 1u) continue;
      if (a >= 0) set[a >> 6] |= (uint64_t)1 << (a & 63);
      if (b >= 0) set[b >> 6] |= (uint64_t)1 << (b & 63);
      chosen = c;
      break;
    }
    color[i] = chosen;
  }
}
