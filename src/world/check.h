/* Argument checks shared by the definition checks and the public API (internal): each fails with
 * TB_ERR_INVALID_ARGUMENT and a message naming the call, the field and the value. */
#ifndef TB_CHECK_H
#define TB_CHECK_H

#include "world.h"

/* Fails naming fn and the parameter when a pointer argument is NULL. */
static inline int tb_check_ptr(tb_world* w, const char* fn, const char* field, const void* p) {
  if (p) return 1;
  tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s must not be NULL", fn, field);
  return 0;
}

/* v[0..n) finite (v must not be NULL). */
static inline int tb_check_finite(tb_world* w, const char* fn, const char* field, const float* v, int n) {
  if (!tb_check_ptr(w, fn, field, v)) return 0;
  for (int i = 0; i < n; ++i)
    if (!tb_is_finite(v[i])) {
      tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s[%d] must be finite (got %g)", fn, field, i, (double)v[i]);
      return 0;
    }
  return 1;
}

/* A body position: finite and within ±TB_MAX_COORDINATE m on every axis. */
static inline int tb_check_position(tb_world* w, const char* fn, const float* p) {
  if (!tb_check_finite(w, fn, "position", p, 3)) return 0;
  for (int i = 0; i < 3; ++i)
    if (fabsf(p[i]) > TB_MAX_COORDINATE) {
      tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: position[%d] must be within ±%g m (got %g)", fn, i,
                    (double)TB_MAX_COORDINATE, (double)p[i]);
      return 0;
    }
  return 1;
}

static inline int tb_check_quat(tb_world* w, const char* fn, const char* field, const float* q) {
  if (!tb_check_finite(w, fn, field, q, 4)) return 0;
  float l = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (fabsf(l - 1.0f) > 1e-3f) {
    tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s must be a unit quaternion (got length %g)", fn, field, (double)l);
    return 0;
  }
  return 1;
}

static inline tb_status tb_check_enum(tb_world* w, const char* fn, const char* field, int32_t v, int32_t count) {
  if (v < 0 || v >= count)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s must be in [0, %d) (got %d)", fn, field, count, v);
  return TB_OK;
}

#endif
