/* AABB update stage: world poses of the shapes and their bounds for the broad phase. */
#include "shape_bounds.h"

#include <math.h>
#include <string.h>

#include "../core/jobs.h"
#include "narrow_phase.h"

#define TB_SHAPE_CHUNK TB_CHUNK(64)

typedef struct bounds_ctx {
  tb_world* w;
  float h;     /* s: one step */
  int statics; /* the static bodies' shapes too (their inputs changed: tb_world_static_bounds_stale) */
} bounds_ctx;

/* Shape i's view (tb_shape_view) from its arrays and its body's, its world pose already written.
 * None before the collide() that first makes room for it (a body put to sleep through the API
 * before any step): that collide computes the static shapes, and with them every view. */
static TB_INLINE_HOT void shape_view(tb_world* w, int32_t i) {
  if (i >= w->shape_view_capacity) return;
  const tb_shapes* s = &w->shapes;
  tb_shape_view* x = &w->shape_views[i];
  x->pose = s->world_pose[i];
  memcpy(x->params, s->params + 4 * i, sizeof x->params);
  x->type = s->type[i];
  x->generation = s->generation[i];
  tb_distance_of_shape(w, i, x->distance);
  x->unused = 0;
  const float* v = w->bodies.f.linear_velocity + 3 * s->body[i];
  x->velocity = tb_v3(v[0], v[1], v[2]);
  x->frame = tb_shape_body_frame(w, i);
  x->data = s->data[i];
}

/* World pose and AABB of shape i fattened by the motion of one step h (linear and angular), the
 * speculative distance and the shape's share of the distance rule's detection distance; then its
 * view. */
static TB_INLINE_HOT void shape_bounds(tb_world* w, int32_t i, float h) {
  tb_shapes* s = &w->shapes;
  const tb_bodies* b = &w->bodies;
  float spec = w->def.solver.speculative_distance;
  int32_t body = s->body[i];
  tb_transform pose = tb_transform_mul(tb_body_pose(b, body), s->local[i]);
  s->world_pose[i] = pose;
  tb_shape_geom g;
  tb_shape_geom_load(s, i, &g);
  tb_vec3 lo, hi;
  tb_shape_aabb(&g, pose, &lo, &hi);
  const float* v = b->f.linear_velocity + 3 * body;
  const float* av = b->f.angular_velocity + 3 * body;
  float ext = 0.5f * tb_length(tb_sub(hi, lo));
  if (s->type[i] == TB_SHAPE_PLANE) ext = 0.0f;
  float grow = spec + h * (ext * sqrtf(av[0] * av[0] + av[1] * av[1] + av[2] * av[2]));
  /* each side's share of the distance rule's detection distance: PhysX its contact offset, the
   * others margin + gap (tb_distance_of_shape's two values) */
  float dist[2];
  tb_distance_of_shape(w, i, dist);
  grow += w->def.collision.distance_rule == TB_DISTANCE_PHYSX ? dist[1] : dist[0] + dist[1];
  if (w->def.collision.distance_rule == TB_DISTANCE_NEWTON) grow += w->def.collision.constant_gap;
  tb_vec3 d = tb_v3(v[0] * h, v[1] * h, v[2] * h);
  lo = tb_add(lo, tb_vmin(d, tb_v3(0, 0, 0)));
  hi = tb_add(hi, tb_vmax(d, tb_v3(0, 0, 0)));
  s->aabb_lower[i] = tb_sub(lo, tb_v3(grow, grow, grow));
  s->aabb_upper[i] = tb_add(hi, tb_v3(grow, grow, grow));
  shape_view(w, i);
}

/* Shapes [begin, end); each writes only its own slot. Under automatic sleep the shapes of a
 * sleeping body keep the bounds computed when it fell asleep (at rest: the same values); the
 * shapes of static bodies keep theirs until their inputs change (a level of 10 000 static tiles
 * would cost a pose and an AABB each per step; bench/RESULTS.md "perf27"). Their views likewise:
 * when the static shapes are computed (a new or restored world, a new shape), the sleeping ones'
 * views are written too, so that every live shape's view is this world's. */
static void bounds_job(int32_t begin, int32_t end, void* vctx) {
  const bounds_ctx* c = (const bounds_ctx*)vctx;
  tb_world* w = c->w;
  const tb_shapes* s = &w->shapes;
  const int32_t* type = w->bodies.f.body_type;
  int skip_sleeping = w->def.solver.sleep.mode != TB_SLEEP_OFF;
  for (int32_t i = begin; i < end; ++i) {
    if (s->type[i] < 0) continue;
    if (!c->statics && type[s->body[i]] == TB_BODY_STATIC) continue;
    if (skip_sleeping && w->bodies.f.asleep[s->body[i]]) {
      if (c->statics) shape_view(w, i);
      continue;
    }
    shape_bounds(w, i, c->h);
  }
}

void tb_update_body_bounds(tb_world* w, int32_t body, float h) {
  for (int32_t i = w->bodies.first_shape[body]; i >= 0; i = w->shapes.next[i]) shape_bounds(w, i, h);
}

void tb_update_body_views(tb_world* w, int32_t body) {
  for (int32_t i = w->bodies.first_shape[body]; i >= 0; i = w->shapes.next[i]) shape_view(w, i);
}

void tb_update_shape_bounds(tb_world* w, const tb_step_context* ctx) {
  bounds_ctx c = {w, ctx->dt, !w->static_bounds_valid};
  tb_parallel_for(w->shapes.count, TB_SHAPE_CHUNK, ctx->thread_count, bounds_job, &c);
  w->static_bounds_valid = 1;
}
