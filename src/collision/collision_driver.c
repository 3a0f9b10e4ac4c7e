/* collide(): shape poses and AABBs, broad phase, narrow phase, contact store, matching. */
#include <string.h>

#include "../core/jobs.h"
#include "../solver/solver.h"
#include "broad_phase.h"
#include "../model/material.h"
#include "contact_reduction.h"

#define TB_NARROW_CHUNK 32

typedef struct narrow_ctx {
  tb_world* w;
  float speculative;
  float h;
} narrow_ctx;

/* Per pair: the narrow-phase manifold, kept up to a separation that covers the relative motion
 * of one step plus the speculative distance, so fast bodies are caught before they tunnel. */
static void narrow_job(int32_t begin, int32_t end, void* vctx) {
  narrow_ctx* ctx = (narrow_ctx*)vctx;
  tb_world* w = ctx->w;
  const tb_shapes* s = &w->shapes;
  const tb_bodies* b = &w->bodies;
  for (int32_t i = begin; i < end; ++i) {
    int32_t a = w->pairs[i].shape0, c = w->pairs[i].shape1;
    tb_shape_geom ga = tb_shape_geom_of(s, a), gc = tb_shape_geom_of(s, c);
    const float* va = b->f.linear_velocity + 3 * s->body[a];
    const float* vc = b->f.linear_velocity + 3 * s->body[c];
    tb_vec3 dv = tb_v3(vc[0] - va[0], vc[1] - va[1], vc[2] - va[2]);
    float margin = ctx->speculative + tb_length(dv) * ctx->h;
    tb_manifold* m = &w->manifolds[i];
    tb_collide(&ga, s->world_pose[a], &gc, s->world_pose[c], margin, m);
    /* the configured bound on points per pair (points_found keeps the count before) */
    tb_manifold_reduce(m, w->def.collision.max_points_per_pair);
    int active = (w->pairs[i].flags & TB_PAIR_SOLVE) != 0;
    for (int32_t j = 0; j < m->point_count; ++j) m->points[j].active = active;
    tb_combine_materials(w, a, c, &w->manifold_material[i]);
  }
}

/* World poses and AABBs fattened by the motion of one step (linear and angular) plus the
 * speculative distance. */
static void update_shapes(tb_world* w) {
  tb_shapes* s = &w->shapes;
  const tb_bodies* b = &w->bodies;
  float h = w->def.timestep, spec = w->def.solver.speculative_distance;
  for (int32_t i = 0; i < s->count; ++i) {
    if (s->type[i] < 0) continue;
    int32_t body = s->body[i];
    tb_transform pose = tb_transform_mul(tb_body_pose(b, body), s->local[i]);
    s->world_pose[i] = pose;
    tb_shape_geom g = tb_shape_geom_of(s, i);
    tb_vec3 lo, hi;
    tb_shape_aabb(&g, pose, &lo, &hi);
    const float* v = b->f.linear_velocity + 3 * body;
    const float* av = b->f.angular_velocity + 3 * body;
    float ext = 0.5f * tb_length(tb_sub(hi, lo));
    if (s->type[i] == TB_SHAPE_PLANE) ext = 0.0f;
    float grow = spec + h * (ext * sqrtf(av[0] * av[0] + av[1] * av[1] + av[2] * av[2]));
    tb_vec3 d = tb_v3(v[0] * h, v[1] * h, v[2] * h);
    lo = tb_add(lo, tb_vmin(d, tb_v3(0, 0, 0)));
    hi = tb_add(hi, tb_vmax(d, tb_v3(0, 0, 0)));
    s->aabb_lower[i] = tb_sub(lo, tb_v3(grow, grow, grow));
    s->aabb_upper[i] = tb_add(hi, tb_v3(grow, grow, grow));
  }
}

static inline uint64_t pair_key(tb_pair p) { return ((uint64_t)(uint32_t)p.shape0 << 32) | (uint32_t)p.shape1; }

/* Warm-start values by geometric correspondence: same shape pair and same feature id. Both the
 * cache and the new pair list are sorted by key, so one merge pass matches them. */
static void match_manifolds(tb_world* w) {
  const tb_manifold_cache* c = &w->cache;
  int32_t k = 0;
  for (int32_t i = 0; i < w->pair_count; ++i) {
    uint64_t key = pair_key(w->pairs[i]);
    while (k < c->pair_count && c->key[k] < key) ++k;
    const tb_manifold* m = &w->manifolds[i];
    int found = k < c->pair_count && c->key[k] == key && w->def.solver.warm_starting;
    for (int32_t j = 0; j < m->point_count; ++j) {
      float pn = 0.0f;
      tb_vec3 pt = tb_v3(0, 0, 0);
      if (found) {
        for (int32_t q = 0; q < c->count[k]; ++q)
          if (c->feature[4 * k + q] == m->points[j].feature_id) {
            pn = c->normal_impulse[4 * k + q];
            pt = c->friction_impulse[4 * k + q];
            break;
          }
      }
      w->warm_normal[4 * i + j] = pn;
      w->warm_friction[4 * i + j] = pt;
    }
  }
}

/* Public contact store: every manifold point in pair order, up to the capacity. */
static void fill_store(tb_world* w) {
  tb_contact_store* st = &w->contacts;
  tb_contact_fields* f = &st->f;
  const tb_shapes* s = &w->shapes;
  const tb_bodies* b = &w->bodies;
  int32_t n = 0, requested = 0;
  for (int32_t i = 0; i < w->pair_count; ++i) {
    const tb_manifold* m = &w->manifolds[i];
    w->manifold_contact[i] = m->point_count > 0 && n < st->capacity ? n : -1;
    int32_t s0 = w->pairs[i].shape0, s1 = w->pairs[i].shape1;
    int32_t b0 = s->body[s0], b1 = s->body[s1];
    int32_t id0 = b->f.body_type[b0] == TB_BODY_STATIC ? -1 : tb_make_id(b0, b->generation[b0]);
    int32_t id1 = b->f.body_type[b1] == TB_BODY_STATIC ? -1 : tb_make_id(b1, b->generation[b1]);
    tb_vec3 t0, t1;
    tb_basis(m->normal, &t0, &t1);
    for (int32_t j = 0; j < m->point_count; ++j, ++requested) {
      if (n >= st->capacity) continue;
      const tb_manifold_point* p = &m->points[j];
      f->shape0[n] = tb_make_id(s0, s->generation[s0]);
      f->shape1[n] = tb_make_id(s1, s->generation[s1]);
      f->body0[n] = id0;
      f->body1[n] = id1;
      tb_vec3 mid = tb_scale(tb_add(p->point0, p->point1), 0.5f);
      memcpy(f->point + 3 * n, &mid, sizeof mid);
      memcpy(f->normal + 3 * n, &m->normal, sizeof m->normal);
      memcpy(f->tangent0 + 3 * n, &t0, sizeof t0);
      memcpy(f->tangent1 + 3 * n, &t1, sizeof t1);
      f->separation[n] = p->separation;
      f->feature_id[n] = p->feature_id;
      f->normal_impulse[n] = 0.0f;
      f->tangent_impulse[2 * n] = 0.0f;
      f->tangent_impulse[2 * n + 1] = 0.0f;
      memset(f->force + 3 * n, 0, 3 * sizeof(float));
      ++n;
    }
  }
  st->count = n;
  st->requested = requested;
  st->overflowed = requested > st->capacity;
  st->readback_valid = 0;
}

tb_status tb_collide_world(tb_world* w) {
  tb_jobs_reset_usage();
  size_t scratch = (size_t)w->shapes.count + 64;
  if (!tb_arena_reserve(&w->arena, scratch))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "collide: out of memory for scratch");
  update_shapes(w);
  tb_status st = tb_broad_phase(w);
  if (st != TB_OK) return st;
  narrow_ctx ctx = {w, w->def.solver.speculative_distance, w->def.timestep};
  tb_parallel_for(w->pair_count, TB_NARROW_CHUNK, w->def.thread_count, narrow_job, &ctx);
  match_manifolds(w);
  fill_store(w);
  w->collided = 1;
  return TB_OK;
}
