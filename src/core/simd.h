/* Four-lane float32 and two-lane float64 (tb_d2, for double-precision sums of float data) SIMD
 * through one header (internal). Back ends: wasm SIMD128, SSE2, scalar. Every back end computes
 * the same IEEE results lane by lane (no fused multiply-add, no approximate reciprocals;
 * conversions round to nearest), so the builds agree bit for bit; tb_f4_sin_cos gives what the
 * build's own C library's sinf and cosf give (the same in SSE2 and scalar). */
#ifndef TB_SIMD_H
#define TB_SIMD_H

#include <math.h>
#include <stddef.h>

#define TB_LANES 4 /* floats in a tb_f4 */

#if defined(__wasm_simd128__) && !defined(TB_SIMD_SCALAR)
#include <wasm_simd128.h>
#define TB_SIMD_BACKEND "wasm-simd128"
typedef v128_t tb_f4;
static inline tb_f4 tb_f4_splat(float a) { return wasm_f32x4_splat(a); }
static inline tb_f4 tb_f4_load(const float* p) { return wasm_v128_load(p); }
static inline tb_f4 tb_f4_make(float a, float b, float c, float d) { return wasm_f32x4_make(a, b, c, d); }
static inline void tb_f4_store(float* p, tb_f4 a) { wasm_v128_store(p, a); }
static inline tb_f4 tb_f4_add(tb_f4 a, tb_f4 b) { return wasm_f32x4_add(a, b); }
static inline tb_f4 tb_f4_sub(tb_f4 a, tb_f4 b) { return wasm_f32x4_sub(a, b); }
static inline tb_f4 tb_f4_mul(tb_f4 a, tb_f4 b) { return wasm_f32x4_mul(a, b); }
static inline tb_f4 tb_f4_div(tb_f4 a, tb_f4 b) { return wasm_f32x4_div(a, b); }
static inline tb_f4 tb_f4_min(tb_f4 a, tb_f4 b) { return wasm_f32x4_pmin(a, b); }
static inline tb_f4 tb_f4_max(tb_f4 a, tb_f4 b) { return wasm_f32x4_pmax(a, b); }
static inline tb_f4 tb_f4_sqrt(tb_f4 a) { return wasm_f32x4_sqrt(a); }
/* |a| (fabsf: the sign bit cleared) */
static inline tb_f4 tb_f4_abs(tb_f4 a) { return wasm_f32x4_abs(a); }
static inline tb_f4 tb_f4_gt(tb_f4 a, tb_f4 b) { return wasm_f32x4_gt(a, b); }
static inline tb_f4 tb_f4_lt(tb_f4 a, tb_f4 b) { return wasm_f32x4_lt(a, b); }
static inline tb_f4 tb_f4_ge(tb_f4 a, tb_f4 b) { return wasm_f32x4_ge(a, b); }
static inline tb_f4 tb_f4_and(tb_f4 a, tb_f4 b) { return wasm_v128_and(a, b); }
static inline tb_f4 tb_f4_or(tb_f4 a, tb_f4 b) { return wasm_v128_or(a, b); }
/* mask ? a : b, with mask lanes all-ones or all-zeros */
static inline tb_f4 tb_f4_select(tb_f4 mask, tb_f4 a, tb_f4 b) { return wasm_v128_bitselect(a, b, mask); }
/* bit i = the top bit of lane i (a mask lane all-ones gives 1) */
static inline int tb_f4_bitmask(tb_f4 a) { return (int)wasm_i32x4_bitmask(a); }
/* rows r0..r3 become the columns: r_i[j] ← r_j[i] (data moves only) */
static inline void tb_f4_transpose(tb_f4* r0, tb_f4* r1, tb_f4* r2, tb_f4* r3) {
  tb_f4 t0 = wasm_i32x4_shuffle(*r0, *r1, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(*r2, *r3, 0, 4, 1, 5);
  tb_f4 t2 = wasm_i32x4_shuffle(*r0, *r1, 2, 6, 3, 7), t3 = wasm_i32x4_shuffle(*r2, *r3, 2, 6, 3, 7);
  *r0 = wasm_i32x4_shuffle(t0, t1, 0, 1, 4, 5);
  *r1 = wasm_i32x4_shuffle(t0, t1, 2, 3, 6, 7);
  *r2 = wasm_i32x4_shuffle(t2, t3, 0, 1, 4, 5);
  *r3 = wasm_i32x4_shuffle(t2, t3, 2, 3, 6, 7);
}
/* two float64 lanes (double sums: the MuJoCo Newton skyline factor, Kamino's conjugate gradients) */
typedef v128_t tb_d2;
static inline tb_d2 tb_d2_zero(void) { return wasm_f64x2_splat(0.0); }
static inline tb_d2 tb_d2_splat(double a) { return wasm_f64x2_splat(a); }
static inline tb_d2 tb_d2_load(const double* p) { return wasm_v128_load(p); }
static inline void tb_d2_store(double* p, tb_d2 a) { wasm_v128_store(p, a); }
static inline tb_d2 tb_d2_add(tb_d2 a, tb_d2 b) { return wasm_f64x2_add(a, b); }
static inline tb_d2 tb_d2_sub(tb_d2 a, tb_d2 b) { return wasm_f64x2_sub(a, b); }
static inline tb_d2 tb_d2_mul(tb_d2 a, tb_d2 b) { return wasm_f64x2_mul(a, b); }
static inline double tb_d2_lane0(tb_d2 a) { return wasm_f64x2_extract_lane(a, 0); }
static inline double tb_d2_lane1(tb_d2 a) { return wasm_f64x2_extract_lane(a, 1); }
/* lanes 0, 1 (lo) or 2, 3 (hi) of a as doubles; two d2 rounded back to one f4 (lo, hi) */
static inline tb_d2 tb_d2_from_lo(tb_f4 a) { return wasm_f64x2_promote_low_f32x4(a); }
static inline tb_d2 tb_d2_from_hi(tb_f4 a) { return wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(a, a, 2, 3, 2, 3)); }
static inline tb_f4 tb_f4_from_d2(tb_d2 lo, tb_d2 hi) {
  return wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(lo), wasm_f32x4_demote_f64x2_zero(hi), 0, 1, 4, 5);
}

#elif defined(__SSE2__) && !defined(TB_SIMD_SCALAR)
#include <emmintrin.h>
#define TB_SIMD_BACKEND "sse2"
typedef __m128 tb_f4;
static inline tb_f4 tb_f4_splat(float a) { return _mm_set1_ps(a); }
static inline tb_f4 tb_f4_load(const float* p) { return _mm_loadu_ps(p); }
static inline tb_f4 tb_f4_make(float a, float b, float c, float d) { return _mm_setr_ps(a, b, c, d); }
static inline void tb_f4_store(float* p, tb_f4 a) { _mm_storeu_ps(p, a); }
static inline tb_f4 tb_f4_add(tb_f4 a, tb_f4 b) { return _mm_add_ps(a, b); }
static inline tb_f4 tb_f4_sub(tb_f4 a, tb_f4 b) { return _mm_sub_ps(a, b); }
static inline tb_f4 tb_f4_mul(tb_f4 a, tb_f4 b) { return _mm_mul_ps(a, b); }
static inline tb_f4 tb_f4_div(tb_f4 a, tb_f4 b) { return _mm_div_ps(a, b); }
/* pmin/pmax semantics (b < a ? b : a) match wasm's f32x4.pmin and _mm_min_ps(b, a) */
static inline tb_f4 tb_f4_min(tb_f4 a, tb_f4 b) { return _mm_min_ps(b, a); }
static inline tb_f4 tb_f4_max(tb_f4 a, tb_f4 b) { return _mm_max_ps(b, a); }
static inline tb_f4 tb_f4_sqrt(tb_f4 a) { return _mm_sqrt_ps(a); }
static inline tb_f4 tb_f4_abs(tb_f4 a) { return _mm_andnot_ps(_mm_set1_ps(-0.0f), a); }
static inline tb_f4 tb_f4_gt(tb_f4 a, tb_f4 b) { return _mm_cmpgt_ps(a, b); }
static inline tb_f4 tb_f4_lt(tb_f4 a, tb_f4 b) { return _mm_cmplt_ps(a, b); }
static inline tb_f4 tb_f4_ge(tb_f4 a, tb_f4 b) { return _mm_cmpge_ps(a, b); }
static inline tb_f4 tb_f4_and(tb_f4 a, tb_f4 b) { return _mm_and_ps(a, b); }
static inline tb_f4 tb_f4_or(tb_f4 a, tb_f4 b) { return _mm_or_ps(a, b); }
static inline tb_f4 tb_f4_select(tb_f4 mask, tb_f4 a, tb_f4 b) {
  return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b));
}
static inline int tb_f4_bitmask(tb_f4 a) { return _mm_movemask_ps(a); }
static inline void tb_f4_transpose(tb_f4* r0, tb_f4* r1, tb_f4* r2, tb_f4* r3) {
  tb_f4 t0 = _mm_unpacklo_ps(*r0, *r1), t1 = _mm_unpacklo_ps(*r2, *r3);
  tb_f4 t2 = _mm_unpackhi_ps(*r0, *r1), t3 = _mm_unpackhi_ps(*r2, *r3);
  *r0 = _mm_movelh_ps(t0, t1);
  *r1 = _mm_movehl_ps(t1, t0);
  *r2 = _mm_movelh_ps(t2, t3);
  *r3 = _mm_movehl_ps(t3, t2);
}
typedef __m128d tb_d2;
static inline tb_d2 tb_d2_zero(void) { return _mm_setzero_pd(); }
static inline tb_d2 tb_d2_splat(double a) { return _mm_set1_pd(a); }
static inline tb_d2 tb_d2_load(const double* p) { return _mm_loadu_pd(p); }
static inline void tb_d2_store(double* p, tb_d2 a) { _mm_storeu_pd(p, a); }
static inline tb_d2 tb_d2_add(tb_d2 a, tb_d2 b) { return _mm_add_pd(a, b); }
static inline tb_d2 tb_d2_sub(tb_d2 a, tb_d2 b) { return _mm_sub_pd(a, b); }
static inline tb_d2 tb_d2_mul(tb_d2 a, tb_d2 b) { return _mm_mul_pd(a, b); }
static inline double tb_d2_lane0(tb_d2 a) { return _mm_cvtsd_f64(a); }
static inline double tb_d2_lane1(tb_d2 a) { return _mm_cvtsd_f64(_mm_unpackhi_pd(a, a)); }
static inline tb_d2 tb_d2_from_lo(tb_f4 a) { return _mm_cvtps_pd(a); }
static inline tb_d2 tb_d2_from_hi(tb_f4 a) { return _mm_cvtps_pd(_mm_movehl_ps(a, a)); }
static inline tb_f4 tb_f4_from_d2(tb_d2 lo, tb_d2 hi) { return _mm_movelh_ps(_mm_cvtpd_ps(lo), _mm_cvtpd_ps(hi)); }

#else
#include <stdint.h>
#include <string.h>
#define TB_SIMD_BACKEND "scalar"
typedef struct tb_f4 { float v[4]; } tb_f4;
#define TB_F4_MAP2(expr)                                      \
  tb_f4 r;                                                    \
  for (int i = 0; i < 4; ++i) { float x = a.v[i], y = b.v[i]; r.v[i] = (expr); } \
  return r
static inline tb_f4 tb_f4_splat(float s) { tb_f4 r = {{s, s, s, s}}; return r; }
static inline tb_f4 tb_f4_load(const float* p) { tb_f4 r; memcpy(r.v, p, sizeof r.v); return r; }
static inline tb_f4 tb_f4_make(float a, float b, float c, float d) { tb_f4 r = {{a, b, c, d}}; return r; }
static inline void tb_f4_store(float* p, tb_f4 a) { memcpy(p, a.v, sizeof a.v); }
static inline tb_f4 tb_f4_add(tb_f4 a, tb_f4 b) { TB_F4_MAP2(x + y); }
static inline tb_f4 tb_f4_sub(tb_f4 a, tb_f4 b) { TB_F4_MAP2(x - y); }
static inline tb_f4 tb_f4_mul(tb_f4 a, tb_f4 b) { TB_F4_MAP2(x * y); }
static inline tb_f4 tb_f4_div(tb_f4 a, tb_f4 b) { TB_F4_MAP2(x / y); }
static inline tb_f4 tb_f4_min(tb_f4 a, tb_f4 b) { TB_F4_MAP2(y < x ? y : x); }
static inline tb_f4 tb_f4_max(tb_f4 a, tb_f4 b) { TB_F4_MAP2(x < y ? y : x); }
static inline tb_f4 tb_f4_sqrt(tb_f4 a) { tb_f4 r; for (int i = 0; i < 4; ++i) r.v[i] = sqrtf(a.v[i]); return r; }
static inline tb_f4 tb_f4_abs(tb_f4 a) { tb_f4 r; for (int i = 0; i < 4; ++i) r.v[i] = fabsf(a.v[i]); return r; }
static inline float tb_f4_mask_(int c) { uint32_t u = c ? 0xFFFFFFFFu : 0u; float f; memcpy(&f, &u, 4); return f; }
static inline tb_f4 tb_f4_gt(tb_f4 a, tb_f4 b) { TB_F4_MAP2(tb_f4_mask_(x > y)); }
static inline tb_f4 tb_f4_lt(tb_f4 a, tb_f4 b) { TB_F4_MAP2(tb_f4_mask_(x < y)); }
static inline tb_f4 tb_f4_ge(tb_f4 a, tb_f4 b) { TB_F4_MAP2(tb_f4_mask_(x >= y)); }
static inline uint32_t tb_f4_bits_(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float tb_f4_float_(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline tb_f4 tb_f4_and(tb_f4 a, tb_f4 b) { TB_F4_MAP2(tb_f4_float_(tb_f4_bits_(x) & tb_f4_bits_(y))); }
static inline tb_f4 tb_f4_or(tb_f4 a, tb_f4 b) { TB_F4_MAP2(tb_f4_float_(tb_f4_bits_(x) | tb_f4_bits_(y))); }
static inline tb_f4 tb_f4_select(tb_f4 m, tb_f4 a, tb_f4 b) {
  tb_f4 r;
  for (int i = 0; i < 4; ++i) r.v[i] = tb_f4_bits_(m.v[i]) ? a.v[i] : b.v[i];
  return r;
}
static inline int tb_f4_bitmask(tb_f4 a) {
  int r = 0;
  for (int i = 0; i < 4; ++i) r |= (int)(tb_f4_bits_(a.v[i]) >> 31) << i;
  return r;
}
static inline void tb_f4_transpose(tb_f4* r0, tb_f4* r1, tb_f4* r2, tb_f4* r3) {
  tb_f4* r[4] = {r0, r1, r2, r3};
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) { float t = r[i]->v[j]; r[i]->v[j] = r[j]->v[i]; r[j]->v[i] = t; }
}
#undef TB_F4_MAP2
typedef struct tb_d2 { double v[2]; } tb_d2;
static inline tb_d2 tb_d2_zero(void) { tb_d2 r = {{0.0, 0.0}}; return r; }
static inline tb_d2 tb_d2_splat(double s) { tb_d2 r = {{s, s}}; return r; }
static inline tb_d2 tb_d2_load(const double* p) { tb_d2 r; memcpy(r.v, p, sizeof r.v); return r; }
static inline void tb_d2_store(double* p, tb_d2 a) { memcpy(p, a.v, sizeof a.v); }
static inline tb_d2 tb_d2_add(tb_d2 a, tb_d2 b) { tb_d2 r = {{a.v[0] + b.v[0], a.v[1] + b.v[1]}}; return r; }
static inline tb_d2 tb_d2_sub(tb_d2 a, tb_d2 b) { tb_d2 r = {{a.v[0] - b.v[0], a.v[1] - b.v[1]}}; return r; }
static inline tb_d2 tb_d2_mul(tb_d2 a, tb_d2 b) { tb_d2 r = {{a.v[0] * b.v[0], a.v[1] * b.v[1]}}; return r; }
static inline double tb_d2_lane0(tb_d2 a) { return a.v[0]; }
static inline double tb_d2_lane1(tb_d2 a) { return a.v[1]; }
static inline tb_d2 tb_d2_from_lo(tb_f4 a) { tb_d2 r = {{(double)a.v[0], (double)a.v[1]}}; return r; }
static inline tb_d2 tb_d2_from_hi(tb_f4 a) { tb_d2 r = {{(double)a.v[2], (double)a.v[3]}}; return r; }
static inline tb_f4 tb_f4_from_d2(tb_d2 lo, tb_d2 hi) {
  tb_f4 r = {{(float)lo.v[0], (float)lo.v[1], (float)hi.v[0], (float)hi.v[1]}};
  return r;
}
#endif

/* sinf and cosf of each lane, bit for bit as the build's own sinf and cosf give them: the rotation
 * integration calls them for thousands of bodies a step. In wasm the C library is musl, whose
 * sinf/cosf for 2^-12 <= |x| <= pi/4 are its kernels __sindf/__cosdf (src/math/__sindf.c,
 * __cosdf.c) evaluated in double and rounded once to float: the same double operations run here
 * in two lanes of double; below 2^-12 musl returns x and 1 as is; a lane beyond pi/4 (or NaN) sends
 * the four lanes to sinf/cosf. Natively the lanes call the platform's sinf/cosf. */
static inline void tb_f4_sin_cos_each_(tb_f4 x, tb_f4* sin_x, tb_f4* cos_x) {
  float v[TB_LANES], s[TB_LANES], c[TB_LANES];
  tb_f4_store(v, x);
  for (int l = 0; l < TB_LANES; ++l) { s[l] = sinf(v[l]); c[l] = cosf(v[l]); }
  *sin_x = tb_f4_load(s);
  *cos_x = tb_f4_load(c);
}
#if defined(__wasm_simd128__) && !defined(TB_SIMD_SCALAR) && defined(__EMSCRIPTEN__)
static inline tb_d2 tb_d2_sindf_(tb_d2 x) {
  const tb_d2 s1 = tb_d2_splat(-0x15555554cbac77.0p-55), s2 = tb_d2_splat(0x111110896efbb2.0p-59);
  const tb_d2 s3 = tb_d2_splat(-0x1a00f9e2cae774.0p-65), s4 = tb_d2_splat(0x16cd878c3b46a7.0p-71);
  tb_d2 z = tb_d2_mul(x, x), w = tb_d2_mul(z, z), r = tb_d2_add(s3, tb_d2_mul(z, s4)), s = tb_d2_mul(z, x);
  /* (x + s*(S1 + z*S2)) + s*w*r */
  return tb_d2_add(tb_d2_add(x, tb_d2_mul(s, tb_d2_add(s1, tb_d2_mul(z, s2)))), tb_d2_mul(tb_d2_mul(s, w), r));
}
static inline tb_d2 tb_d2_cosdf_(tb_d2 x) {
  const tb_d2 c0 = tb_d2_splat(-0x1ffffffd0c5e81.0p-54), c1 = tb_d2_splat(0x155553e1053a42.0p-57);
  const tb_d2 c2 = tb_d2_splat(-0x16c087e80f1e27.0p-62), c3 = tb_d2_splat(0x199342e0ee5069.0p-68);
  tb_d2 z = tb_d2_mul(x, x), w = tb_d2_mul(z, z), r = tb_d2_add(c2, tb_d2_mul(z, c3));
  /* ((1.0 + z*C0) + w*C1) + (w*z)*r */
  return tb_d2_add(tb_d2_add(tb_d2_add(tb_d2_splat(1.0), tb_d2_mul(z, c0)), tb_d2_mul(w, c1)), tb_d2_mul(tb_d2_mul(w, z), r));
}
static inline void tb_f4_sin_cos(tb_f4 x, tb_f4* sin_x, tb_f4* cos_x) {
  tb_f4 ax = tb_f4_abs(x);
  /* |x| <= the float of bits 0x3f490fda (musl's test on the bits; for |x| the same order) */
  if (tb_f4_bitmask(wasm_f32x4_le(ax, tb_f4_splat(0x1.921fb4p-1f))) != 0xF) {
    tb_f4_sin_cos_each_(x, sin_x, cos_x);
    return;
  }
  tb_d2 lo = tb_d2_from_lo(x), hi = tb_d2_from_hi(x);
  tb_f4 small = tb_f4_lt(ax, tb_f4_splat(0x1p-12f));
  *sin_x = tb_f4_select(small, x, tb_f4_from_d2(tb_d2_sindf_(lo), tb_d2_sindf_(hi)));
  *cos_x = tb_f4_select(small, tb_f4_splat(1.0f), tb_f4_from_d2(tb_d2_cosdf_(lo), tb_d2_cosdf_(hi)));
}
#else
static inline void tb_f4_sin_cos(tb_f4 x, tb_f4* sin_x, tb_f4* cos_x) { tb_f4_sin_cos_each_(x, sin_x, cos_x); }
#endif

/* 1 when all n floats of v are finite: x·0 is 0 for a finite x and NaN for an infinite or NaN one,
 * and a sum with a NaN in it is NaN (no branch per value: the solve's guard checks a world's body
 * state in lanes of four). */
static inline int tb_floats_finite(const float* v, size_t n) {
  const tb_f4 zero = tb_f4_splat(0.0f);
  tb_f4 acc = zero;
  size_t i = 0;
  for (; i + TB_LANES <= n; i += TB_LANES) acc = tb_f4_add(acc, tb_f4_mul(tb_f4_load(v + i), zero));
  float rest = 0.0f;
  for (; i < n; ++i) rest += v[i] * 0.0f;
  return tb_f4_bitmask(tb_f4_ge(acc, zero)) == 0xF && rest == 0.0f;
}

#endif
