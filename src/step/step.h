/* The step pipeline (internal): collide() and solve() as the design's stages, in order.
 *
 *   AABB update -> filtering + broad phase -> narrow phase + reduction (+ distance rule, materials)
 *     -> matching -> contact store -> solver (rows, iterations, integration, readback) -> observers
 *
 * collide() runs the stages up to the contact store, solve() the rest, step() both. */
#ifndef TB_STEP_H
#define TB_STEP_H

#include "../world/world.h"

/* X(name, file): each stage and the file where it lives. */
#define TB_STEP_STAGES(X)                                                                           \
  X(AABB_UPDATE, "collision/shape_bounds.c")  /* shape poses, fattened AABBs */                    \
  X(BROAD_PHASE, "collision/broad_phase.c")   /* candidates by overlap, each through filter.c */    \
  X(NARROW_PHASE, "step/narrow_stage.c")      /* manifolds, reduction, distance rule, materials,   \
                                                 and the matching of the pairs whose chunks ran in  \
                                                 order (contact_match.c: tb_match_leading) */       \
  X(MATCHING, "model/contact_match.c")        /* correspondence with the last collide(): the rest */ \
  X(CONTACT_STORE, "model/contact_store.c")   /* the public records, written when first read */   \
  X(SOLVE, "solver/solver*.c")                /* the preset's solver family, guarded */           \
  X(OBSERVERS, "observe/observe.c")           /* sensors, events */

#define TB_STEP_STAGE_ENUM(name, file) TB_STAGE_##name,
typedef enum tb_step_stage { TB_STAGE_NONE = -1, TB_STEP_STAGES(TB_STEP_STAGE_ENUM) TB_STAGE_COUNT } tb_step_stage;
#undef TB_STEP_STAGE_ENUM

/* The step's constants from the world's definition: computed once per collide() / solve(), for
 * one round (dt = timestep / rounds, h = dt / substeps). */
tb_step_context tb_step_context_of(const tb_world* w);
/* The whole step as one span, for the observers: dt the world's timestep, rounds 1, substeps
 * every internal step of its rounds (rounds × substeps), h = dt / substeps, inv_h = 1 / h. */
tb_step_context tb_step_context_whole(const tb_world* w);

/* collide(): the stages up to the contact store. The store's records are owed (TB_OWE_RECORDS):
 * written by tb_step_contacts_ready when something first reads them. */
tb_status tb_step_collide(tb_world* w);
/* Writes what the contact store owes (tb_contact_store.owed): the records of the last collide()
 * with the kept records of sleeping pairs after them, then the last PhysX solve()'s impulses.
 * The same bits as when written during the step; allocates nothing (the store was reserved). */
void tb_step_contacts_ready(tb_world* w);
/* Computes the residuals the last PhysX solve() owes the solver status (w->status_owed); the same
 * bits as when computed during the step. */
void tb_step_status_ready(tb_world* w);
/* solve(): the solver family with its guard (the step is undone when it leaves a non-finite body
 * state), then the observers. Needs a collide() since the last solve(). */
tb_status tb_step_solve(tb_world* w);

/* Stages of step/ (the others live in their layers; see TB_STEP_STAGES). */
void tb_narrow_stage(tb_world* w, const tb_step_context* ctx);
tb_status tb_solve_guarded(tb_world* w, const tb_step_context* ctx);
/* Body states (transform, velocities: 13 floats per slot; static bodies' slots neither saved nor
 * restored) saved into *saved (grown to the body count) and copied back: the guard's undo of one
 * solve(), a step of several rounds' undo of all. */
tb_status tb_body_state_save(tb_world* w, float** saved, int32_t* capacity);
void tb_body_state_restore(tb_world* w, const float* saved);
/* Readback sums over the rounds of one step (rounds.c): after round r (0 first), and after the last. */
tb_status tb_rounds_add(tb_world* w, int32_t round);
/* A step of one round: no chain ended before its last round. */
void tb_rounds_clear(tb_world* w);
void tb_rounds_finish(tb_world* w, int32_t rounds);

#endif
