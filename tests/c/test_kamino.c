/* The `kamino` preset: PADMM stopping rule and status, the resting readback, Coulomb friction on
 * a slope, a stack's ground force, warm start and its reset, thread-count determinism. */
#include <math.h>
#include <string.h>

#include "include/tribo.h"
#include "test_util.h"

static const float ID_Q[4] = {0, 0, 0, 1};
static const float ZERO[3] = {0, 0, 0};
static const float G = 9.81f, H = 1.0f / 60.0f;

static int field_index(const char* name) {
  for (int i = 0; i < tb_field_count(TB_FIELDS_CONTACT); ++i)
    if (strcmp(tb_field_get(TB_FIELDS_CONTACT, i)->name, name) == 0) return i;
  return -1;
}
static const float* contact_field(tb_world_id w, const char* name) {
  return (const float*)tb_world_field(w, TB_FIELDS_CONTACT, field_index(name));
}

static tb_world_id make_world(int max_iterations, int threads) {
  tb_world_def def = tb_default_world_def();
  CHECK(tb_preset_apply(TB_PRESET_KAMINO, &def) == TB_OK);
  def.timestep = H;
  def.thread_count = threads;
  if (max_iterations > 0) def.solver.kamino.max_iterations = max_iterations;
  tb_world_id w = tb_world_create(&def);
  CHECK(w >= 0);
  return w;
}

static void add_ground(tb_world_id w, const float normal[3], float friction) {
  float plane[4] = {normal[0], normal[1], normal[2], 0};
  tb_body_id g = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  tb_shape_create(w, g, TB_SHAPE_PLANE, plane, ZERO, ID_Q, friction, 0.0f, 1.0f);
}

/* A cube of half extent 0.5 m (1 m³) of mass `mass` kg. */
static tb_body_id add_cube(tb_world_id w, const float p[3], const float q[4], float mass, float friction) {
  float he[4] = {0.5f, 0.5f, 0.5f, 0};
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, p, q);
  tb_shape_create(w, b, TB_SHAPE_BOX, he, ZERO, ID_Q, friction, 0.0f, mass);
  return b;
}

static tb_solver_status status_of(tb_world_id w) {
  tb_solver_status s;
  CHECK(tb_world_solver_status(w, &s) == TB_OK);
  return s;
}

/* Sum of the contact forces (N, world y) on the bodies above static ground contacts, and the
 * deepest penetration (m) among them. */
static float ground_force_y(tb_world_id w, float* deepest) {
  tb_contact_status cs;
  tb_world_contact_status(w, &cs);
  const float* force = contact_field(w, "force");
  const float* dist = contact_field(w, "distance");
  const int32_t* body0 = (const int32_t*)contact_field(w, "body0");
  float sum = 0.0f;
  *deepest = 0.0f;
  for (int i = 0; i < cs.count; ++i) {
    if (body0[i] != -1) continue; /* shape0 is the plane: force on body1 is the ground's push */
    sum += force[3 * i + 1];
    if (-dist[i] > *deepest) *deepest = -dist[i];
  }
  return sum;
}

/* A resting box converges below the default 1e-6 tolerances and reports m·g. */
static void test_resting_box(void) {
  tb_world_id w = make_world(0, 1);
  const float up[3] = {0, 1, 0};
  add_ground(w, up, 0.5f);
  const float m = 2.0f, p[3] = {0, 0.5f, 0};
  add_cube(w, p, ID_Q, m, 0.5f);
  for (int s = 0; s < 60; ++s) CHECK(tb_world_step(w) == TB_OK);
  tb_solver_status st = status_of(w);
  CHECK(st.solver == TB_SOLVER_KAMINO);
  CHECK(st.converged == 1);
  CHECK(st.position_iterations >= 2 && st.position_iterations <= 200);
  CHECK(st.residual_primal >= 0.0f && st.residual_primal <= 1e-6f);
  CHECK(st.residual_dual >= 0.0f && st.residual_dual <= 1e-6f);
  CHECK(st.residual_complementarity >= 0.0f && st.residual_complementarity <= 1e-6f);
  /* at rest the normal impulse per step is m(g·h + v_b) with the bias velocity v_b = γ·pen/h of
   * a penetration pen; the residual r_d <= 1e-6 m/s bounds the velocity error, i.e. an impulse
   * error m·r_d; the float sum of four contacts adds ~1e-6 relative */
  float deepest, f = ground_force_y(w, &deepest);
  float tol = m * (0.01f * deepest / (H * H) + st.residual_dual / H) + 1e-5f * m * G;
  CHECK_NEAR(m * G, f, tol);
  CHECK(tol < 1e-3f * m * G); /* the bound is tight: the readback is m·g to 0.1 % or better */
  /* the per-body total is the same sum */
  tb_readback_info info;
  CHECK(tb_world_readback_info(w, &info) == TB_OK);
  CHECK(info.convention == TB_READBACK_NEWTON && info.per_contact_force == 1 && info.includes_friction == 1);
  tb_world_destroy(w);
}

/* With a budget of 3 iterations the solve stops unconverged and says so with its residuals. */
static void test_budget(void) {
  tb_world_id w = make_world(3, 1);
  const float up[3] = {0, 1, 0};
  add_ground(w, up, 0.5f);
  const float p[3] = {0, 0.5f, 0};
  add_cube(w, p, ID_Q, 2.0f, 0.5f);
  CHECK(tb_world_step(w) == TB_OK); /* cold start: the first step has the largest residuals */
  tb_solver_status st = status_of(w);
  CHECK(st.converged == 0);
  CHECK(st.position_iterations == 3);
  CHECK(isfinite(st.residual_primal) && isfinite(st.residual_dual) && isfinite(st.residual_complementarity));
  CHECK(st.residual_primal > 1e-6f || st.residual_dual > 1e-6f || st.residual_complementarity > 1e-6f);
  /* other solvers do not define the PADMM residuals */
  CHECK(tb_world_set_preset(w, TB_PRESET_NEWTON_XPBD) == TB_OK);
  CHECK(tb_world_step(w) == TB_OK);
  st = status_of(w);
  CHECK(isnan(st.residual_primal) && isnan(st.residual_dual) && isnan(st.residual_complementarity));
  tb_world_destroy(w);
}

/* A cube on a plane tilted by θ (μ = 0.5 on both shapes, average 0.5): it sticks for tanθ < μ and
 * slides for tanθ > μ with acceleration g(sinθ − μcosθ). */
static float slope_speed(float theta_deg, float* travel) {
  float th = theta_deg * 3.14159265f / 180.0f;
  tb_world_id w = make_world(0, 1);
  const float n[3] = {-sinf(th), cosf(th), 0};
  add_ground(w, n, 0.5f);
  float q[4] = {0, 0, sinf(th / 2), cosf(th / 2)};
  float p[3] = {0.5f * n[0], 0.5f * n[1], 0};
  tb_body_id b = add_cube(w, p, q, 1.0f, 0.5f);
  float down[3] = {-cosf(th), -sinf(th), 0}; /* along the plane, downhill */
  float x[13], v1 = 0.0f;
  for (int s = 0; s < 60; ++s) {
    CHECK(tb_world_step(w) == TB_OK);
    if (s == 29) {
      tb_body_get_state(w, b, x);
      v1 = x[7] * down[0] + x[8] * down[1];
    }
  }
  tb_body_get_state(w, b, x);
  float v2 = x[7] * down[0] + x[8] * down[1];
  *travel = (x[0] - p[0]) * down[0] + (x[1] - p[1]) * down[1];
  tb_world_destroy(w);
  return (v2 - v1) / (30.0f * H); /* m/s²: mean acceleration over the last 30 steps */
}

static void test_slope(void) {
  float travel;
  /* tan 20° = 0.36 < 0.5: no slip; float noise only */
  float a = slope_speed(20.0f, &travel);
  CHECK_NEAR(0.0, travel, 1e-4);
  CHECK_NEAR(0.0, a, 1e-3);
  /* tan 35° = 0.70 > 0.5: a = 9.81 (0.5736 − 0.5·0.8192) = 1.609 m/s²; the velocity-level
   * Coulomb cone of a sliding contact gives it per step up to the tolerances (1e-6 m/s per step
   * over 30 steps of 1/60 s: 6e-5 m/s² of 1.6) and the float sum: 0.5 % */
  float th = 35.0f * 3.14159265f / 180.0f;
  float expect = G * (sinf(th) - 0.5f * cosf(th));
  a = slope_speed(35.0f, &travel);
  CHECK_NEAR(expect, a, 0.005 * expect);
  CHECK(travel > 0.5f * expect * 0.9f); /* it moved downhill, about a·t²/2 over 1 s */
}

/* A stack of three cubes (1, 2, 3 kg): the ground's force is the total weight. */
static void test_stack(void) {
  tb_world_id w = make_world(0, 1);
  const float up[3] = {0, 1, 0};
  add_ground(w, up, 0.5f);
  float masses[3] = {1.0f, 2.0f, 3.0f}, total = 6.0f;
  tb_body_id ids[3];
  for (int i = 0; i < 3; ++i) {
    float p[3] = {0, 0.5f + (float)i, 0};
    ids[i] = add_cube(w, p, ID_Q, masses[i], 0.5f);
  }
  for (int s = 0; s < 119; ++s) CHECK(tb_world_step(w) == TB_OK);
  float before[3], x[13];
  for (int i = 0; i < 3; ++i) { tb_body_get_state(w, ids[i], x); before[i] = x[8]; }
  CHECK(tb_world_step(w) == TB_OK);
  /* Euler: the ground's impulse over the step is the stack's momentum change plus its weight
   * times h, so the force differs from the weight by Σ m·Δv_y / h: the stack's residual motion
   * (its contacts' Baumgarte push and what the iterations left) */
  float moving = 0.0f;
  for (int i = 0; i < 3; ++i) { tb_body_get_state(w, ids[i], x); moving += masses[i] * fabsf(x[8] - before[i]) / H; }
  float deepest, f = ground_force_y(w, &deepest);
  CHECK_NEAR(total * G, f, moving + 1e-5f * total * G);
  CHECK(moving < 1e-3f * total * G); /* at rest: the force is the weight to 0.1 % */
  tb_world_destroy(w);
}

/* Reset clears the warm start: the step after it equals a cold-started one, bit for bit. */
static void test_warm_start_reset(void) {
  tb_world_id w[2];
  const float up[3] = {0, 1, 0};
  for (int i = 0; i < 2; ++i) {
    w[i] = make_world(0, 1);
    add_ground(w[i], up, 0.5f);
    for (int k = 0; k < 2; ++k) {
      float p[3] = {0.2f * (float)k, 0.5f + (float)k, 0};
      add_cube(w[i], p, ID_Q, 1.0f + (float)k, 0.5f);
    }
    for (int s = 0; s < 20; ++s) tb_world_step(w[i]);
  }
  /* w[1] steps cold once (solver.kamino.warm_start off), w[0] after a reset */
  tb_world_def def;
  tb_world_get_def(w[1], &def);
  def.solver.kamino.warm_start = 0;
  CHECK(tb_world_set_solver(w[1], &def.solver) == TB_OK);
  CHECK(tb_world_solver_reset(w[0]) == TB_OK);
  tb_world_step(w[0]);
  tb_world_step(w[1]);
  CHECK(memcmp(tb_world_field(w[0], TB_FIELDS_BODY, 0), tb_world_field(w[1], TB_FIELDS_BODY, 0), 7 * 3 * sizeof(float)) == 0);
  tb_solver_status s0 = status_of(w[0]), s1 = status_of(w[1]);
  CHECK(s0.position_iterations == s1.position_iterations);
  /* without the reset the warm-started step differs: the cache is used */
  tb_world_step(w[0]);
  def.solver.kamino.warm_start = 1;
  tb_world_set_solver(w[1], &def.solver);
  CHECK(tb_world_solver_reset(w[1]) == TB_OK);
  tb_world_step(w[1]);
  CHECK(memcmp(tb_world_field(w[0], TB_FIELDS_BODY, 0), tb_world_field(w[1], TB_FIELDS_BODY, 0), 7 * 3 * sizeof(float)) != 0);
  for (int i = 0; i < 2; ++i) tb_world_destroy(w[i]);
  CHECK(tb_world_solver_reset(w[0]) == TB_ERR_NOT_FOUND);
}

/* A small pyramid with 1 and 3 threads: bitwise identical poses and impulses. */
static void test_threads(void) {
  tb_world_id w[2];
  const float up[3] = {0, 1, 0};
  for (int i = 0; i < 2; ++i) {
    w[i] = make_world(0, i == 0 ? 1 : 3);
    add_ground(w[i], up, 0.6f);
    for (int r = 0; r < 4; ++r)
      for (int k = 0; k < 4 - r; ++k) {
        float p[3] = {(float)k - (float)(3 - r) * 0.5f, 0.5f + (float)r, 0};
        add_cube(w[i], p, ID_Q, 1.0f, 0.6f);
      }
    for (int s = 0; s < 60; ++s) CHECK(tb_world_step(w[i]) == TB_OK);
  }
  int32_t n = tb_world_body_slot_count(w[0]);
  CHECK(memcmp(tb_world_field(w[0], TB_FIELDS_BODY, 0), tb_world_field(w[1], TB_FIELDS_BODY, 0), 7 * (size_t)n * sizeof(float)) == 0);
  tb_contact_status c0, c1;
  tb_world_contact_status(w[0], &c0);
  tb_world_contact_status(w[1], &c1);
  CHECK(c0.count == c1.count && c0.count > 0);
  CHECK(memcmp(contact_field(w[0], "normal_impulse"), contact_field(w[1], "normal_impulse"), (size_t)c0.count * sizeof(float)) == 0);
  CHECK(memcmp(contact_field(w[0], "wrench"), contact_field(w[1], "wrench"), 6 * (size_t)c0.count * sizeof(float)) == 0);
  for (int i = 0; i < 2; ++i) tb_world_destroy(w[i]);
}

/* The COM wrench of one resting cube on another: by body1 on body0, torque (p0 − C0) × f0. */
static void test_wrench(void) {
  tb_world_id w = make_world(0, 1);
  const float up[3] = {0, 1, 0};
  add_ground(w, up, 0.5f);
  float p0[3] = {0, 0.5f, 0}, p1[3] = {0.25f, 1.5f, 0};
  add_cube(w, p0, ID_Q, 1.0f, 0.5f);
  add_cube(w, p1, ID_Q, 1.0f, 0.5f);
  for (int s = 0; s < 30; ++s) tb_world_step(w);
  tb_contact_status cs;
  tb_world_contact_status(w, &cs);
  const float* wr = contact_field(w, "wrench");
  const float* force = contact_field(w, "force");
  const float* point0 = contact_field(w, "point0");
  const int32_t* body0 = (const int32_t*)contact_field(w, "body0");
  int checked = 0;
  for (int i = 0; i < cs.count; ++i) {
    for (int j = 0; j < 3; ++j) CHECK(wr[6 * i + j] == -force[3 * i + j]);
    if (body0[i] < 0) {
      for (int j = 3; j < 6; ++j) CHECK(wr[6 * i + j] == 0.0f); /* static body0: no COM, no torque */
      continue;
    }
    float st[13];
    tb_body_get_state(w, body0[i], st); /* cube origin = its centre of mass */
    float r[3] = {point0[3 * i] - st[0], point0[3 * i + 1] - st[1], point0[3 * i + 2] - st[2]};
    const float* f = wr + 6 * i;
    float t[3] = {r[1] * f[2] - r[2] * f[1], r[2] * f[0] - r[0] * f[2], r[0] * f[1] - r[1] * f[0]};
    for (int j = 0; j < 3; ++j) CHECK_NEAR(t[j], wr[6 * i + 3 + j], 1e-4 * (fabs(f[1]) + 1.0));
    ++checked;
  }
  CHECK(checked > 0);
  tb_world_destroy(w);
}

static void test_params(void) {
  tb_world_def def = tb_default_world_def();
  CHECK(tb_preset_apply(TB_PRESET_KAMINO, &def) == TB_OK);
  CHECK(def.solver.solver == TB_SOLVER_KAMINO && def.solver.combine_rule == TB_COMBINE_RULE_KAMINO);
  CHECK(def.solver.kamino.max_iterations == 200 && def.solver.kamino.primal_tolerance == 1e-6f);
  CHECK(def.solver.kamino.warm_start_scale == 0.9f);
  def.solver.kamino.dual_tolerance = 0.0f;
  CHECK(tb_world_create(&def) == -TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(-1), "solver.kamino.dual_tolerance") != NULL);
  def.solver.kamino.dual_tolerance = 1e-6f;
  def.solver.kamino.max_iterations = 0;
  CHECK(tb_world_create(&def) == -TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(-1), "solver.kamino.max_iterations") != NULL);
  def.solver.kamino.max_iterations = 200;
  /* rho: 3e-9 diverged to a non-finite step (refused now, by name); the bound itself holds a box
   * and a sphere at rest for a second */
  def.solver.kamino.rho = 3e-9f;
  CHECK(tb_world_create(&def) == -TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(-1), "solver.kamino.rho must be >= 1e-06 (got 3e-09)") != NULL);
  def.solver.kamino.rho = TB_KAMINO_MIN_RHO;
  tb_world_id w = tb_world_create(&def);
  CHECK(w >= 0);
  const float up[3] = {0, 1, 0}, p[3] = {0, 0.5f, 0}, ps[3] = {2, 0.29f, 0}, r[4] = {0.3f, 0, 0, 0};
  add_ground(w, up, 0.5f);
  tb_body_id cube = add_cube(w, p, ID_Q, 2.0f, 0.5f);
  tb_body_id ball = tb_body_create(w, TB_BODY_DYNAMIC, ps, ID_Q);
  tb_shape_create(w, ball, TB_SHAPE_SPHERE, r, ZERO, ID_Q, 0.5f, 0.0f, 1000.0f);
  for (int s = 0; s < 60; ++s) CHECK(tb_world_step(w) == TB_OK);
  float state[13];
  CHECK(tb_body_get_state(w, cube, state) == TB_OK);
  CHECK_NEAR(0.5f, state[1], 0.02f);
  CHECK(tb_body_get_state(w, ball, state) == TB_OK);
  CHECK_NEAR(0.3f, state[1], 0.02f);
  tb_world_destroy(w);
}

/* The preset's detection is the Newton rule d <= gap0 + gap1 without speculative widening (opt-in,
 * newton-e3 §2), with Newton's default gap 0.1 m per shape: a pair is kept up to d = 0.2 m, at any
 * relative speed. */
static void test_gap(void) {
  tb_world_def def = tb_default_world_def();
  CHECK(tb_preset_apply(TB_PRESET_KAMINO, &def) == TB_OK);
  CHECK(def.collision.speculative_widening == 0 && def.collision.constant_gap == 0.2f);
  const float d[3] = {0.19f, 0.21f, 0.25f}, speed[3] = {0.0f, 0.0f, -30.0f};
  for (int i = 0; i < 3; ++i) {
    tb_world_id w = make_world(0, 1);
    const float up[3] = {0, 1, 0};
    add_ground(w, up, 0.5f);
    float p[3] = {0, 0.5f + d[i], 0}, v[3] = {0, speed[i], 0};
    tb_body_id b = add_cube(w, p, ID_Q, 1.0f, 0.5f);
    CHECK(tb_body_set_velocity(w, b, v, ZERO) == TB_OK);
    CHECK(tb_world_collide(w) == TB_OK);
    tb_contact_status cs;
    tb_world_contact_status(w, &cs);
    CHECK((cs.count > 0) == (d[i] < 0.2f)); /* widening (30 m/s · h, capped at 0.1 m) would keep the third */
    tb_world_destroy(w);
  }
}

/* Settled steps of a pyramid of `rows` rows of unit cubes (μ 0.6) that met all three tolerances,
 * and the mean iterations of those steps; every step's status agrees with its residuals. */
static int pyramid(int rows, int settle, int steps, double* mean_iterations) {
  tb_world_id w = make_world(0, 1);
  const float up[3] = {0, 1, 0};
  add_ground(w, up, 0.6f);
  for (int r = 0; r < rows; ++r)
    for (int k = 0; k < rows - r; ++k) {
      float p[3] = {(float)k - (float)(rows - 1 - r) * 0.5f, 0.5f + (float)r, 0};
      add_cube(w, p, ID_Q, 1.0f, 0.6f);
    }
  int converged = 0;
  long total = 0;
  for (int s = 0; s < steps; ++s) {
    CHECK(tb_world_step(w) == TB_OK);
    tb_solver_status st = status_of(w);
    int within = st.residual_primal <= 1e-6f && st.residual_dual <= 1e-6f && st.residual_complementarity <= 1e-6f;
    if (st.converged) CHECK(within); /* converged only within the tolerances */
    CHECK(st.converged || (st.position_iterations == 200 && !within));
    if (s < settle) continue;
    converged += st.converged == 1;
    total += st.position_iterations;
  }
  *mean_iterations = (double)total / (steps - settle);
  tb_world_destroy(w);
  return converged;
}

/* Accelerated PADMM (Nesterov with restart, Kamino's default): a resting cube converges every
 * step in <= 20 iterations (the plain iteration needed 26-29), a 3-row pyramid in 110 of 120
 * steps with 55 iterations on average (plain: 76 of 120 steps, 157; with the restart test on
 * norms instead of Kamino's sums of squares: 100 steps, 73); the 10-row pyramid of the
 * trajectory test does not converge in 200 (its normal impulses are statically indeterminate and
 * r_d stalls near 5e-5 m/s, see docs/presets.md) and its status says so. */
static void test_pyramid(void) {
  double mean;
  CHECK(pyramid(1, 30, 90, &mean) == 60);
  CHECK(mean <= 20.0);
  int c3 = pyramid(3, 60, 180, &mean);
  CHECK(c3 >= 105);
  CHECK(mean < 65.0);
  CHECK(pyramid(10, 30, 60, &mean) == 0);
  CHECK(mean == 200.0);
}

int main(void) {
  test_params();
  test_gap();
  test_resting_box();
  test_budget();
  test_slope();
  test_stack();
  test_warm_start_reset();
  test_threads();
  test_wrench();
  test_pyramid();
  return tb_test_report("test_kamino");
}
