/* Support functions of the convex shapes and the general convex contact: the first point by GJK
 * (separated) or MPR / EPA (overlapping), then the multi-point rule: face clipping for polytope
 * pairs, Genesis' small pose perturbations about the first normal otherwise. */
#include "convex.h"

#include "../geometry/hull.h"
#include "collide_internal.h"

/* Perturbation angle (rad) and directions of the Genesis multi-contact rule: 4 tilts about
 * axes at 90° in the contact plane (enough for 4 points on a cap rim or both ends of a line).
 * The directions are fixed in the contact frame, so a point keeps its id (the direction's index)
 * from frame to frame; the first point joins them only when fewer than 3 were found, so that a
 * face contact keeps the same 4 points instead of an area choice among near-ties. */
#define TB_PERTURB_ANGLE 0.01f
#define TB_PERTURB_COUNT 4
/* A perturbed contact is kept when its normal is within acos(0.99) ≈ 8° of the first one. */
#define TB_PERTURB_NORMAL_COS 0.99f
/* Face clipping when a face normal is within acos(0.999) ≈ 2.6° of the contact normal: a face
 * or vertex contact between polytopes has a face normal as its normal; anything else (edge–edge)
 * keeps the general rule. */
#define TB_CLIP_FACE_COS 0.999f
/* A polytope face lying on a plane gives its vertices as candidates within acos(0.95) ≈ 18°
 * (each candidate keeps its own exact separation). */
#define TB_FACE_COS 0.95f
#define TB_CLIP_MAX 64
/* Overlaps shallower than this fraction of the smaller shape's size are resolved by GJK on the
 * shapes moved apart (exact closest features) rather than by the penetration normal. */
#define TB_SHALLOW_FRACTION 0.02f

static tb_vec3 local_support(const tb_convex* c, tb_vec3 d) {
  const float* p = c->params;
  switch (c->type) {
    case TB_SHAPE_SPHERE: return tb_scale(tb_np_normalize_or(d, tb_v3(0, 1, 0)), p[0]);
    case TB_SHAPE_CAPSULE:
      return tb_add(tb_v3(0, d.y >= 0.0f ? p[1] : -p[1], 0), tb_scale(tb_np_normalize_or(d, tb_v3(0, 1, 0)), p[0]));
    case TB_SHAPE_BOX:
      return tb_v3(d.x >= 0.0f ? p[0] : -p[0], d.y >= 0.0f ? p[1] : -p[1], d.z >= 0.0f ? p[2] : -p[2]);
    case TB_SHAPE_CYLINDER: {
      float xz = sqrtf(d.x * d.x + d.z * d.z);
      float y = d.y >= 0.0f ? p[1] : -p[1];
      /* along the axis: a rim point (a cap corner, as a polytope vertex would be) */
      if (!(xz > 1e-7f * tb_length(d))) return tb_v3(p[0], y, 0);
      return tb_v3(p[0] * d.x / xz, y, p[0] * d.z / xz);
    }
    case TB_SHAPE_ELLIPSOID: {
      /* x = A² d / |A d| for the ellipsoid xᵀ A⁻² x = 1, A = diag(semi-axes) */
      tb_vec3 ad = tb_v3(p[0] * d.x, p[1] * d.y, p[2] * d.z);
      float l = tb_length(ad);
      if (!(l > 0.0f)) return tb_v3(0, p[1], 0);
      return tb_v3(p[0] * ad.x / l, p[1] * ad.y / l, p[2] * ad.z / l);
    }
    case TB_SHAPE_HULL: {
      const tb_hull* h = (const tb_hull*)c->data;
      return h->vertices[tb_hull_support(h, d)];
    }
    case TB_CONVEX_TRIANGLE: {
      float d0 = tb_dot(c->tri[0], d), d1 = tb_dot(c->tri[1], d), d2 = tb_dot(c->tri[2], d);
      return d0 >= d1 && d0 >= d2 ? c->tri[0] : (d1 >= d2 ? c->tri[1] : c->tri[2]);
    }
    default: return tb_v3(0, 0, 0);
  }
}

tb_vec3 tb_convex_support(const tb_convex* c, tb_vec3 dir) {
  return tb_transform_point(c->pose, local_support(c, tb_inv_rotate(c->pose.q, dir)));
}

tb_vec3 tb_convex_core_support(const tb_convex* c, tb_vec3 dir) {
  if (c->type == TB_SHAPE_SPHERE) return c->pose.p;
  if (c->type == TB_SHAPE_CAPSULE) {
    tb_vec3 d = tb_inv_rotate(c->pose.q, dir);
    return tb_transform_point(c->pose, tb_v3(0, d.y >= 0.0f ? c->params[1] : -c->params[1], 0));
  }
  return tb_convex_support(c, dir);
}

float tb_convex_radius(const tb_convex* c) {
  return c->type == TB_SHAPE_SPHERE || c->type == TB_SHAPE_CAPSULE ? c->params[0] : 0.0f;
}

tb_vec3 tb_convex_center(const tb_convex* c) {
  if (c->type == TB_SHAPE_HULL) return tb_transform_point(c->pose, ((const tb_hull*)c->data)->centroid);
  if (c->type == TB_CONVEX_TRIANGLE)
    return tb_transform_point(c->pose, tb_scale(tb_add(tb_add(c->tri[0], c->tri[1]), c->tri[2]), 1.0f / 3.0f));
  return c->pose.p;
}

/* A length scale of the shape (m): points closer than a fraction of it are one contact. */
static float convex_size(const tb_convex* c) {
  const float* p = c->params;
  switch (c->type) {
    case TB_SHAPE_SPHERE: return p[0];
    case TB_SHAPE_CAPSULE: return p[0] + p[1];
    case TB_SHAPE_BOX:
    case TB_SHAPE_ELLIPSOID: return fminf(p[0], fminf(p[1], p[2]));
    case TB_SHAPE_CYLINDER: return fminf(p[0], p[1]);
    case TB_SHAPE_HULL: return ((const tb_hull*)c->data)->radius;
    case TB_CONVEX_TRIANGLE:
      return fmaxf(tb_length(tb_sub(c->tri[1], c->tri[0])), tb_length(tb_sub(c->tri[2], c->tri[0])));
    default: return 1.0f;
  }
}

tb_convex tb_convex_from_geom(const tb_shape_geom* g, tb_transform t) {
  tb_convex c;
  c.type = g->type;
  for (int i = 0; i < 4; ++i) c.params[i] = g->params[i];
  c.data = g->data;
  c.tri[0] = c.tri[1] = c.tri[2] = tb_v3(0, 0, 0);
  c.pose = t;
  return c;
}

tb_convex_options tb_convex_default_options(void) {
  tb_convex_options o = {TB_PENETRATION_MPR, TB_MULTI_CLIP, 1};
  return o;
}

static int is_polytope(const tb_convex* c) {
  return c->type == TB_SHAPE_BOX || c->type == TB_SHAPE_HULL || c->type == TB_CONVEX_TRIANGLE;
}

/* Overlap of a and b along unit u (from a to b), cores and radii included (m). */
static float overlap_along(const tb_convex* a, const tb_convex* b, tb_vec3 u) {
  return tb_dot(tb_convex_core_support(a, u), u) - tb_dot(tb_convex_core_support(b, tb_neg(u)), u) +
         tb_convex_radius(a) + tb_convex_radius(b);
}

/* Genesis' check that the MPR portal is minimal: the overlap along the shapes' axes (signed
 * towards the MPR normal) must not be smaller than the MPR depth. */
static int mpr_is_minimal(const tb_convex* a, const tb_convex* b, tb_vec3 n, float depth) {
  const tb_quat qs[2] = {a->pose.q, b->pose.q};
  float core = depth + tb_convex_radius(a) + tb_convex_radius(b);
  for (int s = 0; s < 2; ++s)
    for (int k = 0; k < 3; ++k) {
      tb_vec3 u = tb_rotate(qs[s], tb_np_axis(k));
      if (tb_dot(u, n) < 0.0f) u = tb_neg(u);
      if (overlap_along(a, b, u) < core * (1.0f - 1e-4f) - 1e-6f) return 0;
    }
  return 1;
}

/* The first contact point of a and b: returns 0 when they are farther apart than max_separation.
 * *answered (may be NULL): the tb_pair_method whose result was kept; *refined (may be NULL): 1 when
 * the shallow or touching step below replaced the normal or points. */
static int first_contact(const tb_convex* a, const tb_convex* b, float max_separation, int32_t method,
                         tb_manifold_point* pt, tb_vec3* normal, int32_t* answered, int32_t* refined) {
  int32_t by = TB_PAIR_GJK, redone = 0;
  tb_convex_result r;
  tb_gjk(a, b, &r);
  float ra = tb_convex_radius(a), rb = tb_convex_radius(b);
  float shallow = TB_SHALLOW_FRACTION * fminf(convex_size(a), convex_size(b));
  tb_vec3 n, pa, pb;
  float core_gap; /* core distance (> 0) or minus the core depth (< 0), m */
  if (!r.overlap) {
    if (r.distance - ra - rb > max_separation) return 0;
    n = r.normal; pa = r.point_a; pb = r.point_b;
    core_gap = r.distance;
  } else {
    tb_convex_result m;
    int done = 0;
    if (method == TB_PENETRATION_MPR) {
      tb_mpr(a, b, &m);
      /* GJK/EPA refines when MPR did not converge, when the portal is not minimal along the
       * shapes' axes (Genesis), and when shallow (the portal normal is arbitrary at zero depth) */
      done = m.overlap && m.converged && m.distance > shallow && mpr_is_minimal(a, b, m.normal, m.distance);
    }
    if (!done) {
      m = r;
      tb_epa(a, b, &m);
    }
    by = done ? TB_PAIR_MPR : TB_PAIR_EPA;
    n = m.normal; pa = m.point_a; pb = m.point_b;
    core_gap = -m.distance;
  }
  if (fabsf(core_gap) < 0.05f * shallow) {
    /* (nearly) touching: a zero-length GJK vector or a zero-depth polytope has no meaningful
     * direction. Push b into a along the centre line for a well-posed overlap whose normal
     * guides the separation below. */
    tb_vec3 dc = tb_np_normalize_or(tb_sub(tb_convex_center(b), tb_convex_center(a)), n);
    tb_convex bi = *b;
    bi.pose.p = tb_sub(bi.pose.p, tb_scale(dc, shallow));
    tb_convex_result q;
    tb_gjk(a, &bi, &q);
    if (q.overlap) {
      tb_epa(a, &bi, &q);
      if (q.distance > 0.0f) { n = q.normal; redone = 1; }
    }
  }
  if (core_gap < 0.0f ? -core_gap < shallow : core_gap < 0.05f * shallow) {
    /* shallow overlap or touching (resting contact): move b out along the normal by a known
     * distance and let GJK find the closest features exactly; the separation is the GJK
     * distance minus that distance along the GJK normal */
    tb_vec3 t = tb_scale(n, shallow - core_gap);
    tb_convex bt = *b;
    bt.pose.p = tb_add(bt.pose.p, t);
    tb_convex_result g;
    tb_gjk(a, &bt, &g);
    if (!g.overlap && g.distance > 0.0f && tb_dot(g.normal, n) > 0.0f) {
      n = g.normal; pa = g.point_a; pb = tb_sub(g.point_b, t);
      redone = 1;
    }
  }
  if (answered) *answered = by;
  if (refined) *refined = redone;
  tb_vec3 p0 = tb_add(pa, tb_scale(n, ra)), p1 = tb_sub(pb, tb_scale(n, rb));
  tb_np_point(pt, p0, p1, n, 0);
  pt->active = 1;
  *normal = n;
  return pt->separation <= max_separation;
}

/* The face of polytope c whose outward normal is most aligned with world dir: vertices (world,
 * counter-clockwise from outside) and vertex ids. Returns the vertex count (0: not a polytope). */
static int polytope_face(const tb_convex* c, tb_vec3 dir, tb_vec3* verts, int32_t* vid, tb_vec3* normal,
                         int32_t* face_id) {
  tb_vec3 d = tb_inv_rotate(c->pose.q, dir);
  int n = 0;
  tb_vec3 nl;
  if (c->type == TB_SHAPE_BOX) {
    tb_vec3 ad = tb_vabs(d);
    int k = ad.x >= ad.y && ad.x >= ad.z ? 0 : (ad.y >= ad.z ? 1 : 2);
    float s = tb_comp(d, k) >= 0.0f ? 1.0f : -1.0f;
    int j = (k + 1) % 3, l = (k + 2) % 3;
    nl = tb_v3(0, 0, 0);
    tb_np_set_comp(&nl, k, s);
    /* corners in counter-clockwise order about +axis k: (j,l) = (-,-), (+,-), (+,+), (-,+) */
    const float sj[4] = {-1, 1, 1, -1}, sl[4] = {-1, -1, 1, 1};
    for (int i = 0; i < 4; ++i) {
      int ii = s > 0.0f ? i : 3 - i;
      tb_vec3 v = tb_v3(0, 0, 0);
      tb_np_set_comp(&v, k, s * c->params[k]);
      tb_np_set_comp(&v, j, sj[ii] * c->params[j]);
      tb_np_set_comp(&v, l, sl[ii] * c->params[l]);
      verts[n] = v;
      vid[n] = (v.x > 0) | ((v.y > 0) << 1) | ((v.z > 0) << 2);
      ++n;
    }
    *face_id = 2 * k + (s > 0.0f);
  } else if (c->type == TB_SHAPE_HULL) {
    const tb_hull* h = (const tb_hull*)c->data;
    int32_t best = 0;
    float bd = -INFINITY;
    for (int32_t f = 0; f < h->face_count; ++f) {
      float x = tb_dot(h->face_normal[f], d);
      if (x > bd) { bd = x; best = f; }
    }
    int32_t s = h->face_first[best], e = h->face_first[best + 1];
    if (e - s > TB_CLIP_MAX) return 0;
    for (int32_t i = s; i < e; ++i) {
      verts[n] = h->vertices[h->face_index[i]];
      vid[n] = h->face_index[i];
      ++n;
    }
    nl = h->face_normal[best];
    *face_id = best;
  } else if (c->type == TB_CONVEX_TRIANGLE) {
    tb_vec3 tn = tb_np_normalize_or(tb_cross(tb_sub(c->tri[1], c->tri[0]), tb_sub(c->tri[2], c->tri[0])), tb_v3(0, 1, 0));
    int back = tb_dot(tn, d) < 0.0f;
    for (int i = 0; i < 3; ++i) {
      int ii = back ? 2 - i : i;
      verts[n] = c->tri[ii];
      vid[n] = ii;
      ++n;
    }
    nl = back ? tb_neg(tn) : tn;
    *face_id = back;
  } else {
    return 0;
  }
  for (int i = 0; i < n; ++i) verts[i] = tb_transform_point(c->pose, verts[i]);
  *normal = tb_rotate(c->pose.q, nl);
  return n;
}

typedef struct clip_vertex { tb_vec3 p; uint32_t tag; } clip_vertex;

/* Keeps the part of polygon in[] with dot(p − o, s) <= 0; new vertices tagged with the side. */
static int clip_side(const clip_vertex* in, int n, tb_vec3 o, tb_vec3 s, uint32_t side_tag, clip_vertex* out) {
  int m = 0;
  for (int i = 0; i < n; ++i) {
    const clip_vertex* p = &in[i];
    const clip_vertex* q = &in[(i + 1) % n];
    float dp = tb_dot(tb_sub(p->p, o), s), dq = tb_dot(tb_sub(q->p, o), s);
    if (dp <= 0.0f && m < TB_CLIP_MAX) out[m++] = *p;
    if ((dp < 0.0f) != (dq < 0.0f) && dp != dq && m < TB_CLIP_MAX) {
      float t = dp / (dp - dq);
      out[m].p = tb_lerp(p->p, q->p, t);
      out[m].tag = 0x8000u | ((p->tag & 0x7Fu) << 7) | (side_tag & 0x7Fu);
      ++m;
    }
  }
  return m;
}

/* Box–box style clipping of the incident face against the reference face. Returns the number of
 * candidates written to cand (0 when the contact is not face-on). */
static int clip_polytopes(const tb_convex* a, const tb_convex* b, tb_vec3 n, float max_separation,
                          tb_manifold_point* cand, tb_vec3* out_normal) {
  tb_vec3 va[TB_CLIP_MAX], vb[TB_CLIP_MAX], na, nb;
  int32_t ia[TB_CLIP_MAX], ib[TB_CLIP_MAX], fa, fb;
  int ca = polytope_face(a, n, va, ia, &na, &fa);
  int cb = polytope_face(b, tb_neg(n), vb, ib, &nb, &fb);
  if (!ca || !cb) return 0;
  float sa = tb_dot(na, n), sb = -tb_dot(nb, n);
  if (fmaxf(sa, sb) < TB_CLIP_FACE_COS) return 0;
  int ref_a = sa >= sb - 1e-3f;
  const tb_convex* inc = ref_a ? b : a;
  tb_vec3 nref = ref_a ? na : nb;
  const tb_vec3* rv = ref_a ? va : vb;
  int rc = ref_a ? ca : cb;
  tb_vec3 iv[TB_CLIP_MAX], ni;
  int32_t ii[TB_CLIP_MAX], fi;
  int ic = polytope_face(inc, tb_neg(nref), iv, ii, &ni, &fi);
  if (!ic) return 0;
  clip_vertex buf0[TB_CLIP_MAX], buf1[TB_CLIP_MAX];
  for (int i = 0; i < ic; ++i) { buf0[i].p = iv[i]; buf0[i].tag = (uint32_t)ii[i] & 0x7FFFu; }
  int m = ic;
  clip_vertex* cur = buf0;
  clip_vertex* nxt = buf1;
  for (int e = 0; e < rc && m > 0; ++e) {
    tb_vec3 o = rv[e], ed = tb_sub(rv[(e + 1) % rc], rv[e]);
    tb_vec3 side = tb_cross(ed, nref); /* outward for a counter-clockwise polygon */
    m = clip_side(cur, m, o, side, (uint32_t)e, nxt);
    clip_vertex* t = cur; cur = nxt; nxt = t;
  }
  int k = 0;
  int32_t ref_face = ref_a ? fa : fb, inc_face = fi;
  for (int i = 0; i < m; ++i) {
    float sep = tb_dot(tb_sub(cur[i].p, rv[0]), nref);
    if (sep > max_separation) continue;
    tb_vec3 on_ref = tb_sub(cur[i].p, tb_scale(nref, sep));
    uint32_t id = ((uint32_t)ref_a << 31) | (((uint32_t)ref_face & 0x7Fu) << 24) | (((uint32_t)inc_face & 0xFFu) << 16) | (cur[i].tag & 0xFFFFu);
    if (ref_a) tb_np_point(&cand[k], on_ref, cur[i].p, nref, id);
    else tb_np_point(&cand[k], cur[i].p, on_ref, tb_neg(nref), id);
    cand[k].active = 1;
    ++k;
  }
  *out_normal = ref_a ? nref : tb_neg(nref);
  return k;
}

/* Drops candidates closer than tol to an earlier one. */
static int dedupe(tb_manifold_point* cand, int n, float tol) {
  int m = 0;
  for (int i = 0; i < n; ++i) {
    int dup = 0;
    for (int j = 0; j < m && !dup; ++j) dup = tb_length_sq(tb_sub(cand[i].point1, cand[j].point1)) < tol * tol;
    if (!dup) cand[m++] = cand[i];
  }
  return m;
}

/* At most 4 of n candidates into out: the exhaustive area rule up to 16 candidates; above, the
 * deepest, the farthest from it, then greedily the largest triangle and quadrilateral. */
static int reduce(tb_manifold_point* cand, int n, tb_vec3 normal, tb_manifold* out) {
  out->points_found = n;
  if (n <= 16) return tb_np_reduce_points(cand, n, normal, out);
  int keep[4];
  keep[0] = 0;
  for (int i = 1; i < n; ++i)
    if (cand[i].separation < cand[keep[0]].separation) keep[0] = i;
  float best = -1.0f;
  keep[1] = keep[0];
  for (int i = 0; i < n; ++i) {
    float d = tb_length_sq(tb_sub(cand[i].point1, cand[keep[0]].point1));
    if (d > best) { best = d; keep[1] = i; }
  }
  tb_vec3 p0 = cand[keep[0]].point1, p1 = cand[keep[1]].point1;
  best = -1.0f;
  keep[2] = keep[0];
  for (int i = 0; i < n; ++i) {
    float ar = fabsf(tb_dot(tb_cross(tb_sub(p1, p0), tb_sub(cand[i].point1, p0)), normal));
    if (ar > best) { best = ar; keep[2] = i; }
  }
  tb_vec3 p2 = cand[keep[2]].point1;
  /* the fourth on the other side of the widest edge: largest area added to the triangle */
  best = -1.0f;
  keep[3] = keep[0];
  for (int i = 0; i < n; ++i) {
    tb_vec3 p = cand[i].point1;
    float a01 = -tb_dot(tb_cross(tb_sub(p1, p0), tb_sub(p, p0)), normal);
    float a12 = -tb_dot(tb_cross(tb_sub(p2, p1), tb_sub(p, p1)), normal);
    float a20 = -tb_dot(tb_cross(tb_sub(p0, p2), tb_sub(p, p2)), normal);
    float s = tb_dot(tb_cross(tb_sub(p1, p0), tb_sub(p2, p0)), normal) >= 0.0f ? 1.0f : -1.0f;
    float ar = fmaxf(s * a01, fmaxf(s * a12, s * a20));
    if (ar > best) { best = ar; keep[3] = i; }
  }
  int m = 0;
  for (int i = 0; i < n; ++i)
    if (i == keep[0] || i == keep[1] || i == keep[2] || i == keep[3]) out->points[m++] = cand[i];
  return m;
}

/* Genesis multi-contact: b is turned by a small angle about axes perpendicular to the first
 * normal, through the first contact; every contact found is turned back onto the real b and
 * projected on a's tangent plane at the first contact (exact for a flat face of a; the point
 * on b is off by at most the angle times its distance from the first contact along b's
 * surface curvature). */
static int perturb_contacts(const tb_convex* a, const tb_convex* b, const tb_manifold_point* first, tb_vec3 n,
                            float max_separation, int32_t method, tb_manifold_point* cand) {
  int k = 0;
  tb_vec3 t0, t1;
  tb_basis(n, &t0, &t1);
  tb_vec3 c = tb_scale(tb_add(first->point0, first->point1), 0.5f);
  for (int i = 0; i < TB_PERTURB_COUNT; ++i) {
    float th = 2.0f * TB_PI * (float)i / (float)TB_PERTURB_COUNT;
    tb_vec3 axis = tb_add(tb_scale(t0, cosf(th)), tb_scale(t1, sinf(th)));
    tb_quat q = tb_quat_axis_angle(axis, TB_PERTURB_ANGLE);
    tb_convex bp = *b;
    bp.pose.q = tb_quat_normalize(tb_quat_mul(q, b->pose.q));
    bp.pose.p = tb_add(c, tb_rotate(q, tb_sub(b->pose.p, c)));
    tb_manifold_point pt;
    tb_vec3 nk;
    if (!first_contact(a, &bp, max_separation + 1.0f, method, &pt, &nk, NULL, NULL)) continue;
    if (tb_dot(nk, n) < TB_PERTURB_NORMAL_COS) continue;
    tb_vec3 p1 = tb_add(c, tb_inv_rotate(q, tb_sub(pt.point1, c)));
    float sep = tb_dot(tb_sub(p1, first->point0), n);
    if (sep > max_separation) continue;
    tb_np_point(&cand[k], tb_sub(p1, tb_scale(n, sep)), p1, n, (uint32_t)(i + 1));
    cand[k].active = 1;
    ++k;
  }
  return k;
}

/* Drops candidates closer than tol to an earlier one; then, when fewer than 3 remain, puts
 * `first` in front (deduplicated again). Returns the count. */
static int add_first_if_few(tb_manifold_point* cand, int k, const tb_manifold_point* first, float tol) {
  k = dedupe(cand, k, tol);
  if (k >= 3) return k;
  for (int i = k; i > 0; --i) cand[i] = cand[i - 1];
  cand[0] = *first;
  return dedupe(cand, k + 1, tol);
}


static int is_analytic(int32_t t) { return t == TB_SHAPE_SPHERE || t == TB_SHAPE_CAPSULE || t == TB_SHAPE_BOX; }

/* 1 when b must go first: the canonical order (lower type first; for equal types the centre
 * projected on a generic direction, then the raw pose), so that (a, b) and (b, a) run the very
 * same computation and give mirrored results. */
static int convex_swap(const tb_convex* a, const tb_convex* b) {
  if (a->type != b->type) return a->type > b->type;
  const tb_vec3 g = {1.0f, 1.41421356f, 1.73205081f};
  float ka = tb_dot(tb_convex_center(a), g), kb = tb_dot(tb_convex_center(b), g);
  if (ka != kb) return ka > kb;
  const float pa[7] = {a->pose.p.x, a->pose.p.y, a->pose.p.z, a->pose.q.x, a->pose.q.y, a->pose.q.z, a->pose.q.w};
  const float pb[7] = {b->pose.p.x, b->pose.p.y, b->pose.p.z, b->pose.q.x, b->pose.q.y, b->pose.q.z, b->pose.q.w};
  for (int i = 0; i < 7; ++i)
    if (pa[i] != pb[i]) return pa[i] > pb[i];
  return 0;
}

static int collide_convex_ordered(const tb_convex* a, const tb_convex* b, float max_separation,
                                  const tb_convex_options* opt, tb_manifold* out);

int tb_collide_convex_ex(const tb_convex* a, const tb_convex* b, float max_separation, const tb_convex_options* opt,
                         tb_manifold* out) {
  if (!convex_swap(a, b)) return collide_convex_ordered(a, b, max_separation, opt, out);
  int n = collide_convex_ordered(b, a, max_separation, opt, out);
  tb_manifold_mirror(out, n);
  return n;
}

static int collide_convex_ordered(const tb_convex* a, const tb_convex* b, float max_separation,
                                  const tb_convex_options* opt, tb_manifold* out) {
  out->point_count = 0;
  out->points_found = 0;
  out->normal = tb_v3(0, 0, 1);
  if (opt->analytic && is_analytic(a->type) && is_analytic(b->type)) {
    tb_shape_geom ga = {a->type, {a->params[0], a->params[1], a->params[2], a->params[3]}, NULL};
    tb_shape_geom gb = {b->type, {b->params[0], b->params[1], b->params[2], b->params[3]}, NULL};
    return tb_collide(&ga, a->pose, &gb, b->pose, max_separation, out);
  }
  tb_manifold_point first;
  tb_vec3 n;
  if (!first_contact(a, b, max_separation, opt->penetration, &first, &n, NULL, NULL)) return 0;
  tb_manifold_point cand[TB_CLIP_MAX + TB_PERTURB_COUNT + 1];
  int count = 0;
  tb_vec3 normal = n;
  int point_like = a->type == TB_SHAPE_SPHERE || b->type == TB_SHAPE_SPHERE;
  if (opt->multi_contact == TB_MULTI_CLIP && is_polytope(a) && is_polytope(b))
    count = clip_polytopes(a, b, n, max_separation, cand, &normal);
  if (count == 0 && opt->multi_contact != TB_MULTI_SINGLE && !point_like) {
    normal = n;
    count = perturb_contacts(a, b, &first, n, max_separation, opt->penetration, cand);
    count = add_first_if_few(cand, count, &first, 0.05f * fminf(convex_size(a), convex_size(b)));
  }
  if (count == 0) {
    out->normal = n;
    out->points[0] = first;
    out->point_count = 1;
    out->points_found = 1;
    return 1;
  }
  out->normal = normal;
  out->point_count = reduce(cand, count, normal, out);
  return out->point_count;
}

int tb_convex_query(const tb_convex* a, const tb_convex* b, float max_separation, tb_manifold_point* pt,
                    tb_vec3* normal, int32_t* method, int32_t* refined) {
  int swap = convex_swap(a, b);
  const tb_convex* x = swap ? b : a;
  const tb_convex* y = swap ? a : b;
  *refined = 0;
  if (is_analytic(x->type) && is_analytic(y->type)) {
    tb_manifold m;
    if (collide_convex_ordered(x, y, max_separation, &(tb_convex_options){TB_PENETRATION_MPR, TB_MULTI_SINGLE, 1}, &m) == 0)
      return 0;
    int k = 0;
    for (int i = 1; i < m.point_count; ++i)
      if (m.points[i].separation < m.points[k].separation) k = i;
    *pt = m.points[k];
    *normal = m.normal;
    *method = TB_PAIR_ANALYTIC;
  } else if (!first_contact(x, y, max_separation, TB_PENETRATION_MPR, pt, normal, method, refined)) {
    return 0;
  }
  if (swap) { /* the result seen from a: normal from a to b, point0 on a */
    tb_vec3 t = pt->point0;
    pt->point0 = pt->point1;
    pt->point1 = t;
    *normal = tb_neg(*normal);
  }
  return 1;
}

int tb_collide_convex(const tb_convex* a, const tb_convex* b, float max_separation, tb_manifold* out) {
  tb_convex_options o = tb_convex_default_options();
  return tb_collide_convex_ex(a, b, max_separation, &o, out);
}

/* ---- narrow-phase routines ---- */

int tb_collide_general_convex(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b, tb_transform tb,
                              float max_separation, tb_manifold* out) {
  tb_convex ca = tb_convex_from_geom(a, ta), cb = tb_convex_from_geom(b, tb);
  tb_convex_options o = tb_convex_default_options();
  o.analytic = 0; /* the dispatcher sends analytic pairs to their routines itself */
  return tb_collide_convex_ex(&ca, &cb, max_separation, &o, out);
}

/* Plane (a) against a convex shape (b): the support in −n, the supports in −n tilted by the
 * perturbation angle (Genesis), and the vertices of a polytope face lying on the plane. */
int tb_collide_plane_convex(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b, tb_transform tb,
                            float max_separation, tb_manifold* out) {
  tb_vec3 n;
  float d;
  tb_np_plane_world(a, ta, &n, &d);
  tb_convex cb = tb_convex_from_geom(b, tb);
  tb_manifold_point cand[TB_CLIP_MAX + TB_PERTURB_COUNT + 1];
  int count = 0;
  out->normal = n;
  out->point_count = 0;
  out->points_found = 0;
  tb_vec3 fv[TB_CLIP_MAX], fn;
  int32_t fid[TB_CLIP_MAX], face;
  int fc = is_polytope(&cb) ? polytope_face(&cb, tb_neg(n), fv, fid, &fn, &face) : 0;
  if (fc && -tb_dot(fn, n) >= TB_FACE_COS)
    for (int i = 0; i < fc; ++i) {
      float sep = tb_dot(n, fv[i]) - d;
      if (sep > max_separation) continue;
      tb_np_point(&cand[count], tb_sub(fv[i], tb_scale(n, sep)), fv[i], n, 0x10000u | (uint32_t)fid[i]);
      cand[count++].active = 1;
    }
  tb_vec3 t0, t1;
  tb_basis(n, &t0, &t1);
  for (int i = 0; i < TB_PERTURB_COUNT; ++i) {
    float th = 2.0f * TB_PI * (float)i / (float)TB_PERTURB_COUNT;
    tb_vec3 axis = tb_add(tb_scale(t0, cosf(th)), tb_scale(t1, sinf(th)));
    tb_vec3 p = tb_convex_support(&cb, tb_rotate(tb_quat_axis_angle(axis, TB_PERTURB_ANGLE), tb_neg(n)));
    float sep = tb_dot(n, p) - d;
    if (sep > max_separation) continue;
    tb_np_point(&cand[count], tb_sub(p, tb_scale(n, sep)), p, n, (uint32_t)(i + 1));
    cand[count++].active = 1;
  }
  tb_vec3 p = tb_convex_support(&cb, tb_neg(n)); /* the deepest point */
  float sep = tb_dot(n, p) - d;
  if (sep <= max_separation) {
    tb_manifold_point deepest;
    tb_np_point(&deepest, tb_sub(p, tb_scale(n, sep)), p, n, 0u);
    deepest.active = 1;
    count = add_first_if_few(cand, count, &deepest, 0.05f * convex_size(&cb));
  } else {
    count = dedupe(cand, count, 0.05f * convex_size(&cb));
  }
  if (count == 0) return 0;
  return reduce(cand, count, n, out);
}
