/* World queries (internal): the ray and overlap tests behind the public calls of src/api/query.c.
 * Both check their inputs (failing with a message naming fn) and never change the world. */
#ifndef TB_QUERY_H
#define TB_QUERY_H

#include "../world/world.h"

/* Receives each hit of a ray, in shape slot order. */
typedef void (*tb_ray_visitor)(void* ctx, const tb_ray_hit* hit);

/* Checks the ray (finite origin, non-zero direction, maxDistance > 0 in m) and the filter, then
 * passes every hit of the ray with a shape that passes the filter to visit(). */
tb_status tb_query_ray(tb_world* w, const char* fn, const float origin[3], const float direction[3], float max_distance,
                       const tb_query_filter* filter, tb_ray_visitor visit, void* ctx);

/* Checks the query shape (type, params, pose in world) and the filter, then stores up to capacity
 * ids of the shapes it touches in shape_ids (slot order) and their number in *requested. Returns
 * the ids stored, or a negated tb_status. Pointers and capacity are the caller's to check. */
int32_t tb_query_overlap(tb_world* w, const char* fn, int32_t type, const float params[4], const float position[3],
                         const float rotation[4], const tb_query_filter* filter, tb_shape_id* shape_ids, int32_t capacity,
                         int32_t* requested);

#endif
