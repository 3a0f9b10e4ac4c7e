/* Public API of two shape queries that show the narrow phase at work: the signed distance of a
 * convex pair with the routine that answered (GJK, MPR, EPA or an exact one), and a hull's support
 * vertex by its support field against the exact scan. */
#include <math.h>

#include "../collision/convex.h"
#include "../geometry/hull.h"
#include "../geometry/support_field.h"
#include "api.h"

static tb_transform shape_pose(const tb_world* w, int32_t s) {
  return tb_transform_mul(tb_body_pose(&w->bodies, w->shapes.body[s]), w->shapes.local[s]);
}

static int is_convex_type(int32_t t) {
  return t == TB_SHAPE_SPHERE || t == TB_SHAPE_CAPSULE || t == TB_SHAPE_BOX || t == TB_SHAPE_CYLINDER ||
         t == TB_SHAPE_ELLIPSOID || t == TB_SHAPE_HULL;
}

static void put3(float out[3], tb_vec3 v) {
  out[0] = v.x;
  out[1] = v.y;
  out[2] = v.z;
}

int32_t tb_world_shape_distance(tb_world_id world, tb_shape_id a, tb_shape_id b, float max_distance,
                                tb_pair_distance* out) {
  const char* fn = "shapeDistance";
  tb_world* w = tb_world_peek(world);
  if (!w) return -tb_world_fail(NULL, TB_ERR_NOT_FOUND, "%s: world %d does not exist", fn, world);
  int32_t sa = tb_shape_slot_checked(w, a, fn);
  if (sa < 0) return -TB_ERR_NOT_FOUND;
  int32_t sb = tb_shape_slot_checked(w, b, fn);
  if (sb < 0) return -TB_ERR_NOT_FOUND;
  if (!out) return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", fn);
  if (sa == sb) return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: a and b are the same shape %d", fn, a);
  if (!(max_distance >= 0.0f) || !tb_is_finite(max_distance))
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: maxDistance must be finite and >= 0 (got %g)", fn,
                          (double)max_distance);
  const tb_shapes* sh = &w->shapes;
  for (int k = 0; k < 2; ++k) {
    int32_t s = k ? sb : sa;
    if (!is_convex_type(sh->type[s]))
      return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: shape %c is a %s, not a convex shape", fn, k ? 'b' : 'a',
                            tb_shape_type_name(sh->type[s]));
  }
  tb_shape_geom ga, gb;
  tb_shape_geom_load(sh, sa, &ga);
  tb_shape_geom_load(sh, sb, &gb);
  tb_convex ca = tb_convex_from_geom(&ga, shape_pose(w, sa)), cb = tb_convex_from_geom(&gb, shape_pose(w, sb));
  tb_manifold_point pt;
  tb_vec3 n;
  int32_t method = TB_PAIR_GJK, refined = 0;
  if (!tb_convex_query(&ca, &cb, max_distance, &pt, &n, &method, &refined)) return 0;
  out->distance = pt.separation;
  put3(out->normal, n);
  put3(out->point_a, pt.point0);
  put3(out->point_b, pt.point1);
  out->method = method;
  out->refined = refined;
  return 1;
}

tb_status tb_shape_support(tb_world_id world, tb_shape_id shape, const float direction[3], tb_support_query* out) {
  const char* fn = "shapeSupport";
  GET_WORLD_PEEK(fn);
  int32_t s = tb_shape_slot_checked(w, shape, fn);
  if (s < 0) return TB_ERR_NOT_FOUND;
  if (!direction || !out) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: direction and out must not be NULL", fn);
  const tb_shapes* sh = &w->shapes;
  if (sh->type[s] != TB_SHAPE_HULL)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: shape %d is a %s, not a hull", fn, shape,
                         tb_shape_type_name(sh->type[s]));
  tb_vec3 d = tb_v3(direction[0], direction[1], direction[2]);
  float len = tb_length(d);
  if (!tb_is_finite(len) || !(len > 0.0f))
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: direction must be finite and nonzero (got length %g)", fn,
                         (double)len);
  const tb_hull* h = (const tb_hull*)sh->data[s];
  tb_transform x = shape_pose(w, s);
  tb_vec3 u = tb_scale(d, 1.0f / len), local = tb_inv_rotate(x.q, u);
  int32_t scan = tb_hull_support_scan(h, local), ties = 0;
  int32_t field = h->field ? tb_support_field_lookup(h->field, h->vertices, local, &ties) : -1;
  tb_vec3 ps = tb_transform_point(x, h->vertices[scan]);
  tb_vec3 pf = field >= 0 ? tb_transform_point(x, h->vertices[field]) : ps;
  out->field_vertex = field;
  out->scan_vertex = scan;
  out->ties = ties;
  out->used_vertex = tb_hull_support(h, local);
  put3(out->field_point, pf);
  put3(out->scan_point, ps);
  out->error = fmaxf(0.0f, tb_dot(tb_sub(ps, pf), u));
  return TB_OK;
}
