/* World queries: a ray against every shape and a shape's overlaps (the public calls are
 * src/api/query.c). Shapes are posed from the current body poses, so queries need no collide()
 * and never change the world. */
#include <math.h>
#include <string.h>

#include "../geometry/hull.h"
#include "../geometry/triangle_mesh.h"
#include "../world/world.h"
#include "narrow_phase.h"
#include "query.h"

/* A hit in the shape's local frame: t along the unit local direction, local outward normal. */
typedef struct local_hit {
  float t;
  tb_vec3 normal;
} local_hit;

/* Each routine: ray o + t d (|d| = 1, shape frame), 0 <= t <= tmax. Returns 1 on a hit. A ray
 * starting inside the solid hits at t = 0 with normal -d. */

static int ray_plane(const tb_shape_geom* g, tb_vec3 o, tb_vec3 d, float tmax, local_hit* h) {
  const float* p = g->params;
  tb_vec3 n = tb_v3(p[0], p[1], p[2]);
  float s0 = tb_dot(n, o) - p[3]; /* signed distance of the origin, > 0 outside */
  if (s0 <= 0.0f) { h->t = 0.0f; h->normal = tb_neg(d); return 1; }
  float dn = tb_dot(n, d);
  if (dn >= 0.0f) return 0;
  float t = -s0 / dn;
  if (t > tmax) return 0;
  h->t = t;
  h->normal = n;
  return 1;
}

/* Sphere of radius r at centre c. */
static int ray_sphere_at(tb_vec3 c, float r, tb_vec3 o, tb_vec3 d, float tmax, local_hit* h) {
  tb_vec3 m = tb_sub(o, c);
  float cc = tb_dot(m, m) - r * r;
  if (cc <= 0.0f) { h->t = 0.0f; h->normal = tb_neg(d); return 1; }
  float b = tb_dot(m, d);
  if (b > 0.0f) return 0; /* outside and pointing away */
  float disc = b * b - cc;
  if (disc < 0.0f) return 0;
  float t = -b - sqrtf(disc);
  if (t < 0.0f) t = 0.0f;
  if (t > tmax) return 0;
  h->t = t;
  h->normal = tb_scale(tb_add(m, tb_scale(d, t)), 1.0f / r);
  return 1;
}

static int ray_sphere(const tb_shape_geom* g, tb_vec3 o, tb_vec3 d, float tmax, local_hit* h) {
  return ray_sphere_at(tb_v3(0, 0, 0), g->params[0], o, d, tmax, h);
}

/* Box of half extents p[0..2]: slabs; the entering axis gives the normal. */
static int ray_box(const tb_shape_geom* g, tb_vec3 o, tb_vec3 d, float tmax, local_hit* h) {
  const float* p = g->params;
  const float oo[3] = {o.x, o.y, o.z}, dd[3] = {d.x, d.y, d.z};
  float tn = -INFINITY, tf = INFINITY;
  int axis = -1, inside = 1;
  for (int i = 0; i < 3; ++i) {
    if (fabsf(oo[i]) > p[i]) inside = 0;
    if (dd[i] == 0.0f) {
      if (fabsf(oo[i]) > p[i]) return 0;
      continue;
    }
    float inv = 1.0f / dd[i];
    float t0 = (-p[i] - oo[i]) * inv, t1 = (p[i] - oo[i]) * inv;
    if (t0 > t1) { float x = t0; t0 = t1; t1 = x; }
    if (t0 > tn) { tn = t0; axis = i; }
    if (t1 < tf) tf = t1;
  }
  if (inside) { h->t = 0.0f; h->normal = tb_neg(d); return 1; }
  if (tn > tf || tn < 0.0f || tn > tmax || axis < 0) return 0;
  float nv[3] = {0, 0, 0};
  nv[axis] = dd[axis] > 0.0f ? -1.0f : 1.0f;
  h->t = tn;
  h->normal = tb_v3(nv[0], nv[1], nv[2]);
  return 1;
}

/* Capsule: radius p[0], segment y in [-p[1], p[1]]. The union's first hit from outside is the
 * nearest first hit of its parts: the lateral cylinder surface and the two end spheres. */
static int ray_capsule(const tb_shape_geom* g, tb_vec3 o, tb_vec3 d, float tmax, local_hit* h) {
  float r = g->params[0], hh = g->params[1];
  float cy = fminf(fmaxf(o.y, -hh), hh);
  tb_vec3 q = tb_sub(o, tb_v3(0, cy, 0));
  if (tb_dot(q, q) <= r * r) { h->t = 0.0f; h->normal = tb_neg(d); return 1; }
  int found = 0;
  local_hit best = {tmax, tb_v3(0, 0, 0)};
  float a = d.x * d.x + d.z * d.z;
  if (a > 0.0f) {
    float b = o.x * d.x + o.z * d.z, c = o.x * o.x + o.z * o.z - r * r;
    float disc = b * b - a * c;
    if (disc >= 0.0f) {
      float t = (-b - sqrtf(disc)) / a;
      float y = o.y + t * d.y;
      if (t >= 0.0f && t <= best.t && fabsf(y) <= hh) {
        best.t = t;
        best.normal = tb_scale(tb_v3(o.x + t * d.x, 0.0f, o.z + t * d.z), 1.0f / r);
        found = 1;
      }
    }
  }
  for (int e = -1; e <= 1; e += 2) {
    local_hit s;
    if (ray_sphere_at(tb_v3(0, (float)e * hh, 0), r, o, d, best.t, &s) && (!found || s.t < best.t)) {
      best = s;
      found = 1;
    }
  }
  if (found) *h = best;
  return found;
}

/* Cylinder: radius p[0], axis y in [-p[1], p[1]]: the intersection of the infinite cylinder and
 * the slab |y| <= p[1]; the ray enters at the later of the two entries. */
static int ray_cylinder(const tb_shape_geom* g, tb_vec3 o, tb_vec3 d, float tmax, local_hit* h) {
  float r = g->params[0], hh = g->params[1];
  int in_radial = o.x * o.x + o.z * o.z <= r * r, in_slab = fabsf(o.y) <= hh;
  if (in_radial && in_slab) { h->t = 0.0f; h->normal = tb_neg(d); return 1; }
  float c0 = -INFINITY, c1 = INFINITY; /* infinite cylinder interval */
  float a = d.x * d.x + d.z * d.z;
  if (a > 0.0f) {
    float b = o.x * d.x + o.z * d.z, c = o.x * o.x + o.z * o.z - r * r;
    float disc = b * b - a * c;
    if (disc < 0.0f) return 0;
    float q = sqrtf(disc);
    c0 = (-b - q) / a;
    c1 = (-b + q) / a;
  } else if (!in_radial) {
    return 0;
  }
  float s0 = -INFINITY, s1 = INFINITY; /* slab interval */
  if (d.y != 0.0f) {
    float t0 = (-hh - o.y) / d.y, t1 = (hh - o.y) / d.y;
    s0 = fminf(t0, t1);
    s1 = fmaxf(t0, t1);
  } else if (!in_slab) {
    return 0;
  }
  float tn = fmaxf(c0, s0), tf = fminf(c1, s1);
  if (tn > tf || tn < 0.0f || tn > tmax) return 0;
  h->t = tn;
  if (s0 >= c0) h->normal = tb_v3(0.0f, d.y > 0.0f ? -1.0f : 1.0f, 0.0f);
  else h->normal = tb_scale(tb_v3(o.x + tn * d.x, 0.0f, o.z + tn * d.z), 1.0f / r);
  return 1;
}

/* Ellipsoid of semi-axes p[0..2]: the unit sphere after scaling each axis (t is unchanged by the
 * scaling); the normal is the gradient x / a², normalized. */
static int ray_ellipsoid(const tb_shape_geom* g, tb_vec3 o, tb_vec3 d, float tmax, local_hit* h) {
  tb_vec3 r = tb_v3(g->params[0], g->params[1], g->params[2]);
  tb_vec3 os = tb_v3(o.x / r.x, o.y / r.y, o.z / r.z), ds = tb_v3(d.x / r.x, d.y / r.y, d.z / r.z);
  float c = tb_dot(os, os) - 1.0f;
  if (c <= 0.0f) { h->t = 0.0f; h->normal = tb_neg(d); return 1; }
  float a = tb_dot(ds, ds), b = tb_dot(os, ds);
  if (b >= 0.0f) return 0;
  float disc = b * b - a * c;
  if (disc < 0.0f) return 0;
  float t = (-b - sqrtf(disc)) / a;
  if (t < 0.0f || t > tmax) return 0;
  tb_vec3 p = tb_add(o, tb_scale(d, t));
  h->t = t;
  h->normal = tb_normalize(tb_v3(p.x / (r.x * r.x), p.y / (r.y * r.y), p.z / (r.z * r.z)));
  return 1;
}

/* Convex hull: clipped by every face plane (entering faces raise the entry, leaving faces lower
 * the exit); the entering face gives the normal. */
static int ray_hull(const tb_shape_geom* g, tb_vec3 o, tb_vec3 d, float tmax, local_hit* h) {
  const tb_hull* hull = (const tb_hull*)g->data;
  float tn = -INFINITY, tf = INFINITY;
  int32_t face = -1, inside = 1;
  for (int32_t f = 0; f < hull->face_count; ++f) {
    tb_vec3 n = hull->face_normal[f];
    float dist = tb_dot(n, o) - hull->face_offset[f], dn = tb_dot(n, d);
    if (dist > 0.0f) inside = 0;
    if (dn == 0.0f) {
      if (dist > 0.0f) return 0;
      continue;
    }
    float t = -dist / dn;
    if (dn < 0.0f) {
      if (t > tn) { tn = t; face = f; }
    } else if (t < tf) {
      tf = t;
    }
  }
  if (inside) { h->t = 0.0f; h->normal = tb_neg(d); return 1; }
  if (face < 0 || tn > tf || tn < 0.0f || tn > tmax) return 0;
  h->t = tn;
  h->normal = hull->face_normal[face];
  return 1;
}

typedef int (*ray_fn)(const tb_shape_geom* g, tb_vec3 o, tb_vec3 d, float tmax, local_hit* h);

/* Dispatch point: add the routines of new shape types here (NULL = not supported yet). */
/* ---- triangles: meshes and heightfields (front faces only, as their contacts) ---- */

/* Möller–Trumbore: hit of the front side (d · n < 0) of triangle v within (0, tmax]. */
static int ray_triangle(const tb_vec3 v[3], tb_vec3 o, tb_vec3 d, float tmax, local_hit* h) {
  tb_vec3 e1 = tb_sub(v[1], v[0]), e2 = tb_sub(v[2], v[0]);
  tb_vec3 p = tb_cross(d, e2);
  float det = tb_dot(e1, p);
  if (det <= 1e-12f) return 0; /* parallel, or seen from the back */
  float inv = 1.0f / det;
  tb_vec3 s = tb_sub(o, v[0]);
  float u = tb_dot(s, p) * inv;
  if (u < 0.0f || u > 1.0f) return 0;
  tb_vec3 q = tb_cross(s, e1);
  float w = tb_dot(d, q) * inv;
  if (w < 0.0f || u + w > 1.0f) return 0;
  float t = tb_dot(e2, q) * inv;
  if (t < 0.0f || t > tmax) return 0;
  h->t = t;
  h->normal = tb_normalize(tb_cross(e1, e2));
  return 1;
}

/* The part [t0, t1] of the ray inside the box [lo, hi] (slabs); 0 when it misses. */
static int clip_to_box(tb_vec3 lo, tb_vec3 hi, tb_vec3 o, tb_vec3 d, float tmax, float* t0, float* t1) {
  const float oo[3] = {o.x, o.y, o.z}, dd[3] = {d.x, d.y, d.z};
  const float l[3] = {lo.x, lo.y, lo.z}, u[3] = {hi.x, hi.y, hi.z};
  float a = 0.0f, b = tmax;
  for (int i = 0; i < 3; ++i) {
    if (fabsf(dd[i]) < 1e-12f) {
      if (oo[i] < l[i] || oo[i] > u[i]) return 0;
      continue;
    }
    float ta = (l[i] - oo[i]) / dd[i], tb = (u[i] - oo[i]) / dd[i];
    if (ta > tb) { float x = ta; ta = tb; tb = x; }
    if (ta > a) a = ta;
    if (tb < b) b = tb;
    if (a > b) return 0;
  }
  *t0 = a;
  *t1 = b;
  return 1;
}

typedef struct mesh_ray {
  const tb_mesh_data* mesh;
  tb_vec3 o, d;
  float tmax;
  local_hit best;
  int found;
} mesh_ray;

static int mesh_ray_visit(int32_t tri, void* vctx) {
  mesh_ray* r = (mesh_ray*)vctx;
  const int32_t* ix = r->mesh->indices + 3 * tri;
  tb_vec3 v[3] = {r->mesh->vertices[ix[0]], r->mesh->vertices[ix[1]], r->mesh->vertices[ix[2]]};
  local_hit h;
  if (ray_triangle(v, r->o, r->d, r->found ? r->best.t : r->tmax, &h) && (!r->found || h.t < r->best.t)) {
    r->best = h;
    r->found = 1;
  }
  return 1;
}

/* Mesh: the BVH gives the triangles whose bounds overlap the ray's part inside the mesh bounds. */
static int ray_mesh(const tb_shape_geom* g, tb_vec3 o, tb_vec3 d, float tmax, local_hit* h) {
  const tb_mesh_data* m = (const tb_mesh_data*)g->data;
  float t0, t1;
  if (!clip_to_box(m->lower, m->upper, o, d, tmax, &t0, &t1)) return 0;
  tb_vec3 a = tb_add(o, tb_scale(d, t0)), b = tb_add(o, tb_scale(d, t1));
  mesh_ray r = {m, o, d, tmax, {0.0f, {0, 0, 0}}, 0};
  tb_bvh_query(&m->bvh, tb_vmin(a, b), tb_vmax(a, b), mesh_ray_visit, &r);
  if (!r.found) return 0;
  *h = r.best;
  return 1;
}

/* Heightfield: the cells under the ray are walked in the order the ray crosses them (a 2D DDA in
 * the x–z grid), so the first cell with a hit holds the closest one. */
static int ray_heightfield(const tb_shape_geom* g, tb_vec3 o, tb_vec3 d, float tmax, local_hit* h) {
  const tb_heightfield_data* hf = (const tb_heightfield_data*)g->data;
  float t0, t1;
  if (!clip_to_box(hf->lower, hf->upper, o, d, tmax, &t0, &t1)) return 0;
  float x0 = -0.5f * (float)(hf->cols - 1) * hf->cell_x, z0 = -0.5f * (float)(hf->rows - 1) * hf->cell_z;
  tb_vec3 p = tb_add(o, tb_scale(d, t0));
  int32_t nc = hf->cols - 1, nr = hf->rows - 1;
  /* the entry cell, clamped to the grid in float first: a far or huge entry point (or a NaN from
   * inf − inf) must not reach an int conversion out of its range */
  int32_t c = tb_cell_index(floorf((p.x - x0) / hf->cell_x), nc), r = tb_cell_index(floorf((p.z - z0) / hf->cell_z), nr);
  int32_t sc = d.x > 0.0f ? 1 : -1, sr = d.z > 0.0f ? 1 : -1;
  /* ray parameter of the next cell boundary in x and z, and the step between boundaries */
  float inf = INFINITY;
  float tdx = fabsf(d.x) > 1e-12f ? hf->cell_x / fabsf(d.x) : inf;
  float tdz = fabsf(d.z) > 1e-12f ? hf->cell_z / fabsf(d.z) : inf;
  float bx = x0 + (float)(c + (sc > 0)) * hf->cell_x, bz = z0 + (float)(r + (sr > 0)) * hf->cell_z;
  float tx = fabsf(d.x) > 1e-12f ? (bx - o.x) / d.x : inf;
  float tz = fabsf(d.z) > 1e-12f ? (bz - o.z) / d.z : inf;
  for (;;) {
    local_hit best;
    int found = 0;
    for (int k = 0; k < 2; ++k) {
      tb_vec3 v[3];
      tb_heightfield_triangle(hf, 2 * (r * nc + c) + k, v);
      local_hit hk;
      if (ray_triangle(v, o, d, found ? best.t : tmax, &hk) && (!found || hk.t < best.t)) { best = hk; found = 1; }
    }
    if (found) { *h = best; return 1; }
    if (tx < tz) { if (tx > t1) return 0; c += sc; tx += tdx; }
    else { if (tz > t1) return 0; r += sr; tz += tdz; }
    if (c < 0 || c >= nc || r < 0 || r >= nr) return 0;
  }
}

static ray_fn ray_routine(int32_t type) {
  switch (type) {
    case TB_SHAPE_PLANE: return ray_plane;
    case TB_SHAPE_SPHERE: return ray_sphere;
    case TB_SHAPE_CAPSULE: return ray_capsule;
    case TB_SHAPE_BOX: return ray_box;
    case TB_SHAPE_CYLINDER: return ray_cylinder;
    case TB_SHAPE_ELLIPSOID: return ray_ellipsoid;
    case TB_SHAPE_HULL: return ray_hull;
    case TB_SHAPE_HEIGHTFIELD: return ray_heightfield;
    case TB_SHAPE_MESH: return ray_mesh;
    default: return NULL;
  }
}

static tb_transform shape_pose(const tb_world* w, int32_t s) {
  return tb_transform_mul(tb_body_pose(&w->bodies, w->shapes.body[s]), w->shapes.local[s]);
}

static int passes(const tb_world* w, const tb_query_filter* f, int32_t s) {
  if (!f) return 1;
  int32_t b = w->shapes.body[s];
  if (f->skip_body >= 0 && tb_id_slot(f->skip_body) == b) return 0;
  return (f->mask & w->shapes.filter[s].contype) != 0;
}

static int check_vec(tb_world* w, const char* fn, const char* field, const float* v, int n) {
  for (int i = 0; i < n; ++i)
    if (!tb_is_finite(v[i])) {
      tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s[%d] must be finite (got %g)", fn, field, i, (double)v[i]);
      return 0;
    }
  return 1;
}

static tb_status check_filter(tb_world* w, const char* fn, const tb_query_filter* f) {
  if (f && f->skip_body != -1 && tb_body_slot_checked(w, f->skip_body, fn) < 0) return TB_ERR_NOT_FOUND;
  return TB_OK;
}

tb_status tb_query_ray(tb_world* w, const char* fn, const float origin[3], const float direction[3], float max_distance,
                      const tb_query_filter* filter, tb_ray_visitor visit, void* ctx) {
  if (!origin || !direction) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: origin and direction must not be NULL", fn);
  if (!check_vec(w, fn, "origin", origin, 3) || !check_vec(w, fn, "direction", direction, 3)) return TB_ERR_INVALID_ARGUMENT;
  tb_vec3 dir = tb_v3(direction[0], direction[1], direction[2]);
  float len = tb_length(dir);
  if (!(len > 0.0f) || !tb_is_finite(len))
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: direction must be a non-zero vector (got length %g)", fn, (double)len);
  if (isnan(max_distance) || max_distance <= 0.0f)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: maxDistance must be > 0 (got %g)", fn, (double)max_distance);
  tb_status st = check_filter(w, fn, filter);
  if (st != TB_OK) return st;
  dir = tb_scale(dir, 1.0f / len);
  tb_vec3 o = tb_v3(origin[0], origin[1], origin[2]);
  const tb_shapes* sh = &w->shapes;
  /* every shape type in the world must be castable: no silent misses */
  for (int32_t s = 0; s < sh->count; ++s)
    if (sh->type[s] >= 0 && passes(w, filter, s) && !ray_routine(sh->type[s]))
      return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: not supported for %s (shape %d)", fn, tb_shape_type_name(sh->type[s]),
                           tb_make_id(s, sh->generation[s]));
  for (int32_t s = 0; s < sh->count; ++s) {
    if (sh->type[s] < 0 || !passes(w, filter, s)) continue;
    tb_transform x = shape_pose(w, s);
    tb_vec3 lo = tb_inv_rotate(x.q, tb_sub(o, x.p)), ld = tb_inv_rotate(x.q, dir);
    local_hit h;
    tb_shape_geom g;
    tb_shape_geom_load(sh, s, &g);
    if (!ray_routine(sh->type[s])(&g, lo, ld, max_distance, &h)) continue;
    int32_t b = sh->body[s];
    tb_ray_hit hit;
    hit.shape = tb_make_id(s, sh->generation[s]);
    hit.body = w->bodies.f.body_type[b] == TB_BODY_STATIC ? -1 : tb_make_id(b, w->bodies.generation[b]);
    tb_vec3 p = tb_add(o, tb_scale(dir, h.t));
    tb_vec3 n = tb_normalize(tb_rotate(x.q, h.normal));
    memcpy(hit.point, &p, sizeof hit.point);
    memcpy(hit.normal, &n, sizeof hit.normal);
    hit.distance = h.t;
    visit(ctx, &hit);
  }
  return TB_OK;
}

/* Parameters of a query shape, checked as for shapes in the world. */
static tb_status check_query_shape(tb_world* w, const char* fn, int32_t type, const float* p) {
  switch (type) {
    case TB_SHAPE_PLANE: {
      float l = sqrtf(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
      if (fabsf(l - 1.0f) > 1e-3f)
        return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: plane normal must be a unit vector (got length %g)", fn, (double)l);
      return TB_OK;
    }
    case TB_SHAPE_SPHERE:
      if (p[0] <= 0.0f) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: sphere radius must be > 0 (got %g)", fn, (double)p[0]);
      return TB_OK;
    case TB_SHAPE_CAPSULE:
      if (p[0] <= 0.0f) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: capsule radius must be > 0 (got %g)", fn, (double)p[0]);
      if (p[1] <= 0.0f) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: capsule halfHeight must be > 0 (got %g)", fn, (double)p[1]);
      return TB_OK;
    case TB_SHAPE_BOX:
      for (int i = 0; i < 3; ++i)
        if (p[i] <= 0.0f)
          return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: box halfExtents[%d] must be > 0 (got %g)", fn, i, (double)p[i]);
      return TB_OK;
    case TB_SHAPE_CYLINDER:
      if (p[0] <= 0.0f) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: cylinder radius must be > 0 (got %g)", fn, (double)p[0]);
      if (p[1] <= 0.0f) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: cylinder halfHeight must be > 0 (got %g)", fn, (double)p[1]);
      return TB_OK;
    case TB_SHAPE_ELLIPSOID:
      for (int i = 0; i < 3; ++i)
        if (p[i] <= 0.0f)
          return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: ellipsoid radii[%d] must be > 0 (got %g)", fn, i, (double)p[i]);
      return TB_OK;
    /* hull, heightfield, mesh need geometry data that a descriptor does not carry */
    default:
      if (type < 0 || type >= TB_SHAPE_TYPE_COUNT)
        return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: type must be a known shape type 0..%d (got %d)", fn,
                             TB_SHAPE_TYPE_COUNT - 1, type);
      return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: not supported for %s", fn, tb_shape_type_name(type));
  }
}

static int boxes_overlap(tb_vec3 al, tb_vec3 au, tb_vec3 bl, tb_vec3 bu) {
  return !(bl.x > au.x || bu.x < al.x || bl.y > au.y || bu.y < al.y || bl.z > au.z || bu.z < al.z);
}

int32_t tb_query_overlap(tb_world* w, const char* fn, int32_t type, const float params[4], const float position[3],
                         const float rotation[4], const tb_query_filter* filter, tb_shape_id* shape_ids, int32_t capacity,
                         int32_t* requested) {
  if (!check_vec(w, fn, "params", params, 4) || !check_vec(w, fn, "position", position, 3) ||
      !check_vec(w, fn, "rotation", rotation, 4))
    return -TB_ERR_INVALID_ARGUMENT;
  float ql = sqrtf(rotation[0] * rotation[0] + rotation[1] * rotation[1] + rotation[2] * rotation[2] + rotation[3] * rotation[3]);
  if (fabsf(ql - 1.0f) > 1e-3f)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: rotation must be a unit quaternion (got length %g)", fn, (double)ql);
  tb_status st = check_query_shape(w, fn, type, params);
  if (st == TB_OK) st = check_filter(w, fn, filter);
  if (st != TB_OK) return -st;
  tb_shape_geom q;
  q.type = type;
  q.data = NULL;
  memcpy(q.params, params, sizeof q.params);
  tb_transform qx = {tb_v3(position[0], position[1], position[2]),
                     tb_quat_normalize((tb_quat){rotation[0], rotation[1], rotation[2], rotation[3]})};
  tb_vec3 ql_lo, ql_hi;
  tb_shape_aabb(&q, qx, &ql_lo, &ql_hi);
  const tb_shapes* sh = &w->shapes;
  int32_t stored = 0, found = 0;
  for (int32_t s = 0; s < sh->count; ++s) {
    if (sh->type[s] < 0 || !passes(w, filter, s)) continue;
    tb_transform x = shape_pose(w, s);
    tb_shape_geom g;
    tb_shape_geom_load(sh, s, &g);
    tb_vec3 lo, hi;
    tb_shape_aabb(&g, x, &lo, &hi);
    if (!boxes_overlap(ql_lo, ql_hi, lo, hi)) continue;
    tb_manifold m;
    if (tb_collide(&q, qx, &g, x, 0.0f, &m) == 0) continue;
    ++found;
    if (stored < capacity) shape_ids[stored++] = tb_make_id(s, sh->generation[s]);
  }
  *requested = found;
  return stored;
}
