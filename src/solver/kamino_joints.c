/* Newton Kamino PADMM: joint rows in the dual problem (see kamino.h). */
#include <math.h>
#include <string.h>

#include "kamino.h"
#include "solver.h"

#define TB_KAMINO_P_MIN (1.0f / 50.0f) /* preconditioner clamp, as the contacts' */
#define TB_KAMINO_P_MAX 50.0f
/* γ_j: share of a joint's position error removed per step. Kamino's contact value (0.01) would
 * leave Euler's curvature drift of a swinging pendulum, ½(v·h)²/L per step, to accumulate; the
 * joint rows remove the whole error each step. */
#define TB_KAMINO_JOINT_STABILIZATION 1.0f

void tb_kamino_joints_free(tb_kamino_joints* kj) {
  tb_free(kj->rows, (size_t)kj->capacity * sizeof(tb_kamino_row));
  memset(kj, 0, sizeof *kj);
}

static int dynamic(const tb_newton_data* nd, int32_t k) { return k >= 0 && nd->bodies[k].dynamic; }

static float row_rate(const tb_newton_data* nd, const tb_joint_row* r, int32_t a, int32_t b) {
  tb_vec3 z = tb_v3(0, 0, 0);
  return tb_joint_row_rate(r, a >= 0 ? nd->bodies[a].v : z, a >= 0 ? nd->bodies[a].w : z, b >= 0 ? nd->bodies[b].v : z,
                           b >= 0 ? nd->bodies[b].w : z);
}

static float row_weight(const tb_newton_data* nd, const tb_mat3* inv_inertia, const tb_joint_row* r, int32_t a, int32_t b) {
  float s = 0.0f, ll = tb_dot(r->lin, r->lin);
  if (dynamic(nd, a)) s += nd->bodies[a].inv_mass * ll + tb_dot(r->ang0, tb_mat3_mul_v(inv_inertia[a], r->ang0));
  if (dynamic(nd, b)) s += nd->bodies[b].inv_mass * ll + tb_dot(r->ang1, tb_mat3_mul_v(inv_inertia[b], r->ang1));
  return s;
}

/* An impulse f (N·s or N·m·s) along a row: on the dynamic sides' velocities and into imp. */
static void apply_impulse(tb_newton_data* nd, const tb_mat3* inv_inertia, const tb_joint_row* r, int32_t a, int32_t b,
                          float f, float* imp) {
  if (dynamic(nd, a)) {
    nd->bodies[a].v = tb_mul_add(nd->bodies[a].v, -f * nd->bodies[a].inv_mass, r->lin);
    nd->bodies[a].w = tb_sub(nd->bodies[a].w, tb_mat3_mul_v(inv_inertia[a], tb_scale(r->ang0, f)));
  }
  if (dynamic(nd, b)) {
    nd->bodies[b].v = tb_mul_add(nd->bodies[b].v, f * nd->bodies[b].inv_mass, r->lin);
    nd->bodies[b].w = tb_add(nd->bodies[b].w, tb_mat3_mul_v(inv_inertia[b], tb_scale(r->ang1, f)));
  }
  tb_joint_row_accumulate(r, f, 1, imp);
}

/* Ċ of a row at the velocities of the start of the step (before gravity). */
static float start_rate(const tb_newton_data* nd, const tb_joint_row* r, int32_t a, int32_t b) {
  tb_vec3 z = tb_v3(0, 0, 0);
  return tb_joint_row_rate(r, a >= 0 ? nd->bodies[a].v0 : z, a >= 0 ? nd->bodies[a].w0 : z, b >= 0 ? nd->bodies[b].v0 : z,
                           b >= 0 ? nd->bodies[b].w0 : z);
}

/* Motor (velocity actuator, kv = 1/(h·w)) and spring impulses of one joint's rows over h, from the
 * state at the start of the step (as MuJoCo's actuator and passive forces). */
static void explicit_rows(tb_world* w, tb_newton_data* nd, const tb_mat3* ii, int32_t s, const tb_joint_row* rows,
                          int32_t n, int32_t a, int32_t b, float h) {
  float* imp = w->joints.impulse + 6 * s;
  for (int32_t i = 0; i < n; ++i) {
    const tb_joint_row* r = &rows[i];
    if (r->kind != TB_ROW_MOTOR && r->kind != TB_ROW_SPRING) continue;
    float wsum = row_weight(nd, ii, r, a, b), rate = start_rate(nd, r, a, b), f;
    if (r->kind == TB_ROW_MOTOR) {
      if (wsum <= 0.0f) continue;
      f = tb_clampf((r->target - rate) / (h * wsum), -r->max_force, r->max_force);
      w->joints.state[s].motor_force += f * h; /* N·s until the readback */
    } else {
      f = -(r->stiffness * r->error + r->damping * rate);
      tb_solver_note_spring(w, s, h, r->stiffness, r->damping, wsum);
    }
    apply_impulse(nd, ii, r, a, b, f * h, imp);
  }
}

int tb_kamino_joints_setup(tb_world* w, tb_newton_data* nd, const tb_mat3* inv_inertia, tb_kamino_joints* kj, float h) {
  tb_joints* jt = &w->joints;
  kj->count = 0;
  if (!tb_newton_joints_begin(w)) return 1;
  const tb_array_ref ra = {(void**)&kj->rows, sizeof(tb_kamino_row)};
  if (!tb_grow_capacity(&ra, 1, &kj->capacity, jt->live * TB_JOINT_MAX_ROWS)) return 0;
  for (int32_t s = 0; s < jt->count; ++s) {
    tb_joint_row rows[TB_JOINT_MAX_ROWS];
    int32_t a, b, n = tb_newton_joint_rows(w, nd, s, &a, &b, rows);
    if (n == 0) continue;
    jt->state[s].valid = 1; /* solved this step (the readback fills it) */
    explicit_rows(w, nd, inv_inertia, s, rows, n, a, b, h);
    for (int32_t i = 0; i < n; ++i) {
      const tb_joint_row* r = &rows[i];
      if (r->kind != TB_ROW_EQUAL && r->kind != TB_ROW_LIMIT) continue;
      float wsum = row_weight(nd, inv_inertia, r, a, b);
      if (wsum <= 0.0f) continue;
      tb_kamino_row* k = &kj->rows[kj->count++];
      memset(k, 0, sizeof *k);
      k->a = a, k->b = b, k->joint = s;
      k->unilateral = r->kind == TB_ROW_LIMIT;
      k->lin = r->lin, k->ang0 = r->ang0, k->ang1 = r->ang1;
      k->p = tb_clampf(1.0f / sqrtf(wsum + 1.1920929e-7f), TB_KAMINO_P_MIN, TB_KAMINO_P_MAX);
      /* the error is kept in vf until the free velocity is known */
      float xi = r->error * (1.0f / h), g = TB_KAMINO_JOINT_STABILIZATION;
      k->vf = k->unilateral ? g * fminf(0.0f, xi) + fmaxf(0.0f, xi) : g * xi;
    }
  }
  return 1;
}

static float rate_of(const tb_newton_data* nd, const tb_kamino_row* k) {
  const tb_joint_row r = {.lin = k->lin, .ang0 = k->ang0, .ang1 = k->ang1};
  return row_rate(nd, &r, k->a, k->b);
}

void tb_kamino_joints_free_velocity(const tb_newton_data* nd, tb_kamino_joints* kj) {
  for (int32_t i = 0; i < kj->count; ++i) {
    tb_kamino_row* k = &kj->rows[i];
    k->vf = k->p * (k->vf + rate_of(nd, k));
  }
}

/* A row impulse f along k into the sides' linear (lin_a, lin_b) and angular (ang_a, ang_b) sums. */
static void add_row_impulse(const tb_kamino_row* k, float f, tb_vec3* lin_a, tb_vec3* ang_a, tb_vec3* lin_b, tb_vec3* ang_b) {
  if (k->b >= 0) {
    *lin_b = tb_mul_add(*lin_b, f, k->lin);
    *ang_b = tb_mul_add(*ang_b, f, k->ang1);
  }
  if (k->a >= 0) {
    *lin_a = tb_mul_add(*lin_a, -f, k->lin);
    *ang_a = tb_mul_add(*ang_a, -f, k->ang0);
  }
}

void tb_kamino_joints_scatter(tb_kamino_acc* acc, const tb_kamino_joints* kj) {
  for (int32_t i = 0; i < kj->count; ++i) {
    const tb_kamino_row* k = &kj->rows[i];
    float f = k->p * (float)k->d;
    tb_kamino_acc* a = k->a >= 0 ? &acc[k->a] : NULL;
    tb_kamino_acc* b = k->b >= 0 ? &acc[k->b] : NULL;
    add_row_impulse(k, f, a ? &a->lin : NULL, a ? &a->ang : NULL, b ? &b->lin : NULL, b ? &b->ang : NULL);
  }
}

void tb_kamino_joints_gather(const tb_kamino_acc* acc, tb_kamino_joints* kj, float sigma) {
  tb_vec3 z = tb_v3(0, 0, 0);
  for (int32_t i = 0; i < kj->count; ++i) {
    tb_kamino_row* k = &kj->rows[i];
    const tb_joint_row r = {.lin = k->lin, .ang0 = k->ang0, .ang1 = k->ang1};
    float v = tb_joint_row_rate(&r, k->a >= 0 ? acc[k->a].lin : z, k->a >= 0 ? acc[k->a].ang : z,
                                k->b >= 0 ? acc[k->b].lin : z, k->b >= 0 ? acc[k->b].ang : z);
    k->q = (double)(k->p * v) + (double)sigma * k->d;
  }
}

void tb_kamino_joints_cg_start(tb_kamino_joints* kj) {
  for (int32_t i = 0; i < kj->count; ++i) kj->rows[i].d = kj->rows[i].x;
}

double tb_kamino_joints_cg_residual(tb_kamino_joints* kj) {
  double rr = 0.0;
  for (int32_t i = 0; i < kj->count; ++i) {
    tb_kamino_row* k = &kj->rows[i];
    k->r -= k->q;
    k->d = k->r;
    rr += k->r * k->r;
  }
  return rr;
}

double tb_kamino_joints_cg_worst(const tb_kamino_joints* kj) {
  double worst = 0.0;
  for (int32_t i = 0; i < kj->count; ++i) worst = fmax(worst, fabs(kj->rows[i].r) / kj->rows[i].p);
  return worst;
}

double tb_kamino_joints_cg_dq(const tb_kamino_joints* kj) {
  double s = 0.0;
  for (int32_t i = 0; i < kj->count; ++i) s += kj->rows[i].d * kj->rows[i].q;
  return s;
}

double tb_kamino_joints_cg_step(tb_kamino_joints* kj, double alpha) {
  double rr = 0.0;
  for (int32_t i = 0; i < kj->count; ++i) {
    tb_kamino_row* k = &kj->rows[i];
    k->x = (float)((double)k->x + alpha * k->d);
    k->r -= alpha * k->q;
    rr += k->r * k->r;
  }
  return rr;
}

void tb_kamino_joints_cg_direction(tb_kamino_joints* kj, double beta) {
  for (int32_t i = 0; i < kj->count; ++i) kj->rows[i].d = kj->rows[i].r + beta * kj->rows[i].d;
}

void tb_kamino_joints_rhs(tb_kamino_joints* kj, float eta, float rho) {
  for (int32_t i = 0; i < kj->count; ++i) {
    tb_kamino_row* k = &kj->rows[i];
    k->r = (double)(-k->vf + eta * k->xp + rho * k->yh + k->zh);
    k->x = k->xp;
  }
}

void tb_kamino_joints_project(tb_kamino_joints* kj, float eta, float rho, float* rp, float* rd, float* rc, double* dy2, double* dz2) {
  for (int32_t i = 0; i < kj->count; ++i) {
    tb_kamino_row* k = &kj->rows[i];
    float arg = k->x - k->zh / rho;
    k->y = k->unilateral ? fmaxf(0.0f, arg) : arg;
    k->z = k->zh + rho * (k->y - k->x);
    *rp = fmaxf(*rp, fabsf(k->p * (k->x - k->y)));
    *rd = fmaxf(*rd, fabsf((eta * (k->x - k->xp) + rho * (k->y - k->yh)) / k->p));
    *rc = fmaxf(*rc, fabsf(k->x * k->z));
    double dy = (double)k->p * (k->y - k->yh), dz = (double)(k->z - k->zh) / k->p;
    *dy2 += dy * dy, *dz2 += dz * dz;
  }
}

void tb_kamino_joints_advance(tb_kamino_joints* kj, int restart, float factor) {
  for (int32_t i = 0; i < kj->count; ++i) {
    tb_kamino_row* k = &kj->rows[i];
    k->yh = restart ? k->yp : k->y + factor * (k->y - k->yp);
    k->zh = restart ? k->zp : k->z + factor * (k->z - k->zp);
    k->xp = k->x, k->yp = k->y, k->zp = k->z;
  }
}

void tb_kamino_joints_restart_point(tb_kamino_joints* kj) {
  for (int32_t i = 0; i < kj->count; ++i) kj->rows[i].yh = kj->rows[i].yp, kj->rows[i].zh = kj->rows[i].zp;
}

void tb_kamino_joints_apply(tb_world* w, tb_newton_data* nd, const tb_kamino_joints* kj) {
  for (int32_t i = 0; i < kj->count; ++i) {
    const tb_kamino_row* k = &kj->rows[i];
    float f = k->p * k->y;
    tb_newton_body* a = k->a >= 0 ? &nd->bodies[k->a] : NULL;
    tb_newton_body* b = k->b >= 0 ? &nd->bodies[k->b] : NULL;
    add_row_impulse(k, f, a ? &a->dlin : NULL, a ? &a->dang : NULL, b ? &b->dlin : NULL, b ? &b->dang : NULL);
    const tb_joint_row r = {.lin = k->lin, .ang0 = k->ang0, .ang1 = k->ang1};
    tb_joint_row_accumulate(&r, f, 1, w->joints.impulse + 6 * k->joint);
  }
}

void tb_kamino_joints_readback(tb_world* w, const tb_newton_data* nd, float h) {
  tb_joints* jt = &w->joints;
  for (int32_t s = 0; s < jt->count; ++s) {
    if (jt->def[s].type < 0 || jt->state[s].broken || !jt->state[s].valid) continue;
    int32_t k = jt->slot1[s] >= 0 ? nd->body_of_slot[jt->slot1[s]] : -1;
    if (k < 0) continue;
    /* τ about the new centre of mass x: τ + (x0 − x) × f */
    float* imp = jt->impulse + 6 * s;
    tb_vec3 t = tb_add(tb_v3(imp[3], imp[4], imp[5]), tb_cross(tb_sub(nd->bodies[k].x0, nd->bodies[k].x), tb_v3(imp[0], imp[1], imp[2])));
    imp[3] = t.x, imp[4] = t.y, imp[5] = t.z;
  }
  tb_newton_joints_readback(w, nd, h);
}
