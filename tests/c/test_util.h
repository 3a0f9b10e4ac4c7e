/* Minimal test helpers shared by the native C tests: each test file includes this once, calls the
 * CHECK macros, and returns tb_test_report("name") from main (nonzero when a check failed). */
#ifndef TB_TEST_UTIL_H
#define TB_TEST_UTIL_H

#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "include/tribo.h"

static int tb_test_failures = 0;
static int tb_test_checks = 0;

#define CHECK(cond)                                                                     \
  do {                                                                                  \
    ++tb_test_checks;                                                                   \
    if (!(cond)) {                                                                      \
      ++tb_test_failures;                                                               \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);          \
    }                                                                                   \
  } while (0)

/* Passes when |expected - got| <= tol (fails on NaN). */
#define CHECK_NEAR(expected, got, tol)                                                  \
  do {                                                                                  \
    double tb_e_ = (double)(expected), tb_g_ = (double)(got), tb_t_ = (double)(tol);    \
    ++tb_test_checks;                                                                   \
    if (!(fabs(tb_e_ - tb_g_) <= tb_t_)) {                                              \
      ++tb_test_failures;                                                               \
      fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s\n  expected %.9g, got %.9g (%s), "  \
              "diff %.3g > tol %.3g\n", __FILE__, __LINE__, #expected, tb_e_, tb_g_,    \
              #got, fabs(tb_e_ - tb_g_), tb_t_);                                        \
    }                                                                                   \
  } while (0)

/* Component-wise CHECK_NEAR on two values with .x .y .z members. */
#define CHECK_VEC_NEAR(expected, got, tol)      \
  do {                                          \
    CHECK_NEAR((expected).x, (got).x, (tol));   \
    CHECK_NEAR((expected).y, (got).y, (tol));   \
    CHECK_NEAR((expected).z, (got).z, (tol));   \
  } while (0)

/* A new world from a snapshot of w on `threads` threads (<= 0: w's count); negative on failure. */
static inline tb_world_id tb_test_world_copy(tb_world_id w, int32_t threads) {
  int32_t size = tb_world_snapshot(w, NULL, 0);
  if (size <= 0) return -1;
  void* bytes = malloc((size_t)size);
  tb_world_id copy = bytes && tb_world_snapshot(w, bytes, size) == size ? tb_world_create_from_snapshot(bytes, size, threads) : -1;
  free(bytes);
  return copy;
}

/* The header's checksum (bytes 24..27: FNV-1a of the payload) made right for a changed payload: a
 * crafted snapshot. */
static inline void tb_test_resign(uint8_t* bytes, int32_t size) {
  uint32_t h = 2166136261u;
  for (int32_t k = TB_SNAPSHOT_HEADER_SIZE; k < size; ++k) h = (h ^ bytes[k]) * 16777619u;
  memcpy(bytes + 24, &h, 4);
}

/* A velocity beyond setVelocity's bounds (TB_MAX_SPEED, TB_MAX_ANGULAR_SPEED), as only a crafted
 * snapshot gives it (restore takes any finite velocity): the body's velocity set to six marker
 * values, their bytes in the world's snapshot replaced (each found once), the checksum made right,
 * the snapshot restored. */
static inline void tb_test_set_velocity_unchecked(tb_world_id w, tb_body_id b, const float lin[3], const float ang[3]) {
  const float marks[6] = {7771.25f, 7772.25f, 7773.25f, 7774.25f, 7775.25f, 7776.25f};
  const float want[6] = {lin[0], lin[1], lin[2], ang[0], ang[1], ang[2]};
  CHECK(tb_body_set_velocity(w, b, marks, marks + 3) == TB_OK);
  int32_t size = tb_world_snapshot(w, NULL, 0);
  uint8_t* bytes = (uint8_t*)malloc((size_t)size);
  CHECK(tb_world_snapshot(w, bytes, size) == size);
  for (int m = 0; m < 6; ++m) {
    int found = 0;
    for (int32_t k = TB_SNAPSHOT_HEADER_SIZE; k + 4 <= size; ++k)
      if (memcmp(bytes + k, &marks[m], 4) == 0) {
        memcpy(bytes + k, &want[m], 4);
        ++found;
      }
    CHECK(found == 1);
  }
  tb_test_resign(bytes, size);
  CHECK(tb_world_restore(w, bytes, size) == TB_OK);
  free(bytes);
}

static inline int tb_test_report(const char* name) {
  printf("%s: %d checks, %d failed\n", name, tb_test_checks, tb_test_failures);
  return tb_test_failures != 0;
}

#endif
