/* Snapshots: the whole state of a world as bytes, and a world restored from them.
 *
 * The payload lists, in order: the definition and the world's step-to-step scalars; each store
 * (bodies, shapes, candidate pairs, contacts) through the array lists its growth uses
 * (tb_*_store_arrays, from the field lists), so an array added to a list is saved without a change
 * here; the owned geometry of each hull (copied as built), mesh and heightfield (their vertices,
 * indices or heights: rebuilt, which is deterministic); the sweep order; the pair lists; both
 * matching frames; the per-body contact totals with the contact chains of the last step that ended
 * before its last round; the PhysX anchor cache; the MuJoCo and Kamino warm
 * starts; sensors and events; the joint store with the filter's list of joined body pairs; the
 * island links, the kept records of sleeping pairs and the sleep transitions not yet reported (the
 * islands themselves and each body's sleep state are body arrays).
 * Restore reads everything into a scratch world first and swaps it in only when every check
 * passed, so a refused snapshot leaves the world untouched. */
#include <stdio.h>
#include <string.h>

#include "../core/jobs.h"
#include "../core/serial.h"
#include "../model/material.h"
#include "../observe/observe.h"
#include "../solver/solver.h"
#include "../world/world_def.h"
#include "api.h"
#include "snapshot_parts.h"

static const char k_magic[8] = {'T', 'R', 'I', 'B', 'O', 'S', 'N', 'P'};
static int32_t s_last_error = TB_SNAPSHOT_OK;

typedef struct snapshot_header {
  char magic[8];
  uint32_t version, header_size, payload_size, layout, checksum, reserved;
} snapshot_header;
_Static_assert(sizeof(snapshot_header) == TB_SNAPSHOT_HEADER_SIZE, "snapshot header is 32 bytes");

/* ---- layout hash: names and element sizes of every stored array and struct ---- */

/* Pointer arrays (owned geometry) are not in the payload, so their size is not in the hash: a
 * snapshot of the native build reads in wasm and back when every other size agrees. */
#define IS_POINTER_ARRAY(type) _Generic((type**)0, void***: 1, default: 0)
#define HASH_ARRAY(name, type, per_slot, doc) \
  h = tb_fnv1a(h, #name, sizeof #name); h = hash_size(h, IS_POINTER_ARRAY(type) ? 0 : (per_slot) * sizeof(type));
#define HASH_FIELD(name, ctype, ftype, comps, unit, doc) \
  h = tb_fnv1a(h, #name, sizeof #name); h = hash_size(h, (comps) * sizeof(ctype));
#define HASH_TYPE(t) h = tb_fnv1a(h, #t, sizeof #t); h = hash_size(h, sizeof(t));

static uint32_t hash_size(uint32_t h, size_t n) {
  uint32_t v = (uint32_t)n;
  return tb_fnv1a(h, &v, sizeof v);
}

static uint32_t layout_hash(void) {
  uint32_t h = 2166136261u;
  TB_BODY_FIELDS(HASH_FIELD)
  TB_BODY_ARRAYS(HASH_ARRAY)
  TB_SHAPE_ARRAYS(HASH_ARRAY)
  TB_PAIR_ARRAYS(HASH_ARRAY)
  TB_JOINT_ARRAYS(HASH_ARRAY)
  TB_CONTACT_FIELDS(HASH_FIELD)
  HASH_TYPE(tb_world_def) HASH_TYPE(tb_manifold) HASH_TYPE(tb_contact_material) HASH_TYPE(tb_pair)
  HASH_TYPE(tb_distance_pair) HASH_TYPE(tb_contact_pair_params) HASH_TYPE(tb_step_stats)
  HASH_TYPE(tb_solver_status) HASH_TYPE(tb_readback_info) HASH_TYPE(tb_sap_entry) HASH_TYPE(tb_event_contact)
  HASH_TYPE(tb_round_ended)
  HASH_TYPE(tb_event_pair) HASH_TYPE(tb_pair_threshold) HASH_TYPE(tb_contact_event) HASH_TYPE(tb_sleep_params)
  h = hash_size(h, TB_MATCH_PAIR_ARRAYS);
  h = hash_size(h, TB_MATCH_POINT_ARRAYS);
  h = hash_size(h, TB_MAX_MANIFOLD_POINTS);
  h = hash_size(h, TB_ID_GEN_MASK);
  return h;
}

#define VERSION_DIGITS(v) #v
#define VERSION_TEXT(v) VERSION_DIGITS(v) /* the version number as a string literal */

/* ---- writing ---- */

static void put_keys(tb_serial* s, const tb_pair_keys* l) {
  tb_put_i32(s, l->count);
  tb_put_i32(s, l->params != NULL);
  tb_put(s, l->key, (size_t)l->count * sizeof(uint64_t));
  if (l->params) tb_put(s, l->params, (size_t)l->count * sizeof(tb_contact_pair_params));
}

/* Islands and sleep: the last links (lost ones mark islands dirty), the kept records of sleeping
 * pairs with their flags, the fresh record count, the transitions not yet reported. */
static void put_sleep(tb_serial* s, tb_world* w) {
  tb_array_ref a[TB_MAX_ARRAYS];
  tb_put_i32(s, w->link_count);
  tb_put(s, w->links, (size_t)w->link_count * sizeof(uint64_t));
  tb_contact_store* kc = &w->sleep_contacts;
  tb_put_i32(s, kc->count);
  tb_put_arrays(s, a, tb_contact_field_arrays(&kc->f, a), kc->count, NULL);
  tb_put(s, w->sleep_contact_flags, (size_t)kc->count * sizeof(int32_t));
  tb_put_i32(s, w->fresh_contacts);
  tb_put_i32(s, w->sleep_log_count);
  tb_put(s, w->sleep_log, (size_t)w->sleep_log_count * sizeof(int32_t));
}

static void put_payload(tb_serial* s, tb_world* w) {
  tb_array_ref a[TB_MAX_ARRAYS];
  tb_put(s, &w->def, sizeof w->def);
  const int32_t scalars[] = {w->collided, w->last_stage, w->overrides_pending, w->body_contact_valid, w->id_salt};
  tb_put(s, scalars, sizeof scalars);
  tb_put(s, &w->stats, sizeof w->stats);
  tb_put(s, &w->readback, sizeof w->readback);
  tb_put(s, &w->status, sizeof w->status);
  /* bodies and shapes */
  tb_bodies* b = &w->bodies;
  const int32_t bh[] = {b->count, b->capacity, b->free_head};
  tb_put(s, bh, sizeof bh);
  tb_put_arrays(s, a, tb_body_store_arrays(b, a), b->count, NULL);
  tb_shapes* sh = &w->shapes;
  const int32_t shh[] = {sh->count, sh->capacity, sh->free_head};
  tb_put(s, shh, sizeof shh);
  tb_put_arrays(s, a, tb_shape_store_arrays(sh, a), sh->count, (void**)&sh->data);
  for (int32_t i = 0; i < sh->count; ++i)
    if (sh->type[i] >= 0 && tb_shape_has_geometry(sh->type[i])) tb_snapshot_put_geometry(s, sh->type[i], sh->data[i]);
  /* broad phase: the sweep order (insertion sort resumes from it) */
  tb_put_i32(s, w->sap_count);
  tb_put(s, w->sap_order, (size_t)w->sap_count * sizeof(int32_t));
  tb_put(s, w->sap_entries, (size_t)w->sap_count * sizeof(tb_sap_entry));
  /* candidate pairs with their manifolds, contact store */
  const int32_t ph[] = {w->pair_capacity, w->pair_count, w->pairs_requested, w->pairs_overflowed};
  tb_put(s, ph, sizeof ph);
  tb_put_arrays(s, a, tb_pair_store_arrays(w, a), w->pair_count, NULL);
  tb_contact_store* c = &w->contacts;
  const int32_t ch[] = {c->capacity, c->count, c->requested, c->overflowed, c->readback_valid};
  tb_put(s, ch, sizeof ch);
  tb_put_arrays(s, a, tb_contact_field_arrays(&c->f, a), c->count, NULL);
  /* pair lists */
  put_keys(s, &w->explicit_pairs);
  put_keys(s, &w->shape_exclusions);
  put_keys(s, &w->body_exclusions);
  put_keys(s, &w->contact_pairs);
  /* matching frames */
  const int32_t mh[] = {w->match.current, (int32_t)w->match.next_id};
  tb_put(s, mh, sizeof mh);
  for (int f = 0; f < 2; ++f) {
    /* the other frame is written over by the next collide() before anything reads it (and a
     * collide() that failed may have left it half written): saved empty */
    tb_match_frame* fr = &w->match.frame[f];
    int cur = f == w->match.current;
    int32_t n = cur && w->match.capacity ? fr->pair_count : 0, np = cur && w->match.point_capacity ? fr->point_count : 0;
    const int32_t fh[] = {n, np, cur ? fr->stored : 0};
    tb_put(s, fh, sizeof fh);
    tb_put_arrays(s, a, tb_match_pair_arrays(fr, a), n, NULL);
    tb_put_arrays(s, a, tb_match_point_arrays(fr, a), np, NULL);
  }
  /* per-body contact totals of the Newton solvers (observation of the last solve()) */
  int32_t nb = w->body_contact_capacity >= b->count ? b->count : 0;
  tb_put_i32(s, nb);
  tb_put(s, w->body_contact_wrench, 6 * (size_t)nb * sizeof(float));
  tb_put(s, w->body_contact_generation, (size_t)nb * sizeof(int32_t));
  /* contact chains of the last step that ended before its last round (per-body totals) */
  tb_put_i32(s, w->round_sums.ended_count);
  tb_put(s, w->round_sums.ended, (size_t)w->round_sums.ended_count * sizeof(tb_round_ended));
  tb_solver_save(w, s);
  tb_mujoco_save(w, s);
  tb_kamino_save(w, s);
  tb_snapshot_put_observe(s, w->observe);
  /* joints (their solver rows are rebuilt each step) */
  tb_joints* jt = &w->joints;
  const int32_t jh[] = {jt->count, jt->capacity, jt->free_head, jt->live};
  tb_put(s, jh, sizeof jh);
  tb_put_arrays(s, a, tb_joint_store_arrays(jt, a), jt->count, NULL);
  put_keys(s, &w->joint_pairs);
  put_sleep(s, w);
}

int32_t tb_world_snapshot(tb_world_id world, void* bytes, int32_t capacity) {
  tb_world* w = tb_world_get(world);
  if (!w) return -tb_world_fail(NULL, TB_ERR_NOT_FOUND, "snapshot: world %d does not exist", world);
  if (bytes && capacity < 0)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "snapshot: capacity must be >= 0 (got %d)", capacity);
  tb_material_memo_release(w); /* the pairs' combined materials into the arrays saved */
  tb_serial count = {0};
  put_payload(&count, w);
  size_t total = sizeof(snapshot_header) + count.pos;
  if (total > (size_t)INT32_MAX) return -tb_world_fail(w, TB_ERR_CAPACITY, "snapshot: %zu bytes is over 2 GiB", total);
  if (!bytes) return (int32_t)total;
  if ((size_t)capacity < total)
    return -tb_world_fail(w, TB_ERR_CAPACITY, "snapshot: capacity %d is below the snapshot's %zu bytes", capacity, total);
  uint8_t* out = (uint8_t*)bytes;
  tb_serial s = {out + sizeof(snapshot_header), NULL, count.pos, 0, 0};
  put_payload(&s, w);
  snapshot_header hd;
  memset(&hd, 0, sizeof hd);
  memcpy(hd.magic, k_magic, sizeof k_magic);
  hd.version = TB_SNAPSHOT_VERSION;
  hd.header_size = sizeof hd;
  hd.payload_size = (uint32_t)count.pos;
  hd.layout = layout_hash();
  hd.checksum = tb_fnv1a(2166136261u, s.out, count.pos);
  memcpy(out, &hd, sizeof hd);
  return (int32_t)total;
}

/* ---- reading ---- */

int32_t tb_snapshot_check(const void* bytes, int32_t size) {
  snapshot_header hd;
  if (!bytes || size < (int32_t)sizeof hd) return TB_SNAPSHOT_TRUNCATED;
  memcpy(&hd, bytes, sizeof hd);
  if (memcmp(hd.magic, k_magic, sizeof k_magic) != 0) return TB_SNAPSHOT_BAD_MAGIC;
  if (hd.version != TB_SNAPSHOT_VERSION || hd.header_size != sizeof hd) return TB_SNAPSHOT_BAD_VERSION;
  if ((uint64_t)size < (uint64_t)sizeof hd + hd.payload_size) return TB_SNAPSHOT_TRUNCATED;
  if ((uint64_t)size > (uint64_t)sizeof hd + hd.payload_size) return TB_SNAPSHOT_TRAILING;
  if (hd.layout != layout_hash()) return TB_SNAPSHOT_FOREIGN;
  if (tb_fnv1a(2166136261u, (const uint8_t*)bytes + sizeof hd, hd.payload_size) != hd.checksum) return TB_SNAPSHOT_BAD_CHECKSUM;
  return TB_SNAPSHOT_OK;
}

int32_t tb_snapshot_last_error(void) { return s_last_error; }

static int get_keys(tb_serial* s, tb_pair_keys* l, int32_t slots) {
  int32_t n = tb_get_i32(s, 0, INT32_MAX / 16);
  int32_t with_params = tb_get_i32(s, 0, 1);
  if (s->failed || (size_t)n * sizeof(uint64_t) > s->size - s->pos) return s->failed = 1, 0;
  if (!tb_pair_keys_reserve(l, n, with_params)) return 0;
  tb_get(s, l->key, (size_t)n * sizeof(uint64_t));
  if (with_params) tb_get(s, l->params, (size_t)n * sizeof(tb_contact_pair_params));
  l->count = n;
  /* as tb_slot_pair_key makes them: two different slots, the lower first, ascending */
  for (int32_t i = 0; i < n && !s->failed; ++i)
    if ((l->key[i] & 0xFFFFFFFFu) >= (uint64_t)slots || (l->key[i] >> 32) >= (l->key[i] & 0xFFFFFFFFu) ||
        (i > 0 && l->key[i] <= l->key[i - 1]))
      s->failed = 1;
  return !s->failed;
}

/* Every key of l names two live slots (type >= 0): removing a shape or body takes its keys out. */
static int keys_live(const tb_pair_keys* l, const int32_t* type) {
  for (int32_t i = 0; i < l->count; ++i)
    if (type[l->key[i] >> 32] < 0 || type[l->key[i] & 0xFFFFFFFFu] < 0) return 0;
  return 1;
}

static int finite_pose(const tb_transform* t) { return tb_vec3_is_finite(t->p) && tb_quat_is_finite(t->q); }

/* A matching frame's pair cache: finite poses and normal (the next collide() replays them), the
 * normal's body 0 or 1; its distances not NaN (a speed near float's range may widen them to +inf). */
static int pair_cache_valid(const tb_pcm_cache* c, const tb_distance_pair* d) {
  if (isnan(d->margin) || isnan(d->gap) || isnan(d->detect) || isnan(d->speculative)) return 0;
  if (c->state == TB_PCM_APART) return finite_pose(&c->apart.pose0) && finite_pose(&c->apart.pose1) && !isnan(c->apart.distance);
  if (c->state == TB_PCM_NONE) return 1;
  return finite_pose(&c->relative) && tb_quat_is_finite(c->q0) && tb_quat_is_finite(c->q1) && tb_vec3_is_finite(c->normal) &&
         (c->normal_body == 0 || c->normal_body == 1);
}

/* Links and indices that later stages follow without checks: every one in range. */
static int consistent(const tb_world* t) {
  const tb_bodies* b = &t->bodies;
  const tb_shapes* sh = &t->shapes;
  int32_t nb = b->count, ns = sh->count;
  for (int32_t i = 0; i < nb; ++i) {
    int32_t type = b->f.body_type[i];
    if (type < -1 || type > TB_BODY_DYNAMIC || b->parent[i] < -1 || b->parent[i] >= nb) return 0;
    if (b->island[i] < -1 || b->island[i] >= nb || b->island_next[i] < -1 || b->island_next[i] >= nb) return 0;
    if (b->first_shape[i] < -1 || b->first_shape[i] >= (type < 0 ? nb : ns)) return 0;
    if (type < 0) continue;
    int32_t steps = 0;
    for (int32_t s = b->first_shape[i]; s >= 0; s = sh->next[s])
      if (sh->next[s] < -1 || sh->next[s] >= ns || sh->body[s] != i || sh->type[s] < 0 || ++steps > ns) return 0;
  }
  int32_t steps = 0;
  for (int32_t i = b->free_head; i >= 0; i = b->first_shape[i])
    if (i >= nb || b->f.body_type[i] != -1 || ++steps > nb) return 0;
  /* islands (src/solver/island.c): a list of dynamic bodies from the id's slot, each member once
   * with the id, island_size members; every body with an island on its island's list (the merge
   * and the detach walk the lists without a bound) */
  int32_t members = 0, listed = 0;
  for (int32_t i = 0; i < nb; ++i) {
    int32_t id = b->island[i];
    if (id < 0) continue;
    if (b->f.body_type[i] != TB_BODY_DYNAMIC || b->island[id] != id) return 0;
    ++members;
    if (id != i) continue;
    int32_t n = 0;
    for (int32_t j = i; j >= 0; j = b->island_next[j])
      if (b->island[j] != id || ++n > b->island_size[id] || n > nb) return 0;
    if (n != b->island_size[id]) return 0;
    listed += n;
  }
  if (listed != members) return 0;
  for (int32_t s = 0; s < ns; ++s) {
    int32_t type = sh->type[s];
    if (type < -1 || type >= TB_SHAPE_TYPE_COUNT || sh->next[s] < -1 || sh->next[s] >= ns) return 0;
    if (type >= 0 && (sh->body[s] < 0 || sh->body[s] >= nb || b->f.body_type[sh->body[s]] < 0)) return 0;
    if (type >= 0 && tb_shape_has_geometry(type) != (sh->data[s] != NULL)) return 0;
  }
  steps = 0;
  for (int32_t s = sh->free_head; s >= 0; s = sh->next[s])
    if (s >= ns || sh->type[s] != -1 || ++steps > ns) return 0;
  /* joints: sides are live bodies or the world, the free list runs through free slots */
  const tb_joints* jt = &t->joints;
  int32_t live = 0;
  for (int32_t j = 0; j < jt->count; ++j) {
    int32_t type = jt->def[j].type, s0 = jt->slot0[j], s1 = jt->slot1[j];
    if (type < -1 || type >= TB_JOINT_TYPE_COUNT) return 0;
    if (type < 0) continue;
    if (s0 < -1 || s0 >= nb || s1 < -1 || s1 >= nb || (s0 >= 0 && b->f.body_type[s0] < 0) ||
        (s1 >= 0 && b->f.body_type[s1] < 0) || s0 == s1)
      return 0;
    ++live;
  }
  if (live != jt->live) return 0;
  steps = 0;
  for (int32_t j = jt->free_head; j >= 0; j = jt->next_free[j])
    if (j >= jt->count || jt->def[j].type != -1 || ++steps > jt->count) return 0;
  for (int32_t l = 0; l < t->link_count; ++l)
    if ((t->links[l] >> 32) >= (uint64_t)nb || (uint32_t)t->links[l] >= (uint32_t)nb) return 0;
  for (int32_t i = 0; i < t->sap_count; ++i)
    if (t->sap_order[i] < 0 || t->sap_order[i] >= ns) return 0;
  for (int32_t p = 0; p < t->pair_count; ++p) {
    const tb_pair* pr = &t->pairs[p];
    if (pr->shape0 < 0 || pr->shape0 >= ns || pr->shape1 < 0 || pr->shape1 >= ns) return 0;
    if (t->manifolds[p].point_count < 0 || t->manifolds[p].point_count > TB_MAX_MANIFOLD_POINTS) return 0;
    tb_pair counted = *pr;
    tb_pair_count_points(&counted, &t->manifolds[p]);
    if (pr->points != counted.points || pr->active != counted.active) return 0;
    if (t->manifold_contact[p] < -1 || t->manifold_contact[p] >= t->contacts.count) return 0;
  }
  for (int f = 0; f < 2; ++f) {
    /* each pair's points follow the points of the pairs before it, and they are all the frame's */
    const tb_match_frame* fr = &t->match.frame[f];
    int32_t points = 0;
    for (int32_t p = 0; p < fr->pair_count; ++p) {
      if (fr->count[p] < 0 || fr->count[p] > TB_MAX_MANIFOLD_POINTS || fr->first[p] != points) return 0;
      /* a pair left apart has no points (the next collide may leave it untested) */
      if (fr->pcm[p].state < TB_PCM_NONE || fr->pcm[p].state > TB_PCM_APART) return 0;
      if (fr->pcm[p].state == TB_PCM_APART && fr->count[p] != 0) return 0;
      points += fr->count[p];
    }
    if (points != fr->point_count) return 0;
    for (int32_t p = 0; p < fr->pair_count; ++p)
      if (!pair_cache_valid(&fr->pcm[p], &fr->dist[p])) return 0;
    /* the body-local points a sticky preset replays */
    for (int32_t k = 0; k < fr->point_count; ++k)
      if (fr->previous[k] < -1 || fr->previous[k] >= t->contacts.capacity || !tb_vec3_is_finite(fr->local0[k]) ||
          !tb_vec3_is_finite(fr->local1[k]))
        return 0;
  }
  /* pair lists: shape slots, except the body exclusions and the joined body pairs */
  if (!keys_live(&t->explicit_pairs, sh->type) || !keys_live(&t->shape_exclusions, sh->type) ||
      !keys_live(&t->contact_pairs, sh->type) || !keys_live(&t->body_exclusions, b->f.body_type) ||
      !keys_live(&t->joint_pairs, b->f.body_type))
    return 0;
  return 1;
}

/* The stored values of every live body, shape and joint, checked as creating and setting them
 * checks them (a snapshot's checksum tells only that its bytes did not change since they were
 * written, not who wrote them); the first problem's message goes to t's error text. */
static int values_valid(tb_world* t) {
  char fn[48];
  for (int32_t s = 0; s < t->shapes.count; ++s) { /* first: a body's mass check reads its shapes */
    if (t->shapes.type[s] < 0) continue;
    snprintf(fn, sizeof fn, "shape slot %d", s);
    if (tb_shape_check_slot(t, fn, s) != TB_OK) return 0;
  }
  for (int32_t i = 0; i < t->bodies.count; ++i) {
    if (t->bodies.f.body_type[i] < 0) continue;
    snprintf(fn, sizeof fn, "body slot %d", i);
    if (tb_body_check_slot(t, fn, i) != TB_OK) return 0;
  }
  const tb_pair_keys* cp = &t->contact_pairs;
  for (int32_t i = 0; i < cp->count && cp->params; ++i) {
    snprintf(fn, sizeof fn, "contact pair of shape slots %d, %d", (int32_t)(cp->key[i] >> 32), (int32_t)(uint32_t)cp->key[i]);
    if (tb_contact_pair_check(t, fn, &cp->params[i]) != TB_OK) return 0;
  }
  const tb_joints* jt = &t->joints;
  for (int32_t j = 0; j < jt->count; ++j) {
    if (jt->def[j].type < 0) continue;
    snprintf(fn, sizeof fn, "joint slot %d", j);
    int32_t s0, s1;
    if (tb_joint_check_def(t, fn, &jt->def[j], &s0, &s1) != TB_OK) return 0;
    if (s0 != jt->slot0[j] || s1 != jt->slot1[j])
      return tb_world_fail(t, TB_ERR_INVALID_ARGUMENT, "%s: its bodies' slots %d, %d must be its bodies' (%d, %d)", fn, jt->slot0[j],
                           jt->slot1[j], s0, s1), 0;
  }
  return 1;
}

/* put_sleep's state into t; nc: the contacts read, which bound the fresh record count. */
static int get_sleep(tb_serial* s, tb_world* t, int32_t nc) {
  tb_array_ref a[TB_MAX_ARRAYS];
  int32_t nl = tb_get_i32(s, 0, INT32_MAX / 16);
  if (s->failed) return 0;
  if (nl > 0) {
    const tb_array_ref l[] = {{(void**)&t->links, sizeof(uint64_t)}, {(void**)&t->links_next, sizeof(uint64_t)}};
    if (!tb_grow_arrays(l, 2, 0, nl)) return 0;
    t->link_capacity = nl;
    tb_get(s, t->links, (size_t)nl * sizeof(uint64_t));
  }
  t->link_count = nl;
  int32_t nk = tb_get_i32(s, 0, INT32_MAX / 1024);
  if (s->failed) return 0;
  if (nk > 0) {
    if (!tb_contacts_grow(&t->sleep_contacts, nk)) return 0;
    const tb_array_ref fl = {(void**)&t->sleep_contact_flags, sizeof(int32_t)};
    if (!tb_grow_arrays(&fl, 1, 0, nk)) return 0;
    t->sleep_contact_flags_capacity = nk;
    tb_get_arrays(s, a, tb_contact_field_arrays(&t->sleep_contacts.f, a), nk, NULL);
    tb_get(s, t->sleep_contact_flags, (size_t)nk * sizeof(int32_t));
  }
  t->sleep_contacts.count = nk;
  t->fresh_contacts = tb_get_i32(s, 0, nc);
  int32_t nlog = tb_get_i32(s, 0, INT32_MAX / 16);
  if (s->failed) return 0;
  if (nlog > 0) {
    const tb_array_ref lg = {(void**)&t->sleep_log, sizeof(int32_t)};
    if (!tb_grow_arrays(&lg, 1, 0, nlog)) return 0;
    t->sleep_log_capacity = nlog;
    tb_get(s, t->sleep_log, (size_t)nlog * sizeof(int32_t));
  }
  t->sleep_log_count = nlog;
  return !s->failed;
}

/* Reads the payload into t (a zeroed world): 0 on a malformed stream (s->failed) or out of memory. */
static int get_payload(tb_serial* s, tb_world* t, int32_t thread_count) {
  tb_array_ref a[TB_MAX_ARRAYS];
  if (!tb_get(s, &t->def, sizeof t->def)) return 0;
  if (thread_count > 0) t->def.thread_count = thread_count;
  if (tb_world_def_check(&t->def, "restore") != TB_OK) return s->failed = 1, 0;
  t->collided = tb_get_i32(s, 0, 1);
  t->last_stage = tb_get_i32(s, -1, 64);
  t->overrides_pending = tb_get_i32(s, 0, 1);
    t->body_contact_valid = tb_get_i32(s, 0, 1);
  t->id_salt = tb_get_i32(s, 0, TB_ID_GEN_MASK);
  tb_get(s, &t->stats, sizeof t->stats);
  tb_get(s, &t->readback, sizeof t->readback);
  tb_get(s, &t->status, sizeof t->status);
  /* bodies */
  tb_bodies* b = &t->bodies;
  int32_t nb = tb_get_i32(s, 0, TB_ID_INDEX_MASK), bcap = tb_get_i32(s, 1, TB_ID_INDEX_MASK + 1);
  b->free_head = tb_get_i32(s, -1, nb - 1);
  if (s->failed || nb > bcap) return s->failed = 1, 0;
  if (!tb_bodies_grow(b, bcap)) return 0;
  b->count = nb;
  tb_get_arrays(s, a, tb_body_store_arrays(b, a), nb, NULL);
  /* shapes, geometry */
  tb_shapes* sh = &t->shapes;
  int32_t ns = tb_get_i32(s, 0, TB_ID_INDEX_MASK), scap = tb_get_i32(s, 1, TB_ID_INDEX_MASK + 1);
  sh->free_head = tb_get_i32(s, -1, ns - 1);
  if (s->failed || ns > scap) return s->failed = 1, 0;
  if (!tb_shapes_grow(sh, scap)) return 0;
  tb_get_arrays(s, a, tb_shape_store_arrays(sh, a), ns, (void**)&sh->data);
  for (int32_t i = 0; i < ns; ++i) sh->data[i] = NULL;
  sh->count = ns; /* from here on the world's free releases what was built */
  for (int32_t i = 0; i < ns && !s->failed; ++i) {
    if (sh->type[i] < 0 || !tb_shape_has_geometry(sh->type[i])) continue;
    if (sh->type[i] >= TB_SHAPE_TYPE_COUNT) return s->failed = 1, 0;
    sh->data[i] = tb_snapshot_get_geometry(s, sh->type[i]);
  }
  if (s->failed) return 0;
  /* broad phase */
  int32_t nsap = tb_get_i32(s, 0, ns);
  if (s->failed) return 0;
  const tb_array_ref sap[] = {{(void**)&t->sap_order, sizeof(int32_t)}, {(void**)&t->sap_entries, sizeof(tb_sap_entry)}};
  if (!tb_grow_arrays(sap, 2, 0, scap)) return 0;
  t->sap_capacity = scap;
  t->sap_count = nsap;
  tb_get_arrays(s, sap, 2, nsap, NULL);
  /* pairs, contacts */
  int32_t pcap = tb_get_i32(s, 1, INT32_MAX / 2048), npair = tb_get_i32(s, 0, pcap);
  t->pairs_requested = tb_get_i32(s, 0, INT32_MAX);
  t->pairs_overflowed = tb_get_i32(s, 0, 1);
  if (s->failed || !tb_pairs_grow(t, pcap)) return 0;
  t->pair_count = npair;
  tb_get_arrays(s, a, tb_pair_store_arrays(t, a), npair, NULL);
  tb_contact_store* c = &t->contacts;
  int32_t ccap = tb_get_i32(s, 1, INT32_MAX / 1024), nc = tb_get_i32(s, 0, ccap);
  c->requested = tb_get_i32(s, 0, INT32_MAX);
  c->overflowed = tb_get_i32(s, 0, 1);
  c->readback_valid = tb_get_i32(s, 0, 1);
  if (s->failed || !tb_contacts_grow(c, ccap)) return 0;
  c->count = nc;
  tb_get_arrays(s, a, tb_contact_field_arrays(&c->f, a), nc, NULL);
  tb_contacts_dirty(c, TB_STORE_ALL_GROUPS, 0, nc);
  /* pair lists: shape slots, except the body exclusions */
  if (!get_keys(s, &t->explicit_pairs, ns) || !get_keys(s, &t->shape_exclusions, ns) ||
      !get_keys(s, &t->body_exclusions, nb) || !get_keys(s, &t->contact_pairs, ns))
    return 0;
  /* matching frames */
  t->match.current = tb_get_i32(s, 0, 1);
  t->match.next_id = (uint32_t)tb_get_i32(s, INT32_MIN, INT32_MAX);
  for (int f = 0; f < 2 && !s->failed; ++f) {
    int32_t pairs = tb_get_i32(s, 0, INT32_MAX / 1024);
    int32_t points = tb_get_i32(s, 0, INT32_MAX / 1024);
    int32_t stored = tb_get_i32(s, 0, 1);
    if (s->failed || !tb_match_reserve(t, pairs) || !tb_match_reserve_points(t, points)) return 0;
    tb_match_frame* fr = &t->match.frame[f];
    fr->pair_count = pairs;
    fr->point_count = points;
    fr->stored = stored;
    tb_get_arrays(s, a, tb_match_pair_arrays(fr, a), pairs, NULL);
    tb_get_arrays(s, a, tb_match_point_arrays(fr, a), points, NULL);
  }
  /* per-body contact totals */
  int32_t nbc = tb_get_i32(s, 0, nb);
  if (s->failed) return 0;
  if (nbc > 0) {
    const tb_array_ref bc[] = {{(void**)&t->body_contact_wrench, 6 * sizeof(float)},
                               {(void**)&t->body_contact_generation, sizeof(int32_t)}};
    if (!tb_grow_arrays(bc, 2, 0, nbc)) return 0;
    t->body_contact_capacity = nbc;
    tb_get_arrays(s, bc, 2, nbc, NULL);
  }
  int32_t nend = tb_get_i32(s, 0, INT32_MAX / 1024);
  if (s->failed) return 0;
  if (nend > 0) {
    const tb_array_ref ea = {(void**)&t->round_sums.ended, sizeof(tb_round_ended)};
    if (!tb_grow_arrays(&ea, 1, 0, nend)) return 0;
    t->round_sums.ended_capacity = nend;
    tb_get(s, t->round_sums.ended, (size_t)nend * sizeof(tb_round_ended));
  }
  t->round_sums.ended_count = nend;
  if (!tb_solver_create(t) || !tb_solver_load(t, s) || !tb_mujoco_load(t, s) || !tb_kamino_load(t, s)) return 0;
  if (!tb_snapshot_get_observe(s, t)) return 0;
  /* joints */
  tb_joints* jt = &t->joints;
  int32_t nj = tb_get_i32(s, 0, TB_ID_INDEX_MASK), jcap = tb_get_i32(s, 0, TB_ID_INDEX_MASK + 1);
  jt->free_head = tb_get_i32(s, -1, nj - 1);
  jt->live = tb_get_i32(s, 0, nj);
  if (s->failed || nj > jcap) return s->failed = 1, 0;
  if (jcap > 0 && !tb_joints_grow(jt, jcap)) return 0;
  jt->count = nj;
  tb_get_arrays(s, a, tb_joint_store_arrays(jt, a), nj, NULL);
  if (!get_keys(s, &t->joint_pairs, nb)) return 0;
  if (!get_sleep(s, t, nc)) return 0;
  if (s->failed || s->pos != s->size || !consistent(t) || !values_valid(t)) return s->failed = 1, 0;
  return 1;
}

/* Checks and reads a snapshot into the zeroed world t; TB_OK, or the status with the message
 * recorded in w (the target) or the global error. t's storage is freed on failure. */
static tb_status read_snapshot(tb_world* w, tb_world* t, const void* bytes, int32_t size, int32_t threads, const char* fn) {
#define SNAPSHOT_ERROR_NAME(c, name) name,
  static const char* const names[] = {TB_SNAPSHOT_ERRORS(SNAPSHOT_ERROR_NAME)};
  int32_t e = tb_snapshot_check(bytes, size);
  if (e == TB_SNAPSHOT_OK) {
    tb_serial s = {NULL, (const uint8_t*)bytes + sizeof(snapshot_header), (size_t)size - sizeof(snapshot_header), 0, 0};
    t->error[0] = '\0'; /* values_valid's message, if any */
    int ok = get_payload(&s, t, threads);
    if (!ok) {
      char why[TB_ERROR_LEN];
      memcpy(why, t->error, sizeof why);
      tb_world_destroy_storage(t);
      s_last_error = s.failed ? TB_SNAPSHOT_CORRUPT : TB_SNAPSHOT_OK;
      if (!s.failed) return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "%s: out of memory for the snapshot's world", fn);
      if (why[0]) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: snapshot corrupt: %s", fn, why);
      return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: snapshot corrupt: its content is inconsistent at byte %zu", fn,
                           s.pos + sizeof(snapshot_header));
    }
    s_last_error = TB_SNAPSHOT_OK;
    return TB_OK;
  }
  s_last_error = e;
  static const char* const why[] = {
      "", "is shorter than its header says", "has no Tribo snapshot magic", "has another format version (this build reads version " VERSION_TEXT(TB_SNAPSHOT_VERSION) ")",
      "was written by a build with another storage layout", "checksum does not match its payload (bytes changed)",
      "", "is longer than its header says"};
  return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: snapshot %s: it %s", fn, names[e], why[e]);
}

tb_status tb_world_restore(tb_world_id world, const void* bytes, int32_t size) {
  GET_WORLD("restore");
  tb_world t;
  memset(&t, 0, sizeof t);
  t.last_stage = -1;
  tb_status st = read_snapshot(w, &t, bytes, size, w->def.thread_count, "restore");
  if (st != TB_OK) return st;
  /* swap: the new state keeps the world's id, scratch arena and job threads */
  tb_world old = *w;
  t.alive = w->alive;
  t.generation = w->generation;
  t.arena = w->arena;
  t.governor.fixed = w->governor.fixed; /* the world's setting, like its thread count; timing starts afresh */
  memset(&old.arena, 0, sizeof old.arena);
  *w = t;
  tb_undo_forget(w); /* the restored slots are not the last creation's */
  tb_world_destroy_storage(&old);
  return TB_OK;
}

tb_world_id tb_world_create_from_snapshot(const void* bytes, int32_t size, int32_t thread_count) {
  tb_world_id id;
  tb_world* w = tb_world_claim(&id);
  if (!w) return -tb_world_fail(NULL, TB_ERR_CAPACITY, "fromSnapshot: at most %d worlds may exist at once", TB_MAX_WORLDS);
  int32_t gen = w->generation;
  tb_status st = read_snapshot(NULL, w, bytes, size, thread_count, "fromSnapshot");
  if (st != TB_OK) {
    tb_world_release(w);
    return -st;
  }
  w->generation = gen;
  tb_undo_forget(w);
  tb_jobs_reserve(w->def.thread_count);
  tb_world_publish(w);
  return id;
}
