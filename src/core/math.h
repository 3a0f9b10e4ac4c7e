/* Small float32 vector, quaternion and transform math (internal). */
#ifndef TB_MATH_H
#define TB_MATH_H

#include <math.h>
#include <stdint.h>

typedef struct tb_vec3 { float x, y, z; } tb_vec3;
typedef struct tb_quat { float x, y, z, w; } tb_quat;           /* unit rotation */
typedef struct tb_mat3 { tb_vec3 cx, cy, cz; } tb_mat3;         /* column-major */
typedef struct tb_transform { tb_vec3 p; tb_quat q; } tb_transform;

#define TB_PI 3.14159265358979323846f

/* Inlined always: a function the step calls once per item (candidate pair, shape, body, row)
 * that the optimiser otherwise keeps out of line, in the wasm build (clang, link-time) most of
 * all; there the calls kept the contact rows' velocities in memory and cost 3 to 7 % of a step
 * (bench/RESULTS.md "perf17"). `inline` too, so that gcc accepts it on a function with external
 * linkage (its header's declaration keeps the definition external). */
#if defined(__GNUC__) || defined(__clang__)
#define TB_INLINE_HOT inline __attribute__((always_inline))
#else
#define TB_INLINE_HOT inline
#endif

static inline tb_vec3 tb_v3(float x, float y, float z) { tb_vec3 r = {x, y, z}; return r; }
static inline tb_vec3 tb_add(tb_vec3 a, tb_vec3 b) { return tb_v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline tb_vec3 tb_sub(tb_vec3 a, tb_vec3 b) { return tb_v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline tb_vec3 tb_scale(tb_vec3 a, float s) { return tb_v3(a.x * s, a.y * s, a.z * s); }
static inline tb_vec3 tb_neg(tb_vec3 a) { return tb_v3(-a.x, -a.y, -a.z); }
static inline tb_vec3 tb_mul_add(tb_vec3 a, float s, tb_vec3 b) { return tb_v3(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z); }
static inline float tb_dot(tb_vec3 a, tb_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline tb_vec3 tb_cross(tb_vec3 a, tb_vec3 b) {
  return tb_v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline float tb_length_sq(tb_vec3 a) { return tb_dot(a, a); }
static inline float tb_length(tb_vec3 a) { return sqrtf(tb_dot(a, a)); }
static inline tb_vec3 tb_normalize(tb_vec3 a) {
  float l = tb_length(a);
  return l > 1e-20f ? tb_scale(a, 1.0f / l) : tb_v3(0.0f, 0.0f, 0.0f);
}
static inline tb_vec3 tb_lerp(tb_vec3 a, tb_vec3 b, float t) { return tb_add(a, tb_scale(tb_sub(b, a), t)); }
static inline tb_vec3 tb_vmin(tb_vec3 a, tb_vec3 b) { return tb_v3(fminf(a.x, b.x), fminf(a.y, b.y), fminf(a.z, b.z)); }
static inline tb_vec3 tb_vmax(tb_vec3 a, tb_vec3 b) { return tb_v3(fmaxf(a.x, b.x), fmaxf(a.y, b.y), fmaxf(a.z, b.z)); }
static inline tb_vec3 tb_vabs(tb_vec3 a) { return tb_v3(fabsf(a.x), fabsf(a.y), fabsf(a.z)); }
static inline float tb_comp(tb_vec3 a, int i) { return i == 0 ? a.x : (i == 1 ? a.y : a.z); }
static inline float tb_clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

/* A grid cell index from its floored coordinate f, clamped to [0, n) in float before the int
 * conversion: f may be NaN (cell 0) or beyond the range of int (UB to convert). */
static inline int32_t tb_cell_index(float f, int32_t n) {
  if (!(f >= 0.0f)) return 0;
  if (f >= (float)(n - 1)) return n - 1;
  return (int32_t)f;
}

/* Unit tangents of unit n, right-handed (t0 × t1 = n). t0 is a fixed reference axis projected
 * onto the plane of n, the reference chosen by n's largest component (x for mostly-y or mostly-z
 * normals, y for mostly-x ones): the basis is continuous for normals near any world axis, where
 * contacts usually are, so contact tangents do not flip between frames. */
static inline void tb_basis(tb_vec3 n, tb_vec3* t0, tb_vec3* t1) {
  float ax = fabsf(n.x), ay = fabsf(n.y), az = fabsf(n.z);
  tb_vec3 ref = (ax >= ay && ax >= az) ? tb_v3(0.0f, 1.0f, 0.0f) : tb_v3(1.0f, 0.0f, 0.0f);
  tb_vec3 t = tb_sub(ref, tb_scale(n, tb_dot(ref, n)));
  *t0 = tb_scale(t, 1.0f / sqrtf(tb_dot(t, t)));
  *t1 = tb_cross(n, *t0);
}

static inline tb_quat tb_quat_identity(void) { tb_quat q = {0.0f, 0.0f, 0.0f, 1.0f}; return q; }
static inline tb_quat tb_quat_mul(tb_quat a, tb_quat b) {
  tb_quat r;
  r.x = a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y;
  r.y = a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x;
  r.z = a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w;
  r.w = a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z;
  return r;
}
static inline tb_quat tb_quat_conj(tb_quat a) { tb_quat r = {-a.x, -a.y, -a.z, a.w}; return r; }
static inline tb_quat tb_quat_normalize(tb_quat q) {
  float l = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  if (l < 1e-20f) return tb_quat_identity();
  if (l == INFINITY) {
    /* finite components past about 1.8e19 (a spin of 1e22 rad/s integrated) whose squares
     * overflow: divided by infinity they made a zero rotation; scaled by the largest first they
     * give its direction (an infinite component gives NaN, which the step's guard refuses) */
    float m = fabsf(q.x) > fabsf(q.y) ? fabsf(q.x) : fabsf(q.y);
    if (fabsf(q.z) > m) m = fabsf(q.z);
    if (fabsf(q.w) > m) m = fabsf(q.w);
    q = (tb_quat){q.x / m, q.y / m, q.z / m, q.w / m};
    l = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  }
  float s = 1.0f / l;
  tb_quat r = {q.x * s, q.y * s, q.z * s, q.w * s};
  return r;
}
static inline tb_vec3 tb_rotate(tb_quat q, tb_vec3 v) {
  /* v + 2w(u×v) + 2u×(u×v) */
  tb_vec3 u = tb_v3(q.x, q.y, q.z);
  tb_vec3 t = tb_scale(tb_cross(u, v), 2.0f);
  return tb_add(tb_add(v, tb_scale(t, q.w)), tb_cross(u, t));
}
static inline tb_vec3 tb_inv_rotate(tb_quat q, tb_vec3 v) { return tb_rotate(tb_quat_conj(q), v); }
static inline tb_quat tb_quat_axis_angle(tb_vec3 axis, float angle_rad) {
  tb_vec3 a = tb_normalize(axis);
  float s = sinf(0.5f * angle_rad);
  tb_quat q = {a.x * s, a.y * s, a.z * s, cosf(0.5f * angle_rad)};
  return q;
}
/* q advanced by angular velocity w (rad/s, world) over h (s), renormalised. */
static inline tb_quat tb_quat_integrate(tb_quat q, tb_vec3 w, float h) {
  tb_quat dq = {w.x * h * 0.5f, w.y * h * 0.5f, w.z * h * 0.5f, 0.0f};
  tb_quat r = tb_quat_mul(dq, q);
  r.x += q.x; r.y += q.y; r.z += q.z; r.w += q.w;
  return tb_quat_normalize(r);
}

static inline tb_mat3 tb_mat3_from_quat(tb_quat q) {
  tb_mat3 m;
  m.cx = tb_rotate(q, tb_v3(1.0f, 0.0f, 0.0f));
  m.cy = tb_rotate(q, tb_v3(0.0f, 1.0f, 0.0f));
  m.cz = tb_rotate(q, tb_v3(0.0f, 0.0f, 1.0f));
  return m;
}
static inline tb_vec3 tb_mat3_mul_v(tb_mat3 m, tb_vec3 v) {
  return tb_add(tb_add(tb_scale(m.cx, v.x), tb_scale(m.cy, v.y)), tb_scale(m.cz, v.z));
}
static inline tb_mat3 tb_mat3_transpose(tb_mat3 m) {
  tb_mat3 t;
  t.cx = tb_v3(m.cx.x, m.cy.x, m.cz.x);
  t.cy = tb_v3(m.cx.y, m.cy.y, m.cz.y);
  t.cz = tb_v3(m.cx.z, m.cy.z, m.cz.z);
  return t;
}
static inline tb_mat3 tb_mat3_mul(tb_mat3 a, tb_mat3 b) {
  tb_mat3 r = {tb_mat3_mul_v(a, b.cx), tb_mat3_mul_v(a, b.cy), tb_mat3_mul_v(a, b.cz)};
  return r;
}
static inline tb_mat3 tb_mat3_diag(tb_vec3 d) {
  tb_mat3 m = {{d.x, 0.0f, 0.0f}, {0.0f, d.y, 0.0f}, {0.0f, 0.0f, d.z}};
  return m;
}
static inline tb_mat3 tb_mat3_zero(void) { tb_mat3 m = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}; return m; }
static inline tb_mat3 tb_mat3_add(tb_mat3 a, tb_mat3 b) {
  tb_mat3 r = {tb_add(a.cx, b.cx), tb_add(a.cy, b.cy), tb_add(a.cz, b.cz)};
  return r;
}
static inline tb_mat3 tb_mat3_scale(tb_mat3 a, float s) {
  tb_mat3 r = {tb_scale(a.cx, s), tb_scale(a.cy, s), tb_scale(a.cz, s)};
  return r;
}
/* R·D·Rᵀ for rotation R (from q) and diagonal D. */
static inline tb_mat3 tb_mat3_rotate_diag(tb_quat q, tb_vec3 d) {
  tb_mat3 r = tb_mat3_from_quat(q);
  return tb_mat3_mul(tb_mat3_mul(r, tb_mat3_diag(d)), tb_mat3_transpose(r));
}
/* Inverse of a symmetric positive (semi)definite matrix; zero rows stay zero. */
static inline tb_mat3 tb_mat3_inverse(tb_mat3 m) {
  tb_vec3 c0 = tb_cross(m.cy, m.cz), c1 = tb_cross(m.cz, m.cx), c2 = tb_cross(m.cx, m.cy);
  float det = tb_dot(m.cx, c0);
  if (!(fabsf(det) >= 1e-30f && fabsf(det) <= 3.4e38f)) {
    /* det out of float32's comfortable range (a 10 µm body's inertia ~1e-19 kg·m² has det ~1e-57):
     * invert m / k, k the largest |entry|, whose det is O(1), then divide by k; zero when singular */
    const float* e = &m.cx.x;
    float k = 0.0f;
    for (int i = 0; i < 9; ++i) k = fmaxf(k, fabsf(e[i]));
    if (!(k > 0.0f) || !(k <= 3.4e38f)) return tb_mat3_zero();
    tb_mat3 n = {tb_scale(m.cx, 1.0f / k), tb_scale(m.cy, 1.0f / k), tb_scale(m.cz, 1.0f / k)};
    c0 = tb_cross(n.cy, n.cz); c1 = tb_cross(n.cz, n.cx); c2 = tb_cross(n.cx, n.cy);
    det = tb_dot(n.cx, c0);
    if (!(fabsf(det) >= 1e-30f)) return tb_mat3_zero();
    float s = 1.0f / (det * k);
    tb_mat3 inv = {tb_scale(c0, s), tb_scale(c1, s), tb_scale(c2, s)};
    return tb_mat3_transpose(inv);
  }
  float s = 1.0f / det;
  tb_mat3 inv = {tb_scale(c0, s), tb_scale(c1, s), tb_scale(c2, s)};
  return tb_mat3_transpose(inv);
}

static inline tb_vec3 tb_transform_point(tb_transform t, tb_vec3 p) { return tb_add(tb_rotate(t.q, p), t.p); }
static inline tb_vec3 tb_inv_transform_point(tb_transform t, tb_vec3 p) { return tb_inv_rotate(t.q, tb_sub(p, t.p)); }
static inline tb_transform tb_transform_mul(tb_transform a, tb_transform b) {
  tb_transform r;
  r.q = tb_quat_mul(a.q, b.q);
  r.p = tb_add(tb_rotate(a.q, b.p), a.p);
  return r;
}

static inline int tb_is_finite(float v) { return isfinite(v) != 0; }
static inline int tb_vec3_is_finite(tb_vec3 v) { return tb_is_finite(v.x) && tb_is_finite(v.y) && tb_is_finite(v.z); }
static inline int tb_quat_is_finite(tb_quat q) { return tb_is_finite(q.x) && tb_is_finite(q.y) && tb_is_finite(q.z) && tb_is_finite(q.w); }

#endif
