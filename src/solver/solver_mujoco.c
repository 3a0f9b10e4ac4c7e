/* MuJoCo soft-constraint solver (the `mujoco` preset): PGS, CG and Newton over the rows of
 * mujoco_rows.c, Euler integration, readback in MuJoCo's convention (see mujoco.h).
 *
 * One step of length h:
 *   bodies: the dynamic bodies are the degrees of freedom (COM velocity, world angular velocity;
 *     M = diag(m·1, I_world)); a₀ = g and I⁻¹(−ω × Iω); kinematic bodies move with their velocity
 *     and enter the rows' velocity only; sleeping and static bodies are fixed;
 *   rows: every active manifold point (and a gap point with adhesion, as one normal row) at the
 *     midpoint between its surface points, frame (normal, tangent0, tangent1) of the contact store;
 *   warm start: the previous step's accelerations of the same bodies when their cost is lower
 *     than a₀'s (solver.mujoco.warmstart);
 *   solve: PGS (dual, rows in order, elliptic blocks by a ray update and a friction QCQP), CG or
 *     Newton (primal, exact line search by a safeguarded 1-D Newton) until the improvement
 *     scale·Δcost, or for CG / Newton the gradient scale·|∇cost|, falls below the tolerance, with
 *     scale = 1/trace(M) (MuJoCo 1/(meaninertia·nv));
 *   integrate: v += h·a, ω += h·α, x += h·v, q advanced by ω (Euler; implicitfast is the same
 *     without joint damping), then the bodies' damping max(1 − c·h, 0).
 * Newton factorises H = M + JᵀDJ (+ cone Hessians) in a skyline over the bodies ordered by
 * island, so separate islands never fill. Serial in a fixed order: the same bits for any thread
 * count. */
#include <math.h>
#include <string.h>

#include "../core/serial.h"
#include "../model/contact_store.h"
#include "../model/material.h"
#include "mujoco.h"
#include "solver.h"

typedef struct tb_mj_body {
  int32_t slot;
  double inv_mass, mass;
  double I[9], Iinv[9]; /* world, about the COM, row-major */
  double x[3], v[3], w[3], q[4];
} tb_mj_body;

typedef struct tb_mj_row {
  int32_t a, b;          /* dof body of shape0 / shape1, -1 none */
  int32_t contact;
  double ja[6], jb[6];   /* Jacobian blocks (linear, angular) */
  double ma[6], mb[6];   /* M⁻¹ Jᵀ blocks (PGS) */
  double aref, R, D, AR; /* AR = J M⁻¹ Jᵀ + R */
} tb_mj_row;

typedef struct tb_mj_con {
  int32_t store, adr;
  int32_t a, b;
  double friction[5], adhesion;
  tb_mj_rows rows;
  double H[36];          /* elliptic cone Hessian in row space (middle zone) */
  int32_t state;         /* elliptic: 0 top, 1 bottom, 2 middle */
} tb_mj_con;

typedef struct tb_mujoco_data {
  tb_mj_body* bodies;
  int32_t body_capacity, body_count;
  tb_mj_con* cons;
  int32_t con_capacity, con_count;
  tb_mj_row* rows;
  double *jar, *force, *jv, *oldforce;
  int32_t* rstate;
  int32_t row_capacity, row_count;
  /* dofs (6 per body) */
  double *a0, *ma0, *acc, *ma, *grad, *mgrad, *search, *mv, *gradold, *mgradold;
  int32_t* first;        /* skyline: first column of each dof row */
  int64_t* off;          /* skyline: offset of each row (off_capacity + 1) */
  int32_t off_capacity;  /* dofs off holds; follows dof_capacity, apart after a failed allocation */
  int32_t dof_capacity;
  double* L;
  int64_t l_capacity;
  /* per body slot */
  int32_t *dof_of_slot, *parent, *order_key;
  double* warm;          /* 6 per slot: last accelerations */
  int32_t* warm_gen;     /* generation the warm entry belongs to, -1 none */
  int32_t slot_capacity;
  double scale;
} tb_mujoco_data;

/* ---- small helpers ---- */

static void m3v(const double m[9], const double v[3], double o[3]) {
  for (int i = 0; i < 3; ++i) o[i] = m[3 * i] * v[0] + m[3 * i + 1] * v[1] + m[3 * i + 2] * v[2];
}
static void cross3(const double a[3], const double b[3], double o[3]) {
  o[0] = a[1] * b[2] - a[2] * b[1];
  o[1] = a[2] * b[0] - a[0] * b[2];
  o[2] = a[0] * b[1] - a[1] * b[0];
}
static double dot(const double* a, const double* b, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

/* row-major copy of a column-major matrix */
static void mat3_rows(tb_mat3 m, double out[9]) {
  const tb_vec3 col[3] = {m.cx, m.cy, m.cz};
  for (int u = 0; u < 3; ++u)
    for (int v = 0; v < 3; ++v) out[3 * u + v] = tb_comp(col[v], u);
}

void tb_mujoco_destroy(tb_world* w) {
  tb_mujoco_data* d = w->mujoco;
  if (!d) return;
  tb_free(d->bodies, (size_t)d->body_capacity * sizeof(tb_mj_body));
  tb_free(d->cons, (size_t)d->con_capacity * sizeof(tb_mj_con));
  const size_t rc = (size_t)d->row_capacity, dc = (size_t)d->dof_capacity, sc = (size_t)d->slot_capacity;
  tb_free(d->rows, rc * sizeof(tb_mj_row));
  double** rd[] = {&d->jar, &d->force, &d->jv, &d->oldforce};
  for (int i = 0; i < 4; ++i) tb_free(*rd[i], rc * sizeof(double));
  tb_free(d->rstate, rc * sizeof(int32_t));
  double** dd[] = {&d->a0, &d->ma0, &d->acc, &d->ma, &d->grad, &d->mgrad, &d->search, &d->mv, &d->gradold, &d->mgradold};
  for (int i = 0; i < 10; ++i) tb_free(*dd[i], dc * sizeof(double));
  tb_free(d->first, dc * sizeof(int32_t));
  tb_free(d->off, ((size_t)d->off_capacity + 1) * sizeof(int64_t));
  tb_free(d->L, (size_t)d->l_capacity * sizeof(double));
  tb_free(d->dof_of_slot, sc * sizeof(int32_t));
  tb_free(d->parent, sc * sizeof(int32_t));
  tb_free(d->order_key, sc * sizeof(int32_t));
  tb_free(d->warm, 6 * sc * sizeof(double));
  tb_free(d->warm_gen, sc * sizeof(int32_t));
  tb_free(d, sizeof *d);
  w->mujoco = NULL;
}

/* ---- mass matrix per body ---- */

static void mul_m(const tb_mujoco_data* d, const double* x, double* out) {
  for (int32_t k = 0; k < d->body_count; ++k) {
    const tb_mj_body* b = &d->bodies[k];
    for (int i = 0; i < 3; ++i) out[6 * k + i] = b->mass * x[6 * k + i];
    m3v(b->I, x + 6 * k + 3, out + 6 * k + 3);
  }
}
static void solve_m(const tb_mujoco_data* d, const double* x, double* out) {
  for (int32_t k = 0; k < d->body_count; ++k) {
    const tb_mj_body* b = &d->bodies[k];
    for (int i = 0; i < 3; ++i) out[6 * k + i] = b->inv_mass * x[6 * k + i];
    m3v(b->Iinv, x + 6 * k + 3, out + 6 * k + 3);
  }
}

static double row_dot(const tb_mj_row* r, const double* x) {
  double s = 0.0;
  if (r->a >= 0) s += dot(r->ja, x + 6 * r->a, 6);
  if (r->b >= 0) s += dot(r->jb, x + 6 * r->b, 6);
  return s;
}
static void row_add_t(const tb_mj_row* r, double f, double* x) {
  if (r->a >= 0) for (int i = 0; i < 6; ++i) x[6 * r->a + i] += f * r->ja[i];
  if (r->b >= 0) for (int i = 0; i < 6; ++i) x[6 * r->b + i] += f * r->jb[i];
}
static void row_add_minv(const tb_mj_row* r, double f, double* x) {
  if (r->a >= 0) for (int i = 0; i < 6; ++i) x[6 * r->a + i] += f * r->ma[i];
  if (r->b >= 0) for (int i = 0; i < 6; ++i) x[6 * r->b + i] += f * r->mb[i];
}

/* ---- setup ---- */

static int32_t find_root(int32_t* p, int32_t i) {
  while (p[i] != i) {
    p[i] = p[p[i]];
    i = p[i];
  }
  return i;
}

/* Jacobian of contact-frame direction j (0..2 translational, 3..5 rotational) at point p for the
 * side with COM x, sign -1 for body0 and +1 for body1. */
static void frame_jac(const double frame[3][3], int j, const double p[3], const double x[3], double sign, double out[6]) {
  const double* u = frame[j % 3];
  if (j < 3) {
    double r[3] = {p[0] - x[0], p[1] - x[1], p[2] - x[2]}, c[3];
    cross3(r, u, c);
    for (int i = 0; i < 3; ++i) out[i] = sign * u[i], out[3 + i] = sign * c[i];
  } else {
    for (int i = 0; i < 3; ++i) out[i] = 0.0, out[3 + i] = sign * u[i];
  }
}

/* The per-body-slot arrays (island scratch and the warm start), for tb_grow_capacity. */
static void slot_arrays(tb_mujoco_data* d, tb_array_ref sa[5]) {
  int n = 0;
  TB_ARRAY_REF(sa, n, d, dof_of_slot, sizeof(int32_t));
  TB_ARRAY_REF(sa, n, d, parent, sizeof(int32_t));
  TB_ARRAY_REF(sa, n, d, order_key, sizeof(int32_t));
  TB_ARRAY_REF(sa, n, d, warm, 6 * sizeof(double));
  TB_ARRAY_REF(sa, n, d, warm_gen, sizeof(int32_t));
}

static tb_status setup(tb_world* w, const tb_step_context* step) {
  if (!w->mujoco) {
    w->mujoco = (tb_mujoco_data*)tb_alloc_zero(sizeof(tb_mujoco_data));
    if (!w->mujoco) return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "solve: out of memory for the MuJoCo solver");
  }
  tb_mujoco_data* d = w->mujoco;
  tb_bodies* bodies = &w->bodies;
  const tb_shapes* shapes = &w->shapes;
  const tb_mujoco_params* p = &w->def.solver.mujoco;
  int32_t nb = 0, nc = 0, nr = 0;
  for (int32_t i = 0; i < bodies->count; ++i) nb += bodies->f.body_type[i] == TB_BODY_DYNAMIC && !bodies->f.asleep[i];
  for (int32_t m = 0; m < w->pair_count; ++m) {
    const tb_manifold* mf = &w->manifolds[m];
    for (int32_t j = 0; j < mf->point_count; ++j) {
      const tb_manifold_point* mp = &mf->points[j];
      if (mp->active || (mp->excluded && w->manifold_material[m].adhesion > 0.0f)) ++nc;
    }
  }
  nr = TB_MJ_MAX_ROWS * nc;
  /* warm start entries of slots beyond the old capacity start empty */
  int32_t old_slots = d->slot_capacity;
  const tb_array_ref ba = {(void**)&d->bodies, sizeof(tb_mj_body)};
  const tb_array_ref ca = {(void**)&d->cons, sizeof(tb_mj_con)};
  const tb_array_ref ra[] = {{(void**)&d->rows, sizeof(tb_mj_row)}, {(void**)&d->jar, sizeof(double)},
                             {(void**)&d->force, sizeof(double)}, {(void**)&d->jv, sizeof(double)},
                             {(void**)&d->oldforce, sizeof(double)}, {(void**)&d->rstate, sizeof(int32_t)}};
  const tb_array_ref da[] = {{(void**)&d->a0, sizeof(double)}, {(void**)&d->ma0, sizeof(double)},
                             {(void**)&d->acc, sizeof(double)}, {(void**)&d->ma, sizeof(double)},
                             {(void**)&d->grad, sizeof(double)}, {(void**)&d->mgrad, sizeof(double)},
                             {(void**)&d->search, sizeof(double)}, {(void**)&d->mv, sizeof(double)},
                             {(void**)&d->gradold, sizeof(double)}, {(void**)&d->mgradold, sizeof(double)},
                             {(void**)&d->first, sizeof(int32_t)}};
  tb_array_ref sa[5];
  slot_arrays(d, sa);
  if (!tb_grow_capacity(&ba, 1, &d->body_capacity, nb) || !tb_grow_capacity(&ca, 1, &d->con_capacity, nc) ||
      !tb_grow_capacity(ra, 6, &d->row_capacity, nr) || !tb_grow_capacity(da, 11, &d->dof_capacity, 6 * nb) ||
      !tb_grow_capacity(sa, 5, &d->slot_capacity, bodies->count))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "solve: out of memory for %d bodies and %d contacts", nb, nc);
  for (int32_t i = old_slots; i < d->slot_capacity; ++i) d->warm_gen[i] = -1;
  if (d->off_capacity != d->dof_capacity) {
    int64_t* off = (int64_t*)tb_alloc(((size_t)d->dof_capacity + 1) * sizeof(int64_t));
    if (!off) return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "solve: out of memory for %d dofs", 6 * nb);
    tb_free(d->off, ((size_t)d->off_capacity + 1) * sizeof(int64_t));
    d->off = off;
    d->off_capacity = d->dof_capacity;
  }

  /* islands: dynamic bodies linked by contacts; bodies are ordered by island (then slot) so the
   * Newton skyline never couples two islands */
  for (int32_t i = 0; i < bodies->count; ++i) d->parent[i] = i;
  for (int32_t m = 0; m < w->pair_count; ++m) {
    int32_t b0 = shapes->body[w->pairs[m].shape0], b1 = shapes->body[w->pairs[m].shape1];
    int dyn0 = bodies->f.body_type[b0] == TB_BODY_DYNAMIC && !bodies->f.asleep[b0];
    int dyn1 = bodies->f.body_type[b1] == TB_BODY_DYNAMIC && !bodies->f.asleep[b1];
    if (!dyn0 || !dyn1 || w->manifolds[m].point_count == 0) continue;
    int32_t r0 = find_root(d->parent, b0), r1 = find_root(d->parent, b1);
    if (r0 != r1) d->parent[r0 > r1 ? r0 : r1] = r0 < r1 ? r0 : r1; /* root = smallest slot */
  }
  /* counting order: islands by their smallest slot, bodies by slot inside */
  for (int32_t i = 0; i < bodies->count; ++i) d->order_key[i] = 0;
  for (int32_t i = 0; i < bodies->count; ++i)
    if (bodies->f.body_type[i] == TB_BODY_DYNAMIC && !bodies->f.asleep[i]) d->order_key[find_root(d->parent, i)]++;
  int32_t acc = 0;
  for (int32_t i = 0; i < bodies->count; ++i) {
    int32_t c = d->order_key[i];
    d->order_key[i] = acc;
    acc += c;
  }
  for (int32_t i = 0; i < bodies->count; ++i) d->dof_of_slot[i] = -1;
  for (int32_t i = 0; i < bodies->count; ++i) {
    if (bodies->f.body_type[i] != TB_BODY_DYNAMIC || bodies->f.asleep[i]) continue;
    int32_t k = d->order_key[find_root(d->parent, i)]++;
    d->dof_of_slot[i] = k;
    tb_mj_body* b = &d->bodies[k];
    tb_transform x = tb_body_pose(bodies, i);
    tb_vec3 c = tb_transform_point(x, bodies->local_center[i]);
    tb_mat3 r = tb_mat3_from_quat(x.q);
    tb_mat3 iw = tb_mat3_mul(tb_mat3_mul(r, bodies->inertia_local[i]), tb_mat3_transpose(r));
    tb_mat3 iiw = tb_mat3_mul(tb_mat3_mul(r, bodies->inv_inertia_local[i]), tb_mat3_transpose(r));
    b->slot = i;
    b->inv_mass = bodies->inv_mass[i];
    b->mass = bodies->mass[i];
    mat3_rows(iw, b->I);
    mat3_rows(iiw, b->Iinv);
    b->x[0] = c.x, b->x[1] = c.y, b->x[2] = c.z;
    b->q[0] = x.q.x, b->q[1] = x.q.y, b->q[2] = x.q.z, b->q[3] = x.q.w;
    for (int u = 0; u < 3; ++u) {
      b->v[u] = bodies->f.linear_velocity[3 * i + u];
      b->w[u] = bodies->f.angular_velocity[3 * i + u];
    }
  }
  d->body_count = nb;
  /* unconstrained accelerations a₀ = M⁻¹(m g − ω × Iω) and the scale 1/trace(M) */
  double trace = 0.0;
  for (int32_t k = 0; k < nb; ++k) {
    tb_mj_body* b = &d->bodies[k];
    double iw[3], gyro[3];
    m3v(b->I, b->w, iw);
    cross3(b->w, iw, gyro);
    for (int u = 0; u < 3; ++u) {
      d->a0[6 * k + u] = w->def.gravity[u];
      gyro[u] = -gyro[u];
    }
    m3v(b->Iinv, gyro, d->a0 + 6 * k + 3);
    trace += 3.0 * b->mass + b->I[0] + b->I[4] + b->I[8];
  }
  d->scale = trace > 0.0 ? 1.0 / trace : 1.0;

  /* contacts and rows */
  nc = 0, nr = 0;
  double h = step->dt;
  for (int32_t m = 0; m < w->pair_count; ++m) {
    const tb_manifold* mf = &w->manifolds[m];
    if (mf->point_count == 0) continue;
    int32_t s0 = w->pairs[m].shape0, s1 = w->pairs[m].shape1;
    int32_t bs0 = shapes->body[s0], bs1 = shapes->body[s1];
    int32_t a = d->dof_of_slot[bs0], b = d->dof_of_slot[bs1];
    const tb_contact_material* mat = &w->manifold_material[m];
    tb_vec3 t0, t1;
    tb_basis(mf->normal, &t0, &t1);
    const double frame[3][3] = {{mf->normal.x, mf->normal.y, mf->normal.z}, {t0.x, t0.y, t0.z}, {t1.x, t1.y, t1.z}};
    /* a kinematic side's COM, velocity and angular velocity (world) */
    double xs[2][3], vs[2][3], ws[2][3];
    int kin[2];
    const int32_t slots[2] = {bs0, bs1};
    for (int s = 0; s < 2; ++s) {
      int32_t sl = slots[s];
      kin[s] = bodies->f.body_type[sl] == TB_BODY_KINEMATIC;
      tb_vec3 c = tb_transform_point(tb_body_pose(bodies, sl), bodies->local_center[sl]);
      xs[s][0] = c.x, xs[s][1] = c.y, xs[s][2] = c.z;
      for (int u = 0; u < 3; ++u) {
        vs[s][u] = kin[s] ? bodies->f.linear_velocity[3 * sl + u] : 0.0;
        ws[s][u] = kin[s] ? bodies->f.angular_velocity[3 * sl + u] : 0.0;
      }
    }
    for (int32_t j = 0; j < mf->point_count; ++j) {
      const tb_manifold_point* mp = &mf->points[j];
      int gap_adhesion = !mp->active && mp->excluded && mat->adhesion > 0.0f;
      if (!mp->active && !gap_adhesion) continue;
      tb_mj_con* c = &d->cons[nc];
      int32_t k = w->manifold_contact[m] < 0 ? -1 : w->manifold_contact[m] + j;
      c->store = k >= 0 && k < w->contacts.count ? k : -1;
      c->a = a, c->b = b;
      c->adhesion = mat->adhesion;
      /* five numbers [slide, slide, spin, roll, roll]: the geoms' combination (each at least the
       * minimum, the combine rule applied it) or an explicit pair's own five */
      for (int q = 0; q < 5; ++q) c->friction[q] = mat->friction[q];
      int32_t condim = mat->condim;
      if (condim != 1 && condim != 3 && condim != 4 && condim != 6)
        return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "solve: contact %d has condim %d; condim must be 1, 3, 4 or 6",
                             c->store, condim);
      tb_mj_contact_in in;
      memset(&in, 0, sizeof in);
      in.condim = gap_adhesion ? 1 : condim; /* in the gap only the normal row (no far-field friction) */
      in.cone = p->cone;
      memcpy(in.friction, c->friction, sizeof in.friction);
      in.r = mp->separation;
      for (int s = 0; s < 2; ++s) {
        int32_t dk = s == 0 ? a : b;
        if (dk < 0) continue;
        const tb_mj_body* bb = &d->bodies[dk];
        in.tran += bb->inv_mass;
        int32_t sl = bb->slot;
        const tb_mat3* ii = &bodies->inv_inertia_local[sl];
        in.rot += ((double)ii->cx.x + ii->cy.y + ii->cz.z) / 3.0;
      }
      memcpy(in.solref, mat->solref, sizeof in.solref);
      memcpy(in.solreffriction, mat->solref_friction, sizeof in.solreffriction); /* (0, 0): solref */
      memcpy(in.solimp, mat->solimp, sizeof in.solimp);
      in.adhesion = mat->adhesion;
      in.impratio = p->impratio;
      in.h = h;
      in.refsafe = p->refsafe;
      tb_mj_contact_rows(&in, &c->rows);
      c->adr = nr;
      double pt[3] = {0.5 * ((double)mp->point0.x + mp->point1.x), 0.5 * ((double)mp->point0.y + mp->point1.y),
                      0.5 * ((double)mp->point0.z + mp->point1.z)};
      /* the six frame Jacobians of each side and the kinematic sides' frame velocities */
      double fja[6][6], fjb[6][6], vkin[6];
      for (int q = 0; q < 6; ++q) {
        frame_jac(frame, q, pt, a >= 0 ? d->bodies[a].x : xs[0], -1.0, fja[q]);
        frame_jac(frame, q, pt, b >= 0 ? d->bodies[b].x : xs[1], 1.0, fjb[q]);
        vkin[q] = 0.0;
        for (int s = 0; s < 2; ++s) {
          if (!kin[s]) continue;
          double jk[6];
          frame_jac(frame, q, pt, xs[s], s == 0 ? -1.0 : 1.0, jk);
          vkin[q] += dot(jk, vs[s], 3) + dot(jk + 3, ws[s], 3);
        }
      }
      for (int q = 0; q < c->rows.count; ++q) {
        tb_mj_row* r = &d->rows[nr + q];
        memset(r, 0, sizeof *r);
        r->a = a, r->b = b, r->contact = nc;
        double vk = 0.0;
        for (int e = 0; e < 6; ++e) {
          double cf = c->rows.coef[q][e];
          if (cf == 0.0) continue;
          for (int i = 0; i < 6; ++i) r->ja[i] += cf * fja[e][i], r->jb[i] += cf * fjb[e][i];
          vk += cf * vkin[e];
        }
        if (a >= 0) {
          const tb_mj_body* bb = &d->bodies[a];
          for (int i = 0; i < 3; ++i) r->ma[i] = bb->inv_mass * r->ja[i];
          m3v(bb->Iinv, r->ja + 3, r->ma + 3);
        }
        if (b >= 0) {
          const tb_mj_body* bb = &d->bodies[b];
          for (int i = 0; i < 3; ++i) r->mb[i] = bb->inv_mass * r->jb[i];
          m3v(bb->Iinv, r->jb + 3, r->mb + 3);
        }
        double vel = vk;
        if (a >= 0) vel += dot(r->ja, d->bodies[a].v, 3) + dot(r->ja + 3, d->bodies[a].w, 3);
        if (b >= 0) vel += dot(r->jb, d->bodies[b].v, 3) + dot(r->jb + 3, d->bodies[b].w, 3);
        r->R = c->rows.R[q];
        r->D = 1.0 / r->R;
        r->aref = -c->rows.B[q] * vel + c->rows.bias[q];
        r->AR = r->R + (a >= 0 ? dot(r->ja, r->ma, 6) : 0.0) + (b >= 0 ? dot(r->jb, r->mb, 6) : 0.0);
      }
      /* adhesion: the passive force −δ·Jₙᵀ pulls the two bodies together */
      if (c->adhesion > 0.0) {
        for (int s = 0; s < 2; ++s) {
          int32_t dk = s == 0 ? a : b;
          if (dk < 0) continue;
          const tb_mj_body* bb = &d->bodies[dk];
          const double* jn = s == 0 ? fja[0] : fjb[0];
          double f[3] = {-c->adhesion * jn[3], -c->adhesion * jn[4], -c->adhesion * jn[5]}, dang[3];
          for (int i = 0; i < 3; ++i) d->a0[6 * dk + i] += -c->adhesion * jn[i] * bb->inv_mass;
          m3v(bb->Iinv, f, dang);
          for (int i = 0; i < 3; ++i) d->a0[6 * dk + 3 + i] += dang[i];
        }
      }
      nr += c->rows.count;
      ++nc;
    }
  }
  d->con_count = nc;
  d->row_count = nr;
  mul_m(d, d->a0, d->ma0);
  return TB_OK;
}

/* ---- soft cost of the rows at jar (MuJoCo mj_constraintUpdate for contacts) ---- */

/* Forces, states and cost; with hessian the elliptic middle-zone Hessians too. */
static double constraint_update(tb_mujoco_data* d, const double* jar, double* force, int hessian) {
  double cost = 0.0;
  for (int32_t ci = 0; ci < d->con_count; ++ci) {
    tb_mj_con* c = &d->cons[ci];
    int32_t i = c->adr, n = c->rows.count;
    if (c->rows.type != TB_MJ_ELLIPTIC) {
      for (int q = 0; q < n; ++q) {
        const tb_mj_row* r = &d->rows[i + q];
        int active = jar[i + q] < 0.0;
        d->rstate[i + q] = active;
        force[i + q] = active ? -r->D * jar[i + q] : 0.0;
        if (active) cost += 0.5 * r->D * jar[i + q] * jar[i + q];
      }
      continue;
    }
    double mu = c->rows.mu, u[6], t = 0.0;
    u[0] = jar[i] * mu;
    for (int q = 1; q < n; ++q) {
      u[q] = jar[i + q] * c->friction[q - 1];
      t += u[q] * u[q];
    }
    t = sqrt(t);
    double nn = u[0];
    if (nn >= mu * t || (t <= 0.0 && nn >= 0.0)) { /* top zone: separating, no force */
      c->state = 0;
      for (int q = 0; q < n; ++q) force[i + q] = 0.0, d->rstate[i + q] = 0;
    } else if (mu * nn + t <= 0.0 || (t <= 0.0 && nn < 0.0)) { /* bottom zone: every row quadratic */
      c->state = 1;
      for (int q = 0; q < n; ++q) {
        const tb_mj_row* r = &d->rows[i + q];
        force[i + q] = -r->D * jar[i + q];
        cost += 0.5 * r->D * jar[i + q] * jar[i + q];
        d->rstate[i + q] = 1;
      }
    } else { /* middle zone: cost ½·Dm·(N − μT)², Dm = D₀/(μ²(1 + μ²)) */
      c->state = 2;
      double dm = d->rows[i].D / (mu * mu * (1.0 + mu * mu)), nmt = nn - mu * t;
      cost += 0.5 * dm * nmt * nmt;
      force[i] = -dm * nmt * mu;
      for (int q = 1; q < n; ++q) force[i + q] = -force[i] / t * u[q] * c->friction[q - 1];
      for (int q = 0; q < n; ++q) d->rstate[i + q] = 2;
      if (hessian) {
        double* H = c->H;
        memset(H, 0, sizeof c->H);
        H[0] = 1.0;
        for (int q = 1; q < n; ++q) H[q] = -mu / t * u[q];
        for (int k = 1; k < n; ++k)
          for (int q = k; q < n; ++q) H[k * n + q] = mu * nn / (t * t * t) * u[q] * u[k];
        for (int q = 1; q < n; ++q) H[q * (n + 1)] += mu * mu - mu * nn / t;
        for (int k = 0; k < n; ++k)
          for (int q = k; q < n; ++q)
            H[k * n + q] *= dm * (k == 0 ? mu : c->friction[k - 1]) * (q == 0 ? mu : c->friction[q - 1]);
        for (int k = 0; k < n; ++k)
          for (int q = k + 1; q < n; ++q) H[q * n + k] = H[k * n + q];
      }
    }
  }
  return cost;
}

/* ---- primal solvers (CG, Newton) ---- */

static double gauss_cost(const tb_mujoco_data* d) {
  double s = 0.0;
  for (int32_t i = 0; i < 6 * d->body_count; ++i) s += (d->acc[i] - d->a0[i]) * (d->ma[i] - d->ma0[i]);
  return 0.5 * s;
}

static double total_cost(tb_mujoco_data* d) {
  for (int32_t i = 0; i < d->row_count; ++i) d->jar[i] = row_dot(&d->rows[i], d->acc) - d->rows[i].aref;
  return gauss_cost(d) + constraint_update(d, d->jar, d->force, 0);
}

/* grad = M(a − a₀) − Jᵀf at the current forces */
static void update_grad(tb_mujoco_data* d) {
  int32_t n = 6 * d->body_count;
  for (int32_t i = 0; i < n; ++i) d->grad[i] = d->ma[i] - d->ma0[i];
  for (int32_t i = 0; i < d->row_count; ++i)
    if (d->force[i] != 0.0) row_add_t(&d->rows[i], -d->force[i], d->grad);
}

/* Skyline profile: the first column of each dof row from the rows' body pairs. */
static int64_t skyline_profile(tb_mujoco_data* d) {
  int32_t n = 6 * d->body_count;
  if (n == 0) return 0; /* no dynamic body: the arrays may not exist yet */
  for (int32_t k = 0; k < d->body_count; ++k)
    for (int i = 0; i < 6; ++i) d->first[6 * k + i] = 6 * k;
  for (int32_t i = 0; i < d->row_count; ++i) {
    const tb_mj_row* r = &d->rows[i];
    if (r->a < 0 || r->b < 0) continue;
    int32_t lo = r->a < r->b ? r->a : r->b, hi = r->a < r->b ? r->b : r->a;
    for (int q = 0; q < 6; ++q)
      if (d->first[6 * hi + q] > 6 * lo) d->first[6 * hi + q] = 6 * lo;
  }
  int64_t total = 0;
  for (int32_t i = 0; i < n; ++i) {
    d->off[i] = total;
    total += i - d->first[i] + 1;
  }
  d->off[n] = total;
  return total;
}

static void sky_add(tb_mujoco_data* d, int32_t i, int32_t j, double v) {
  if (j > i) { int32_t t = i; i = j; j = t; }
  d->L[d->off[i] + (j - d->first[i])] += v;
}

/* Adds Σ_kl H_kl J_kᵀ J_l of rows adr..adr+n−1 (same two bodies) to the skyline. */
static void add_rows_hessian(tb_mujoco_data* d, int32_t adr, int n, const double* H) {
  const tb_mj_row* r0 = &d->rows[adr];
  int32_t bod[2] = {r0->a, r0->b};
  for (int sa = 0; sa < 2; ++sa)
    for (int sb = 0; sb < 2; ++sb) {
      if (bod[sa] < 0 || bod[sb] < 0 || bod[sa] < bod[sb]) continue;
      for (int u = 0; u < 6; ++u)
        for (int v = 0; v < 6; ++v) {
          int32_t gi = 6 * bod[sa] + u, gj = 6 * bod[sb] + v;
          if (gj > gi) continue;
          double s = 0.0;
          for (int k = 0; k < n; ++k) {
            const double* jk = sa == 0 ? d->rows[adr + k].ja : d->rows[adr + k].jb;
            if (jk[u] == 0.0) continue;
            for (int l = 0; l < n; ++l) {
              const double* jl = sb == 0 ? d->rows[adr + l].ja : d->rows[adr + l].jb;
              s += H[k * n + l] * jk[u] * jl[v];
            }
          }
          if (s != 0.0) sky_add(d, gi, gj, s);
        }
    }
}

/* H = M + JᵀDJ (active rows) + cone Hessians, factorised in place (LLᵀ). */
static void factor_hessian(tb_mujoco_data* d) {
  int32_t n = 6 * d->body_count;
  if (n > 0) memset(d->L, 0, (size_t)d->off[n] * sizeof(double));
  for (int32_t k = 0; k < d->body_count; ++k) {
    const tb_mj_body* b = &d->bodies[k];
    for (int i = 0; i < 3; ++i) sky_add(d, 6 * k + i, 6 * k + i, b->mass);
    for (int u = 0; u < 3; ++u)
      for (int v = 0; v <= u; ++v) sky_add(d, 6 * k + 3 + u, 6 * k + 3 + v, b->I[3 * u + v]);
  }
  for (int32_t ci = 0; ci < d->con_count; ++ci) {
    const tb_mj_con* c = &d->cons[ci];
    int nr = c->rows.count;
    if (c->rows.type == TB_MJ_ELLIPTIC) {
      if (c->state == 0) continue;
      double H[36] = {0};
      if (c->state == 2) memcpy(H, c->H, sizeof H);
      else for (int q = 0; q < nr; ++q) H[q * nr + q] = d->rows[c->adr + q].D;
      add_rows_hessian(d, c->adr, nr, H);
    } else {
      for (int q = 0; q < nr; ++q) {
        if (!d->rstate[c->adr + q]) continue;
        double H = d->rows[c->adr + q].D;
        add_rows_hessian(d, c->adr + q, 1, &H);
      }
    }
  }
  for (int32_t i = 0; i < n; ++i) {
    double* li = d->L + d->off[i];
    for (int32_t j = d->first[i]; j <= i; ++j) {
      double* lj = d->L + d->off[j];
      int32_t k0 = d->first[i] > d->first[j] ? d->first[i] : d->first[j];
      double s = li[j - d->first[i]];
      for (int32_t k = k0; k < j; ++k) s -= li[k - d->first[i]] * lj[k - d->first[j]];
      if (j < i) li[j - d->first[i]] = s / lj[j - d->first[j]];
      else li[j - d->first[i]] = sqrt(s > TB_MJ_MINVAL ? s : TB_MJ_MINVAL);
    }
  }
}

static void solve_hessian(const tb_mujoco_data* d, const double* b, double* x) {
  int32_t n = 6 * d->body_count;
  for (int32_t i = 0; i < n; ++i) {
    const double* li = d->L + d->off[i];
    double s = b[i];
    for (int32_t k = d->first[i]; k < i; ++k) s -= li[k - d->first[i]] * x[k];
    x[i] = s / li[i - d->first[i]];
  }
  for (int32_t i = n - 1; i >= 0; --i) {
    const double* li = d->L + d->off[i];
    x[i] /= li[i - d->first[i]];
    for (int32_t k = d->first[i]; k < i; ++k) x[k] -= li[k - d->first[i]] * x[i];
  }
}

/* Cost along the search direction at step α: value, first and second derivative. */
typedef struct ls_point { double alpha, cost, d1, d2; } ls_point;

static ls_point ls_eval(tb_mujoco_data* d, double alpha, const double gq[3]) {
  ls_point p = {alpha, gq[0] + alpha * gq[1] + 0.5 * alpha * alpha * gq[2], gq[1] + alpha * gq[2], gq[2]};
  for (int32_t ci = 0; ci < d->con_count; ++ci) {
    const tb_mj_con* c = &d->cons[ci];
    int32_t i = c->adr, n = c->rows.count;
    if (c->rows.type != TB_MJ_ELLIPTIC) {
      for (int q = 0; q < n; ++q) {
        double x = d->jar[i + q] + alpha * d->jv[i + q], D = d->rows[i + q].D;
        if (x >= 0.0) continue;
        p.cost += 0.5 * D * x * x;
        p.d1 += D * x * d->jv[i + q];
        p.d2 += D * d->jv[i + q] * d->jv[i + q];
      }
      continue;
    }
    double mu = c->rows.mu, u[6], du[6], t2 = 0.0, udu = 0.0, du2 = 0.0;
    u[0] = mu * (d->jar[i] + alpha * d->jv[i]);
    du[0] = mu * d->jv[i];
    for (int q = 1; q < n; ++q) {
      u[q] = c->friction[q - 1] * (d->jar[i + q] + alpha * d->jv[i + q]);
      du[q] = c->friction[q - 1] * d->jv[i + q];
      t2 += u[q] * u[q], udu += u[q] * du[q], du2 += du[q] * du[q];
    }
    double t = sqrt(t2), nn = u[0];
    if (nn >= mu * t || (t <= 0.0 && nn >= 0.0)) continue;
    if (mu * nn + t <= 0.0 || (t <= 0.0 && nn < 0.0)) {
      for (int q = 0; q < n; ++q) {
        double x = d->jar[i + q] + alpha * d->jv[i + q], D = d->rows[i + q].D;
        p.cost += 0.5 * D * x * x;
        p.d1 += D * x * d->jv[i + q];
        p.d2 += D * d->jv[i + q] * d->jv[i + q];
      }
      continue;
    }
    double dm = d->rows[i].D / (mu * mu * (1.0 + mu * mu));
    double tp = udu / t, tpp = (du2 - tp * tp) / t;
    double phi = nn - mu * t, phip = du[0] - mu * tp, phipp = -mu * tpp;
    p.cost += 0.5 * dm * phi * phi;
    p.d1 += dm * phi * phip;
    p.d2 += dm * (phip * phip + phi * phipp);
  }
  return p;
}

/* Exact line search by a 1-D Newton method kept inside a bracket. Returns α (0 = no descent) and
 * the cost decrease. */
static double line_search(tb_mujoco_data* d, const tb_mujoco_params* p, double* improvement) {
  int32_t n = 6 * d->body_count;
  mul_m(d, d->search, d->mv);
  for (int32_t i = 0; i < d->row_count; ++i) d->jv[i] = row_dot(&d->rows[i], d->search);
  double gq[3] = {gauss_cost(d), 0.0, 0.0};
  for (int32_t i = 0; i < n; ++i) {
    gq[1] += d->search[i] * (d->ma[i] - d->ma0[i]);
    gq[2] += d->search[i] * d->mv[i];
  }
  double snorm = sqrt(dot(d->search, d->search, n));
  *improvement = 0.0;
  if (!(snorm > 0.0)) return 0.0;
  double gtol = (double)p->tolerance * p->ls_tolerance * snorm / d->scale;
  ls_point p0 = ls_eval(d, 0.0, gq), best = p0, lo = p0, hi = {INFINITY, 0, 0, 0};
  if (p0.d1 >= 0.0) return 0.0;
  double alpha = p0.d2 > 0.0 ? -p0.d1 / p0.d2 : 1.0;
  for (int it = 0; it < p->ls_iterations; ++it) {
    ls_point q = ls_eval(d, alpha, gq);
    if (q.cost < best.cost) best = q;
    if (fabs(q.d1) < gtol) break;
    if (q.d1 < 0.0) lo = q; else hi = q;
    double next = q.d2 > 0.0 ? q.alpha - q.d1 / q.d2 : NAN;
    if (!(next > lo.alpha && next < hi.alpha)) next = isfinite(hi.alpha) ? 0.5 * (lo.alpha + hi.alpha) : 2.0 * q.alpha;
    alpha = next;
  }
  if (!(best.cost < p0.cost)) return 0.0;
  *improvement = p0.cost - best.cost;
  return best.alpha;
}

typedef struct solve_result { int32_t iterations, converged; double improvement, gradient; } solve_result;

static solve_result solve_primal(tb_mujoco_data* d, const tb_mujoco_params* p, int newton) {
  solve_result res = {0, 0, NAN, NAN};
  int32_t n = 6 * d->body_count;
  int elliptic = p->cone == TB_MUJOCO_ELLIPTIC;
  mul_m(d, d->acc, d->ma);
  for (int32_t i = 0; i < d->row_count; ++i) d->jar[i] = row_dot(&d->rows[i], d->acc) - d->rows[i].aref;
  constraint_update(d, d->jar, d->force, newton && elliptic);
  update_grad(d);
  res.gradient = d->scale * sqrt(dot(d->grad, d->grad, n));
  if (res.gradient < p->tolerance) {
    res.converged = 1;
    return res;
  }
  if (newton) {
    skyline_profile(d);
    factor_hessian(d);
    solve_hessian(d, d->grad, d->mgrad);
  } else {
    solve_m(d, d->grad, d->mgrad);
  }
  for (int32_t i = 0; i < n; ++i) d->search[i] = -d->mgrad[i];
  while (res.iterations < p->iterations) {
    double improvement;
    double alpha = line_search(d, p, &improvement);
    if (alpha == 0.0) { /* no descent left along the search direction */
      res.converged = 1;
      res.improvement = 0.0;
      break;
    }
    for (int32_t i = 0; i < n; ++i) {
      d->acc[i] += alpha * d->search[i];
      d->ma[i] += alpha * d->mv[i];
    }
    for (int32_t i = 0; i < d->row_count; ++i) d->jar[i] += alpha * d->jv[i];
    if (!newton) {
      if (n > 0) memcpy(d->gradold, d->grad, (size_t)n * sizeof(double));
      if (n > 0) memcpy(d->mgradold, d->mgrad, (size_t)n * sizeof(double));
    }
    constraint_update(d, d->jar, d->force, newton && elliptic);
    update_grad(d);
    if (newton) {
      factor_hessian(d);
      solve_hessian(d, d->grad, d->mgrad);
    } else {
      solve_m(d, d->grad, d->mgrad);
    }
    ++res.iterations;
    res.improvement = d->scale * improvement;
    res.gradient = d->scale * sqrt(dot(d->grad, d->grad, n));
    if (res.improvement < p->tolerance || res.gradient < p->tolerance) {
      res.converged = 1;
      break;
    }
    if (newton) {
      for (int32_t i = 0; i < n; ++i) d->search[i] = -d->mgrad[i];
    } else { /* Polak-Ribiere with restart */
      double num = 0.0, den = dot(d->gradold, d->mgradold, n);
      for (int32_t i = 0; i < n; ++i) num += d->grad[i] * (d->mgrad[i] - d->mgradold[i]);
      double beta = den > TB_MJ_MINVAL ? num / den : 0.0;
      if (beta < 0.0) beta = 0.0;
      for (int32_t i = 0; i < n; ++i) d->search[i] = -d->mgrad[i] + beta * d->search[i];
    }
  }
  return res;
}

/* ---- dual solver (PGS) ---- */

/* x solves the n×n SPD system A x = b (n <= 6), Cholesky. Returns 0 when A is not positive. */
static int small_solve(int n, const double* A, const double* b, double* x) {
  double L[36];
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j) {
      double s = A[i * n + j];
      for (int k = 0; k < j; ++k) s -= L[i * n + k] * L[j * n + k];
      if (i == j) {
        if (!(s > TB_MJ_MINVAL)) return 0;
        L[i * n + i] = sqrt(s);
      } else {
        L[i * n + j] = s / L[j * n + j];
      }
    }
  for (int i = 0; i < n; ++i) {
    double s = b[i];
    for (int k = 0; k < i; ++k) s -= L[i * n + k] * x[k];
    x[i] = s / L[i * n + i];
  }
  for (int i = n - 1; i >= 0; --i) {
    double s = x[i];
    for (int k = i + 1; k < n; ++k) s -= L[k * n + i] * x[k];
    x[i] = s / L[i * n + i];
  }
  return 1;
}

/* min ½xᵀAx + bᵀx subject to Σ(xⱼ/μⱼ)² <= fn² (n <= 5): in y = x/(μ·fn) the ball ‖y‖ <= 1; on
 * the boundary (A' + λ1)y = −b' with λ >= 0 found by Newton's method on ‖y(λ)‖² = 1. */
static void qcqp(int n, const double* A, const double* b, const double* mu, double fn, double* x) {
  double As[25], bs[5], y[5], z[5], s[5];
  for (int i = 0; i < n; ++i) {
    s[i] = mu[i] * fn;
    bs[i] = -b[i] * s[i];
    for (int j = 0; j < n; ++j) As[i * n + j] = A[i * n + j] * s[i] * s[j];
  }
  double lambda = 0.0, m[25];
  for (int it = 0; it < 30; ++it) {
    memcpy(m, As, sizeof(double) * (size_t)(n * n));
    for (int i = 0; i < n; ++i) m[i * n + i] += lambda;
    if (!small_solve(n, m, bs, y)) { memset(y, 0, sizeof y); break; }
    double yy = dot(y, y, n);
    if (it == 0 && yy <= 1.0) break; /* interior minimum */
    if (fabs(yy - 1.0) < 1e-10) break;
    if (!small_solve(n, m, y, z)) break;
    double dphi = -2.0 * dot(y, z, n); /* d‖y‖²/dλ */
    if (!(dphi < 0.0)) break;
    lambda -= (yy - 1.0) / dphi;
    if (lambda < 0.0) lambda = 0.0;
  }
  double yy = dot(y, y, n), sc = yy > 1.0 ? 1.0 / sqrt(yy) : 1.0;
  for (int i = 0; i < n; ++i) x[i] = y[i] * sc * s[i];
}

/* AR block of a contact's rows (J M⁻¹ Jᵀ + diag R). */
static void ar_block(const tb_mujoco_data* d, int32_t adr, int n, double* A) {
  for (int k = 0; k < n; ++k)
    for (int l = 0; l < n; ++l) {
      const tb_mj_row *rk = &d->rows[adr + k], *rl = &d->rows[adr + l];
      double s = 0.0;
      if (rk->a >= 0) s += dot(rk->ja, rl->ma, 6);
      if (rk->b >= 0) s += dot(rk->jb, rl->mb, 6);
      A[k * n + l] = s + (k == l ? rk->R : 0.0);
    }
}

static solve_result solve_pgs(tb_mujoco_data* d, const tb_mujoco_params* p) {
  solve_result res = {0, 0, NAN, NAN};
  /* acc = a₀ + M⁻¹Jᵀf for the starting forces */
  int32_t n = 6 * d->body_count;
  if (n > 0) memcpy(d->acc, d->a0, (size_t)n * sizeof(double));
  for (int32_t i = 0; i < d->row_count; ++i)
    if (d->force[i] != 0.0) row_add_minv(&d->rows[i], d->force[i], d->acc);
  while (res.iterations < p->iterations) {
    double improvement = 0.0;
    for (int32_t ci = 0; ci < d->con_count; ++ci) {
      const tb_mj_con* c = &d->cons[ci];
      int32_t adr = c->adr, nr = c->rows.count;
      double* f = d->force + adr;
      if (c->rows.type != TB_MJ_ELLIPTIC) {
        for (int q = 0; q < nr; ++q) {
          const tb_mj_row* r = &d->rows[adr + q];
          double rs = row_dot(r, d->acc) - r->aref + r->R * f[q];
          double fnew = f[q] - rs / r->AR;
          if (fnew < 0.0) fnew = 0.0;
          double delta = fnew - f[q], change = 0.5 * delta * delta * r->AR + delta * rs;
          if (change > 1e-10 || delta == 0.0) continue;
          f[q] = fnew;
          row_add_minv(r, delta, d->acc);
          improvement -= change;
        }
        continue;
      }
      double A[36] = {0}, rs[6] = {0}, old[6] = {0};
      ar_block(d, adr, nr, A);
      for (int q = 0; q < nr; ++q) {
        const tb_mj_row* r = &d->rows[adr + q];
        rs[q] = row_dot(r, d->acc) - r->aref + r->R * f[q];
        old[q] = f[q];
      }
      /* normal (or ray) update, then the friction block with the normal fixed */
      if (f[0] < TB_MJ_MINVAL) {
        f[0] = fmax(0.0, f[0] - rs[0] / A[0]);
        for (int q = 1; q < nr; ++q) f[q] = 0.0;
      } else {
        double av[6], den = 0.0, num = 0.0;
        for (int k = 0; k < nr; ++k) av[k] = dot(A + k * nr, old, nr);
        den = dot(old, av, nr);
        num = -dot(old, rs, nr);
        if (den >= TB_MJ_MINVAL) {
          double x = num / den;
          if (f[0] + x * old[0] < 0.0) x = -1.0;
          for (int k = 0; k < nr; ++k) f[k] += x * old[k];
        }
      }
      if (f[0] < TB_MJ_MINVAL) {
        for (int q = 1; q < nr; ++q) f[q] = 0.0;
      } else {
        int m = nr - 1;
        double Ac[25], bc[5], x[5];
        for (int j = 0; j < m; ++j) {
          bc[j] = rs[1 + j] + A[(1 + j) * nr] * (f[0] - old[0]);
          for (int k = 0; k < m; ++k) {
            Ac[j * m + k] = A[(1 + j) * nr + 1 + k];
            bc[j] -= Ac[j * m + k] * old[1 + k];
          }
        }
        qcqp(m, Ac, bc, c->friction, f[0], x);
        for (int j = 0; j < m; ++j) f[1 + j] = x[j];
      }
      double delta[6], ad[6];
      for (int q = 0; q < nr; ++q) delta[q] = f[q] - old[q];
      for (int k = 0; k < nr; ++k) ad[k] = dot(A + k * nr, delta, nr);
      double change = 0.5 * dot(delta, ad, nr) + dot(delta, rs, nr);
      if (change > 1e-10) {
        memcpy(f, old, (size_t)nr * sizeof(double));
        continue;
      }
      for (int q = 0; q < nr; ++q)
        if (delta[q] != 0.0) row_add_minv(&d->rows[adr + q], delta[q], d->acc);
      improvement -= change;
    }
    ++res.iterations;
    res.improvement = d->scale * improvement;
    if (res.improvement < p->tolerance) {
      res.converged = 1;
      break;
    }
  }
  return res;
}

/* ---- the step ---- */

tb_status tb_solve_mujoco(tb_world* w, const tb_step_context* step) {
  tb_status st = setup(w, step);
  if (st != TB_OK) return st;
  tb_mujoco_data* d = w->mujoco;
  const tb_mujoco_params* p = &w->def.solver.mujoco;
  tb_bodies* bodies = &w->bodies;
  const double h = step->dt;
  int32_t n = 6 * d->body_count;
  if (p->algorithm == TB_MUJOCO_NEWTON) {
    int64_t need = skyline_profile(d);
    if (need > d->l_capacity) {
      int64_t cap = d->l_capacity > 0 ? d->l_capacity : 256;
      while (cap < need) cap *= 2;
      double* L = (double*)tb_alloc((size_t)cap * sizeof(double));
      if (!L) return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "solve: out of memory for the Newton factor (%lld values)", (long long)need);
      tb_free(d->L, (size_t)d->l_capacity * sizeof(double));
      d->L = L;
      d->l_capacity = cap;
    }
  }

  /* start: the previous accelerations of the same bodies when they cost less than a₀ */
  if (n > 0) memcpy(d->acc, d->a0, (size_t)n * sizeof(double));
  mul_m(d, d->acc, d->ma);
  double cost0 = total_cost(d);
  int warm = 0;
  if (p->warmstart) {
    for (int32_t k = 0; k < d->body_count; ++k) {
      int32_t sl = d->bodies[k].slot;
      if (d->warm_gen[sl] != bodies->generation[sl]) continue;
      memcpy(d->acc + 6 * k, d->warm + 6 * sl, 6 * sizeof(double));
      warm = 1;
    }
    if (warm) {
      mul_m(d, d->acc, d->ma);
      if (total_cost(d) >= cost0) { /* a₀ is better: back to it */
        warm = 0;
        if (n > 0) memcpy(d->acc, d->a0, (size_t)n * sizeof(double));
        mul_m(d, d->acc, d->ma);
        total_cost(d);
      }
    }
  }
  solve_result res;
  if (p->algorithm == TB_MUJOCO_PGS) {
    /* the dual starts from the forces of the start accelerations (zero without a warm start) */
    if (!warm && d->row_count > 0) memset(d->force, 0, (size_t)d->row_count * sizeof(double));
    res = solve_pgs(d, p);
  } else {
    res = solve_primal(d, p, p->algorithm == TB_MUJOCO_NEWTON);
  }

  /* warm start of the next step */
  for (int32_t i = 0; i < bodies->count; ++i) d->warm_gen[i] = -1;
  for (int32_t k = 0; k < d->body_count; ++k) {
    int32_t sl = d->bodies[k].slot;
    memcpy(d->warm + 6 * sl, d->acc + 6 * k, 6 * sizeof(double));
    d->warm_gen[sl] = bodies->generation[sl];
  }

  /* readback before the integration (forces of this step's rows) */
  tb_contact_fields* f = &w->contacts.f;
  for (int32_t k = 0; k < w->contacts.count; ++k) {
    for (int q = 0; q < 6; ++q) f->mujoco_force[6 * k + q] = 0.0f;
    f->efc_address[k] = -1;
    f->normal_impulse[k] = 0.0f;
    f->tangent_impulse[2 * k] = f->tangent_impulse[2 * k + 1] = 0.0f;
    for (int q = 0; q < 3; ++q) f->force[3 * k + q] = 0.0f;
  }
  for (int32_t ci = 0; ci < d->con_count; ++ci) {
    const tb_mj_con* c = &d->cons[ci];
    int32_t k = c->store;
    if (k < 0) continue;
    double cf[6];
    tb_mj_decode_force(&c->rows, c->friction, d->force + c->adr, cf);
    cf[0] -= c->adhesion; /* the net normal force */
    for (int q = 0; q < 6; ++q) f->mujoco_force[6 * k + q] = (float)cf[q];
    f->efc_address[k] = c->adr;
    f->normal_impulse[k] = (float)(cf[0] * h);
    f->tangent_impulse[2 * k] = (float)(cf[1] * h);
    f->tangent_impulse[2 * k + 1] = (float)(cf[2] * h);
    const float* nn = f->normal + 3 * k;
    const float* t0 = f->tangent0 + 3 * k;
    const float* t1 = f->tangent1 + 3 * k;
    for (int q = 0; q < 3; ++q) f->force[3 * k + q] = (float)(cf[0] * nn[q] + cf[1] * t0[q] + cf[2] * t1[q]);
  }
  tb_readback_set(w, TB_READBACK_MUJOCO, TB_RB_PER_CONTACT | TB_RB_FRICTION | TB_RB_TORSIONAL, 1, 1.0f);

  /* Euler: v += h·a, x += h·v, q by ω; then the body damping */
  for (int32_t k = 0; k < d->body_count; ++k) {
    tb_mj_body* b = &d->bodies[k];
    int32_t i = b->slot;
    float c = bodies->linear_damping[i], g = bodies->angular_damping[i];
    double lin = c > 0.0f ? fmax(0.0, 1.0 - c * h) : 1.0, ang = g > 0.0f ? fmax(0.0, 1.0 - g * h) : 1.0;
    tb_vec3 v, om, x;
    v = tb_v3((float)((b->v[0] + h * d->acc[6 * k]) * lin), (float)((b->v[1] + h * d->acc[6 * k + 1]) * lin),
              (float)((b->v[2] + h * d->acc[6 * k + 2]) * lin));
    om = tb_v3((float)((b->w[0] + h * d->acc[6 * k + 3]) * ang), (float)((b->w[1] + h * d->acc[6 * k + 4]) * ang),
               (float)((b->w[2] + h * d->acc[6 * k + 5]) * ang));
    x = tb_v3((float)(b->x[0] + h * (b->v[0] + h * d->acc[6 * k])), (float)(b->x[1] + h * (b->v[1] + h * d->acc[6 * k + 1])),
              (float)(b->x[2] + h * (b->v[2] + h * d->acc[6 * k + 2])));
    tb_vec3 w1 = tb_v3((float)(b->w[0] + h * d->acc[6 * k + 3]), (float)(b->w[1] + h * d->acc[6 * k + 4]),
                       (float)(b->w[2] + h * d->acc[6 * k + 5]));
    tb_quat q0 = {(float)b->q[0], (float)b->q[1], (float)b->q[2], (float)b->q[3]};
    tb_quat q1 = tb_quat_integrate(q0, w1, (float)h);
    tb_body_write_state(bodies, i, x, q1, v, om);
  }
  /* kinematic bodies move with their velocity */
  for (int32_t i = 0; i < bodies->count; ++i) {
    if (bodies->f.body_type[i] != TB_BODY_KINEMATIC) continue;
    const float* t = bodies->f.transform + 7 * i;
    const float* v = bodies->f.linear_velocity + 3 * i;
    const float* av = bodies->f.angular_velocity + 3 * i;
    tb_quat q0 = {t[3], t[4], t[5], t[6]};
    tb_vec3 c0 = tb_transform_point(tb_body_pose(bodies, i), bodies->local_center[i]);
    tb_vec3 c1 = tb_mul_add(c0, (float)h, tb_v3(v[0], v[1], v[2]));
    tb_quat q1 = tb_quat_integrate(q0, tb_v3(av[0], av[1], av[2]), (float)h);
    tb_body_write_pose(bodies, i, c1, q1);
  }

  tb_solver_status_set(w, TB_SOLVER_MUJOCO, res.iterations, 0, res.converged, NAN, NAN);
  w->status.improvement = (float)res.improvement;
  w->status.gradient = (float)res.gradient;
  w->body_contact_valid = 0;
  w->stats.substeps = 1;
  tb_solver_stats_serial(w);
  return TB_OK;
}

/* ---- snapshots: the warm start (accelerations per body slot and their generations) ---- */

void tb_mujoco_save(const tb_world* w, tb_serial* s) {
  const tb_mujoco_data* d = w->mujoco;
  int32_t n = d ? (d->slot_capacity < w->bodies.count ? d->slot_capacity : w->bodies.count) : 0;
  tb_put_i32(s, n);
  if (n == 0) return;
  tb_put(s, d->warm, 6 * (size_t)n * sizeof(double));
  tb_put(s, d->warm_gen, (size_t)n * sizeof(int32_t));
}

int tb_mujoco_load(tb_world* w, tb_serial* s) {
  int32_t n = tb_get_i32(s, 0, w->bodies.count);
  if (s->failed) return 0;
  if (n == 0) return 1;
  if ((size_t)n * (6 * sizeof(double) + sizeof(int32_t)) > s->size - s->pos) return s->failed = 1, 0;
  tb_mujoco_data* d = w->mujoco ? w->mujoco : (tb_mujoco_data*)tb_alloc_zero(sizeof(tb_mujoco_data));
  if (!d) return 0;
  w->mujoco = d; /* the world's destroy frees it from here on */
  tb_array_ref sa[5];
  slot_arrays(d, sa);
  if (!tb_grow_capacity(sa, 5, &d->slot_capacity, n)) return 0;
  tb_get(s, d->warm, 6 * (size_t)n * sizeof(double));
  tb_get(s, d->warm_gen, (size_t)n * sizeof(int32_t));
  for (int32_t i = n; i < d->slot_capacity; ++i) d->warm_gen[i] = -1;
  for (int32_t i = 0; i < n && !s->failed; ++i)
    if (d->warm_gen[i] < -1) s->failed = 1;
  return !s->failed;
}
