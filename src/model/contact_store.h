/* Contact store stage (internal). */
#ifndef TB_CONTACT_STORE_H
#define TB_CONTACT_STORE_H

#include "../world/world.h"

/* Public contact store: every manifold point in pair order, up to the capacity, with the record
 * of the distance rule, the matching (current match frame) and the combined material; impulses
 * zero and convention-specific readback NaN / -1 until a solve() fills them. */
void tb_contact_store_fill(tb_world* w);

#endif
