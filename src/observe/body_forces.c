/* Per-body contact queries: the contacts of one body and their net force and torque, optionally
 * only with a second body, optionally without self-contacts (Genesis get_contacts(with_entity,
 * exclude_self_contact) and get_links_net_contact_force). */
#include <string.h>

#include "observe.h"


static int with_matches(const tb_world* w, int32_t other_slot, tb_body_id with) {
  if (with == TB_ANY_BODY) return 1;
  if (other_slot < 0) return 0; /* the counterpart was removed since the step */
  if (with == -1) return w->bodies.f.body_type[other_slot] == TB_BODY_STATIC;
  return other_slot == tb_id_slot(with);
}

/* Sides (bit 0: side 0, bit 1: side 1) of a contact between body slots s0 and s1 (-1: removed)
 * on which body slot `slot` is selected by the counterpart filter and flags; 0 when the contact
 * is not selected. */
static int selected_sides_of(const tb_world* w, int32_t s0, int32_t s1, int32_t slot, tb_body_id with, int32_t flags) {
  if (s0 != slot && s1 != slot) return 0;
  if (s0 == s1 && (flags & TB_OBSERVE_EXCLUDE_SELF)) return 0;
  int sides = 0;
  if (s0 == slot && with_matches(w, s1, with)) sides |= 1;
  if (s1 == slot && with_matches(w, s0, with)) sides |= 2;
  return sides;
}

static int selected_sides(const tb_world* w, int32_t k, int32_t slot, tb_body_id with, int32_t flags) {
  return selected_sides_of(w, tb_observe_contact_body_slot(w, k, 0), tb_observe_contact_body_slot(w, k, 1), slot, with, flags);
}

/* The contacts a body total sums: the store's records, then those of a step of several rounds
 * that ended before its last round (step/rounds.c), in that order. */
static int32_t total_count(const tb_world* w) { return w->contacts.count + w->round_sums.ended_count; }

/* Body slots (-1: removed), point (m, world) and force on side 1 (N, world) of total contact k. */
static void total_contact(const tb_world* w, int32_t k, int32_t* s0, int32_t* s1, tb_vec3* point, tb_vec3* force) {
  const float *p, *f;
  if (k < w->contacts.count) {
    *s0 = tb_observe_contact_body_slot(w, k, 0);
    *s1 = tb_observe_contact_body_slot(w, k, 1);
    p = w->contacts.f.point + 3 * k;
    f = w->contacts.f.force + 3 * k;
  } else {
    const tb_round_ended* e = &w->round_sums.ended[k - w->contacts.count];
    *s0 = tb_shape_body_slot(w, e->place.shape0);
    *s1 = tb_shape_body_slot(w, e->place.shape1);
    p = e->place.point;
    f = e->force;
  }
  *point = tb_v3(p[0], p[1], p[2]);
  *force = tb_v3(f[0], f[1], f[2]);
}

void tb_observe_body_sum(const tb_world* w, int32_t slot, tb_body_id with, int32_t flags, tb_vec3* force, tb_vec3* torque) {
  tb_vec3 center = tb_observe_body_center(w, slot);
  tb_vec3 f = tb_v3(0, 0, 0), t = tb_v3(0, 0, 0);
  for (int32_t k = 0; k < total_count(w); ++k) { /* contact order: deterministic */
    int32_t s0, s1;
    tb_vec3 pk, fk; /* fk on side 1 */
    total_contact(w, k, &s0, &s1, &pk, &fk);
    int sides = selected_sides_of(w, s0, s1, slot, with, flags);
    if (!sides) continue;
    tb_vec3 r = tb_sub(pk, center);
    for (int side = 0; side < 2; ++side) {
      if (!(sides & (1 << side))) continue;
      tb_vec3 fs = side ? fk : tb_scale(fk, -1.0f);
      f = tb_add(f, fs);
      t = tb_add(t, tb_cross(r, fs));
    }
  }
  *force = f;
  *torque = t;
}

static tb_status check_query(tb_world* w, const char* fn, tb_body_id body, tb_body_id with, int32_t flags, int32_t* slot) {
  *slot = tb_observe_body_slot(w, body, fn, "body");
  if (*slot < 0) return TB_ERR_NOT_FOUND;
  tb_status st = tb_observe_check_with(w, with, fn);
  if (st != TB_OK) return st;
  if (flags & ~TB_OBSERVE_EXCLUDE_SELF)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: flags must be a combination of TB_OBSERVE_* bits (got %d)", fn, flags);
  return TB_OK;
}

int32_t tb_observe_body_contacts(tb_world* w, const char* fn, tb_body_id body, tb_body_id with, int32_t flags, int32_t* out, int32_t max) {
  int32_t slot;
  tb_status st = check_query(w, fn, body, with, flags, &slot);
  if (st != TB_OK) return -st;
  if (max < 0) return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: max must be >= 0 (got %d)", fn, max);
  if (!out && max > 0) return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", fn);
  int32_t n = 0;
  for (int32_t k = 0; k < w->contacts.count; ++k)
    if (selected_sides(w, k, slot, with, flags)) {
      if (n < max) out[n] = k;
      ++n;
    }
  return n;
}

/* Net contact wrench on body slot `slot` over the last Newton solve() (force N, then torque N·m
 * about its centre of mass, world axes), as the solver published it in the world: its own per-body
 * totals, which the penalty solver has although it has no per-contact force. Returns 0 when the
 * last solve() was not a Newton solver. */
static int published_body_wrench(const tb_world* w, int32_t slot, float out[6]) {
  if (!w->body_contact_valid) return 0;
  /* a body created after the last solve() (new slot, or a reused one) had no contacts in it */
  if (slot >= w->body_contact_capacity || w->body_contact_generation[slot] != w->bodies.generation[slot]) {
    memset(out, 0, 6 * sizeof(float));
    return 1;
  }
  memcpy(out, w->body_contact_wrench + 6 * slot, 6 * sizeof(float));
  return 1;
}

tb_status tb_observe_body_contact_wrench(tb_world* w, const char* fn, tb_body_id body, tb_body_id with, int32_t flags, tb_wrench* out, tb_readback_info* info) {
  if (!out) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", fn);
  int32_t slot;
  tb_status st = check_query(w, fn, body, with, flags, &slot);
  if (st != TB_OK) return st;
  float totals[6];
  if (!w->readback.per_contact_force && w->readback.per_body_force && (with != TB_ANY_BODY || (flags & TB_OBSERVE_EXCLUDE_SELF))) {
    /* the solver's totals sum every contact of the body: they split neither by counterpart nor
     * into self-contacts and the rest */
    tb_observe_readback(w, fn, info); /* the flags */
    return tb_world_fail(w, TB_ERR_INVALID_STATE,
                         "%s: not available: the %s solver keeps per-body contact totals only, which cannot be split %s; "
                         "omit it (readback.per_contact_force = 0)",
                         fn, tb_enum_label(TB_ENUM_SOLVER, w->def.solver.solver),
                         with != TB_ANY_BODY ? "by counterpart (with)" : "without self-contacts (TB_OBSERVE_EXCLUDE_SELF, JS excludeSelf)");
  }
  if (!w->readback.per_contact_force && w->readback.per_body_force && published_body_wrench(w, slot, totals)) {
    tb_observe_readback(w, fn, info); /* the flags; per-contact force stays unavailable */
    w->error[0] = 0;
    tb_vec3 c = tb_observe_body_center(w, slot);
    for (int i = 0; i < 3; ++i) { out->force[i] = totals[i]; out->torque[i] = totals[3 + i]; }
    out->point[0] = c.x; out->point[1] = c.y; out->point[2] = c.z;
    return TB_OK;
  }
  if ((st = tb_observe_readback(w, fn, info)) != TB_OK) return st;
  tb_vec3 f, t, c = tb_observe_body_center(w, slot);
  tb_observe_body_sum(w, slot, with, flags, &f, &t);
  out->force[0] = f.x; out->force[1] = f.y; out->force[2] = f.z;
  out->torque[0] = t.x; out->torque[1] = t.y; out->torque[2] = t.z;
  out->point[0] = c.x; out->point[1] = c.y; out->point[2] = c.z;
  return TB_OK;
}

tb_status tb_observe_body_contact_wrenches(tb_world* w, const char* fn, int32_t flags, float* out, int32_t slots, tb_readback_info* info) {
  if (slots != w->bodies.count)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: slots must equal the body slot count %d (got %d)", fn, w->bodies.count, slots);
  if (!out && slots > 0) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", fn);
  if (flags & ~TB_OBSERVE_EXCLUDE_SELF)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: flags must be a combination of TB_OBSERVE_* bits (got %d)", fn, flags);
  tb_status st = tb_observe_readback(w, fn, info);
  if (st != TB_OK) return st;
  for (int32_t i = 0; i < 6 * slots; ++i) out[i] = 0.0f;
  for (int32_t k = 0; k < total_count(w); ++k) { /* contact order, side 0 then 1: as tb_observe_body_sum */
    int32_t s0, s1;
    tb_vec3 pk, fk;
    total_contact(w, k, &s0, &s1, &pk, &fk);
    if (s0 == s1 && (flags & TB_OBSERVE_EXCLUDE_SELF)) continue;
    for (int side = 0; side < 2; ++side) {
      int32_t slot = side ? s1 : s0;
      if (slot < 0) continue;
      tb_vec3 fs = side ? fk : tb_scale(fk, -1.0f);
      tb_vec3 ts = tb_cross(tb_sub(pk, tb_observe_body_center(w, slot)), fs);
      float* o = out + 6 * slot;
      tb_vec3 f = tb_add(tb_v3(o[0], o[1], o[2]), fs), t = tb_add(tb_v3(o[3], o[4], o[5]), ts);
      o[0] = f.x; o[1] = f.y; o[2] = f.z; o[3] = t.x; o[4] = t.y; o[5] = t.z;
    }
  }
  return TB_OK;
}
