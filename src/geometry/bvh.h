/* Bounding volume hierarchy over triangle AABBs (internal): median split on the longest axis of
 * the centroid bounds, flat node array in depth-first order, stack query by AABB. */
#ifndef TB_BVH_H
#define TB_BVH_H

#include "../core/math.h"

#define TB_BVH_LEAF_SIZE 4   /* most triangles in a leaf */
#define TB_BVH_STACK 64      /* query stack depth; median splits keep the depth <= log2(n) + 1 */

typedef struct tb_bvh_node {
  tb_vec3 lower, upper; /* bounds of the node's triangles, m, in the shape frame */
  int32_t first;        /* leaf: first entry in tb_bvh.items; inner: index of the right child */
  int32_t count;        /* leaf: item count (> 0); inner: 0 (left child = this node + 1) */
} tb_bvh_node;

typedef struct tb_bvh {
  tb_bvh_node* nodes;
  int32_t* items;       /* triangle indices, leaf-ordered */
  tb_vec3* item_lower;  /* bounds of items[i], same order */
  tb_vec3* item_upper;
  int32_t node_count, item_count;
} tb_bvh;

/* Builds over `count` boxes (lower[i], upper[i]); 0 on out of memory. count >= 1. */
int tb_bvh_build(tb_bvh* bvh, const tb_vec3* lower, const tb_vec3* upper, int32_t count);
void tb_bvh_free(tb_bvh* bvh);

/* Calls visit(item, ctx) for exactly the items whose own box overlaps [lo, hi] (closed intervals), in a
 * fixed depth-first order. visit returns 0 to stop early. Returns the number of items visited. */
typedef int (*tb_bvh_visit_fn)(int32_t item, void* ctx);
int32_t tb_bvh_query(const tb_bvh* bvh, tb_vec3 lo, tb_vec3 hi, tb_bvh_visit_fn visit, void* ctx);

#endif
