/* Newton solvers (the `newton-xpbd` and `newton-semi` presets): shared body and contact setup,
 * the rigid-body predictor, per-body contact totals (internal).
 *
 * Bodies: the dynamic and kinematic bodies of the world in slot order. Contacts: the manifold
 * points of the pairs in pair order whose `active` flag is set (detected-only points get no row).
 * Everything runs serially in that fixed order, so results are bitwise identical for any thread
 * count. Arrays grow at the start of solve() only. */
#ifndef TB_NEWTON_H
#define TB_NEWTON_H

#include "../model/joint_rows.h"
#include "../world/world.h"

/* One solver body (index k). Positions are of the centre of mass, world. */
typedef struct tb_newton_body {
  int32_t slot;            /* body slot */
  int32_t dynamic;         /* 1 dynamic, 0 kinematic (prescribed velocity, zero inverse mass) */
  float inv_mass;          /* 1/kg; 0 for kinematic */
  tb_mat3 inertia;         /* body axes, about the centre of mass, kg·m² */
  tb_mat3 inv_inertia;     /* body axes, 1/(kg·m²); zero for kinematic */
  tb_vec3 x, v, w;         /* centre of mass (m), velocity (m/s), angular velocity (rad/s), world */
  tb_quat q;               /* body to world */
  tb_vec3 x0, v0, w0;      /* at the start of the step */
  tb_quat q0;
  tb_vec3 v_pred, w_pred;  /* after the prediction, before the contact corrections (XPBD) */
  tb_vec3 dlin, dang;      /* XPBD: linear (N·s) and angular (N·m·s) impulse accumulated in one iteration;
                            * penalty: contact force (N) and torque about the COM (N·m) of one substep */
  tb_vec3 sum_f, sum_t;    /* step totals: impulse (N·s) and angular impulse about the COM (N·m·s) */
  int32_t count;           /* XPBD: active contacts of this iteration */
  tb_mat3 inv_inertia_world; /* XPBD: world inverse inertia at this iteration's pose (the poses change
                              * only when the iteration's deltas are applied), 1/(kg·m²) */
} tb_newton_body;

/* One contact row. Anchors are body-frame offsets from the centre of mass (static side: world). */
typedef struct tb_newton_contact {
  int32_t pair, point;     /* manifold and point index */
  int32_t store;           /* contact-store index, -1 when the store overflowed */
  int32_t a, b;            /* solver body of shape0 / shape1, -1 static */
  tb_vec3 la, lb;          /* anchors: body frame from the COM (a, b >= 0) or world (static) */
  tb_vec3 ca, cb;          /* core anchors (Newton contact_point0/1): the surface points moved into
                            * the shape by its thickness, same frames as la, lb; a sphere's or
                            * capsule's core point stays on its centre or segment as it rotates */
  float ta, tb;            /* m: thickness of shape0 / shape1 (newton-e3 §2): sphere or capsule radius
                            * (else 0) plus the shape's margin (Newton rule; other rules: half the
                            * record's margin sum each), so d = nᵀ(c1 − c0) − (ta + tb) */
  tb_vec3 n;               /* world unit normal from shape0 to shape1 */
  float mu, mu_torsional, mu_rolling, restitution; /* combined material (1, m, m, 1) */
  float ke, kd, kf, ka;    /* penalty parameters after fallback and overrides */
  /* XPBD readback accumulators (already multiplied by the weighting scale of each iteration) */
  float pn;                /* N·s, normal impulse on body1 along +n */
  float pn_raw;            /* N·s, unweighted kernel values p_n summed over the iterations */
  tb_vec3 f1;              /* N·s, total impulse on body1 (normal and friction), world */
  tb_vec3 t0c;             /* N·m·s, angular impulse on body0 about its COM, world */
  float scale;             /* weighting factor of the last iteration the contact was active in */
  int32_t marked;          /* 1 when any iteration corrected it (d < 0) */
  float depth;             /* m: separation at the final poses (restitution row choice) */
  float separation;        /* XPBD: m, the separation at this iteration's poses */
  tb_vec3 core_a, core_b;  /* XPBD: the core anchors in the world at this iteration's poses, m */
} tb_newton_contact;

/* What the penalty solver's checks before the step know of one solver body (solver_penalty.c). */
typedef struct tb_penalty_check {
  int32_t falls;           /* 1: gravity is on and no joint holds the body, so it will land */
  float sum_ke;            /* N/m: Σke over every contact row of the body */
  float sum_kd;            /* N·s/m: Σkd over every contact row of the body */
  float max_ke;            /* N/m: the stiffest ke of its rows (0 without rows) */
  float sum_kf;            /* N·s/m: Σkf over its penetrating rows with friction (μ > 0) */
} tb_penalty_check;

typedef struct tb_newton_data {
  tb_newton_body* bodies;
  tb_penalty_check* penalty_check; /* per solver body, same capacity */
  int32_t body_capacity, body_count;
  tb_newton_contact* contacts;
  int32_t contact_capacity, contact_count;
  int32_t* body_of_slot;   /* per body slot: solver index or -1 */
  int32_t slot_capacity;
  tb_vec3* rest_dv;        /* XPBD restitution: per body velocity delta sums */
  tb_vec3* rest_dw;
  int32_t* rest_count;     /* manifolds per body in one restitution iteration */
  int32_t* rest_order;     /* per contact row: rows sorted by body pair (restitution manifolds) */
  int32_t* rest_tmp;       /* merge-sort scratch, same size */
} tb_newton_data;

void tb_newton_destroy(tb_world* w);

/* Grows a group of arrays sharing one capacity to at least n elements (doubling); 0 when out of memory. */
int tb_newton_grow(const tb_array_ref* arrays, int count, int32_t* cap, int32_t n);
/* Grows the scratch and fills bodies (state at the start of the step) and contact rows. */
tb_status tb_newton_setup(tb_world* w, const char* fn);
/* Rigid-body predictor (Newton integrate_bodies) over h with force f (N) and torque t (N·m,
 * world, about the COM): v += h(f/m + g); x += h v; angular in body axes with the gyroscopic
 * term, ω_b += h I⁻¹(τ_b − ω_b × I ω_b), the Coriolis part scaled back to the kinetic energy of
 * ω_b (Newton's explicit step gains ½h²|I⁻¹(ω_b × Iω_b)|²_I per step and diverges for a fast
 * tumbling thin body); q advanced by ω and renormalised; then ω *= 1 − γh
 * (γ = angular damping, 1/s) and v *= 1 − c·h (linear damping c, 1/s). Kinematic bodies move
 * with their prescribed velocity. */
void tb_newton_predict(tb_world* w, tb_newton_body* b, tb_vec3 f, tb_vec3 t, float h);
/* World point of an anchor of body k (static: the anchor itself); inline: the XPBD iterations
 * call it four times a row. */
static inline tb_vec3 tb_newton_anchor(const tb_newton_data* d, int32_t k, tb_vec3 local) {
  if (k < 0) return local;
  return tb_add(d->bodies[k].x, tb_rotate(d->bodies[k].q, local));
}
/* Inverse inertia in world axes of solver body k (zero for static and kinematic). */
tb_mat3 tb_newton_inv_inertia_world(const tb_newton_data* d, int32_t k);
/* Writes poses and velocities back into the body fields, and the per-body contact totals
 * (sum_f, sum_t divided by h). */
void tb_newton_finish(tb_world* w, float h);
/* Separation (m) of contact c at the current poses (Newton contact_surface_separation):
 * nᵀ(c1 − c0) − (t0 + t1) from the core anchors and thicknesses; equals nᵀ(p1 − p0) of the
 * surface points at the poses of collide(). */
float tb_newton_separation(const tb_newton_data* d, const tb_newton_contact* c);
/* The same from the core anchors in the world, core_a = tb_newton_anchor(d, c->a, c->ca) and
 * core_b likewise (m). */
static inline float tb_newton_separation_at(const tb_newton_contact* c, tb_vec3 core_a, tb_vec3 core_b) {
  return tb_dot(c->n, tb_sub(core_b, core_a)) - (c->ta + c->tb);
}
/* Deepest penetration (m, >= 0) over the contact rows at the current poses. */
float tb_newton_max_penetration(const tb_newton_data* d);

/* Joints (joint_newton.c): clears the joints' step accumulators, 1 when any joint exists; XPBD
 * corrections of one iteration into the bodies' dlin/dang (cleared first); penalty forces of one
 * substep added to dlin/dang; the body_parent_f readback into the joint store. */
int tb_newton_joints_begin(tb_world* w);
/* The rows of joint slot s at the bodies' current poses (angular parts about each centre of mass,
 * a world, static or sleeping side about its frame origin) with the solver bodies of its sides
 * (-1 for those); 0 when it is not solved (broken, or nothing on it can move). */
int32_t tb_newton_joint_rows(const tb_world* w, const tb_newton_data* d, int32_t s, int32_t* a, int32_t* b, tb_joint_row* rows);
void tb_newton_joints_xpbd(tb_world* w, tb_newton_data* d, float h);
void tb_newton_joints_penalty(tb_world* w, tb_newton_data* d, float hs);
void tb_newton_joints_readback(tb_world* w, const tb_newton_data* d, float h);

#endif
