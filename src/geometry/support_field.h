/* Support fields (Genesis): the support vertex of a hull precomputed for res × res directions on
 * a latitude/longitude grid, answered in O(1) by a 4-cell lookup (internal). */
#ifndef TB_SUPPORT_FIELD_H
#define TB_SUPPORT_FIELD_H

#include <stddef.h>

#include "../core/math.h"

typedef struct tb_support_field {
  int32_t res;      /* cells per angle: theta (azimuth, [0, 2π), periodic) × phi (polar, [0, π]) */
  int32_t* vertex;  /* res*res vertex indices, cell (i, j) at vertex[j*res + i] */
  size_t bytes;     /* memory of this field */
} tb_support_field;

/* Direction of cell (i, j): theta = 2π i / res, phi = π j / (res − 1),
 * d = (sin φ cos θ, sin φ sin θ, cos φ). */
tb_vec3 tb_support_field_direction(int32_t res, int32_t i, int32_t j);

/* Builds the field of vertices[0..count). With the vertex adjacency of a convex polytope
 * (adj_first[count+1], adj[]: CSR neighbour lists; may be NULL) each cell hill-climbs from the
 * previous cell's answer, which is exact on a convex polytope (a local maximum of a linear
 * function over the vertex graph is global); without it each cell scans. NULL when out of
 * memory. */
tb_support_field* tb_support_field_build(const tb_vec3* vertices, int32_t count, const int32_t* adj_first,
                                         const int32_t* adj, int32_t res);
void tb_support_field_free(tb_support_field* f);
/* A field of res×res cells with its vertex table unfilled (snapshots fill it); NULL when out of memory. */
tb_support_field* tb_support_field_alloc(int32_t res);

/* Support vertex along d (any length > 0): the best of the vertices of the 4 cells around d.
 * *ties (may be NULL) = number of distinct vertices among those 4 cells tied at the maximum
 * along d (genesis; > 1: the support is ambiguous there: an edge or face is perpendicular to d).
 * A non-finite d still gives a vertex: NaN angles read cell (0, 0), with *ties 0 for a NaN d. */
int32_t tb_support_field_lookup(const tb_support_field* f, const tb_vec3* vertices, tb_vec3 d, int32_t* ties);

/* Angular size of a cell (rad): the largest angle between a direction and the nearest of its 4
 * cell corners is at most this. */
float tb_support_field_cell_angle(int32_t res);

#endif
