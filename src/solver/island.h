/* Persistent islands and automatic sleep (internal, src/solver/island.c). */
#ifndef TB_ISLAND_H
#define TB_ISLAND_H

#include "../world/world.h"

/* A new dynamic body: its own island, awake. */
void tb_island_add_body(tb_world* w, int32_t slot);
/* A body about to be removed (any type): its island loses it, islands it touches wake
 * (automatic sleep on) and kept sleeping records that name it are dropped. */
void tb_island_remove_body(tb_world* w, int32_t slot);
/* A shape about to be removed: sleeping islands whose kept records name it wake. */
void tb_island_remove_shape(tb_world* w, int32_t shape);
/* The body's island wakes (automatic sleep on; nothing otherwise): pose, velocity, mass or shapes set. */
void tb_island_touch_body(tb_world* w, int32_t slot);
/* tb_body_set_sleeping: under automatic sleep the whole island, otherwise the body alone (it
 * leaves its island while asleep). dt (s): the timestep the resting bounds are fattened for. */
void tb_island_set_sleeping(tb_world* w, int32_t slot, int asleep, float dt);

/* collide(), after the narrow phase: wakes every sleeping island with a new touching contact or
 * a joint to an awake body. Returns the islands woken (their pairs need a new broad phase). */
int32_t tb_islands_wake_touched(tb_world* w);
/* solve(), before the solver: links of this step's touching contacts and joints merge islands;
 * a lost link marks its island for a split (done lazily: before it sleeps, or when the PhysX
 * solvers need exact islands for differing iteration requests). 0 when out of memory. */
int tb_islands_update(tb_world* w);
/* solve(), around the solver (after = 0 before it, 1 after): the readback of a joint whose
 * sides all rest with one asleep is kept and flagged instead of being invalidated. */
void tb_islands_keep_joints(tb_world* w, int after);
/* solve(), after the solver: the sleep rule per body (ready islands that may have come apart are
 * split); returns the islands now ready to sleep. Then tb_islands_sleep puts them to sleep, which
 * keeps their contact records (copied from the store: it must owe none). */
int32_t tb_islands_sleep_rule(tb_world* w, const tb_step_context* step);
void tb_islands_sleep(tb_world* w, const tb_step_context* step);
/* The sleep rule of awake dynamic body slot i after the solve, dt (s) the step (sleep_rule.c):
 * genesis counts its steps at rest (sleep_steps), physx runs its wake counter down. */
void tb_sleep_rule_body(tb_world* w, int32_t i, float dt);
/* PhysX rule, before tb_sleep_rule_body: each dynamic body's counted interactions (its shape
 * pairs the broad phase kept and its joints), the cluster factor's count. */
void tb_sleep_rule_count_interactions(tb_world* w);
/* Step statistics of islands and sleep (w->stats). */
void tb_islands_stats(tb_world* w);

/* The store's kept sleeping records, appended after the fresh ones (tb_contact_store_fill). */
void tb_sleep_contacts_append(tb_world* w);
int tb_sleep_contacts_reserve(tb_world* w, int32_t records);

#endif
