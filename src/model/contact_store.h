/* Contact store stage (internal). */
#ifndef TB_CONTACT_STORE_H
#define TB_CONTACT_STORE_H

#include "../world/world.h"

/* Each pair's first store index (w->manifold_contact, -1 without points: a prefix sum over the
 * point counts, so the layout does not depend on the thread count), and room for every point: the
 * store doubles until it holds them (contacts.grew says it did). TB_ERR_OUT_OF_MEMORY else. */
tb_status tb_contact_store_reserve(tb_world* w);
/* Public contact store after tb_contact_store_reserve, in parallel over pairs: every manifold
 * point in pair order, with the record of the distance rule, the matching (current match frame)
 * and the combined material; impulses zero and convention-specific readback NaN / -1 until a
 * solve() fills them. */
void tb_contact_store_fill(tb_world* w);

#endif
