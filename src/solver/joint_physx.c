/* PhysX PGS / TGS joint rows (seed physx-e3, joint section), solved in the same iterations as the
 * contacts: one serial pass over every joint row per position and velocity iteration, before the
 * coloured contact rows, in joint slot order (the same result for any thread count).
 *
 * Prepare (start poses): the rows of each joint (src/model/joint_rows.c) with their effective
 * mass 1/w, w = m0⁻¹|lin|² + ang0ᵀI0⁻¹ang0 + m1⁻¹|lin|² + ang1ᵀI1⁻¹ang1 (kg or kg·m²), and the
 * iteration counts of the joint's island (joints link islands).
 * Iterate, per row with accumulated impulse λ over the step (N·s or N·m·s), rate Ċ, error C (TGS:
 * C + J·Δx from the motion since the step began), h_i = h (PGS) or h/N (TGS):
 *   equality  Δλ = −(Ċ + β·C/h_i)/w, no bias in the velocity iterations;
 *   limit     the same with C/h_i in place of β·C/h_i while C > 0 (speculative: the limit is
 *             approached but not passed), λ >= 0;
 *   motor     Δλ = −(Ċ − target)/w, |λ| <= F_max·h (TGS position iterations: F_max·h·(k+1)/N, so
 *             no prefix of the step exceeds the force);
 *   spring    implicit spring over h_i (γ = h_i(h_i k + c), kg): Δλ = −(γ/(1 + γw))(Ċ + h_i k C/γ) −
 *             λ_i/(1 + γw), λ_i the impulse of this internal step; TGS: once per internal step.
 * Readback (PxConstraint::getForce): Σ over the rows but the motor of body0's share (−lin·λ,
 * −ang0·λ) / h: force (N) on body0 and torque (N·m) about frame0's origin at the start poses; the
 * motor's λ/h separately. A joint whose force or torque exceeds its break values is broken. */
#include <math.h>
#include <string.h>

#include "../model/joint_rows.h"
#include "solver_physx.h"

typedef struct physx_row {
  tb_joint_row r;
  int32_t joint;       /* index into the prepared joints */
  tb_vec3 ia0, ia1;    /* I0⁻¹·ang0, I1⁻¹·ang1 (world) */
  float m0, m1;        /* inverse masses of the moving sides (0 kinematic or none), 1/kg */
  float w;             /* inverse effective mass */
  float lambda;        /* accumulated over the step */
  float lambda_sub;    /* PGS spring: accumulated over the step's implicit solve */
} physx_row;

typedef struct physx_joint {
  int32_t slot;
  int32_t a, b;               /* solver bodies of body0 / body1, -1 none */
  int32_t pos_iters, vel_iters, internal_steps; /* of the joint's island */
  int32_t first_row, row_count;
  tb_vec3 anchor0, center0;   /* frame0's origin and body0's centre of mass at the start poses, m */
} physx_joint;

typedef struct tb_physx_joints {
  physx_joint* joints;
  int32_t joint_capacity, joint_count;
  physx_row* rows;
  int32_t row_capacity, row_count;
} tb_physx_joints;

void tb_physx_joints_destroy(tb_solver_data* d) {
  tb_physx_joints* j = d->joints;
  if (!j) return;
  tb_free(j->joints, (size_t)j->joint_capacity * sizeof(physx_joint));
  tb_free(j->rows, (size_t)j->row_capacity * sizeof(physx_row));
  tb_free(j, sizeof *j);
  d->joints = NULL;
}

static int grow(void** p, int32_t* cap, int32_t n, size_t elem) {
  if (n <= *cap) return 1;
  int32_t c = *cap > 0 ? *cap : 16;
  while (c < n) c *= 2;
  tb_array_ref a = {p, elem};
  if (!tb_grow_arrays(&a, 1, *cap, c)) return 0;
  *cap = c;
  return 1;
}

/* Solver body of a joint side, -1 when it is the world, static or asleep. */
static int32_t solver_body(const tb_world* w, int32_t slot) { return slot < 0 ? -1 : w->bodies.solver_index[slot]; }

static int is_dynamic(const tb_solver_data* d, int32_t k) { return k >= 0 && d->sims[k].inv_mass > 0.0f; }

int tb_physx_joint_bodies(const tb_world* w, const tb_solver_data* d, int32_t slot, int32_t* a, int32_t* b) {
  const tb_joints* j = &w->joints;
  if (j->def[slot].type < 0 || j->state[slot].broken) return 0;
  *a = solver_body(w, j->slot0[slot]);
  *b = solver_body(w, j->slot1[slot]);
  return is_dynamic(d, *a) || is_dynamic(d, *b);
}

static tb_vec3 sym_mul(const float* m, tb_vec3 v) {
  return tb_v3(m[0] * v.x + m[3] * v.y + m[4] * v.z, m[3] * v.x + m[1] * v.y + m[5] * v.z,
               m[4] * v.x + m[5] * v.y + m[2] * v.z);
}

/* World pose of a side's body origin and its centre of mass at the start of the step. */
static void start_pose(const tb_world* w, const tb_solver_data* d, int32_t slot, int32_t k, tb_transform* pose, tb_vec3* com) {
  if (k >= 0) {
    const tb_body_sim* sim = &d->sims[k];
    pose->q = sim->q;
    pose->p = tb_sub(sim->center, tb_rotate(sim->q, w->bodies.local_center[slot]));
    *com = sim->center;
  } else if (slot >= 0) {
    *pose = tb_body_pose(&w->bodies, slot);
    *com = tb_transform_point(*pose, w->bodies.local_center[slot]);
  } else {
    *pose = (tb_transform){{0, 0, 0}, {0, 0, 0, 1}};
    *com = tb_v3(0, 0, 0);
  }
}

tb_status tb_physx_joints_prepare(tb_physx_ctx* ctx) {
  tb_world* w = ctx->w;
  tb_solver_data* d = ctx->d;
  tb_joints* jt = &w->joints;
  for (int32_t i = 0; i < jt->count; ++i) jt->state[i].valid = 0;
  if (jt->live == 0) {
    if (d->joints) d->joints->joint_count = d->joints->row_count = 0;
    return TB_OK;
  }
  if (!d->joints && !(d->joints = (tb_physx_joints*)tb_alloc_zero(sizeof(tb_physx_joints))))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "solve: out of memory for the joints");
  tb_physx_joints* pj = d->joints;
  if (!grow((void**)&pj->joints, &pj->joint_capacity, jt->live, sizeof(physx_joint)) ||
      !grow((void**)&pj->rows, &pj->row_capacity, jt->live * TB_JOINT_MAX_ROWS, sizeof(physx_row)))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "solve: out of memory for %d joints", jt->live);
  pj->joint_count = pj->row_count = 0;
  for (int32_t s = 0; s < jt->count; ++s) {
    int32_t a, b;
    if (!tb_physx_joint_bodies(w, d, s, &a, &b)) continue;
    const tb_joint_def* def = &jt->def[s];
    physx_joint* j = &pj->joints[pj->joint_count];
    j->slot = s;
    j->a = a;
    j->b = b;
    const tb_body_sim* island = &d->sims[is_dynamic(d, a) ? a : b];
    j->pos_iters = island->position_iterations;
    j->vel_iters = island->velocity_iterations;
    j->internal_steps = ctx->tgs ? (island->position_iterations > 0 ? island->position_iterations : 1) : 1;
    tb_transform p0, p1, f0, f1;
    tb_vec3 c0, c1;
    start_pose(w, d, jt->slot0[s], a, &p0, &c0);
    start_pose(w, d, jt->slot1[s], b, &p1, &c1);
    tb_joint_world_frames(def, p0, p1, &f0, &f1);
    if (a < 0) c0 = f0.p; /* an immovable side needs no lever */
    if (b < 0) c1 = f1.p;
    j->anchor0 = f0.p;
    j->center0 = c0;
    tb_joint_row rows[TB_JOINT_MAX_ROWS];
    int32_t n = tb_joint_build_rows(def, f0, f1, c0, c1, rows);
    j->first_row = pj->row_count;
    j->row_count = 0;
    for (int32_t r = 0; r < n; ++r) {
      physx_row* pr = &pj->rows[pj->row_count];
      memset(pr, 0, sizeof *pr);
      pr->r = rows[r];
      pr->joint = pj->joint_count;
      pr->m0 = is_dynamic(d, a) ? d->sims[a].inv_mass : 0.0f;
      pr->m1 = is_dynamic(d, b) ? d->sims[b].inv_mass : 0.0f;
      pr->ia0 = is_dynamic(d, a) ? sym_mul(d->sims[a].inv_i, rows[r].ang0) : tb_v3(0, 0, 0);
      pr->ia1 = is_dynamic(d, b) ? sym_mul(d->sims[b].inv_i, rows[r].ang1) : tb_v3(0, 0, 0);
      float ll = tb_dot(rows[r].lin, rows[r].lin);
      pr->w = (pr->m0 + pr->m1) * ll + tb_dot(rows[r].ang0, pr->ia0) + tb_dot(rows[r].ang1, pr->ia1);
      if (pr->w <= 0.0f) continue;
      pj->row_count++;
      j->row_count++;
    }
    pj->joint_count++;
  }
  return TB_OK;
}

static tb_vec3 state_v(const tb_solver_data* d, int32_t k) { return k >= 0 ? d->states[k].v : tb_v3(0, 0, 0); }
static tb_vec3 state_w(const tb_solver_data* d, int32_t k) { return k >= 0 ? d->states[k].w : tb_v3(0, 0, 0); }

/* Error of a row now: its start value plus (TGS) the linearised motion since the step began. */
static float row_error(const tb_physx_ctx* ctx, const physx_row* pr, int32_t a, int32_t b) {
  if (!ctx->tgs) return pr->r.error;
  const tb_solver_data* d = ctx->d;
  tb_vec3 dpa = a >= 0 ? d->states[a].dp : tb_v3(0, 0, 0), dta = a >= 0 ? d->states[a].dtheta : tb_v3(0, 0, 0);
  tb_vec3 dpb = b >= 0 ? d->states[b].dp : tb_v3(0, 0, 0), dtb = b >= 0 ? d->states[b].dtheta : tb_v3(0, 0, 0);
  return pr->r.error + tb_joint_row_rate(&pr->r, dpa, dta, dpb, dtb);
}

/* The impulse change of one row in this pass. */
static float row_delta(const tb_physx_ctx* ctx, const physx_joint* j, physx_row* pr, float cdot, float c) {
  const float h = ctx->h, hi = h / (float)j->internal_steps, inv_hi = 1.0f / hi;
  const float beta = ctx->w->def.solver.bias_coefficient;
  const int vel = ctx->velocity_phase;
  float m = 1.0f / pr->w;
  switch (pr->r.kind) {
    case TB_ROW_EQUAL: return -m * (cdot + (vel ? 0.0f : beta * c * inv_hi));
    case TB_ROW_LIMIT: {
      float bias = c > 0.0f ? c * inv_hi : (vel ? 0.0f : beta * c * inv_hi);
      float next = pr->lambda - m * (cdot + bias);
      return (next > 0.0f ? next : 0.0f) - pr->lambda;
    }
    case TB_ROW_MOTOR: {
      float share = ctx->tgs && !vel ? (float)(ctx->iteration + 1) / (float)j->internal_steps : 1.0f;
      float bound = pr->r.max_force * h * share;
      float next = tb_clampf(pr->lambda - m * (cdot - pr->r.target), -bound, bound);
      return next - pr->lambda;
    }
    case TB_ROW_SPRING: {
      float gamma = hi * (hi * pr->r.stiffness + pr->r.damping);
      if (gamma <= 0.0f) return 0.0f;
      float sub = ctx->tgs ? 0.0f : pr->lambda_sub;
      float denom = 1.0f + gamma * pr->w;
      return -(gamma / denom) * (cdot + hi * pr->r.stiffness * c / gamma) - sub / denom;
    }
    default: return 0.0f;
  }
}

void tb_physx_joints_solve(tb_physx_ctx* ctx) {
  tb_solver_data* d = ctx->d;
  tb_physx_joints* pj = d->joints;
  if (!pj || pj->row_count == 0) return;
  const int32_t k = ctx->iteration;
  for (int32_t i = 0; i < pj->row_count; ++i) {
    physx_row* pr = &pj->rows[i];
    const physx_joint* j = &pj->joints[pr->joint];
    if (k >= (ctx->velocity_phase ? j->vel_iters : j->pos_iters)) continue;
    if (ctx->tgs && ctx->velocity_phase && pr->r.kind == TB_ROW_SPRING) continue; /* once per internal step */
    int32_t a = j->a, b = j->b;
    tb_vec3 va = state_v(d, a), wa = state_w(d, a), vb = state_v(d, b), wb = state_w(d, b);
    float cdot = tb_joint_row_rate(&pr->r, va, wa, vb, wb);
    float dl = row_delta(ctx, j, pr, cdot, row_error(ctx, pr, a, b));
    pr->lambda += dl;
    pr->lambda_sub += dl;
    if (pr->m0 > 0.0f) {
      d->states[a].v = tb_mul_add(va, -pr->m0 * dl, pr->r.lin);
      d->states[a].w = tb_mul_add(wa, -dl, pr->ia0);
    }
    if (pr->m1 > 0.0f) {
      d->states[b].v = tb_mul_add(vb, pr->m1 * dl, pr->r.lin);
      d->states[b].w = tb_mul_add(wb, dl, pr->ia1);
    }
  }
}

void tb_physx_joints_readback(tb_physx_ctx* ctx) {
  tb_world* w = ctx->w;
  tb_physx_joints* pj = ctx->d->joints;
  if (!pj) return;
  const float inv_h = 1.0f / ctx->h;
  for (int32_t i = 0; i < pj->joint_count; ++i) {
    const physx_joint* j = &pj->joints[i];
    float imp[6] = {0};
    float motor = 0.0f;
    for (int32_t r = j->first_row; r < j->first_row + j->row_count; ++r) {
      const physx_row* pr = &pj->rows[r];
      if (pr->r.kind == TB_ROW_MOTOR) motor += pr->lambda;
      else tb_joint_row_accumulate(&pr->r, pr->lambda, 0, imp);
    }
    tb_vec3 f = tb_scale(tb_v3(imp[0], imp[1], imp[2]), inv_h);
    /* about body0's centre of mass, then moved to frame0's origin: τ_p = τ_c + (c − p) × f */
    tb_vec3 t = tb_add(tb_scale(tb_v3(imp[3], imp[4], imp[5]), inv_h), tb_cross(tb_sub(j->center0, j->anchor0), f));
    tb_joint_state* s = &w->joints.state[j->slot];
    const tb_joint_def* def = &w->joints.def[j->slot];
    s->convention = TB_READBACK_PHYSX;
    s->valid = 1;
    s->motor_force = motor * inv_h;
    tb_wrench* wr = &s->wrench;
    wr->force[0] = f.x; wr->force[1] = f.y; wr->force[2] = f.z;
    wr->torque[0] = t.x; wr->torque[1] = t.y; wr->torque[2] = t.z;
    wr->point[0] = j->anchor0.x; wr->point[1] = j->anchor0.y; wr->point[2] = j->anchor0.z;
    if (tb_length(f) > def->break_force || tb_length(t) > def->break_torque) s->broken = 1;
  }
}
