/* Pair filtering per rule (Newton, MuJoCo, PhysX, Genesis) and sleep (internal). The slot-pair
 * lists the filters read are world storage (src/world/pair_keys.h). */
#ifndef TB_FILTER_H
#define TB_FILTER_H

#include "../world/world.h"

/* TB_PAIR_* flags of the candidate pair of shape slots a, b (0 = rejected): the checks common to
 * every rule (different bodies, at least one awake dynamic body, not two planes), then the
 * world's filter rule. Reads only; safe from any thread. */
int32_t tb_filter_pair(const tb_world* w, int32_t a, int32_t b);

/* Whether shape slot i is on a dynamic body. */
static inline int tb_filter_on_dynamic(const tb_world* w, int32_t i) {
  return w->bodies.f.body_type[w->shapes.body[i]] == TB_BODY_DYNAMIC;
}

/* 0 when tb_filter_pair rejects shape slots a, b whatever changes between steps: neither is on a
 * dynamic body (its awake check wants an awake dynamic body, or a moving kinematic one against a
 * sleeping dynamic one), and a body keeps its type. The broad phase leaves such pairs out of its
 * fat pairs for good and does not filter them (a level of touching static tiles). */
static inline int tb_filter_may_pair(const tb_world* w, int32_t a, int32_t b) {
  return tb_filter_on_dynamic(w, a) || tb_filter_on_dynamic(w, b);
}

#endif
