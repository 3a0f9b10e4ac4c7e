/* Contact store stage: the manifolds of collide() as public contact records. */
#include "contact_store.h"

#include <math.h>
#include <string.h>

#include "../core/jobs.h"

static void put3(float* dst, int32_t n, tb_vec3 v) { memcpy(dst + 3 * n, &v, sizeof v); }

/* The combined material of contact n, NaN for the parameters its rule does not define. */
static void store_material(tb_contact_fields* f, int32_t n, const tb_contact_material* m) {
  const float nan = NAN;
  int d = m->defined;
  int fr = (d & TB_CONTACT_PARAM_FRICTION) != 0, sp = (d & TB_CONTACT_PARAM_SPRING) != 0;
  int sn = (d & TB_CONTACT_PARAM_SPIN) != 0, pe = (d & TB_CONTACT_PARAM_PENALTY) != 0;
  f->static_friction[n] = fr ? m->static_friction : nan;
  f->dynamic_friction[n] = fr ? m->dynamic_friction : nan;
  f->restitution[n] = (d & TB_CONTACT_PARAM_RESTITUTION) ? m->restitution : nan;
  f->stiffness[n] = sp ? m->stiffness : nan;
  f->damping[n] = sp ? m->damping : nan;
  f->spin_friction[2 * n] = sn ? m->torsional_friction : nan;
  f->spin_friction[2 * n + 1] = sn ? m->rolling_friction : nan;
  f->penalty_friction[2 * n] = pe ? m->kf : nan;
  f->penalty_friction[2 * n + 1] = pe ? m->ka : nan;
  f->material_flags[n] = (uint32_t)m->flags;
  int mj = (d & TB_CONTACT_PARAM_MUJOCO) != 0;
  f->condim[n] = mj ? m->condim : 0;
  for (int i = 0; i < 2; ++i) f->solref[2 * n + i] = mj ? m->solref[i] : nan;
  for (int i = 0; i < 5; ++i) f->solimp[5 * n + i] = mj ? m->solimp[i] : nan;
  f->adhesion[n] = mj ? m->adhesion : nan;
  for (int i = 0; i < 5; ++i) f->friction[5 * n + i] = mj ? m->friction[i] : nan;
  for (int i = 0; i < 2; ++i) f->solref_friction[2 * n + i] = mj ? m->solref_friction[i] : nan;
}

tb_status tb_contact_store_reserve(tb_world* w) {
  tb_contact_store* st = &w->contacts;
  int32_t n = 0;
  for (int32_t i = 0; i < w->pair_count; ++i) {
    int32_t c = w->manifolds[i].point_count;
    w->manifold_contact[i] = c > 0 ? n : -1;
    n += c;
  }
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

#define TB_FILL_CHUNK 64

/* Pairs [begin, end): every manifold point at its pair's index from tb_contact_store_reserve,
 * with the record of the distance rule and the matching (current match frame). */
static void fill_job(int32_t begin, int32_t end, void* vctx) {
  tb_world* w = (tb_world*)vctx;
  tb_contact_store* st = &w->contacts;
  tb_contact_fields* f = &st->f;
  const tb_shapes* s = &w->shapes;
  const tb_bodies* b = &w->bodies;
  tb_match_frame* frame = &w->match.frame[w->match.current];
  for (int32_t i = begin; i < end; ++i) {
    const tb_manifold* m = &w->manifolds[i];
    if (m->point_count == 0) continue;
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
      int32_t k = 4 * i + j;
      frame->store[k] = n;
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
      f->normal_impulse[n] = 0.0f;
      f->tangent_impulse[2 * n] = 0.0f;
      f->tangent_impulse[2 * n + 1] = 0.0f;
      memset(f->force + 3 * n, 0, 3 * sizeof(float));
      /* convention-specific readback: NaN / -1 (not computed) until a solver of that convention
       * fills it, so another preset's solve never leaves stale or fake-zero values */
      for (int q = 0; q < 6; ++q) f->wrench[6 * n + q] = NAN;
      f->readback_scale[n] = NAN;
      f->anchor[n] = -1;
      for (int q = 0; q < 3; ++q) f->friction_anchor_impulse[3 * n + q] = NAN;
      for (int q = 0; q < 6; ++q) f->mujoco_force[6 * n + q] = NAN;
      f->efc_address[n] = -1;
      /* -- fill section: distance rule and record -- */
      f->distance_rule[n] = dp->rule;
      f->distance[n] = p->separation;
      f->margin[n] = dp->margin;
      f->gap[n] = dp->gap;
      f->active[n] = dp->rule == TB_DISTANCE_NEWTON ? (p->active && p->separation < 0.0f) : p->active;
      f->excluded[n] = p->excluded;
      put3(f->point0, n, p->point0);
      put3(f->point1, n, p->point1);
      put3(f->local_point0, n, frame->local0[k]);
      put3(f->local_point1, n, frame->local1[k]);
      put3(f->reported_normal, n, reported);
      f->reduced[n] = frame->reduced[i];
      f->match_key[n] = frame->id[k];
      f->match_index[n] = frame->previous[k];
      f->age[n] = frame->age[k];
      f->sleeping[n] = 0;
      store_material(f, n, &w->manifold_material[i]);
      ++n;
    }
  }
}

void tb_contact_store_fill(tb_world* w, const tb_step_context* step) {
  tb_parallel_for(w->pair_count, TB_FILL_CHUNK, step->thread_count, fill_job, w);
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
