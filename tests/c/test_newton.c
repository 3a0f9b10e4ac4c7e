/* Native tests of the Newton solvers: XPBD (resting readback = m·g, box wrenches about the
 * centre of mass, incline stick/slip at the combined μ, the single correction p_n = ω(−d)/(h·w),
 * the readback scale 1/N vs 2/(NA+NB) with kinematic bodies counted, the restitution pass left
 * out of the readback and solved per body pair, velocity zeroing below 1e-4) and penalty
 * (resting per-body force = m·g, a_n = ke·d + kd·min(v_n, 0), Huber friction, adhesion range,
 * overrides with 0 = unset, NaN per-contact readback); parameter validation, no allocation in
 * steady steps, thread-count independence; XPBD torsional and rolling friction limited by
 * μ_t·p_n and μ_r·p_n at the mean of the shapes' values (a rolling sphere's normal acts at its
 * centre), penalty creep on an incline below tanθ = μ at v = m·g·sinθ/(n·kf). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "include/tribo.h"
#include "test_util.h"
#define TB_TEST_SCENE_JOINTS_ONLY
#include "test_scene.h"

static const float ID_Q[4] = {0, 0, 0, 1};
static const float ZERO[3] = {0, 0, 0};
static const float G = 9.81f;

/* Net contact wrench of a body through the observation API: out = force (N), torque (N·m) about its COM. */
static tb_status body_wrench(tb_world_id w, tb_body_id body, float out[6]) {
  tb_wrench wr;
  tb_status st = tb_body_contact_wrench(w, body, TB_ANY_BODY, 0, &wr, NULL);
  if (st == TB_OK)
    for (int i = 0; i < 3; ++i) { out[i] = wr.force[i]; out[3 + i] = wr.torque[i]; }
  return st;
}

static tb_world_id make_world(tb_preset preset, float h, float gy) {
  tb_world_def def = tb_default_world_def();
  tb_preset_apply(preset, &def);
  def.timestep = h;
  def.gravity[1] = gy;
  return tb_world_create(&def);
}

static void set_newton(tb_world_id w, const tb_newton_params* p) {
  tb_world_def def;
  tb_world_get_def(w, &def);
  def.solver.newton = *p;
  CHECK(tb_world_set_solver(w, &def.solver) == TB_OK);
}

/* newton-xpbd with one collide() + solve() round per step: the kernel of one solve over h. */
static tb_world_id xpbd_one_round(float h, float gy) {
  tb_world_id w = make_world(TB_PRESET_NEWTON_XPBD, h, gy);
  tb_world_def def;
  tb_world_get_def(w, &def);
  def.solver.newton.xpbd_substeps = 1;
  CHECK(tb_world_set_solver(w, &def.solver) == TB_OK);
  return w;
}

/* Newton speculative contacts (newton-e3 §2, off in the presets): velocity widening with its cap,
 * and a constant distance (m) added to gap0 + gap1. */
static void set_speculative(tb_world_id w, int widening, float constant_gap) {
  tb_world_def def;
  tb_world_get_def(w, &def);
  def.collision.speculative_widening = widening;
  def.collision.constant_gap = constant_gap;
  CHECK(tb_world_set_collision(w, &def.collision) == TB_OK);
}

static tb_newton_params get_newton(tb_world_id w) {
  tb_world_def def;
  tb_world_get_def(w, &def);
  return def.solver.newton;
}

static tb_body_id ground(tb_world_id w, float mu, float e) {
  float plane[4] = {0, 1, 0, 0};
  tb_body_id g = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  tb_shape_create(w, g, TB_SHAPE_PLANE, plane, ZERO, ID_Q, mu, e, 1.0f);
  return g;
}

static tb_body_id sphere(tb_world_id w, float x, float y, float r, float mass, float mu, float e) {
  float p[3] = {x, y, 0}, prm[4] = {r, 0, 0, 0};
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, p, ID_Q);
  float density = mass / (4.0f / 3.0f * 3.14159265f * r * r * r);
  tb_shape_create(w, b, TB_SHAPE_SPHERE, prm, ZERO, ID_Q, mu, e, density);
  return b;
}

static float* field(tb_world_id w, const char* name) {
  for (int32_t i = 0; i < tb_field_count(TB_FIELDS_CONTACT); ++i)
    if (strcmp(tb_field_get(TB_FIELDS_CONTACT, i)->name, name) == 0) return (float*)tb_world_field(w, TB_FIELDS_CONTACT, i);
  return NULL;
}

static int contact_count(tb_world_id w) {
  tb_contact_status st;
  tb_world_contact_status(w, &st);
  return st.count;
}

static float body_mass(tb_world_id w, tb_body_id b) {
  float m[13];
  tb_body_get_mass(w, b, m);
  return m[0];
}

static void state(tb_world_id w, tb_body_id b, float out[13]) { tb_body_get_state(w, b, out); }

/* XPBD: a 3 kg sphere at rest reports m·g in its per-contact readback and per-body total. */
/* Kinetic energy (J) of a box body of half extents he and mass m from its state (ω world). */
static double box_energy(tb_world_id w, tb_body_id b, const float he[3], float m) {
  float st[13];
  tb_body_get_state(w, b, st);
  float qx = st[3], qy = st[4], qz = st[5], qw = st[6];
  /* ω in body axes: Rᵀω, R from the unit quaternion */
  float R[3][3] = {{1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qw * qz), 2 * (qx * qz + qw * qy)},
                   {2 * (qx * qy + qw * qz), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - qw * qx)},
                   {2 * (qx * qz - qw * qy), 2 * (qy * qz + qw * qx), 1 - 2 * (qx * qx + qy * qy)}};
  double e = 0.5 * m * (st[7] * st[7] + st[8] * st[8] + st[9] * st[9]);
  for (int i = 0; i < 3; ++i) {
    double wi = R[0][i] * st[10] + R[1][i] * st[11] + R[2][i] * st[12];
    double Ii = m / 3.0 * (he[(i + 1) % 3] * he[(i + 1) % 3] + he[(i + 2) % 3] * he[(i + 2) % 3]);
    e += 0.5 * Ii * wi * wi;
  }
  return e;
}

/* A thin box tumbling in free flight (no gravity, no contact) at 13 rad/s about an axis near its
 * intermediate one keeps its kinetic energy in both Newton presets: the gyroscopic term does no
 * work. Integrated explicitly (Newton's integrate_rigid_body), each step adds
 * ½h²|I⁻¹(ω × Iω)|²_I, and this body, thrown off the edge of a mesh ramp, went from 13 rad/s to
 * 10⁷ rad/s within 300 steps of free flight. */
static void test_free_tumble_energy(void) {
  const tb_preset presets[2] = {TB_PRESET_NEWTON_XPBD, TB_PRESET_NEWTON_SEMI};
  for (int k = 0; k < 2; ++k) {
    tb_world_id w = make_world(presets[k], 1.0f / 60.0f, 0.0f);
    const float he[3] = {0.5f, 0.1f, 0.2f}, box[4] = {0.5f, 0.1f, 0.2f, 0};
    tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, ZERO, ID_Q);
    tb_shape_create(w, b, TB_SHAPE_BOX, box, ZERO, ID_Q, 0.6f, 0, 500);
    const float v[3] = {0, 0, 0}, om[3] = {1.0f, 2.0f, 12.8f};
    CHECK(tb_body_set_velocity(w, b, v, om) == TB_OK);
    float m = 500.0f * 8 * he[0] * he[1] * he[2];
    double e0 = box_energy(w, b, he, m), emax = e0, emin = e0;
    for (int s = 0; s < 600; ++s) {
      CHECK(tb_world_step(w) == TB_OK);
      double e = box_energy(w, b, he, m);
      if (e > emax) emax = e;
      if (e < emin) emin = e;
    }
    printf("  free tumble (%s): energy %.4f J, range [%.4f, %.4f] J over 600 steps\n",
           tb_enum_name(TB_ENUM_PRESET, presets[k]), e0, emin, emax);
    CHECK(emax < 1.01 * e0 && emin > 0.99 * e0);
    tb_world_destroy(w);
  }
}

/* The scene the free tumble came from: a thin box dropped from 1 m next to the low edge of a
 * two-triangle mesh ramp (16° slope) under newton-xpbd, 300 steps: it bounces off the edge
 * and falls on, every step accepted, |ω| below 60 rad/s (without the energy bound: 1.2e7). */
static void test_xpbd_mesh_ramp(void) {
  tb_world_id w = make_world(TB_PRESET_NEWTON_XPBD, 1.0f / 60.0f, -G);
  tb_body_id g = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  const float v[12] = {-3, 0.01f, -1, -1, 0.6f, -1, -1, 0.6f, 1, -3, 0.01f, 1};
  const int32_t idx[6] = {0, 2, 1, 0, 3, 2};
  CHECK(tb_shape_create_mesh(w, g, v, 4, idx, 2, ZERO, ID_Q, 0.6f, 0) >= 0);
  const float p[3] = {-2.5f, 1.3f, 0}, box[4] = {0.5f, 0.1f, 0.2f, 0};
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, p, ID_Q);
  tb_shape_create(w, b, TB_SHAPE_BOX, box, ZERO, ID_Q, 0.6f, 0, 500);
  float wmax = 0;
  int ok = 1;
  for (int s = 0; s < 300; ++s) {
    ok &= tb_world_step(w) == TB_OK;
    float st[13];
    tb_body_get_state(w, b, st);
    float om = sqrtf(st[10] * st[10] + st[11] * st[11] + st[12] * st[12]);
    if (!(om <= wmax)) wmax = om;
  }
  printf("  mesh ramp (newton-xpbd): largest |w| %.1f rad/s in 300 steps\n", (double)wmax);
  CHECK(ok);
  CHECK(wmax < 60.0f);
  tb_world_destroy(w);
}

static void test_xpbd_resting_sphere(void) {
  tb_world_id w = make_world(TB_PRESET_NEWTON_XPBD, 1.0f / 60.0f, -G);
  ground(w, 0.5f, 0);
  tb_body_id s = sphere(w, 0, 0.1f, 0.1f, 3.0f, 0.5f, 0);
  for (int i = 0; i < 240; ++i) CHECK(tb_world_step(w) == TB_OK);
  float mg = 3.0f * G;
  CHECK(contact_count(w) == 1);
  float* force = field(w, "force");
  float* wrench = field(w, "wrench");
  float* pn = field(w, "normal_impulse");
  CHECK_NEAR(mg, force[1], 0.005 * mg);             /* on body1 (the sphere) */
  CHECK_NEAR(-mg, wrench[1], 0.005 * mg);           /* by body1 on body0 (the ground) */
  CHECK_NEAR(mg / 60.0f, pn[0], 0.005 * mg / 60.0f); /* N·s over the step */
  float wr[6];
  CHECK(body_wrench(w, s, wr) == TB_OK);
  CHECK_NEAR(mg, wr[1], 0.005 * mg);
  tb_readback_info info;
  tb_world_readback_info(w, &info);
  CHECK(info.convention == TB_READBACK_NEWTON && info.per_contact_force == 1 && info.includes_restitution == 0 &&
        info.includes_friction == 1 && info.per_body_force == 1);
  CHECK_NEAR(1.0, info.scale, 0); /* one contact, static other side: 1/N = 1 */
  tb_solver_status st;
  tb_world_solver_status(w, &st);
  CHECK(st.solver == TB_SOLVER_XPBD && st.position_iterations == 2 && st.converged == TB_CONVERGED_UNDEFINED && isnan(st.residual_velocity));
  tb_world_destroy(w);
}

/* XPBD: a box resting on a static box; the dynamic box is body0, so each contact's wrench is
 * about its centre of mass: the forces sum to m·g, each torque is (p − C) × f, the sum ~0. */
static void test_xpbd_resting_box(void) {
  tb_world_id w = make_world(TB_PRESET_NEWTON_XPBD, 1.0f / 60.0f, -G);
  float half[4] = {0.2f, 0.1f, 0.3f, 0}, floor_half[4] = {2, 0.5f, 2, 0};
  float p[3] = {0, 0.1f, 0}, pf[3] = {0, -0.5f, 0};
  tb_body_id box = tb_body_create(w, TB_BODY_DYNAMIC, p, ID_Q);
  tb_shape_create(w, box, TB_SHAPE_BOX, half, ZERO, ID_Q, 0.5f, 0, 1000.0f);
  tb_body_id fl = tb_body_create(w, TB_BODY_STATIC, pf, ID_Q);
  tb_shape_create(w, fl, TB_SHAPE_BOX, floor_half, ZERO, ID_Q, 0.5f, 0, 1000.0f);
  for (int i = 0; i < 240; ++i) CHECK(tb_world_step(w) == TB_OK);
  float m = body_mass(w, box), mg = m * G;
  int n = contact_count(w);
  CHECK(n == 4);
  int32_t* body0 = (int32_t*)field(w, "body0");
  float* wrench = field(w, "wrench");
  float* point = field(w, "point");
  float* scale = field(w, "readback_scale");
  float s[13];
  state(w, box, s);
  float fy = 0, tx = 0, tz = 0;
  for (int i = 0; i < n; ++i) {
    CHECK(body0[i] == box);
    CHECK_NEAR(0.25, scale[i], 1e-7); /* 1/N, N = 4 on the box, none on the static side */
    const float* f = wrench + 6 * i;
    float r[3] = {point[3 * i] - s[0], point[3 * i + 1] - s[1], point[3 * i + 2] - s[2]};
    /* (p − C) × f; the anchors are on the surfaces, the point is their midpoint (mm apart) */
    float ex = r[1] * f[2] - r[2] * f[1], ez = r[0] * f[1] - r[1] * f[0];
    CHECK_NEAR(ex, f[3], 0.02 * mg * 0.3);
    CHECK_NEAR(ez, f[5], 0.02 * mg * 0.3);
    CHECK(fabsf(f[3]) > 0.05f * mg * 0.3f * 0.25f); /* each corner has a real arm */
    fy += f[1]; tx += f[3]; tz += f[5];
  }
  CHECK_NEAR(mg, fy, 0.005 * mg);
  CHECK_NEAR(0, tx, 0.002 * mg * 0.3);
  CHECK_NEAR(0, tz, 0.002 * mg * 0.3);
  tb_world_destroy(w);
}

/* XPBD: box on a 20° incline: sticks when the mean μ exceeds tanθ, slides with
 * a = g(sinθ − μ cosθ) at the mean μ otherwise. */
static float incline_travel(float mu_plane, float mu_box) {
  float th = 20.0f * 3.14159265f / 180.0f;
  tb_world_id w = make_world(TB_PRESET_NEWTON_XPBD, 1.0f / 120.0f, -G);
  float q[4] = {0, 0, sinf(0.5f * th), cosf(0.5f * th)};
  float n[3] = {-sinf(th), cosf(th), 0};
  float plane[4] = {n[0], n[1], n[2], 0};
  tb_body_id g = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  tb_shape_create(w, g, TB_SHAPE_PLANE, plane, ZERO, ID_Q, mu_plane, 0, 1.0f);
  float half[4] = {0.2f, 0.1f, 0.2f, 0};
  float p[3] = {0.1f * n[0], 0.1f * n[1], 0};
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, p, q);
  tb_shape_create(w, b, TB_SHAPE_BOX, half, ZERO, ID_Q, mu_box, 0, 500.0f);
  float s0[13], s1[13];
  for (int i = 0; i < 12; ++i) tb_world_step(w); /* settle onto the plane */
  state(w, b, s0);
  for (int i = 0; i < 120; ++i) tb_world_step(w);
  state(w, b, s1);
  tb_world_destroy(w);
  float dx = s1[0] - s0[0], dy = s1[1] - s0[1];
  return sqrtf(dx * dx + dy * dy);
}

static void test_xpbd_incline(void) {
  float th = 20.0f * 3.14159265f / 180.0f;
  /* μ 0.7 and 0.1: mean 0.4 > tan 20° = 0.364 sticks; min (0.1) or sqrt(μ0·μ1) (0.26) would
   * slide ~1 m. XPBD only creeps (ω < 1, count weighting and Jacobi rows leave part of each
   * step's slip: a few cm/s at h = 1/120). */
  float stick = incline_travel(0.7f, 0.1f);
  CHECK(stick < 0.06f);
  float a_min = G * (sinf(th) - 0.1f * cosf(th));
  CHECK(stick < 0.05f * (a_min * 0.1f + 0.5f * a_min));
  /* mean 0.2 < 0.364: slides; over 1 s from a speed v0 reached after the settling: d = v0 + a/2 */
  float mu = 0.2f, a = G * (sinf(th) - mu * cosf(th));
  float slide = incline_travel(0.3f, 0.1f);
  float v0 = a * 0.1f; /* speed after the 0.1 s of settling */
  CHECK_NEAR(v0 * 1.0f + 0.5f * a, slide, 0.05f * (v0 + 0.5f * a));
  /* the max rule (0.3) would give a = 0.59 m/s²: clearly apart */
  float a_max = G * (sinf(th) - 0.3f * cosf(th));
  CHECK(fabsf(slide - (a_max * 0.1f + 0.5f * a_max)) > 0.2f * slide);
}

/* XPBD, gravity off, one iteration: the kernel p_n = ω(−d)/(h·w) on a penetrating sphere, and
 * the velocity from positions ω(−d)/h. */
static void test_xpbd_single_correction(void) {
  float h = 0.01f, r = 0.2f, d = -0.01f, m = 2.0f;
  tb_world_id w = xpbd_one_round(h, 0);
  tb_newton_params p = get_newton(w);
  p.iterations = 1;
  p.relaxation = 0.7f;
  set_newton(w, &p);
  ground(w, 0.5f, 0);
  tb_body_id s = sphere(w, 0, r + d, r, m, 0.5f, 0);
  m = body_mass(w, s);
  CHECK(tb_world_step(w) == TB_OK);
  float* pn = field(w, "normal_impulse");
  float* sep = field(w, "separation");
  CHECK_NEAR(d, sep[0], 1e-6);
  float expected = 0.7f * (-sep[0]) / (h * (1.0f / m));
  CHECK_NEAR(expected, pn[0], 1e-5 * expected);
  float st[13];
  state(w, s, st);
  CHECK_NEAR(0.7f * 0.01f / h, st[8], 1e-3);
  tb_world_destroy(w);
}

/* XPBD: a record with d >= 0 (kept by a constant distance of 0.02 m) gets no normal correction. */
static void test_xpbd_gap_record(void) {
  tb_world_id w = make_world(TB_PRESET_NEWTON_XPBD, 0.01f, 0);
  set_speculative(w, 0, 0.02f);
  ground(w, 0.5f, 0);
  tb_body_id s = sphere(w, 0, 0.2f + 0.005f, 0.2f, 1.0f, 0.5f, 0);
  CHECK(tb_world_step(w) == TB_OK);
  CHECK(contact_count(w) == 1);
  CHECK_NEAR(0.005, field(w, "separation")[0], 1e-6);
  CHECK_NEAR(0, field(w, "normal_impulse")[0], 0);
  float st[13];
  state(w, s, st);
  CHECK_NEAR(0.205, st[1], 1e-7);
  CHECK_NEAR(0, st[8], 0);
  tb_world_destroy(w);
}

/* XPBD readback scale on a designed scene, gravity off, one iteration: a box A pressed 5 mm
 * into the ground (4 contacts) with a sphere B pressed 10 mm into its top. A has N = 5, B has
 * N = 1: ground rows scale 1/5, the A–B row 2/(5 + 1) = 1/3. Each row's normal impulse is the
 * scale times ω(−d)/(h·w) with w from the masses, inertia and arms. Weighting off: scale 1. */
static void weighting_scene(int weighting) {
  float h = 0.01f, relax = 0.8f;
  tb_world_id w = xpbd_one_round(h, 0);
  tb_newton_params p = get_newton(w);
  p.iterations = 1;
  p.relaxation = relax;
  p.contact_weighting = weighting;
  set_newton(w, &p);
  ground(w, 0.5f, 0);
  float hx = 0.3f, hy = 0.1f, hz = 0.2f;
  float half[4] = {hx, hy, hz, 0};
  float pa[3] = {0, hy - 0.005f, 0};
  tb_body_id A = tb_body_create(w, TB_BODY_DYNAMIC, pa, ID_Q);
  tb_shape_create(w, A, TB_SHAPE_BOX, half, ZERO, ID_Q, 0.5f, 0, 1000.0f);
  float rb = 0.1f;
  tb_body_id B = sphere(w, 0, 2 * hy - 0.005f + rb - 0.01f, rb, 1.0f, 0.5f, 0);
  CHECK(tb_world_step(w) == TB_OK);
  int n = contact_count(w);
  CHECK(n == 5);
  float mA[13], mB = body_mass(w, B);
  tb_body_get_mass(w, A, mA);
  float Ixx = mA[4], Iyy = mA[8], Izz = mA[12];
  int32_t* b0 = (int32_t*)field(w, "body0");
  int32_t* b1 = (int32_t*)field(w, "body1");
  float* pn = field(w, "normal_impulse");
  float* sep = field(w, "separation");
  float* point = field(w, "point");
  float* scale = field(w, "readback_scale");
  int ground_rows = 0, ab_rows = 0;
  for (int i = 0; i < n; ++i) {
    float wn, sc;
    if (b0[i] == -1) { /* ground–A: arm from A's centre to the corner, normal +y */
      ++ground_rows;
      float rx = point[3 * i] - 0.0f, rz = point[3 * i + 2] - 0.0f;
      /* r × ŷ = (−rz, 0, rx) */
      wn = 1.0f / mA[0] + rz * rz / Ixx + rx * rx / Izz;
      sc = weighting ? 1.0f / 5.0f : 1.0f;
      CHECK(b1[i] == A);
    } else { /* sphere–box through both centres: no arm */
      ++ab_rows;
      wn = 1.0f / mA[0] + 1.0f / mB;
      sc = weighting ? 2.0f / 6.0f : 1.0f;
    }
    (void)Iyy;
    float expected = sc * relax * (-sep[i]) / (h * wn);
    CHECK_NEAR(sc, scale[i], 1e-6);
    CHECK_NEAR(expected, pn[i], 2e-3 * expected);
  }
  CHECK(ground_rows == 4 && ab_rows == 1);
  tb_readback_info info;
  tb_world_readback_info(w, &info);
  if (weighting) CHECK(isnan(info.scale)); /* rows differ: per-contact readback_scale */
  else CHECK_NEAR(1.0, info.scale, 0);
  tb_world_destroy(w);
}

/* The readback counts contacts by body id, kinematic bodies included (Newton counts body_id >= 0,
 * not by effective mass): two boxes (4 contacts each) pressed into a kinematic platform give the
 * platform N = 8, so each row reports 2/(4 + 8) = 1/6, where a static platform gives 1/4. */
static void kinematic_scene(int kinematic, float* scale_out) {
  float h = 0.01f;
  tb_world_id w = xpbd_one_round(h, 0);
  tb_newton_params p = get_newton(w);
  p.iterations = 1;
  set_newton(w, &p);
  float ph[4] = {3, 0.5f, 3, 0}, pp[3] = {0, -0.5f, 0};
  tb_body_id plat = tb_body_create(w, kinematic ? TB_BODY_KINEMATIC : TB_BODY_STATIC, pp, ID_Q);
  tb_shape_create(w, plat, TB_SHAPE_BOX, ph, ZERO, ID_Q, 0.5f, 0, 1000.0f);
  float bh[4] = {0.2f, 0.1f, 0.2f, 0};
  for (int i = 0; i < 2; ++i) {
    float pos[3] = {-1.0f + 2.0f * (float)i, 0.1f - 0.004f, 0};
    tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, pos, ID_Q);
    tb_shape_create(w, b, TB_SHAPE_BOX, bh, ZERO, ID_Q, 0.5f, 0, 1000.0f);
  }
  CHECK(tb_world_step(w) == TB_OK);
  CHECK(contact_count(w) == 8);
  float* scale = field(w, "readback_scale");
  *scale_out = scale[0];
  for (int i = 1; i < 8; ++i) CHECK_NEAR(scale[0], scale[i], 0);
  tb_world_destroy(w);
}

static void test_xpbd_weighting(void) {
  weighting_scene(1);
  weighting_scene(0);
  float sk, ss;
  kinematic_scene(1, &sk);
  kinematic_scene(0, &ss);
  CHECK_NEAR(2.0 / 12.0, sk, 1e-7);
  CHECK_NEAR(0.25, ss, 1e-7);
}

/* XPBD restitution pass: a ball hits the ground at 3 m/s. With the pass on it leaves at
 * e·|v_old| (v_old the predicted approach); the readback equals the run without the pass and
 * equals the position-pass momentum change, so the pass's impulse m(v_on − v_off) is not in it. */
static void bounce(int restitution, float* v_after, float* pn_out, float* m_out) {
  float h = 1.0f / 60.0f;
  tb_world_id w = xpbd_one_round(h, -G);
  set_speculative(w, 1, 0.0f); /* the 3 m/s approach from 0.01 m is caught by the widening */
  tb_newton_params p = get_newton(w);
  p.restitution = restitution;
  set_newton(w, &p);
  ground(w, 0.5f, 0.6f);
  tb_body_id s = sphere(w, 0, 0.1f + 0.01f, 0.1f, 1.0f, 0.5f, 0.4f);
  float v[3] = {0, -3, 0};
  tb_body_set_velocity(w, s, v, ZERO);
  CHECK(tb_world_step(w) == TB_OK);
  float st[13];
  state(w, s, st);
  *v_after = st[8];
  *pn_out = field(w, "normal_impulse")[0];
  *m_out = body_mass(w, s);
  tb_world_destroy(w);
}

static void test_xpbd_restitution_excluded(void) {
  float h = 1.0f / 60.0f, v_on, v_off, pn_on, pn_off, m;
  bounce(1, &v_on, &pn_on, &m);
  bounce(0, &v_off, &pn_off, &m);
  float e = 0.5f, vold = -(3.0f + G * h);
  CHECK_NEAR(-e * vold, v_on, 1e-3);             /* reversed: leaves at e·|v_old| */
  CHECK(fabsf(v_on - v_off) > 0.5f);             /* the pass changed the velocity */
  CHECK_NEAR(pn_off, pn_on, 1e-6 * pn_off);      /* same readback with and without the pass */
  CHECK_NEAR(m * (v_off - (-3.0f) + G * h), pn_on, 1e-3 * pn_on); /* = position-pass impulse */
  /* total impulse with the pass exceeds the readback by the pass's share */
  float total_on = m * (v_on - (-3.0f) + G * h);
  CHECK(total_on - pn_on > 0.4f * m);
}

/* XPBD restitution manifolds are body pairs: a dumbbell (two spheres on one body) lands flat;
 * its two contacts (two shape pairs) form one manifold solved together by Gauss-Seidel, so both
 * reach −e·v_old and the body leaves at e·|v_old| without spin. Solved as two separate manifolds
 * and averaged, each row alone would give only Δv/(1 + m r²/I) of the linear change. */
static void test_xpbd_restitution_body_pair(void) {
  float h = 1.0f / 60.0f, r = 0.1f, arm = 0.5f;
  tb_world_id w = xpbd_one_round(h, -G);
  set_speculative(w, 1, 0.0f);
  tb_newton_params p = get_newton(w);
  p.restitution = 1;
  set_newton(w, &p);
  ground(w, 0.5f, 0.5f);
  float pos[3] = {0, r + 0.01f, 0}, prm[4] = {r, 0, 0, 0};
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, pos, ID_Q);
  float left[3] = {-arm, 0, 0}, right[3] = {arm, 0, 0};
  tb_shape_create(w, b, TB_SHAPE_SPHERE, prm, left, ID_Q, 0.5f, 0.5f, 1000.0f);
  tb_shape_create(w, b, TB_SHAPE_SPHERE, prm, right, ID_Q, 0.5f, 0.5f, 1000.0f);
  float v[3] = {0, -3, 0};
  tb_body_set_velocity(w, b, v, ZERO);
  CHECK(tb_world_step(w) == TB_OK);
  CHECK(contact_count(w) == 2);
  float st[13];
  state(w, b, st);
  float vold = -(3.0f + G * h);
  CHECK_NEAR(-0.5f * vold, st[8], 0.01 * 0.5 * 3.0);
  CHECK_NEAR(0, st[12], 1e-3);
  tb_world_destroy(w);
}

/* XPBD velocity zeroing: a sphere rolling very slowly on the ground (g = 0.01, h = 0.01,
 * ω = 0.8, μ = 2). Friction pulls the anchors together: iteration 1 removes ω of the slip v0·h,
 * iteration 2 ω of the rest, so the velocity change is (0.8 + 0.16)/3.5 of v0 for a solid
 * sphere (w_t = 3.5/m). With the velocities following the corrections (Newton 1.6), a linear or
 * angular velocity whose norm falls below 1e-4 after a correction is zeroed: the slow sphere
 * stops, the fast one keeps (1 − 0.96/3.5)·v0. From the pose change (the deprecated option)
 * the zeroing leaves no trace: (1 − 0.96/3.5)·v0 for both. */
static float slow_roll(float v0, int from_positions) {
  float h = 0.01f;
  tb_world_id w = xpbd_one_round(h, -0.01f);
  tb_newton_params p = get_newton(w);
  p.velocity_from_positions = from_positions;
  set_newton(w, &p);
  ground(w, 2.0f, 0);
  tb_body_id s = sphere(w, 0, 0.5f, 0.5f, 1.0f, 2.0f, 0);
  float v[3] = {v0, 0, 0};
  tb_body_set_velocity(w, s, v, ZERO);
  tb_world_step(w);
  float st[13];
  state(w, s, st);
  tb_world_destroy(w);
  return st[7];
}

static void test_xpbd_velocity_zeroing(void) {
  float slow = 5e-5f, fast = 5e-4f, keep = 1.0f - 0.96f / 3.5f;
  CHECK_NEAR(0.0, slow_roll(slow, 0), 0);
  CHECK_NEAR(keep * fast, slow_roll(fast, 0), 0.005 * fast);
  CHECK_NEAR(keep * slow, slow_roll(slow, 1), 0.005 * slow);
  CHECK_NEAR(keep * fast, slow_roll(fast, 1), 0.005 * fast);
}

/* ---- penalty ---- */

static tb_world_id penalty_world(float h, float gy, float ke, float kd, float kf, float ka, int substeps) {
  tb_world_id w = make_world(TB_PRESET_NEWTON_SEMI, h, gy);
  tb_newton_params p = get_newton(w);
  p.ke = ke; p.kd = kd; p.kf = kf; p.ka = ka; p.substeps = substeps;
  set_newton(w, &p);
  return w;
}

static void test_penalty_resting_sphere(void) {
  tb_world_id w = penalty_world(1.0f / 60.0f, -G, 1e4f, 150.0f, 100.0f, 0, 8);
  ground(w, 0.5f, 0);
  tb_body_id s = sphere(w, 0, 0.1f, 0.1f, 3.0f, 0.5f, 0);
  for (int i = 0; i < 180; ++i) CHECK(tb_world_step(w) == TB_OK);
  float wr[6], mg = 3.0f * G;
  CHECK(body_wrench(w, s, wr) == TB_OK);
  CHECK_NEAR(mg, wr[1], 0.005 * mg);
  CHECK_NEAR(0, wr[0], 1e-3 * mg);
  /* resting penetration mg/ke */
  CHECK_NEAR(-mg / 1e4f, field(w, "separation")[0], 0.02 * mg / 1e4f);
  /* no per-contact force: NaN, never zeros, and flagged */
  CHECK(isnan(field(w, "normal_impulse")[0]) && isnan(field(w, "force")[1]) && isnan(field(w, "wrench")[1]));
  tb_readback_info info;
  tb_world_readback_info(w, &info);
  CHECK(info.per_contact_force == 0 && info.per_body_force == 1 && info.convention == TB_READBACK_NEWTON);
  /* the totals sum every contact of the body: no counterpart filter and no self-contact flag;
   * refused by name, out left as it was, the readback flags still filled */
  const tb_body_id withs[2] = {-1, TB_ANY_BODY};
  const int32_t flags[2] = {0, TB_OBSERVE_EXCLUDE_SELF};
  const char* names[2] = {"by counterpart (with)", "without self-contacts (TB_OBSERVE_EXCLUDE_SELF, JS excludeSelf)"};
  for (int k = 0; k < 2; ++k) {
    tb_wrench net;
    memset(&net, 0x7f, sizeof net);
    memset(&info, 0, sizeof info);
    CHECK(tb_body_contact_wrench(w, s, withs[k], flags[k], &net, &info) == TB_ERR_INVALID_STATE);
    CHECK(strstr(tb_last_error(w), "not available") != NULL && strstr(tb_last_error(w), names[k]) != NULL);
    CHECK(net.force[1] == net.force[0] && net.force[1] > 1e38f); /* untouched (0x7f7f7f7f) */
    CHECK(info.per_body_force == 1 && info.valid == 1);
  }
  tb_world_destroy(w);
}

/* One substep, gravity off: the sphere's contact force (per-body total) from one contact at a
 * given separation d and normal velocity v_n. */
static float penalty_force_y(float d, float vy, float ka, float ov_k, float ov_d, int set_override, float* fx,
                             float vx, float fscale) {
  tb_world_id w = penalty_world(1e-3f, 0, 2000.0f, 50.0f, 100.0f, ka, 1);
  set_speculative(w, 0, 0.02f); /* keeps the separated rows of the adhesion range */
  ground(w, 0.5f, 0);
  tb_body_id s = sphere(w, 0, 0.2f + d, 0.2f, 1.0f, 0.5f, 0);
  float v[3] = {vx, vy, 0};
  tb_body_set_velocity(w, s, v, ZERO);
  CHECK(tb_world_collide(w) == TB_OK);
  CHECK(contact_count(w) == 1);
  if (set_override) CHECK(tb_contact_set_override(w, 0, ov_k, ov_d, fscale) == TB_OK);
  CHECK(tb_world_solve(w) == TB_OK);
  float wr[6];
  CHECK(body_wrench(w, s, wr) == TB_OK);
  if (fx) *fx = wr[0];
  tb_world_destroy(w);
  return wr[1];
}

/* newton-semi at its defaults (ke = 2500 N/m): a body whose weight sinks it deeper than its
 * smallest half size even on a flat support with every row its shape gets there, m·|g|/(rows·ke),
 * falls through. The pile of `make test-long`: a 0.45 m sphere of density 500 (191 kg) rests
 * 191·9.81/2500 = 0.75 m deep on its one row; refused in its first step, before it touches, with
 * the body, the depth and the ke that would do (m·|g|/radius = 4165 N/m); the world unchanged.
 * Its box (0.4 × 0.35 × 0.3, 168 kg: 0.165 m on 4 rows < 0.3 m) and capsule (r 0.25, 92 kg:
 * 0.18 m on 2 rows < 0.25 m) sink less than their size and are accepted; so is the sphere at
 * that ke, and hung on a joint. */
static void test_penalty_weight_refusal(void) {
  const float r = 0.45f, m = 500.0f * 4.0f / 3.0f * 3.14159265f * r * r * r, need = m * G / r;
  for (int variant = 0; variant < 5; ++variant) {
    tb_world_def def = tb_default_world_def();
    tb_preset_apply(TB_PRESET_NEWTON_SEMI, &def);
    def.timestep = 1.0f / 60.0f;
    if (variant == 1) def.solver.newton.ke = 1.01f * need;
    if (variant == 2) def.solver.newton.ke = 0.99f * need;
    tb_world_id w = tb_world_create(&def);
    ground(w, 0.5f, 0);
    tb_body_id b;
    if (variant == 3) {
      float pos[3] = {0, 2, 0}, box[4] = {0.4f, 0.35f, 0.3f, 0}, cap[4] = {0.25f, 0.3f, 0, 0};
      b = tb_body_create(w, TB_BODY_DYNAMIC, pos, ID_Q);
      tb_shape_create(w, b, TB_SHAPE_BOX, box, ZERO, ID_Q, 0.6f, 0, 500.0f);
      pos[0] = 2;
      tb_body_id c = tb_body_create(w, TB_BODY_DYNAMIC, pos, ID_Q);
      tb_shape_create(w, c, TB_SHAPE_CAPSULE, cap, ZERO, ID_Q, 0.6f, 0, 500.0f);
    } else {
      b = sphere(w, 0, 2.0f, r, m, 0.6f, 0);
    }
    if (variant == 4) {
      /* a ball joint to the world 0.5 m above the centre carries the weight */
      const float pivot[3] = {0, 2.5f, 0}, above[3] = {0, 0.5f, 0};
      add_ball_joint(w, TB_WORLD_BODY, b, pivot, above);
    }
    float before[13], after[13];
    state(w, b, before);
    tb_status st = tb_world_step(w);
    state(w, b, after);
    if (variant == 0 || variant == 2) {
      CHECK(st == TB_ERR_INVALID_STATE);
      char want[64];
      snprintf(want, sizeof want, "too soft for body %d:", (int)b);
      const char* msg = tb_last_error(w);
      printf("  %s\n", msg);
      CHECK(strstr(msg, want) != NULL);
      CHECK(strstr(msg, "raise ke (solver.newton.ke, JS ke)") != NULL);
      /* the depth at the ke used and the ke that would do, as printed */
      float ke_used = variant == 0 ? 2500.0f : 0.99f * need, depth = 0, ke_need = 0;
      const char* dp = strstr(msg, "N/m) = ");
      const char* kp = strstr(msg, ">= ");
      CHECK(dp && sscanf(dp, "N/m) = %f m deep", &depth) == 1 && kp && sscanf(kp, ">= %f N/m", &ke_need) == 1);
      CHECK_NEAR(m * G / ke_used, depth, 0.002 * depth);
      CHECK_NEAR(need, ke_need, 0.001 * need);
      CHECK(memcmp(before, after, sizeof before) == 0);
    } else {
      CHECK(st == TB_OK);
      if (variant != 4) CHECK(after[1] < before[1]); /* stepped: it falls */
    }
    tb_world_destroy(w);
  }
}

/* newton-semi at its defaults (8 substeps, kf = 1000 N·s/m): the capsule of the bench pile
 * (bench/scenes.mjs: r 0.3 m, half-height 0.4 m, density 1, 0.339 kg), dropped from 2 m, gets a
 * friction slip mode hs·kf/m = (1/480)·1000/0.339 = 6.14 > 2 on the first row it lands on; it is
 * refused in its first step, before it lands (it was refused when it landed, at step 31 of the
 * pile, and went non-finite before that check), with the substeps that would do (25 at 1/60 s:
 * hs·kf/m = 1.97); taken at 25 substeps, and without gravity (it never lands). */
static void test_penalty_light_body_refused_first(void) {
  const float cap[4] = {0.3f, 0.4f, 0, 0};
  for (int variant = 0; variant < 3; ++variant) {
    tb_world_def def = tb_default_world_def();
    tb_preset_apply(TB_PRESET_NEWTON_SEMI, &def);
    def.timestep = 1.0f / 60.0f;
    if (variant == 1) def.solver.newton.substeps = 25;
    if (variant == 2) def.gravity[1] = 0;
    tb_world_id w = tb_world_create(&def);
    ground(w, 0.6f, 0);
    float pos[3] = {0, 2, 0};
    tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, pos, ID_Q);
    tb_shape_create(w, b, TB_SHAPE_CAPSULE, cap, ZERO, ID_Q, 0.6f, 0, 1.0f);
    float m = body_mass(w, b);
    CHECK_NEAR(3.14159265f * 0.09f * 0.8f + 4.0f / 3.0f * 3.14159265f * 0.027f, m, 1e-4f);
    tb_status st = tb_world_step(w);
    if (variant == 0) {
      CHECK(st == TB_ERR_INVALID_STATE);
      const char* msg = tb_last_error(w);
      float rate = 0;
      int need = 0;
      const char* rp = strstr(msg, "kg = ");
      const char* np = strstr(msg, "penaltySubsteps) to >= ");
      CHECK(strstr(msg, "friction unstable for body") != NULL && strstr(msg, "the one row it lands on") != NULL);
      CHECK(rp && sscanf(rp, "kg = %f", &rate) == 1 && np && sscanf(np, "penaltySubsteps) to >= %d", &need) == 1);
      CHECK_NEAR(1000.0f / 480.0f / m, rate, 0.01f);
      CHECK(need == 25);
    } else {
      CHECK(st == TB_OK);
      for (int i = 0; i < 60; ++i) CHECK(tb_world_step(w) == TB_OK);
    }
    tb_world_destroy(w);
  }
}

/* Each newton-semi refusal reaches the caller whole, down to its last words (the friction one was
 * once cut at 256 bytes before them), and says which check refused: an unstable normal spring
 * (a 1 kg box on 4 rows of ke 1.2345678e6 N/m at hs = 1/480 s), unstable friction (the light
 * capsule of test_penalty_light_body_refused_first, on the one row it lands on) and a spring too
 * soft for the weight (a 191 kg sphere of radius 0.45 m at ke 2500 N/m). */
static void test_penalty_refusals_whole(void) {
  const char* const what[3] = {"penalty normal spring unstable for body", "penalty friction unstable for body",
                               "penalty spring too soft for body"};
  const char* const last[3] = {"; step not taken", "; the step was not taken", "; step not taken"};
  for (int variant = 0; variant < 3; ++variant) {
    tb_world_id w = penalty_world(1.0f / 60.0f, -G, variant == 0 ? 1.2345678e6f : 2500.0f, 123.45678f,
                                  variant == 1 ? 1000.0f : 0.0f, 0, 8);
    ground(w, 0.6f, 0);
    if (variant == 0) {
      float pos[3] = {0, 0.0999f, 0}, box[4] = {0.1f, 0.1f, 0.1f, 0};
      tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, pos, ID_Q);
      tb_shape_create(w, b, TB_SHAPE_BOX, box, ZERO, ID_Q, 0.6f, 0, 125.0f);
    } else if (variant == 1) {
      float pos[3] = {0, 2, 0}, cap[4] = {0.3f, 0.4f, 0, 0};
      tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, pos, ID_Q);
      tb_shape_create(w, b, TB_SHAPE_CAPSULE, cap, ZERO, ID_Q, 0.6f, 0, 1.0f);
    } else {
      sphere(w, 0, 2.0f, 0.45f, 500.0f * 4.0f / 3.0f * 3.14159265f * 0.45f * 0.45f * 0.45f, 0.6f, 0);
    }
    CHECK(tb_world_step(w) == TB_ERR_INVALID_STATE);
    const char* msg = tb_last_error(w);
    size_t n = strlen(msg), k = strlen(last[variant]);
    CHECK(strstr(msg, what[variant]) != NULL);
    CHECK(n > k && strcmp(msg + n - k, last[variant]) == 0);
    if (n <= k || strcmp(msg + n - k, last[variant]) != 0) printf("  cut (%zu bytes): %s\n", n, msg);
    tb_world_destroy(w);
  }
}

static void test_penalty_normal_law(void) {
  /* force on the sphere (body1) = −a_n along +y = −(ke·d + kd·min(v_n, 0)) */
  CHECK_NEAR(-(2000.0f * -0.01f + 50.0f * -0.5f), penalty_force_y(-0.01f, -0.5f, 0, 0, 0, 0, NULL, 0, 0), 0.05);
  CHECK_NEAR(-(2000.0f * -0.01f), penalty_force_y(-0.01f, 0.5f, 0, 0, 0, 0, NULL, 0, 0), 0.05); /* separating: no damping */
  /* adhesion: 0 <= d < ka pulls with ke·d; d >= ka nothing */
  CHECK_NEAR(-2000.0f * 0.005f, penalty_force_y(0.005f, 0, 0.01f, 0, 0, 0, NULL, 0, 0), 0.05);
  CHECK_NEAR(0, penalty_force_y(0.005f, 0, 0.004f, 0, 0, 0, NULL, 0, 0), 0);
  CHECK_NEAR(0, penalty_force_y(0.005f, -0.5f, 0.0f, 0, 0, 0, NULL, 0, 0), 0);
}

static void test_penalty_huber_friction(void) {
  /* d = −0.01: a_n = −20 N, μ = 0.5: −μ·a_n = 10 N; kf = 100, δ = 1 */
  float fx;
  penalty_force_y(-0.01f, 0, 0, 0, 0, 0, &fx, 3.0f, 0); /* |v| > δ: s = 3 − 0.5 */
  CHECK_NEAR(-3.0f / 2.5f * 10.0f, fx, 0.05);
  penalty_force_y(-0.01f, 0, 0, 0, 0, 0, &fx, 0.5f, 0); /* s = 0.125: kf·s = 12.5 > 10 */
  CHECK_NEAR(-0.5f / 0.125f * 10.0f, fx, 0.1);
  penalty_force_y(-0.01f, 0, 0, 0, 0, 0, &fx, 0.05f, 0); /* kf·s < 10: viscous kf·v */
  CHECK_NEAR(-100.0f * 0.05f, fx, 0.01);
}

/* Penalty sliding at the combined μ: a settled box (μ 0.2) pushed at 5 m/s over the ground
 * (μ 0.6) slows by μ·g·v/(v − δ/2) per second (Huber above δ = 1 m/s) with μ = mean = 0.4. */
static float penalty_slide_dv(float mu_box, float mu_ground) {
  tb_world_id w = penalty_world(1.0f / 60.0f, -G, 2e4f, 300.0f, 100.0f, 0, 16);
  ground(w, mu_ground, 0);
  float half[4] = {0.2f, 0.1f, 0.2f, 0}, pos[3] = {0, 0.1f, 0};
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, pos, ID_Q);
  tb_shape_create(w, b, TB_SHAPE_BOX, half, ZERO, ID_Q, mu_box, 0, 500.0f);
  for (int i = 0; i < 60; ++i) tb_world_step(w);
  float v[3] = {5.0f, 0, 0};
  float st[13];
  state(w, b, st);
  v[1] = st[8];
  tb_body_set_velocity(w, b, v, ZERO);
  for (int i = 0; i < 6; ++i) tb_world_step(w);
  state(w, b, st);
  tb_world_destroy(w);
  return 5.0f - st[7];
}

static void test_penalty_sliding_mu(void) {
  float dv = penalty_slide_dv(0.2f, 0.6f);
  /* v falls from 5 to ~4.56: v/(v − 0.5) ≈ 1.116 on average over the 0.1 s */
  float expected = 0.4f * G * 1.116f * 0.1f;
  CHECK_NEAR(expected, dv, 0.03 * expected);
}

static void test_penalty_overrides(void) {
  float fx;
  /* positive stiffness / damping replace ke / kd; 0 = unset keeps the material's */
  CHECK_NEAR(-(5000.0f * -0.01f + 50.0f * -0.5f), penalty_force_y(-0.01f, -0.5f, 0, 5000.0f, 0, 1, NULL, 0, 0), 0.05);
  CHECK_NEAR(-(2000.0f * -0.01f + 80.0f * -0.5f), penalty_force_y(-0.01f, -0.5f, 0, 0, 80.0f, 1, NULL, 0, 0), 0.05);
  CHECK_NEAR(-(2000.0f * -0.01f + 50.0f * -0.5f), penalty_force_y(-0.01f, -0.5f, 0, 0, 0, 1, NULL, 0, 0), 0.05);
  /* friction scale multiplies μ: 0.5·2 = 1 */
  penalty_force_y(-0.01f, 0, 0, 0, 0, 1, &fx, 3.0f, 2.0f);
  CHECK_NEAR(-3.0f / 2.5f * 20.0f, fx, 0.05);
  /* bad values: named error, world unchanged */
  tb_world_id w = penalty_world(1e-3f, 0, 2000.0f, 50.0f, 100.0f, 0, 1);
  ground(w, 0.5f, 0);
  tb_body_id s = sphere(w, 0, 0.19f, 0.2f, 1.0f, 0.5f, 0);
  CHECK(tb_contact_set_override(w, 0, 1, 0, 0) == TB_ERR_INVALID_STATE); /* before collide() */
  tb_world_collide(w);
  CHECK(tb_contact_set_override(w, 0, -1.0f, 0, 0) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "stiffness") != NULL);
  CHECK(tb_contact_set_override(w, 0, 0, NAN, 0) == TB_ERR_INVALID_ARGUMENT);
  CHECK(tb_contact_set_override(w, 5, 0, 0, 0) == TB_ERR_NOT_FOUND);
  CHECK(tb_contact_set_override(w, 0, 5000.0f, 0, 0) == TB_OK);
  tb_world_solve(w);
  float wr[6];
  body_wrench(w, s, wr);
  CHECK_NEAR(50.0, wr[1], 0.05);
  CHECK_NEAR(5000.0, field(w, "override_stiffness")[0], 0); /* visible until the next collide() */
  /* the next step without a setter call: unset again */
  tb_world_step(w);
  CHECK_NEAR(0.0, field(w, "override_stiffness")[0], 0);
  tb_world_destroy(w);
}

static void test_params_validation(void) {
  tb_world_id w = make_world(TB_PRESET_NEWTON_XPBD, 0.01f, -G);
  tb_newton_params good = get_newton(w), p = good;
  CHECK(good.iterations == 2 && good.contact_weighting == 1 && good.restitution == 0);
  CHECK_NEAR(0.8, good.relaxation, 1e-7);
  tb_world_def def;
  tb_world_get_def(w, &def);
  p.relaxation = NAN;
  def.solver.newton = p;
  CHECK(tb_world_set_solver(w, &def.solver) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "relaxation") != NULL);
  p = good; p.iterations = 0; def.solver.newton = p;
  CHECK(tb_world_set_solver(w, &def.solver) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "iterations") != NULL);
  p = good; p.ke = -1; def.solver.newton = p;
  CHECK(tb_world_set_solver(w, &def.solver) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "ke") != NULL);
  CHECK(get_newton(w).iterations == 2); /* unchanged */
  float out[6];
  CHECK(body_wrench(w, 12345, out) == TB_ERR_NOT_FOUND);
  /* a body removed after a step and a new one in its slot: the new one reports zeros */
  ground(w, 0.5f, 0);
  tb_body_id s = sphere(w, 0, 0.1f, 0.1f, 1.0f, 0.5f, 0);
  for (int i = 0; i < 5; ++i) tb_world_step(w);
  CHECK(body_wrench(w, s, out) == TB_OK && out[1] > 1.0f);
  tb_body_destroy(w, s);
  tb_body_id s2 = sphere(w, 3, 5, 0.1f, 1.0f, 0.5f, 0);
  CHECK((s2 & 0xFFFFF) == (s & 0xFFFFF));
  CHECK(body_wrench(w, s, out) == TB_ERR_NOT_FOUND);
  CHECK(body_wrench(w, s2, out) == TB_OK);
  CHECK_NEAR(0, out[1], 0);
  tb_world_destroy(w);
}

/* ---- XPBD torsional and rolling friction, penalty creep (seed newton-e3 §3, §4, §6) ---- */

/* Sets a shape's Newton torsional and rolling friction (m) on top of its current material. */
static void set_spin_friction(tb_world_id w, tb_shape_id s, float torsional, float rolling) {
  tb_material m;
  CHECK(tb_shape_get_material(w, s, &m) == TB_OK);
  m.torsional_friction = torsional;
  m.rolling_friction = rolling;
  CHECK(tb_shape_set_material(w, s, &m) == TB_OK);
}

/* A ground plane and a solid sphere (radius r, mass m, μ 0.5) touching it; angular damping 0.
 * Shape ids in gs (ground) and ss (sphere). */
static tb_body_id spin_scene(tb_world_id w, float r, float m, tb_shape_id* gs, tb_shape_id* ss) {
  float plane[4] = {0, 1, 0, 0}, prm[4] = {r, 0, 0, 0}, p[3] = {0, r, 0};
  tb_body_id g = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  *gs = tb_shape_create(w, g, TB_SHAPE_PLANE, plane, ZERO, ID_Q, 0.5f, 0, 1.0f);
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, p, ID_Q);
  *ss = tb_shape_create(w, b, TB_SHAPE_SPHERE, prm, ZERO, ID_Q, 0.5f, 0, m / (4.0f / 3.0f * 3.14159265f * r * r * r));
  CHECK(tb_body_set_damping(w, b, 0, 0) == TB_OK);
  return b;
}

/* XPBD torsional friction (§4: "torsion limits the angular impulse about n by μ_torsion·p_n").
 * A 1 kg solid sphere (r = 0.1 m, I = 0.4·m·r² = 0.004 kg·m²) rests on the ground and spins
 * about the contact normal (+y) at ω0 = 20 rad/s. The kernel's torsional row wants I·ω (the
 * whole spin) per iteration, far above the limit, so every iteration applies exactly μ_t·p_n:
 * per step I·Δω = μ_t·Σp_n, with Σp_n = the step's normal impulse readback (one contact against
 * a static body: scale 1), which at rest is m·g·h. Shapes carry μ_t = 0.002 and 0.008 m; the
 * mean rule gives 0.005 m, so the spin-down rate is α = μ_t·m·g/I = 0.005·9.81/0.004
 * = 12.26 rad/s² (min 0.002 would give 4.9, max 0.008 19.6). The ground (body0) receives the
 * opposite torque: wrench torque y = +μ_t·p_n/h about its origin (the contact is on the axis).
 * With μ_t = 0 on both shapes the spin is kept (angular damping 0). */
static float spin_after(float tors_ground, float tors_sphere, int check_steps) {
  float h = 1.0f / 60.0f, r = 0.1f, w0 = 20.0f;
  tb_world_id w = make_world(TB_PRESET_NEWTON_XPBD, h, -G);
  tb_shape_id gs, ss;
  tb_body_id b = spin_scene(w, r, 1.0f, &gs, &ss);
  set_spin_friction(w, gs, tors_ground, 0.0001f);
  set_spin_friction(w, ss, tors_sphere, 0.0001f);
  for (int i = 0; i < 60; ++i) tb_world_step(w); /* settle: Σp_n reaches m·g·h */
  float spin[3] = {0, w0, 0};
  tb_body_set_velocity(w, b, ZERO, spin);
  float mass = body_mass(w, b), inertia = 0.4f * mass * r * r, mu_t = 0.5f * (tors_ground + tors_sphere);
  float st[13];
  for (int i = 0; i < 60; ++i) {
    state(w, b, st);
    float before = st[11];
    CHECK(tb_world_step(w) == TB_OK);
    state(w, b, st);
    if (!check_steps) continue;
    float pn = field(w, "normal_impulse")[0];
    /* per step: the torsional angular impulse is exactly μ_t·Σp_n (limit active every iteration) */
    CHECK_NEAR(mu_t * pn, inertia * (before - st[11]), 1e-3 * mu_t * pn);
    CHECK_NEAR(mu_t * pn / h, field(w, "wrench")[4], 1e-3 * mu_t * pn / h);
    CHECK_NEAR(mass * G * h, pn, 0.01 * mass * G * h); /* at rest: Σp_n = m·g·h */
  }
  CHECK_NEAR(0, st[10], 1e-6); /* no tilt of the spin axis */
  CHECK_NEAR(0, st[12], 1e-6);
  tb_world_destroy(w);
  return st[11];
}

static void test_xpbd_torsional_friction(void) {
  float alpha = 0.005f * G / (0.4f * 0.1f * 0.1f); /* rad/s², mean μ_t = 0.005 m */
  float after = spin_after(0.002f, 0.008f, 1);
  CHECK_NEAR(20.0f - alpha * 1.0f, after, 0.01 * alpha);
  CHECK_NEAR(20.0f, spin_after(0.0f, 0.0f, 0), 1e-4); /* no torsional friction: spin kept */
}

/* XPBD rolling friction (§4: rolling limits the tangential angular impulse by μ_rolling·p_n).
 * A 1 kg solid sphere (r = 0.1 m) rolls without slip along +x at v0 = 0.5 m/s (ω_z = −v0/r).
 * The rolling row is a pure angular impulse opposing the roll, limited to μ_r·p_n per
 * iteration, i.e. a resistive torque M = μ_r·m·g; sliding friction (μ 0.5) keeps v = ω·r.
 * About the contact point (normal and friction act there, gravity above it):
 * (I + m·r²)·dω/dt = −M, so a = M·r/(I + m·r²) = μ_r·g/(1.4·r). Shapes carry μ_r = 0.001 and
 * 0.003 m, mean 0.002 m: a = 0.002·9.81/0.14 = 0.1401 m/s² (over 1 s v0 drops by 0.14 m/s).
 * With μ_r = 0 on both shapes it keeps rolling: v stays v0. */
static void roll_after(float roll_ground, float roll_sphere, int steps_per_s, float* v_out, float* slip_out) {
  float h = 1.0f / (float)steps_per_s, r = 0.1f, v0 = 0.5f;
  tb_world_id w = xpbd_one_round(h, -G);
  tb_shape_id gs, ss;
  tb_body_id b = spin_scene(w, r, 1.0f, &gs, &ss);
  set_spin_friction(w, gs, 0.0f, roll_ground);
  set_spin_friction(w, ss, 0.0f, roll_sphere);
  for (int i = 0; i < steps_per_s; ++i) tb_world_step(w);
  float v[3] = {v0, 0, 0}, om[3] = {0, 0, -v0 / r};
  tb_body_set_velocity(w, b, v, om);
  float st[13];
  for (int i = 0; i < steps_per_s; ++i) CHECK(tb_world_step(w) == TB_OK);
  state(w, b, st);
  *v_out = st[7];
  *slip_out = st[7] + st[12] * r; /* contact-point velocity, m/s */
  tb_world_destroy(w);
}

static void test_xpbd_rolling_friction(void) {
  float v, slip, a = 0.002f * G / (1.4f * 0.1f); /* m/s² */
  roll_after(0.001f, 0.003f, 60, &v, &slip);
  CHECK_NEAR(0.5f - a, v, 0.02 * a);
  CHECK_NEAR(0, slip, 0.01 * v); /* still rolling: contact-point speed under 1% of v */
  /* μ_r = 0: no rolling resistance. The only loss left is the finite-rotation error of the
   * surface anchor (a material point of the sphere moves ~r·(ωh)³/6 along x in a step, which
   * the friction row pulls back): < 1e-3·v0 over 1 s, 500 times below the 0.14 m/s of μ_r,
   * and second order in h (per step ∝ h³): halving h quarters it. */
  roll_after(0.0f, 0.0f, 60, &v, &slip);
  CHECK_NEAR(0.5, v, 5e-4);
  CHECK_NEAR(0, slip, 2e-3);
  float loss60 = 0.5f - v;
  roll_after(0.0f, 0.0f, 120, &v, &slip);
  CHECK_NEAR(0.25 * loss60, 0.5f - v, 0.05 * loss60);
}

/* Penalty (newton-semi) box on an incline, 4 contacts: body speed along the slope after
 * `steps` steps (positive = down the slope), and the incline's n. */
static float penalty_incline_speed(float deg, float mu, float kf, float delta, int steps, float v0) {
  float th = deg * 3.14159265f / 180.0f;
  tb_world_id w = penalty_world(1.0f / 60.0f, -G, 2e4f, 400.0f, kf, 0, 16);
  tb_newton_params p = get_newton(w);
  p.friction_smoothing = delta;
  set_newton(w, &p);
  float q[4] = {0, 0, sinf(0.5f * th), cosf(0.5f * th)};
  float n[3] = {-sinf(th), cosf(th), 0};
  float plane[4] = {n[0], n[1], n[2], 0};
  tb_body_id g = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  tb_shape_create(w, g, TB_SHAPE_PLANE, plane, ZERO, ID_Q, mu, 0, 1.0f);
  float half[4] = {0.2f, 0.1f, 0.2f, 0};
  float pos[3] = {0.1f * n[0], 0.1f * n[1], 0};
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, pos, q);
  tb_shape_create(w, b, TB_SHAPE_BOX, half, ZERO, ID_Q, mu, 0, 500.0f);
  float st[13];
  if (v0 > 0.0f) {
    for (int i = 0; i < 60; ++i) tb_world_step(w); /* settle onto the plane first */
    float v[3] = {-v0 * cosf(th), -v0 * sinf(th), 0};
    tb_body_set_velocity(w, b, v, ZERO);
  }
  for (int i = 0; i < steps; ++i) CHECK(tb_world_step(w) == TB_OK);
  state(w, b, st);
  CHECK(contact_count(w) == 4);
  tb_world_destroy(w);
  return -(st[7] * cosf(th) + st[8] * sinf(th));
}

/* Penalty creep (§6): f_t = v_t/s·min(kf·s, −μ·a_n) with s = huber(v_t, δ). On a 20° incline
 * with μ = 0.5 > tan 20° = 0.364 the box still moves: at low slip speed kf·s is the smaller
 * term, and then f_t = kf·v_t whatever s is (the Huber norm cancels, for v below or above δ).
 * The four contacts slip at the same speed, so in steady state 4·kf·v = m·g·sinθ:
 * v = m·g·sinθ/(4·kf). Box 0.4 × 0.2 × 0.4 m at 500 kg/m³: m = 16 kg; kf = 100 N·s/m:
 * v = 16·9.81·0.342/400 = 0.134 m/s (kf = 200: half). Branch check: kf·s = kf·v²/2 = 0.9 N
 * per contact, far below μ·|a_n| ≈ 0.5·16·9.81·cos20°/4 = 18 N. ke = 2e4 N/m, kd = 400 N·s/m
 * (damping ratio ~0.7 of the normal mode), 16 substeps of 1/960 s; the tangential transient
 * decays with m/(4·kf) = 0.04 s, the normal one within ~0.1 s; measured after 3 s. */
static void test_penalty_incline_creep(void) {
  float th = 20.0f * 3.14159265f / 180.0f, m = 0.4f * 0.2f * 0.4f * 500.0f;
  float vc = m * G * sinf(th) / (4.0f * 100.0f);
  CHECK_NEAR(vc, penalty_incline_speed(20.0f, 0.5f, 100.0f, 1.0f, 180, 0), 0.01 * vc);       /* v < δ = 1 */
  CHECK_NEAR(0.5f * vc, penalty_incline_speed(20.0f, 0.5f, 200.0f, 1.0f, 180, 0), 0.005 * vc);
  CHECK_NEAR(vc, penalty_incline_speed(20.0f, 0.5f, 100.0f, 0.05f, 180, 0), 0.01 * vc);      /* v > δ = 0.05 */
}

/* Penalty sliding above tanθ = μ (30°: tanθ = 0.577 > μ = 0.3, it slides). Started
 * at 5 m/s down the slope, far above δ = 1 m/s, the cap branch holds at every contact:
 * |f_t| = μ·|a_n|·v/s with s = δ(v − δ/2), and Σ|a_n| = m·g·cosθ, so
 * dv/dt = g·sinθ − μ·g·cosθ·v/(v − 1/2), integrated here (RK4, 1 ms) over 0.5 s: v rises from
 * 5 to ~6.05 m/s. a = g(sinθ − μcosθ) (the Coulomb limit, v ≫ δ) would give 6.18 m/s. */
static void test_penalty_incline_slide(void) {
  float th = 30.0f * 3.14159265f / 180.0f, mu = 0.3f;
  double gs = G * sin(th), gc = mu * G * cos(th), v = 5.0, dt = 1e-3;
  for (int i = 0; i < 500; ++i) {
#define TB_SLIDE_A(x) (gs - gc * (x) / ((x) - 0.5))
    double k1 = TB_SLIDE_A(v), k2 = TB_SLIDE_A(v + 0.5 * dt * k1), k3 = TB_SLIDE_A(v + 0.5 * dt * k2), k4 = TB_SLIDE_A(v + dt * k3);
#undef TB_SLIDE_A
    v += dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4);
  }
  float got = penalty_incline_speed(30.0f, mu, 100.0f, 1.0f, 30, 5.0f);
  CHECK_NEAR(v - 5.0, got - 5.0f, 0.02 * (v - 5.0));
  float coulomb = 5.0f + 0.5f * G * (sinf(th) - mu * cosf(th));
  CHECK(fabsf(got - coulomb) > 0.05f * (coulomb - 5.0f));
}

/* Penalty rolling: a 1 kg solid sphere (r = 0.1 m) rolling without slip at 0.5 m/s on flat
 * ground. The penalty law has no rolling resistance, and the normal force acts at the point
 * below the sphere's centre (Newton: contact point moved by the thickness along n), not at a
 * material point that rotates away from the bottom, so it has no lever about the centre: the
 * speed is kept over 1 s and the sphere keeps rolling (kf·v_t ties the contact point). */
static void test_penalty_rolling_sphere(void) {
  float r = 0.1f, v0 = 0.5f;
  tb_world_id w = penalty_world(1.0f / 60.0f, -G, 2e4f, 200.0f, 100.0f, 0, 16);
  tb_shape_id gs, ss;
  tb_body_id b = spin_scene(w, r, 1.0f, &gs, &ss);
  (void)gs; (void)ss;
  for (int i = 0; i < 60; ++i) tb_world_step(w);
  float v[3] = {v0, 0, 0}, om[3] = {0, 0, -v0 / r}, st[13];
  tb_body_set_velocity(w, b, v, om);
  for (int i = 0; i < 60; ++i) CHECK(tb_world_step(w) == TB_OK);
  state(w, b, st);
  CHECK_NEAR(v0, st[7], 1e-3 * v0);
  CHECK_NEAR(0, st[7] + st[12] * r, 1e-3 * v0);
  tb_world_destroy(w);
}

/* Same scene, 1 and 4 threads: bitwise identical for both solvers (they run serially in a
 * fixed order). */
static void test_thread_independence(void) {
  if (tb_max_threads() < 2) return;
  for (int k = 0; k < 2; ++k) {
    float out[2][13];
    for (int t = 0; t < 2; ++t) {
      tb_world_def def = tb_default_world_def();
      tb_preset_apply(k == 0 ? TB_PRESET_NEWTON_XPBD : TB_PRESET_NEWTON_SEMI, &def);
      def.thread_count = t == 0 ? 1 : (tb_max_threads() < 4 ? tb_max_threads() : 4);
      tb_world_id w = tb_world_create(&def);
      ground(w, 0.5f, 0);
      tb_body_id last = -1;
      for (int i = 0; i < 20; ++i) last = sphere(w, 0.05f * (float)(i % 3), 0.3f + 0.25f * (float)i, 0.1f, 1.0f, 0.5f, 0);
      for (int s = 0; s < 60; ++s) tb_world_step(w);
      state(w, last, out[t]);
      tb_world_destroy(w);
    }
    CHECK(memcmp(out[0], out[1], sizeof out[0]) == 0);
  }
}

/* No allocation inside steady steps of either solver (scratch grows only when counts grow). */
#include <stdlib.h>
static long s_allocs = 0;
static void* count_alloc(size_t size, void* user) { (void)user; ++s_allocs; return malloc(size); }
static void count_free(void* p, size_t size, void* user) { (void)user; (void)size; free(p); }

static void test_no_steady_allocation(void) {
  tb_set_allocator(count_alloc, count_free, NULL);
  for (int k = 0; k < 2; ++k) {
    tb_world_id w = make_world(k == 0 ? TB_PRESET_NEWTON_XPBD : TB_PRESET_NEWTON_SEMI, 1.0f / 60.0f, -G);
    tb_newton_params p = get_newton(w);
    p.restitution = 1;
    p.substeps = 64; /* penalty friction of a 1 kg sphere with up to 6 contacts: h/64 · Σkf / m <= 2 */
    set_newton(w, &p);
    ground(w, 0.5f, 0.3f);
    for (int i = 0; i < 30; ++i) sphere(w, 0.3f * (float)(i % 5), 0.2f + 0.3f * (float)(i / 5), 0.1f, 1.0f, 0.5f, 0.3f);
    for (int s = 0; s < 120; ++s) CHECK(tb_world_step(w) == TB_OK);
    long before = s_allocs;
    for (int s = 0; s < 10; ++s) tb_world_step(w);
    CHECK_NEAR(0, s_allocs - before, 0);
    tb_world_destroy(w);
  }
  tb_set_allocator(NULL, NULL, NULL);
}


/* Worst floor depth (m) of the bottom cube of a column of L cubes (edge 0.8 m, 512 kg) stepped
 * 240 times at 1/60 s under newton-xpbd with `rounds` collide() + solve() rounds per step (0: the
 * preset's default). */
static float column_depth(int rounds, int* default_rounds) {
  enum { L = 10 };
  const float edge = 0.8f, he[4] = {edge / 2, edge / 2, edge / 2, 0};
  tb_world_id w = make_world(TB_PRESET_NEWTON_XPBD, 1.0f / 60.0f, -G);
  tb_newton_params p = get_newton(w);
  if (default_rounds) *default_rounds = p.xpbd_substeps;
  if (rounds > 0) p.xpbd_substeps = rounds;
  set_newton(w, &p);
  ground(w, 0.5f, 0);
  tb_body_id b0 = -1;
  for (int i = 0; i < L; ++i) {
    float pos[3] = {0, edge / 2 + (float)i * edge, 0};
    tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, pos, ID_Q);
    tb_shape_create(w, b, TB_SHAPE_BOX, he, ZERO, ID_Q, 0.5f, 0, 1000.0f);
    if (i == 0) b0 = b;
  }
  float worst = 0;
  for (int s = 0; s < 240; ++s) {
    CHECK(tb_world_step(w) == TB_OK);
    float st[13];
    state(w, b0, st);
    float depth = edge / 2 - st[1]; /* the bottom face below the floor; the cube stays upright */
    if (depth > worst) worst = depth;
  }
  tb_readback_info info;
  tb_world_readback_info(w, &info);
  CHECK(info.substeps == p.xpbd_substeps);
  tb_step_stats stats;
  tb_world_step_stats(w, &stats);
  CHECK(stats.substeps == p.xpbd_substeps);
  tb_world_destroy(w);
  return worst;
}

/* XPBD: a column of 10 heavy cubes at the defaults (Newton's sim_substeps = 10 rounds of h/10
 * per step). The stack is a spring of the solver's own: every round the prediction moves each
 * cube g·hs² down from rest and the corrections (ω per row and iteration, each body's divided by
 * its N active rows) return it, so the floor depth that carries the weight above is
 * proportional to hs² (long_run.c: L·g·hs²·N/(ω·iterations·rows) in order of magnitude). Ten
 * rounds must give at most 1/50 of the depth of one round per step (1/100 for a pure hs² law,
 * halved for the transient), and stay below 5 mm; one round per step (the solver's former
 * default) sank a 1000-body pile 0.8 m (tests/c/long_run.c). */
static void test_xpbd_heavy_column(void) {
  int rounds = 0;
  float one = column_depth(1, NULL), dflt = column_depth(0, &rounds);
  printf("  xpbd column of 10 cubes: worst floor depth %.5f m at %d rounds, %.5f m at 1 round\n", (double)dflt, rounds,
         (double)one);
  CHECK(rounds == 10);
  CHECK(dflt <= one / 50.0f);
  CHECK(dflt < 0.005f);
}

/* XPBD rounds: one resting sphere, the readback of a step of n rounds: Σ normal impulse / h =
 * m·g for n = 1, 3, 10 (the rounds' impulses summed through the matching, force = Σ / h). */
static void test_xpbd_rounds_readback(void) {
  const int ns[3] = {1, 3, 10};
  for (int k = 0; k < 3; ++k) {
    tb_world_id w = make_world(TB_PRESET_NEWTON_XPBD, 1.0f / 60.0f, -G);
    tb_newton_params p = get_newton(w);
    p.xpbd_substeps = ns[k];
    set_newton(w, &p);
    ground(w, 0.5f, 0);
    tb_body_id s = sphere(w, 0, 0.1f, 0.1f, 3.0f, 0.5f, 0);
    for (int i = 0; i < 120; ++i) CHECK(tb_world_step(w) == TB_OK);
    float mg = 3.0f * G;
    CHECK(contact_count(w) == 1);
    CHECK_NEAR(mg / 60.0f, field(w, "normal_impulse")[0], 0.005 * mg / 60.0f);
    CHECK_NEAR(mg, field(w, "force")[1], 0.005 * mg);
    float wr[6];
    CHECK(body_wrench(w, s, wr) == TB_OK);
    CHECK_NEAR(mg, wr[1], 0.005 * mg);
    tb_readback_info info;
    tb_world_readback_info(w, &info);
    CHECK(info.substeps == ns[k]);
    tb_world_destroy(w);
  }
}

/* Net contact wrench over a step (N, N·m) through netContactWrenches: the body's slot row. */
static void slot_wrench(tb_world_id w, tb_body_id body, float out[6]) {
  int32_t slots = tb_world_body_slot_count(w);
  float all[6 * 8];
  CHECK(slots <= 8 && tb_world_body_contact_wrenches(w, 0, all, slots, NULL) == TB_OK);
  memcpy(out, all + 6 * (body & TB_ID_INDEX_MASK), 6 * sizeof(float));
}

/* XPBD rounds: the per-body total includes contacts that ended before the last round. A 1 kg
 * frictionless sphere slides at 4 m/s off the edge of a static platform at 10 rounds per step;
 * its contact with the edge ends inside a step, and the contact list of that step no longer
 * holds it. Over every step the body's momentum change is gravity's impulse plus the contact
 * corrections (one contact: readback scale 1 = the applied weight, no restitution pass, no
 * damping, no velocity below 1e-4), so netContactWrench·h must equal m·Δv − m·g·h, per step,
 * within 1e-3 of m·g·h (float32 sums of ten rounds of two iterations: ~1e-6 relative). The same
 * holds with the platform as counterpart filter (with = platform, with = static) and in
 * netContactWrenches, and the platform reads the opposite force; a world restored from a snapshot
 * of that step reads the same. */
static void test_xpbd_rounds_ended_contact(void) {
  const float h = 1.0f / 60.0f, r = 0.1f;
  tb_world_id w = make_world(TB_PRESET_NEWTON_XPBD, h, -G);
  CHECK(get_newton(w).xpbd_substeps == 10);
  float ppos[3] = {0, -0.5f, 0}, phe[4] = {1, 0.5f, 1, 0};
  tb_body_id plat = tb_body_create(w, TB_BODY_STATIC, ppos, ID_Q);
  tb_shape_create(w, plat, TB_SHAPE_BOX, phe, ZERO, ID_Q, 0, 0, 1.0f);
  tb_body_id s = sphere(w, 0.6f, r, r, 1.0f, 0, 0);
  float v0[3] = {4, 0, 0};
  tb_body_set_velocity(w, s, v0, ZERO);
  float m = body_mass(w, s), mgh = m * G * h;
  int ended = 0, touched = 0;
  for (int step = 0; step < 30; ++step) {
    float a[13], b[13];
    state(w, s, a);
    CHECK(tb_world_step(w) == TB_OK);
    state(w, s, b);
    float j[3] = {m * (b[7] - a[7]), m * (b[8] - a[8]) + mgh, m * (b[9] - a[9])}; /* N·s by the contacts */
    float any[6], plat_w[6], stat[6], slots[6], pslot[6];
    tb_wrench wr;
    CHECK(body_wrench(w, s, any) == TB_OK);
    CHECK(tb_body_contact_wrench(w, s, plat, 0, &wr, NULL) == TB_OK);
    memcpy(plat_w, wr.force, sizeof wr.force);
    CHECK(tb_body_contact_wrench(w, s, -1, 0, &wr, NULL) == TB_OK);
    memcpy(stat, wr.force, sizeof wr.force);
    slot_wrench(w, s, slots);
    slot_wrench(w, plat, pslot);
    for (int i = 0; i < 3; ++i) {
      CHECK_NEAR(j[i], any[i] * h, 1e-3 * mgh);
      CHECK_NEAR(j[i], plat_w[i] * h, 1e-3 * mgh);
      CHECK_NEAR(j[i], stat[i] * h, 1e-3 * mgh);
      CHECK_NEAR(j[i], slots[i] * h, 1e-3 * mgh);
      CHECK_NEAR(-j[i], pslot[i] * h, 1e-3 * mgh);
    }
    if (fabsf(j[1]) > 1e-3f * mgh) ++touched;
    if (contact_count(w) == 0 && j[1] > 0.05f * mgh) {
      ++ended; /* a touch of this step, gone from the list */
      /* a world restored from a snapshot reads the same total */
      tb_world_id copy = tb_test_world_copy(w, 1);
      CHECK(copy >= 0);
      float restored[6];
      CHECK(body_wrench(copy, s, restored) == TB_OK);
      for (int i = 0; i < 6; ++i) CHECK(restored[i] == any[i]);
      tb_world_destroy(copy);
    }
  }
  printf("  xpbd rounds: %d steps with a contact impulse, %d of them with the contact ended in the step\n", touched, ended);
  CHECK(ended >= 1);
  CHECK(touched >= 3);
  tb_world_destroy(w);
}

int main(void) {
  test_xpbd_heavy_column();
  test_xpbd_rounds_readback();
  test_xpbd_rounds_ended_contact();
  test_free_tumble_energy();
  test_xpbd_mesh_ramp();
  test_no_steady_allocation();
  test_xpbd_resting_sphere();
  test_xpbd_resting_box();
  test_xpbd_incline();
  test_xpbd_single_correction();
  test_xpbd_gap_record();
  test_xpbd_weighting();
  test_xpbd_restitution_excluded();
  test_xpbd_restitution_body_pair();
  test_xpbd_velocity_zeroing();
  test_penalty_resting_sphere();
  test_penalty_weight_refusal();
  test_penalty_light_body_refused_first();
  test_penalty_refusals_whole();
  test_penalty_normal_law();
  test_penalty_huber_friction();
  test_penalty_sliding_mu();
  test_penalty_overrides();
  test_xpbd_torsional_friction();
  test_xpbd_rolling_friction();
  test_penalty_incline_creep();
  test_penalty_rolling_sphere();
  test_penalty_incline_slide();
  test_params_validation();
  test_thread_independence();
  return tb_test_report("test_newton");
}
