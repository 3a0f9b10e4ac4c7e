/* Sphere pairs: plane-sphere, sphere-sphere, sphere-capsule, sphere-box. */
#include "collide_internal.h"

/* a = plane, b = sphere. Normal = plane normal. Feature id 0. */
int tb_collide_plane_sphere(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b,
                            tb_transform tb, float max_separation, tb_manifold* out) {
  tb_vec3 n;
  float d;
  tb_np_plane_world(a, ta, &n, &d);
  float r = b->params[0];
  float dist = tb_dot(n, tb.p) - d;
  out->normal = n;
  if (dist - r > max_separation) return 0;
  tb_np_point(&out->points[0], tb_mul_add(tb.p, -dist, n), tb_mul_add(tb.p, -r, n), n, 0u);
  return out->points[0].separation <= max_separation ? 1 : 0;
}

/* Centre-to-centre normal; coincident centres fall back to world +y. Feature id 0. */
int tb_collide_sphere_sphere(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b,
                             tb_transform tb, float max_separation, tb_manifold* out) {
  float ra = a->params[0], rb = b->params[0];
  tb_vec3 d = tb_sub(tb.p, ta.p);
  float dist = tb_length(d);
  tb_vec3 n = tb_np_normalize_or(d, tb_v3(0.0f, 1.0f, 0.0f));
  out->normal = n;
  if (dist - ra - rb > max_separation) return 0;
  tb_np_point(&out->points[0], tb_mul_add(ta.p, ra, n), tb_mul_add(tb.p, -rb, n), n, 0u);
  return out->points[0].separation <= max_separation ? 1 : 0;
}

/* a = sphere, b = capsule: sphere against the closest point of the capsule segment. A centre on
 * the segment falls back to the capsule's local x axis. Feature id 0. */
int tb_collide_sphere_capsule(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b,
                              tb_transform tb, float max_separation, tb_manifold* out) {
  float ra = a->params[0], rb = b->params[0], h = b->params[1];
  tb_vec3 ax = tb_rotate(tb.q, tb_v3(0.0f, h, 0.0f));
  tb_vec3 q = tb_np_segment_closest(tb_sub(tb.p, ax), tb_scale(ax, 2.0f), ta.p);
  tb_vec3 d = tb_sub(q, ta.p);
  float dist = tb_length(d);
  tb_vec3 n = tb_np_normalize_or(d, tb_rotate(tb.q, tb_v3(1.0f, 0.0f, 0.0f)));
  out->normal = n;
  if (dist - ra - rb > max_separation) return 0;
  tb_np_point(&out->points[0], tb_mul_add(ta.p, ra, n), tb_mul_add(q, -rb, n), n, 0u);
  return out->points[0].separation <= max_separation ? 1 : 0;
}

/* a = sphere, b = box. Centre outside: closest point of the box (face, edge or vertex region).
 * Centre inside (or on the surface): pushed out through the nearest face (ties: lowest axis, then
 * the + side). Feature id: 0..26 = Voronoi region code (3^axis digits: 0 = -, 1 = inside, 2 = +),
 * 32 + face index (2*axis + (side > 0)) when the centre is inside. */
int tb_collide_sphere_box(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b,
                          tb_transform tb, float max_separation, tb_manifold* out) {
  float r = a->params[0];
  tb_vec3 h = tb_v3(b->params[0], b->params[1], b->params[2]);
  tb_vec3 c = tb_inv_transform_point(tb, ta.p);
  tb_vec3 p = tb_v3(tb_clampf(c.x, -h.x, h.x), tb_clampf(c.y, -h.y, h.y), tb_clampf(c.z, -h.z, h.z));
  tb_vec3 d = tb_sub(p, c); /* from the sphere centre to the box, local */
  float dist2 = tb_length_sq(d);
  tb_vec3 nl, pl, cl; /* local normal (sphere -> box), box point, sphere point */
  uint32_t id;
  if (dist2 > 1e-18f) {
    float dist = sqrtf(dist2);
    if (dist - r > max_separation) return 0;
    nl = tb_scale(d, 1.0f / dist);
    pl = p;
    id = 0;
    for (int k = 2; k >= 0; --k) {
      float ck = tb_comp(c, k), hk = tb_comp(h, k);
      id = id * 3u + (ck < -hk ? 0u : (ck > hk ? 2u : 1u));
    }
  } else {
    int best = 0;
    float best_depth = h.x - fabsf(c.x);
    for (int k = 1; k < 3; ++k) {
      float depth = tb_comp(h, k) - fabsf(tb_comp(c, k));
      if (depth < best_depth) { best_depth = depth; best = k; }
    }
    float s = tb_comp(c, best) >= 0.0f ? 1.0f : -1.0f;
    if (-best_depth - r > max_separation) return 0;
    nl = tb_scale(tb_np_axis(best), -s);
    pl = c;
    tb_np_set_comp(&pl, best, s * tb_comp(h, best));
    id = 32u + (uint32_t)(2 * best + (s > 0.0f ? 1 : 0));
  }
  cl = tb_mul_add(c, r, nl);
  tb_vec3 n = tb_rotate(tb.q, nl);
  out->normal = n;
  tb_np_point(&out->points[0], tb_transform_point(tb, cl), tb_transform_point(tb, pl), n, id);
  return out->points[0].separation <= max_separation ? 1 : 0;
}
