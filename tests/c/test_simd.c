/* Lane helpers of core/simd.h that are not arithmetic kernels: tb_floats_finite, the solve's guard
 * over a world's body state (src/step/solve_guard.c). Natively with SSE2; make test-js runs this file
 * built with emcc (build/wasm_tests/test_simd.cjs) for the wasm SIMD128 back end. */
#include <float.h>
#include <stdint.h>
#include <string.h>

#include "core/simd.h"
#include "test_util.h"

static float from_bits(uint32_t u) { float f; memcpy(&f, &u, sizeof f); return f; }

int main(void) {
  /* finite values at the edges: zeros, the smallest subnormal, the largest float, both signs */
  const float finite[] = {0.0f, -0.0f, from_bits(0x00000001u), from_bits(0x80000001u), FLT_MIN, FLT_MAX, -FLT_MAX, 1.0f, -3.5f, 1e-30f};
  const float bad[] = {INFINITY, -INFINITY, NAN, -NAN, from_bits(0x7f800001u) /* signalling NaN */, from_bits(0xffffffffu)};
  enum { MAX_N = 37 };
  float buf[MAX_N + 1];
  int wrong = 0, cases = 0;
  /* every length up to 37 (whole lanes and every remainder), from an aligned and an unaligned
   * start, each non-finite value in every position */
  for (int start = 0; start < 2; ++start)
    for (int n = 0; n + start <= MAX_N; ++n) {
      float* v = buf + start;
      for (int i = 0; i < n; ++i) v[i] = finite[(i * 7 + n) % (int)(sizeof finite / sizeof finite[0])];
      ++cases;
      if (tb_floats_finite(v, (size_t)n) != 1) {
        if (wrong++ < 5) fprintf(stderr, "n %d start %d: finite values reported not finite\n", n, start);
      }
      for (int p = 0; p < n; ++p)
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
          float kept = v[p];
          v[p] = bad[k];
          ++cases;
          if (tb_floats_finite(v, (size_t)n) != 0) {
            if (wrong++ < 5) fprintf(stderr, "n %d start %d: value %zu at %d reported finite\n", n, start, k, p);
          }
          v[p] = kept;
        }
    }
  printf("%s: tb_floats_finite, %d cases, %d wrong\n", TB_SIMD_BACKEND, cases, wrong);
  CHECK(cases > 8000);
  CHECK(wrong == 0);
  return tb_test_report("test_simd");
}
