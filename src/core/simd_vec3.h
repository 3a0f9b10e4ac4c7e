/* Four 3-vectors as three four-lane floats (x, y, z), one vector per lane (internal). Each
 * operation does, per lane, the float operations of its scalar counterpart in src/core/math.h in
 * the same order (tb_dot, tb_cross, ...), so a lane's result is bitwise the scalar one. */
#ifndef TB_SIMD_VEC3_H
#define TB_SIMD_VEC3_H

#include <stddef.h>

#include "math.h"
#include "simd.h"

typedef struct v3w { tb_f4 x, y, z; } v3w;

/* a points at three consecutive rows of four floats (x, y, z). */
static inline v3w v3w_load_rows(const float* a) {
  v3w r = {tb_f4_load(a), tb_f4_load(a + 4), tb_f4_load(a + 8)};
  return r;
}
#define v3w_load(rows) v3w_load_rows(&(rows)[0][0])
static inline void v3w_store_rows(float* a, v3w v) {
  tb_f4_store(a, v.x);
  tb_f4_store(a + 4, v.y);
  tb_f4_store(a + 8, v.z);
}
#define v3w_store(rows, v) v3w_store_rows(&(rows)[0][0], (v))
static inline tb_f4 v3w_dot(v3w a, v3w b) {
  return tb_f4_add(tb_f4_add(tb_f4_mul(a.x, b.x), tb_f4_mul(a.y, b.y)), tb_f4_mul(a.z, b.z));
}
static inline v3w v3w_add(v3w a, v3w b) {
  v3w r = {tb_f4_add(a.x, b.x), tb_f4_add(a.y, b.y), tb_f4_add(a.z, b.z)};
  return r;
}
static inline v3w v3w_sub(v3w a, v3w b) {
  v3w r = {tb_f4_sub(a.x, b.x), tb_f4_sub(a.y, b.y), tb_f4_sub(a.z, b.z)};
  return r;
}
static inline v3w v3w_cross(v3w a, v3w b) {
  v3w r = {tb_f4_sub(tb_f4_mul(a.y, b.z), tb_f4_mul(a.z, b.y)), tb_f4_sub(tb_f4_mul(a.z, b.x), tb_f4_mul(a.x, b.z)),
           tb_f4_sub(tb_f4_mul(a.x, b.y), tb_f4_mul(a.y, b.x))};
  return r;
}
/* a·s (tb_scale) */
static inline v3w v3w_scale(v3w a, tb_f4 s) {
  v3w r = {tb_f4_mul(a.x, s), tb_f4_mul(a.y, s), tb_f4_mul(a.z, s)};
  return r;
}
/* a + s·b */
static inline v3w v3w_mad(v3w a, tb_f4 s, v3w b) {
  v3w r = {tb_f4_add(a.x, tb_f4_mul(s, b.x)), tb_f4_add(a.y, tb_f4_mul(s, b.y)), tb_f4_add(a.z, tb_f4_mul(s, b.z))};
  return r;
}
/* mask ? a : b per lane (mask lanes all-ones or all-zeros) */
static inline v3w v3w_select(tb_f4 mask, v3w a, v3w b) {
  v3w r = {tb_f4_select(mask, a.x, b.x), tb_f4_select(mask, a.y, b.y), tb_f4_select(mask, a.z, b.z)};
  return r;
}
/* v as a lane vector in every lane */
static inline v3w v3w_splat(tb_vec3 v) {
  v3w r = {tb_f4_splat(v.x), tb_f4_splat(v.y), tb_f4_splat(v.z)};
  return r;
}
/* Lanes 0..n-1 (n <= 4) from the vectors at base, base + stride, ... (stride in bytes), zeros in
 * the lanes after them: AoS records into lanes, built in registers (four scalar stores and a
 * vector load of them would stall on the store forwarding). */
static inline v3w v3w_gather(const void* base, size_t stride, int32_t n) {
  tb_vec3 v[TB_LANES];
  for (int32_t l = 0; l < TB_LANES; ++l)
    v[l] = l < n ? *(const tb_vec3*)(const void*)((const char*)base + (size_t)l * stride) : tb_v3(0.0f, 0.0f, 0.0f);
  v3w r = {tb_f4_make(v[0].x, v[1].x, v[2].x, v[3].x), tb_f4_make(v[0].y, v[1].y, v[2].y, v[3].y),
           tb_f4_make(v[0].z, v[1].z, v[2].z, v[3].z)};
  return r;
}
/* Lane j of rows stored by v3w_store */
static inline tb_vec3 v3w_rows_lane(const float rows[3][TB_LANES], int32_t j) { return tb_v3(rows[0][j], rows[1][j], rows[2][j]); }
/* tb_rotate of each lane's vector by that lane's quaternion (vector part u, scalar w):
 * v + 2w(u×v) + 2u×(u×v) */
static inline v3w v3w_rotate_lanes(v3w u, tb_f4 w, v3w v) {
  v3w t = v3w_scale(v3w_cross(u, v), tb_f4_splat(2.0f));
  return v3w_add(v3w_add(v, v3w_scale(t, w)), v3w_cross(u, t));
}
/* tb_rotate of every lane by one quaternion */
static inline v3w v3w_rotate(tb_quat q, v3w v) { return v3w_rotate_lanes(v3w_splat(tb_v3(q.x, q.y, q.z)), tb_f4_splat(q.w), v); }
/* tb_transform_point and tb_inv_transform_point of every lane by one transform */
static inline v3w v3w_transform_point(tb_transform t, v3w p) { return v3w_add(v3w_rotate(t.q, p), v3w_splat(t.p)); }
static inline v3w v3w_inv_transform_point(tb_transform t, v3w p) {
  return v3w_rotate(tb_quat_conj(t.q), v3w_sub(p, v3w_splat(t.p)));
}
/* Symmetric matrix (xx, yy, zz, xy, xz, yz rows of four lanes) times v. */
static inline v3w v3w_sym_mul(const float m[6][4], v3w v) {
  tb_f4 xx = tb_f4_load(m[0]), yy = tb_f4_load(m[1]), zz = tb_f4_load(m[2]);
  tb_f4 xy = tb_f4_load(m[3]), xz = tb_f4_load(m[4]), yz = tb_f4_load(m[5]);
  v3w r;
  r.x = tb_f4_add(tb_f4_add(tb_f4_mul(xx, v.x), tb_f4_mul(xy, v.y)), tb_f4_mul(xz, v.z));
  r.y = tb_f4_add(tb_f4_add(tb_f4_mul(xy, v.x), tb_f4_mul(yy, v.y)), tb_f4_mul(yz, v.z));
  r.z = tb_f4_add(tb_f4_add(tb_f4_mul(xz, v.x), tb_f4_mul(yz, v.y)), tb_f4_mul(zz, v.z));
  return r;
}

#endif
