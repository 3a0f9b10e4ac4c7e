/* Contact store stage: the manifolds of collide() as public contact records. */
#include "contact_store.h"

#include <math.h>
#include <string.h>

#include "../core/jobs.h"
#include "../core/simd.h"
#include "material.h"

_Static_assert((1 << TB_STORE_FRICTION) == TB_CONTACT_PARAM_FRICTION && (1 << TB_STORE_RESTITUTION) == TB_CONTACT_PARAM_RESTITUTION &&
                   (1 << TB_STORE_SPRING) == TB_CONTACT_PARAM_SPRING && (1 << TB_STORE_SPIN) == TB_CONTACT_PARAM_SPIN &&
                   (1 << TB_STORE_PENALTY) == TB_CONTACT_PARAM_PENALTY && (1 << TB_STORE_MUJOCO) == TB_CONTACT_PARAM_MUJOCO,
               "the material groups follow the TB_CONTACT_PARAM_* bits");

static void put3(float* dst, int32_t n, tb_vec3 v) { memcpy(dst + 3 * n, &v, sizeof v); }

/* count floats of value v from dst, four at a time */
static void fill_f32(float* dst, float v, int32_t count) {
  const tb_f4 v4 = tb_f4_splat(v);
  int32_t i = 0;
  for (; i + 4 <= count; i += 4) tb_f4_store(dst + i, v4);
  for (; i < count; ++i) dst[i] = v;
}

/* What records [n0, n0 + count) hold until something fills them: impulses and force zero until
 * the solve; the convention-specific readback NaN / -1 (not computed) until a solver of that
 * convention fills it, so another preset's solve never leaves stale or fake-zero values; the
 * material parameters NaN (condim 0) where the combine rule defines none. One loop per array
 * over contiguous records, instead of ~50 scattered stores per record. */
static void impulse_defaults(tb_contact_fields* f, int32_t n0, int32_t count) {
  fill_f32(f->normal_impulse + n0, 0.0f, count);
  fill_f32(f->tangent_impulse + 2 * n0, 0.0f, 2 * count);
  fill_f32(f->force + 3 * n0, 0.0f, 3 * count);
}

static void group_defaults(tb_contact_fields* f, int g, int32_t n0, int32_t count) {
  const float nan = NAN;
  const size_t ints = (size_t)count * sizeof(int32_t); /* the int fields: bytes 0x00 = 0, 0xff = -1 */
  switch (g) {
    case TB_STORE_FRICTION:
      fill_f32(f->static_friction + n0, nan, count);
      fill_f32(f->dynamic_friction + n0, nan, count);
      break;
    case TB_STORE_RESTITUTION: fill_f32(f->restitution + n0, nan, count); break;
    case TB_STORE_SPRING:
      fill_f32(f->stiffness + n0, nan, count);
      fill_f32(f->damping + n0, nan, count);
      break;
    case TB_STORE_SPIN: fill_f32(f->spin_friction + 2 * n0, nan, 2 * count); break;
    case TB_STORE_PENALTY: fill_f32(f->penalty_friction + 2 * n0, nan, 2 * count); break;
    case TB_STORE_MUJOCO:
      memset(f->condim + n0, 0, ints);
      fill_f32(f->solref + 2 * n0, nan, 2 * count);
      fill_f32(f->solimp + 5 * n0, nan, 5 * count);
      fill_f32(f->adhesion + n0, nan, count);
      fill_f32(f->friction + 5 * n0, nan, 5 * count);
      fill_f32(f->solref_friction + 2 * n0, nan, 2 * count);
      break;
    case TB_STORE_PHYSX_READBACK:
      memset(f->anchor + n0, 0xff, ints);
      fill_f32(f->friction_anchor_impulse + 3 * n0, nan, 3 * count);
      break;
    case TB_STORE_NEWTON_READBACK:
      fill_f32(f->wrench + 6 * n0, nan, 6 * count);
      fill_f32(f->readback_scale + n0, nan, count);
      break;
    case TB_STORE_MUJOCO_READBACK:
      fill_f32(f->mujoco_force + 6 * n0, nan, 6 * count);
      memset(f->efc_address + n0, 0xff, ints);
      break;
    default: /* TB_STORE_SLEEPING */
      memset(f->sleeping + n0, 0, ints);
      break;
  }
}

/* Group g's defaults over the records of [n0, n1) where it may hold other values. */
static void dirty_defaults(tb_contact_store* st, int g, int32_t n0, int32_t n1) {
  int32_t b = n0 > st->dirty_begin[g] ? n0 : st->dirty_begin[g];
  int32_t e = n1 < st->dirty_end[g] ? n1 : st->dirty_end[g];
  if (e > b) group_defaults(&st->f, g, b, e - b);
}

/* The defaults over records [n0, n0 + count): the impulses always, each other group only where it
 * may hold other values. */
static void store_defaults(tb_contact_store* st, int32_t n0, int32_t count) {
  impulse_defaults(&st->f, n0, count);
  for (int g = 0; g < TB_STORE_GROUPS; ++g) dirty_defaults(st, g, n0, n0 + count);
}

/* The parameters the combine rule defines for contact n (store_defaults wrote the rest). */
static void store_material(tb_contact_fields* f, int32_t n, const tb_contact_material* m) {
  int d = m->defined;
  f->material_flags[n] = (uint32_t)m->flags;
  if (d & TB_CONTACT_PARAM_FRICTION) {
    f->static_friction[n] = m->static_friction;
    f->dynamic_friction[n] = m->dynamic_friction;
  }
  if (d & TB_CONTACT_PARAM_RESTITUTION) f->restitution[n] = m->restitution;
  if (d & TB_CONTACT_PARAM_SPRING) {
    f->stiffness[n] = m->stiffness;
    f->damping[n] = m->damping;
  }
  if (d & TB_CONTACT_PARAM_SPIN) {
    f->spin_friction[2 * n] = m->torsional_friction;
    f->spin_friction[2 * n + 1] = m->rolling_friction;
  }
  if (d & TB_CONTACT_PARAM_PENALTY) {
    f->penalty_friction[2 * n] = m->kf;
    f->penalty_friction[2 * n + 1] = m->ka;
  }
  if (d & TB_CONTACT_PARAM_MUJOCO) {
    f->condim[n] = m->condim;
    for (int i = 0; i < 2; ++i) f->solref[2 * n + i] = m->solref[i];
    for (int i = 0; i < 5; ++i) f->solimp[5 * n + i] = m->solimp[i];
    f->adhesion[n] = m->adhesion;
    for (int i = 0; i < 5; ++i) f->friction[5 * n + i] = m->friction[i];
    for (int i = 0; i < 2; ++i) f->solref_friction[2 * n + i] = m->solref_friction[i];
  }
}

tb_status tb_contact_store_reserve(tb_world* w) {
  tb_contact_store* st = &w->contacts;
  /* a point's record is its index in the matching frame (tb_match_count_points' prefix): the
   * matching wrote each manifold's first record into manifold_contact */
  int32_t n = w->match.frame[w->match.current].point_count;
  w->fresh_contacts = n;
  n += w->sleep_contacts.count; /* kept records of sleeping pairs, after the fresh ones */
  st->count = st->requested = n;
  st->overflowed = 0;
  st->readback_valid = 0;
  st->grew = n > st->capacity;
  if (!st->grew) return TB_OK;
  int32_t cap = st->capacity;
  while (cap < n) cap = cap > INT32_MAX / 2 ? n : 2 * cap;
  if (!tb_contacts_grow(st, cap)) {
    st->count = 0;
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "collide: out of memory for %d contacts", cap);
  }
  return TB_OK;
}

#define TB_FILL_CHUNK TB_CHUNK(64)

/* Pairs [begin, end): every manifold point at its pair's index from tb_contact_store_reserve,
 * with the record of the distance rule and the matching (current match frame). */
static void fill_job(int32_t begin, int32_t end, void* vctx) {
  tb_world* w = (tb_world*)vctx;
  tb_contact_store* st = &w->contacts;
  tb_contact_fields* f = &st->f;
  const tb_shapes* s = &w->shapes;
  const tb_bodies* b = &w->bodies;
  const tb_match_frame* frame = &w->match.frame[w->match.current];
  /* the chunk's records: from its first pair with points to its last one's end */
  int32_t first = begin, last = end - 1;
  while (first < end && w->pairs[first].points == 0) ++first;
  if (first == end) return;
  while (w->pairs[last].points == 0) --last;
  int32_t n0 = w->manifold_contact[first];
  store_defaults(st, n0, w->manifold_contact[last] + w->pairs[last].points - n0);
  for (int32_t i = first; i <= last; ++i) {
    if (w->pairs[i].points == 0) continue;
    const tb_manifold* m = &w->manifolds[i];
    const tb_distance_pair* dp = &frame->dist[i];
    int32_t n = w->manifold_contact[i];
    int32_t s0 = w->pairs[i].shape0, s1 = w->pairs[i].shape1;
    int32_t b0 = s->body[s0], b1 = s->body[s1];
    int32_t id0 = b->f.body_type[b0] == TB_BODY_STATIC ? -1 : tb_make_id(b0, b->generation[b0]);
    int32_t id1 = b->f.body_type[b1] == TB_BODY_STATIC ? -1 : tb_make_id(b1, b->generation[b1]);
    tb_vec3 t0, t1;
    tb_basis(m->normal, &t0, &t1);
    /* PhysX reports the normal from shape 1 to shape 0 */
    tb_vec3 reported = dp->rule == TB_DISTANCE_PHYSX ? tb_neg(m->normal) : m->normal;
    for (int32_t j = 0; j < m->point_count; ++j) {
      const tb_manifold_point* p = &m->points[j];
      f->shape0[n] = tb_make_id(s0, s->generation[s0]);
      f->shape1[n] = tb_make_id(s1, s->generation[s1]);
      f->body0[n] = id0;
      f->body1[n] = id1;
      put3(f->point, n, tb_scale(tb_add(p->point0, p->point1), 0.5f));
      put3(f->normal, n, m->normal);
      put3(f->tangent0, n, t0);
      put3(f->tangent1, n, t1);
      f->separation[n] = tb_dot(tb_sub(p->point1, p->point0), m->normal);
      f->feature_id[n] = p->feature_id;
      /* -- fill section: distance rule and record -- */
      f->distance_rule[n] = dp->rule;
      f->distance[n] = p->separation;
      f->margin[n] = dp->margin;
      f->gap[n] = dp->gap;
      f->active[n] = dp->rule == TB_DISTANCE_NEWTON ? (p->active && p->separation < 0.0f) : p->active;
      f->excluded[n] = p->excluded;
      put3(f->point0, n, p->point0);
      put3(f->point1, n, p->point1);
      put3(f->local_point0, n, frame->local0[n]);
      put3(f->local_point1, n, frame->local1[n]);
      put3(f->reported_normal, n, reported);
      f->reduced[n] = frame->reduced[i];
      f->match_key[n] = frame->id[n];
      f->match_index[n] = frame->previous[n];
      f->age[n] = frame->age[n];
      store_material(f, n, tb_pair_material(w, i));
      ++n;
    }
  }
}

void tb_contact_store_fill(tb_world* w, const tb_step_context* step) {
  tb_contact_store* st = &w->contacts;
  tb_parallel_for(w->pair_count, TB_FILL_CHUNK, step->thread_count, fill_job, w);
  /* the chunks wrote the defaults of records [0, fresh); those after them get them here (the next
   * stage appends the sleeping pairs' records there); then a group holds other values only in the
   * fresh records, where the combine rule defines it */
  int32_t fresh = w->fresh_contacts;
  uint32_t params = (uint32_t)tb_combine_rule_params(w->def.solver.combine_rule);
  for (int g = 0; g < TB_STORE_GROUPS; ++g) {
    dirty_defaults(st, g, fresh, st->capacity);
    st->dirty_begin[g] = st->dirty_end[g] = 0;
    if (g <= TB_STORE_MUJOCO && (params & (1u << g))) tb_contacts_dirty(st, 1u << g, 0, fresh);
  }
}

void tb_contact_store_owe(tb_world* w) {
  w->match.frame[w->match.current].stored = 1;
  w->contacts.owed = TB_OWE_RECORDS;
}

void tb_contact_store_solving(tb_world* w) {
  static const uint32_t groups[TB_SOLVER_TYPE_COUNT] = {
      [TB_SOLVER_PGS] = 1u << TB_STORE_PHYSX_READBACK,    [TB_SOLVER_TGS] = 1u << TB_STORE_PHYSX_READBACK,
      [TB_SOLVER_XPBD] = 1u << TB_STORE_NEWTON_READBACK,  [TB_SOLVER_PENALTY] = 1u << TB_STORE_NEWTON_READBACK,
      [TB_SOLVER_MUJOCO] = 1u << TB_STORE_MUJOCO_READBACK, [TB_SOLVER_KAMINO] = 1u << TB_STORE_NEWTON_READBACK};
  int32_t solver = w->def.solver.solver;
  /* an unknown solver (none passes the world's checks) could write anything */
  tb_contacts_dirty(&w->contacts, solver >= 0 && solver < TB_SOLVER_TYPE_COUNT ? groups[solver] : TB_STORE_ALL_GROUPS, 0,
                    w->contacts.count);
}

void tb_readback_set(tb_world* w, int32_t convention, int32_t flags, int32_t substeps, float scale) {
  tb_readback_info* rb = &w->readback;
  w->contacts.readback_valid = 1;
  memset(rb, 0, sizeof *rb);
  rb->convention = convention;
  rb->valid = 1;
  rb->per_contact_force = (flags & TB_RB_PER_CONTACT) != 0;
  rb->includes_friction = (flags & TB_RB_FRICTION) != 0;
  rb->includes_restitution = (flags & TB_RB_RESTITUTION) != 0;
  rb->includes_torsional = (flags & TB_RB_TORSIONAL) != 0;
  rb->substeps = substeps;
  rb->scale = scale;
  rb->per_body_force = (flags & TB_RB_PER_BODY) != 0;
}
