/* Support fields: precomputed support vertices on a latitude/longitude direction grid. */
#include "support_field.h"

#include "../core/alloc.h"

tb_vec3 tb_support_field_direction(int32_t res, int32_t i, int32_t j) {
  float theta = 2.0f * TB_PI * (float)i / (float)res;
  float phi = TB_PI * (float)j / (float)(res - 1);
  float sp = sinf(phi);
  return tb_v3(sp * cosf(theta), sp * sinf(theta), cosf(phi));
}

/* Exact scan (first on ties). */
static int32_t scan(const tb_vec3* v, int32_t n, tb_vec3 d) {
  int32_t best = 0;
  float bd = tb_dot(v[0], d);
  for (int32_t i = 1; i < n; ++i) {
    float x = tb_dot(v[i], d);
    if (x > bd) { bd = x; best = i; }
  }
  return best;
}

/* Hill climbing over the vertex graph from `start`: moves to a better neighbour while one exists. */
static int32_t climb(const tb_vec3* v, const int32_t* adj_first, const int32_t* adj, int32_t start, tb_vec3 d) {
  int32_t cur = start;
  float cd = tb_dot(v[cur], d);
  for (;;) {
    int32_t next = cur;
    for (int32_t k = adj_first[cur]; k < adj_first[cur + 1]; ++k) {
      float x = tb_dot(v[adj[k]], d);
      if (x > cd) { cd = x; next = adj[k]; }
    }
    if (next == cur) return cur;
    cur = next;
  }
}

tb_support_field* tb_support_field_alloc(int32_t res) {
  tb_support_field* f = (tb_support_field*)tb_alloc(sizeof(tb_support_field));
  if (!f) return NULL;
  size_t n = (size_t)res * (size_t)res;
  f->vertex = (int32_t*)tb_alloc(n * sizeof(int32_t));
  if (!f->vertex) { tb_free(f, sizeof *f); return NULL; }
  f->res = res;
  f->bytes = sizeof *f + n * sizeof(int32_t);
  return f;
}

tb_support_field* tb_support_field_build(const tb_vec3* vertices, int32_t count, const int32_t* adj_first,
                                         const int32_t* adj, int32_t res) {
  tb_support_field* f = tb_support_field_alloc(res);
  if (!f) return NULL;
  int32_t prev = 0;
  for (int32_t j = 0; j < res; ++j)
    for (int32_t i = 0; i < res; ++i) {
      tb_vec3 d = tb_support_field_direction(res, i, j);
      if (adj_first) {
        /* start from the neighbouring cell's answer (the row above at a row start) */
        int32_t start = i == 0 ? (j > 0 ? f->vertex[(j - 1) * res] : 0) : prev;
        prev = climb(vertices, adj_first, adj, start, d);
      } else {
        prev = scan(vertices, count, d);
      }
      f->vertex[j * res + i] = prev;
    }
  return f;
}

void tb_support_field_free(tb_support_field* f) {
  if (!f) return;
  tb_free(f->vertex, (size_t)f->res * (size_t)f->res * sizeof(int32_t));
  tb_free(f, sizeof *f);
}

int32_t tb_support_field_lookup(const tb_support_field* f, const tb_vec3* vertices, tb_vec3 d, int32_t* ties) {
  int32_t res = f->res;
  float len = tb_length(d);
  float z = len > 0.0f ? tb_clampf(d.z / len, -1.0f, 1.0f) : 1.0f;
  float theta = atan2f(d.y, d.x);
  if (theta < 0.0f) theta += 2.0f * TB_PI;
  float u = theta * (float)res / (2.0f * TB_PI), v = acosf(z) * (float)(res - 1) / TB_PI;
  /* cells clamped in float before the int conversion: a direction with a NaN component (or an
   * infinite one: inf / inf) has NaN angles, which read cell 0; θ = 2π wraps to cell 0 */
  float fu = floorf(u), fv = floorf(v);
  if (fu >= (float)res) fu -= (float)res;
  int32_t i0 = tb_cell_index(fu, res), j0 = tb_cell_index(fv, res);
  int32_t i1 = i0 + 1 == res ? 0 : i0 + 1, j1 = j0 + 1 > res - 1 ? res - 1 : j0 + 1;
  const int32_t cand[4] = {f->vertex[j0 * res + i0], f->vertex[j0 * res + i1], f->vertex[j1 * res + i0],
                           f->vertex[j1 * res + i1]};
  int32_t best = cand[0];
  float bd = tb_dot(vertices[best], d), dots[4] = {bd, 0, 0, 0};
  for (int k = 1; k < 4; ++k) {
    float x = dots[k] = tb_dot(vertices[cand[k]], d);
    if (x > bd || (x == bd && cand[k] < best)) { bd = x; best = cand[k]; }
  }
  if (ties) {
    /* genesis: the distinct vertices tied at the maximum, within float rounding of the dots
     * (relative 1e-6 of |v|·|d|) */
    float tol = 1e-6f * len * tb_length(vertices[best]);
    int32_t n = 0;
    for (int k = 0; k < 4; ++k) {
      int seen = 0;
      for (int m = 0; m < k; ++m) seen |= cand[m] == cand[k];
      n += !seen && dots[k] >= bd - tol;
    }
    *ties = n;
  }
  return best;
}

float tb_support_field_cell_angle(int32_t res) {
  float dt = 2.0f * TB_PI / (float)res, dp = TB_PI / (float)(res - 1);
  return 0.5f * sqrtf(dt * dt + dp * dp);
}
