/* MuJoCo soft constraints, the setup of a step: the degrees of freedom (the awake dynamic bodies,
 * COM velocity and world angular velocity, M = diag(m·1, I_world), island after island, each in
 * reverse Cuthill-McKee order so the Newton skyline stays narrow), the unconstrained accelerations
 * a₀ (gravity, the gyroscopic term), and the rows of every active manifold point at the midpoint between its surface points in
 * the contact store's frame (normal, tangent0, tangent1); the joints' rows come from
 * mujoco_joints.c before the contacts, in MuJoCo's order. */
#include <math.h>
#include <string.h>

#include "../model/contact_store.h"
#include "../model/material.h"
#include "mujoco_solver.h"

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
void tb_mj_slot_arrays(tb_mujoco_data* d, tb_array_ref sa[TB_MJ_SLOT_ARRAYS]) {
  int n = 0;
  TB_ARRAY_REF(sa, n, d, dof_of_slot, sizeof(int32_t));
  TB_ARRAY_REF(sa, n, d, adj_start, sizeof(int32_t));
  TB_ARRAY_REF(sa, n, d, adj_len, sizeof(int32_t));
  TB_ARRAY_REF(sa, n, d, stamp, sizeof(int32_t));
  TB_ARRAY_REF(sa, n, d, order, sizeof(int32_t));
  TB_ARRAY_REF(sa, n, d, warm, 6 * sizeof(double));
  TB_ARRAY_REF(sa, n, d, warm_gen, sizeof(int32_t));
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
  tb_free(d->hstate, rc * sizeof(int32_t));
  double** dd[] = {&d->a0, &d->ma0, &d->acc, &d->ma, &d->grad, &d->mgrad, &d->search, &d->mv, &d->gradold, &d->mgradold, &d->upd_c, &d->upd_s};
  for (int i = 0; i < 12; ++i) tb_free(*dd[i], dc * sizeof(double));
  tb_free(d->first, dc * sizeof(int32_t));
  tb_free(d->off, ((size_t)d->off_capacity + 1) * sizeof(int64_t));
  tb_free(d->L, (size_t)d->l_capacity * sizeof(double));
  tb_free(d->dof_of_slot, sc * sizeof(int32_t));
  int32_t** sd[] = {&d->adj_start, &d->adj_len, &d->stamp, &d->order};
  for (int i = 0; i < 4; ++i) tb_free(*sd[i], sc * sizeof(int32_t));
  tb_free(d->adj, (size_t)d->adj_capacity * sizeof(int32_t));
  tb_free(d->warm, 6 * sc * sizeof(double));
  tb_free(d->warm_gen, sc * sizeof(int32_t));
  tb_free(d->joints, (size_t)d->joint_capacity * sizeof(tb_mj_joint));
  tb_free(d, sizeof *d);
  w->mujoco = NULL;
}

/* The solver's arrays for this step's bodies, contacts and joints. */
static tb_status reserve(tb_world* w) {
  if (!w->mujoco) {
    w->mujoco = (tb_mujoco_data*)tb_alloc_zero(sizeof(tb_mujoco_data));
    if (!w->mujoco) return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "solve: out of memory for the MuJoCo solver");
  }
  tb_mujoco_data* d = w->mujoco;
  tb_bodies* bodies = &w->bodies;
  int32_t nb = 0, nc = 0, nr = 0;
  for (int32_t i = 0; i < bodies->count; ++i) nb += bodies->f.body_type[i] == TB_BODY_DYNAMIC && !bodies->f.asleep[i];
  for (int32_t m = 0; m < w->pair_count; ++m) {
    const tb_manifold* mf = &w->manifolds[m];
    for (int32_t j = 0; j < mf->point_count; ++j) {
      const tb_manifold_point* mp = &mf->points[j];
      if (mp->active || (mp->excluded && tb_pair_material(w, m)->adhesion > 0.0f)) ++nc;
    }
  }
  int32_t nj = tb_mj_joint_row_bound(w); /* joint rows, and joint constraints, at most */
  nr = TB_MJ_MAX_ROWS * nc + nj;
  /* warm start entries of slots beyond the old capacity start empty */
  int32_t old_slots = d->slot_capacity;
  const tb_array_ref ba = {(void**)&d->bodies, sizeof(tb_mj_body)};
  const tb_array_ref ca = {(void**)&d->cons, sizeof(tb_mj_con)};
  const tb_array_ref ra[] = {{(void**)&d->rows, sizeof(tb_mj_row)}, {(void**)&d->jar, sizeof(double)},
                             {(void**)&d->force, sizeof(double)}, {(void**)&d->jv, sizeof(double)},
                             {(void**)&d->oldforce, sizeof(double)}, {(void**)&d->rstate, sizeof(int32_t)},
                             {(void**)&d->hstate, sizeof(int32_t)}};
  const tb_array_ref da[] = {{(void**)&d->a0, sizeof(double)}, {(void**)&d->ma0, sizeof(double)},
                             {(void**)&d->acc, sizeof(double)}, {(void**)&d->ma, sizeof(double)},
                             {(void**)&d->grad, sizeof(double)}, {(void**)&d->mgrad, sizeof(double)},
                             {(void**)&d->search, sizeof(double)}, {(void**)&d->mv, sizeof(double)},
                             {(void**)&d->gradold, sizeof(double)}, {(void**)&d->mgradold, sizeof(double)},
                             {(void**)&d->upd_c, sizeof(double)}, {(void**)&d->upd_s, sizeof(double)},
                             {(void**)&d->first, sizeof(int32_t)}};
  const tb_array_ref ja = {(void**)&d->joints, sizeof(tb_mj_joint)};
  const tb_array_ref aa = {(void**)&d->adj, sizeof(int32_t)};
  tb_array_ref sa[TB_MJ_SLOT_ARRAYS];
  tb_mj_slot_arrays(d, sa);
  if (!tb_grow_capacity(&ba, 1, &d->body_capacity, nb) || !tb_grow_capacity(&ca, 1, &d->con_capacity, nc + nj) ||
      !tb_grow_capacity(ra, 7, &d->row_capacity, nr) || !tb_grow_capacity(da, 13, &d->dof_capacity, 6 * nb) ||
      !tb_grow_capacity(sa, TB_MJ_SLOT_ARRAYS, &d->slot_capacity, bodies->count) ||
      !tb_grow_capacity(&aa, 1, &d->adj_capacity, 2 * (w->pair_count + w->joints.count)) ||
      !tb_grow_capacity(&ja, 1, &d->joint_capacity, w->joints.live))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "solve: out of memory for %d bodies and %d contacts", nb, nc);
  for (int32_t i = old_slots; i < d->slot_capacity; ++i) d->warm_gen[i] = -1;
  if (d->off_capacity != d->dof_capacity) {
    int64_t* off = (int64_t*)tb_alloc(((size_t)d->dof_capacity + 1) * sizeof(int64_t));
    if (!off) return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "solve: out of memory for %d dofs", 6 * nb);
    tb_free(d->off, ((size_t)d->off_capacity + 1) * sizeof(int64_t));
    d->off = off;
    d->off_capacity = d->dof_capacity;
  }
  return TB_OK;
}

/* ---- the order of the degrees of freedom ----
 * Newton factorises H = M + JᵀDJ as a skyline over the bodies in this order: body k's rows start
 * at its first neighbour in the order, so the factor's size is the graph's profile. Islands come
 * one after the other (by their smallest slot), so two islands never share a row; inside an island
 * the bodies take the reverse Cuthill-McKee order of the contact and joint graph from a
 * pseudo-peripheral body (George and Liu), which keeps every body near its neighbours: the
 * profile grows with the island's width instead of with the distance of slots in contact, which
 * in a mixed pile is the whole island. Everything is decided by degrees and slots, never by
 * addresses or threads: the same order, so the same bits, for any thread count. */

/* The graph of the awake dynamic bodies: an edge per touching pair and per joint between two of
 * them, each list sorted by slot without repeats (adj_start, adj_len into adj). */
static void build_graph(tb_world* w, tb_mujoco_data* d) {
  const tb_bodies* bodies = &w->bodies;
  const tb_shapes* shapes = &w->shapes;
  const tb_joints* jt = &w->joints;
  int32_t n = bodies->count;
  for (int32_t i = 0; i < n; ++i) d->adj_len[i] = 0;
  for (int pass = 0; pass < 2; ++pass) { /* count, then place */
    for (int32_t m = 0; m < w->pair_count; ++m) {
      int32_t e[2] = {shapes->body[w->pairs[m].shape0], shapes->body[w->pairs[m].shape1]};
      if (w->pairs[m].points == 0 || !tb_body_awake_dynamic(bodies, e[0]) || !tb_body_awake_dynamic(bodies, e[1])) continue;
      for (int s = 0; s < 2; ++s) {
        if (pass == 1) d->adj[d->adj_start[e[s]] + d->adj_len[e[s]]] = e[1 - s];
        d->adj_len[e[s]]++;
      }
    }
    for (int32_t j = 0; j < jt->count; ++j) {
      int32_t e[2] = {jt->slot0[j], jt->slot1[j]};
      if (jt->def[j].type < 0 || jt->state[j].broken || e[0] < 0 || e[1] < 0) continue;
      if (!tb_body_awake_dynamic(bodies, e[0]) || !tb_body_awake_dynamic(bodies, e[1])) continue;
      for (int s = 0; s < 2; ++s) {
        if (pass == 1) d->adj[d->adj_start[e[s]] + d->adj_len[e[s]]] = e[1 - s];
        d->adj_len[e[s]]++;
      }
    }
    if (pass == 1) break;
    int32_t acc = 0;
    for (int32_t i = 0; i < n; ++i) {
      d->adj_start[i] = acc;
      acc += d->adj_len[i];
      d->adj_len[i] = 0;
    }
  }
  for (int32_t i = 0; i < n; ++i) { /* sort each list (short: a body's neighbours), drop repeats */
    if (d->adj_len[i] < 2) continue;  /* nothing to sort (and adj is NULL while no edge was ever held) */
    int32_t* a = d->adj + d->adj_start[i];
    int32_t len = d->adj_len[i], u = 0;
    for (int32_t k = 1; k < len; ++k) {
      int32_t v = a[k], q = k;
      while (q > 0 && a[q - 1] > v) a[q] = a[q - 1], --q;
      a[q] = v;
    }
    for (int32_t k = 0; k < len; ++k)
      if (u == 0 || a[k] != a[u - 1]) a[u++] = a[k];
    d->adj_len[i] = u;
  }
}

/* Lower degree first, then lower slot. */
static int before(const tb_mujoco_data* d, int32_t a, int32_t b) {
  return d->adj_len[a] != d->adj_len[b] ? d->adj_len[a] < d->adj_len[b] : a < b;
}

/* Breadth-first from root into q (marked with stamp mark); with cm, each body's new neighbours
 * enter in Cuthill-McKee order (lower degree first). Returns the count; *last_level is the
 * position in q where the deepest level starts, *levels the number of levels. */
static int32_t bfs(tb_mujoco_data* d, int32_t root, int32_t* q, int32_t mark, int cm, int32_t* last_level, int32_t* levels) {
  int32_t head = 0, tail = 0, level_end = 1;
  q[tail++] = root;
  d->stamp[root] = mark;
  *last_level = 0;
  *levels = 1;
  while (head < tail) {
    if (head == level_end) { /* a new level starts */
      *last_level = head;
      ++*levels;
      level_end = tail;
    }
    int32_t u = q[head++], first = tail;
    if (d->adj_len[u] == 0) continue; /* no neighbour (adj may be NULL) */
    const int32_t* a = d->adj + d->adj_start[u];
    for (int32_t k = 0; k < d->adj_len[u]; ++k) {
      int32_t v = a[k];
      if (d->stamp[v] == mark) continue;
      d->stamp[v] = mark;
      q[tail] = v;
      if (cm) { /* insertion by (degree, slot) among this body's new neighbours */
        int32_t p = tail;
        while (p > first && before(d, v, q[p - 1])) q[p] = q[p - 1], --p;
        q[p] = v;
      }
      ++tail;
    }
  }
  return tail;
}

/* The island of root in reverse Cuthill-McKee order into q; returns its body count. */
static int32_t island_order(tb_mujoco_data* d, int32_t root, int32_t* q, int32_t* mark) {
  int32_t last, levels, best_levels;
  int32_t count = bfs(d, root, q, ++*mark, 0, &last, &best_levels);
  /* pseudo-peripheral start: from the lowest-degree body of the deepest level, while that deepens */
  for (int tries = 0; tries < 4 && count > 2; ++tries) {
    int32_t x = q[last];
    for (int32_t k = last + 1; k < count; ++k)
      if (before(d, q[k], x)) x = q[k];
    bfs(d, x, q, ++*mark, 0, &last, &levels);
    if (levels <= best_levels) break;
    root = x;
    best_levels = levels;
  }
  bfs(d, root, q, ++*mark, 1, &last, &levels);
  for (int32_t i = 0, j = count - 1; i < j; ++i, --j) {
    int32_t t = q[i];
    q[i] = q[j];
    q[j] = t;
  }
  return count;
}

/* The degrees of freedom: the awake dynamic bodies, island after island in reverse Cuthill-McKee
 * order, with their state. Returns their count. */
static int32_t order_bodies(tb_world* w, tb_mujoco_data* d) {
  tb_bodies* bodies = &w->bodies;
  build_graph(w, d);
  int32_t nb = 0, mark = 0;
  for (int32_t i = 0; i < bodies->count; ++i) d->stamp[i] = 0, d->dof_of_slot[i] = -1;
  for (int32_t i = 0; i < bodies->count; ++i)
    if (tb_body_awake_dynamic(bodies, i) && d->stamp[i] == 0) nb += island_order(d, i, d->order + nb, &mark);
  for (int32_t k = 0; k < nb; ++k) {
    int32_t i = d->order[k];
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
  return nb;
}

/* Unconstrained accelerations a₀ = M⁻¹(m g − ω × Iω) and the scale 1/trace(M). */
static void free_accelerations(const tb_world* w, tb_mujoco_data* d) {
  int32_t nb = d->body_count;
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

}

/* A side of a contact: its centre of mass and, kinematic, its velocity and angular velocity (world). */
typedef struct side_motion {
  int kin;
  double x[3], v[3], w[3];
} side_motion;

static void side_motion_of(const tb_bodies* bodies, int32_t sl, side_motion* s) {
  s->kin = bodies->f.body_type[sl] == TB_BODY_KINEMATIC;
  tb_vec3 c = tb_transform_point(tb_body_pose(bodies, sl), bodies->local_center[sl]);
  s->x[0] = c.x, s->x[1] = c.y, s->x[2] = c.z;
  for (int u = 0; u < 3; ++u) {
    s->v[u] = s->kin ? bodies->f.linear_velocity[3 * sl + u] : 0.0;
    s->w[u] = s->kin ? bodies->f.angular_velocity[3 * sl + u] : 0.0;
  }
}

void tb_mj_row_finish(tb_mujoco_data* d, tb_mj_row* r, double vk, double R, double B, double bias) {
  int32_t a = r->a, b = r->b;
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
  r->R = R;
  r->D = 1.0 / r->R;
  r->aref = -B * vel + bias;
  r->AR = r->R + (a >= 0 ? dot(r->ja, r->ma, 6) : 0.0) + (b >= 0 ? dot(r->jb, r->mb, 6) : 0.0);
}

/* What contact c at manifold point mp brings to its rows (mujoco.h tb_mj_contact_in). */
static void contact_input(const tb_world* w, const tb_mujoco_data* d, const tb_mj_con* c, const tb_manifold_point* mp,
                          const tb_contact_material* mat, int gap_adhesion, double h, tb_mj_contact_in* in) {
  const tb_mujoco_params* p = &w->def.solver.mujoco;
  memset(in, 0, sizeof *in);
  in->condim = gap_adhesion ? 1 : mat->condim; /* in the gap only the normal row (no far-field friction) */
  in->cone = p->cone;
  memcpy(in->friction, c->friction, sizeof in->friction);
  in->r = mp->separation;
  for (int s = 0; s < 2; ++s) {
    int32_t dk = s == 0 ? c->a : c->b;
    if (dk < 0) continue;
    const tb_mj_body* bb = &d->bodies[dk];
    in->tran += bb->inv_mass;
    int32_t sl = bb->slot;
    const tb_mat3* ii = &w->bodies.inv_inertia_local[sl];
    in->rot += ((double)ii->cx.x + ii->cy.y + ii->cz.z) / 3.0;
  }
  memcpy(in->solref, mat->solref, sizeof in->solref);
  memcpy(in->solreffriction, mat->solref_friction, sizeof in->solreffriction); /* (0, 0): solref */
  memcpy(in->solimp, mat->solimp, sizeof in->solimp);
  in->adhesion = mat->adhesion;
  in->impratio = p->impratio;
  in->h = h;
  in->refsafe = p->refsafe;
}

/* The rows of contact c (index nc, first row c->adr) at point pt in the contact frame, and its
 * adhesion's passive force in a₀. */
static void point_rows(tb_mujoco_data* d, const tb_mj_con* c, int32_t nc, const double frame[3][3], const double pt[3],
                       const side_motion sm[2]) {
  int32_t a = c->a, b = c->b;
  /* the six frame Jacobians of each side and the kinematic sides' frame velocities */
  double fja[6][6], fjb[6][6], vkin[6];
  for (int q = 0; q < 6; ++q) {
    frame_jac(frame, q, pt, a >= 0 ? d->bodies[a].x : sm[0].x, -1.0, fja[q]);
    frame_jac(frame, q, pt, b >= 0 ? d->bodies[b].x : sm[1].x, 1.0, fjb[q]);
    vkin[q] = 0.0;
    for (int s = 0; s < 2; ++s) {
      if (!sm[s].kin) continue;
      double jk[6];
      frame_jac(frame, q, pt, sm[s].x, s == 0 ? -1.0 : 1.0, jk);
      vkin[q] += dot(jk, sm[s].v, 3) + dot(jk + 3, sm[s].w, 3);
    }
  }
  for (int q = 0; q < c->rows.count; ++q) {
    tb_mj_row* r = &d->rows[c->adr + q];
    memset(r, 0, sizeof *r);
    r->a = a, r->b = b, r->contact = nc;
    double vk = 0.0;
    for (int e = 0; e < 6; ++e) {
      double cf = c->rows.coef[q][e];
      if (cf == 0.0) continue;
      for (int i = 0; i < 6; ++i) r->ja[i] += cf * fja[e][i], r->jb[i] += cf * fjb[e][i];
      vk += cf * vkin[e];
    }
    tb_mj_row_finish(d, r, vk, c->rows.R[q], c->rows.B[q], c->rows.bias[q]);
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
}

/* The rows of every active point (and gap point with adhesion) of manifold m, appended. */
static tb_status manifold_rows(tb_world* w, tb_mujoco_data* d, int32_t m, double h) {
  const tb_manifold* mf = &w->manifolds[m];
  const tb_shapes* shapes = &w->shapes;
  int32_t bs0 = shapes->body[w->pairs[m].shape0], bs1 = shapes->body[w->pairs[m].shape1];
  int32_t a = d->dof_of_slot[bs0], b = d->dof_of_slot[bs1];
  const tb_contact_material* mat = tb_pair_material(w, m);
  tb_vec3 t0, t1;
  tb_basis(mf->normal, &t0, &t1);
  const double frame[3][3] = {{mf->normal.x, mf->normal.y, mf->normal.z}, {t0.x, t0.y, t0.z}, {t1.x, t1.y, t1.z}};
  side_motion sm[2];
  side_motion_of(&w->bodies, bs0, &sm[0]);
  side_motion_of(&w->bodies, bs1, &sm[1]);
  for (int32_t j = 0; j < mf->point_count; ++j) {
    const tb_manifold_point* mp = &mf->points[j];
    int gap_adhesion = !mp->active && mp->excluded && mat->adhesion > 0.0f;
    if (!mp->active && !gap_adhesion) continue;
    int32_t nc = d->con_count;
    tb_mj_con* c = &d->cons[nc];
    int32_t k = w->manifold_contact[m] < 0 ? -1 : w->manifold_contact[m] + j;
    c->store = k >= 0 && k < w->contacts.count ? k : -1;
    c->joint = -1;
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
    contact_input(w, d, c, mp, mat, gap_adhesion, h, &in);
    tb_mj_contact_rows(&in, &c->rows);
    c->adr = d->row_count;
    double pt[3] = {0.5 * ((double)mp->point0.x + mp->point1.x), 0.5 * ((double)mp->point0.y + mp->point1.y),
                    0.5 * ((double)mp->point0.z + mp->point1.z)};
    point_rows(d, c, nc, frame, pt, sm);
    d->row_count += c->rows.count;
    d->con_count++;
  }
  return TB_OK;
}

tb_status tb_mj_setup(tb_world* w, const tb_step_context* step) {
  tb_status st = reserve(w);
  if (st != TB_OK) return st;
  tb_mujoco_data* d = w->mujoco;
  d->body_count = order_bodies(w, d);
  free_accelerations(w, d);
  /* rows in MuJoCo's order: equality, limits, contacts */
  const double h = step->dt;
  d->con_count = d->row_count = 0;
  tb_mj_joint_prepare(w, d, h);
  tb_mj_joint_rows(w, d, h, 0);
  tb_mj_joint_rows(w, d, h, 1);
  for (int32_t m = 0; m < w->pair_count; ++m) {
    if (w->pairs[m].points == 0) continue;
    if ((st = manifold_rows(w, d, m, h)) != TB_OK) return st;
  }
  mul_m(d, d->a0, d->ma0);
  return TB_OK;
}
