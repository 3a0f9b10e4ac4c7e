/* Native tests of materials: the PhysX combine tables (4×4 modes, static/dynamic clamps,
 * disable-friction, compliant contacts), the implicit spring of a compliant contact against the
 * 1-D implicit model, the Newton mean / VBD / Kamino rules, the MuJoCo rule (priority, solmix),
 * the per-contact readback of the combined parameters, and validation. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "include/tribo.h"
#include "api/api.h" /* tb_world_get: the material memo */
#include "model/material.h"
#include "test_util.h"

static const float ID_Q[4] = {0, 0, 0, 1};
static const float ZERO[3] = {0, 0, 0};

static tb_material mat(float mu, float e) {
  tb_material m;
  tb_material_default_into(mu, e, &m);
  return m;
}

static tb_contact_material physx(const tb_material* a, const tb_material* b) {
  tb_contact_material c;
  tb_combine_params p = {TB_COMBINE_AVERAGE, TB_COMBINE_MIN};
  tb_combine_material_pair(TB_COMBINE_RULE_PHYSX, &p, a, b, &c);
  return c;
}

/* Every pair of modes: the larger enum decides, for friction and restitution, both orders. */
static void test_physx_mode_table(void) {
  /* a = 0.2, b = 0.6 by hand: AVERAGE 0.4, MIN 0.2, MULTIPLY 0.12, MAX 0.6 */
  const float expect[4] = {0.4f, 0.2f, 0.12f, 0.6f};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      tb_material a = mat(0.2f, 0.2f), b = mat(0.6f, 0.6f);
      a.friction_combine = a.restitution_combine = i;
      b.friction_combine = b.restitution_combine = j;
      int winner = i > j ? i : j;
      tb_contact_material ab = physx(&a, &b), ba = physx(&b, &a);
      CHECK_NEAR(expect[winner], ab.dynamic_friction, 1e-6);
      CHECK_NEAR(expect[winner], ab.static_friction, 1e-6);
      CHECK_NEAR(expect[winner], ab.restitution, 1e-6);
      CHECK_NEAR(expect[winner], ba.dynamic_friction, 1e-6);
      CHECK_NEAR(expect[winner], ba.restitution, 1e-6);
      CHECK(ab.flags == 0);
    }
  /* friction and restitution modes are independent: MAX friction, MIN restitution */
  tb_material a = mat(0.2f, 0.2f), b = mat(0.8f, 0.8f);
  a.friction_combine = TB_COMBINE_MAX;
  b.restitution_combine = TB_COMBINE_MIN;
  tb_contact_material c = physx(&a, &b);
  CHECK_NEAR(0.8, c.dynamic_friction, 1e-6);
  CHECK_NEAR(0.2, c.restitution, 1e-6);
  /* worked example: MIN on one side, MULTIPLY on the other -> MULTIPLY, 0.2·0.8 = 0.16 */
  a = mat(0.2f, 0), b = mat(0.8f, 0);
  a.friction_combine = TB_COMBINE_MIN;
  b.friction_combine = TB_COMBINE_MULTIPLY;
  CHECK_NEAR(0.16, physx(&a, &b).dynamic_friction, 1e-6);
}

static void test_physx_static_dynamic(void) {
  /* combined separately: μs = (0.8 + 0.4)/2 = 0.6, μd = (0.6 + 0.2)/2 = 0.4 */
  tb_material a = mat(0, 0), b = mat(0, 0);
  a.static_friction = 0.8f; a.dynamic_friction = 0.6f;
  b.static_friction = 0.4f; b.dynamic_friction = 0.2f;
  tb_contact_material c = physx(&a, &b);
  CHECK_NEAR(0.6, c.static_friction, 1e-6);
  CHECK_NEAR(0.4, c.dynamic_friction, 1e-6);
  /* μs below μd is raised: μs = (0.1 + 0.1)/2 = 0.1 < μd = (0.5 + 0.7)/2 = 0.6 -> μs = 0.6 */
  a.static_friction = 0.1f; a.dynamic_friction = 0.5f;
  b.static_friction = 0.1f; b.dynamic_friction = 0.7f;
  c = physx(&a, &b);
  CHECK_NEAR(0.6, c.dynamic_friction, 1e-6);
  CHECK_NEAR(0.6, c.static_friction, 1e-6);
  /* under MIN: μs = min(0.9, 0.3) = 0.3, μd = min(0.5, 0.45) = 0.45 -> μs raised to 0.45 */
  a.static_friction = 0.9f; a.dynamic_friction = 0.5f; a.friction_combine = TB_COMBINE_MIN;
  b.static_friction = 0.3f; b.dynamic_friction = 0.45f;
  c = physx(&a, &b);
  CHECK_NEAR(0.45, c.dynamic_friction, 1e-6);
  CHECK_NEAR(0.45, c.static_friction, 1e-6);
  /* μd = max(·, 0): a negative combination (only reachable below the public validation) is 0 */
  a = mat(0, 0); b = mat(0, 0);
  a.dynamic_friction = -0.3f; b.dynamic_friction = 0.1f;
  c = physx(&a, &b);
  CHECK_NEAR(0.0, c.dynamic_friction, 0);
  CHECK_NEAR(0.0, c.static_friction, 0);
  /* coefficients above 1 are kept (no clamp to 1) */
  a = mat(1.5f, 0); b = mat(2.5f, 0);
  CHECK_NEAR(2.0, physx(&a, &b).static_friction, 1e-6);
}

static void test_physx_flags(void) {
  tb_material a = mat(1.0f, 0.3f), b = mat(0.9f, 0.3f);
  a.friction_combine = TB_COMBINE_MAX;
  b.flags = TB_MATERIAL_DISABLE_FRICTION;
  for (int order = 0; order < 2; ++order) {
    tb_contact_material c = order ? physx(&b, &a) : physx(&a, &b);
    CHECK_NEAR(0.0, c.static_friction, 0);
    CHECK_NEAR(0.0, c.dynamic_friction, 0);
    CHECK(c.flags & TB_CONTACT_MATERIAL_NO_FRICTION);
    CHECK(c.flags & TB_CONTACT_MATERIAL_NO_STRONG_FRICTION);
    CHECK_NEAR(0.3, c.restitution, 1e-6); /* restitution unaffected */
  }
  /* disable strong friction keeps the coefficients */
  b.flags = TB_MATERIAL_DISABLE_STRONG_FRICTION;
  tb_contact_material c = physx(&a, &b);
  CHECK_NEAR(1.0, c.dynamic_friction, 1e-6);
  CHECK(c.flags == TB_CONTACT_MATERIAL_NO_STRONG_FRICTION);
}

static void test_physx_compliant(void) {
  /* exactly one compliant (k = 1000 N/m, d = 5): restitution forced to MIN (keeps -1000) even when
   * the rigid side asks for MAX; damping = max(5, 20) although the rigid side's 20 has no effect
   * on a rigid pair */
  tb_material soft = mat(0.5f, 0), rigid = mat(0.5f, 0.5f);
  soft.compliant_stiffness = 1000.0f;
  soft.compliant_damping = 5.0f;
  rigid.restitution_combine = TB_COMBINE_MAX;
  rigid.damping_combine = TB_COMBINE_MIN;
  rigid.compliant_damping = 20.0f;
  for (int order = 0; order < 2; ++order) {
    tb_contact_material c = order ? physx(&rigid, &soft) : physx(&soft, &rigid);
    CHECK(c.flags & TB_CONTACT_MATERIAL_COMPLIANT);
    CHECK(!(c.flags & TB_CONTACT_MATERIAL_ACCELERATION_SPRING));
    CHECK_NEAR(1000.0, c.stiffness, 0);
    CHECK_NEAR(20.0, c.damping, 0);
    CHECK_NEAR(0.0, c.restitution, 0);
    CHECK(c.defined & TB_CONTACT_PARAM_SPRING);
    CHECK(!(c.defined & TB_CONTACT_PARAM_RESTITUTION));
  }
  /* both compliant force springs k0 = 1000, k1 = 4000, d0 = 2, d1 = 6, per mode (larger enum):
   * restitution r = -k: AVERAGE -2500; MIN min(-1000, -4000) = -4000; MAX -1000;
   * MULTIPLY (-1000)(-4000) = 4e6 negated -> -4e6. Damping by its own mode: 4, 2, 12, 6. */
  const float k_expect[4] = {2500.0f, 4000.0f, 4.0e6f, 1000.0f};
  const float d_expect[4] = {4.0f, 2.0f, 12.0f, 6.0f};
  for (int mode = 0; mode < 4; ++mode) {
    tb_material a = mat(0.5f, 0), b = mat(0.5f, 0);
    a.compliant_stiffness = 1000.0f; a.compliant_damping = 2.0f;
    b.compliant_stiffness = 4000.0f; b.compliant_damping = 6.0f;
    b.restitution_combine = mode;
    a.damping_combine = mode;
    tb_contact_material c = physx(&a, &b);
    CHECK(c.flags & TB_CONTACT_MATERIAL_COMPLIANT);
    CHECK_NEAR(k_expect[mode], c.stiffness, k_expect[mode] * 1e-6);
    CHECK_NEAR(d_expect[mode], c.damping, 1e-5);
  }
  /* both compliant, one force spring and one acceleration spring: the acceleration side's
   * stiffness and damping win whatever the modes */
  tb_material f = mat(0.5f, 0), acc = mat(0.5f, 0);
  f.compliant_stiffness = 1000.0f; f.compliant_damping = 3.0f; f.restitution_combine = TB_COMBINE_MAX;
  acc.compliant_stiffness = 50.0f; acc.compliant_damping = 7.0f;
  acc.flags = TB_MATERIAL_COMPLIANT_ACCELERATION_SPRING;
  for (int order = 0; order < 2; ++order) {
    tb_contact_material c = order ? physx(&acc, &f) : physx(&f, &acc);
    CHECK(c.flags & TB_CONTACT_MATERIAL_COMPLIANT);
    CHECK(c.flags & TB_CONTACT_MATERIAL_ACCELERATION_SPRING);
    CHECK_NEAR(50.0, c.stiffness, 0);
    CHECK_NEAR(7.0, c.damping, 0);
  }
  /* both acceleration springs: the ordinary modes apply (AVERAGE: k = 75, d = 5) */
  f.flags = TB_MATERIAL_COMPLIANT_ACCELERATION_SPRING;
  f.restitution_combine = TB_COMBINE_AVERAGE;
  f.compliant_stiffness = 100.0f;
  tb_contact_material c = physx(&f, &acc);
  CHECK_NEAR(75.0, c.stiffness, 1e-4);
  CHECK_NEAR(5.0, c.damping, 1e-6);
  CHECK(c.flags & TB_CONTACT_MATERIAL_ACCELERATION_SPRING);
  /* rigid pair: no spring, restitution combined, stiffness/damping not defined */
  tb_material r0 = mat(0.5f, 0.2f), r1 = mat(0.5f, 0.6f);
  c = physx(&r0, &r1);
  CHECK(!(c.flags & TB_CONTACT_MATERIAL_COMPLIANT));
  CHECK(!(c.defined & TB_CONTACT_PARAM_SPRING));
  CHECK_NEAR(0.4, c.restitution, 1e-6);
}

/* The implicit spring against the 1-D implicit model of PhysX's compliant contact, with numbers. */
static void test_compliant_coefficients(void) {
  /* force spring: k = 1000 N/m, d = 10 N·s/m, h = 0.01 s, w = 0.5 1/kg, g = -0.01 m, v = -1 m/s.
   * a = h(d + hk) = 0.01·(10 + 10) = 0.2; p = -(hkg + a·v)/(1 + a·w) = (0.1 + 0.2)/1.1 */
  float k = 1000.0f, d = 10.0f, h = 0.01f, w = 0.5f, g = -0.01f, v = -1.0f;
  tb_compliant_row r = tb_compliant_coefficients(k, d, 0, h, w, g, v);
  CHECK_NEAR(0.2, r.a, 1e-7);
  CHECK_NEAR(1.0 - 1.0 / 1.1, r.impulse_multiplier, 1e-6);
  float p = tb_compliant_update(&r, 0.0f, v);
  CHECK_NEAR(0.3 / 1.1, p, 1e-6);
  /* p satisfies the implicit step: v⁺ = v + w·p, g⁺ = g + h·v⁺, p = h·(-k·g⁺ - d·v⁺) */
  double vp = v + w * p, gp = g + h * vp;
  CHECK_NEAR(h * (-k * gp - d * vp), p, 1e-6);
  /* fixed point: iterating with the velocity that already contains w·p keeps p */
  CHECK_NEAR(p, tb_compliant_update(&r, p, (float)vp), 1e-6);
  /* and the iteration converges to it from p = 0 with the velocity updated each time */
  float q = 0.0f;
  for (int it = 0; it < 60; ++it) q = tb_compliant_update(&r, q, v + w * q);
  CHECK_NEAR(p, q, 1e-5);

  /* acceleration spring: k = 100 1/s², d = 5 1/s, h = 0.01, g = -0.02, v = -0.5:
   * a = 0.01·(5 + 1) = 0.06; Δv = (-hkg - a·v)/(1 + a) = (0.02 + 0.03)/1.06; p = Δv / w */
  float ka = 100.0f, da = 5.0f, ga = -0.02f, va = -0.5f;
  double dv = 0.05 / 1.06;
  for (int i = 0; i < 2; ++i) {
    float wi = i ? 0.5f : 0.125f; /* 2 kg and 8 kg: the velocity change is mass independent */
    tb_compliant_row ra = tb_compliant_coefficients(ka, da, 1, h, wi, ga, va);
    float pa = tb_compliant_update(&ra, 0.0f, va);
    CHECK_NEAR(dv / wi, pa, 1e-5);
    CHECK_NEAR(dv, pa * wi, 1e-6);
    double v2 = va + dv, g2 = ga + h * v2;
    CHECK_NEAR(h * (-ka * g2 - da * v2), dv, 1e-6);
  }

  /* separated (g = +0.01) and not closing this step (v = -0.5: g + h·v = 0.005 >= 0): no damper,
   * a = h²k = 0.1; the spring alone would pull (p < 0), clamped to 0 */
  tb_compliant_row rs = tb_compliant_coefficients(k, d, 0, h, w, 0.01f, -0.5f);
  CHECK_NEAR(0.1, rs.a, 1e-7);
  CHECK_NEAR(0.0, tb_compliant_update(&rs, 0.0f, -0.5f), 0);
  /* separated but closing within the step (v = -2: g + h·v = -0.01): damper on, a = 0.2,
   * p = -(hkg + a·v)/(1 + a·w) = -(0.1 - 0.4)/1.1 */
  tb_compliant_row rc = tb_compliant_coefficients(k, d, 0, h, w, 0.01f, -2.0f);
  CHECK_NEAR(0.2, rc.a, 1e-7);
  CHECK_NEAR(0.3 / 1.1, tb_compliant_update(&rc, 0.0f, -2.0f), 1e-6);
  /* penetrating but opening fast (g = -0.01, v = +2: g + h·v = +0.01): still in contact, damper on */
  tb_compliant_row ro = tb_compliant_coefficients(k, d, 0, h, w, -0.01f, 2.0f);
  CHECK_NEAR(0.2, ro.a, 1e-7);
  /* no response (both bodies static): zero row */
  tb_compliant_row rz = tb_compliant_coefficients(k, d, 0, h, 0.0f, g, v);
  CHECK_NEAR(0.0, tb_compliant_update(&rz, 0.0f, v), 0);
}

static void test_newton_rules(void) {
  tb_material a = mat(0.2f, 0.1f), b = mat(0.8f, 0.5f);
  a.torsional_friction = 0.01f; a.rolling_friction = 0.002f;
  a.ke = 1000; a.kd = 50; a.kf = 200; a.ka = 0.01f;
  b.torsional_friction = 0.03f; b.rolling_friction = 0.004f;
  b.ke = 3000; b.kd = 150; b.kf = 600; b.ka = 0.03f;
  /* PhysX-only settings must not leak into the Newton rules */
  a.friction_combine = TB_COMBINE_MAX;
  a.compliant_stiffness = 77.0f;
  tb_combine_params kp = {TB_COMBINE_AVERAGE, TB_COMBINE_MIN};
  tb_contact_material c;
  tb_combine_material_pair(TB_COMBINE_RULE_MEAN, &kp, &a, &b, &c);
  CHECK_NEAR(0.5, c.dynamic_friction, 1e-6);
  CHECK_NEAR(0.5, c.static_friction, 1e-6);
  CHECK_NEAR(0.3, c.restitution, 1e-6);
  CHECK_NEAR(0.02, c.torsional_friction, 1e-7);
  CHECK_NEAR(0.003, c.rolling_friction, 1e-8);
  CHECK_NEAR(2000.0, c.ke, 1e-3);
  CHECK_NEAR(100.0, c.kd, 1e-4);
  CHECK_NEAR(400.0, c.kf, 1e-4);
  CHECK_NEAR(0.02, c.ka, 1e-7);
  CHECK(c.flags == 0);
  /* VBD: ke, kd means, μ = sqrt(0.2·0.8) = 0.4; no restitution */
  tb_combine_material_pair(TB_COMBINE_RULE_VBD, &kp, &a, &b, &c);
  CHECK_NEAR(0.4, c.dynamic_friction, 1e-6);
  CHECK_NEAR(2000.0, c.ke, 1e-3);
  CHECK_NEAR(100.0, c.kd, 1e-4);
  CHECK(!(c.defined & TB_CONTACT_PARAM_RESTITUTION));
  CHECK(!(c.defined & TB_CONTACT_PARAM_SPIN));
  /* worked example: μ 0.25 and 1.0 -> mean 0.625, VBD 0.5 */
  tb_material e = mat(0.25f, 0), f = mat(1.0f, 0);
  tb_combine_material_pair(TB_COMBINE_RULE_MEAN, &kp, &e, &f, &c);
  CHECK_NEAR(0.625, c.dynamic_friction, 1e-6);
  tb_combine_material_pair(TB_COMBINE_RULE_VBD, &kp, &e, &f, &c);
  CHECK_NEAR(0.5, c.dynamic_friction, 1e-6);
  /* Kamino: defaults friction average 0.5, restitution min 0.1; configured MULTIPLY / MAX */
  tb_combine_material_pair(TB_COMBINE_RULE_KAMINO, &kp, &a, &b, &c);
  CHECK_NEAR(0.5, c.dynamic_friction, 1e-6);
  CHECK_NEAR(0.1, c.restitution, 1e-6);
  CHECK(!(c.defined & TB_CONTACT_PARAM_SPRING));
  tb_combine_params kq = {TB_COMBINE_MULTIPLY, TB_COMBINE_MAX};
  tb_combine_material_pair(TB_COMBINE_RULE_KAMINO, &kq, &a, &b, &c);
  CHECK_NEAR(0.16, c.dynamic_friction, 1e-6);
  CHECK_NEAR(0.5, c.restitution, 1e-6);
}

static tb_contact_material mujoco(const tb_material* a, const tb_material* b) {
  tb_contact_material c;
  tb_combine_params p = {TB_COMBINE_AVERAGE, TB_COMBINE_MIN};
  tb_combine_material_pair(TB_COMBINE_RULE_MUJOCO, &p, a, b, &c);
  return c;
}

static void test_mujoco_rule(void) {
  /* worked example: equal priority, friction (0.2, 0.01, 0.003) and (0.8, 0.004, 0.006), solmix
   * 0 and 1 -> friction elementwise max (0.8, 0.01, 0.006) whatever solmix; solimp all from the
   * second side (weight 1) */
  tb_material a = mat(0.2f, 0), b = mat(0.8f, 0);
  a.torsional_friction = 0.01f; a.rolling_friction = 0.003f; a.solmix = 0.0f;
  b.torsional_friction = 0.004f; b.rolling_friction = 0.006f; b.solmix = 1.0f;
  const float ia[5] = {0.8f, 0.9f, 0.002f, 0.4f, 3.0f}, ib[5] = {0.7f, 0.99f, 0.01f, 0.6f, 1.5f};
  memcpy(a.solimp, ia, sizeof ia);
  memcpy(b.solimp, ib, sizeof ib);
  tb_contact_material c = mujoco(&a, &b);
  CHECK_NEAR(0.8, c.dynamic_friction, 1e-7);
  CHECK_NEAR(0.8, c.static_friction, 1e-7);
  CHECK_NEAR(0.01, c.torsional_friction, 1e-9);
  CHECK_NEAR(0.006, c.rolling_friction, 1e-9);
  for (int i = 0; i < 5; ++i) CHECK_NEAR(ib[i], c.solimp[i], 1e-7);
  CHECK(c.condim == 3);
  /* worked example: direct solref (-100, -2) and (-50, -8) -> elementwise min (-100, -8) */
  a.solref[0] = -100; a.solref[1] = -2;
  b.solref[0] = -50; b.solref[1] = -8;
  c = mujoco(&a, &b);
  CHECK_NEAR(-100.0, c.solref[0], 0);
  CHECK_NEAR(-8.0, c.solref[1], 0);
  /* standard solref both positive, solmix 1 and 3: w = 1/4 -> 0.25·(0.02, 1) + 0.75·(0.06, 0.5) */
  a.solmix = 1.0f; b.solmix = 3.0f;
  a.solref[0] = 0.02f; a.solref[1] = 1.0f;
  b.solref[0] = 0.06f; b.solref[1] = 0.5f;
  c = mujoco(&a, &b);
  CHECK_NEAR(0.05, c.solref[0], 1e-7);
  CHECK_NEAR(0.625, c.solref[1], 1e-7);
  for (int i = 0; i < 5; ++i) CHECK_NEAR(0.25 * ia[i] + 0.75 * ib[i], c.solimp[i], 1e-6);
  /* both solmix below 1e-15: halves */
  a.solmix = 0.0f; b.solmix = 1e-20f;
  c = mujoco(&a, &b);
  CHECK_NEAR(0.04, c.solref[0], 1e-7);
  /* mixed formats (standard and direct): elementwise min, components from different sides */
  b.solref[0] = -100; b.solref[1] = 2.0f;
  c = mujoco(&a, &b);
  CHECK_NEAR(-100.0, c.solref[0], 0);
  CHECK_NEAR(1.0, c.solref[1], 0);
  /* condim max, adhesion summed at equal priority */
  a.condim = 6; b.condim = 4; a.adhesion = 2.0f; b.adhesion = 3.0f;
  c = mujoco(&a, &b);
  CHECK(c.condim == 6);
  CHECK_NEAR(5.0, c.adhesion, 0);
  /* different priority: every parameter from the higher side, even a lower friction or condim */
  b.priority = 2;
  c = mujoco(&a, &b);
  CHECK(c.condim == 4);
  CHECK_NEAR(0.8, c.dynamic_friction, 1e-7);
  CHECK_NEAR(0.004, c.torsional_friction, 1e-9);
  CHECK_NEAR(3.0, c.adhesion, 0);
  CHECK_NEAR(-100.0, c.solref[0], 0);
  for (int i = 0; i < 5; ++i) CHECK_NEAR(ib[i], c.solimp[i], 1e-7);
  a.priority = 5;
  c = mujoco(&a, &b);
  CHECK(c.condim == 6);
  CHECK_NEAR(0.2, c.dynamic_friction, 1e-7);
  CHECK_NEAR(2.0, c.adhesion, 0);
  /* friction below the minimum is raised to 1e-5 */
  tb_material z0 = mat(0.0f, 0), z1 = mat(0.0f, 0);
  z0.rolling_friction = z1.rolling_friction = 0.0f;
  c = mujoco(&z0, &z1);
  CHECK_NEAR(1e-5, c.dynamic_friction, 1e-12);
  CHECK_NEAR(1e-5, c.rolling_friction, 1e-12);
  CHECK(c.defined & TB_CONTACT_PARAM_MUJOCO);
  CHECK(!(c.defined & TB_CONTACT_PARAM_RESTITUTION));
}

/* ---- world level: per-contact readback and validation ---- */

static int field_index(const char* name) {
  for (int i = 0; i < tb_field_count(TB_FIELDS_CONTACT); ++i)
    if (strcmp(tb_field_get(TB_FIELDS_CONTACT, i)->name, name) == 0) return i;
  return -1;
}

/* The combine rule (and the Kamino modes when given) through the one setter, tb_world_set_solver. */
static tb_status set_combine_rule(tb_world_id w, tb_combine_rule rule, const tb_combine_params* kamino) {
  tb_world_def d;
  tb_world_get_def(w, &d);
  d.solver.combine_rule = rule;
  if (kamino) d.solver.combine = *kamino;
  return tb_world_set_solver(w, &d.solver);
}

static float contact_value(tb_world_id w, const char* name, int component) {
  int i = field_index(name);
  CHECK(i >= 0);
  if (i < 0) return -12345.0f;
  return ((const float*)tb_world_field(w, TB_FIELDS_CONTACT, i))[component];
}

/* Ice (0.05, MIN) on a rubber ground (0.9, AVERAGE): the world's rule decides the contact's μ. */
static void test_world_readback(void) {
  tb_world_def def = tb_default_world_def();
  tb_world_id w = tb_world_create(&def);
  float plane[4] = {0, 1, 0, 0}, sphere[4] = {0.5f, 0, 0, 0}, pos[3] = {0, 0.49f, 0};
  tb_body_id g = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  tb_shape_id rubber = tb_shape_create(w, g, TB_SHAPE_PLANE, plane, ZERO, ID_Q, 0.9f, 0.4f, 1.0f);
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, pos, ID_Q);
  tb_shape_id ice = tb_shape_create(w, b, TB_SHAPE_SPHERE, sphere, ZERO, ID_Q, 0.5f, 0.0f, 1000.0f);
  tb_shape_id ids[2] = {-1, -1};
  CHECK(tb_body_get_shapes(w, b, NULL, 0) == 1);
  CHECK(tb_body_get_shapes(w, b, ids, 2) == 1);
  CHECK(ids[0] == ice);
  tb_material m;
  CHECK(tb_shape_get_material(w, ice, &m) == TB_OK);
  CHECK_NEAR(0.5, m.static_friction, 0);
  CHECK_NEAR(0.5, m.dynamic_friction, 0);
  m.static_friction = m.dynamic_friction = 0.05f;
  m.friction_combine = TB_COMBINE_MIN;
  m.restitution = 0.8f;
  CHECK(tb_shape_set_material(w, ice, &m) == TB_OK);

  CHECK(tb_world_collide(w) == TB_OK);
  tb_contact_status st;
  tb_world_contact_status(w, &st);
  CHECK(st.count == 1);
  CHECK_NEAR(0.05, contact_value(w, "static_friction", 0), 1e-7);
  CHECK_NEAR(0.05, contact_value(w, "dynamic_friction", 0), 1e-7);
  CHECK_NEAR(0.6, contact_value(w, "restitution", 0), 1e-6); /* restitution AVERAGE (0.4 + 0.8)/2 */
  CHECK(isnan(contact_value(w, "stiffness", 0)));           /* rigid PhysX contact: no spring */
  CHECK(isnan(contact_value(w, "damping", 0)));
  CHECK(isnan(contact_value(w, "spin_friction", 0)));
  CHECK(isnan(contact_value(w, "penalty_friction", 1)));

  /* compliant ground: k = 2e4 N/m, d = 30 N·s/m */
  tb_material r;
  tb_shape_get_material(w, rubber, &r);
  r.compliant_stiffness = 2.0e4f;
  r.compliant_damping = 30.0f;
  CHECK(tb_shape_set_material(w, rubber, &r) == TB_OK);
  CHECK(tb_world_collide(w) == TB_OK);
  CHECK_NEAR(2.0e4, contact_value(w, "stiffness", 0), 0);
  CHECK_NEAR(30.0, contact_value(w, "damping", 0), 0);
  CHECK(isnan(contact_value(w, "restitution", 0)));
  CHECK(((const uint32_t*)tb_world_field(w, TB_FIELDS_CONTACT, field_index("material_flags")))[0] == 4u);
  r.compliant_stiffness = 0.0f;
  tb_shape_set_material(w, rubber, &r);

  /* mean rule: (0.05 + 0.9)/2 = 0.475, torsional (0.005 + 0.005)/2, ke = 2500 */
  CHECK(set_combine_rule(w, TB_COMBINE_RULE_MEAN, NULL) == TB_OK);
  CHECK(tb_world_collide(w) == TB_OK);
  CHECK_NEAR(0.475, contact_value(w, "dynamic_friction", 0), 1e-6);
  CHECK_NEAR(0.005, contact_value(w, "spin_friction", 0), 1e-8);
  CHECK_NEAR(2500.0, contact_value(w, "stiffness", 0), 0);
  CHECK_NEAR(1000.0, contact_value(w, "penalty_friction", 0), 0);
  /* VBD: sqrt(0.05·0.9) */
  CHECK(set_combine_rule(w, TB_COMBINE_RULE_VBD, NULL) == TB_OK);
  CHECK(tb_world_collide(w) == TB_OK);
  CHECK_NEAR(sqrt(0.05 * 0.9), contact_value(w, "dynamic_friction", 0), 1e-6);
  CHECK(isnan(contact_value(w, "restitution", 0)));
  /* Kamino with restitution MAX: 0.8 */
  tb_combine_params kp = {TB_COMBINE_AVERAGE, TB_COMBINE_MAX};
  CHECK(set_combine_rule(w, TB_COMBINE_RULE_KAMINO, &kp) == TB_OK);
  tb_world_def def_now;
  CHECK(tb_world_get_def(w, &def_now) == TB_OK);
  CHECK(def_now.solver.combine_rule == TB_COMBINE_RULE_KAMINO && def_now.solver.combine.kamino_friction == TB_COMBINE_AVERAGE &&
        def_now.solver.combine.kamino_restitution == TB_COMBINE_MAX);
  CHECK(tb_world_collide(w) == TB_OK);
  CHECK_NEAR(0.8, contact_value(w, "restitution", 0), 1e-6);
  CHECK_NEAR(0.475, contact_value(w, "dynamic_friction", 0), 1e-6);
  /* MuJoCo: equal priority, condim max(3, 3), friction max(0.05, 0.9); under the others NaN / 0 */
  CHECK(set_combine_rule(w, TB_COMBINE_RULE_MUJOCO, NULL) == TB_OK);
  m.solref[0] = 0.04f;
  m.solmix = 3.0f;
  m.adhesion = 1.5f;
  CHECK(tb_shape_set_material(w, ice, &m) == TB_OK);
  CHECK(tb_world_collide(w) == TB_OK);
  CHECK_NEAR(0.9, contact_value(w, "dynamic_friction", 0), 1e-6);
  CHECK(((const int32_t*)tb_world_field(w, TB_FIELDS_CONTACT, field_index("condim")))[0] == 3);
  /* shape0 is the plane (lower type): w = 1/(1 + 3) on the plane's 0.02, 3/4 on the ball's 0.04 */
  CHECK_NEAR(0.035, contact_value(w, "solref", 0), 1e-7);
  CHECK_NEAR(0.9, contact_value(w, "solimp", 0), 1e-7);
  CHECK_NEAR(1.5, contact_value(w, "adhesion", 0), 0);
  CHECK(isnan(contact_value(w, "restitution", 0)));
  CHECK(set_combine_rule(w, TB_COMBINE_RULE_PHYSX, NULL) == TB_OK);
  CHECK(tb_world_collide(w) == TB_OK);
  CHECK(isnan(contact_value(w, "solref", 1)));
  CHECK(isnan(contact_value(w, "solimp", 4)));
  CHECK(isnan(contact_value(w, "adhesion", 0)));
  CHECK(((const int32_t*)tb_world_field(w, TB_FIELDS_CONTACT, field_index("condim")))[0] == 0);
  CHECK(tb_world_step(w) == TB_OK);
  tb_world_destroy(w);
}

static void test_validation(void) {
  tb_world_def def = tb_default_world_def();
  tb_world_id w = tb_world_create(&def);
  float sphere[4] = {0.5f, 0, 0, 0};
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, ZERO, ID_Q);
  tb_shape_id s = tb_shape_create(w, b, TB_SHAPE_SPHERE, sphere, ZERO, ID_Q, 0.3f, 0.1f, 1000.0f);
  tb_material good;
  CHECK(tb_shape_get_material(w, s, &good) == TB_OK);
  struct { int field; float v; const char* msg; } cases[] = {
      {0, -0.1f, "setMaterial: static_friction must be finite and >= 0 (got -0.1)"},
      {1, NAN, "setMaterial: dynamic_friction must be finite and >= 0 (got nan)"},
      {2, 1.5f, "setMaterial: restitution must be in [0, 1] (got 1.5)"},
      {3, -5.0f, "setMaterial: compliant_stiffness must be finite and >= 0 (got -5)"},
      {4, INFINITY, "setMaterial: compliant_damping must be finite and >= 0 (got inf)"},
      {5, -1.0f, "setMaterial: torsional_friction must be finite and >= 0 (got -1)"},
      {6, -1.0f, "setMaterial: rolling_friction must be finite and >= 0 (got -1)"},
      {7, -1.0f, "setMaterial: ke must be finite and >= 0 (got -1)"},
      {8, -1.0f, "setMaterial: kd must be finite and >= 0 (got -1)"},
      {9, -1.0f, "setMaterial: kf must be finite and >= 0 (got -1)"},
      {10, -1.0f, "setMaterial: ka must be finite and >= 0 (got -1)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    tb_material m = good;
    float* f[] = {&m.static_friction, &m.dynamic_friction, &m.restitution, &m.compliant_stiffness,
                  &m.compliant_damping, &m.torsional_friction, &m.rolling_friction, &m.ke, &m.kd, &m.kf, &m.ka};
    *f[cases[i].field] = cases[i].v;
    CHECK(tb_shape_set_material(w, s, &m) == TB_ERR_INVALID_ARGUMENT);
    CHECK(strcmp(tb_last_error(w), cases[i].msg) == 0);
    if (strcmp(tb_last_error(w), cases[i].msg) != 0) fprintf(stderr, "  message: %s\n", tb_last_error(w));
  }
  tb_material m = good;
  m.restitution_combine = 4;
  CHECK(tb_shape_set_material(w, s, &m) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "restitution_combine must be 0 (average), 1 (min), 2 (multiply) or 3 (max) (got 4)") != NULL);
  m = good;
  m.friction_combine = -1;
  CHECK(tb_shape_set_material(w, s, &m) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "friction_combine") != NULL);
  m = good;
  m.flags = 16;
  CHECK(tb_shape_set_material(w, s, &m) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "flags has unknown bits 0x10") != NULL);
  m = good;
  m.condim = 2;
  CHECK(tb_shape_set_material(w, s, &m) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "setMaterial: condim must be 1, 3, 4 or 6 (got 2)") != NULL);
  m = good;
  m.solimp[1] = 1.0f;
  CHECK(tb_shape_set_material(w, s, &m) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "setMaterial: solimp[1] must be in (0, 1) (got 1)") != NULL);
  m = good;
  m.solimp[4] = 0.5f;
  CHECK(tb_shape_set_material(w, s, &m) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "setMaterial: solimp[4] must be finite and >= 1 (got 0.5)") != NULL);
  m = good;
  m.solref[1] = NAN;
  CHECK(tb_shape_set_material(w, s, &m) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "setMaterial: solref[1] must be finite (got nan)") != NULL);
  m = good;
  m.solmix = -1.0f;
  CHECK(tb_shape_set_material(w, s, &m) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "setMaterial: solmix must be finite and >= 0 (got -1)") != NULL);
  /* the shape kept its material after every failure */
  tb_material now;
  CHECK(tb_shape_get_material(w, s, &now) == TB_OK);
  CHECK(memcmp(&now, &good, sizeof now) == 0);
  /* unknown ids */
  CHECK(tb_shape_set_material(w, s + 7, &good) == TB_ERR_NOT_FOUND);
  CHECK(strstr(tb_last_error(w), "setMaterial: shape") != NULL);
  CHECK(tb_shape_get_material(w, -3, &now) == TB_ERR_NOT_FOUND);
  CHECK(tb_shape_set_material(99, s, &good) == TB_ERR_NOT_FOUND);
  tb_body_id b2 = tb_body_create(w, TB_BODY_DYNAMIC, ZERO, ID_Q);
  tb_shape_id s2 = tb_shape_create(w, b2, TB_SHAPE_SPHERE, sphere, ZERO, ID_Q, 0.3f, 0.1f, 1000.0f);
  tb_shape_id s3 = tb_shape_create(w, b2, TB_SHAPE_SPHERE, sphere, ZERO, ID_Q, 0.3f, 0.1f, 1000.0f);
  tb_shape_destroy(w, s2);
  CHECK(tb_shape_set_material(w, s2, &good) == TB_ERR_NOT_FOUND); /* removed */
  /* shapes of a body: count, capacity */
  tb_shape_id out[1];
  CHECK(tb_body_get_shapes(w, b2, out, 1) == 1 && out[0] == s3);
  tb_shape_create(w, b2, TB_SHAPE_SPHERE, sphere, ZERO, ID_Q, 0.3f, 0.1f, 1000.0f);
  CHECK(tb_body_get_shapes(w, b2, out, 1) == -TB_ERR_CAPACITY);
  CHECK(strstr(tb_last_error(w), "has 2 shapes, more than capacity 1") != NULL);
  CHECK(tb_body_get_shapes(w, b2 + 5, NULL, 0) == -TB_ERR_NOT_FOUND);
  /* combine rule and Kamino modes */
  CHECK(set_combine_rule(w, (tb_combine_rule)7, NULL) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "solver.combine_rule must be in [0, 5) (got 7)") != NULL);
  tb_combine_params bad = {TB_COMBINE_AVERAGE, 9};
  CHECK(set_combine_rule(w, TB_COMBINE_RULE_KAMINO, &bad) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "solver.combine.kamino_restitution must be in [0, 4) (got 9)") != NULL);
  tb_world_def d;
  tb_world_get_def(w, &d);
  CHECK(d.solver.combine_rule == TB_COMBINE_RULE_PHYSX); /* unchanged */
  CHECK(d.solver.combine.kamino_restitution == TB_COMBINE_MIN);
  d.solver.combine.kamino_friction = -2;
  CHECK(tb_world_set_solver(w, &d.solver) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "solver.combine.kamino_friction must be in [0, 4) (got -2)") != NULL);
  CHECK(tb_world_step(w) == TB_OK); /* still usable */
  tb_world_destroy(w);
}

/* A MuJoCo explicit pair's own friction replaces the geoms' combination under the MuJoCo rule;
 * without the pair (or under another rule) the combination stands. */
static void test_mujoco_pair_friction(void) {
  tb_world_def def = tb_default_world_def();
  def.solver.combine_rule = TB_COMBINE_RULE_MUJOCO;
  def.collision.filter_rule = TB_FILTER_MUJOCO;
  tb_world_id w = tb_world_create(&def);
  float plane[4] = {0, 1, 0, 0}, sphere[4] = {0.5f, 0, 0, 0}, pos[3] = {0, 0.49f, 0};
  tb_body_id g = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  tb_shape_id ground = tb_shape_create(w, g, TB_SHAPE_PLANE, plane, ZERO, ID_Q, 0.3f, 0.0f, 1.0f);
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, pos, ID_Q);
  tb_shape_id ball = tb_shape_create(w, b, TB_SHAPE_SPHERE, sphere, ZERO, ID_Q, 0.6f, 0.0f, 1000.0f);
  CHECK(tb_world_collide(w) == TB_OK);
  CHECK_NEAR(0.6, contact_value(w, "dynamic_friction", 0), 1e-7); /* geoms: elementwise max */
  tb_contact_pair_params cp;
  tb_contact_pair_default_into(&cp);
  const float pf[5] = {0.15f, 0.15f, 0.002f, 0.0003f, 0.0003f};
  memcpy(cp.friction, pf, sizeof pf);
  CHECK(tb_world_set_contact_pair(w, ground, ball, &cp) == TB_OK);
  CHECK(tb_world_collide(w) == TB_OK);
  CHECK_NEAR(0.15, contact_value(w, "dynamic_friction", 0), 1e-7);
  CHECK_NEAR(0.002, contact_value(w, "spin_friction", 0), 1e-9);
  CHECK_NEAR(0.0003, contact_value(w, "spin_friction", 1), 1e-9);
  tb_solver_params sp = def.solver;
  sp.combine_rule = TB_COMBINE_RULE_MEAN;
  CHECK(tb_world_set_solver(w, &sp) == TB_OK);
  CHECK(tb_world_collide(w) == TB_OK);
  CHECK_NEAR(0.45, contact_value(w, "dynamic_friction", 0), 1e-6); /* mean rule: the pair's friction is MuJoCo's */
  tb_world_destroy(w);
}

/* Every contact's friction, restitution and stiffness against its two shapes' materials combined
 * directly (bitwise); returns the contacts checked. */
static int check_contacts_combined(tb_world_id w) {
  tb_contact_status st;
  tb_world_contact_status(w, &st);
  const int32_t* s0 = (const int32_t*)tb_world_field(w, TB_FIELDS_CONTACT, field_index("shape0"));
  const int32_t* s1 = (const int32_t*)tb_world_field(w, TB_FIELDS_CONTACT, field_index("shape1"));
  tb_world_def d;
  tb_world_get_def(w, &d);
  for (int32_t k = 0; k < st.count; ++k) {
    tb_material m0, m1;
    CHECK(tb_shape_get_material(w, s0[k], &m0) == TB_OK && tb_shape_get_material(w, s1[k], &m1) == TB_OK);
    tb_contact_material c;
    tb_combine_material_pair(d.solver.combine_rule, &d.solver.combine, &m0, &m1, &c);
    float ke = c.ke == 0.0f ? d.solver.newton.ke : c.ke; /* the penalty fallback of the mean rule */
    CHECK(contact_value(w, "dynamic_friction", k) == c.dynamic_friction);
    if (d.solver.combine_rule == TB_COMBINE_RULE_PHYSX) CHECK(contact_value(w, "restitution", k) == c.restitution);
    if (d.solver.combine_rule == TB_COMBINE_RULE_MEAN) CHECK(contact_value(w, "stiffness", k) == ke);
  }
  return st.count;
}

/* The material memo (combined materials of the distinct shape materials, tabulated before the
 * narrow stage) gives each contact what combining its two shapes' materials gives: off past
 * TB_MATERIAL_MEMO_MAX distinct materials, on below it, rebuilt after a material is set, a shape
 * created or destroyed, the combine rule or the Newton penalty fallback changed. */
static void test_material_memo(void) {
  tb_world_def def = tb_default_world_def();
  tb_world_id w = tb_world_create(&def);
  const tb_world* wd = tb_world_get(w);
  float plane[4] = {0, 1, 0, 0}, sphere[4] = {0.2f, 0, 0, 0};
  tb_body_id g = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  tb_shape_create(w, g, TB_SHAPE_PLANE, plane, ZERO, ID_Q, 0.9f, 0.1f, 1.0f);
  enum { N = TB_MATERIAL_MEMO_MAX + 4 };
  tb_shape_id ball[N];
  tb_body_id body[N];
  for (int i = 0; i < N; ++i) {
    float pos[3] = {0.5f * (float)i, 0.195f, 0};
    tb_body_id b = body[i] = tb_body_create(w, TB_BODY_DYNAMIC, pos, ID_Q);
    ball[i] = tb_shape_create(w, b, TB_SHAPE_SPHERE, sphere, ZERO, ID_Q, 0.02f * (float)(i + 1), 0.01f * (float)i, 1000.0f);
  }
  /* N + 1 distinct materials: off, each contact combines its own */
  CHECK(tb_world_collide(w) == TB_OK);
  CHECK(wd->material_memo.count == 0);
  CHECK(check_contacts_combined(w) == N);
  CHECK_NEAR(0.5 * (0.9 + 0.02 * 3), contact_value(w, "dynamic_friction", 2), 1e-6);
  /* three sphere materials and the plane's: on */
  for (int i = 0; i < N; ++i) {
    tb_material m = mat(0.1f * (float)(1 + i % 3), 0.0f);
    CHECK(tb_shape_set_material(w, ball[i], &m) == TB_OK);
  }
  CHECK(tb_world_collide(w) == TB_OK);
  CHECK(wd->material_memo.count == 4);
  CHECK(check_contacts_combined(w) == N);
  CHECK_NEAR(0.5 * (0.9 + 0.3), contact_value(w, "dynamic_friction", 2), 1e-6);
  /* a snapshot between collide and solve: the copy solves with the same materials, bit for bit
   * (the balls slide, so friction decides their velocities) */
  const float slide[3] = {2.0f, 0.0f, 0.0f};
  for (int i = 0; i < N; ++i) CHECK(tb_body_set_velocity(w, body[i], slide, ZERO) == TB_OK);
  CHECK(tb_world_collide(w) == TB_OK);
  CHECK(wd->material_memo.count == 4);
  tb_world_id copy = tb_test_world_copy(w, 0);
  CHECK(copy >= 0);
  CHECK(wd->material_memo.count == 0); /* the snapshot released it into the pairs saved */
  tb_contact_status cs;
  tb_world_contact_status(copy, &cs);
  CHECK(cs.count == N);
  for (int k = 0; k < N; ++k) CHECK(contact_value(copy, "dynamic_friction", k) == contact_value(w, "dynamic_friction", k));
  CHECK(tb_world_solve(w) == TB_OK && tb_world_solve(copy) == TB_OK);
  for (int i = 0; i < N; ++i) {
    float sa[13], sb[13];
    CHECK(tb_body_get_state(w, body[i], sa) == TB_OK && tb_body_get_state(copy, body[i], sb) == TB_OK);
    CHECK(memcmp(sa, sb, sizeof sa) == 0);
    /* sliding: Coulomb friction takes μ·g·h off the speed in one step, μ = (0.9 + μ_ball) / 2 */
    double mu = 0.5 * (0.9 + 0.1 * (1 + i % 3));
    CHECK_NEAR(2.0 - mu * 9.81 / 60.0, sa[7], 1e-3);
  }
  tb_world_destroy(copy);
  /* a material set after a collide: the collide's contacts keep what they were found with */
  CHECK(tb_world_collide(w) == TB_OK);
  CHECK(wd->material_memo.count == 4);
  tb_material slick = mat(0.001f, 0.0f);
  CHECK(tb_shape_set_material(w, ball[4], &slick) == TB_OK);
  CHECK_NEAR(0.5 * (0.9 + 0.2), contact_value(w, "dynamic_friction", 4), 1e-6); /* ball 4: 0.1 · (1 + 4 % 3) */
  CHECK(tb_world_collide(w) == TB_OK);
  CHECK_NEAR(0.5 * (0.9 + 0.001), contact_value(w, "dynamic_friction", 4), 1e-6);
  tb_material back = mat(0.2f, 0.0f);
  CHECK(tb_shape_set_material(w, ball[4], &back) == TB_OK);
  CHECK(tb_world_collide(w) == TB_OK);
  CHECK(wd->material_memo.count == 4);
  /* one material set between collides */
  tb_material ice = mat(0.01f, 0.5f);
  CHECK(tb_shape_set_material(w, ball[2], &ice) == TB_OK);
  CHECK(tb_world_collide(w) == TB_OK);
  CHECK(wd->material_memo.count == 5);
  CHECK(check_contacts_combined(w) == N);
  CHECK_NEAR(0.5 * (0.9 + 0.01), contact_value(w, "dynamic_friction", 2), 1e-6);
  /* the rule and the Newton fallback stiffness changed */
  tb_solver_params sp = def.solver;
  sp.combine_rule = TB_COMBINE_RULE_MEAN;
  sp.newton.ke = 1234.0f;
  CHECK(tb_world_set_solver(w, &sp) == TB_OK);
  CHECK(tb_world_collide(w) == TB_OK);
  CHECK(wd->material_memo.count == 5);
  CHECK(check_contacts_combined(w) == N);
  CHECK_NEAR(1234.0, contact_value(w, "stiffness", 0), 0);
  sp.newton.ke = 4321.0f;
  CHECK(tb_world_set_solver(w, &sp) == TB_OK);
  CHECK(tb_world_collide(w) == TB_OK);
  CHECK_NEAR(4321.0, contact_value(w, "stiffness", 0), 0);
  /* a shape created after a collide with a material of its own: the next collide tabulates it */
  float far[3] = {-1.0f, 0.195f, 0};
  tb_shape_id extra = tb_shape_create(w, tb_body_create(w, TB_BODY_DYNAMIC, far, ID_Q), TB_SHAPE_SPHERE, sphere, ZERO,
                                      ID_Q, 0.55f, 0.0f, 1000.0f);
  CHECK(tb_world_collide(w) == TB_OK);
  CHECK(wd->material_memo.count == 6);
  CHECK(check_contacts_combined(w) == N + 1);
  CHECK(tb_shape_destroy(w, extra) == TB_OK);
  /* a shape destroyed (its slot's key cleared) and one created with a new material */
  CHECK(tb_shape_destroy(w, ball[2]) == TB_OK);
  CHECK(wd->shapes.material_key[tb_id_slot(ball[2])] == -1);
  float pos[3] = {1.0f, 0.195f, 0};
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, pos, ID_Q);
  tb_shape_id fresh = tb_shape_create(w, b, TB_SHAPE_SPHERE, sphere, ZERO, ID_Q, 0.77f, 0.0f, 1000.0f);
  CHECK(tb_world_collide(w) == TB_OK);
  CHECK(wd->material_memo.count == 5); /* ice went with its shape; 0.77 came */
  CHECK(check_contacts_combined(w) == N);
  tb_material fm;
  CHECK(tb_shape_get_material(w, fresh, &fm) == TB_OK);
  int32_t fk = wd->shapes.material_key[tb_id_slot(fresh)];
  CHECK(fk >= 0 && fk < 5 && memcmp(&wd->material_memo.distinct[fk], &fm, sizeof fm) == 0);
  CHECK(tb_world_step(w) == TB_OK);
  tb_world_destroy(w);
}

/* tb_combine_rule_params is what every rule can define (the store fill skips the other parameter
 * groups): each rule on rigid and compliant materials defines a subset, and the union is the set. */
static void test_rule_params(void) {
  tb_material rigid = mat(0.5f, 0.3f), soft = mat(0.4f, 0.0f);
  soft.compliant_stiffness = 1000.0f;
  soft.compliant_damping = 5.0f;
  tb_combine_params p = {TB_COMBINE_AVERAGE, TB_COMBINE_MIN};
  for (int rule = 0; rule < TB_COMBINE_RULE_COUNT; ++rule) {
    int32_t all = tb_combine_rule_params(rule), seen = 0;
    const tb_material* m[2] = {&rigid, &soft};
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) {
        tb_contact_material c;
        tb_combine_material_pair(rule, &p, m[i], m[j], &c);
        CHECK((c.defined & ~all) == 0);
        seen |= c.defined;
      }
    CHECK(seen == all);
  }
}

int main(void) {
  test_rule_params();
  test_mujoco_pair_friction();
  test_physx_mode_table();
  test_physx_static_dynamic();
  test_physx_flags();
  test_physx_compliant();
  test_compliant_coefficients();
  test_newton_rules();
  test_mujoco_rule();
  test_world_readback();
  test_material_memo();
  test_validation();
  return tb_test_report("test_material");
}
