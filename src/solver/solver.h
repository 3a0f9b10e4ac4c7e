/* Contact solvers of the presets (internal). */
#ifndef TB_SOLVER_H
#define TB_SOLVER_H

#include "../world/world.h"

/* The PhysX solvers' per-world data (solver_physx.c). */
int tb_solver_create(tb_world* w);
void tb_solver_destroy(tb_world* w);
/* Snapshots: the state a PhysX step reads from the step before (the strong-friction anchor cache).
 * Load fills a world made by tb_solver_create; 0 on a malformed stream or out of memory. */
struct tb_serial;
void tb_solver_save(const tb_world* w, struct tb_serial* s);
int tb_solver_load(tb_world* w, struct tb_serial* s);

/* Solver families; tb_solve_world() (solver.c) dispatches on def.solver.solver. Each reads the
 * step's constants (dt, h, 1/h, threads) from the step context, read-only. */
tb_status tb_solve_world(tb_world* w, const tb_step_context* step);
tb_status tb_solve_pgs(tb_world* w, const tb_step_context* step);     /* PhysX PGS (solver_physx.c) */
tb_status tb_solve_tgs(tb_world* w, const tb_step_context* step);     /* PhysX TGS (solver_physx.c) */
tb_status tb_solve_xpbd(tb_world* w, const tb_step_context* step);    /* solver_xpbd.c */
tb_status tb_solve_penalty(tb_world* w, const tb_step_context* step); /* solver_penalty.c */
tb_status tb_solve_mujoco(tb_world* w, const tb_step_context* step);  /* solver_mujoco.c */
tb_status tb_solve_kamino(tb_world* w, const tb_step_context* step);  /* solver_kamino.c */

/* Resets the solver status of the step (w->status) to these values, the rest zero. */
void tb_solver_status_set(tb_world* w, int32_t solver, int32_t position_iterations, int32_t velocity_iterations,
                          int32_t converged, float residual_velocity, float residual_penetration);

/* The residuals a PGS / TGS solve left owed (w->status_owed) into w->status: computed from the
 * final velocities and the wides that solve left, which stay until the next solve, when the
 * status is first read (the API's world lookup, tb_world_solver_status); nothing when none are
 * owed. tb_solver_status_forget drops them at the start of a solve (its status replaces them; a
 * solve that fails before it keeps the last status with NaN residuals: not available). */
void tb_solver_status_ready(tb_world* w, const tb_step_context* step);
void tb_solver_status_forget(tb_world* w);

/* PhysX PGS / TGS (solver_physx_readback.c): the last solve's impulses and forces into the contact
 * store's records (what TB_OWE_READBACK owes), from the wides that solve left. */
void tb_solver_store_readback(tb_world* w, const tb_step_context* step);
/* Whether the world's solver reads or writes the contact store while it solves (every family but
 * PhysX's, which leaves its impulses owed): the store's records must be written before it runs. */
int tb_solver_uses_records(const tb_world* w);

/* The statistics of a solver that runs on the calling thread without colours: one thread, no
 * colours or overflow, the manifolds with points; the contacts are consumed (collided = 0). */
void tb_solver_stats_serial(tb_world* w);

/* Forgets the warm starts a solver keeps across steps (MuJoCo's last accelerations, Kamino's
 * last solution): after a failed solve, whose solution may be the non-finite one, and on
 * tb_world_solver_reset. */
void tb_solver_forget_warm_starts(tb_world* w);
/* Where explicit terms turn unstable (the step's refusal names them): a spring applied explicitly
 * is stable for h²·k·w + 2·h·c·w below TB_EXPLICIT_SPRING_LIMIT (docs/joints.md), an explicit
 * damping factor 1 − c·h for c·h below TB_EXPLICIT_DAMPING_LIMIT (docs/presets.md). */
#define TB_EXPLICIT_SPRING_LIMIT 4.0
#define TB_EXPLICIT_DAMPING_LIMIT 2.0
/* Notes an explicit spring row of joint slot `joint` (k N/m or N·m/rad, c N·s/m or N·m·s/rad,
 * weight w = J·M⁻¹·Jᵀ, step h s): its stability ratio h²·k·w + 2·h·c·w (stable below
 * TB_EXPLICIT_SPRING_LIMIT) when it is the least stable of the solve. */
void tb_solver_note_spring(tb_world* w, int32_t joint, double h, double k, double c, double weight);
void tb_mujoco_forget(tb_world* w);
void tb_kamino_reset(tb_world* w);
void tb_kamino_destroy(tb_world* w);

/* Snapshots of the warm starts the next MuJoCo / Kamino step reads: MuJoCo's last accelerations
 * per body slot with their generations (solver_mujoco.c), Kamino's last solution per contact-store
 * index with its match keys (solver_kamino.c). Load fills a world whose solver data is empty; 0 on
 * a malformed stream or out of memory. */
void tb_mujoco_save(const tb_world* w, struct tb_serial* s);
int tb_mujoco_load(tb_world* w, struct tb_serial* s);
void tb_kamino_save(const tb_world* w, struct tb_serial* s);
int tb_kamino_load(tb_world* w, struct tb_serial* s);

#endif
