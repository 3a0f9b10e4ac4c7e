/* Narrow phase dispatcher, manifold reduction and world AABBs. */
#include "collide_internal.h"
#include "../geometry/triangle_mesh.h"
#include "convex.h"
#include "../geometry/hull.h"

/* One cell of the pair table: the routine for shapes (a, b) and the side it is written for. */
typedef struct tb_collide_entry {
  tb_collide_fn fn; /* NULL: the pair never makes contact (plane-plane, static against static) */
  int mirror;       /* 1: fn is written for (b, a): it runs on the exchanged shapes and the manifold
                     * is mirrored back (tb_manifold_mirror) */
} tb_collide_entry;

#define TB_NP_FN(name) {tb_collide_##name, 0}
#define TB_NP_MIRROR(name) {tb_collide_##name, 1}
#define TB_NP_NONE {NULL, 0}
#define TB_NP_GC TB_NP_FN(general_convex)
#define TB_NP_GCM TB_NP_MIRROR(general_convex)
#define TB_NP_MESH TB_NP_FN(convex_mesh)
#define TB_NP_MESHM TB_NP_MIRROR(convex_mesh)

_Static_assert(TB_SHAPE_TYPE_COUNT == 9, "a new shape type needs a row and a column in tb_collide_table");

/* Pair table [type of a][type of b] (as MuJoCo's mjCOLLISIONFUNC): each routine is written for the
 * lower type first, so the upper triangle calls it directly and the lower triangle calls the same
 * routine mirrored. Two shapes of one type run in a canonical order (tb_np_same_type_swap) so that
 * (a, b) and (b, a) give the same contact. Cylinder, ellipsoid and hull take the general convex
 * path (MPR / GJK / EPA); every convex shape against a heightfield or mesh goes through its
 * triangles. */
static const tb_collide_entry tb_collide_table[TB_SHAPE_TYPE_COUNT][TB_SHAPE_TYPE_COUNT] = {
    /*            plane / sphere / capsule / box / cylinder / ellipsoid / hull / heightfield / mesh */
    [TB_SHAPE_PLANE] = {TB_NP_NONE, TB_NP_FN(plane_sphere), TB_NP_FN(plane_capsule), TB_NP_FN(plane_box),
                        TB_NP_FN(plane_convex), TB_NP_FN(plane_convex), TB_NP_FN(plane_convex), TB_NP_NONE,
                        TB_NP_NONE},
    [TB_SHAPE_SPHERE] = {TB_NP_MIRROR(plane_sphere), TB_NP_FN(sphere_sphere), TB_NP_FN(sphere_capsule),
                         TB_NP_FN(sphere_box), TB_NP_GC, TB_NP_GC, TB_NP_GC, TB_NP_MESH, TB_NP_MESH},
    [TB_SHAPE_CAPSULE] = {TB_NP_MIRROR(plane_capsule), TB_NP_MIRROR(sphere_capsule), TB_NP_FN(capsule_capsule),
                          TB_NP_FN(capsule_box), TB_NP_GC, TB_NP_GC, TB_NP_GC, TB_NP_MESH, TB_NP_MESH},
    [TB_SHAPE_BOX] = {TB_NP_MIRROR(plane_box), TB_NP_MIRROR(sphere_box), TB_NP_MIRROR(capsule_box),
                      TB_NP_FN(box_box), TB_NP_GC, TB_NP_GC, TB_NP_GC, TB_NP_MESH, TB_NP_MESH},
    [TB_SHAPE_CYLINDER] = {TB_NP_MIRROR(plane_convex), TB_NP_GCM, TB_NP_GCM, TB_NP_GCM, TB_NP_GC, TB_NP_GC,
                           TB_NP_GC, TB_NP_MESH, TB_NP_MESH},
    [TB_SHAPE_ELLIPSOID] = {TB_NP_MIRROR(plane_convex), TB_NP_GCM, TB_NP_GCM, TB_NP_GCM, TB_NP_GCM, TB_NP_GC,
                            TB_NP_GC, TB_NP_MESH, TB_NP_MESH},
    [TB_SHAPE_HULL] = {TB_NP_MIRROR(plane_convex), TB_NP_GCM, TB_NP_GCM, TB_NP_GCM, TB_NP_GCM, TB_NP_GCM,
                       TB_NP_GC, TB_NP_MESH, TB_NP_MESH},
    [TB_SHAPE_HEIGHTFIELD] = {TB_NP_NONE, TB_NP_MESHM, TB_NP_MESHM, TB_NP_MESHM, TB_NP_MESHM, TB_NP_MESHM,
                              TB_NP_MESHM, TB_NP_NONE, TB_NP_NONE},
    [TB_SHAPE_MESH] = {TB_NP_NONE, TB_NP_MESHM, TB_NP_MESHM, TB_NP_MESHM, TB_NP_MESHM, TB_NP_MESHM,
                       TB_NP_MESHM, TB_NP_NONE, TB_NP_NONE},
};

/* -1 / 0 / +1 total-order comparison of floats (NaN never reaches here in valid input). */
static int tb_np_cmpf(float x, float y) { return x < y ? -1 : (x > y ? 1 : 0); }

/* Canonical order of two shapes of the same type, so that (a,b) and (b,a) run the very same
 * computation: sizes first, then the position projected on a generic direction (1, √2, √3), which
 * does not tie for touching shapes laid out along axes or lattice diagonals (the order therefore
 * does not flip from frame to frame), then the raw pose. Returns 1 when b must go first. */
static int tb_np_same_type_swap(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b,
                                tb_transform tb) {
  for (int i = 0; i < 4; ++i) {
    int c = tb_np_cmpf(a->params[i], b->params[i]);
    if (c) return c > 0;
  }
  const tb_vec3 w = {1.0f, 1.41421356f, 1.73205081f};
  int c = tb_np_cmpf(tb_dot(ta.p, w), tb_dot(tb.p, w));
  if (c) return c > 0;
  const float ka[7] = {ta.p.x, ta.p.y, ta.p.z, ta.q.x, ta.q.y, ta.q.z, ta.q.w};
  const float kb[7] = {tb.p.x, tb.p.y, tb.p.z, tb.q.x, tb.q.y, tb.q.z, tb.q.w};
  for (int i = 0; i < 7; ++i) {
    c = tb_np_cmpf(ka[i], kb[i]);
    if (c) return c > 0;
  }
  return 0;
}

int tb_collide(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b, tb_transform tb,
               float max_separation, tb_manifold* out) {
  out->normal = tb_v3(0.0f, 0.0f, 1.0f);
  out->point_count = 0;
  out->points_found = 0;
  if (a->type < 0 || a->type >= TB_SHAPE_TYPE_COUNT || b->type < 0 || b->type >= TB_SHAPE_TYPE_COUNT)
    return 0;
  const tb_collide_entry* e = &tb_collide_table[a->type][b->type];
  tb_collide_fn fn = e->fn;
  if (!fn) return 0;
  int swap = e->mirror || (a->type == b->type && tb_np_same_type_swap(a, ta, b, tb));
  int n = swap ? fn(b, tb, a, ta, max_separation, out) : fn(a, ta, b, tb, max_separation, out);
  out->point_count = n;
  if (out->points_found < n) out->points_found = n; /* routines that reduce set it higher */
  if (swap) tb_manifold_mirror(out, n);
  return n;
}

/* Signed doubled area of triangle (p, q, r) about normal n. */
static float tb_np_area(tb_vec3 p, tb_vec3 q, tb_vec3 r, tb_vec3 n) {
  return tb_dot(tb_cross(tb_sub(q, p), tb_sub(r, p)), n);
}

/* Area of the convex hull of 4 points in the plane of normal n (max over the 3 quadrilateral
 * orderings and the 4 triangles: self-intersecting or non-convex orderings are never larger). */
static float tb_np_hull4_area(tb_vec3 p0, tb_vec3 p1, tb_vec3 p2, tb_vec3 p3, tb_vec3 n) {
  float t012 = tb_np_area(p0, p1, p2, n), t023 = tb_np_area(p0, p2, p3, n);
  float t013 = tb_np_area(p0, p1, p3, n), t123 = tb_np_area(p1, p2, p3, n);
  /* doubled shoelace areas of the three cyclic orderings, as fans from p0 */
  float q0 = fabsf(t012 + t023);          /* p0 p1 p2 p3 */
  float q1 = fabsf(t013 + tb_np_area(p0, p3, p2, n)); /* p0 p1 p3 p2 */
  float q2 = fabsf(tb_np_area(p0, p2, p1, n) + tb_np_area(p0, p1, p3, n)); /* p0 p2 p1 p3 */
  float m = fmaxf(q0, fmaxf(q1, q2));
  m = fmaxf(m, fmaxf(fmaxf(fabsf(t012), fabsf(t023)), fmaxf(fabsf(t013), fabsf(t123))));
  return m;
}

int tb_np_reduce_points(const tb_manifold_point* cand, int count, tb_vec3 normal, tb_manifold* out) {
  if (count <= TB_MAX_MANIFOLD_POINTS) {
    for (int i = 0; i < count; ++i) out->points[i] = cand[i];
    return count;
  }
  /* the deepest (first on ties) */
  int d = 0;
  for (int i = 1; i < count; ++i)
    if (cand[i].separation < cand[d].separation) d = i;
  /* the three others maximising the area of the kept polygon; a later choice must be larger by a
   * relative margin so that near-ties resolve the same way from frame to frame */
  int bi = -1, bj = -1, bk = -1;
  float best = -1.0f;
  tb_vec3 pd = cand[d].point1;
  for (int i = 0; i < count; ++i) {
    if (i == d) continue;
    for (int j = i + 1; j < count; ++j) {
      if (j == d) continue;
      for (int k = j + 1; k < count; ++k) {
        if (k == d) continue;
        float ar = tb_np_hull4_area(pd, cand[i].point1, cand[j].point1, cand[k].point1, normal);
        if (ar > best * (1.0f + 1e-4f) + 1e-12f) { best = ar; bi = i; bj = j; bk = k; }
      }
    }
  }
  int n = 0;
  /* keep the candidates' original (cyclic) order */
  for (int i = 0; i < count; ++i)
    if (i == d || i == bi || i == bj || i == bk) out->points[n++] = cand[i];
  return n;
}

void tb_shape_aabb(const tb_shape_geom* g, tb_transform t, tb_vec3* lower, tb_vec3* upper) {
  const float big = 1e18f;
  switch (g->type) {
    case TB_SHAPE_SPHERE: {
      float r = g->params[0];
      *lower = tb_sub(t.p, tb_v3(r, r, r));
      *upper = tb_add(t.p, tb_v3(r, r, r));
      return;
    }
    case TB_SHAPE_CAPSULE: {
      float r = g->params[0], h = g->params[1];
      tb_vec3 ax = tb_rotate(t.q, tb_v3(0.0f, h, 0.0f));
      tb_vec3 e0 = tb_sub(t.p, ax), e1 = tb_add(t.p, ax);
      *lower = tb_sub(tb_vmin(e0, e1), tb_v3(r, r, r));
      *upper = tb_add(tb_vmax(e0, e1), tb_v3(r, r, r));
      return;
    }
    case TB_SHAPE_BOX: {
      tb_mat3 m = tb_mat3_from_quat(t.q);
      tb_vec3 e = tb_add(tb_add(tb_scale(tb_vabs(m.cx), g->params[0]), tb_scale(tb_vabs(m.cy), g->params[1])),
                         tb_scale(tb_vabs(m.cz), g->params[2]));
      *lower = tb_sub(t.p, e);
      *upper = tb_add(t.p, e);
      return;
    }
    case TB_SHAPE_PLANE: {
      *lower = tb_v3(-big, -big, -big);
      *upper = tb_v3(big, big, big);
      /* exactly axis-aligned world normal: the half-space is bounded along that axis */
      tb_vec3 n = tb_rotate(t.q, tb_v3(g->params[0], g->params[1], g->params[2]));
      float d = g->params[3] + tb_dot(n, t.p);
      for (int k = 0; k < 3; ++k) {
        int j = (k + 1) % 3, m = (k + 2) % 3;
        if (tb_comp(n, j) != 0.0f || tb_comp(n, m) != 0.0f) continue;
        float nk = tb_comp(n, k);
        if (nk == 1.0f) tb_np_set_comp(upper, k, d);
        else if (nk == -1.0f) tb_np_set_comp(lower, k, -d);
      }
      return;
    }
    case TB_SHAPE_HEIGHTFIELD:
    case TB_SHAPE_MESH: {
      /* local bounds, rotated: centre and |R| half extents */
      tb_vec3 lo, hi;
      if (g->type == TB_SHAPE_MESH) { lo = ((const tb_mesh_data*)g->data)->lower; hi = ((const tb_mesh_data*)g->data)->upper; }
      else { lo = ((const tb_heightfield_data*)g->data)->lower; hi = ((const tb_heightfield_data*)g->data)->upper; }
      tb_vec3 c = tb_transform_point(t, tb_scale(tb_add(lo, hi), 0.5f)), h = tb_scale(tb_sub(hi, lo), 0.5f);
      tb_mat3 m = tb_mat3_from_quat(t.q);
      tb_vec3 e = tb_add(tb_add(tb_scale(tb_vabs(m.cx), h.x), tb_scale(tb_vabs(m.cy), h.y)), tb_scale(tb_vabs(m.cz), h.z));
      *lower = tb_sub(c, e);
      *upper = tb_add(c, e);
      return;
    }
    /* -- aabb section: cylinder, ellipsoid, hull -- */
    case TB_SHAPE_CYLINDER: {
      /* per world axis: half height times the axis component plus the disc's radius extent */
      float r = g->params[0], h = g->params[1];
      tb_vec3 ax = tb_rotate(t.q, tb_v3(0, 1, 0));
      tb_vec3 e = tb_v3(h * fabsf(ax.x) + r * sqrtf(fmaxf(0.0f, 1.0f - ax.x * ax.x)),
                        h * fabsf(ax.y) + r * sqrtf(fmaxf(0.0f, 1.0f - ax.y * ax.y)),
                        h * fabsf(ax.z) + r * sqrtf(fmaxf(0.0f, 1.0f - ax.z * ax.z)));
      *lower = tb_sub(t.p, e);
      *upper = tb_add(t.p, e);
      return;
    }
    case TB_SHAPE_ELLIPSOID: {
      /* support along world axis i: sqrt(Σ_j (R_ij a_j)²) */
      tb_mat3 m = tb_mat3_from_quat(t.q);
      tb_vec3 cx = tb_scale(m.cx, g->params[0]), cy = tb_scale(m.cy, g->params[1]), cz = tb_scale(m.cz, g->params[2]);
      tb_vec3 e = tb_v3(sqrtf(cx.x * cx.x + cy.x * cy.x + cz.x * cz.x), sqrtf(cx.y * cx.y + cy.y * cy.y + cz.y * cz.y),
                        sqrtf(cx.z * cx.z + cy.z * cy.z + cz.z * cz.z));
      *lower = tb_sub(t.p, e);
      *upper = tb_add(t.p, e);
      return;
    }
    case TB_SHAPE_HULL: {
      const tb_hull* hl = (const tb_hull*)g->data;
      *lower = tb_v3(big, big, big);
      *upper = tb_v3(-big, -big, -big);
      for (int32_t i = 0; hl && i < hl->vertex_count; ++i) {
        tb_vec3 p = tb_transform_point(t, hl->vertices[i]);
        *lower = tb_vmin(*lower, p);
        *upper = tb_vmax(*upper, p);
      }
      if (!hl) *lower = *upper = t.p;
      return;
    }
    default:
      *lower = tb_v3(0.0f, 0.0f, 0.0f);
      *upper = tb_v3(0.0f, 0.0f, 0.0f);
      return;
  }
}

void tb_shape_data_free(int32_t type, void* data) {
  (void)type;
  if (!data) return;
  /* -- shape data section: hull / heightfield / mesh destroy by type -- */
  if (type == TB_SHAPE_HEIGHTFIELD) tb_heightfield_data_free((tb_heightfield_data*)data);
  if (type == TB_SHAPE_MESH) tb_mesh_data_free((tb_mesh_data*)data);
  if (type == TB_SHAPE_HULL) tb_hull_free((tb_hull*)data);
}
