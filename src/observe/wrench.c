/* Wrench tools: moving a wrench to another point, the reaction on the other body, time averages
 * over substeps, the wrench of one contact, and conversions of the contact store to the
 * conventions of other engines. */
#include <stdio.h>
#include <string.h>

#include "observe.h"

static tb_vec3 v3(const float* p) { return tb_v3(p[0], p[1], p[2]); }
static void put3(float* p, tb_vec3 v) { p[0] = v.x; p[1] = v.y; p[2] = v.z; }

/* Pure functions report through the global error (tb_last_error(-1)). */
static tb_status check_wrench(const char* fn, const char* field, const tb_wrench* w) {
  if (!w) return tb_world_fail(NULL, TB_ERR_INVALID_ARGUMENT, "%s: %s must not be NULL", fn, field);
  for (int i = 0; i < 3; ++i) {
    if (!tb_is_finite(w->force[i])) return tb_world_fail(NULL, TB_ERR_INVALID_ARGUMENT, "%s: %s.force[%d] must be finite (got %g)", fn, field, i, (double)w->force[i]);
    if (!tb_is_finite(w->torque[i])) return tb_world_fail(NULL, TB_ERR_INVALID_ARGUMENT, "%s: %s.torque[%d] must be finite (got %g)", fn, field, i, (double)w->torque[i]);
    if (!tb_is_finite(w->point[i])) return tb_world_fail(NULL, TB_ERR_INVALID_ARGUMENT, "%s: %s.point[%d] must be finite (got %g)", fn, field, i, (double)w->point[i]);
  }
  return TB_OK;
}

static tb_status check_point(tb_world* w, const char* fn, const char* field, const float* p) {
  if (!p) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s must not be NULL", fn, field);
  for (int i = 0; i < 3; ++i)
    if (!tb_is_finite(p[i])) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s[%d] must be finite (got %g)", fn, field, i, (double)p[i]);
  return TB_OK;
}

/* τ_to = τ + (point − to) × f: the one transfer rule every function here uses. */
static tb_vec3 shift_torque(tb_vec3 force, tb_vec3 torque, tb_vec3 from, tb_vec3 to) {
  return tb_add(torque, tb_cross(tb_sub(from, to), force));
}

tb_status tb_observe_wrench_shift(const tb_wrench* in, const float to[3], tb_wrench* out) {
  const char* fn = "wrenchShift";
  tb_status st = check_wrench(fn, "in", in);
  if (st == TB_OK) st = check_point(NULL, fn, "to", to);
  if (st != TB_OK) return st;
  if (!out) return tb_world_fail(NULL, TB_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", fn);
  tb_vec3 t = shift_torque(v3(in->force), v3(in->torque), v3(in->point), v3(to));
  tb_vec3 f = v3(in->force);
  put3(out->force, f);
  put3(out->torque, t);
  put3(out->point, v3(to));
  return TB_OK;
}

tb_status tb_observe_wrench_reaction(const tb_wrench* on0, const float c1[3], tb_wrench* out) {
  const char* fn = "wrenchReaction";
  tb_status st = check_wrench(fn, "on0", on0);
  if (st == TB_OK) st = check_point(NULL, fn, "c1", c1);
  if (st != TB_OK) return st;
  if (!out) return tb_world_fail(NULL, TB_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", fn);
  /* shift to C1 first, then negate both: τ_C1 = −τ_C0 − (C0 − C1) × f0 */
  tb_vec3 f0 = v3(on0->force);
  tb_vec3 t = shift_torque(f0, v3(on0->torque), v3(on0->point), v3(c1));
  put3(out->force, tb_scale(f0, -1.0f));
  put3(out->torque, tb_scale(t, -1.0f));
  put3(out->point, v3(c1));
  return TB_OK;
}

tb_status tb_observe_wrench_average(const tb_wrench* samples, const float* h, int32_t count, const float point[3], tb_wrench* out) {
  const char* fn = "wrenchAverage";
  if (count < 1) return tb_world_fail(NULL, TB_ERR_INVALID_ARGUMENT, "%s: count must be >= 1 (got %d)", fn, count);
  if (!samples || !h || !out) return tb_world_fail(NULL, TB_ERR_INVALID_ARGUMENT, "%s: samples, h and out must not be NULL", fn);
  tb_status st = check_point(NULL, fn, "point", point);
  if (st != TB_OK) return st;
  for (int32_t k = 0; k < count; ++k) {
    char field[32];
    snprintf(field, sizeof field, "samples[%d]", k);
    if ((st = check_wrench(fn, field, &samples[k])) != TB_OK) return st;
    if (!tb_is_finite(h[k]) || h[k] <= 0.0f)
      return tb_world_fail(NULL, TB_ERR_INVALID_ARGUMENT, "%s: h[%d] must be finite and > 0 (got %g)", fn, k, (double)h[k]);
  }
  tb_vec3 p = v3(point), f = tb_v3(0, 0, 0), t = tb_v3(0, 0, 0);
  float total = 0.0f;
  for (int32_t k = 0; k < count; ++k) { /* in sample order: deterministic */
    tb_vec3 fk = v3(samples[k].force);
    f = tb_add(f, tb_scale(fk, h[k]));
    t = tb_add(t, tb_scale(shift_torque(fk, v3(samples[k].torque), v3(samples[k].point), p), h[k]));
    total += h[k];
  }
  put3(out->force, tb_scale(f, 1.0f / total));
  put3(out->torque, tb_scale(t, 1.0f / total));
  put3(out->point, p);
  return TB_OK;
}

/* Body slot of side `side` of contact k (via its shape), or -1 when that shape was removed. */
int32_t tb_observe_contact_body_slot(const tb_world* w, int32_t k, int side) {
  return tb_shape_body_slot(w, side ? w->contacts.f.shape1[k] : w->contacts.f.shape0[k]);
}

/* Force (N, world) of contact k on its side `side`, applied at the contact point. */
static tb_vec3 contact_force(const tb_world* w, int32_t k, int side) {
  tb_vec3 f = v3(w->contacts.f.force + 3 * k);
  return side ? f : tb_scale(f, -1.0f);
}

static tb_status check_range(tb_world* w, const char* fn, int32_t first, int32_t count) {
  int32_t n = w->contacts.count;
  if (first < 0 || first > n)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: first must be in [0, %d] (got %d)", fn, n, first);
  if (count < 0 || count > n - first)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: count must be in [0, %d] for first %d (got %d)", fn, n - first, first, count);
  return TB_OK;
}

tb_status tb_observe_contact_wrench(tb_world* w, const char* fn, int32_t contact, int32_t side, const float point[3], tb_wrench* out, tb_readback_info* info) {
  if (!out) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", fn);
  if (contact < 0 || contact >= w->contacts.count)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: contact must be in [0, %d) (got %d)", fn, w->contacts.count, contact);
  if (side != 0 && side != 1) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: side must be 0 or 1 (got %d)", fn, side);
  tb_status st;
  if (point && (st = check_point(w, fn, "point", point)) != TB_OK) return st;
  if ((st = tb_observe_readback(w, fn, info)) != TB_OK) return st;
  tb_vec3 ref;
  if (point) {
    ref = v3(point);
  } else {
    int32_t slot = tb_observe_contact_body_slot(w, contact, side);
    if (slot < 0) return tb_world_fail(w, TB_ERR_NOT_FOUND, "%s: the body of side %d of contact %d was removed; pass a point", fn, side, contact);
    ref = tb_observe_body_center(w, slot);
  }
  tb_vec3 f = contact_force(w, contact, side);
  put3(out->force, f);
  put3(out->torque, shift_torque(f, tb_v3(0, 0, 0), v3(w->contacts.f.point + 3 * contact), ref));
  put3(out->point, ref);
  return TB_OK;
}

/* Torque (N·m, world) about the contact point of contact k on side `side` that is not r × f: the
 * MuJoCo readback's torsion and rolling (mujoco_force[3..5] about normal, tangent0, tangent1, on
 * body1); zero for the other readbacks. */
static tb_vec3 contact_point_torque(const tb_world* w, int32_t k, int side) {
  if (w->readback.convention != TB_READBACK_MUJOCO) return tb_v3(0, 0, 0);
  const tb_contact_fields* c = &w->contacts.f;
  const float* m = c->mujoco_force + 6 * k;
  tb_vec3 t = tb_add(tb_add(tb_scale(v3(c->normal + 3 * k), m[3]), tb_scale(v3(c->tangent0 + 3 * k), m[4])),
                     tb_scale(v3(c->tangent1 + 3 * k), m[5]));
  return side ? t : tb_scale(t, -1.0f);
}

int32_t tb_observe_convention_stride(tb_contact_convention convention) {
  switch (convention) {
    case TB_CONVENTION_NEWTON: return 6;
    case TB_CONVENTION_NEWTON_MUJOCO_ADAPTER: return 6;
    case TB_CONVENTION_GENESIS: return 6;
    case TB_CONVENTION_PHYSX: return 9;
    default: return 0;
  }
}

tb_status tb_observe_contacts_convert(tb_world* w, const char* fn, tb_contact_convention convention, int32_t first, int32_t count, float* out, tb_readback_info* info) {
  int32_t stride = tb_observe_convention_stride(convention);
  if (stride == 0)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: convention must be in [0, %d) (got %d)", fn, TB_CONVENTION_COUNT, (int)convention);
  tb_status st = check_range(w, fn, first, count);
  if (st != TB_OK) return st;
  if (!out && count > 0) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", fn);
  if ((st = tb_observe_readback(w, fn, info)) != TB_OK) return st;
  if (convention == TB_CONVENTION_NEWTON_MUJOCO_ADAPTER && w->readback.convention != TB_READBACK_MUJOCO)
    return tb_world_fail(w, TB_ERR_INVALID_STATE,
                         "%s: convention 'newton-mujoco-adapter' reproduces Newton's MuJoCo adapter and needs the "
                         "mujoco solver's readback (this readback is '%s')", fn, tb_enum_label(TB_ENUM_READBACK, w->readback.convention));
  const tb_contact_fields* c = &w->contacts.f;
  for (int32_t i = 0; i < count; ++i) {
    int32_t k = first + i;
    float* o = out + (size_t)stride * (size_t)i;
    tb_vec3 f0 = contact_force(w, k, 0); /* on shape0 / body0 */
    switch (convention) {
      case TB_CONVENTION_NEWTON: {
        int32_t slot = tb_observe_contact_body_slot(w, k, 0);
        if (slot < 0) return tb_world_fail(w, TB_ERR_NOT_FOUND, "%s: the body of shape0 of contact %d was removed since the step", fn, k);
        tb_vec3 c0 = tb_observe_body_center(w, slot);
        put3(o, f0);
        put3(o + 3, shift_torque(f0, contact_point_torque(w, k, 0), v3(c->point + 3 * k), c0));
        break;
      }
      case TB_CONVENTION_NEWTON_MUJOCO_ADAPTER: /* negated, the torque not moved off the point */
        put3(o, f0);
        put3(o + 3, contact_point_torque(w, k, 0));
        break;
      case TB_CONVENTION_GENESIS:
        put3(o, f0);
        put3(o + 3, tb_scale(f0, -1.0f));
        break;
      default: { /* PhysX: normal from shape1 to shape0, impulses on shape0 */
        tb_vec3 n = tb_scale(v3(c->normal + 3 * k), -1.0f);
        tb_vec3 ft = tb_add(tb_scale(v3(c->tangent0 + 3 * k), c->tangent_impulse[2 * k]),
                            tb_scale(v3(c->tangent1 + 3 * k), c->tangent_impulse[2 * k + 1]));
        put3(o, n);
        put3(o + 3, tb_scale(n, c->normal_impulse[k]));
        put3(o + 6, tb_scale(ft, -1.0f));
        break;
      }
    }
  }
  return TB_OK;
}
