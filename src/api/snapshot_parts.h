/* Snapshot pieces of the owned geometry and the observation state (internal, src/api/snapshot_parts.c). */
#ifndef TB_SNAPSHOT_PARTS_H
#define TB_SNAPSHOT_PARTS_H

#include "../core/serial.h"
#include "../world/world.h"

/* The owned geometry of a hull, mesh or heightfield shape (tb_shape_has_geometry). */
void tb_snapshot_put_geometry(tb_serial* s, int32_t type, const void* data);
/* The geometry of a shape of that type, built from the stream; NULL (and s->failed) when refused. */
void* tb_snapshot_get_geometry(tb_serial* s, int32_t type);
/* The observation state of w (o may be NULL: none). */
void tb_snapshot_put_observe(tb_serial* s, tb_observe* o);
/* Reads it into t (created on demand); 0 when refused or out of memory. */
int tb_snapshot_get_observe(tb_serial* s, tb_world* t);

#endif
