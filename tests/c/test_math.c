/* Tests of src/core/math.h: rotations, quaternion algebra, bases, matrices, transforms. */
#include "../../src/core/math.h"
#include "test_util.h"

#define TB_TEST_SEED 0x9E3779B9u
#include "test_random.h"

/* Rotation matrix from the textbook formula (independent of tb_rotate). */
static tb_vec3 rotate_by_formula(tb_quat q, tb_vec3 v) {
  float x = q.x, y = q.y, z = q.z, w = q.w;
  float m00 = 1 - 2 * (y * y + z * z), m01 = 2 * (x * y - z * w), m02 = 2 * (x * z + y * w);
  float m10 = 2 * (x * y + z * w), m11 = 1 - 2 * (x * x + z * z), m12 = 2 * (y * z - x * w);
  float m20 = 2 * (x * z - y * w), m21 = 2 * (y * z + x * w), m22 = 1 - 2 * (x * x + y * y);
  return tb_v3(m00 * v.x + m01 * v.y + m02 * v.z, m10 * v.x + m11 * v.y + m12 * v.z,
               m20 * v.x + m21 * v.y + m22 * v.z);
}

static void test_rotate_vs_matrix(void) {
  for (int i = 0; i < 200; ++i) {
    tb_quat q = rand_quat();
    tb_vec3 v = tb_scale(rand_vec(), 3.0f);
    tb_vec3 r = tb_rotate(q, v);
    CHECK_VEC_NEAR(rotate_by_formula(q, v), r, 1e-5);
    CHECK_VEC_NEAR(tb_mat3_mul_v(tb_mat3_from_quat(q), v), r, 1e-5);
    CHECK_NEAR(tb_length(v), tb_length(r), 1e-5);
    CHECK_VEC_NEAR(v, tb_inv_rotate(q, r), 1e-5);
  }
  /* 90 degrees about z maps x to y */
  tb_quat qz = tb_quat_axis_angle(tb_v3(0, 0, 1), 0.5f * TB_PI);
  CHECK_VEC_NEAR(tb_v3(0, 1, 0), tb_rotate(qz, tb_v3(1, 0, 0)), 1e-6);
  /* 120 degrees about (1,1,1) cycles the axes */
  tb_quat q3 = tb_quat_axis_angle(tb_v3(1, 1, 1), 2.0f * TB_PI / 3.0f);
  CHECK_VEC_NEAR(tb_v3(0, 1, 0), tb_rotate(q3, tb_v3(1, 0, 0)), 1e-6);
  CHECK_VEC_NEAR(tb_v3(0, 0, 1), tb_rotate(q3, tb_v3(0, 1, 0)), 1e-6);
}

static void test_quat_algebra(void) {
  for (int i = 0; i < 200; ++i) {
    tb_quat a = rand_quat(), b = rand_quat(), c = rand_quat();
    tb_quat l = tb_quat_mul(tb_quat_mul(a, b), c), r = tb_quat_mul(a, tb_quat_mul(b, c));
    CHECK_NEAR(l.x, r.x, 1e-5); CHECK_NEAR(l.y, r.y, 1e-5);
    CHECK_NEAR(l.z, r.z, 1e-5); CHECK_NEAR(l.w, r.w, 1e-5);
    tb_quat id = tb_quat_mul(a, tb_quat_conj(a));
    CHECK_NEAR(0.0, id.x, 1e-6); CHECK_NEAR(0.0, id.y, 1e-6);
    CHECK_NEAR(0.0, id.z, 1e-6); CHECK_NEAR(1.0, id.w, 1e-6);
    /* composition: rotate(a*b) = rotate(a) after rotate(b) */
    tb_vec3 v = rand_vec();
    CHECK_VEC_NEAR(tb_rotate(a, tb_rotate(b, v)), tb_rotate(tb_quat_mul(a, b), v), 1e-5);
  }
}

static void test_basis(void) {
  tb_vec3 special[6] = {{0, 0, 1}, {0, 0, -1}, {1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 1e-4f, -1}};
  for (int i = 0; i < 506; ++i) {
    tb_vec3 n = i < 6 ? tb_normalize(special[i]) : rand_unit();
    tb_vec3 t0, t1;
    tb_basis(n, &t0, &t1);
    CHECK_NEAR(1.0, tb_length(t0), 1e-5);
    CHECK_NEAR(1.0, tb_length(t1), 1e-5);
    CHECK_NEAR(0.0, tb_dot(n, t0), 1e-5);
    CHECK_NEAR(0.0, tb_dot(n, t1), 1e-5);
    CHECK_NEAR(0.0, tb_dot(t0, t1), 1e-5);
    /* right-handed: t0 x t1 = n */
    CHECK_VEC_NEAR(n, tb_cross(t0, t1), 1e-5);
  }
}

static void test_mat3_inverse(void) {
  for (int i = 0; i < 200; ++i) {
    tb_mat3 m;
    if (i % 2 == 0) {
      /* symmetric positive definite, as inertia tensors */
      tb_vec3 d = tb_add(tb_vabs(rand_vec()), tb_v3(0.1f, 0.1f, 0.1f));
      m = tb_mat3_rotate_diag(rand_quat(), d);
    } else {
      m.cx = tb_add(rand_vec(), tb_v3(2, 0, 0));
      m.cy = tb_add(rand_vec(), tb_v3(0, 2, 0));
      m.cz = tb_add(rand_vec(), tb_v3(0, 0, 2));
    }
    tb_mat3 p = tb_mat3_mul(tb_mat3_inverse(m), m);
    tb_mat3 p2 = tb_mat3_mul(m, tb_mat3_inverse(m));
    CHECK_VEC_NEAR(tb_v3(1, 0, 0), p.cx, 1e-4);
    CHECK_VEC_NEAR(tb_v3(0, 1, 0), p.cy, 1e-4);
    CHECK_VEC_NEAR(tb_v3(0, 0, 1), p.cz, 1e-4);
    CHECK_VEC_NEAR(tb_v3(1, 0, 0), p2.cx, 1e-4);
    CHECK_VEC_NEAR(tb_v3(0, 1, 0), p2.cy, 1e-4);
    CHECK_VEC_NEAR(tb_v3(0, 0, 1), p2.cz, 1e-4);
  }
  /* known inverse of a diagonal matrix */
  tb_mat3 inv = tb_mat3_inverse(tb_mat3_diag(tb_v3(2, 4, 0.5f)));
  CHECK_NEAR(0.5, inv.cx.x, 1e-7);
  CHECK_NEAR(0.25, inv.cy.y, 1e-7);
  CHECK_NEAR(2.0, inv.cz.z, 1e-7);
}

static void test_transform(void) {
  for (int i = 0; i < 200; ++i) {
    tb_transform t;
    t.p = tb_scale(rand_vec(), 10.0f);
    t.q = rand_quat();
    tb_vec3 p = tb_scale(rand_vec(), 5.0f);
    CHECK_VEC_NEAR(p, tb_inv_transform_point(t, tb_transform_point(t, p)), 1e-4);
    CHECK_VEC_NEAR(p, tb_transform_point(t, tb_inv_transform_point(t, p)), 1e-4);
    /* composition: (a*b)(p) = a(b(p)) */
    tb_transform u;
    u.p = tb_scale(rand_vec(), 10.0f);
    u.q = rand_quat();
    CHECK_VEC_NEAR(tb_transform_point(t, tb_transform_point(u, p)),
                   tb_transform_point(tb_transform_mul(t, u), p), 1e-4);
    /* inverse transform composed with the transform is the identity */
    tb_transform inv = {tb_neg(tb_inv_rotate(t.q, t.p)), tb_quat_conj(t.q)};
    tb_transform id = tb_transform_mul(inv, t);
    CHECK_VEC_NEAR(tb_v3(0, 0, 0), id.p, 1e-4);
    CHECK_NEAR(1.0, fabsf(id.q.w), 1e-6);
  }
}

static void test_integrate(void) {
  /* constant spin of 1 rad/s about a unit axis for 1 s: rotation by 1 rad about that axis */
  tb_vec3 axes[3] = {{0, 0, 1}, {1, 0, 0}, {0.6f, 0.0f, 0.8f}};
  for (int a = 0; a < 3; ++a) {
    tb_quat q = tb_quat_identity();
    const int steps = 600;
    for (int i = 0; i < steps; ++i) q = tb_quat_integrate(q, axes[a], 1.0f / (float)steps);
    float s = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z);
    float angle = 2.0f * atan2f(s, q.w);
    CHECK_NEAR(1.0, angle, 1e-3);
    CHECK_VEC_NEAR(axes[a], tb_scale(tb_v3(q.x, q.y, q.z), 1.0f / s), 1e-4);
    CHECK_NEAR(1.0, sqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w), 1e-6);
  }
  /* integration from a non-identity orientation: world-frame spin composes on the left */
  tb_quat q0 = tb_quat_axis_angle(tb_v3(1, 0, 0), 0.7f);
  tb_quat q = q0;
  for (int i = 0; i < 600; ++i) q = tb_quat_integrate(q, tb_v3(0, 0, 1), 1.0f / 600.0f);
  tb_quat expect = tb_quat_mul(tb_quat_axis_angle(tb_v3(0, 0, 1), 1.0f), q0);
  tb_vec3 v = tb_v3(0.3f, -0.5f, 0.8f);
  CHECK_VEC_NEAR(tb_rotate(expect, v), tb_rotate(q, v), 1e-3);
}

/* Normals a hair apart give tangents a hair apart, around every world axis and tilted ones
 * (contact frames must not flip between frames when a normal jitters). */
static void test_basis_continuity(void) {
  const tb_vec3 base[] = {{0, 1, 0}, {0, -1, 0}, {1, 0, 0}, {0, 0, 1}, {0, 0, -1}, {-0.34f, 0.94f, 0}, {0.6f, 0, 0.8f}};
  const float eps[] = {1e-7f, -1e-7f, 1e-4f, -1e-4f};
  for (size_t i = 0; i < sizeof base / sizeof base[0]; ++i) {
    tb_vec3 t0a, t1a;
    tb_basis(tb_normalize(base[i]), &t0a, &t1a);
    for (size_t k = 0; k < sizeof eps / sizeof eps[0]; ++k) {
      for (int axis = 0; axis < 3; ++axis) {
        tb_vec3 d = tb_v3(axis == 0 ? eps[k] : 0, axis == 1 ? eps[k] : 0, axis == 2 ? eps[k] : 0);
        tb_vec3 t0b, t1b;
        tb_basis(tb_normalize(tb_add(base[i], d)), &t0b, &t1b);
        CHECK_NEAR(1.0, tb_dot(t0a, t0b), 1e-3);
        CHECK_NEAR(1.0, tb_dot(t1a, t1b), 1e-3);
      }
    }
  }
}

int main(void) {
  test_basis_continuity();
  test_rotate_vs_matrix();
  test_quat_algebra();
  test_basis();
  test_mat3_inverse();
  test_transform();
  test_integrate();
  return tb_test_report("test_math");
}
