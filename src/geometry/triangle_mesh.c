/* Heightfield and mesh geometry: copies, normals, active-edge flags, bounds, BVH. */
#include "triangle_mesh.h"

#include <stdlib.h>
#include <string.h>

#include "../core/alloc.h"

typedef struct edge_ref {
  uint64_t key;  /* (min vertex << 32) | max vertex */
  int32_t te;    /* 3 * triangle + edge */
} edge_ref;

static int edge_cmp(const void* x, const void* y) {
  const edge_ref *a = (const edge_ref*)x, *b = (const edge_ref*)y;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  return (a->te > b->te) - (a->te < b->te);
}

static tb_vec3 tri_normal(const tb_vec3* v, const int32_t* t) {
  return tb_normalize(tb_cross(tb_sub(v[t[1]], v[t[0]]), tb_sub(v[t[2]], v[t[0]])));
}

int tb_triangle_edge_flags(const tb_vec3* v, int32_t vertex_count, const int32_t* idx, int32_t n, uint8_t* flags) {
  size_t bytes = sizeof(edge_ref) * (size_t)n * 3;
  edge_ref* e = (edge_ref*)tb_alloc(bytes);
  uint8_t* vertex_active = (uint8_t*)tb_alloc_zero((size_t)vertex_count);
  if (!e || !vertex_active) {
    if (e) tb_free(e, bytes);
    if (vertex_active) tb_free(vertex_active, (size_t)vertex_count);
    return 0;
  }
  for (int32_t t = 0; t < n; ++t) {
    flags[t] = 0;
    for (int k = 0; k < 3; ++k) {
      uint32_t a = (uint32_t)idx[3 * t + k], b = (uint32_t)idx[3 * t + (k + 1) % 3];
      uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
      e[3 * t + k].key = ((uint64_t)lo << 32) | hi;
      e[3 * t + k].te = 3 * t + k;
    }
  }
  qsort(e, (size_t)n * 3, sizeof(edge_ref), edge_cmp);
  for (int32_t i = 0; i < 3 * n;) {
    int32_t j = i + 1;
    while (j < 3 * n && e[j].key == e[i].key) ++j;
    if (j - i != 2) {
      /* boundary or non-manifold edge: active on every triangle that has it */
      for (int32_t q = i; q < j; ++q) flags[e[q].te / 3] |= (uint8_t)(1u << (e[q].te % 3));
    } else {
      int32_t t0 = e[i].te / 3, k0 = e[i].te % 3, t1 = e[i + 1].te / 3, k1 = e[i + 1].te % 3;
      tb_vec3 n0 = tri_normal(v, idx + 3 * t0), n1 = tri_normal(v, idx + 3 * t1);
      /* the vertex of t1 opposite the shared edge */
      tb_vec3 opp = v[idx[3 * t1 + (k1 + 2) % 3]];
      tb_vec3 a = v[idx[3 * t0 + k0]];
      int consistent = idx[3 * t0 + k0] != idx[3 * t1 + k1]; /* consistent triangles run the edge in opposite directions */
      float cosang = tb_dot(n0, n1);
      /* convex ridge: the neighbour bends away below t0's plane */
      int convex = tb_dot(n0, tb_sub(opp, a)) < 0.0f;
      int active = !consistent || (convex && cosang < TB_EDGE_ACTIVE_COS);
      if (active) {
        flags[t0] |= (uint8_t)(1u << k0);
        flags[t1] |= (uint8_t)(1u << k1);
      }
    }
    i = j;
  }
  for (int32_t t = 0; t < n; ++t)
    for (int k = 0; k < 3; ++k)
      if (flags[t] & (1u << k)) vertex_active[idx[3 * t + k]] = vertex_active[idx[3 * t + (k + 1) % 3]] = 1;
  for (int32_t t = 0; t < n; ++t)
    for (int k = 0; k < 3; ++k)
      if (vertex_active[idx[3 * t + k]]) flags[t] |= (uint8_t)(1u << (3 + k));
  tb_free(e, bytes);
  tb_free(vertex_active, (size_t)vertex_count);
  return 1;
}

int tb_mesh_data_create(const float* vertices, int32_t vertex_count, const int32_t* indices,
                        int32_t triangle_count, tb_mesh_data** out, int32_t* bad) {
  *out = NULL;
  *bad = -1;
  for (int32_t i = 0; i < 3 * vertex_count; ++i)
    if (!tb_is_finite(vertices[i])) { *bad = i / 3; return TB_MESH_NONFINITE_VERTEX; }
  for (int32_t i = 0; i < 3 * triangle_count; ++i)
    if (indices[i] < 0 || indices[i] >= vertex_count) { *bad = i; return TB_MESH_INDEX_RANGE; }
  const tb_vec3* v = (const tb_vec3*)vertices;
  tb_vec3 lo = v[0], hi = v[0];
  for (int32_t i = 1; i < vertex_count; ++i) { lo = tb_vmin(lo, v[i]); hi = tb_vmax(hi, v[i]); }
  float ext2 = tb_length_sq(tb_sub(hi, lo));
  for (int32_t t = 0; t < triangle_count; ++t) {
    const int32_t* x = indices + 3 * t;
    float area2 = tb_length(tb_cross(tb_sub(v[x[1]], v[x[0]]), tb_sub(v[x[2]], v[x[0]])));
    if (!(area2 > 1e-12f * ext2)) { *bad = t; return TB_MESH_DEGENERATE; }
  }
  tb_mesh_data* m = (tb_mesh_data*)tb_alloc_zero(sizeof(tb_mesh_data));
  if (!m) return TB_MESH_NO_MEMORY;
  m->vertex_count = vertex_count;
  m->triangle_count = triangle_count;
  m->vertices = (tb_vec3*)tb_alloc(sizeof(tb_vec3) * (size_t)vertex_count);
  m->indices = (int32_t*)tb_alloc(sizeof(int32_t) * 3 * (size_t)triangle_count);
  m->normals = (tb_vec3*)tb_alloc(sizeof(tb_vec3) * (size_t)triangle_count);
  m->edge_active = (uint8_t*)tb_alloc((size_t)triangle_count);
  tb_vec3* tlo = (tb_vec3*)tb_alloc(sizeof(tb_vec3) * (size_t)triangle_count);
  tb_vec3* thi = (tb_vec3*)tb_alloc(sizeof(tb_vec3) * (size_t)triangle_count);
  int ok = m->vertices && m->indices && m->normals && m->edge_active && tlo && thi;
  if (ok) {
    memcpy(m->vertices, vertices, sizeof(tb_vec3) * (size_t)vertex_count);
    memcpy(m->indices, indices, sizeof(int32_t) * 3 * (size_t)triangle_count);
    m->lower = lo;
    m->upper = hi;
    for (int32_t t = 0; t < triangle_count; ++t) {
      const int32_t* x = indices + 3 * t;
      m->normals[t] = tri_normal(v, x);
      tlo[t] = tb_vmin(v[x[0]], tb_vmin(v[x[1]], v[x[2]]));
      thi[t] = tb_vmax(v[x[0]], tb_vmax(v[x[1]], v[x[2]]));
    }
    ok = tb_triangle_edge_flags(m->vertices, vertex_count, m->indices, triangle_count, m->edge_active) &&
         tb_bvh_build(&m->bvh, tlo, thi, triangle_count);
  }
  if (tlo) tb_free(tlo, sizeof(tb_vec3) * (size_t)triangle_count);
  if (thi) tb_free(thi, sizeof(tb_vec3) * (size_t)triangle_count);
  if (!ok) {
    tb_mesh_data_free(m);
    return TB_MESH_NO_MEMORY;
  }
  *out = m;
  return TB_MESH_OK;
}

void tb_mesh_data_free(tb_mesh_data* m) {
  if (!m) return;
  if (m->vertices) tb_free(m->vertices, sizeof(tb_vec3) * (size_t)m->vertex_count);
  if (m->indices) tb_free(m->indices, sizeof(int32_t) * 3 * (size_t)m->triangle_count);
  if (m->normals) tb_free(m->normals, sizeof(tb_vec3) * (size_t)m->triangle_count);
  if (m->edge_active) tb_free(m->edge_active, (size_t)m->triangle_count);
  tb_bvh_free(&m->bvh);
  tb_free(m, sizeof(tb_mesh_data));
}

tb_heightfield_data* tb_heightfield_data_create(int32_t rows, int32_t cols, const float* heights,
                                                float cell_x, float cell_z) {
  tb_heightfield_data* h = (tb_heightfield_data*)tb_alloc_zero(sizeof(tb_heightfield_data));
  if (!h) return NULL;
  int32_t samples = rows * cols, tris = 2 * (rows - 1) * (cols - 1);
  h->rows = rows;
  h->cols = cols;
  h->cell_x = cell_x;
  h->cell_z = cell_z;
  h->heights = (float*)tb_alloc(sizeof(float) * (size_t)samples);
  h->edge_active = (uint8_t*)tb_alloc((size_t)tris);
  /* temporary indexed form for the shared edge-flag rule */
  tb_vec3* v = (tb_vec3*)tb_alloc(sizeof(tb_vec3) * (size_t)samples);
  int32_t* idx = (int32_t*)tb_alloc(sizeof(int32_t) * 3 * (size_t)tris);
  int ok = h->heights && h->edge_active && v && idx;
  if (ok) {
    memcpy(h->heights, heights, sizeof(float) * (size_t)samples);
    float ymin = heights[0], ymax = heights[0];
    for (int32_t i = 0; i < samples; ++i) {
      ymin = fminf(ymin, heights[i]);
      ymax = fmaxf(ymax, heights[i]);
      int32_t r = i / cols, c = i % cols;
      v[i] = tb_v3(((float)c - 0.5f * (float)(cols - 1)) * cell_x, heights[i], ((float)r - 0.5f * (float)(rows - 1)) * cell_z);
    }
    h->lower = tb_v3(-0.5f * (float)(cols - 1) * cell_x, ymin, -0.5f * (float)(rows - 1) * cell_z);
    h->upper = tb_v3(0.5f * (float)(cols - 1) * cell_x, ymax, 0.5f * (float)(rows - 1) * cell_z);
    for (int32_t r = 0; r < rows - 1; ++r)
      for (int32_t c = 0; c < cols - 1; ++c) {
        int32_t t = 2 * (r * (cols - 1) + c), s00 = r * cols + c, s01 = s00 + 1, s10 = s00 + cols, s11 = s10 + 1;
        int32_t* x = idx + 3 * t;
        x[0] = s00; x[1] = s10; x[2] = s11;
        x[3] = s00; x[4] = s11; x[5] = s01;
      }
    ok = tb_triangle_edge_flags(v, samples, idx, tris, h->edge_active);
  }
  if (v) tb_free(v, sizeof(tb_vec3) * (size_t)samples);
  if (idx) tb_free(idx, sizeof(int32_t) * 3 * (size_t)tris);
  if (!ok) {
    tb_heightfield_data_free(h);
    return NULL;
  }
  return h;
}

void tb_heightfield_data_free(tb_heightfield_data* h) {
  if (!h) return;
  int32_t samples = h->rows * h->cols, tris = 2 * (h->rows - 1) * (h->cols - 1);
  if (h->heights) tb_free(h->heights, sizeof(float) * (size_t)samples);
  if (h->edge_active) tb_free(h->edge_active, (size_t)tris);
  tb_free(h, sizeof(tb_heightfield_data));
}
