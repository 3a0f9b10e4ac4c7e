/* Box pairs: plane-box, box-box (SAT over 15 axes + Sutherland-Hodgman face clipping).
 *
 * Box features (local frame): vertex v has bit0/1/2 set when its x/y/z coordinate is +h;
 * edge 4*m + bits runs along axis m, bits as in tb_np_box_edge; face 2*k + (side > 0). */
#include "collide_internal.h"

/* a = plane, b = box: every vertex within reach; more than 4 reduced to 4. Feature id = vertex. */
int tb_collide_plane_box(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b,
                         tb_transform tb, float max_separation, tb_manifold* out) {
  tb_vec3 n;
  float d;
  tb_np_plane_world(a, ta, &n, &d);
  tb_vec3 h = tb_v3(b->params[0], b->params[1], b->params[2]);
  out->normal = n;
  tb_manifold_point cand[8];
  int count = 0;
  for (int v = 0; v < 8; ++v) {
    tb_vec3 l = tb_v3((v & 1) ? h.x : -h.x, (v & 2) ? h.y : -h.y, (v & 4) ? h.z : -h.z);
    tb_vec3 w = tb_transform_point(tb, l);
    float dist = tb_dot(n, w) - d;
    if (dist > max_separation) continue;
    tb_np_point(&cand[count], tb_mul_add(w, -dist, n), w, n, (uint32_t)v);
    if (cand[count].separation <= max_separation) ++count;
  }
  return tb_np_reduce_points(cand, count, n, out);
}

/* ---- box-box ---- */

typedef struct tb_np_clip_vertex {
  tb_vec3 p;   /* reference-box local */
  uint32_t id; /* feature id of this vertex */
  int line;    /* line from this vertex to the next: incident edge (0..11) or 16 + side plane */
} tb_np_clip_vertex;

typedef struct tb_np_clip_ctx {
  int ref_is_b;
  int k;      /* reference face axis */
  float sr;   /* reference face side (+1/-1) */
} tb_np_clip_ctx;

static uint32_t tb_np_vertex_id(int box_is_b, int v) { return (box_is_b ? 0x200u : 0x100u) | (uint32_t)v; }
static uint32_t tb_np_cross_id(int edge_a, int edge_b) {
  return 0x1000u | ((uint32_t)edge_a << 4) | (uint32_t)edge_b;
}
/* Edge index of the edge joining vertices v0, v1 (which differ in exactly one axis). */
static int tb_np_edge_of(int v0, int v1) {
  int diff = v0 ^ v1;
  int m = diff == 1 ? 0 : (diff == 2 ? 1 : 2);
  int j = (m + 1) % 3, l = (m + 2) % 3;
  return 4 * m + ((v0 >> j) & 1) + (((v0 >> l) & 1) << 1);
}
/* Side plane p of the reference face: axis (k+1+(p>>1))%3, side (p&1 ? + : -). */
static int tb_np_plane_axis(const tb_np_clip_ctx* c, int p) { return (c->k + 1 + (p >> 1)) % 3; }
/* Feature id of the intersection of `line` with side plane p. */
static uint32_t tb_np_clip_id(const tb_np_clip_ctx* c, int line, int p) {
  int ax = tb_np_plane_axis(c, p);
  int bit_k = c->sr > 0.0f, bit_ax = p & 1;
  if (line >= 16) {
    /* two side planes: a corner of the reference face */
    int p2 = line - 16, ax2 = tb_np_plane_axis(c, p2);
    int v = (bit_k << c->k) | (bit_ax << ax) | ((p2 & 1) << ax2);
    return tb_np_vertex_id(c->ref_is_b, v);
  }
  /* incident edge x reference face edge (the edge of the face on plane p) */
  int m = 3 - c->k - ax;
  int vbits = (bit_k << c->k) | (bit_ax << ax);
  int ref_edge = 4 * m + ((vbits >> ((m + 1) % 3)) & 1) + (((vbits >> ((m + 2) % 3)) & 1) << 1);
  return c->ref_is_b ? tb_np_cross_id(line, ref_edge) : tb_np_cross_id(ref_edge, line);
}

static int tb_np_clip(const tb_np_clip_ctx* c, const tb_np_clip_vertex* in, int n, tb_np_clip_vertex* out,
                      int p, float hax) {
  int ax = tb_np_plane_axis(c, p);
  float sg = (p & 1) ? 1.0f : -1.0f;
  int m = 0;
  for (int i = 0; i < n; ++i) {
    const tb_np_clip_vertex* prev = &in[(i + n - 1) % n];
    const tb_np_clip_vertex* cur = &in[i];
    float dp = sg * tb_comp(prev->p, ax) - hax, dc = sg * tb_comp(cur->p, ax) - hax;
    if ((dp > 0.0f) != (dc > 0.0f)) {
      float t = dp / (dp - dc);
      tb_np_clip_vertex x;
      x.p = tb_lerp(prev->p, cur->p, t);
      tb_np_set_comp(&x.p, ax, sg * hax); /* exactly on the plane */
      x.id = tb_np_clip_id(c, prev->line, p);
      x.line = dc <= 0.0f ? prev->line : 16 + p;
      out[m++] = x;
    }
    if (dc <= 0.0f) out[m++] = *cur;
  }
  return m;
}

/* Face contact: reference face (axis k, side sr) of box R, incident face of box I. Points go to
 * cand; returns their count. */
static int tb_np_box_face_contact(tb_transform tr, tb_vec3 hr, tb_transform ti, tb_vec3 hi, int k, float sr,
                                  int ref_is_b, float max_separation, tb_vec3 normal,
                                  tb_manifold_point* cand) {
  tb_mat3 mr = tb_mat3_from_quat(tr.q), mi = tb_mat3_from_quat(ti.q);
  tb_vec3 nr = tb_scale(k == 0 ? mr.cx : (k == 1 ? mr.cy : mr.cz), sr); /* R -> I */
  /* incident face: the face of I most anti-parallel to nr */
  float dots[3] = {tb_dot(mi.cx, nr), tb_dot(mi.cy, nr), tb_dot(mi.cz, nr)};
  int j = 0;
  for (int q = 1; q < 3; ++q)
    if (fabsf(dots[q]) > fabsf(dots[j])) j = q;
  int si_bit = dots[j] < 0.0f; /* side of the incident face: +1 when its axis opposes nr */
  int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
  static const int corner_s1[4] = {1, 0, 0, 1}, corner_s2[4] = {1, 1, 0, 0};
  tb_np_clip_ctx ctx = {ref_is_b, k, sr};
  tb_np_clip_vertex buf0[16], buf1[16];
  int vid[4];
  for (int q = 0; q < 4; ++q)
    vid[q] = (si_bit << j) | (corner_s1[q] << j1) | (corner_s2[q] << j2);
  for (int q = 0; q < 4; ++q) {
    int v = vid[q];
    tb_vec3 l = tb_v3((v & 1) ? hi.x : -hi.x, (v & 2) ? hi.y : -hi.y, (v & 4) ? hi.z : -hi.z);
    buf0[q].p = tb_inv_transform_point(tr, tb_transform_point(ti, l));
    buf0[q].id = tb_np_vertex_id(!ref_is_b, v);
    buf0[q].line = tb_np_edge_of(v, vid[(q + 1) % 4]);
  }
  int n = 4;
  tb_np_clip_vertex* src = buf0;
  tb_np_clip_vertex* dst = buf1;
  for (int p = 0; p < 4 && n > 0; ++p) {
    n = tb_np_clip(&ctx, src, n, dst, p, tb_comp(hr, tb_np_plane_axis(&ctx, p)));
    tb_np_clip_vertex* tmp = src; src = dst; dst = tmp;
  }
  int count = 0;
  float hk = tb_comp(hr, k);
  for (int q = 0; q < n; ++q) {
    tb_vec3 x = src[q].p;
    float sep = sr * tb_comp(x, k) - hk;
    if (sep > max_separation) continue;
    tb_vec3 xr = x;
    tb_np_set_comp(&xr, k, sr * hk);
    tb_vec3 pi = tb_transform_point(tr, x), pr = tb_transform_point(tr, xr);
    if (ref_is_b) tb_np_point(&cand[count], pi, pr, normal, src[q].id);
    else tb_np_point(&cand[count], pr, pi, normal, src[q].id);
    if (cand[count].separation <= max_separation) ++count;
  }
  return count;
}

/* a, b = boxes. SAT over the 6 face normals and 9 edge cross products (near-parallel edge pairs
 * skipped); a face of b replaces a face of a, and an edge pair replaces a face, only when clearly
 * better (relative + absolute tolerance). Face contact: the incident face clipped against the
 * reference face's side planes, reduced to 4. Edge contact: closest points of the two edges.
 * Feature ids: vertex of a: 0x100 | v, vertex of b: 0x200 | v, edge of a crossing edge of b (clip
 * point or edge-edge contact): 0x1000 | edge_a << 4 | edge_b. They name geometric features, so
 * they do not change when the reference face switches between the two boxes. */
int tb_collide_box_box(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b,
                       tb_transform tb, float max_separation, tb_manifold* out) {
  tb_np_box_pair bp;
  tb_np_box_pair_of(a, ta, b, tb, &bp);
  const tb_vec3 ha = bp.ha, hb = bp.hb, d = bp.d;
  const tb_vec3* ax = bp.ax;
  const tb_vec3* bx = bp.bx;

  float fa_sep = -INFINITY, fb_sep = -INFINITY, e_sep = -INFINITY;
  int fa = 0, fb = 0, ei = -1, ej = -1;
  tb_vec3 e_axis = tb_v3(0, 0, 0);
  /* early outs: one axis separated beyond max_separation decides the pair (no contact), as the
   * test after the loops would, without the remaining axes */
  for (int i = 0; i < 3; ++i) {
    float s = tb_np_box_face_sep_a(&bp, i);
    if (s > max_separation) return 0;
    if (s > fa_sep) { fa_sep = s; fa = i; }
  }
  for (int j = 0; j < 3; ++j) {
    float s = tb_np_box_face_sep_b(&bp, j);
    if (s > max_separation) return 0;
    if (s > fb_sep) { fb_sep = s; fb = j; }
  }
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      tb_vec3 l = tb_cross(ax[i], bx[j]);
      float ll = tb_length(l);
      if (ll < 1e-3f) continue;
      l = tb_scale(l, 1.0f / ll);
      float ra = ha.x * fabsf(tb_dot(ax[0], l)) + ha.y * fabsf(tb_dot(ax[1], l)) + ha.z * fabsf(tb_dot(ax[2], l));
      float rb = hb.x * fabsf(tb_dot(bx[0], l)) + hb.y * fabsf(tb_dot(bx[1], l)) + hb.z * fabsf(tb_dot(bx[2], l));
      float dl = tb_dot(d, l);
      float s = fabsf(dl) - ra - rb;
      if (s > max_separation) return 0;
      if (s > e_sep) { e_sep = s; ei = i; ej = j; e_axis = dl >= 0.0f ? l : tb_neg(l); }
    }
  }

  int ref_is_b = fb_sep > fa_sep + tb_np_sat_margin(fa_sep, TB_NP_REL_FACE_TOL);
  float f_sep = ref_is_b ? fb_sep : fa_sep;
  int use_edge = ei >= 0 && e_sep > f_sep + tb_np_sat_margin(f_sep, TB_NP_REL_EDGE_TOL);

  if (!use_edge) {
    tb_manifold_point cand[16];
    int count;
    if (!ref_is_b) {
      float sr = tb_dot(d, ax[fa]) >= 0.0f ? 1.0f : -1.0f;
      tb_vec3 n = tb_scale(ax[fa], sr);
      out->normal = n;
      count = tb_np_box_face_contact(ta, ha, tb, hb, fa, sr, 0, max_separation, n, cand);
    } else {
      float sr = tb_dot(d, bx[fb]) <= 0.0f ? 1.0f : -1.0f; /* b's face towards a */
      tb_vec3 n = tb_scale(bx[fb], -sr);
      out->normal = n;
      count = tb_np_box_face_contact(tb, hb, ta, ha, fb, sr, 1, max_separation, n, cand);
    }
    if (count > 0 || ei < 0) return tb_np_reduce_points(cand, count, out->normal, out);
  }

  /* edge-edge: a's edge along ax[ei] farthest along +n, b's edge along bx[ej] farthest along -n */
  tb_vec3 n = e_axis;
  int bits_a = 0, bits_b = 0;
  if (tb_dot(ax[(ei + 1) % 3], n) >= 0.0f) bits_a |= 1;
  if (tb_dot(ax[(ei + 2) % 3], n) >= 0.0f) bits_a |= 2;
  if (tb_dot(bx[(ej + 1) % 3], n) <= 0.0f) bits_b |= 1;
  if (tb_dot(bx[(ej + 2) % 3], n) <= 0.0f) bits_b |= 2;
  tb_vec3 a0, a1, b0, b1;
  tb_np_box_edge(ha, ei, bits_a, &a0, &a1);
  tb_np_box_edge(hb, ej, bits_b, &b0, &b1);
  a0 = tb_transform_point(ta, a0); a1 = tb_transform_point(ta, a1);
  b0 = tb_transform_point(tb, b0); b1 = tb_transform_point(tb, b1);
  float s, t;
  tb_np_closest_segments(a0, a1, b0, b1, &s, &t);
  out->normal = n;
  tb_np_point(&out->points[0], tb_lerp(a0, a1, s), tb_lerp(b0, b1, t), n,
              tb_np_cross_id(4 * ei + bits_a, 4 * ej + bits_b));
  return out->points[0].separation <= max_separation ? 1 : 0;
}
