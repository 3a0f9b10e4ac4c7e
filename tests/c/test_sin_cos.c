/* tb_f4_sin_cos against the build's own sinf and cosf, bit for bit: the rotation integration of the
 * PhysX presets calls it for four bodies at a time and must give the bits of one body at a time.
 * Natively the lanes call sinf/cosf; the wasm build (make test-js runs this file built with emcc,
 * build/wasm_tests/test_sin_cos.cjs) evaluates musl's kernels in two lanes of double, and a wrong
 * coefficient, operation order or range test there shows as a differing bit. */
#include <stdint.h>
#include <string.h>

#include "core/simd.h"
#include "test_util.h"

static float from_bits(uint32_t u) { float f; memcpy(&f, &u, sizeof f); return f; }
static uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, sizeof u); return u; }

static int64_t mismatches = 0, compared = 0;

/* The four lanes of x through tb_f4_sin_cos and one at a time through sinf / cosf. */
static void compare(const float x[TB_LANES]) {
  tb_f4 s, c;
  tb_f4_sin_cos(tb_f4_load(x), &s, &c);
  float sl[TB_LANES], cl[TB_LANES];
  tb_f4_store(sl, s);
  tb_f4_store(cl, c);
  for (int l = 0; l < TB_LANES; ++l) {
    ++compared;
    if (bits(sl[l]) != bits(sinf(x[l])) || bits(cl[l]) != bits(cosf(x[l]))) {
      if (mismatches < 5)
        fprintf(stderr, "x = %a (0x%08x): sin %a against %a, cos %a against %a\n", x[l], bits(x[l]), sl[l], sinf(x[l]), cl[l], cosf(x[l]));
      ++mismatches;
    }
  }
}

int main(void) {
  /* every float of musl's kernel range 2^-12 <= |x| <= pi/4 (bits 0x39800000 to 0x3f490fda) and
   * every 61st one below and beyond it up to 1.25, with both signs, four to a vector in order (so
   * the vectors at the range's ends mix ranges) */
  float x[TB_LANES];
  int n = 0;
  for (uint32_t u = 0; u <= 0x3fa00000u;) {
    for (int neg = 0; neg < 2; ++neg) {
      x[n++] = from_bits(u | (neg ? 0x80000000u : 0u));
      if (n == TB_LANES) { compare(x); n = 0; }
    }
    u += u >= 0x39800000u - 64 && u <= 0x3f490fdau + 64 ? 1 : 61;
  }
  /* the edges of the ranges (2^-12, pi/4 in bits 0x3f490fda), zeros, large, infinite and NaN
   * values, each in every lane beside kernel-range neighbours */
  const uint32_t edges[] = {0x00000000u, 0x80000000u, 0x00000001u, 0x397fffffu, 0x39800000u, 0x39800001u, 0x3f490fd9u,
                            0x3f490fdau, 0x3f490fdbu, 0x3f490fdcu, 0x40490fdbu, 0x4b000001u, 0x7f7fffffu, 0x7f800000u,
                            0x7fc00000u, 0xff800000u};
  for (size_t e = 0; e < sizeof edges / sizeof edges[0]; ++e)
    for (int l = 0; l < TB_LANES; ++l)
      for (int neg = 0; neg < 2; ++neg) {
        for (int k = 0; k < TB_LANES; ++k) x[k] = from_bits(0x3c000000u + 0x12345u * (uint32_t)(k + 1)); /* 2^-7 and a bit */
        x[l] = from_bits(edges[e] ^ (neg ? 0x80000000u : 0u));
        compare(x);
      }
  printf("%s: %lld values, %lld differ from sinf / cosf\n", TB_SIMD_BACKEND, (long long)compared, (long long)mismatches);
  CHECK(compared > 190000000); /* the kernel range alone is 2 × 96.4 million floats */
  CHECK(mismatches == 0);
  return tb_test_report("test_sin_cos");
}
