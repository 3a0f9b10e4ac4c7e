/* The step pipeline: one function per public call, each line one stage of the design's diagram. */
#include "step.h"

#include "../collision/broad_phase.h"
#include "../collision/shape_bounds.h"
#include "../core/jobs.h"
#include "../model/contact_match.h"
#include "../model/contact_store.h"
#include "../observe/observe.h"

tb_step_context tb_step_context_of(const tb_world* w) {
  const tb_solver_params* sp = &w->def.solver;
  tb_step_context c;
  c.dt = w->def.timestep;
  c.substeps = sp->solver == TB_SOLVER_TGS ? sp->position_iterations
               : sp->solver == TB_SOLVER_PENALTY ? sp->newton.substeps : 1;
  c.h = c.dt / (float)c.substeps;
  c.inv_h = 1.0f / c.h;
  c.thread_count = w->def.thread_count;
  return c;
}

/* Scratch sized before the stages run: none of them allocates inside its loops. */
static tb_status reserve_collide(tb_world* w) {
  tb_jobs_reset_usage();
  if (!tb_arena_reserve(&w->arena, (size_t)w->shapes.count + 64))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "collide: out of memory for scratch");
  return TB_OK;
}

static tb_status reserve_matching(tb_world* w) {
  if (!tb_match_reserve(w, w->pair_count))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "collide: out of memory for contact matching (%d pairs)", w->pair_count);
  return TB_OK;
}

#define STAGE(stage, call) do { call; w->last_stage = (stage); } while (0)
#define STAGE_OR_FAIL(stage, call) do { tb_status st_ = (call); if (st_ != TB_OK) return st_; w->last_stage = (stage); } while (0)

tb_status tb_step_collide(tb_world* w) {
  const tb_step_context ctx = tb_step_context_of(w);
  w->last_stage = TB_STAGE_NONE;
  w->collided = 0;     /* until every stage ran: a failed collide() leaves no contacts to solve */
  tb_undo_forget(w);   /* contacts and matching frames may now name the last created body */
  STAGE_OR_FAIL(TB_STAGE_NONE, reserve_collide(w));
  STAGE(TB_STAGE_AABB_UPDATE, tb_update_shape_bounds(w, &ctx));
  STAGE_OR_FAIL(TB_STAGE_BROAD_PHASE, tb_broad_phase(w)); /* filtering of each candidate inside */
  STAGE_OR_FAIL(TB_STAGE_BROAD_PHASE, reserve_matching(w));
  STAGE(TB_STAGE_NARROW_PHASE, tb_narrow_stage(w, &ctx)); /* reduction, distance rule, materials */
  STAGE(TB_STAGE_MATCHING, tb_match_contacts(w));
  STAGE_OR_FAIL(TB_STAGE_MATCHING, tb_contact_store_reserve(w)); /* grows the store: nothing dropped */
  STAGE(TB_STAGE_CONTACT_STORE, tb_contact_store_fill(w));
  w->collided = 1;
  return TB_OK;
}

tb_status tb_step_solve(tb_world* w) {
  const tb_step_context ctx = tb_step_context_of(w);
  STAGE_OR_FAIL(TB_STAGE_SOLVE, tb_solve_guarded(w, &ctx)); /* rows, iterations, integration, readback */
  STAGE(TB_STAGE_OBSERVERS, tb_observe_after_solve(w));
  return TB_OK;
}
