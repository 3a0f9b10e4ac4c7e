/* AABB update stage (internal). */
#ifndef TB_SHAPE_BOUNDS_H
#define TB_SHAPE_BOUNDS_H

#include "../world/world.h"

/* World poses of every live shape from its body, and AABBs fattened by the motion of one step
 * ctx->dt (linear and angular), the speculative distance and the shape's share of the distance
 * rule's detection distance. */
void tb_update_shape_bounds(tb_world* w, const tb_step_context* ctx);
/* The same for the shapes of one body, with the motion of one step h (s). */
void tb_update_body_bounds(tb_world* w, int32_t body, float h);
/* The views alone (tb_shape_view) of one body's shapes: a body put to sleep where its bounds stay
 * as they were, its velocities now zero. */
void tb_update_body_views(tb_world* w, int32_t body);

#endif
