/* Convex shapes against heightfields and triangle meshes.
 *
 * The convex shape is expressed in the mesh's frame; its AABB (+ max_separation) selects the
 * heightfield cells or the BVH leaves to test. Every triangle gives candidate points (normal from
 * the triangle towards the convex shape):
 *   - sphere: closest point on the triangle (analytic);
 *   - capsule: the sphere test at both segment ends and at the segment points closest to the
 *     three triangle edges;
 *   - box, cylinder, ellipsoid, hull: tb_collide_convex() against the triangle as a
 *     TB_CONVEX_TRIANGLE (GJK / MPR / EPA, face clipping for polytopes).
 * Triangles are one-sided: the front is the side of the triangle normal (+y for a heightfield).
 * A centre behind the plane is accepted only over the face (a heightfield is solid below at any
 * depth; a mesh to the depth of the convex shape's size).
 * Internal-edge rule: a contact on an inactive edge or vertex (flat or concave, see
 * triangle_mesh.h) takes the triangle's face normal and the point under the convex shape along
 * it, so that a shape rolling over a smooth surface never sees a tilted "ghost" normal.
 * Candidates closer than TB_MESH_MERGE_DISTANCE (m) on the convex side are merged (deeper kept).
 * The manifold normal is the deepest candidate's normal; the others' separations are measured
 * along it, those beyond max_separation are dropped, and at most TB_MAX_MANIFOLD_POINTS (a sphere:
 * 1) are kept by contact reduction (points_found = candidates after merging).
 * Feature ids: (triangle << 6) | (sample << 3) | region (sphere / capsule) or
 * (triangle << 6) | point index (general convex; 8 for a face-normal replacement), stable while
 * the same triangle features touch. */
#include "../geometry/triangle_mesh.h"
#include "collide_internal.h"
#include "contact_reduction.h"
#include "convex.h"

#define TB_MESH_MAX_CANDIDATES 64
#define TB_MESH_MERGE_DISTANCE 1e-4f

typedef struct mesh_query {
  const tb_shape_geom* g; /* the convex shape */
  tb_transform pose;      /* convex shape in the mesh frame */
  float max_sep;          /* m */
  float depth_limit;      /* m: deepest centre/vertex behind a triangle still in contact */
  tb_vec3 lo, hi;         /* convex AABB in the mesh frame, grown by max_sep */
  tb_manifold_point cand[TB_MESH_MAX_CANDIDATES];
  tb_vec3 normal[TB_MESH_MAX_CANDIDATES];
  int count, found;
} mesh_query;

/* Keeps the buffer bounded: reduces to TB_MAX_MANIFOLD_POINTS about the deepest's normal. */
static void compact(mesh_query* q) {
  int d = 0;
  for (int i = 1; i < q->count; ++i)
    if (q->cand[i].separation < q->cand[d].separation) d = i;
  int keep[TB_MAX_MANIFOLD_POINTS];
  int n = tb_contact_reduce_select(q->cand, q->count, q->normal[d], TB_MAX_MANIFOLD_POINTS, keep);
  for (int i = 0; i < n; ++i) {
    q->cand[i] = q->cand[keep[i]];
    q->normal[i] = q->normal[keep[i]];
  }
  q->count = n;
}

/* p0 on the triangle, p1 on the convex shape, n from the triangle to the convex (mesh frame). */
static void add_candidate(mesh_query* q, tb_vec3 p0, tb_vec3 p1, tb_vec3 n, uint32_t id) {
  float sep = tb_dot(tb_sub(p1, p0), n);
  if (sep > q->max_sep) return;
  for (int i = 0; i < q->count; ++i)
    if (tb_length_sq(tb_sub(q->cand[i].point1, p1)) < TB_MESH_MERGE_DISTANCE * TB_MESH_MERGE_DISTANCE &&
        tb_dot(q->normal[i], n) > 0.999f) {
      if (sep < q->cand[i].separation) {
        tb_np_point(&q->cand[i], p0, p1, n, id);
        q->normal[i] = n;
      }
      return;
    }
  if (q->count == TB_MESH_MAX_CANDIDATES) compact(q);
  tb_np_point(&q->cand[q->count], p0, p1, n, id);
  q->normal[q->count++] = n;
  ++q->found;
}

/* Closest point on triangle (a, b, c) to p (Ericson 5.1.5). region: 0 face, 1 + k edge k
 * (v_k, v_(k+1)%3), 4 + k vertex k. */
static tb_vec3 closest_on_triangle(tb_vec3 p, tb_vec3 a, tb_vec3 b, tb_vec3 c, int* region) {
  tb_vec3 ab = tb_sub(b, a), ac = tb_sub(c, a), ap = tb_sub(p, a);
  float d1 = tb_dot(ab, ap), d2 = tb_dot(ac, ap);
  if (d1 <= 0.0f && d2 <= 0.0f) { *region = 4; return a; }
  tb_vec3 bp = tb_sub(p, b);
  float d3 = tb_dot(ab, bp), d4 = tb_dot(ac, bp);
  if (d3 >= 0.0f && d4 <= d3) { *region = 5; return b; }
  float vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) { *region = 1; return tb_add(a, tb_scale(ab, d1 / (d1 - d3))); }
  tb_vec3 cp = tb_sub(p, c);
  float d5 = tb_dot(ab, cp), d6 = tb_dot(ac, cp);
  if (d6 >= 0.0f && d5 <= d6) { *region = 6; return c; }
  float vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) { *region = 3; return tb_add(a, tb_scale(ac, d2 / (d2 - d6))); }
  float va = d3 * d6 - d5 * d4;
  if (va <= 0.0f && (d4 - d3) >= 0.0f && (d5 - d6) >= 0.0f) {
    *region = 2;
    return tb_add(b, tb_scale(tb_sub(c, b), (d4 - d3) / ((d4 - d3) + (d5 - d6))));
  }
  float den = 1.0f / (va + vb + vc);
  *region = 0;
  return tb_add(a, tb_add(tb_scale(ab, vb * den), tb_scale(ac, vc * den)));
}

/* Is the edge / vertex feature of `region` active (see triangle_mesh.h)? */
static int feature_active(int region, uint8_t flags) {
  if (region >= 1 && region <= 3) return (flags >> (region - 1)) & 1;
  return (flags >> (3 + region - 4)) & 1; /* vertex region - 4 */
}

/* Sphere of radius r at centre c (mesh frame) against triangle v with front normal n. */
static void sphere_triangle(mesh_query* q, tb_vec3 c, float r, const tb_vec3 v[3], tb_vec3 n, uint8_t flags,
                            uint32_t id) {
  float s = tb_dot(tb_sub(c, v[0]), n);
  if (s > r + q->max_sep || s < -q->depth_limit) return;
  int region;
  tb_vec3 cp = closest_on_triangle(c, v[0], v[1], v[2], &region);
  tb_vec3 nrm = n, p0 = tb_sub(c, tb_scale(n, s));
  if (region != 0) {
    tb_vec3 d = tb_sub(c, cp);
    float dist = tb_length(d);
    if (dist - r > q->max_sep) return;
    if (s <= 0.0f) return; /* behind the plane and off the face: a neighbour owns it */
    if (feature_active(region, flags) && dist > 1e-9f) {
      nrm = tb_scale(d, 1.0f / dist);
      p0 = cp;
    }
  }
  add_candidate(q, p0, tb_sub(c, tb_scale(nrm, r)), nrm, id | (uint32_t)region);
}

static void capsule_triangle(mesh_query* q, const tb_vec3 v[3], tb_vec3 n, uint8_t flags, uint32_t id) {
  float r = q->g->params[0];
  tb_vec3 ax = tb_rotate(q->pose.q, tb_v3(0.0f, q->g->params[1], 0.0f));
  tb_vec3 e0 = tb_sub(q->pose.p, ax), e1 = tb_add(q->pose.p, ax);
  sphere_triangle(q, e0, r, v, n, flags, id | (0u << 3));
  sphere_triangle(q, e1, r, v, n, flags, id | (1u << 3));
  for (int k = 0; k < 3; ++k) {
    float s, t;
    tb_np_closest_segments(e0, e1, v[k], v[(k + 1) % 3], &s, &t);
    if (s > 0.0f && s < 1.0f) sphere_triangle(q, tb_lerp(e0, e1, s), r, v, n, flags, id | ((uint32_t)(2 + k) << 3));
  }
}

/* Barycentric inside test of p (on the plane) against triangle v, with a relative tolerance. */
static int inside_triangle(tb_vec3 p, const tb_vec3 v[3], tb_vec3 n) {
  for (int k = 0; k < 3; ++k) {
    tb_vec3 e = tb_sub(v[(k + 1) % 3], v[k]);
    if (tb_dot(tb_cross(e, tb_sub(p, v[k])), n) < -1e-6f * tb_length_sq(e)) return 0;
  }
  return 1;
}

/* Any other convex shape: tb_collide_convex with the triangle as a TB_CONVEX_TRIANGLE (in the
 * mesh frame). Internal-edge rule and one-sidedness: when the returned normal is not the face
 * normal and either points to the back or sits on an inactive edge / vertex (by the closest
 * triangle feature of the first point), the contact becomes the convex shape's support point
 * along -n measured along the face normal n, kept only when it lies over this triangle (else a
 * neighbour owns it). */
static void general_triangle(mesh_query* q, const tb_vec3 v[3], tb_vec3 n, uint8_t flags, uint32_t id) {
  tb_convex tri;
  tri.type = TB_CONVEX_TRIANGLE;
  tri.params[0] = tri.params[1] = tri.params[2] = tri.params[3] = 0.0f;
  tri.data = NULL;
  tri.tri[0] = v[0]; tri.tri[1] = v[1]; tri.tri[2] = v[2];
  tri.pose.p = tb_v3(0, 0, 0);
  tri.pose.q = tb_quat_identity();
  tb_convex cv = tb_convex_from_geom(q->g, q->pose);
  if (tb_dot(tb_sub(tb_convex_center(&cv), v[0]), n) < -q->depth_limit) return;
  /* cheap rejection (separating axes by support points): the whole shape in front of the plane,
   * or beyond one of the edges' outward in-plane normals, by more than max_separation */
  if (tb_dot(tb_sub(tb_convex_support(&cv, tb_neg(n)), v[0]), n) > q->max_sep) return;
  for (int k = 0; k < 3; ++k) {
    tb_vec3 o = tb_normalize(tb_cross(tb_sub(v[(k + 1) % 3], v[k]), n));
    if (tb_dot(tb_sub(tb_convex_support(&cv, tb_neg(o)), v[k]), o) > q->max_sep) return;
  }
  tb_manifold m;
  int k = tb_collide_convex(&tri, &cv, q->max_sep, &m);
  if (k == 0) return;
  if (tb_dot(m.normal, n) < TB_EDGE_ACTIVE_COS) {
    int region;
    closest_on_triangle(m.points[0].point0, v[0], v[1], v[2], &region);
    if (tb_dot(m.normal, n) <= 0.0f || (region != 0 && !feature_active(region, flags))) {
      tb_vec3 p1 = tb_convex_support(&cv, tb_neg(n));
      float s = tb_dot(tb_sub(p1, v[0]), n);
      tb_vec3 p0 = tb_sub(p1, tb_scale(n, s));
      if (s >= -q->depth_limit && inside_triangle(p0, v, n)) add_candidate(q, p0, p1, n, id | 8u);
      return;
    }
  }
  for (int i = 0; i < k; ++i) add_candidate(q, m.points[i].point0, m.points[i].point1, m.normal, id | (uint32_t)i);
}

static void triangle(mesh_query* q, const tb_vec3 v[3], tb_vec3 n, uint8_t flags, int32_t tri) {
  uint32_t id = (uint32_t)tri << 6;
  switch (q->g->type) {
    case TB_SHAPE_SPHERE: sphere_triangle(q, q->pose.p, q->g->params[0], v, n, flags, id); break;
    case TB_SHAPE_CAPSULE: capsule_triangle(q, v, n, flags, id); break;
    default: general_triangle(q, v, n, flags, id); break;
  }
}

typedef struct mesh_visit {
  mesh_query* q;
  const tb_mesh_data* m;
} mesh_visit;

static int visit_mesh_triangle(int32_t t, void* vctx) {
  mesh_visit* mv = (mesh_visit*)vctx;
  const tb_mesh_data* m = mv->m;
  const int32_t* x = m->indices + 3 * t;
  tb_vec3 v[3] = {m->vertices[x[0]], m->vertices[x[1]], m->vertices[x[2]]};
  triangle(mv->q, v, m->normals[t], m->edge_active[t], t);
  return 1;
}

static void query_heightfield(mesh_query* q, const tb_heightfield_data* h) {
  float x0 = -0.5f * (float)(h->cols - 1) * h->cell_x, z0 = -0.5f * (float)(h->rows - 1) * h->cell_z;
  float fc0 = floorf((q->lo.x - x0) / h->cell_x), fc1 = floorf((q->hi.x - x0) / h->cell_x);
  float fr0 = floorf((q->lo.z - z0) / h->cell_z), fr1 = floorf((q->hi.z - z0) / h->cell_z);
  /* a query box with an infinite side (a plane) has NaN bounds after its rotation into the field's
   * frame (inf · 0): that side spans the whole field (and a NaN never reaches an int conversion) */
  if (fc0 != fc0) fc0 = -INFINITY;
  if (fr0 != fr0) fr0 = -INFINITY;
  if (fc1 != fc1) fc1 = INFINITY;
  if (fr1 != fr1) fr1 = INFINITY;
  if (fc1 < 0.0f || fr1 < 0.0f || fc0 > (float)(h->cols - 2) || fr0 > (float)(h->rows - 2)) return;
  int32_t c0 = fc0 < 0.0f ? 0 : (int32_t)fc0, c1 = fc1 > (float)(h->cols - 2) ? h->cols - 2 : (int32_t)fc1;
  int32_t r0 = fr0 < 0.0f ? 0 : (int32_t)fr0, r1 = fr1 > (float)(h->rows - 2) ? h->rows - 2 : (int32_t)fr1;
  for (int32_t r = r0; r <= r1; ++r)
    for (int32_t c = c0; c <= c1; ++c) {
      const float* y = h->heights + r * h->cols + c;
      float top = fmaxf(fmaxf(y[0], y[1]), fmaxf(y[h->cols], y[h->cols + 1]));
      if (q->lo.y > top) continue;
      for (int k = 0; k < 2; ++k) {
        int32_t t = 2 * (r * (h->cols - 1) + c) + k;
        tb_vec3 v[3];
        tb_heightfield_triangle(h, t, v);
        tb_vec3 n = tb_normalize(tb_cross(tb_sub(v[1], v[0]), tb_sub(v[2], v[0])));
        triangle(q, v, n, h->edge_active[t], t);
      }
    }
}

int tb_collide_convex_mesh(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b, tb_transform tb,
                           float max_separation, tb_manifold* out) {
  out->point_count = 0;
  out->points_found = 0;
  if (a->type < TB_SHAPE_SPHERE || a->type > TB_SHAPE_HULL) return 0;
  mesh_query q;
  q.g = a;
  q.pose.q = tb_quat_mul(tb_quat_conj(tb.q), ta.q);
  q.pose.p = tb_inv_transform_point(tb, ta.p);
  q.max_sep = max_separation;
  q.count = q.found = 0;
  tb_shape_aabb(a, q.pose, &q.lo, &q.hi);
  q.lo = tb_sub(q.lo, tb_v3(max_separation, max_separation, max_separation));
  q.hi = tb_add(q.hi, tb_v3(max_separation, max_separation, max_separation));
  /* deepest accepted penetration behind a triangle: the convex shape's size (mesh) or any depth
   * (heightfield: solid below) */
  q.depth_limit = b->type == TB_SHAPE_HEIGHTFIELD ? 1e30f : tb_length(tb_sub(q.hi, q.lo));
  if (b->type == TB_SHAPE_HEIGHTFIELD) {
    query_heightfield(&q, (const tb_heightfield_data*)b->data);
  } else {
    mesh_visit mv = {&q, (const tb_mesh_data*)b->data};
    tb_bvh_query(&mv.m->bvh, q.lo, q.hi, visit_mesh_triangle, &mv);
  }
  if (q.count == 0) return 0;
  /* one normal per manifold: the deepest candidate's */
  int d = 0;
  for (int i = 1; i < q.count; ++i)
    if (q.cand[i].separation < q.cand[d].separation) d = i;
  tb_vec3 n = q.normal[d];
  int m = 0;
  for (int i = 0; i < q.count; ++i) {
    tb_manifold_point p = q.cand[i];
    p.separation = tb_dot(tb_sub(p.point1, p.point0), n);
    if (p.separation > max_separation) continue;
    q.cand[m++] = p;
  }
  /* a sphere's contact forces all act through its centre along the one normal: its deepest point
   * is the whole manifold */
  int keep[TB_MAX_MANIFOLD_POINTS];
  int k = tb_contact_reduce_select(q.cand, m, n, a->type == TB_SHAPE_SPHERE ? 1 : TB_MAX_MANIFOLD_POINTS, keep);
  /* to world, in the caller's order: a (convex) is shape0, normal from a to the mesh */
  out->normal = tb_neg(tb_rotate(tb.q, n));
  for (int i = 0; i < k; ++i) {
    const tb_manifold_point* c = &q.cand[keep[i]];
    tb_manifold_point* o = &out->points[i];
    o->point0 = tb_transform_point(tb, c->point1);
    o->point1 = tb_transform_point(tb, c->point0);
    o->separation = c->separation;
    o->feature_id = c->feature_id;
    o->active = 1;
  }
  out->point_count = k;
  out->points_found = q.found;
  return k;
}
