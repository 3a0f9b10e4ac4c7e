/* Seed conformance of the presets: Newton margins in the XPBD and penalty solvers (newton-e3 §2),
 * PhysX acceleration springs (physx-e3 §2.3, §3.2), Newton speculative widening off by default
 * (newton-e3 §2), MuJoCo explicit pair parameters (mujoco §4-5), support-field ties (genesis
 * "support field"), world points of static shapes (newton-e3 §2), the TGS compliant rest depth,
 * the penalty friction regimes and their stability check, XPBD creep below tanθ = μ, and the
 * solver status `converged` flag. */
#include <stdlib.h>
#include <string.h>

#include "geometry/hull.h"
#include "geometry/support_field.h"
#include "include/tribo.h"
#include "model/material.h"
#include "api/api.h" /* tb_world_get: the world as a reader sees it */
#include "world/world.h"
#include "compliant_model.h"
#include "test_util.h"

static const float ID_Q[4] = {0, 0, 0, 1};
static const float ZERO[3] = {0, 0, 0};
static const float G = 9.81f;
static const float H = 1.0f / 60.0f;

static tb_world_id make_world(tb_preset preset) {
  tb_world_def def = tb_default_world_def();
  tb_preset_apply(preset, &def);
  def.timestep = H;
  tb_world_id w = tb_world_create(&def);
  CHECK(w >= 0);
  return w;
}

static tb_shape_id ground(tb_world_id w, float mu) {
  float plane[4] = {0, 1, 0, 0};
  tb_body_id g = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  return tb_shape_create(w, g, TB_SHAPE_PLANE, plane, ZERO, ID_Q, mu, 0.0f, 1.0f);
}

static tb_shape_id box(tb_world_id w, float y, float half, float mass, float mu, tb_body_id* out) {
  float p[3] = {0, y, 0}, prm[4] = {half, half, half, 0};
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, p, ID_Q);
  tb_shape_id s = tb_shape_create(w, b, TB_SHAPE_BOX, prm, ZERO, ID_Q, mu, 0.0f, mass / (8 * half * half * half));
  if (out) *out = b;
  return s;
}

static float body_y(tb_world_id w, tb_body_id b) {
  float x[13];
  CHECK(tb_body_get_state(w, b, x) == TB_OK);
  return x[1];
}

/* ---- 1. Newton margins act in the XPBD and penalty solvers ---- */

/* Surface separation (m) of a 1 kg box (half size 0.1 m) with margin `margin` on its shape, after
 * 120 steps on a plane, starting at rest with a surface gap of `margin`. */
static float newton_rest_gap(tb_preset preset, float margin) {
  tb_world_id w = make_world(preset);
  tb_world_def def;
  tb_world_get_def(w, &def);
  def.solver.newton.substeps = 64; /* penalty: hs·4kf/m = 1.04 <= 2 (stable friction) for 1 kg */
  CHECK(tb_world_set_solver(w, &def.solver) == TB_OK);
  ground(w, 0.5f);
  tb_body_id b;
  tb_shape_id s = box(w, 0.1f + margin, 0.1f, 1.0f, 0.5f, &b);
  CHECK(tb_shape_set_distances(w, s, margin, 0.0f, 0.0f, 0.0f) == TB_OK);
  for (int i = 0; i < 120; ++i) CHECK(tb_world_step(w) == TB_OK);
  float gap = body_y(w, b) - 0.1f;
  tb_world_destroy(w);
  return gap;
}

static void test_newton_margin(void) {
  const tb_preset presets[2] = {TB_PRESET_NEWTON_XPBD, TB_PRESET_NEWTON_SEMI};
  for (int i = 0; i < 2; ++i) {
    float s0 = newton_rest_gap(presets[i], 0.0f), s1 = newton_rest_gap(presets[i], 0.02f);
    printf("newton %s: rest gap %.6f m without margin, %.6f m with margin 0.02 m\n", i ? "semi" : "xpbd", s0, s1);
    /* the solver sees only d = s − (m0 + m1): the run with the margin is the run without it
     * shifted by the margin, up to float rounding of positions near 0.1 m (ulp 7.5e-9 m, a few
     * hundred operations per step over 120 steps: well below 1e-5 m) */
    CHECK_NEAR(s0 + 0.02f, s1, 1e-5);
    /* and the rest penetration without margin is the solver's small steady sink: less than
     * g·h² · 2 = 5.5 mm (XPBD) or m·g/(4·ke) ≈ 1 mm (penalty) */
    CHECK(s0 < 0.0f && s0 > -2.0f * G * H * H);
  }
}

/* ---- 2 and 7. PhysX compliant springs: force springs sink m·g/k, acceleration springs g/k ---- */

/* Separation (m) of a sphere of `mass` (r = 0.25 m) on a plane after 600 steps, the sphere's
 * material compliant with stiffness k and damping d (acceleration spring when accel). */
static float compliant_rest(tb_preset preset, float mass, float k, float d, int accel, int ext_every) {
  tb_world_id w = make_world(preset);
  tb_world_def def;
  tb_world_get_def(w, &def);
  def.solver.external_forces_every_iteration = ext_every;
  def.solver.sleep.mode = TB_SLEEP_OFF; /* the exact rest separation: asleep it would stop short of it */
  CHECK(tb_world_set_solver(w, &def.solver) == TB_OK);
  ground(w, 0.5f);
  const float r = 0.25f;
  float p[3] = {0, r, 0}, prm[4] = {r, 0, 0, 0};
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, p, ID_Q);
  tb_shape_id s = tb_shape_create(w, b, TB_SHAPE_SPHERE, prm, ZERO, ID_Q, 0.5f, 0.0f, 1000.0f);
  float in = 0.4f * mass * r * r, inertia[3] = {in, in, in};
  CHECK(tb_body_set_mass(w, b, mass, ZERO, inertia) == TB_OK);
  tb_material m;
  tb_material_default_into(0.5f, 0.0f, &m);
  m.compliant_stiffness = k;
  m.compliant_damping = d;
  m.flags = accel ? TB_MATERIAL_COMPLIANT_ACCELERATION_SPRING : 0;
  CHECK(tb_shape_set_material(w, s, &m) == TB_OK);
  for (int i = 0; i < 600; ++i) CHECK(tb_world_step(w) == TB_OK);
  float sep = body_y(w, b) - r;
  tb_world_destroy(w);
  return sep;
}

static void test_compliant_springs(void) {
  const tb_preset presets[2] = {TB_PRESET_PHYSX_PGS, TB_PRESET_PHYSX_TGS};
  const float masses[2] = {1.0f, 4.0f};
  for (int i = 0; i < 2; ++i) {
    int tgs = presets[i] == TB_PRESET_PHYSX_TGS;
    for (int j = 0; j < 2; ++j) {
      float m = masses[j];
      /* acceleration spring: k = 1000 1/s², d = 20 1/s: every mass sinks g/k = 9.81 mm */
      float sa = compliant_rest(presets[i], m, 1000.0f, 20.0f, 1, 0);
      /* force spring: k = 1000 N/m, d = 20·m N·s/m: m·g/k */
      float sf = compliant_rest(presets[i], m, 1000.0f, 20.0f * m, 0, 0);
      /* TGS with gravity once per step: the 1-D model of the internal steps (compliant_model.h)
       * rests shallower than the static deflection; PGS reaches it exactly */
      double ea = tgs ? tb_test_tgs_spring_rest(G, H, 4, 1000.0, 20.0, m, 1) : -G / 1000.0;
      double ef = tgs ? tb_test_tgs_spring_rest(G, H, 4, 1000.0, 20.0 * m, m, 0) : -m * G / 1000.0;
      printf("%s m = %.0f kg: acceleration spring %.6f m (model %.6f), force spring %.6f m (model %.6f)\n",
             tgs ? "tgs" : "pgs", m, sa, ea, sf, ef);
      /* float rounding of a 0.25 m height (ulp 3e-8 m) over the settling: 2e-6 m */
      CHECK_NEAR(ea, sa, 2e-6);
      CHECK_NEAR(ef, sf, 2e-6);
      /* the two springs agree for m = 1 kg only */
      if (j == 0) CHECK_NEAR(sf, sa, 2e-6);
    }
  }
  /* TGS with gravity per internal step: the static deflection exactly, both kinds */
  CHECK_NEAR(-G / 1000.0, compliant_rest(TB_PRESET_PHYSX_TGS, 4.0f, 1000.0f, 20.0f, 1, 1), 2e-6);
  CHECK_NEAR(-4.0 * G / 1000.0, compliant_rest(TB_PRESET_PHYSX_TGS, 4.0f, 1000.0f, 80.0f, 0, 1), 2e-6);
}

/* ---- 3. Newton speculative widening: off by default, velocity × h with a cap when on ---- */

/* Contacts after one collide() of a sphere (r = 0.1 m) whose surface is `gap` above a plane,
 * moving down at `speed` (m/s), in the newton-xpbd preset with the given collision options and
 * `rounds` XPBD substeps (the collision horizon, Newton's collide(dt), is timestep / rounds). */
static int32_t newton_contacts_rounds(float gap, float speed, int widening, float cap, float constant, int rounds) {
  tb_world_id w = make_world(TB_PRESET_NEWTON_XPBD);
  tb_world_def def;
  tb_world_get_def(w, &def);
  def.solver.newton.xpbd_substeps = rounds;
  CHECK(tb_world_set_solver(w, &def.solver) == TB_OK);
  def.collision.speculative_widening = widening;
  def.collision.max_speculative_extension = cap;
  def.collision.constant_gap = constant;
  CHECK(tb_world_set_collision(w, &def.collision) == TB_OK);
  ground(w, 0.5f);
  float p[3] = {0, 0.1f + gap, 0}, prm[4] = {0.1f, 0, 0, 0}, v[3] = {0, -speed, 0};
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, p, ID_Q);
  tb_shape_create(w, b, TB_SHAPE_SPHERE, prm, ZERO, ID_Q, 0.5f, 0.0f, 1000.0f);
  CHECK(tb_body_set_velocity(w, b, v, ZERO) == TB_OK);
  CHECK(tb_world_collide(w) == TB_OK);
  tb_contact_status st;
  tb_world_contact_status(w, &st);
  tb_world_destroy(w);
  return st.count;
}

/* One collide() per step: the horizon is the timestep. */
static int32_t newton_contacts(float gap, float speed, int widening, float cap, float constant) {
  return newton_contacts_rounds(gap, speed, widening, cap, constant, 1);
}

static void test_newton_speculative(void) {
  tb_world_def def = tb_default_world_def();
  tb_preset_apply(TB_PRESET_NEWTON_XPBD, &def);
  CHECK(def.collision.speculative_widening == 0);
  CHECK(def.collision.constant_gap == 0.0f);
  CHECK(def.collision.max_speculative_extension == 0.1f);
  /* seed: kept when d <= gap0 + gap1 = 0: a sphere at rest 5 mm above the plane has no record */
  CHECK(newton_contacts(0.005f, 0.0f, 0, 0.1f, 0.0f) == 0);
  CHECK(newton_contacts(-0.001f, 0.0f, 0, 0.1f, 0.0f) == 1);
  /* off: even a fast approach keeps nothing beyond the gaps */
  CHECK(newton_contacts(0.04f, 3.0f, 0, 0.1f, 0.0f) == 0);
  /* on: |Δv|·h = 3/60 = 0.05 m widens the threshold past the 0.04 m gap ... */
  CHECK(newton_contacts(0.04f, 3.0f, 1, 0.1f, 0.0f) == 1);
  CHECK(newton_contacts(0.06f, 3.0f, 1, 0.1f, 0.0f) == 0);
  /* ... up to the cap */
  CHECK(newton_contacts(0.04f, 3.0f, 1, 0.03f, 0.0f) == 0);
  CHECK(newton_contacts(0.02f, 3.0f, 1, 0.03f, 0.0f) == 1);
  /* the constant distance, separately */
  CHECK(newton_contacts(0.015f, 0.0f, 0, 0.1f, 0.02f) == 1);
  CHECK(newton_contacts(0.025f, 0.0f, 0, 0.1f, 0.02f) == 0);
  /* at the default 10 substeps each collide() looks h/10 ahead: 3 m/s × 1/600 s = 5 mm */
  CHECK(newton_contacts_rounds(0.004f, 3.0f, 1, 0.1f, 0.0f, 10) == 1);
  CHECK(newton_contacts_rounds(0.006f, 3.0f, 1, 0.1f, 0.0f, 10) == 0);
  /* validation names the field */
  tb_world_id w = make_world(TB_PRESET_NEWTON_XPBD);
  tb_world_get_def(w, &def);
  def.collision.max_speculative_extension = -1.0f;
  CHECK(tb_world_set_collision(w, &def.collision) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "collision.max_speculative_extension") != NULL);
  tb_world_get_def(w, &def);
  def.collision.constant_gap = NAN;
  CHECK(tb_world_set_collision(w, &def.collision) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "collision.constant_gap") != NULL);
  tb_world_get_def(w, &def);
  def.collision.speculative_widening = 2;
  CHECK(tb_world_set_collision(w, &def.collision) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "collision.speculative_widening") != NULL);
  tb_world_destroy(w);
}

/* ---- 4. MuJoCo explicit pair: five friction numbers, condim, solref, solreffriction, solimp, adhesion ---- */

static void test_mujoco_pair(void) {
  tb_world_def def = tb_default_world_def();
  def.solver.combine_rule = TB_COMBINE_RULE_MUJOCO;
  def.collision.filter_rule = TB_FILTER_MUJOCO;
  def.collision.distance_rule = TB_DISTANCE_MUJOCO;
  tb_world_id w = tb_world_create(&def);
  tb_shape_id g = ground(w, 0.5f);
  tb_body_id b;
  tb_shape_id s = box(w, 0.099f, 0.1f, 1.0f, 0.5f, &b);
  tb_contact_pair_params cp;
  tb_contact_pair_default_into(&cp);
  const float fr[5] = {0.3f, 0.7f, 0.01f, 0.002f, 0.003f};
  memcpy(cp.friction, fr, sizeof fr);
  cp.condim = 6;
  cp.solref[0] = 0.05f; cp.solref[1] = 0.8f;
  cp.solreffriction[0] = 0.03f; cp.solreffriction[1] = 1.2f;
  const float imp[5] = {0.8f, 0.9f, 0.002f, 0.4f, 3.0f};
  memcpy(cp.solimp, imp, sizeof imp);
  cp.adhesion = 2.0f;
  CHECK(tb_world_set_contact_pair(w, g, s, &cp) == TB_OK);
  CHECK(tb_world_collide(w) == TB_OK);
  tb_world* ww = tb_world_get(w);
  CHECK(ww->contacts.count == 4);
  const tb_contact_fields* f = &ww->contacts.f;
  for (int32_t k = 0; k < ww->contacts.count; ++k) {
    for (int i = 0; i < 5; ++i) CHECK_NEAR(fr[i], f->friction[5 * k + i], 0);
    CHECK_NEAR(fr[0], f->dynamic_friction[k], 0);
    CHECK(f->condim[k] == 6);
    CHECK_NEAR(0.05, f->solref[2 * k], 1e-7);
    CHECK_NEAR(0.8, f->solref[2 * k + 1], 1e-7);
    CHECK_NEAR(0.03, f->solref_friction[2 * k], 1e-7);
    CHECK_NEAR(1.2, f->solref_friction[2 * k + 1], 1e-7);
    for (int i = 0; i < 5; ++i) CHECK_NEAR(imp[i], f->solimp[5 * k + i], 0);
    CHECK_NEAR(2.0, f->adhesion[k], 0);
  }
  /* geoms without a pair: friction expands to (slide, slide, spin, roll, roll), solreffriction 0 = unset */
  CHECK(tb_world_set_contact_pair(w, g, s, NULL) == TB_OK);
  CHECK(tb_world_collide(w) == TB_OK);
  CHECK(tb_world_get(w) == ww && ww->contacts.count == 4); /* the records as a reader sees them */
  CHECK_NEAR(0.5, f->friction[0], 0);
  CHECK_NEAR(0.5, f->friction[1], 0);
  CHECK_NEAR(0.005, f->friction[2], 1e-9);
  CHECK_NEAR(0.0001, f->friction[3], 1e-9);
  CHECK_NEAR(0.0001, f->friction[4], 1e-9);
  CHECK(f->solref_friction[0] == 0.0f && f->solref_friction[1] == 0.0f);
  /* validation names the field and leaves the pair list unchanged */
  cp.condim = 2;
  CHECK(tb_world_set_contact_pair(w, g, s, &cp) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "condim") != NULL);
  cp.condim = 3;
  cp.solimp[0] = 1.5f;
  CHECK(tb_world_set_contact_pair(w, g, s, &cp) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "solimp") != NULL);
  cp.solimp[0] = 0.9f;
  cp.adhesion = -1.0f;
  CHECK(tb_world_set_contact_pair(w, g, s, &cp) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "adhesion") != NULL);
  cp.adhesion = 0.0f;
  cp.solreffriction[1] = NAN;
  CHECK(tb_world_set_contact_pair(w, g, s, &cp) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "solreffriction") != NULL);
  CHECK(tb_world_collide(w) == TB_OK);
  CHECK_NEAR(0.5, f->friction[1], 0); /* still no pair */
  tb_world_destroy(w);
}

/* ---- 5. Support-field ties ---- */

/* A prism: a regular 65-gon at z = ±1 (130 vertices) whose side faces have the normals
 * (cos θ_i, sin θ_i, 0), θ_i = 2π·i/65: the directions of the cells (i, 32) of a field of
 * resolution 65 (φ = π·32/64 = π/2). */
#define PRISM_SIDES 65
static tb_hull* prism(void) {
  float pts[2 * PRISM_SIDES * 3];
  for (int i = 0; i < 2 * PRISM_SIDES; ++i) {
    float a = 2.0f * TB_PI * ((float)(i % PRISM_SIDES) - 0.5f) / (float)PRISM_SIDES;
    pts[3 * i] = cosf(a);
    pts[3 * i + 1] = sinf(a);
    pts[3 * i + 2] = i < PRISM_SIDES ? 1.0f : -1.0f;
  }
  tb_hull_error err;
  tb_hull* h = tb_hull_build(pts, 2 * PRISM_SIDES, PRISM_SIDES, &err);
  CHECK(h != NULL);
  return h;
}

static void test_support_ties(void) {
  tb_hull* h = prism();
  CHECK(h->field != NULL && h->vertex_count == 2 * PRISM_SIDES);
  /* along a side face normal (a field direction) the support is ambiguous: the face's 4 vertices
   * tie, and the 4 cells around it (tilted in θ and in φ) hold at least two of them */
  int ambiguous = 0;
  for (int i = 0; i < PRISM_SIDES; ++i) {
    tb_vec3 d = tb_support_field_direction(PRISM_SIDES, i, 32);
    float best = -INFINITY;
    for (int32_t k = 0; k < h->vertex_count; ++k) best = fmaxf(best, tb_dot(h->vertices[k], d));
    int32_t ties = 0;
    int32_t v = tb_support_field_lookup(h->field, h->vertices, d, &ties);
    CHECK(tb_dot(h->vertices[v], d) >= best - 1e-6f);
    /* the hull support resolves a reported tie as the exact scan does (first vertex at the
     * maximum) */
    if (ties >= 2) {
      ++ambiguous;
      CHECK(tb_hull_support(h, d) == tb_hull_support_scan(h, d));
    }
  }
  /* the 4 cells miss a tie when they all hold the same vertex of the face: the float cos(π/2) =
   * −4.4e-8 tilts the cells of row 32 towards the bottom edge, and rounding of θ does the same
   * on one side (15 of the 65 faces here; limitation of the 4-cell count) */
  CHECK(ambiguous >= 45);
  /* a direction with one clear maximum: ties = 1 even when the 4 cells hold different vertices */
  int tested = 0;
  uint32_t seed = 12345u;
  for (int k = 0; k < 4000; ++k) {
    float u[3];
    for (int i = 0; i < 3; ++i) {
      seed = seed * 1664525u + 1013904223u;
      u[i] = (float)(seed >> 8) / 16777216.0f * 2.0f - 1.0f;
    }
    tb_vec3 d = tb_normalize(tb_v3(u[0], u[1], u[2]));
    int32_t ties = 0;
    int32_t v = tb_support_field_lookup(h->field, h->vertices, d, &ties);
    /* count the vertices of the whole hull within 1e-6 of the maximum */
    float best = -INFINITY;
    for (int32_t i = 0; i < h->vertex_count; ++i) best = fmaxf(best, tb_dot(h->vertices[i], d));
    int exact = 0;
    for (int32_t i = 0; i < h->vertex_count; ++i) exact += tb_dot(h->vertices[i], d) >= best - 1e-6f;
    if (exact == 1 && tb_dot(h->vertices[v], d) >= best - 1e-6f) {
      CHECK(ties == 1);
      ++tested;
    }
  }
  CHECK(tested > 1000);
  tb_hull_free(h);
}

/* ---- 6. Static shapes: contact points in world coordinates ---- */

static void test_static_world_points(void) {
  const tb_preset presets[2] = {TB_PRESET_PHYSX_TGS, TB_PRESET_NEWTON_XPBD};
  for (int i = 0; i < 2; ++i) {
    tb_world_id w = make_world(presets[i]);
    /* a static box with a pose: moved and turned 30° about y (its top face stays level) */
    float sp[3] = {1.0f, -0.5f, 0.3f}, sq[4] = {0, sinf(TB_PI / 12), 0, cosf(TB_PI / 12)};
    tb_body_id st = tb_body_create(w, TB_BODY_STATIC, sp, sq);
    float bp[4] = {2.0f, 0.5f, 2.0f, 0};
    tb_shape_create(w, st, TB_SHAPE_BOX, bp, ZERO, ID_Q, 0.5f, 0.0f, 1.0f);
    /* a sphere touching its top face */
    tb_vec3 top = tb_add(tb_v3(sp[0], sp[1], sp[2]), tb_rotate((tb_quat){sq[0], sq[1], sq[2], sq[3]}, tb_v3(0, 0.5f + 0.099f, 0)));
    float p[3] = {top.x, top.y, top.z}, prm[4] = {0.1f, 0, 0, 0};
    tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, p, ID_Q);
    tb_shape_create(w, b, TB_SHAPE_SPHERE, prm, ZERO, ID_Q, 0.5f, 0.0f, 1000.0f);
    CHECK(tb_world_collide(w) == TB_OK);
    tb_world* ww = tb_world_get(w);
    CHECK(ww->contacts.count == 1);
    const tb_contact_fields* f = &ww->contacts.f;
    for (int32_t k = 0; k < ww->contacts.count; ++k) {
      int side = f->body0[k] == -1 ? 0 : 1;
      CHECK((side == 0 ? f->body0[k] : f->body1[k]) == -1);
      const float* world = side == 0 ? f->point0 + 3 * k : f->point1 + 3 * k;
      const float* local = side == 0 ? f->local_point0 + 3 * k : f->local_point1 + 3 * k;
      for (int c = 0; c < 3; ++c) CHECK_NEAR(world[c], local[c], 0);
      /* the dynamic side: its body frame */
      const float* wd = side == 0 ? f->point1 + 3 * k : f->point0 + 3 * k;
      const float* ld = side == 0 ? f->local_point1 + 3 * k : f->local_point0 + 3 * k;
      CHECK_NEAR(wd[1] - p[1], ld[1], 1e-6);
    }
    /* the steps still rest the sphere on the box (matching uses these points) */
    for (int s = 0; s < 60; ++s) CHECK(tb_world_step(w) == TB_OK);
    float x[13];
    tb_body_get_state(w, b, x);
    CHECK(fabsf(x[1] - p[1]) < 0.01f);
    tb_world_destroy(w);
  }
}

/* ---- friction regimes on an incline (docs/presets.md) ---- */

/* Speed (m/s, along the slope, downhill > 0) of a 1 kg box (half size 0.1 m) on a plane tilted by
 * theta about z, μ = mu on both shapes, averaged over steps 120..240; status of the first step. */
static float incline_speed(tb_preset preset, float theta, float mu, int32_t substeps, tb_status* first) {
  tb_world_id w = make_world(preset);
  tb_world_def def;
  tb_world_get_def(w, &def);
  def.solver.newton.substeps = substeps;
  CHECK(tb_world_set_solver(w, &def.solver) == TB_OK);
  /* gravity tilted instead of the plane: g = 9.81 (sinθ, −cosθ, 0) */
  def.gravity[0] = G * sinf(theta);
  def.gravity[1] = -G * cosf(theta);
  CHECK(tb_world_set_gravity(w, def.gravity) == TB_OK);
  ground(w, mu);
  tb_body_id b;
  box(w, 0.1f - 0.001f, 0.1f, 1.0f, mu, &b);
  *first = tb_world_step(w);
  float x0 = 0.0f, x[13];
  for (int i = 1; i < 240 && *first == TB_OK; ++i) {
    CHECK(tb_world_step(w) == TB_OK);
    if (i == 119) { tb_body_get_state(w, b, x); x0 = x[0]; }
  }
  tb_body_get_state(w, b, x);
  tb_world_destroy(w);
  return (x[0] - x0) / (120 * H);
}

static void test_friction_regimes(void) {
  const float th30 = TB_PI / 6, th20 = TB_PI / 9;
  tb_status st;
  /* penalty, 30°, μ = 0.4 (tanθ = 0.577 > μ: Coulomb would slide at 1.5 m/s²): at the default 8
   * substeps (h/8)·4kf/m = 8.3 > 2 is refused before the step */
  incline_speed(TB_PRESET_NEWTON_SEMI, th30, 0.4f, 8, &st);
  CHECK(st == TB_ERR_INVALID_STATE);
  /* at 64 substeps the translation passes (1.04 <= 2) but the slip modes that turn the cube (yaw:
   * hs·Σkf·r²/I = 4000·0.02/0.00667/3840 = 3.1 > 2) still chatter: it drifts uphill */
  float v = incline_speed(TB_PRESET_NEWTON_SEMI, th30, 0.4f, 64, &st);
  CHECK(st == TB_OK);
  printf("penalty 30°, mu 0.4, 64 substeps: %.6f m/s\n", v);
  CHECK(v < 0.0f);
  /* at 256 substeps every mode is stable (yaw 0.78): the viscous branch holds it to the creep
   * m·g·sinθ/(4kf) = 1.23 mm/s (4 contacts of kf = 1000 N·s/m; the Coulomb branch would need
   * kf·v²/2 > μ|a_n|, far above) */
  v = incline_speed(TB_PRESET_NEWTON_SEMI, th30, 0.4f, 256, &st);
  CHECK(st == TB_OK);
  double creep = 1.0 * G * sin(th30) / (4 * 1000.0);
  printf("penalty 30°, mu 0.4, 256 substeps: %.6f m/s (m g sin / 4kf = %.6f)\n", v, creep);
  CHECK_NEAR(creep, v, 0.02 * creep);
  /* XPBD below tanθ = μ (20°, μ = 0.4): friction corrects only the slip since collide() (Newton's
   * kernel does the same), ω = 0.8 with 2 iterations and count weighting leave part of each step's
   * slip: the box creeps where Coulomb friction holds it (0.15 m/s for this 1 kg, 0.2 m cube) */
  v = incline_speed(TB_PRESET_NEWTON_XPBD, th20, 0.4f, 8, &st);
  printf("xpbd 20°, mu 0.4: creep %.6f m/s\n", v);
  CHECK(st == TB_OK);
  CHECK(v > 0.01f); /* moves (>= 10 mm/s) where a Coulomb contact stands still */
  CHECK(v < G * (sinf(th20) - 0.0f) * 120 * H); /* and slower than a free slide over the window */
}

int main(void) {
  test_newton_margin();
  test_compliant_springs();
  test_newton_speculative();
  test_mujoco_pair();
  test_support_ties();
  test_static_world_points();
  test_friction_regimes();
  return tb_test_report("test_seed_conformance");
}
