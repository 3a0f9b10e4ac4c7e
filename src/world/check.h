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

/* v[0..3) finite and within ±limit (in unit) on every axis. */
static inline int tb_check_within(tb_world* w, const char* fn, const char* field, const float* v, float limit, const char* unit) {
  if (!tb_check_finite(w, fn, field, v, 3)) return 0;
  for (int i = 0; i < 3; ++i)
    if (fabsf(v[i]) > limit) {
      tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s[%d] must be within ±%g %s (got %g)", fn, field, i, (double)limit, unit, (double)v[i]);
      return 0;
    }
  return 1;
}

/* A body position: finite and within ±TB_MAX_COORDINATE m on every axis. */
static inline int tb_check_position(tb_world* w, const char* fn, const float* p) {
  return tb_check_within(w, fn, "position", p, TB_MAX_COORDINATE, "m");
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

/* Field tables: the range rule of each numeric field of a definition or material, checked in
 * table order; the first bad field fails with "fn: <prefix><name> must be <rule> (got v)". */
typedef enum tb_float_rule {
  TB_FLOAT_POSITIVE, /* finite and > 0 (a zero would divide or disable what it sets) */
  TB_FLOAT_NONNEG,   /* finite and >= 0 */
  TB_FLOAT_UNIT,     /* in [0, 1] */
} tb_float_rule;
typedef struct tb_float_field { const char* name; float v; tb_float_rule rule; } tb_float_field;
typedef struct tb_int_field { const char* name; int32_t v, lo, hi; } tb_int_field; /* in [lo, hi] */
#define TB_FIELDS_OF(table) (table), sizeof(table) / sizeof((table)[0])

static inline tb_status tb_check_floats(tb_world* w, const char* fn, const char* prefix, const tb_float_field* f, size_t n) {
  static const char* const rule[] = {"finite and > 0", "finite and >= 0", "in [0, 1]"};
  for (size_t i = 0; i < n; ++i) {
    float v = f[i].v;
    if (!tb_is_finite(v) || v < 0.0f || (f[i].rule == TB_FLOAT_POSITIVE && v == 0.0f) || (f[i].rule == TB_FLOAT_UNIT && v > 1.0f))
      return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s%s must be %s (got %g)", fn, prefix, f[i].name, rule[f[i].rule],
                           (double)v);
  }
  return TB_OK;
}

static inline tb_status tb_check_ints(tb_world* w, const char* fn, const char* prefix, const tb_int_field* f, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (f[i].v < f[i].lo || f[i].v > f[i].hi)
      return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s%s must be in [%d, %d] (got %d)", fn, prefix, f[i].name, f[i].lo,
                           f[i].hi, f[i].v);
  return TB_OK;
}

static inline tb_status tb_check_enum(tb_world* w, const char* fn, const char* field, int32_t v, int32_t count) {
  if (v < 0 || v >= count)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s must be in [0, %d) (got %d)", fn, field, count, v);
  return TB_OK;
}

#endif
