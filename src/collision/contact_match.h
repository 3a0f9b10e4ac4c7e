/* Contact matching across collide() calls (internal): geometric correspondence by shape pair
 * (slots and generations) and feature id, else the nearest previous point of the pair; never by
 * array slot. Keeps the persistent match keys, ages and body-local anchors (sticky mode). */
#ifndef TB_CONTACT_MATCH_H
#define TB_CONTACT_MATCH_H

#include "../core/math.h"
#include "../model/distance.h"

struct tb_world;

/* One frame's manifold points, per pair (i) and point (4 * i + j), in pair order. */
typedef struct tb_match_frame {
  uint64_t* key;        /* per pair: tb_pair_match_key, ascending */
  int32_t* count;       /* per pair: points */
  int32_t* reduced;     /* per pair: 1 when reduction dropped points */
  tb_distance_pair* dist; /* per pair: the distance rule's summed values */
  uint32_t* feature;    /* per point */
  uint32_t* id;         /* per point: persistent match key */
  int32_t* age;         /* per point: frames matched */
  int32_t* previous;    /* per point: contact store index of the match in the previous frame, -1 */
  int32_t* store;       /* per point: contact store index in this frame, -1 when not stored */
  tb_vec3* local0;      /* per point: point0 in shape0's body frame (m) */
  tb_vec3* local1;      /* per point: point1 in shape1's body frame (m) */
  int32_t pair_count;
} tb_match_frame;

typedef struct tb_match_data {
  tb_match_frame frame[2];
  int32_t current;      /* frame[current] is the last collide()'s */
  int32_t capacity;     /* pairs each frame holds */
  uint32_t next_id;     /* next persistent key */
} tb_match_data;

/* Grows both frames (doubling) to hold at least `pairs` pairs, keeping their contents; called in
 * collide() once the broad phase has counted the pairs, before the narrow phase. */
int tb_match_reserve(struct tb_world* w, int32_t pairs);
/* The frame the running collide() fills (becomes current in tb_match_contacts). */
static inline tb_match_frame* tb_match_next(tb_match_data* m) { return &m->frame[1 - m->current]; }
void tb_match_free(tb_match_data* m);

/* After the narrow phase and the distance stage: makes a new current frame, matches every point
 * with the previous frame, applies sticky anchors (collision.matching) and fills the warm-start
 * impulses (w->warm_normal / warm_friction) from the solver's cache of the matched point. */
void tb_match_contacts(struct tb_world* w);

#endif
