/* Convex hull of a point cloud: input checks, quickhull's triangles (quickhull.c) merged into
 * polygonal faces (hull_faces.c), then the centroid, radius and support field; support queries
 * and mass properties of the finished hull. */
#include "hull.h"

#include <stdio.h>
#include <string.h>

#include "../core/alloc.h"
#include "quickhull.h"
#include "support_field.h"

/* Support field of resolution res, built by hill climbing over the vertex adjacency (CSR) of the
 * polygons' edges: edge a -> b lists b as a neighbour of a (the twin edge b -> a of the other face
 * lists a for b); without memory for the adjacency the field is built by scanning. Returns 0 when
 * out of memory for the field itself. */
static int build_field(tb_hull* h, int32_t res) {
  int32_t V = h->vertex_count;
  int32_t E2 = h->face_first[h->face_count];
  int32_t* adj_first = (int32_t*)tb_alloc((size_t)(V + 1) * sizeof(int32_t));
  int32_t* adj = (int32_t*)tb_alloc((size_t)E2 * sizeof(int32_t));
  int32_t* fillpos = (int32_t*)tb_alloc((size_t)V * sizeof(int32_t));
  int have_adj = adj_first && adj && fillpos;
  if (have_adj) {
    for (int32_t i = 0; i <= V; ++i) adj_first[i] = 0;
    for (int32_t k = 0; k < E2; ++k) ++adj_first[h->face_index[k] + 1];
    for (int32_t i = 0; i < V; ++i) { adj_first[i + 1] += adj_first[i]; fillpos[i] = adj_first[i]; }
    for (int32_t f = 0; f < h->face_count; ++f) {
      int32_t s0 = h->face_first[f], n = h->face_first[f + 1] - s0;
      for (int32_t k = 0; k < n; ++k) {
        int32_t a = h->face_index[s0 + k], b = h->face_index[s0 + (k + 1) % n];
        adj[fillpos[a]++] = b;
      }
    }
  }
  h->field = tb_support_field_build(h->vertices, V, have_adj ? adj_first : NULL, have_adj ? adj : NULL, res);
  if (adj_first) tb_free(adj_first, (size_t)(V + 1) * sizeof(int32_t));
  if (adj) tb_free(adj, (size_t)E2 * sizeof(int32_t));
  if (fillpos) tb_free(fillpos, (size_t)V * sizeof(int32_t));
  if (!h->field) return 0;
  h->bytes += h->field->bytes;
  return 1;
}

tb_hull* tb_hull_build(const float* points, int32_t count, int32_t field_res, tb_hull_error* err) {
  err->code = 0;
  err->message[0] = 0;
  if (!points || count < 4) {
    snprintf(err->message, sizeof err->message, "point_count must be >= 4 (got %d)", count);
    err->code = 1;
    return NULL;
  }
  if (count > TB_HULL_MAX_POINTS) {
    snprintf(err->message, sizeof err->message, "point_count must be <= %d (got %d)", TB_HULL_MAX_POINTS, count);
    err->code = 4;
    return NULL;
  }
  for (int32_t i = 0; i < 3 * count; ++i)
    if (!tb_is_finite(points[i])) {
      snprintf(err->message, sizeof err->message, "points[%d] must be finite (got %g)", i, (double)points[i]);
      err->code = 1;
      return NULL;
    }
  qh q;
  qh_vec* pts = NULL;
  if (!tb_quickhull(&q, &pts, points, count, err)) return NULL;
  tb_hull* h = tb_hull_from_triangles(&q, pts, count, err);
  tb_quickhull_release(&q, pts);
  if (!h) return NULL;

  int32_t V = h->vertex_count;
  tb_vec3 c = tb_v3(0, 0, 0);
  for (int32_t i = 0; i < V; ++i) c = tb_add(c, h->vertices[i]);
  c = tb_scale(c, 1.0f / (float)V);
  h->centroid = c;
  float rad = 0.0f;
  for (int32_t i = 0; i < V; ++i) rad = fmaxf(rad, tb_length(tb_sub(h->vertices[i], c)));
  h->radius = rad;
  int32_t res = field_res < 0 ? (V >= TB_HULL_FIELD_MIN_VERTICES ? TB_HULL_DEFAULT_FIELD_RES : 0) : field_res;
  if (res > 0 && !build_field(h, res)) {
    tb_free(h, h->bytes);
    qh_set_error(err, 3, "out of memory for the support field");
    return NULL;
  }
  return h;
}

void tb_hull_free(tb_hull* h) {
  if (!h) return;
  size_t own = h->bytes;
  if (h->field) {
    own -= h->field->bytes;
    tb_support_field_free(h->field);
  }
  tb_free(h, own);
}

int32_t tb_hull_support_scan(const tb_hull* h, tb_vec3 d) {
  int32_t best = 0;
  float bd = tb_dot(h->vertices[0], d);
  for (int32_t i = 1; i < h->vertex_count; ++i) {
    float x = tb_dot(h->vertices[i], d);
    if (x > bd) { bd = x; best = i; }
  }
  return best;
}

int32_t tb_hull_support(const tb_hull* h, tb_vec3 d) {
  if (h->field) {
    int32_t ties = 1;
    int32_t v = tb_support_field_lookup(h->field, h->vertices, d, &ties);
    /* an ambiguous direction (a face or edge perpendicular to d): the exact scan's answer, so that
     * GJK / MPR see the same vertex as without the field, whichever cells hold the tie */
    if (ties <= 1) return v;
  }
  return tb_hull_support_scan(h, d);
}

void tb_hull_mass(const tb_hull* h, float* volume, tb_vec3* center, tb_mat3* inertia) {
  /* signed tetrahedra (r, a, b, c) over a fan of each face, r = vertex centroid; covariance of
   * a tetrahedron with one vertex at the origin: det/120 · (Σ v vᵀ + (Σ v)(Σ v)ᵀ) */
  const tb_vec3 r = h->centroid;
  double vol = 0.0, cx = 0.0, cy = 0.0, cz = 0.0, C[3][3] = {{0}};
  for (int32_t f = 0; f < h->face_count; ++f) {
    int32_t s = h->face_first[f], n = h->face_first[f + 1] - s;
    tb_vec3 a0 = tb_sub(h->vertices[h->face_index[s]], r);
    for (int32_t k = 1; k + 1 < n; ++k) {
      tb_vec3 b0 = tb_sub(h->vertices[h->face_index[s + k]], r), c0 = tb_sub(h->vertices[h->face_index[s + k + 1]], r);
      const double a[3] = {a0.x, a0.y, a0.z}, b[3] = {b0.x, b0.y, b0.z}, c[3] = {c0.x, c0.y, c0.z};
      double det = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
      vol += det / 6.0;
      cx += det / 24.0 * (a[0] + b[0] + c[0]);
      cy += det / 24.0 * (a[1] + b[1] + c[1]);
      cz += det / 24.0 * (a[2] + b[2] + c[2]);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          C[i][j] += det / 120.0 * (a[i] * a[j] + b[i] * b[j] + c[i] * c[j] +
                                    (a[i] + b[i] + c[i]) * (a[j] + b[j] + c[j]));
    }
  }
  double m[3] = {cx / vol, cy / vol, cz / vol};
  /* covariance about the centre of mass, then I = tr(C) 1 − C */
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) C[i][j] -= vol * m[i] * m[j];
  double tr = C[0][0] + C[1][1] + C[2][2];
  double I[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) I[i][j] = (i == j ? tr : 0.0) - C[i][j];
  *volume = (float)vol;
  *center = tb_add(r, tb_v3((float)m[0], (float)m[1], (float)m[2]));
  inertia->cx = tb_v3((float)I[0][0], (float)I[1][0], (float)I[2][0]);
  inertia->cy = tb_v3((float)I[0][1], (float)I[1][1], (float)I[2][1]);
  inertia->cz = tb_v3((float)I[0][2], (float)I[1][2], (float)I[2][2]);
}

/* ---- snapshot image ---- */

typedef struct hull_image_head {
  int32_t vertex_count, face_count, index_count, edge_count, field_res, pad;
  uint64_t block_bytes; /* the hull's own block (without the field), as allocated by the build */
  tb_vec3 centroid;
  float radius, tolerance;
} hull_image_head;

static size_t hull_block_need(int64_t V, int64_t F, int64_t I) {
  return sizeof(tb_hull) + (size_t)(V * (int64_t)sizeof(tb_vec3) + F * (int64_t)(sizeof(tb_vec3) + sizeof(float)) +
                                    (F + 1 + I) * (int64_t)sizeof(int32_t));
}

static size_t hull_image_size(const hull_image_head* hd) {
  return sizeof *hd + hull_block_need(hd->vertex_count, hd->face_count, hd->index_count) - sizeof(tb_hull) +
         (size_t)hd->field_res * (size_t)hd->field_res * sizeof(int32_t);
}

size_t tb_hull_image(const tb_hull* h, void* out) {
  hull_image_head hd;
  memset(&hd, 0, sizeof hd);
  hd.vertex_count = h->vertex_count;
  hd.face_count = h->face_count;
  hd.index_count = h->face_first[h->face_count];
  hd.edge_count = h->edge_count;
  hd.field_res = h->field ? h->field->res : 0;
  hd.block_bytes = h->bytes - (h->field ? h->field->bytes : 0);
  hd.centroid = h->centroid;
  hd.radius = h->radius;
  hd.tolerance = h->tolerance;
  size_t size = hull_image_size(&hd);
  if (!out) return size;
  char* p = (char*)out;
  const struct { const void* ptr; size_t n; } parts[] = {
      {&hd, sizeof hd},
      {h->vertices, (size_t)hd.vertex_count * sizeof(tb_vec3)},
      {h->face_normal, (size_t)hd.face_count * sizeof(tb_vec3)},
      {h->face_offset, (size_t)hd.face_count * sizeof(float)},
      {h->face_first, (size_t)(hd.face_count + 1) * sizeof(int32_t)},
      {h->face_index, (size_t)hd.index_count * sizeof(int32_t)},
      {h->field ? h->field->vertex : NULL, (size_t)hd.field_res * (size_t)hd.field_res * sizeof(int32_t)}};
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; ++i) {
    if (parts[i].n) memcpy(p, parts[i].ptr, parts[i].n);
    p += parts[i].n;
  }
  return size;
}

tb_hull* tb_hull_from_image(const void* image, size_t size) {
  hull_image_head hd;
  if (size < sizeof hd) return NULL;
  memcpy(&hd, image, sizeof hd);
  const int32_t most = 1 << 22;
  if (hd.vertex_count < 4 || hd.vertex_count > most || hd.face_count < 4 || hd.face_count > most ||
      hd.index_count < 3 * hd.face_count || hd.index_count > most || hd.field_res < 0 || hd.field_res > 4096 ||
      hd.edge_count != hd.index_count / 2)
    return NULL;
  size_t need = hull_block_need(hd.vertex_count, hd.face_count, hd.index_count);
  if (size != hull_image_size(&hd) || hd.block_bytes < need || hd.block_bytes > 4 * need + 4096) return NULL;
  char* block = (char*)tb_alloc((size_t)hd.block_bytes);
  if (!block) return NULL;
  tb_hull* h = (tb_hull*)block;
  memset(h, 0, sizeof *h);
  char* cur = block + sizeof(tb_hull);
  h->vertices = (tb_vec3*)cur; cur += (size_t)hd.vertex_count * sizeof(tb_vec3);
  h->face_normal = (tb_vec3*)cur; cur += (size_t)hd.face_count * sizeof(tb_vec3);
  h->face_offset = (float*)cur; cur += (size_t)hd.face_count * sizeof(float);
  h->face_first = (int32_t*)cur; cur += (size_t)(hd.face_count + 1) * sizeof(int32_t);
  h->face_index = (int32_t*)cur;
  /* the block's arrays follow one another in the image as in memory */
  memcpy(h->vertices, (const char*)image + sizeof hd, need - sizeof(tb_hull));
  h->vertex_count = hd.vertex_count;
  h->face_count = hd.face_count;
  h->edge_count = hd.edge_count;
  h->centroid = hd.centroid;
  h->radius = hd.radius;
  h->tolerance = hd.tolerance;
  h->bytes = (size_t)hd.block_bytes;
  int ok = h->face_first[0] == 0 && h->face_first[hd.face_count] == hd.index_count;
  for (int32_t f = 0; f < hd.face_count && ok; ++f) ok = h->face_first[f + 1] - h->face_first[f] >= 3;
  for (int32_t k = 0; k < hd.index_count && ok; ++k) ok = h->face_index[k] >= 0 && h->face_index[k] < hd.vertex_count;
  if (ok && hd.field_res > 0) {
    h->field = tb_support_field_alloc(hd.field_res);
    if (h->field) {
      size_t n = (size_t)hd.field_res * (size_t)hd.field_res;
      memcpy(h->field->vertex, (const char*)image + sizeof hd + (need - sizeof(tb_hull)), n * sizeof(int32_t));
      for (size_t k = 0; k < n && ok; ++k) ok = h->field->vertex[k] >= 0 && h->field->vertex[k] < hd.vertex_count;
      h->bytes += h->field->bytes;
    }
    ok = ok && h->field;
  }
  if (!ok) {
    tb_hull_free(h);
    return NULL;
  }
  return h;
}
