/* Readback of a step made of several collide() + solve() rounds (XPBD substeps, as Newton's
 * examples run SolverXPBD: collide() and solver.step(dt/n) in each of sim_substeps rounds).
 *
 * Each round rebuilds the contact set, so a contact of the step's readback is a chain of records
 * continued from round to round by the matching (the record's match_index names its predecessor
 * in the round before; each predecessor continues one record at most). After the last round a
 * record holds the sums of its chain: impulses (N·s) summed over the rounds, force and wrench
 * (N, N·m) as impulse / timestep of the whole step, i.e. the mean of the rounds' values (rounds of
 * equal length). A chain that ended before the last round is not in the contact list: it is kept
 * beside it (round_sums.ended: its last record's shapes and point, its force over the step), and
 * the per-body totals sum the list and these, so a touch that began and ended inside the step is
 * in them. A chain whose bodies fell asleep continues as their kept record instead. The joint
 * reactions include every round (means over the rounds). */
#include <math.h>
#include <string.h>

#include "step.h"

/* The values of record k in the round's store. */
static void record_values(const tb_contact_fields* f, int32_t k, float* v) {
  v[0] = f->normal_impulse[k];
  v[1] = f->tangent_impulse[2 * k];
  v[2] = f->tangent_impulse[2 * k + 1];
  memcpy(v + 3, f->force + 3 * k, 3 * sizeof(float));
  memcpy(v + 6, f->wrench + 6 * k, 6 * sizeof(float));
}

/* Chains of the previous round that no record of this one continued, appended to the ended list
 * with their sums, except those of a pair now asleep: their kept record is in the store. */
static void add_ended(tb_world* w, int32_t prev) {
  tb_round_sums* rs = &w->round_sums;
  for (int32_t p = 0; p < rs->count[prev]; ++p) {
    if (rs->taken[p]) continue;
    const tb_round_place* pl = &rs->place[prev][p];
    int32_t b0 = tb_shape_body_slot(w, pl->shape0), b1 = tb_shape_body_slot(w, pl->shape1);
    if ((b0 >= 0 && w->bodies.f.asleep[b0]) || (b1 >= 0 && w->bodies.f.asleep[b1])) continue;
    tb_round_ended* e = &rs->ended[rs->ended_count++];
    e->place = *pl;
    memcpy(e->force, rs->contact[prev] + TB_ROUND_CONTACT * p + 3, 3 * sizeof(float));
  }
}

void tb_rounds_clear(tb_world* w) { w->round_sums.ended_count = 0; }

tb_status tb_rounds_add(tb_world* w, int32_t round) {
  tb_round_sums* rs = &w->round_sums;
  const int32_t n = w->fresh_contacts < w->contacts.count ? w->fresh_contacts : w->contacts.count;
  const tb_array_ref ca[] = {{(void**)&rs->contact[0], TB_ROUND_CONTACT * sizeof(float)},
                             {(void**)&rs->contact[1], TB_ROUND_CONTACT * sizeof(float)},
                             {(void**)&rs->taken, sizeof(int32_t)},
                             {(void**)&rs->place[0], sizeof(tb_round_place)},
                             {(void**)&rs->place[1], sizeof(tb_round_place)}};
  const tb_array_ref ba = {(void**)&rs->body, 6 * sizeof(float)}, ja = {(void**)&rs->joint, 8 * sizeof(float)};
  const tb_array_ref ea = {(void**)&rs->ended, sizeof(tb_round_ended)};
  const int32_t ended = round == 0 ? 0 : rs->ended_count + rs->count[rs->current]; /* at most */
  if (!tb_grow_capacity(ca, 5, &rs->contact_capacity, n) || !tb_grow_capacity(&ba, 1, &rs->body_capacity, w->bodies.count) ||
      !tb_grow_capacity(&ja, 1, &rs->joint_capacity, w->joints.count) || !tb_grow_capacity(&ea, 1, &rs->ended_capacity, ended))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "solve: out of memory for the readback sums of %d contacts", n);
  if (round == 0) {
    rs->count[0] = rs->count[1] = 0;
    rs->ended_count = 0;
    rs->scale = w->readback.scale;
    if (w->bodies.count > 0) memset(rs->body, 0, 6 * (size_t)w->bodies.count * sizeof(float)); /* NULL while empty */
    if (w->joints.count > 0) memset(rs->joint, 0, 8 * (size_t)w->joints.count * sizeof(float));
  } else if (!(w->readback.scale == rs->scale)) {
    rs->scale = NAN;
  }
  /* contact chains: this round's values plus the sums of the record each one continues */
  const int32_t prev = rs->current, cur = 1 - prev;
  if (rs->count[prev] > 0) memset(rs->taken, 0, (size_t)rs->count[prev] * sizeof(int32_t));
  const tb_contact_fields* f = &w->contacts.f;
  for (int32_t k = 0; k < n; ++k) {
    float* v = rs->contact[cur] + TB_ROUND_CONTACT * k;
    record_values(f, k, v);
    tb_round_place* pl = &rs->place[cur][k];
    pl->shape0 = f->shape0[k];
    pl->shape1 = f->shape1[k];
    memcpy(pl->point, f->point + 3 * k, 3 * sizeof(float));
    int32_t p = f->match_index[k];
    if (p < 0 || p >= rs->count[prev] || rs->taken[p]) continue;
    rs->taken[p] = 1;
    const float* pv = rs->contact[prev] + TB_ROUND_CONTACT * p;
    for (int i = 0; i < TB_ROUND_CONTACT; ++i) v[i] += pv[i];
  }
  if (round > 0) add_ended(w, prev);
  rs->count[cur] = n;
  rs->current = cur;
  if (w->body_contact_valid)
    for (int32_t i = 0; i < 6 * w->bodies.count; ++i) rs->body[i] += w->body_contact_wrench[i];
  for (int32_t s = 0; s < w->joints.count; ++s) {
    const tb_joint_state* st = &w->joints.state[s];
    if (!st->valid) continue;
    float* o = rs->joint + 8 * s;
    for (int i = 0; i < 3; ++i) o[i] += st->wrench.force[i], o[3 + i] += st->wrench.torque[i];
    o[6] += st->motor_force;
    o[7] += 1.0f; /* rounds with a readback: a joint that broke in a round keeps it */
  }
  return TB_OK;
}

void tb_rounds_finish(tb_world* w, int32_t rounds) {
  tb_round_sums* rs = &w->round_sums;
  const float inv = 1.0f / (float)rounds; /* force = Σ impulse / timestep = mean over equal rounds */
  tb_contact_fields* f = &w->contacts.f;
  const float* v = rs->contact[rs->current];
  tb_contacts_dirty(&w->contacts, 1u << TB_STORE_NEWTON_READBACK, 0, rs->count[rs->current]); /* the wrench */
  for (int32_t k = 0; k < rs->count[rs->current]; ++k, v += TB_ROUND_CONTACT) {
    f->normal_impulse[k] = v[0];
    f->tangent_impulse[2 * k] = v[1];
    f->tangent_impulse[2 * k + 1] = v[2];
    for (int i = 0; i < 3; ++i) f->force[3 * k + i] = v[3 + i] * inv;
    for (int i = 0; i < 6; ++i) f->wrench[6 * k + i] = v[6 + i] * inv;
  }
  for (int32_t e = 0; e < rs->ended_count; ++e)
    for (int i = 0; i < 3; ++i) rs->ended[e].force[i] *= inv;
  if (w->body_contact_valid)
    for (int32_t i = 0; i < 6 * w->bodies.count; ++i) w->body_contact_wrench[i] = rs->body[i] * inv;
  for (int32_t s = 0; s < w->joints.count; ++s) {
    tb_joint_state* st = &w->joints.state[s];
    const float* o = rs->joint + 8 * s;
    if (!(o[7] > 0.0f)) continue;
    st->valid = 1;
    for (int i = 0; i < 3; ++i) st->wrench.force[i] = o[i] * inv, st->wrench.torque[i] = o[3 + i] * inv;
    st->motor_force = o[6] * inv;
  }
  w->readback.substeps = rounds;
  w->readback.scale = rs->scale;
  w->stats.substeps = rounds;
}
