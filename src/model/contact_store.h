/* Contact store stage (internal). */
#ifndef TB_CONTACT_STORE_H
#define TB_CONTACT_STORE_H

#include "../world/world.h"

/* After the matching, which wrote each pair's first store index (w->manifold_contact, -1 without
 * points: its first point's index in the matching frame, a prefix sum over the point counts, so the
 * layout does not depend on the thread count): room for every point, the store doubling until it
 * holds them (contacts.grew says it did). TB_ERR_OUT_OF_MEMORY else. */
tb_status tb_contact_store_reserve(tb_world* w);
/* Public contact store after tb_contact_store_reserve, in parallel over pairs: every manifold
 * point in pair order, with the record of the distance rule, the matching (current match frame)
 * and the combined material; impulses zero and convention-specific readback NaN / -1 until a
 * solve() fills them. */
void tb_contact_store_fill(tb_world* w, const tb_step_context* step);
/* collide()'s last stage: the records of the reserved store are owed (TB_OWE_RECORDS) and the
 * matching frame counts as stored (its point indices are the records' indices, written or not). */
void tb_contact_store_owe(tb_world* w);

/* The solver about to run writes its readback convention's fields into records [0, count): they are
 * no longer the defaults the next fill may skip (every solve calls it first). */
void tb_contact_store_solving(tb_world* w);

/* What a solver's readback put in the store (tb_readback_info flags). */
enum {
  TB_RB_PER_CONTACT = 1 << 0,  /* per_contact_force */
  TB_RB_FRICTION = 1 << 1,     /* includes_friction */
  TB_RB_RESTITUTION = 1 << 2,  /* includes_restitution */
  TB_RB_TORSIONAL = 1 << 3,    /* includes_torsional */
  TB_RB_PER_BODY = 1 << 4,     /* per_body_force */
};
/* Marks the store's readback filled by a solver of `convention` (tb_readback): flags TB_RB_*,
 * impulses summed over `substeps`, contact-count weighting `scale` already applied (1 = none). */
void tb_readback_set(tb_world* w, int32_t convention, int32_t flags, int32_t substeps, float scale);

#endif
