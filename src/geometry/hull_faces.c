/* From quickhull's triangles to the hull's polygonal faces: coplanar neighbouring triangles are
 * merged, each merged group's boundary is walked into a counter-clockwise vertex loop with a
 * Newell normal, and vertices left on an edge between two faces (collinear input) are dropped. */
#include <string.h>

#include "../core/alloc.h"
#include "quickhull.h"

/* Union-find root with path halving. */
static int32_t uf_find(int32_t* parent, int32_t x) {
  while (parent[x] != x) { parent[x] = parent[parent[x]]; x = parent[x]; }
  return x;
}

/* Groups of coplanar triangles in parent (union-find, the smallest index is the root); size is
 * scratch of nf entries. */
static void merge_coplanar(const qh* q, int32_t* parent, int32_t* size) {
  int32_t nf = q->nf;
  for (int32_t f = 0; f < nf; ++f) parent[f] = f;
  /* pass 1: well-shaped neighbours with (nearly) the same plane: normals within ~0.1° and every
   * vertex within the tolerance of the other plane */
  for (int32_t f = 0; f < nf; ++f) {
    if (!q->f[f].alive) continue;
    for (int k = 0; k < 3; ++k) {
      int32_t g = q->f[f].nb[k];
      if (g < f || qv_dot(q->f[f].n, q->f[g].n) < 1.0 - 1e-6) continue;
      int coplanar = 1;
      for (int m = 0; m < 3; ++m)
        if (fabs(qh_dist(q, f, q->f[g].v[m])) > q->eps || fabs(qh_dist(q, g, q->f[f].v[m])) > q->eps) coplanar = 0;
      if (coplanar) {
        int32_t ra = uf_find(parent, f), rb = uf_find(parent, g);
        if (ra != rb) parent[ra < rb ? rb : ra] = ra < rb ? ra : rb;
      }
    }
  }
  /* pass 2: a triangle left alone (a sliver along collinear points, whose own normal is
   * unreliable) joins the one neighbour whose plane holds its vertices best, so that a sliver
   * on an edge never bridges the two faces of that edge */
  for (int32_t f = 0; f < nf; ++f) size[f] = 0;
  for (int32_t f = 0; f < nf; ++f)
    if (q->f[f].alive) ++size[uf_find(parent, f)];
  for (int32_t f = 0; f < nf; ++f) {
    if (!q->f[f].alive || size[f] != 1 || parent[f] != f) continue;
    int32_t host = -1;
    double bd = q->eps;
    for (int k = 0; k < 3; ++k) {
      int32_t g = q->f[f].nb[k];
      double d = 0.0;
      for (int m = 0; m < 3; ++m) d = fmax(d, fabs(qh_dist(q, g, q->f[f].v[m])));
      if (d <= bd) { bd = d; host = g; }
    }
    if (host >= 0) {
      int32_t rb = uf_find(parent, host); /* the smallest index stays the root */
      if (rb != f) parent[rb < f ? f : rb] = rb < f ? rb : f;
    }
  }
}

/* Polygon loop of the group rooted at triangle f, written as face fi from face_index[out]: walks
 * the group's boundary (a boundary edge a -> b is followed by the group's boundary edge that starts
 * at b), then the Newell normal over the loop and the mean offset (m). Returns the new end, or -1
 * for a group without a boundary (it closes on itself: the merge joined every face of a hull
 * whose points lie near a line within the tolerance). */
static int32_t face_loop(const qh* q, const qh_vec* pts, int32_t* parent, const int32_t* vmap, int32_t count, int32_t f,
                         tb_hull* h, int32_t fi, int32_t out) {
  int32_t nf = q->nf, r = f;
  h->face_first[fi] = out;
  /* first boundary edge of the group */
  int32_t sf = -1, se = -1;
  for (int32_t g = f; g < nf && sf < 0; ++g) {
    if (!q->f[g].alive || uf_find(parent, g) != r) continue;
    for (int k = 0; k < 3; ++k)
      if (uf_find(parent, q->f[g].nb[k]) != r) { sf = g; se = k; break; }
  }
  if (sf < 0) return -1;
  int32_t cf = sf, ce = se;
  qh_vec nsum = {0, 0, 0};
  double dsum = 0.0;
  int32_t guard = 0;
  do {
    int32_t a = q->f[cf].v[ce];
    h->face_index[out++] = vmap[a];
    /* next boundary edge starting at b: rotate around b through the group's triangles */
    int32_t g = cf, e = (ce + 1) % 3, turns = 0; /* edge b -> c of cf */
    while (uf_find(parent, q->f[g].nb[e]) == r) {
      if (++turns > nf) return -1; /* every triangle around b in the group: no boundary at b */
      int32_t nbf = q->f[g].nb[e];
      int32_t t = qh_twin(q, nbf, q->f[g].v[e], q->f[g].v[(e + 1) % 3]);
      g = nbf;
      e = (t + 1) % 3;
    }
    cf = g; ce = e;
  } while ((cf != sf || ce != se) && ++guard < 4 * count + 16);
  /* Newell normal over the polygon, offset by the mean */
  int32_t first = h->face_first[fi], nv = out - first;
  for (int32_t k = 0; k < nv; ++k) {
    qh_vec a = pts[0], b = pts[0];
    tb_vec3 fa = h->vertices[h->face_index[first + k]], fb = h->vertices[h->face_index[first + (k + 1) % nv]];
    a.x = fa.x; a.y = fa.y; a.z = fa.z; b.x = fb.x; b.y = fb.y; b.z = fb.z;
    nsum.x += (a.y - b.y) * (a.z + b.z);
    nsum.y += (a.z - b.z) * (a.x + b.x);
    nsum.z += (a.x - b.x) * (a.y + b.y);
  }
  double nl = qv_len(nsum);
  if (nl > 0.0) { nsum.x /= nl; nsum.y /= nl; nsum.z /= nl; } else nsum = q->f[f].n;
  for (int32_t k = 0; k < nv; ++k) {
    tb_vec3 v = h->vertices[h->face_index[first + k]];
    dsum += nsum.x * v.x + nsum.y * v.y + nsum.z * v.z;
  }
  h->face_normal[fi] = tb_v3((float)nsum.x, (float)nsum.y, (float)nsum.z);
  h->face_offset[fi] = (float)(dsum / nv);
  return out;
}

/* A vertex on fewer than 3 faces lies on an edge between two merged faces (collinear input
 * points): drops it from both polygons and from the vertex list (unless a face would keep fewer
 * than 3 vertices). deg: scratch of at least vertex_count entries. Returns the index count. */
static int32_t drop_edge_vertices(tb_hull* h, int32_t* deg, int32_t out) {
  int32_t V = h->vertex_count, F = h->face_count;
  for (int32_t i = 0; i < V; ++i) deg[i] = 0;
  for (int32_t k = 0; k < out; ++k) ++deg[h->face_index[k]];
  int32_t nv = 0;
  for (int32_t i = 0; i < V; ++i) deg[i] = deg[i] >= 3 ? nv++ : -1;
  int ok = nv < V;
  for (int32_t f = 0; f < F && ok; ++f) {
    int32_t kept = 0;
    for (int32_t k = h->face_first[f]; k < h->face_first[f + 1]; ++k) kept += deg[h->face_index[k]] >= 0;
    ok = kept >= 3;
  }
  if (!ok) return out;
  for (int32_t i = 0; i < V; ++i)
    if (deg[i] >= 0) h->vertices[deg[i]] = h->vertices[i];
  int32_t w = 0;
  for (int32_t f = 0; f < F; ++f) {
    int32_t s0 = h->face_first[f], s1 = h->face_first[f + 1];
    h->face_first[f] = w;
    for (int32_t k = s0; k < s1; ++k)
      if (deg[h->face_index[k]] >= 0) h->face_index[w++] = deg[h->face_index[k]];
  }
  h->face_first[F] = w;
  h->vertex_count = nv;
  return w;
}

/* Allocates the hull (one block) for F faces, V vertices and idx_total loop indices. */
static tb_hull* hull_alloc(int32_t F, int32_t V, int32_t idx_total) {
  size_t bytes = sizeof(tb_hull) + (size_t)V * sizeof(tb_vec3) + (size_t)(F + 1) * sizeof(int32_t) +
                 (size_t)idx_total * sizeof(int32_t) + (size_t)F * (sizeof(tb_vec3) + sizeof(float));
  char* block = (char*)tb_alloc(bytes);
  if (!block) return NULL;
  tb_hull* h = (tb_hull*)block;
  memset(h, 0, sizeof *h);
  char* cur = block + sizeof(tb_hull);
  h->vertices = (tb_vec3*)cur; cur += (size_t)V * sizeof(tb_vec3);
  h->face_normal = (tb_vec3*)cur; cur += (size_t)F * sizeof(tb_vec3);
  h->face_offset = (float*)cur; cur += (size_t)F * sizeof(float);
  h->face_first = (int32_t*)cur; cur += (size_t)(F + 1) * sizeof(int32_t);
  h->face_index = (int32_t*)cur;
  h->vertex_count = V;
  h->face_count = F;
  h->edge_count = idx_total / 2;
  h->bytes = bytes;
  return h;
}

tb_hull* tb_hull_from_triangles(const qh* q, const qh_vec* pts, int32_t count, tb_hull_error* err) {
  int32_t nf = q->nf;
  int32_t* parent = (int32_t*)tb_alloc((size_t)nf * sizeof(int32_t));
  int32_t* vmap = (int32_t*)tb_alloc((size_t)count * sizeof(int32_t));
  int32_t* fmap = (int32_t*)tb_alloc((size_t)nf * sizeof(int32_t));
  tb_hull* h = NULL;
  if (!parent || !vmap || !fmap) goto done;
  merge_coplanar(q, parent, fmap);
  /* count merged faces, boundary edges and used vertices */
  int32_t F = 0, idx_total = 0, V = 0;
  for (int32_t i = 0; i < count; ++i) vmap[i] = -1;
  for (int32_t f = 0; f < nf; ++f) {
    fmap[f] = -1;
    if (!q->f[f].alive) continue;
    if (uf_find(parent, f) == f) fmap[f] = F++;
  }
  for (int32_t f = 0; f < nf; ++f) {
    if (!q->f[f].alive) continue;
    int32_t r = uf_find(parent, f);
    for (int k = 0; k < 3; ++k)
      if (uf_find(parent, q->f[f].nb[k]) != r) {
        ++idx_total;
        int32_t vi = q->f[f].v[k];
        if (vmap[vi] < 0) vmap[vi] = V++;
      }
  }
  /* a solid has at least four faces, each with a boundary (face_loop finds it) */
  if (F < 4) goto degenerate;
  h = hull_alloc(F, V, idx_total);
  if (!h) goto done;
  h->tolerance = (float)q->eps;
  for (int32_t i = 0; i < count; ++i)
    if (vmap[i] >= 0) h->vertices[vmap[i]] = tb_v3((float)pts[i].x, (float)pts[i].y, (float)pts[i].z);
  int32_t out = 0;
  for (int32_t f = 0; f < nf && out >= 0; ++f)
    if (fmap[f] >= 0) out = face_loop(q, pts, parent, vmap, count, f, h, fmap[f], out);
  if (out < 0) {
    tb_hull_free(h);
    h = NULL;
    goto degenerate;
  }
  h->face_first[F] = out;
  out = drop_edge_vertices(h, vmap, out); /* vmap reused: count >= V */
  h->edge_count = out / 2;
  goto done;
degenerate:
  qh_set_error(err, 2, "points must span a solid (within the tolerance, from the coordinates' magnitude, they lie near a line or a plane)");
done:
  if (!h && err->code == 0) qh_set_error(err, 3, "out of memory");
  if (parent) tb_free(parent, (size_t)nf * sizeof(int32_t));
  if (vmap) tb_free(vmap, (size_t)count * sizeof(int32_t));
  if (fmap) tb_free(fmap, (size_t)nf * sizeof(int32_t));
  return h;
}
