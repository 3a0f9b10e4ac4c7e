/* Native tests of the observation layer: wrench transfer, reaction and time averaging on
 * hand-computed inputs; per-body net contact force of resting bodies against their weights; the
 * conventions of other engines; contact sensors; contact and force-threshold events; the
 * self-contact flag; "not available" when the readback has no per-contact force or overflowed. */
#include <math.h>
#include <string.h>

#include "include/tribo.h"
#include "api/api.h" /* tb_world_get: the world as a reader sees it */
#include "observe/observe.h"
#include "step/step.h"
#include "test_util.h"

static const float ID_Q[4] = {0, 0, 0, 1};
static const float ZERO[3] = {0, 0, 0};
static const float G = 9.81f;

static tb_body_id ground(tb_world_id w, tb_shape_id* shape) {
  float plane[4] = {0, 1, 0, 0};
  tb_body_id g = tb_body_create(w, TB_BODY_STATIC, ZERO, ID_Q);
  tb_shape_id s = tb_shape_create(w, g, TB_SHAPE_PLANE, plane, ZERO, ID_Q, 0.5f, 0.0f, 1.0f);
  if (shape) *shape = s;
  return g;
}

/* A sphere of mass m (kg) and radius r (m) at p. */
static tb_body_id sphere(tb_world_id w, float m, float r, const float p[3], tb_shape_id* shape) {
  float params[4] = {r, 0, 0, 0};
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, p, ID_Q);
  float density = m / (4.0f / 3.0f * 3.14159265f * r * r * r);
  tb_shape_id s = tb_shape_create(w, b, TB_SHAPE_SPHERE, params, ZERO, ID_Q, 0.5f, 0.0f, density);
  if (shape) *shape = s;
  return b;
}

static tb_body_id box(tb_world_id w, float m, float half, const float p[3]) {
  float params[4] = {half, half, half, 0};
  tb_body_id b = tb_body_create(w, TB_BODY_DYNAMIC, p, ID_Q);
  tb_shape_create(w, b, TB_SHAPE_BOX, params, ZERO, ID_Q, 0.6f, 0.0f, m / (8.0f * half * half * half));
  return b;
}

static tb_wrench wrench(float fx, float fy, float fz, float tx, float ty, float tz, float px, float py, float pz) {
  tb_wrench r = {{fx, fy, fz}, {tx, ty, tz}, {px, py, pz}};
  return r;
}

#define CHECK_ARR3(ex, ey, ez, a, tol) \
  do { CHECK_NEAR(ex, (a)[0], tol); CHECK_NEAR(ey, (a)[1], tol); CHECK_NEAR(ez, (a)[2], tol); } while (0)

static void test_wrench_tools(void) {
  /* shift: f = (1,2,3), τ = (0.5,−1,2) about C = (1,0,0) to O = (0,1,0):
   * (C − O) × f = (1,−1,0) × (1,2,3) = (−3,−3,3), so τ_O = (−2.5,−4,5) */
  tb_wrench in = wrench(1, 2, 3, 0.5f, -1, 2, 1, 0, 0), out;
  float o[3] = {0, 1, 0};
  CHECK(tb_wrench_shift(&in, o, &out) == TB_OK);
  CHECK_ARR3(1, 2, 3, out.force, 0);
  CHECK_ARR3(-2.5, -4, 5, out.torque, 1e-6);
  CHECK_ARR3(0, 1, 0, out.point, 0);

  /* reaction: f0 = (0,−10,2), τ0 = (1,0,0) about C0 = 0; C1 = (1,1,0):
   * (C0 − C1) × f0 = (−1,−1,0) × (0,−10,2) = (−2,2,10); τ1 = −τ0 − that = (1,−2,−10) */
  tb_wrench on0 = wrench(0, -10, 2, 1, 0, 0, 0, 0, 0);
  float c1[3] = {1, 1, 0};
  CHECK(tb_wrench_reaction(&on0, c1, &out) == TB_OK);
  CHECK_ARR3(0, 10, -2, out.force, 0);
  CHECK_ARR3(1, -2, -10, out.torque, 1e-6);
  CHECK(fabsf(out.torque[0] - (-on0.torque[0])) > 1.0f); /* not a plain sign flip */
  /* the reaction of the reaction, back at C0, is the original wrench */
  tb_wrench back;
  CHECK(tb_wrench_reaction(&out, ZERO, &back) == TB_OK);
  CHECK_ARR3(0, -10, 2, back.force, 0);
  CHECK_ARR3(1, 0, 0, back.torque, 1e-6);

  /* averaging: k0: f = (2,0,0), τ = (0,0,1) about O0 = (0,1,0), h = 0.01;
   *            k1: f = (4,0,0), τ = 0 about O1 = (0,0,1), h = 0.03; P = 0.
   * τ0 at P = (0,0,1) + (0,1,0)×(2,0,0) = (0,0,−1); τ1 at P = (0,0,1)×(4,0,0) = (0,4,0).
   * f̄ = (0.02 + 0.12)/0.04 = 3.5; τ̄ = (0.01·(0,0,−1) + 0.03·(0,4,0))/0.04 = (0,3,−0.25). */
  tb_wrench s[2] = {wrench(2, 0, 0, 0, 0, 1, 0, 1, 0), wrench(4, 0, 0, 0, 0, 0, 0, 0, 1)};
  float h[2] = {0.01f, 0.03f};
  CHECK(tb_wrench_average(s, h, 2, ZERO, &out) == TB_OK);
  CHECK_ARR3(3.5, 0, 0, out.force, 1e-5);
  CHECK_ARR3(0, 3, -0.25, out.torque, 1e-5);

  /* bad input: named field and value */
  h[1] = 0.0f;
  CHECK(tb_wrench_average(s, h, 2, ZERO, &out) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(-1), "h[1]") != NULL);
  h[1] = 0.03f;
  s[0].force[1] = NAN;
  CHECK(tb_wrench_average(s, h, 2, ZERO, &out) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(-1), "samples[0].force[1]") != NULL);
  CHECK(tb_wrench_average(s, h, 0, ZERO, &out) == TB_ERR_INVALID_ARGUMENT);
  float bad[3] = {0, INFINITY, 0};
  CHECK(tb_wrench_shift(&in, bad, &out) == TB_ERR_INVALID_ARGUMENT);
}

static void test_resting_sphere(void) {
  tb_world_def def = tb_default_world_def();
  tb_world_id w = tb_world_create(&def);
  tb_body_id g = ground(w, NULL);
  const float m = 3.0f, r = 0.2f;
  float p[3] = {1.0f, r, 0.5f};
  tb_body_id b = sphere(w, m, r, p, NULL);
  for (int i = 0; i < 120; ++i) tb_world_step(w);

  tb_wrench net;
  tb_readback_info info;
  CHECK(tb_body_contact_wrench(w, b, TB_ANY_BODY, 0, &net, &info) == TB_OK);
  CHECK(info.valid == 1 && info.per_contact_force == 1 && info.includes_friction == 1);
  CHECK_NEAR(m * G, net.force[1], 0.005 * m * G);
  CHECK_NEAR(0, net.force[0], 0.005 * m * G);
  CHECK_NEAR(0, net.force[2], 0.005 * m * G);
  float st[13];
  tb_body_get_state(w, b, st);
  CHECK_ARR3(st[0], st[1], st[2], net.point, 1e-6); /* the sphere's centre of mass */
  CHECK_NEAR(0, net.torque[0], 0.01);
  CHECK_NEAR(0, net.torque[2], 0.01);
  /* filters: the floor is the only counterpart */
  tb_wrench with_static, with_self;
  CHECK(tb_body_contact_wrench(w, b, -1, 0, &with_static, NULL) == TB_OK);
  CHECK(memcmp(&with_static, &net, sizeof net) == 0);
  CHECK(tb_body_contact_wrench(w, b, g, 0, &with_static, NULL) == TB_OK);
  CHECK(memcmp(&with_static, &net, sizeof net) == 0);
  CHECK(tb_body_contact_wrench(w, b, b, 0, &with_self, NULL) == TB_OK);
  CHECK_ARR3(0, 0, 0, with_self.force, 0);
  /* the static floor receives the opposite force */
  tb_wrench floor;
  CHECK(tb_body_contact_wrench(w, g, b, 0, &floor, NULL) == TB_OK);
  CHECK_NEAR(-net.force[1], floor.force[1], 1e-4);

  /* the one contact: plane is shape0 (body0 = -1), sphere shape1 */
  tb_contact_status cs;
  tb_world_contact_status(w, &cs);
  CHECK(cs.count == 1);
  tb_wrench cw;
  CHECK(tb_contact_wrench(w, 0, 1, NULL, &cw, NULL) == TB_OK);
  CHECK_ARR3(net.force[0], net.force[1], net.force[2], cw.force, 1e-6);
  /* Newton: wrench by body1 on body0 about body0's centre (the static floor's origin):
   * f0 = −m g ŷ at p ≈ (1, 0, 0.5): τ = p × f0 = (0.5·m g, 0, −1·m g) */
  float nw[6], gn[6], px[9];
  CHECK(tb_contact_convention_stride(TB_CONVENTION_NEWTON) == 6 && tb_contact_convention_stride(TB_CONVENTION_PHYSX) == 9);
  CHECK(tb_contacts_convert(w, TB_CONVENTION_NEWTON, 0, 1, nw, NULL) == TB_OK);
  CHECK_NEAR(-m * G, nw[1], 0.005 * m * G);
  CHECK_NEAR(0.5f * m * G, nw[3], 0.01 * m * G);
  CHECK_NEAR(0, nw[4], 0.01 * m * G);
  CHECK_NEAR(-1.0f * m * G, nw[5], 0.01 * m * G);
  /* Genesis: force_a on shape0 (the floor), force_b = −force_a */
  CHECK(tb_contacts_convert(w, TB_CONVENTION_GENESIS, 0, 1, gn, NULL) == TB_OK);
  CHECK_NEAR(-m * G, gn[1], 0.005 * m * G);
  CHECK(gn[3] == -gn[0] && gn[4] == -gn[1] && gn[5] == -gn[2]);
  /* PhysX: normal from shape1 (sphere) to shape0 (floor) = −ŷ; impulse on the floor = −m g h ŷ */
  CHECK(tb_contacts_convert(w, TB_CONVENTION_PHYSX, 0, 1, px, NULL) == TB_OK);
  CHECK_ARR3(0, -1, 0, px, 1e-6);
  CHECK_NEAR(-m * G * def.timestep, px[4], 0.005 * m * G * def.timestep);
  /* one contact about a chosen point: about the world origin τ = p × f with p ≈ (1, 0, 0.5) */
  tb_wrench at_o, on0;
  CHECK(tb_contact_wrench(w, 0, 1, ZERO, &at_o, NULL) == TB_OK);
  CHECK_ARR3(-0.5f * m * G, 0, 1.0f * m * G, at_o.torque, 0.01 * m * G);
  CHECK(tb_contact_wrench(w, 0, 0, ZERO, &on0, NULL) == TB_OK);
  CHECK_ARR3(-at_o.torque[0], -at_o.torque[1], -at_o.torque[2], on0.torque, 0); /* same point: opposite */
  /* the reaction of Newton's wrench (on body0 about its origin) at the sphere's centre is the
   * sphere's contact wrench about its centre */
  tb_wrench newton = {{nw[0], nw[1], nw[2]}, {nw[3], nw[4], nw[5]}, {0, 0, 0}}, react;
  CHECK(tb_wrench_reaction(&newton, cw.point, &react) == TB_OK);
  CHECK_ARR3(cw.force[0], cw.force[1], cw.force[2], react.force, 0);
  CHECK_ARR3(cw.torque[0], cw.torque[1], cw.torque[2], react.torque, 1e-4);
  CHECK(tb_contacts_convert(w, TB_CONVENTION_PHYSX, 0, 2, px, NULL) == TB_ERR_INVALID_ARGUMENT);
  CHECK(tb_contacts_convert(w, (tb_contact_convention)7, 0, 1, px, NULL) == TB_ERR_INVALID_ARGUMENT);
  CHECK(strstr(tb_last_error(w), "convention") != NULL);
  /* bad ids: error, world usable */
  CHECK(tb_body_contact_wrench(w, b + (1 << 20), TB_ANY_BODY, 0, &net, NULL) == TB_ERR_NOT_FOUND);
  CHECK(tb_body_contact_wrench(w, b, -5, 0, &net, NULL) == TB_ERR_INVALID_ARGUMENT);
  CHECK(tb_body_contact_wrench(w, b, TB_ANY_BODY, 8, &net, NULL) == TB_ERR_INVALID_ARGUMENT);
  CHECK(tb_contact_wrench(w, 1, 1, NULL, &cw, NULL) == TB_ERR_INVALID_ARGUMENT);
  CHECK(tb_contact_wrench(w, 0, 2, NULL, &cw, NULL) == TB_ERR_INVALID_ARGUMENT);
  CHECK(tb_world_step(w) == TB_OK);
  tb_world_destroy(w);
}

static void test_box_stack(void) {
  tb_world_def def = tb_default_world_def();
  tb_world_id w = tb_world_create(&def);
  ground(w, NULL);
  const float ma = 2.0f, mb = 1.0f, half = 0.25f;
  float pa[3] = {0, half, 0}, pb[3] = {0, 3 * half, 0};
  tb_body_id a = box(w, ma, half, pa);
  tb_body_id b = box(w, mb, half, pb);
  for (int i = 0; i < 180; ++i) tb_world_step(w);
  tb_wrench floor_on_a, b_on_a, all_on_a, a_on_b;
  CHECK(tb_body_contact_wrench(w, a, -1, 0, &floor_on_a, NULL) == TB_OK);
  CHECK(tb_body_contact_wrench(w, a, b, 0, &b_on_a, NULL) == TB_OK);
  CHECK(tb_body_contact_wrench(w, a, TB_ANY_BODY, 0, &all_on_a, NULL) == TB_OK);
  CHECK(tb_body_contact_wrench(w, b, a, 0, &a_on_b, NULL) == TB_OK);
  CHECK_NEAR((ma + mb) * G, floor_on_a.force[1], 0.005 * (ma + mb) * G); /* total weight */
  CHECK_NEAR(-mb * G, b_on_a.force[1], 0.005 * mb * G);                  /* the top box's weight */
  CHECK_NEAR(ma * G, all_on_a.force[1], 0.01 * ma * G);
  CHECK_NEAR(-b_on_a.force[1], a_on_b.force[1], 1e-4);
  /* all bodies at once: the same sums, bitwise */
  int32_t slots = tb_world_body_slot_count(w);
  float all[6 * 8];
  CHECK(slots == 3);
  CHECK(tb_world_body_contact_wrenches(w, 0, all, slots, NULL) == TB_OK);
  tb_wrench on_b;
  tb_body_contact_wrench(w, b, TB_ANY_BODY, 0, &on_b, NULL);
  CHECK(memcmp(all + 6 * (a & 0xFFFFF), all_on_a.force, 3 * sizeof(float)) == 0);
  CHECK(memcmp(all + 6 * (a & 0xFFFFF) + 3, all_on_a.torque, 3 * sizeof(float)) == 0);
  CHECK(memcmp(all + 6 * (b & 0xFFFFF), on_b.force, 3 * sizeof(float)) == 0);
  CHECK_NEAR(-(ma + mb) * G, all[1], 0.005 * (ma + mb) * G); /* slot 0: the floor */
  CHECK(tb_world_body_contact_wrenches(w, 0, all, slots + 1, NULL) == TB_ERR_INVALID_ARGUMENT);
  /* contact lists: the bottom box has 4 points with the floor and 4 with the top box */
  int32_t idx[16];
  CHECK(tb_body_contacts(w, a, -1, 0, idx, 16) == 4);
  CHECK(tb_body_contacts(w, a, b, 0, idx, 16) == 4);
  CHECK(tb_body_contacts(w, a, TB_ANY_BODY, 0, idx, 2) == 8);
  tb_world_destroy(w);
}

/* Contacts between shapes of one body are filtered out by the collision pipeline today, so the
 * self-contact is made by relabelling a stored contact through the public field pointers. */
static void test_self_contact_flag(void) {
  tb_world_def def = tb_default_world_def();
  tb_world_id w = tb_world_create(&def);
  ground(w, NULL);
  float p[3] = {0, 0.2f, 0};
  tb_shape_id s1;
  tb_body_id b = sphere(w, 1.0f, 0.2f, p, &s1);
  float params[4] = {0.1f, 0, 0, 0}, up[3] = {0, 1.0f, 0};
  tb_shape_id s2 = tb_shape_create(w, b, TB_SHAPE_SPHERE, params, up, ID_Q, 0.5f, 0.0f, 1.0f);
  for (int i = 0; i < 30; ++i) tb_world_step(w);
  int32_t idx[4];
  CHECK(tb_body_contacts(w, b, TB_ANY_BODY, 0, idx, 4) == 1);
  int32_t* shape0 = (int32_t*)tb_world_field(w, TB_FIELDS_CONTACT, TB_CONTACT_FIELD_shape0);
  shape0[idx[0]] = s2; /* now a contact between s2 and s1: both on body b */
  CHECK(tb_body_contacts(w, b, TB_ANY_BODY, 0, idx, 4) == 1);
  CHECK(tb_body_contacts(w, b, TB_ANY_BODY, TB_OBSERVE_EXCLUDE_SELF, idx, 4) == 0);
  CHECK(tb_body_contacts(w, b, b, 0, idx, 4) == 1);      /* the body itself selects self-contacts */
  CHECK(tb_body_contacts(w, b, -1, 0, idx, 4) == 0);
  tb_wrench net;
  CHECK(tb_body_contact_wrench(w, b, TB_ANY_BODY, 0, &net, NULL) == TB_OK);
  CHECK_ARR3(0, 0, 0, net.force, 0); /* internal: the pair's two forces cancel */
  tb_world_destroy(w);
}

static void test_sensor(void) {
  tb_world_def def = tb_default_world_def();
  tb_world_id w = tb_world_create(&def);
  tb_body_id g = ground(w, NULL);
  float p[3] = {0, 0.2f, 0}, q[3] = {3, 0.2f, 0};
  tb_body_id b = sphere(w, 3.0f, 0.2f, p, NULL);
  tb_body_id other = sphere(w, 1.0f, 0.2f, q, NULL);
  for (int i = 0; i < 60; ++i) tb_world_step(w);
  tb_sensor_id big = tb_sensor_create(w, b, TB_ANY_BODY, 16);
  tb_sensor_id ring = tb_sensor_create(w, b, g, 4);
  tb_sensor_id none = tb_sensor_create(w, b, other, 4);
  CHECK(big >= 0 && ring >= 0 && none >= 0);
  float f[3];
  CHECK(tb_sensor_read(w, big, f, NULL) == TB_ERR_INVALID_STATE); /* no sample yet */
  CHECK(tb_sensor_create(w, b, TB_ANY_BODY, 0) == -TB_ERR_INVALID_ARGUMENT);
  CHECK(tb_sensor_create(w, b + (3 << 20), TB_ANY_BODY, 4) == -TB_ERR_NOT_FOUND);
  for (int i = 0; i < 10; ++i) tb_world_step(w);
  float hist[3 * 16], hring[3 * 4], hnone[3 * 4];
  int32_t valid[16], steps[16], rsteps[4];
  CHECK(tb_sensor_history(w, big, hist, valid, steps, 16) == 10);
  CHECK(tb_sensor_history(w, ring, hring, NULL, rsteps, 4) == 4);
  CHECK(tb_sensor_history(w, none, hnone, NULL, NULL, 4) == 4);
  for (int i = 0; i < 10; ++i) {
    CHECK(valid[i] == 1);
    CHECK_NEAR(3.0 * G, hist[3 * i + 1], 0.005 * 3.0 * G);
    if (i) CHECK(steps[i] == steps[i - 1] + 1);
  }
  /* the ring keeps the newest 4, oldest first, bitwise equal to the long history */
  CHECK(memcmp(hring, hist + 3 * 6, sizeof hring) == 0);
  CHECK(rsteps[0] == steps[6] && rsteps[3] == steps[9]);
  for (int i = 0; i < 12; ++i) CHECK(hnone[i] == 0.0f); /* no contact with `other`: a measured zero */
  /* latest value = the body query of the same step */
  tb_wrench net;
  tb_body_contact_wrench(w, b, TB_ANY_BODY, TB_OBSERVE_EXCLUDE_SELF, &net, NULL);
  CHECK(tb_sensor_read(w, big, f, NULL) == TB_OK);
  CHECK(memcmp(f, net.force, sizeof f) == 0);
  CHECK(tb_sensor_destroy(w, ring) == TB_OK);
  CHECK(tb_sensor_read(w, ring, f, NULL) == TB_ERR_NOT_FOUND);
  CHECK(tb_sensor_destroy(w, ring) == TB_ERR_NOT_FOUND);
  tb_world_destroy(w);
}

/* Impulse-momentum over a drop and landing: Σ h·F_k of the sensor history equals
 * m·(v_N − v_0) − m·g·N·h (y components), so the history holds every impulse of the solver. */
static void test_sensor_impulse_balance(void) {
  tb_world_def def = tb_default_world_def();
  tb_world_id w = tb_world_create(&def);
  ground(w, NULL);
  const float m = 2.0f;
  float p[3] = {0, 0.5f, 0};
  tb_body_id b = sphere(w, m, 0.2f, p, NULL);
  tb_sensor_id s = tb_sensor_create(w, b, TB_ANY_BODY, 64);
  float st[13];
  tb_body_get_state(w, b, st);
  double v0 = st[8];
  const int n = 60;
  for (int i = 0; i < n; ++i) tb_world_step(w);
  tb_body_get_state(w, b, st);
  float hist[3 * 64];
  CHECK(tb_sensor_history(w, s, hist, NULL, NULL, 64) == n);
  double impulse = 0.0, peak = 0.0;
  for (int i = 0; i < n; ++i) {
    impulse += (double)def.timestep * hist[3 * i + 1];
    if (hist[3 * i + 1] > peak) peak = hist[3 * i + 1];
  }
  double expected = m * (st[8] - v0) + (double)m * G * n * def.timestep; /* gravity is −g ŷ */
  CHECK_NEAR(expected, impulse, 1e-3 * expected);
  CHECK(peak > 2.0 * m * G); /* the landing step carries more than the weight */
  tb_world_destroy(w);
}

static int count_type(const tb_contact_event* e, int32_t n, int32_t type) {
  int c = 0;
  for (int32_t i = 0; i < n; ++i) c += e[i].type == type;
  return c;
}

static void test_events(void) {
  tb_world_def def = tb_default_world_def();
  tb_world_id w = tb_world_create(&def);
  tb_shape_id gs;
  ground(w, &gs);
  const float m = 2.0f;
  float p[3] = {0, 0.6f, 0};
  tb_shape_id bs;
  tb_body_id b = sphere(w, m, 0.2f, p, &bs);
  CHECK(tb_world_set_event_capacity(w, 64) == TB_OK);
  CHECK(tb_world_set_force_threshold(w, 0.5f * m * G) == TB_OK);
  CHECK(tb_world_set_force_threshold(w, -1.0f) == TB_ERR_INVALID_ARGUMENT);
  CHECK(tb_world_set_event_capacity(w, -1) == TB_ERR_INVALID_ARGUMENT);
  int begins = 0, persists = 0, ends = 0, above = 0, below = 0, contact_steps = 0, first_contact = -1, above_step = -1;
  for (int i = 0; i < 90; ++i) {
    tb_world_step(w);
    tb_event_status es;
    tb_world_event_status(w, &es);
    const tb_contact_event* e = tb_world_events(w);
    CHECK(es.overflowed == 0 && es.force_available == 1);
    int32_t n = es.count;
    begins += count_type(e, n, TB_EVENT_BEGIN);
    persists += count_type(e, n, TB_EVENT_PERSIST);
    ends += count_type(e, n, TB_EVENT_END);
    if (count_type(e, n, TB_EVENT_FORCE_ABOVE)) above_step = i;
    above += count_type(e, n, TB_EVENT_FORCE_ABOVE);
    below += count_type(e, n, TB_EVENT_FORCE_BELOW);
    tb_contact_status cs;
    tb_world_contact_status(w, &cs);
    if (cs.count > 0) { contact_steps++; if (first_contact < 0) first_contact = i; }
    for (int32_t k = 0; k < n; ++k)
      if (e[k].type == TB_EVENT_BEGIN || e[k].type == TB_EVENT_FORCE_ABOVE) CHECK(e[k].shape1 == bs && e[k].shape0 == gs && e[k].body1 == b);
  }
  CHECK(begins == 1);
  CHECK(ends == 0);
  CHECK(persists == contact_steps - 1); /* every step in contact after the first */
  CHECK(above == 1 && below == 0);
  CHECK(first_contact >= 0 && above_step >= first_contact);
  /* lift off */
  float lift[3] = {0, 2.0f, 0};
  tb_body_set_pose(w, b, lift, ID_Q);
  tb_body_set_velocity(w, b, ZERO, ZERO);
  tb_world_step(w);
  tb_event_status es;
  tb_world_event_status(w, &es);
  const tb_contact_event* e = tb_world_events(w);
  /* the ball had fallen asleep (PhysX sleep): the pose wakes it, its pair ends */
  CHECK(es.count == 3);
  CHECK(count_type(e, es.count, TB_EVENT_END) == 1 && count_type(e, es.count, TB_EVENT_FORCE_BELOW) == 1);
  CHECK(count_type(e, es.count, TB_EVENT_WAKE) == 1 && e[2].type == TB_EVENT_WAKE && e[2].body0 == b && e[2].shape0 == -1);
  CHECK(e[0].type == TB_EVENT_END && e[0].shape1 == bs && e[0].normal_force > 0.9f * m * G); /* the last force before lift */
  tb_world_step(w);
  tb_world_event_status(w, &es);
  CHECK(es.count == 0);

  /* per-pair threshold above the weight: no crossing on landing; overflow with capacity 1 */
  CHECK(tb_pair_set_force_threshold(w, bs, gs, 100.0f * m * G) == TB_OK);
  CHECK(tb_pair_set_force_threshold(w, bs, bs, 1.0f) == TB_ERR_INVALID_ARGUMENT);
  CHECK(tb_pair_set_force_threshold(w, bs, gs + (5 << 20), 1.0f) == TB_ERR_NOT_FOUND);
  CHECK(tb_world_set_event_capacity(w, 1) == TB_OK);
  int pair_above = 0, overflow_seen = 0, slept = 0;
  for (int i = 0; i < 90; ++i) {
    int was = tb_body_is_sleeping(w, b);
    tb_world_step(w);
    tb_world_event_status(w, &es);
    pair_above += count_type(tb_world_events(w), es.count, TB_EVENT_FORCE_ABOVE);
    int changed = tb_body_is_sleeping(w, b) != was;
    slept += changed;
    if (es.overflowed && !(changed && es.requested == 2)) overflow_seen = 1;
  }
  CHECK(pair_above == 0);
  CHECK(slept == 1);         /* it landed and fell asleep once */
  CHECK(overflow_seen == 0); /* one ball: one event per step fits, but for its sleep event beside its contact */
  /* a resting box adds 4 points: 5 persist events per step into a buffer of 1 (force events off,
   * so the box's landing transient cannot add a threshold crossing) */
  CHECK(tb_world_set_force_threshold(w, 0.0f) == TB_OK);
  float bp[3] = {2, 0.25f, 0};
  box(w, 1.0f, 0.25f, bp);
  for (int i = 0; i < 30; ++i) tb_world_step(w);
  tb_world_event_status(w, &es);
  tb_contact_status cs;
  tb_world_contact_status(w, &cs);
  CHECK(cs.count == 5);
  CHECK(es.overflowed == 1 && es.count == 1 && es.capacity == 1 && es.requested == 5);
  CHECK(tb_world_events(w)[0].type == TB_EVENT_PERSIST);
  tb_world_destroy(w);
}

static void test_not_available(void) {
  tb_world_def def = tb_default_world_def();
  tb_world_id w = tb_world_create(&def);
  ground(w, NULL);
  float p[3] = {0, 0.2f, 0};
  tb_body_id b = sphere(w, 1.0f, 0.2f, p, NULL);
  tb_sensor_id s = tb_sensor_create(w, b, TB_ANY_BODY, 4);
  CHECK(tb_world_set_event_capacity(w, 16) == TB_OK);
  CHECK(tb_world_set_force_threshold(w, 1.0f) == TB_OK);
  for (int i = 0; i < 5; ++i) tb_world_step(w);
  /* a solver without per-contact force: the flag as such a solver leaves it */
  tb_world* iw = tb_world_get(w);
  iw->readback.per_contact_force = 0;
  tb_wrench out;
  float buf[9], f[3];
  tb_readback_info info;
  CHECK(tb_body_contact_wrench(w, b, TB_ANY_BODY, 0, &out, &info) == TB_ERR_INVALID_STATE);
  CHECK(info.per_contact_force == 0);
  CHECK(strstr(tb_last_error(w), "not available") != NULL);
  CHECK(tb_contact_wrench(w, 0, 1, NULL, &out, NULL) == TB_ERR_INVALID_STATE);
  CHECK(tb_contacts_convert(w, TB_CONVENTION_PHYSX, 0, 1, buf, NULL) == TB_ERR_INVALID_STATE);
  const tb_step_context ctx = tb_step_context_whole(iw);
  tb_observe_after_solve(iw, &ctx); /* the hook as it runs after such a solver */
  CHECK(tb_sensor_read(w, s, f, &info) == TB_ERR_INVALID_STATE);
  int32_t valid[4];
  float hist[12];
  CHECK(tb_sensor_history(w, s, hist, valid, NULL, 4) == 4);
  CHECK(valid[3] == 0 && isnan(hist[9]) && valid[2] == 1);
  tb_event_status es;
  tb_world_event_status(w, &es);
  CHECK(es.force_available == 0);
  CHECK(isnan(tb_world_events(w)[0].normal_force));

  /* a box gives 4 points into a store created for 1: it grows, so the first step's readback is
   * valid and the getters answer */
  tb_world_destroy(w);
  def.contact_capacity = 1;
  w = tb_world_create(&def);
  ground(w, NULL);
  float bp[3] = {0, 0.25f, 0};
  tb_body_id bx = box(w, 1.0f, 0.25f, bp);
  s = tb_sensor_create(w, bx, TB_ANY_BODY, 4);
  CHECK(tb_world_set_event_capacity(w, 16) == TB_OK);
  tb_world_step(w);
  tb_contact_status cs;
  CHECK(tb_world_contact_status(w, &cs) == TB_OK && cs.grew == 1 && cs.count == 4);
  CHECK(tb_world_readback_info(w, &info) == TB_OK && info.valid == 1);
  CHECK(tb_body_contact_wrench(w, bx, TB_ANY_BODY, 0, &out, &info) == TB_OK);
  CHECK(info.valid == 1);
  CHECK(tb_sensor_read(w, s, f, NULL) == TB_OK);
  tb_world_event_status(w, &es);
  CHECK(es.force_available == 1);
  tb_world_destroy(w);
}

/* The same scene with 1 and 4 threads gives bitwise-identical observation results. */
static void test_threads(void) {
  if (tb_max_threads() < 4) return;
  float results[2][6];
  for (int run = 0; run < 2; ++run) {
    tb_world_def def = tb_default_world_def();
    def.thread_count = run ? 4 : 1;
    tb_world_id w = tb_world_create(&def);
    ground(w, NULL);
    tb_body_id first = -1;
    for (int i = 0; i < 40; ++i) {
      float p[3] = {(float)(i % 5) * 0.45f, 0.3f + 0.5f * (float)(i / 5), (float)(i % 3) * 0.1f};
      tb_body_id b = box(w, 1.0f, 0.2f, p);
      if (i == 0) first = b;
    }
    tb_sensor_id s = tb_sensor_create(w, first, TB_ANY_BODY, 8);
    for (int i = 0; i < 60; ++i) tb_world_step(w);
    tb_wrench net;
    tb_body_contact_wrench(w, first, TB_ANY_BODY, 0, &net, NULL);
    memcpy(results[run], net.force, 3 * sizeof(float));
    tb_sensor_read(w, s, results[run] + 3, NULL);
    tb_world_destroy(w);
  }
  CHECK(memcmp(results[0], results[1], sizeof results[0]) == 0);
}

/* Sensors, thresholds and event buffers are freed with the world; no allocation in steady steps. */
static void test_memory(void) {
  int64_t before = tb_live_bytes();
  tb_world_def def = tb_default_world_def();
  tb_world_id w = tb_world_create(&def);
  tb_shape_id gs, bs;
  ground(w, &gs);
  float p[3] = {0, 0.2f, 0};
  tb_body_id b = sphere(w, 1.0f, 0.2f, p, &bs);
  tb_sensor_create(w, b, TB_ANY_BODY, 32);
  tb_sensor_id s2 = tb_sensor_create(w, b, -1, 8);
  tb_world_set_event_capacity(w, 16);
  tb_pair_set_force_threshold(w, gs, bs, 3.0f);
  for (int i = 0; i < 10; ++i) tb_world_step(w);
  int64_t steady = tb_live_bytes();
  for (int i = 0; i < 10; ++i) tb_world_step(w);
  CHECK_NEAR(steady, tb_live_bytes(), 0);
  tb_sensor_destroy(w, s2);
  CHECK(tb_live_bytes() < steady);
  CHECK(tb_sensor_create(w, b, TB_ANY_BODY, 8) >= 0); /* reuses the slot */
  tb_world_destroy(w);
  CHECK_NEAR(before, tb_live_bytes(), 0);
}

int main(void) {
  test_memory();
  test_wrench_tools();
  test_resting_sphere();
  test_box_stack();
  test_self_contact_flag();
  test_sensor();
  test_sensor_impulse_balance();
  test_events();
  test_not_available();
  test_threads();
  return tb_test_report("test_observe");
}
