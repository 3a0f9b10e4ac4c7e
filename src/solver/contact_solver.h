/* PhysX-style contact rows (PGS and TGS) solved four manifolds at a time with the SIMD header
 * (internal). A wide constraint holds up to four manifolds (lanes) that share no dynamic body.
 * Each manifold is one friction patch: up to four normal rows (one per active point) and at most
 * two friction anchors with two tangent rows each. Lanes without a manifold have zero masses and
 * do nothing. Seed: physx-e3 §4–6. */
#ifndef TB_CONTACT_SOLVER_H
#define TB_CONTACT_SOLVER_H

#include "../core/math.h"
#include "../core/simd.h"

#define TB_MAX_ANCHORS 2
#define TB_NO_RESTITUTION (-1e30f) /* restitution target of a point without a bounce, m/s */

/* What the wide rows read and write of a body, one 64-byte cache line each (the array is 64-byte
 * aligned): the 12 floats v, w, dp, dtheta are read as three 4-float rows by the gather, and no
 * two bodies share a line, so two threads solving different bodies never write the same line. */
typedef struct tb_body_state {
  tb_vec3 v;      /* linear velocity of the centre of mass, m/s */
  tb_vec3 w;      /* angular velocity, rad/s */
  tb_vec3 dp;     /* displacement of the centre of mass since the step began, m */
  tb_vec3 dtheta; /* rotation vector accumulated since the step began (w·h summed), rad */
  float pad[4];    /* to 64 bytes */
} tb_body_state;

/* A solver body's fixed data for a step. Aligned to a 64-byte line, so that what the rows'
 * preparation reads of it at random (the first 52 bytes: masses, centre, iteration counts, cap)
 * is one line; the rest is read in body order. */
typedef struct tb_body_sim {
  _Alignas(64) float inv_mass; /* 1/kg; 0 for kinematic */
  float inv_i[6];     /* world inverse inertia xx, yy, zz, xy, xz, yz, 1/(kg·m²), fixed over a step */
  tb_vec3 center;     /* world centre of mass at the start of the step, m */
  int32_t position_iterations;  /* of the body's island (max of its bodies' requests) */
  int32_t velocity_iterations;  /* of the body's island, >= 1 */
  float max_contact_impulse;    /* N·s per contact point, INFINITY = none (the body's) */
  int32_t island;               /* root solver index of the body's island */
  int32_t slot;       /* body slot */
  tb_quat q;          /* rotation, integrated over the step */
  float linear_damping, angular_damping; /* 1/s */
  tb_vec3 mv, mw;               /* PGS motion velocities saved after the position iterations (m/s, rad/s) */
} tb_body_sim;

typedef struct tb_contact_point_wide {
  float ca_n[3][TB_LANES], cb_n[3][TB_LANES];   /* rA × n, rB × n (m) */
  float ia_n[3][TB_LANES], ib_n[3][TB_LANES];   /* IA⁻¹(rA × n), IB⁻¹(rB × n), 1/(kg·m), fixed over a step */
  /* from here on the fields are written per lane and start from zero (the arms above are
   * written whole: solver_physx_rows.c) */
  float base_separation[TB_LANES];              /* m, separation at the start of the step */
  float vel_mul[TB_LANES];  /* rigid: 1/w (kg); compliant: x·a; 0 = no row (inactive point) */
  float imp_mul[TB_LANES];  /* rigid: 1; compliant: 1 − x (PhysX impulse multiplier) */
  float compliant_rate[TB_LANES]; /* 1/s, compliant: k/(d + h·k), target −rate·separation */
  float restitution_target[TB_LANES]; /* m/s: −e·vn before the solve, TB_NO_RESTITUTION none */
  float restitution_biased[TB_LANES];  /* m/s: the same less the start gap / h (position iterations) */
  float lambda_n[TB_LANES];             /* N·s accumulated over the step */
} tb_contact_point_wide;

typedef struct tb_anchor_wide {
  _Alignas(64) float ca_t0[3][TB_LANES];
  float cb_t0[3][TB_LANES];
  float ca_t1[3][TB_LANES], cb_t1[3][TB_LANES];
  float ia_t0[3][TB_LANES], ib_t0[3][TB_LANES]; /* IA⁻¹(rA × t0), IB⁻¹(rB × t0), 1/(kg·m) */
  float ia_t1[3][TB_LANES], ib_t1[3][TB_LANES];
  float mass_t0[TB_LANES], mass_t1[TB_LANES];   /* kg; 0 = no anchor in this lane */
  /* from here to error_t1 the fields are written per lane and start from zero (solver_physx_rows.c) */
  float lambda_t0[TB_LANES], lambda_t1[TB_LANES]; /* N·s accumulated over the step */
  float sliding[TB_LANES];  /* 1 when the last friction pass projected it to the dynamic bound */
  float error_t0[TB_LANES], error_t1[TB_LANES]; /* m: strong friction drift of the kept anchor
                                                 * (B's anchor point − A's) along t0, t1 */
} tb_anchor_wide;

typedef struct tb_contact_wide {
  /* where the scatter writes each lane's side: its dynamic body's state, else (static, kinematic,
   * empty lane) the wide's own sink, which nothing reads: no branch per lane, and the sink's line
   * is the wide's, which one thread holds while it solves the wide */
  float* out_a[TB_LANES];
  float* out_b[TB_LANES];
  float sink[8];
  int32_t state_a[TB_LANES], state_b[TB_LANES]; /* body state read by the gather: the solver body, static → the zero state */
  int32_t point_count;                          /* max over lanes */
  int32_t plain;                                /* 1: no lane has a spring or a finite impulse cap */
  int32_t anchor_count;                         /* max over lanes */
  int32_t unused;                               /* the rows of four floats after it start on 16 bytes */
  float position_iterations[TB_LANES], velocity_iterations[TB_LANES]; /* of the lane's island (whole numbers;
                                                                         0 in an empty lane) */
  float n[3][TB_LANES], t0[3][TB_LANES], t1[3][TB_LANES];
  float inv_mass_a[TB_LANES], inv_mass_b[TB_LANES];
  float mu_static[TB_LANES], mu_dynamic[TB_LANES]; /* 1 */
  float friction_scale[TB_LANES];  /* 1 / anchors: each anchor's share of the patch normal impulse */
  float max_impulse[TB_LANES];     /* N·s per point (PhysX maxContactImpulse) */
  float pen_rate[TB_LANES];        /* 1/s: bias_coefficient / h_iteration for penetration */
  float spec_rate[TB_LANES];       /* 1/s: 1 / h_iteration, closing a gap within one iteration step */
  float max_depenetration[TB_LANES]; /* m/s */
  float compliant[TB_LANES];       /* 1 for a spring contact, else 0 */
  float anchor_bias[TB_LANES];     /* 1/s: drift correction rate of kept anchors (0 for fresh ones) */
  /* the rows, in the step's pools in wide order (solver_physx.c build_wides): as many points as
   * the lanes' point class holds (1 to 4; point_count of them used) and as many anchors as that
   * allows (1 or 2; anchor_count used). A wide of one-point patches, most of a pile's, is then
   * streamed without the three points and the anchor it never reads (perf36) */
  _Alignas(16) tb_contact_point_wide* p;
  tb_anchor_wide* a;
} tb_contact_wide;

/* One pass over a wide: which lanes take part and what the rows do in it. */
typedef struct tb_contact_pass {
  tb_f4 active;             /* lane mask: the lane's island runs this iteration */
  tb_f4 friction;           /* lane mask: its friction rows run too (within active) */
  int biased;               /* position iterations: penetration bias; velocity iterations: none */
  int skip_compliant;       /* TGS velocity iterations: spring rows do not act again */
  int friction_first;       /* TGS: friction rows before the normal rows */
  int pair_clamp;           /* TGS: an anchor's two tangent impulses clamped together (disc);
                             * PGS: each tangent row against the static then the dynamic bound */
} tb_contact_pass;

/* The hot loop: every normal row then every friction row of the wide's lanes, once. states holds
 * the solver bodies and the state of zeros that state_a / state_b name for static lanes. */
void tb_contact_solve(tb_contact_wide* c, tb_body_state* states, const tb_contact_pass* pass);

/* Residuals of the wide's normal rows after the solve, from the final velocities and step
 * displacements: raises *residual_p to the deepest penetration left (m) and *residual_v to the
 * largest velocity error of a rigid row against its rebound target (m/s; a row at its impulse cap
 * does not count; below its cap a row with impulse counts |vn − target|, one without counts the
 * approach speed only). Rows without a row multiplier (inactive points, empty lanes) do not count;
 * NaN never raises a maximum. */
void tb_contact_residuals(const tb_contact_wide* c, const tb_body_state* states, float* residual_v, float* residual_p);

#endif
