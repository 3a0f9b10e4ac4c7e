/* Capsule pairs: plane-capsule, capsule-capsule, capsule-box. */
#include "collide_internal.h"

/* a = plane, b = capsule: each segment end within reach gives a point (2 when lying flat).
 * Feature id = segment end (0: local -y end, 1: +y end). A zero-length segment gives one point. */
int tb_collide_plane_capsule(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b,
                             tb_transform tb, float max_separation, tb_manifold* out) {
  tb_vec3 n;
  float d;
  tb_np_plane_world(a, ta, &n, &d);
  float r = b->params[0], h = b->params[1];
  tb_vec3 ax = tb_rotate(tb.q, tb_v3(0.0f, h, 0.0f));
  out->normal = n;
  int count = 0;
  int ends = h > 0.0f ? 2 : 1;
  for (int i = 0; i < ends; ++i) {
    tb_vec3 e = i == 0 ? tb_sub(tb.p, ax) : tb_add(tb.p, ax);
    float dist = tb_dot(n, e) - d;
    if (dist - r > max_separation) continue;
    tb_manifold_point* mp = &out->points[count];
    tb_np_point(mp, tb_mul_add(e, -dist, n), tb_mul_add(e, -r, n), n, (uint32_t)i);
    if (mp->separation <= max_separation) ++count;
  }
  return count;
}

/* a, b = capsules. Closest points of the two segments; when the segments are parallel (sine of the
 * angle < 0.02) and their projections overlap, two points at the ends of the overlap interval
 * (feature ids 1 and 2), else one point (feature id 0). Fallback normals when the segments touch:
 * the cross product of the axes, else the part of the centre offset perpendicular to the axis,
 * else a fixed perpendicular of the axis (or world +y for two points). */
int tb_collide_capsule_capsule(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b,
                               tb_transform tb, float max_separation, tb_manifold* out) {
  float ra = a->params[0], rb = b->params[0];
  tb_vec3 axa = tb_rotate(ta.q, tb_v3(0.0f, a->params[1], 0.0f));
  tb_vec3 axb = tb_rotate(tb.q, tb_v3(0.0f, b->params[1], 0.0f));
  tb_vec3 a0 = tb_sub(ta.p, axa), a1 = tb_add(ta.p, axa);
  tb_vec3 b0 = tb_sub(tb.p, axb), b1 = tb_add(tb.p, axb);
  float s, t;
  tb_np_closest_segments(a0, a1, b0, b1, &s, &t);
  tb_vec3 ca = tb_lerp(a0, a1, s), cb = tb_lerp(b0, b1, t);
  tb_vec3 d = tb_sub(cb, ca);
  float dist = tb_length(d);
  if (dist - ra - rb > max_separation) return 0;

  float la = 2.0f * tb_length(axa), lb = 2.0f * tb_length(axb);
  int has_a = la > 1e-6f, has_b = lb > 1e-6f;
  tb_vec3 ua = has_a ? tb_scale(axa, 2.0f / la) : tb_v3(0, 0, 0);
  tb_vec3 ub = has_b ? tb_scale(axb, 2.0f / lb) : tb_v3(0, 0, 0);
  tb_vec3 cr = tb_cross(ua, ub);
  float sin_ab = tb_length(cr);

  tb_vec3 n;
  if (dist > 1e-5f) {
    n = tb_scale(d, 1.0f / dist);
  } else {
    tb_vec3 off = tb_sub(tb.p, ta.p);
    if (has_a && has_b && sin_ab > 1e-3f) {
      n = tb_scale(cr, 1.0f / sin_ab);
      if (tb_dot(n, off) < 0.0f) n = tb_neg(n);
    } else if (has_a || has_b) {
      tb_vec3 u = has_a ? ua : ub;
      tb_vec3 perp = tb_mul_add(off, -tb_dot(off, u), u);
      /* the perpendicular part is rounding noise when the axes coincide */
      float pl = tb_length(perp);
      n = pl > 1e-4f * tb_length(off) + 1e-6f ? tb_scale(perp, 1.0f / pl) : tb_np_perpendicular(u);
    } else {
      n = tb_np_normalize_or(off, tb_v3(0.0f, 1.0f, 0.0f));
    }
  }
  out->normal = n;

  if (has_a && has_b && sin_ab < 0.02f) {
    float u0 = tb_dot(tb_sub(b0, a0), ua), u1 = tb_dot(tb_sub(b1, a0), ua);
    float lo = fmaxf(0.0f, fminf(u0, u1)), hi = fminf(la, fmaxf(u0, u1));
    if (hi - lo > 1e-5f) {
      int count = 0;
      tb_vec3 db = tb_sub(b1, b0);
      float lb2 = tb_length_sq(db);
      for (int k = 0; k < 2; ++k) {
        tb_vec3 pa = tb_mul_add(a0, k == 0 ? lo : hi, ua);
        float tt = tb_clampf(tb_dot(tb_sub(pa, b0), db) / lb2, 0.0f, 1.0f);
        tb_vec3 pb = tb_mul_add(b0, tt, db);
        tb_manifold_point* mp = &out->points[count];
        tb_np_point(mp, tb_mul_add(pa, ra, n), tb_mul_add(pb, -rb, n), n, (uint32_t)(1 + k));
        if (mp->separation <= max_separation) ++count;
      }
      return count;
    }
  }
  tb_np_point(&out->points[0], tb_mul_add(ca, ra, n), tb_mul_add(cb, -rb, n), n, 0u);
  return out->points[0].separation <= max_separation ? 1 : 0;
}

/* Box-local face manifold of a capsule segment [p0,p1] (radius r) against box face (axis k, side
 * sgn): the segment clipped to the face rectangle, its two ends projected on the face. Returns
 * the point count, or -1 when the clipped segment is empty. */
static int tb_np_capsule_box_face(tb_vec3 p0, tb_vec3 p1, float r, tb_vec3 h, int k, float sgn,
                                  tb_transform tb, float max_separation, tb_manifold* out) {
  tb_vec3 dseg = tb_sub(p1, p0);
  float t0 = 0.0f, t1 = 1.0f;
  for (int j = 0; j < 3; ++j) {
    if (j == k) continue;
    float pj = tb_comp(p0, j), dj = tb_comp(dseg, j), hj = tb_comp(h, j);
    if (fabsf(dj) < 1e-12f) {
      if (fabsf(pj) > hj) return -1;
      continue;
    }
    float e0 = (-hj - pj) / dj, e1 = (hj - pj) / dj;
    if (e0 > e1) { float tmp = e0; e0 = e1; e1 = tmp; }
    t0 = fmaxf(t0, e0);
    t1 = fminf(t1, e1);
  }
  if (t0 > t1) return -1;
  tb_vec3 nb = tb_scale(tb_np_axis(k), sgn); /* local, box -> capsule */
  tb_vec3 n = tb_rotate(tb.q, tb_neg(nb));
  out->normal = n;
  uint32_t face = (uint32_t)(2 * k + (sgn > 0.0f ? 1 : 0));
  int count = 0;
  int ends = t1 - t0 > 1e-6f ? 2 : 1;
  for (int e = 0; e < ends; ++e) {
    tb_vec3 s = tb_mul_add(p0, e == 0 ? t0 : t1, dseg);
    tb_vec3 pc = tb_mul_add(s, -r, nb);
    tb_vec3 pb = s;
    tb_np_set_comp(&pb, k, sgn * tb_comp(h, k));
    tb_manifold_point* mp = &out->points[count];
    tb_np_point(mp, tb_transform_point(tb, pc), tb_transform_point(tb, pb), n, 0x100u | (face << 1) | (uint32_t)e);
    if (mp->separation <= max_separation) ++count;
  }
  return count;
}

/* Whether segment p0 + t·dseg, t in [0, 1], meets the box of half extents h (slab clipping). */
static int tb_np_segment_meets_box(tb_vec3 p0, tb_vec3 dseg, tb_vec3 h) {
  int meets = 1;
  float t0 = 0.0f, t1 = 1.0f;
  for (int k = 0; k < 3 && meets; ++k) {
    float pk = tb_comp(p0, k), dk = tb_comp(dseg, k), hk = tb_comp(h, k);
    if (fabsf(dk) < 1e-12f) {
      if (fabsf(pk) > hk) meets = 0;
      continue;
    }
    float e0 = (-hk - pk) / dk, e1 = (hk - pk) / dk;
    if (e0 > e1) { float tmp = e0; e0 = e1; e1 = tmp; }
    t0 = fmaxf(t0, e0);
    t1 = fminf(t1, e1);
    if (t0 > t1) meets = 0;
  }
  return meets;
}

/* Lower bounds on the squared distance d2 that the edge test of tb_np_capsule_box_apart computes
 * between the segment (in the box [lo, hi]) and a box edge: per axis k the squared gap between the
 * segment's interval and the edge's, for an edge at +h_k (pos), at -h_k (neg) or along k (along),
 * each gap less a margin (1e-5 of the magnitudes, far above the rounding of the lerps there) so
 * that the computed component of the difference is at least as large. Summed in the order of
 * tb_length_sq, the bound is never above d2: an edge whose bound is not below the best so far
 * would fail `d2 < best`, and skipping its segment-segment test gives the same result bit for bit. */
typedef struct edge_gaps {
  float pos[3], neg[3], along[3];
} edge_gaps;

static edge_gaps edge_gaps_of(tb_vec3 lo, tb_vec3 hi, tb_vec3 h) {
  edge_gaps g;
  for (int k = 0; k < 3; ++k) {
    float slo = tb_comp(lo, k), shi = tb_comp(hi, k), hk = tb_comp(h, k);
    float margin = 1e-5f * (fabsf(slo) + fabsf(shi) + 2.0f * hk);
    float p = fmaxf(fmaxf(slo - hk, hk - shi) - margin, 0.0f);  /* edge coordinate +hk */
    float n = fmaxf(fmaxf(slo + hk, -hk - shi) - margin, 0.0f); /* edge coordinate -hk */
    float a = fmaxf(fmaxf(slo - hk, -hk - shi) - margin, 0.0f); /* edge spanning [-hk, hk] */
    g.pos[k] = p * p;
    g.neg[k] = n * n;
    g.along[k] = a * a;
  }
  return g;
}

/* The bound for edge (m, bits) of tb_np_box_edge. */
static float edge_bound_sq(const edge_gaps* g, int m, int bits) {
  int j = (m + 1) % 3, l = (m + 2) % 3;
  float c[3];
  c[m] = g->along[m];
  c[j] = (bits & 1) ? g->pos[j] : g->neg[j];
  c[l] = (bits & 2) ? g->pos[l] : g->neg[l];
  return (c[0] + c[1]) + c[2];
}

/* Capsule segment [p0, p1] (radius r) apart from the box: exact closest points of the segment ends
 * against the box and of the segment against the 12 edges, in the box frame. Returns the point
 * count, or -1 when the segment touches the box (the SAT decides). */
static int tb_np_capsule_box_apart(tb_vec3 p0, tb_vec3 p1, float r, tb_vec3 h, tb_transform tb, float max_separation,
                                   tb_manifold* out) {
  const edge_gaps gaps = edge_gaps_of(tb_vmin(p0, p1), tb_vmax(p0, p1), h);
  /* Most candidate pairs of a pile are apart along a face axis. Every candidate's d2 below is at
   * least each axis's `along` bound (an edge along k spans the box's interval on k; a clamped end
   * too), so with the separation 5e-6 of the reach beyond it (far above the rounding of
   * sqrtf(best) - r) the test `dist - r > max_separation` returns 0 as it would after all the
   * edge tests. */
  float face_gap_sq = fmaxf(gaps.along[0], fmaxf(gaps.along[1], gaps.along[2]));
  float reach = r + max_separation; /* m */
  if (max_separation >= 0.0f && r >= 0.0f && face_gap_sq > reach * reach * (1.0f + 1e-5f)) return 0;
  float best = INFINITY;
  tb_vec3 sb = p0, bb = p0;
  uint32_t id = 0;
  for (int i = 0; i < 2; ++i) {
    tb_vec3 p = i == 0 ? p0 : p1;
    tb_vec3 q = tb_v3(tb_clampf(p.x, -h.x, h.x), tb_clampf(p.y, -h.y, h.y), tb_clampf(p.z, -h.z, h.z));
    float d2 = tb_length_sq(tb_sub(p, q));
    if (d2 < best) { best = d2; sb = p; bb = q; id = 0x300u | (uint32_t)i; }
  }
  for (int m = 0; m < 3; ++m) {
    for (int bits = 0; bits < 4; ++bits) {
      if (edge_bound_sq(&gaps, m, bits) >= best) continue; /* cannot be nearer: same result */
      tb_vec3 e0, e1;
      tb_np_box_edge(h, m, bits, &e0, &e1);
      float s, t;
      tb_np_closest_segments(p0, p1, e0, e1, &s, &t);
      tb_vec3 ps = tb_lerp(p0, p1, s), pe = tb_lerp(e0, e1, t);
      float d2 = tb_length_sq(tb_sub(ps, pe));
      if (d2 < best) { best = d2; sb = ps; bb = pe; id = 0x200u | (uint32_t)(4 * m + bits); }
    }
  }
  float dist = sqrtf(best);
  if (dist - r > max_separation) return 0;
  if (dist > 1e-7f) {
    tb_vec3 nl = tb_scale(tb_sub(sb, bb), 1.0f / dist); /* box -> capsule */
    int k = 0;
    for (int j = 1; j < 3; ++j)
      if (fabsf(tb_comp(nl, j)) > fabsf(tb_comp(nl, k))) k = j;
    if (fabsf(tb_comp(nl, k)) >= 0.9999f) {
      int c = tb_np_capsule_box_face(p0, p1, r, h, k, tb_comp(nl, k) > 0.0f ? 1.0f : -1.0f, tb,
                                     max_separation, out);
      if (c >= 0) return c;
    }
    tb_vec3 n = tb_rotate(tb.q, tb_neg(nl));
    out->normal = n;
    tb_np_point(&out->points[0], tb_transform_point(tb, tb_mul_add(sb, -r, nl)),
                tb_transform_point(tb, bb), n, id);
    return out->points[0].separation <= max_separation ? 1 : 0;
  }
  return -1; /* touching: the SAT decides */
}

/* Capsule segment [p0, p1] (radius r) touching or inside the box: SAT over the 3 face normals and
 * the 3 axis x edge directions, faces preferred within a tolerance. Returns the point count. */
static int tb_np_capsule_box_sat(tb_vec3 p0, tb_vec3 p1, float r, tb_vec3 h, tb_transform tb, float max_separation,
                                 tb_manifold* out) {
  tb_vec3 dseg = tb_sub(p1, p0);
  /* SAT: faces */
  int fk = 0;
  float fsep = -INFINITY, fsgn = 1.0f;
  for (int k = 0; k < 3; ++k) {
    float a0 = tb_comp(p0, k), a1 = tb_comp(p1, k), hk = tb_comp(h, k);
    float sp = fminf(a0, a1) - hk, sm = -hk - fmaxf(a0, a1);
    float sep = fmaxf(sp, sm);
    if (sep > fsep) { fsep = sep; fk = k; fsgn = sp >= sm ? 1.0f : -1.0f; }
  }
  /* SAT: segment direction x box edges */
  int ek = -1;
  float esep = -INFINITY;
  tb_vec3 en = tb_v3(0, 0, 0);
  float len = tb_length(dseg);
  if (len > 1e-6f) {
    tb_vec3 u = tb_scale(dseg, 1.0f / len);
    for (int i = 0; i < 3; ++i) {
      tb_vec3 l = tb_cross(u, tb_np_axis(i));
      float ll = tb_length(l);
      if (ll < 1e-3f) continue;
      l = tb_scale(l, 1.0f / ll);
      float hl = fabsf(l.x) * h.x + fabsf(l.y) * h.y + fabsf(l.z) * h.z;
      float pl = tb_dot(tb_scale(tb_add(p0, p1), 0.5f), l);
      float sp = pl - hl, sm = -hl - pl;
      float sep = fmaxf(sp, sm);
      if (sep > esep) { esep = sep; ek = i; en = sp >= sm ? l : tb_neg(l); }
    }
  }
  if (fmaxf(fsep, esep) - r > max_separation) return 0;
  if (ek >= 0 && esep > fsep + tb_np_sat_margin(fsep, TB_NP_REL_EDGE_TOL)) {
    int bits = 0;
    if (tb_comp(en, (ek + 1) % 3) >= 0.0f) bits |= 1;
    if (tb_comp(en, (ek + 2) % 3) >= 0.0f) bits |= 2;
    tb_vec3 e0, e1;
    tb_np_box_edge(h, ek, bits, &e0, &e1);
    float s, t;
    tb_np_closest_segments(p0, p1, e0, e1, &s, &t);
    tb_vec3 ps = tb_lerp(p0, p1, s), pe = tb_lerp(e0, e1, t);
    tb_vec3 n = tb_rotate(tb.q, tb_neg(en));
    out->normal = n;
    tb_np_point(&out->points[0], tb_transform_point(tb, tb_mul_add(ps, -r, en)), tb_transform_point(tb, pe), n,
                0x200u | (uint32_t)(4 * ek + bits));
    return out->points[0].separation <= max_separation ? 1 : 0;
  }
  int c = tb_np_capsule_box_face(p0, p1, r, h, fk, fsgn, tb, max_separation, out);
  if (c >= 0) return c;
  /* numerically empty clip: deepest segment end, projected into the face */
  tb_vec3 nb = tb_scale(tb_np_axis(fk), fsgn);
  tb_vec3 s = tb_dot(p0, nb) <= tb_dot(p1, nb) ? p0 : p1;
  tb_vec3 pb = tb_v3(tb_clampf(s.x, -h.x, h.x), tb_clampf(s.y, -h.y, h.y), tb_clampf(s.z, -h.z, h.z));
  tb_np_set_comp(&pb, fk, fsgn * tb_comp(h, fk));
  tb_vec3 n = tb_rotate(tb.q, tb_neg(nb));
  out->normal = n;
  tb_np_point(&out->points[0], tb_transform_point(tb, tb_mul_add(s, -r, nb)), tb_transform_point(tb, pb), n,
              0x100u | (uint32_t)(2 * fk + (fsgn > 0.0f ? 1 : 0)) << 1);
  return out->points[0].separation <= max_separation ? 1 : 0;
}

/* a = capsule, b = box, in the box frame. Segment outside the box: exact closest points (segment
 * ends against the box, segment against the 12 edges); a face-normal result becomes a face
 * manifold (segment clipped to the face: 2 points when lying on it, ids 0x100 | face<<1 | end),
 * otherwise one point (edge: 0x200 | edge index, segment end in a vertex/edge region:
 * 0x300 | end). Segment touching or inside the box: SAT over the 3 face normals and the 3 axis x
 * edge directions (faces preferred within a tolerance). */
int tb_collide_capsule_box(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b,
                           tb_transform tb, float max_separation, tb_manifold* out) {
  float r = a->params[0];
  tb_vec3 h = tb_v3(b->params[0], b->params[1], b->params[2]);
  tb_vec3 axw = tb_rotate(ta.q, tb_v3(0.0f, a->params[1], 0.0f));
  tb_vec3 pc = tb_inv_transform_point(tb, ta.p);
  tb_vec3 axl = tb_inv_rotate(tb.q, axw);
  tb_vec3 p0 = tb_sub(pc, axl), p1 = tb_add(pc, axl);
  tb_vec3 dseg = tb_sub(p1, p0);
  if (!tb_np_segment_meets_box(p0, dseg, h)) {
    int n = tb_np_capsule_box_apart(p0, p1, r, h, tb, max_separation, out);
    if (n >= 0) return n;
  }
  return tb_np_capsule_box_sat(p0, p1, r, h, tb, max_separation, out);
}
