/* Contact matching across collide() calls (internal): geometric correspondence by shape pair
 * (slots and generations) and feature id, else the nearest previous point of the pair; never by
 * array slot. Keeps the persistent match keys, ages and body-local anchors (sticky mode). */
#ifndef TB_CONTACT_MATCH_H
#define TB_CONTACT_MATCH_H

#include "../world/contact_types.h"

struct tb_world;
struct tb_step_context;

/* The frame the running collide() fills (becomes current in tb_match_contacts). */
static inline tb_match_frame* tb_match_next(tb_match_data* m) { return &m->frame[1 - m->current]; }

/* After the narrow phase: each pair's first point in the frame the running collide() fills (the
 * points of the pairs before it, so the points are in pair then point order, the order of their
 * contact records; a replayed point changes no count), from the end of the narrow stage's leading
 * run on (tb_match_data.matched: it set those); returns the frame's points, for which the caller
 * reserves the per-point arrays (tb_match_reserve_points). */
int32_t tb_match_count_points(struct tb_world* w);

/* The narrow stage's pairs [begin, end), whose manifolds, counts, keys and previous entries
 * (tb_match_data.prev_pair) it has just written, while they are in cache: from the first point *points
 * (the points of the pairs before begin) each pair's first point, as long as its points fit the
 * frame's arrays, and those pairs' points matched. Returns the end of the
 * pairs it took and advances *points past them. The narrow stage calls it for the leading run of
 * pairs whose chunks ran in order (tb_match_data.matched); tb_match_contacts matches the rest, the
 * same way. */
int32_t tb_match_leading(struct tb_world* w, int32_t begin, int32_t end, int32_t* points);

/* Then: makes a new current frame, matches every point with the previous frame (the pairs from
 * tb_match_data.matched on: the narrow stage matched those before), applies sticky
 * anchors (collision.matching) and writes each pair's first record index (w->manifold_contact).
 * The matching frames' storage is world storage (tb_match_reserve, src/world/storage.c). */
void tb_match_contacts(struct tb_world* w, const struct tb_step_context* step);

#endif
