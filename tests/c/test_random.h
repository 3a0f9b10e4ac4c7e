/* Seeded xorshift32 draws for the randomised native tests (define TB_TEST_SEED before including
 * to give a test file its own sequence). Each draw is one statement: argument and initializer
 * evaluation order is unspecified in C, and the sequence must not depend on the compiler. */
#ifndef TB_TEST_RANDOM_H
#define TB_TEST_RANDOM_H

#include "../../src/core/math.h"

#ifndef TB_TEST_SEED
#define TB_TEST_SEED 0x1234567u
#endif

static uint32_t rng_state = TB_TEST_SEED;
static inline float frand(void) { /* uniform in [-1, 1) */
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return (float)(rng_state >> 8) * (2.0f / 16777216.0f) - 1.0f;
}
static inline float frand01(void) { return 0.5f * (frand() + 1.0f); }
static inline tb_vec3 rand_vec(void) {
  float x = frand();
  float y = frand();
  float z = frand();
  return tb_v3(x, y, z);
}
static inline tb_quat rand_quat(void) {
  for (;;) {
    tb_vec3 v = rand_vec();
    float w = frand();
    tb_quat q = {v.x, v.y, v.z, w};
    float l2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    if (l2 > 0.05f && l2 <= 1.0f) return tb_quat_normalize(q);
  }
}
static inline tb_vec3 rand_unit(void) {
  for (;;) {
    tb_vec3 v = rand_vec();
    float l2 = tb_length_sq(v);
    if (l2 > 0.05f && l2 <= 1.0f) return tb_normalize(v);
  }
}

#endif
