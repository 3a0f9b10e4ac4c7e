/* Convex hull of a point cloud (quickhull with a relative tolerance, coplanar faces merged) and
 * its support queries (internal). Geometry in the shape's local frame (m). */
#ifndef TB_HULL_H
#define TB_HULL_H

#include <stddef.h>

#include "../core/math.h"

/* Most input points tb_hull_build accepts (quickhull is O(n log n) on typical input; the
 * temporary memory is O(n)). */
#define TB_HULL_MAX_POINTS 100000
/* Hulls with at least this many vertices answer support queries from their support field (when
 * built with the default resolution); smaller hulls scan their vertices, which is then faster. */
#define TB_HULL_FIELD_MIN_VERTICES 64
#define TB_HULL_DEFAULT_FIELD_RES 180

struct tb_support_field;

typedef struct tb_hull {
  int32_t vertex_count;
  int32_t face_count;
  int32_t edge_count;
  tb_vec3* vertices;        /* hull vertices, local frame, m */
  int32_t* face_first;      /* face f uses face_index[face_first[f] .. face_first[f+1]) */
  int32_t* face_index;      /* vertex indices, counter-clockwise seen from outside */
  tb_vec3* face_normal;     /* outward unit normals */
  float* face_offset;       /* dot(normal, x) = offset on the face plane, m */
  tb_vec3 centroid;         /* mean of the vertices (an interior point), m */
  float radius;             /* largest distance of a vertex from the centroid, m */
  float tolerance;          /* m: the relative hull tolerance used at build time */
  struct tb_support_field* field; /* NULL: support by exact vertex scan */
  size_t bytes;             /* memory owned by this hull incl. the support field */
} tb_hull;

/* Error of tb_hull_build (0 = ok); the message names the problem. */
typedef struct tb_hull_error {
  int code;           /* 0 ok, 1 invalid input, 2 degenerate input, 3 out of memory, 4 too many points */
  char message[160];
} tb_hull_error;

/* Builds the hull of points[0..count) (x, y, z triples, m). field_res: 0 = no support field,
 * > 0 = a field of that resolution, < 0 = the default (TB_HULL_DEFAULT_FIELD_RES when the hull
 * has >= TB_HULL_FIELD_MIN_VERTICES vertices, else none). Returns NULL with err filled on
 * failure. */
tb_hull* tb_hull_build(const float* points, int32_t count, int32_t field_res, tb_hull_error* err);
void tb_hull_free(tb_hull* h);

/* Snapshot image of a hull: counts, scalars, its arrays and support field, copied as built (a
 * hull rebuilt from its vertices may number them differently). tb_hull_image writes it into out
 * (NULL: only counts) and returns its size in bytes; tb_hull_from_image checks every count and
 * index and returns NULL when the image is malformed or memory runs out. */
size_t tb_hull_image(const tb_hull* h, void* out);
tb_hull* tb_hull_from_image(const void* image, size_t size);

/* Index of the vertex farthest along local direction d by an exact scan (first on ties). */
int32_t tb_hull_support_scan(const tb_hull* h, tb_vec3 d);
/* Index of the vertex farthest along local d: the support field when the hull has one and its
 * answer is unambiguous (ties = 1), else the scan (first on ties). */
int32_t tb_hull_support(const tb_hull* h, tb_vec3 d);

/* Volume (m³), centre of mass (local, m) and inertia about the centre for unit density
 * (local axes, m⁵), by exact polyhedral integration over the faces. */
void tb_hull_mass(const tb_hull* h, float* volume, tb_vec3* center, tb_mat3* inertia);

#endif
