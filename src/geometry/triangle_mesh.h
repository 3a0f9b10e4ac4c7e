/* Static triangle geometry owned by heightfield and mesh shapes (internal): vertices, per-triangle
 * unit normals, active-edge flags for the internal-edge rule, local bounds, and a BVH (meshes). */
#ifndef TB_TRIANGLE_MESH_H
#define TB_TRIANGLE_MESH_H

#include "bvh.h"

/* Active-feature flags of a triangle: bit k set when edge (v_k, v_(k+1)%3) is active, bit 3 + k
 * when vertex v_k is active. An edge is
 * active when it is a boundary edge, shared by more than two triangles, shared by triangles of
 * opposite winding, or a convex ridge whose face normals differ by more than
 * TB_EDGE_ACTIVE_COS. Flat and concave internal edges are inactive: a contact on them takes the
 * triangle's face normal (no ghost contacts on a smooth surface). A vertex is active when any
 * edge of the mesh that ends at it is active. */
#define TB_EDGE_ACTIVE_COS 0.9998f /* cos of ~1.15 degrees */

typedef struct tb_mesh_data {
  int32_t vertex_count, triangle_count;
  tb_vec3* vertices;     /* shape frame, m */
  int32_t* indices;      /* 3 per triangle, counter-clockwise about the front normal */
  tb_vec3* normals;      /* unit front normal per triangle, (v1 - v0) x (v2 - v0) normalized */
  uint8_t* edge_active;  /* per triangle: bits 0..2 edges, 3..5 vertices */
  tb_vec3 lower, upper;  /* bounds of the vertices, shape frame, m */
  tb_bvh bvh;            /* over the triangle bounds */
} tb_mesh_data;

/* Grid of rows x cols heights (m, along local y). Sample (r, c) sits at local
 * x = (c - (cols - 1) / 2) * cell_x, z = (r - (rows - 1) / 2) * cell_z: the grid is centred on the
 * shape origin. Cell (r, c) (0 <= r < rows - 1, 0 <= c < cols - 1) is split along the diagonal
 * from sample (r, c) to (r + 1, c + 1) into triangle 2 * (r * (cols - 1) + c) + 0 =
 * {(r,c), (r+1,c), (r+1,c+1)} and + 1 = {(r,c), (r+1,c+1), (r,c+1)}, both with front normal +y
 * for a flat grid. */
typedef struct tb_heightfield_data {
  int32_t rows, cols;
  float cell_x, cell_z;  /* m */
  float* heights;        /* rows * cols, row-major (index r * cols + c), m */
  uint8_t* edge_active;  /* per triangle: bits 0..2 edges, 3..5 vertices */
  tb_vec3 lower, upper;  /* bounds, shape frame, m */
} tb_heightfield_data;

/* Validation result of tb_mesh_data_create: TB_MESH_OK or the first problem found, with the
 * offending element in *bad (vertex, index or triangle number). */
enum {
  TB_MESH_OK = 0,
  TB_MESH_NONFINITE_VERTEX = 1,
  TB_MESH_INDEX_RANGE = 2,
  TB_MESH_DEGENERATE = 3,
  TB_MESH_NO_MEMORY = 4
};

/* Copies and validates the geometry, builds normals, edge flags and the BVH. *out is NULL unless
 * TB_MESH_OK. Triangles with (doubled) area below 1e-12 m² relative to the squared extent are
 * degenerate. */
int tb_mesh_data_create(const float* vertices, int32_t vertex_count, const int32_t* indices,
                        int32_t triangle_count, tb_mesh_data** out, int32_t* bad);
void tb_mesh_data_free(tb_mesh_data* m);

/* Copies the (already validated: finite, rows, cols >= 2, cells > 0) grid, builds edge flags. */
tb_heightfield_data* tb_heightfield_data_create(int32_t rows, int32_t cols, const float* heights,
                                                float cell_x, float cell_z);
void tb_heightfield_data_free(tb_heightfield_data* h);

/* Vertices (shape frame) of heightfield triangle `tri`. */
static inline void tb_heightfield_triangle(const tb_heightfield_data* h, int32_t tri, tb_vec3 v[3]) {
  int32_t cell = tri >> 1, r = cell / (h->cols - 1), c = cell % (h->cols - 1);
  float x0 = ((float)c - 0.5f * (float)(h->cols - 1)) * h->cell_x;
  float z0 = ((float)r - 0.5f * (float)(h->rows - 1)) * h->cell_z;
  const float* y = h->heights + r * h->cols + c;
  tb_vec3 s00 = tb_v3(x0, y[0], z0), s01 = tb_v3(x0 + h->cell_x, y[1], z0);
  tb_vec3 s10 = tb_v3(x0, y[h->cols], z0 + h->cell_z), s11 = tb_v3(x0 + h->cell_x, y[h->cols + 1], z0 + h->cell_z);
  v[0] = s00;
  if (tri & 1) { v[1] = s11; v[2] = s01; } else { v[1] = s10; v[2] = s11; }
}

/* Edge and vertex flags of the triangles given by vertex positions and indices (see
 * TB_EDGE_ACTIVE_COS); scratch is allocated here. Returns 0 on out of memory. */
int tb_triangle_edge_flags(const tb_vec3* vertices, int32_t vertex_count, const int32_t* indices,
                           int32_t triangle_count, uint8_t* flags);

#endif
