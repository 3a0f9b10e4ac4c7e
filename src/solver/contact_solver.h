/* Contact constraints solved four manifolds at a time with the SIMD header (internal).
 * A wide constraint holds up to four manifolds (lanes) that share no dynamic body, each with
 * up to four points; lanes without a manifold have zero masses and do nothing. */
#ifndef TB_CONTACT_SOLVER_H
#define TB_CONTACT_SOLVER_H

#include "../core/math.h"
#include "../core/simd.h"

#define TB_LANES 4

typedef struct tb_body_state {
  tb_vec3 v;      /* linear velocity of the centre of mass, m/s */
  tb_vec3 w;      /* angular velocity, rad/s */
  tb_vec3 dp;     /* displacement of the centre of mass since the step began, m */
  tb_vec3 dtheta; /* rotation vector accumulated since the step began (w·h summed), rad */
} tb_body_state;

typedef struct tb_body_sim {
  float inv_mass;     /* 1/kg; 0 for kinematic */
  float inv_i[6];     /* world inverse inertia xx, yy, zz, xy, xz, yz, 1/(kg·m²), fixed over a step */
  tb_vec3 center;     /* world centre of mass at the start of the step, m */
  tb_quat q;          /* rotation, integrated each substep */
  int32_t slot;       /* body slot */
  float linear_damping, angular_damping; /* 1/s */
} tb_body_sim;

typedef struct tb_contact_point_wide {
  float ca_n[3][TB_LANES], cb_n[3][TB_LANES];   /* rA × n, rB × n (m) */
  float ca_t0[3][TB_LANES], cb_t0[3][TB_LANES];
  float ca_t1[3][TB_LANES], cb_t1[3][TB_LANES];
  float base_separation[TB_LANES];              /* m, separation minus the anchors' part */
  float mass_n[TB_LANES], mass_t0[TB_LANES], mass_t1[TB_LANES]; /* effective masses, kg */
  float lambda_n[TB_LANES], lambda_t0[TB_LANES], lambda_t1[TB_LANES]; /* N·s this substep */
  float total_n[TB_LANES], total_t0[TB_LANES], total_t1[TB_LANES];    /* N·s over the step */
  float max_n[TB_LANES];                        /* largest normal impulse of any substep */
  float relative_velocity[TB_LANES];            /* normal approach speed before the step, m/s */
} tb_contact_point_wide;

typedef struct tb_contact_wide {
  int32_t body_a[TB_LANES], body_b[TB_LANES];   /* solver body index, -1 = static */
  int32_t manifold[TB_LANES];                   /* manifold index, -1 = empty lane */
  int32_t point_count;                          /* max over lanes */
  float n[3][TB_LANES], t0[3][TB_LANES], t1[3][TB_LANES];
  float inv_mass_a[TB_LANES], inv_mass_b[TB_LANES];
  float ia[6][TB_LANES], ib[6][TB_LANES];
  float friction[TB_LANES], restitution[TB_LANES];
  tb_contact_point_wide p[4];
} tb_contact_wide;

typedef struct tb_softness {
  float bias_rate;     /* 1/s */
  float mass_scale;    /* 1 */
  float impulse_scale; /* 1 */
} tb_softness;

typedef struct tb_contact_solve_params {
  float inv_h;             /* 1/substep, 1/s */
  tb_softness soft;
  float max_bias_velocity; /* m/s */
  float linear_slop;       /* m */
  float bounce_threshold;  /* m/s */
} tb_contact_solve_params;

tb_softness tb_make_softness(float hertz, float damping_ratio, float h);
void tb_contact_warm_start(tb_contact_wide* c, tb_body_state* states);
void tb_contact_solve(tb_contact_wide* c, tb_body_state* states, const tb_contact_solve_params* p, int use_bias);
void tb_contact_restitution(tb_contact_wide* c, tb_body_state* states, const tb_contact_solve_params* p);
/* Adds each point's impulse of this substep to the step totals. */
void tb_contact_accumulate(tb_contact_wide* c);

#endif
