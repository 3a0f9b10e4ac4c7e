/* Newton solvers: body and contact setup, the rigid-body predictor, and the per-body contact
 * totals they publish in the world (body_contact_wrench, read by observe/). */
#include <math.h>
#include <string.h>

#include "../model/distance.h"
#include "../model/material.h"
#include "newton.h"
#include "solver.h"

void tb_newton_destroy(tb_world* w) {
  tb_newton_data* d = w->newton;
  if (d) {
    tb_free(d->bodies, (size_t)d->body_capacity * sizeof(tb_newton_body));
    tb_free(d->rest_dv, (size_t)d->body_capacity * sizeof(tb_vec3));
    tb_free(d->rest_dw, (size_t)d->body_capacity * sizeof(tb_vec3));
    tb_free(d->rest_count, (size_t)d->body_capacity * sizeof(int32_t));
    tb_free(d->penalty_check, (size_t)d->body_capacity * sizeof(tb_penalty_check));
    tb_free(d->contacts, (size_t)d->contact_capacity * sizeof(tb_newton_contact));
    tb_free(d->rest_order, (size_t)d->contact_capacity * sizeof(int32_t));
    tb_free(d->rest_tmp, (size_t)d->contact_capacity * sizeof(int32_t));
    tb_free(d->body_of_slot, (size_t)d->slot_capacity * sizeof(int32_t));
    tb_free(d, sizeof *d);
    w->newton = NULL;
  }
  tb_free(w->body_contact_wrench, 6 * (size_t)w->body_contact_capacity * sizeof(float));
  tb_free(w->body_contact_generation, (size_t)w->body_contact_capacity * sizeof(int32_t));
  w->body_contact_wrench = NULL;
  w->body_contact_generation = NULL;
  w->body_contact_capacity = 0;
}

tb_mat3 tb_newton_inv_inertia_world(const tb_newton_data* d, int32_t k) {
  if (k < 0 || !d->bodies[k].dynamic) return tb_mat3_zero();
  tb_mat3 r = tb_mat3_from_quat(d->bodies[k].q);
  return tb_mat3_mul(tb_mat3_mul(r, d->bodies[k].inv_inertia), tb_mat3_transpose(r));
}

float tb_newton_separation(const tb_newton_data* d, const tb_newton_contact* c) {
  return tb_newton_separation_at(c, tb_newton_anchor(d, c->a, c->ca), tb_newton_anchor(d, c->b, c->cb));
}

/* Radius (m) a sphere or capsule adds around its core (centre or segment); 0 for the other shapes. */
static float shape_radius(const tb_shapes* s, int32_t slot) {
  int32_t t = s->type[slot];
  return t == TB_SHAPE_SPHERE || t == TB_SHAPE_CAPSULE ? s->params[4 * slot] : 0.0f;
}

float tb_newton_max_penetration(const tb_newton_data* d) {
  float worst = 0.0f;
  for (int32_t i = 0; i < d->contact_count; ++i) {
    float s = tb_newton_separation(d, &d->contacts[i]);
    if (-s > worst) worst = -s;
  }
  return worst;
}

tb_status tb_newton_setup(tb_world* w, const char* fn) {
  if (!w->newton) {
    w->newton = (tb_newton_data*)tb_alloc_zero(sizeof(tb_newton_data));
    if (!w->newton) return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "%s: out of memory for the solver", fn);
  }
  tb_newton_data* d = w->newton;
  tb_bodies* bodies = &w->bodies;
  const tb_shapes* shapes = &w->shapes;
  int32_t nb = 0, nc = 0;
  for (int32_t i = 0; i < bodies->count; ++i) {
    int32_t t = bodies->f.body_type[i];
    nb += t == TB_BODY_DYNAMIC || t == TB_BODY_KINEMATIC;
  }
  for (int32_t m = 0; m < w->pair_count; ++m) nc += w->pairs[m].active;
  const tb_array_ref ba[] = {{(void**)&d->bodies, sizeof(tb_newton_body)}, {(void**)&d->rest_dv, sizeof(tb_vec3)},
                             {(void**)&d->rest_dw, sizeof(tb_vec3)}, {(void**)&d->rest_count, sizeof(int32_t)},
                             {(void**)&d->penalty_check, sizeof(tb_penalty_check)}};
  const tb_array_ref ca[] = {{(void**)&d->contacts, sizeof(tb_newton_contact)}, {(void**)&d->rest_order, sizeof(int32_t)},
                             {(void**)&d->rest_tmp, sizeof(int32_t)}};
  const tb_array_ref sa = {(void**)&d->body_of_slot, sizeof(int32_t)};
  const tb_array_ref wa[] = {{(void**)&w->body_contact_wrench, 6 * sizeof(float)},
                             {(void**)&w->body_contact_generation, sizeof(int32_t)}};
  if (!tb_grow_capacity(ba, 5, &d->body_capacity, nb) || !tb_grow_capacity(ca, 3, &d->contact_capacity, nc) ||
      !tb_grow_capacity(&sa, 1, &d->slot_capacity, bodies->count) ||
      !tb_grow_capacity(wa, 2, &w->body_contact_capacity, bodies->count))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "%s: out of memory for %d bodies and %d contacts", fn, nb, nc);

  nb = 0;
  for (int32_t i = 0; i < bodies->count; ++i) {
    int32_t t = bodies->f.body_type[i];
    if ((t != TB_BODY_DYNAMIC && t != TB_BODY_KINEMATIC) || bodies->f.asleep[i]) { d->body_of_slot[i] = -1; continue; }
    d->body_of_slot[i] = nb;
    tb_newton_body* b = &d->bodies[nb++];
    memset(b, 0, sizeof *b);
    tb_transform x = tb_body_pose(bodies, i);
    b->slot = i;
    b->dynamic = t == TB_BODY_DYNAMIC;
    b->inv_mass = b->dynamic ? bodies->inv_mass[i] : 0.0f;
    b->inertia = bodies->inertia_local[i];
    b->inv_inertia = b->dynamic ? bodies->inv_inertia_local[i] : tb_mat3_zero();
    b->q = b->q0 = x.q;
    b->x = b->x0 = tb_transform_point(x, bodies->local_center[i]);
    const float* v = bodies->f.linear_velocity + 3 * i;
    const float* av = bodies->f.angular_velocity + 3 * i;
    b->v = b->v0 = tb_v3(v[0], v[1], v[2]);
    b->w = b->w0 = tb_v3(av[0], av[1], av[2]);
  }
  d->body_count = nb;

  /* overrides: only those set since this collide() count; otherwise every one is unset */
  tb_contact_fields* f = &w->contacts.f;
  if (!w->overrides_pending) {
    size_t n = (size_t)w->contacts.count;
    memset(f->override_stiffness, 0, n * sizeof(float));
    memset(f->override_damping, 0, n * sizeof(float));
    memset(f->friction_scale, 0, n * sizeof(float));
  }
  const tb_newton_params* np = &w->def.solver.newton;
  nc = 0;
  for (int32_t m = 0; m < w->pair_count; ++m) {
    const tb_manifold* mf = &w->manifolds[m];
    int32_t s0 = w->pairs[m].shape0, s1 = w->pairs[m].shape1;
    int32_t a = d->body_of_slot[shapes->body[s0]], b = d->body_of_slot[shapes->body[s1]];
    const tb_contact_material* mat = tb_pair_material(w, m);
    const float margin = tb_distance_pair_of(w, s0, s1, 0.0f).margin; /* m: the record's margin sum */
    for (int32_t j = 0; j < mf->point_count; ++j) {
      const tb_manifold_point* mp = &mf->points[j];
      if (!mp->active) continue;
      tb_newton_contact* c = &d->contacts[nc++];
      memset(c, 0, sizeof *c);
      c->pair = m;
      c->point = j;
      int32_t k = w->manifold_contact[m] < 0 ? -1 : w->manifold_contact[m] + j;
      c->store = k >= 0 && k < w->contacts.count ? k : -1;
      c->a = a;
      c->b = b;
      c->n = mf->normal;
      /* surface points carried by the bodies: the separation follows their motion */
      c->la = a >= 0 ? tb_inv_rotate(d->bodies[a].q, tb_sub(mp->point0, d->bodies[a].x)) : mp->point0;
      c->lb = b >= 0 ? tb_inv_rotate(d->bodies[b].q, tb_sub(mp->point1, d->bodies[b].x)) : mp->point1;
      /* core anchors: shape0's interior is along −n, shape1's along +n (by the radius) */
      float r0 = shape_radius(shapes, s0), r1 = shape_radius(shapes, s1);
      tb_vec3 core0 = tb_mul_add(mp->point0, -r0, mf->normal), core1 = tb_mul_add(mp->point1, r1, mf->normal);
      /* thickness (newton-e3 §2: effective radius plus margin): the record's margin sum, split
       * per shape under the Newton rule, else half each (MuJoCo margin, PhysX rest offsets) */
      c->ta = r0 + 0.5f * margin;
      c->tb = r1 + 0.5f * margin;
      if (w->def.collision.distance_rule == TB_DISTANCE_NEWTON) { c->ta = r0 + shapes->margin[s0]; c->tb = r1 + shapes->margin[s1]; }
      c->ca = a >= 0 ? tb_inv_rotate(d->bodies[a].q, tb_sub(core0, d->bodies[a].x)) : core0;
      c->cb = b >= 0 ? tb_inv_rotate(d->bodies[b].q, tb_sub(core1, d->bodies[b].x)) : core1;
      c->mu = mat->dynamic_friction;
      c->mu_torsional = mat->torsional_friction;
      c->mu_rolling = mat->rolling_friction;
      c->restitution = mat->restitution;
      /* a pair material without penalty parameters (ke = 0) takes the world's */
      int own = mat->ke > 0.0f;
      c->ke = own ? mat->ke : np->ke;
      c->kd = own ? mat->kd : np->kd;
      c->kf = own ? mat->kf : np->kf;
      c->ka = own ? mat->ka : np->ka;
      if (c->store >= 0) {
        if (f->override_stiffness[c->store] > 0.0f) c->ke = f->override_stiffness[c->store];
        if (f->override_damping[c->store] > 0.0f) c->kd = f->override_damping[c->store];
        if (f->friction_scale[c->store] > 0.0f) c->mu *= f->friction_scale[c->store];
      }
      c->scale = 1.0f;
    }
  }
  d->contact_count = nc;
  return TB_OK;
}

void tb_newton_predict(tb_world* w, tb_newton_body* b, tb_vec3 f, tb_vec3 t, float h) {
  if (!b->dynamic) {
    b->x = tb_mul_add(b->x, h, b->v);
    b->q = tb_quat_integrate(b->q, b->w, h);
    return;
  }
  tb_vec3 g = tb_v3(w->def.gravity[0], w->def.gravity[1], w->def.gravity[2]);
  float c = w->bodies.linear_damping[b->slot], gamma = w->bodies.angular_damping[b->slot];
  tb_vec3 v1 = tb_add(b->v, tb_scale(tb_mul_add(g, b->inv_mass, f), h));
  b->x = tb_mul_add(b->x, h, v1);
  tb_vec3 wb = tb_inv_rotate(b->q, b->w), iwb = tb_mat3_mul_v(b->inertia, wb);
  /* Newton's explicit Coriolis step wb − h·I⁻¹(wb × I·wb), then scaled back to the kinetic energy
   * it started with: the gyroscopic torque does no work, but the explicit step adds
   * ½h²|I⁻¹(wb × I·wb)|²_I (≥ 0) every step, which made a thin box tumbling at 13 rad/s reach
   * 10⁷ rad/s in free flight. Bodies with equal principal moments (spheres, cubes) have no
   * Coriolis term and step exactly as in Newton. */
  tb_vec3 wg = tb_mul_add(wb, -h, tb_mat3_mul_v(b->inv_inertia, tb_cross(wb, iwb)));
  float e0 = tb_dot(wb, iwb), eg = tb_dot(wg, tb_mat3_mul_v(b->inertia, wg)); /* 2 × J */
  if (eg > e0 && eg > 0.0f) wg = tb_scale(wg, sqrtf(e0 / eg));
  tb_vec3 w1 = tb_rotate(b->q, tb_mul_add(wg, h, tb_mat3_mul_v(b->inv_inertia, tb_inv_rotate(b->q, t))));
  b->q = tb_quat_integrate(b->q, w1, h);
  b->w = tb_scale(w1, 1.0f - gamma * h);
  b->v = tb_scale(v1, 1.0f - c * h);
}

void tb_newton_finish(tb_world* w, float h) {
  tb_newton_data* d = w->newton;
  tb_bodies* bodies = &w->bodies;
  if (bodies->count > 0) memset(w->body_contact_wrench, 0, 6 * (size_t)bodies->count * sizeof(float)); /* NULL while empty */
  for (int32_t i = 0; i < bodies->count; ++i) w->body_contact_generation[i] = bodies->generation[i];
  float inv_h = 1.0f / h;
  for (int32_t k = 0; k < d->body_count; ++k) {
    const tb_newton_body* b = &d->bodies[k];
    int32_t i = b->slot;
    tb_body_write_state(bodies, i, b->x, b->q, b->v, b->w);
    float* o = w->body_contact_wrench + 6 * i;
    o[0] = b->sum_f.x * inv_h; o[1] = b->sum_f.y * inv_h; o[2] = b->sum_f.z * inv_h;
    o[3] = b->sum_t.x * inv_h; o[4] = b->sum_t.y * inv_h; o[5] = b->sum_t.z * inv_h;
  }
  w->body_contact_valid = 1;
  w->overrides_pending = 0;
  tb_solver_stats_serial(w);
}
