/* The step pipeline: one function per public call, each line one stage of the design's diagram. */
#include "step.h"

#include "../collision/broad_phase.h"
#include "../collision/shape_bounds.h"
#include "../core/jobs.h"
#include "../model/contact_match.h"
#include "../model/contact_store.h"
#include "../model/material.h"
#include "../observe/observe.h"
#include "../solver/island.h"
#include "../solver/solver.h"

/* The constants of `rounds` rounds over the world's timestep with `substeps` internal steps each;
 * whole: the step as one span (dt the timestep, every internal step of its rounds). */
static tb_step_context context_of(const tb_world* w, int whole) {
  const tb_solver_params* sp = &w->def.solver;
  tb_step_context c;
  int32_t rounds = sp->solver == TB_SOLVER_XPBD ? sp->newton.xpbd_substeps : 1;
  int32_t substeps = sp->solver == TB_SOLVER_TGS ? sp->position_iterations
                     : sp->solver == TB_SOLVER_PENALTY ? sp->newton.substeps : 1;
  c.rounds = whole ? 1 : rounds;
  c.dt = c.rounds > 1 ? w->def.timestep / (float)c.rounds : w->def.timestep;
  c.substeps = whole ? rounds * substeps : substeps;
  c.h = c.dt / (float)c.substeps;
  c.inv_h = 1.0f / c.h;
  c.thread_count = tb_governor_threads(&w->governor, w->def.thread_count); /* 1 while serial pays */
  return c;
}

tb_step_context tb_step_context_of(const tb_world* w) { return context_of(w, 0); }
tb_step_context tb_step_context_whole(const tb_world* w) { return context_of(w, 1); }

/* Scratch sized before the stages run: none of them allocates inside its loops. */
static tb_status reserve_collide(tb_world* w) {
  tb_jobs_reset_usage();
  if (!tb_arena_reserve(&w->arena, (size_t)w->shapes.count + 64))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "collide: out of memory for scratch");
  tb_material_memo_update(w); /* the narrow stage's combined materials (off when it cannot allocate) */
  if (!tb_shape_views_reserve(w))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "collide: out of memory for the views of %d shapes", w->shapes.count);
  return TB_OK;
}

static tb_status reserve_matching(tb_world* w) {
  if (!tb_match_reserve(w, w->pair_count))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "collide: out of memory for contact matching (%d pairs)", w->pair_count);
  return TB_OK;
}

static tb_status reserve_match_points(tb_world* w) {
  int32_t points = tb_match_count_points(w);
  if (!tb_match_reserve_points(w, points))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "collide: out of memory for contact matching (%d points)", points);
  return TB_OK;
}

#define STAGE(stage, call) do { call; w->last_stage = (stage); } while (0)
#define STAGE_OR_FAIL(stage, call) do { tb_status st_ = (call); if (st_ != TB_OK) return st_; w->last_stage = (stage); } while (0)

static tb_status collide_stages(tb_world* w) {
  const tb_step_context ctx = tb_step_context_of(w);
  w->last_stage = TB_STAGE_NONE;
  w->collided = 0;     /* until every stage ran: a failed collide() leaves no contacts to solve */
  w->contacts.owed = 0; /* the last step's records are replaced, written or not */
  tb_undo_forget(w);   /* contacts and matching frames may now name the last created body */
  STAGE_OR_FAIL(TB_STAGE_NONE, reserve_collide(w));
  STAGE(TB_STAGE_AABB_UPDATE, tb_update_shape_bounds(w, &ctx));
  STAGE_OR_FAIL(TB_STAGE_BROAD_PHASE, tb_broad_phase(w, &ctx)); /* filtering of each candidate inside */
  STAGE_OR_FAIL(TB_STAGE_BROAD_PHASE, reserve_matching(w));
  STAGE(TB_STAGE_NARROW_PHASE, tb_narrow_stage(w, &ctx)); /* reduction, distance rule, materials */
  /* a sleeping island touched by an awake body wakes before the solve: its own pairs (skipped
   * while it slept) are found by running the broad and narrow phases again */
  while (tb_islands_wake_touched(w) > 0) {
    STAGE(TB_STAGE_AABB_UPDATE, tb_update_shape_bounds(w, &ctx));
    STAGE_OR_FAIL(TB_STAGE_BROAD_PHASE, tb_broad_phase(w, &ctx));
    STAGE_OR_FAIL(TB_STAGE_BROAD_PHASE, reserve_matching(w));
    STAGE(TB_STAGE_NARROW_PHASE, tb_narrow_stage(w, &ctx));
  }
  STAGE_OR_FAIL(TB_STAGE_MATCHING, reserve_match_points(w)); /* grows the frames' points: nothing dropped */
  STAGE(TB_STAGE_MATCHING, tb_match_contacts(w, &ctx));
  STAGE_OR_FAIL(TB_STAGE_MATCHING, tb_contact_store_reserve(w)); /* grows the store: nothing dropped */
  STAGE(TB_STAGE_CONTACT_STORE, tb_contact_store_owe(w)); /* the records, written when first read */
  w->collided = 1;
  return TB_OK;
}

tb_status tb_step_collide(tb_world* w) {
  tb_status st = collide_stages(w);
  if (st != TB_OK) {
    /* a collide() that failed part-way has rewritten some pairs, manifolds or records and not
     * others: the world keeps none of them (no pairs, no records), so nothing reads a half-written
     * step and a snapshot of the world restores; the matching keeps its last complete frame */
    w->pair_count = 0;
    w->fresh_contacts = w->contacts.count = 0;
    w->contacts.readback_valid = 0;
    w->contacts.owed = 0;
  }
  return st;
}

void tb_step_status_ready(tb_world* w) {
  if (!w->status_owed) return;
  const tb_step_context ctx = tb_step_context_of(w);
  tb_solver_status_ready(w, &ctx);
}

void tb_step_contacts_ready(tb_world* w) {
  int32_t owed = w->contacts.owed;
  if (!owed) return;
  w->contacts.owed = 0;
  const tb_step_context ctx = tb_step_context_of(w);
  if (owed & TB_OWE_RECORDS) {
    tb_contact_store_fill(w, &ctx);
    tb_sleep_contacts_append(w); /* kept records of sleeping pairs, after the fresh ones */
  }
  if (owed & TB_OWE_READBACK) {
    tb_contact_store_solving(w); /* the fill above reset what the solve had marked */
    tb_solver_store_readback(w, &ctx);
  }
}

/* The solver sees the records of this collide() only: the kept records of sleeping pairs after
 * them keep their readback. */
static tb_status solve_fresh(tb_world* w, const tb_step_context* ctx) {
  if (!tb_islands_update(w)) return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "solve: out of memory for the islands");
  int32_t all = w->contacts.count;
  w->contacts.count = w->fresh_contacts < all ? w->fresh_contacts : all;
  tb_islands_keep_joints(w, 0);
  if (tb_solver_uses_records(w)) tb_step_contacts_ready(w);
  tb_contact_store_solving(w);
  tb_solver_status_forget(w); /* this solve's status replaces the last one's */
  tb_status st = tb_solve_guarded(w, ctx);
  w->contacts.count = all;
  tb_islands_keep_joints(w, 1);
  if (st != TB_OK) return st;
  /* the sleep rule on the step's final velocities; islands that fall asleep keep their records */
  if (tb_islands_sleep_rule(w, ctx) > 0) {
    tb_step_contacts_ready(w);
    tb_islands_sleep(w, ctx);
  }
  tb_islands_stats(w);
  return TB_OK;
}

/* A step of several rounds (XPBD substeps): the first solves the contacts of the collide() before
 * it, every later one collides again from the poses the last left (Newton's examples call
 * collide() inside their substep loop, e.g. newton/examples/contacts/example_pyramid.py). A
 * failed round undoes the whole step. The observers run once, after the last round. */
static tb_status solve_rounds(tb_world* w, const tb_step_context* ctx) {
  tb_round_sums* rs = &w->round_sums;
  tb_status st = tb_body_state_save(w, &rs->backup, &rs->backup_capacity);
  if (st != TB_OK) return st; /* nothing ran */
  for (int32_t r = 0; r < ctx->rounds && st == TB_OK; ++r) {
    if (r > 0) st = tb_step_collide(w);
    if (st == TB_OK) st = solve_fresh(w, ctx);
    if (st == TB_OK) st = tb_rounds_add(w, r);
  }
  if (st != TB_OK) {
    tb_body_state_restore(w, rs->backup);
    w->contacts.readback_valid = 0;
    return st;
  }
  tb_rounds_finish(w, ctx->rounds);
  return TB_OK;
}

tb_status tb_step_solve(tb_world* w) {
  const tb_step_context ctx = tb_step_context_of(w);
  if (ctx.rounds > 1) {
    STAGE_OR_FAIL(TB_STAGE_SOLVE, solve_rounds(w, &ctx));
  } else {
    tb_rounds_clear(w);
    STAGE_OR_FAIL(TB_STAGE_SOLVE, solve_fresh(w, &ctx)); /* islands, rows, iterations, integration, readback, sleep */
  }
  const tb_step_context whole = tb_step_context_whole(w); /* the observers see the whole step */
  if (tb_observe_reads_contacts(w)) tb_step_contacts_ready(w);
  STAGE(TB_STAGE_OBSERVERS, tb_observe_after_solve(w, &whole));
  w->sleep_log_count = 0; /* reported as events (when on) */
  return TB_OK;
}
