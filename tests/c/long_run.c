/* Long run: the 1000-body pile of the JS tests (tests/js/helpers.mjs buildPile: spheres r 0.45,
 * boxes 0.4 × 0.35 × 0.3, capsules r 0.25 half-height 0.3, density 500, 6 × 6 columns 1.2 m
 * apart, 28 layers, on a plane inside four plane walls whose solid side is outside the container)
 * stepped 5000 times at 1/60 s in every preset. After every step:
 * - every pose and velocity finite, no body outside the walls or above the pile;
 * - no body fell through: no centre of mass below the floor plane (y < 0);
 * - the worst surface depth (a body's lowest surface point below the floor, over every body and
 *   step) within the preset's band: the worst depth docs/presets.md gives for that preset at its
 *   defaults plus a margin (BAND below, each with where its number comes from).
 * A preset may refuse the scene before its first step with a named reason, never after.
 *
 *   long_run [steps] [bodies] [preset,...]   (default 5000, 1000, every preset; `make test-long`,
 *                                            LONG_STEPS=n)
 *
 * `make test` (test-c) runs `long_run 300 108`: the lowest 3 layers, about 17 s of CPU natively,
 * with the same bands (the taller pile sets them).
 *
 * Last full run (`make test-long`, natively, one process per preset group on a loaded machine):
 *   1000 bodies, 5000 steps of 1/60 s; depth = worst lowest surface point below the floor (m), band = allowed
 *   preset physx-pgs    steps 5000/5000 depth 0.1630 m (step 2139, band 0.20) fell through 0 non-finite 0 escaped 0 refused 0
 *   preset physx-tgs    steps 5000/5000 depth 0.0872 m (step 128, band 0.12) fell through 0 non-finite 0 escaped 0 refused 0
 *                       (both with persistent manifolds, their default. PGS: 0.1253 m at step 102
 *                       until step 2000; the pile still moves then (no body asleep) and its deepest
 *                       body sits 0.07-0.09 m deep, 0.057 m without the cache, with one-step spikes
 *                       such as this one. Without the cache 0.1606 m at step 103, 0.0844 m at step 124)
 *   preset newton-semi  refused before its first step: solve: penalty spring too soft for body 5: m·|g|/(rows·ke) =
 *                       191 kg·9.81 m/s²/(1·2500 N/m) = 0.749 m deep at rest > its half size 0.45 m, it sinks
 *                       through; raise ke (solver.newton.ke, JS ke) to >= 4161 N/m; step not taken
 *   preset newton-xpbd  steps 5000/5000 depth 0.0186 m (band 0.05) fell through 0 non-finite 0 escaped 0 refused 0
 *                       (its default 10 substeps; before them, at 1 substep: depth 0.8099 m at step 160,
 *                       77 fell through, the first centre below the floor at step 97)
 *   preset mujoco       steps 5000/5000 depth 0.1224 m (step 81, band 0.15) fell through 0 non-finite 0 escaped 0 refused 0 (3723 s of CPU)
 *   preset genesis      steps 5000/5000 depth 0.1224 m (step 81, band 0.15) fell through 0 non-finite 0 escaped 0 refused 0 (about 3780 s of CPU)
 *                       (0.8-0.9 s of CPU per step once the pile has landed, about 62 min of CPU per run)
 *   preset kamino       steps 5000/5000 depth 0.0125 m (step 293, band 0.05) fell through 0 non-finite 0 escaped 0 refused 0 (2578 s of CPU)
 *                       (run alone at commit b50cacb, niced on a quiet machine; 0.52-0.55 s of CPU per step once
 *                       landed; its bits are those of every later commit: tests/c/test_trajectory.c)
 * The shortened run of `make test` (300 108): depth 0.0292 (pgs), 0.0277 (tgs), 0.0051 (xpbd, 10 substeps),
 * 0.0635 (mujoco, genesis), 0.0059 (kamino) m, newton-semi refused; about 17 s of CPU, 10-11 s of it
 * kamino's (24 s and 18 s before kamino's four-contact operator pass).
 *
 * Findings (the buildPile walls are correct; 300 steps, natively, unless said):
 * - newton-xpbd: passes at its default of 10 substeps (solver.newton.xpbd_substeps, Newton's
 *   examples: sim_substeps = 10 with collide() inside the substep loop, example_pyramid.py):
 *   worst 0.019 m below the floor (step 122 of 300). At one substep per step (the former
 *   behaviour) boxes at the bottom reached 0.5-0.9 m below the floor and stayed there (worst
 *   0.810 m at step 160 of 300, a box centre at y = -0.43 m). The kernel is Newton's (solve_body_
 *   contact_positions / apply_body_deltas: Jacobi rows, each body's correction divided by its
 *   active row count N, 2 iterations, velocities updated by every correction); its stack is a
 *   soft spring whose depth scales with the substep squared: about
 *   L·g·hs²·N/(ω·iterations·rows) for L layers (a column of ten cubes: 0.249 m at hs = h, 2.3 mm
 *   at h/10, tests/c/test_newton.c). Substeps on one collide diverge (a body escaped at step 23
 *   at 10 substeps: contacts found a step late are deep, and each correction becomes a velocity
 *   (−d)·ω/hs), so each substep collides again, as Newton's examples do.
 * - physx-pgs / -tgs: 0.161 / 0.084 m below the floor at worst (steps 103 / 124, while the upper
 *   layers land at up to 22 m/s), 0.094 / 0.030 m at step 300 (pile nearly at rest, 7 / 0 bodies
 *   deeper than 5 cm). The floor contacts are not lost: the deepest body keeps 1-4 floor points
 *   (a box: the points of its deepest vertices, separation = its lowest surface point), each with
 *   a normal impulse of 800-2000 N·s per step; the store holds ~4000 of 16000 contacts and ~6500
 *   pairs (nothing dropped), max_points_per_pair = 4 changes nothing, no body sleeps before step
 *   170 and sleep off gives the same trajectory, the mass ratio is 191 kg (sphere) / 92 kg
 *   (capsule) = 2.1, the body max contact impulse is unlimited (PhysX 1e32). The deepest bodies
 *   are bottom-layer bodies pushed down by 2-4 neighbours, themselves penetrating 1-8 cm. Until
 *   the PhysX presets took PhysX's unlimited depenetration speed (maxPenBias = -1e32,
 *   PxvDynamics.h) the cap was 3 m/s, which binds from a penetration of 3·h/0.8 = 6.25 cm: then
 *   0.316 / 0.349 m (steps 135 / 123), 0.234 / 0.236 m at step 300. What remains is PhysX's
 *   solver at its defaults, 4 position iterations and 1 velocity iteration for one 1000-body
 *   island whose load path is 28 contacts deep, with no warm start (the row formulas are those of
 *   DyContactPrepShared.h constructContactConstraint: bias 0.8·d/h in penetration, d/h for a
 *   gap, no bias in the velocity iterations). Worst / step-300 depth against the position
 *   iterations: TGS 4: 0.084 / 0.030, 8: 0.047 / 0.011, 16: 0.022 / 0.002, 32: 0.013 / 0.001 m;
 *   PGS 4: 0.161 / 0.094, 8: 0.146 / 0.090, 16: 0.113 / 0.046, 32: 0.111 / 0.037, 64: 0.104 /
 *   0.064 m (PGS does not converge on the stack: its transient at landing stays near 0.1 m).
 *   4 velocity iterations or friction in every iteration change the depth by < 1 cm.
 *   Not a PGS fault found: on closed-form scenes PGS converges as Gauss–Seidel should (a column
 *   of 10 boxes at rest: worst overlap 20 / 3.7 / 0.4 mm at 4 / 16 / 64 position iterations,
 *   tests/c/test_physx.c; 28 boxes 1.6 mm at the floor at 64; 10 boxes with an 11th landing on
 *   them at 20 m/s 34 / 10 / 2.4 mm). The pile at rest (steps 600-900, Σv² < 7 m²/s²) keeps 8
 *   bodies 2-5 cm deep at 64 iterations, 14 at 16 (4.6 cm); with μ = 0 one (3.5 cm at 16, worst
 *   0.063 m instead of 0.113 m): friction jams the bottom layers, and without a warm start the
 *   Gauss–Seidel pass over one 1000-body frictional island stays far from converged. The
 *   kept-anchor drift corrected at 1/h (PhysX's PGS friction bias, t·error·invDt) instead of
 *   0.8/h changes nothing (0.095 / 0.061 m at steps 150 / 300, 16 iterations). Band: 0.20 / 0.12 m.
 * - newton-semi: refused before its first step. Its sphere (191 kg, r 0.45) rests m·g/ke =
 *   0.75 m deep on one row of the default ke = 2500 N/m, below its centre: the penalty solver's
 *   spring check refuses a body that sinks deeper than its smallest half size even on a flat
 *   support with every row its shape gets there (docs/presets.md).
 * - mujoco / genesis: the MuJoCo Newton solver works on the skyline Hessian M + JᵀDJ. In
 *   body-slot order a mixed pile's neighbours were far apart and the factor filled (the 250-body
 *   pile had not finished 300 steps after 2.4 min of CPU); each island is now in reverse
 *   Cuthill-McKee order (src/solver/mujoco_setup.c). At 1000 bodies the factor holds 1.29 M values
 *   by step 140 (6000 dofs, rows of about 215: the pile's width) and a step takes 10-16 Newton
 *   iterations. Each factors H again only where it has to (src/solver/mujoco_primal.c): the six
 *   rows of a body in one pass over each earlier row, in two-lane float64 (the sums of the
 *   one-row loop, bitwise); not after the last iteration; not at all when no row changed state;
 *   by rank-one updates (MuJoCo's HessianIncremental) when they cost less than the factor, which
 *   they do once a step's first iterations are past (1000-10000 rows change state in those, tens
 *   in the last ones). 250 bodies × 300 steps: 8.3 s of CPU before, 3-4 s after (mujoco and
 *   genesis), same worst depth (0.1180 m); 1000 bodies: 200 steps in 57 s instead of 165 s, steps
 *   150-200 at 0.8 s instead of 2.5 s per step (the same loaded machine).
 * - kamino: every step spends Newton's whole PADMM budget (200 iterations at its defaults: r_p,
 *   r_d, r_c within 1e-6 N·s, m/s, J, PADMMSolverConfig): on this pile the residuals stop at
 *   1e-5..1e-3 (108 bodies) and 0.05..1 (1000 bodies) after 200 iterations, in float32 as
 *   Newton's are. Each iteration solves its x-update by conjugate gradients (15-30 operator passes, each one
 *   pass over the contact rows and their bodies), so a step costs about 200 · 25 passes of ~25 ns
 *   per contact natively (~50 ns before the pass ran four contacts at a time: the same bits, the
 *   pass's double sums still contact by contact). CPU per step after landing, natively on a loaded
 *   machine: 0.035 s (108 bodies, ~490 contacts; 0.06 s before), 0.27 s (500, ~1800 at step 95,
 *   still landing; 0.47 s before; 150 steps: 28 s, 49 s before), about 1.0 s (1000, ~4500 contacts
 *   at steps 120-130, scaled from the 500-body speed-up; 1.7 s measured before). Newton's Kamino factors the Delassus matrix instead
 *   (its default linear solver LLTB, a dense blocked Cholesky per world) and, since #3779, leaves
 *   speculative contacts (d > 0) out of the solve (cull_speculative_contacts, default on); 74% of
 *   the 108-body pile's rows are speculative at the preset's 0.2 m gap. Culling them halves the 108-body
 *   run's CPU but leaves the worst depth at 0.070 m (above the 0.05 m band; not adopted).
 * Runtime natively: PGS / TGS about 9 s of CPU per 300 steps each, more on a loaded machine;
 * kamino about 10-11 s for 300 steps of 108 bodies (18 s before the four-contact pass). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "include/tribo.h"
#include "test_util.h"

#define BODIES 1000
#define LAYER 6
#define SPACING 1.2f

/* m: the worst surface depth below the floor each preset may reach: the number docs/presets.md
 * ("The long-run pile in every preset") gives for this pile at the preset's defaults, plus a
 * margin. */
static const float BAND[TB_PRESET_COUNT] = {
    [TB_PRESET_PHYSX_PGS] = 0.20f,   /* 0.161 m (4 position iterations, the landing transient) */
    [TB_PRESET_PHYSX_TGS] = 0.12f,   /* 0.084 m */
    [TB_PRESET_NEWTON_XPBD] = 0.05f, /* 0.019 m at its 10 substeps (newton-xpbd above) */
    [TB_PRESET_NEWTON_SEMI] = 0.05f, /* refused before its first step (its spheres are too heavy for ke) */
    [TB_PRESET_MUJOCO] = 0.15f,      /* 0.118 m (250 bodies, 100 steps); 0.064 m (108 bodies) */
    [TB_PRESET_KAMINO] = 0.05f,      /* 0.006 m (108 bodies) */
    [TB_PRESET_GENESIS] = 0.15f,     /* as mujoco (its solver) */
};

static const float ZERO[3] = {0, 0, 0}, ID_Q[4] = {0, 0, 0, 1};

typedef struct pile {
  tb_world_id w;
  tb_body_id ids[BODIES];
  int kind[BODIES]; /* 0 sphere, 1 box, 2 capsule */
  float half;       /* m: walls at |x|, |z| = half */
} pile;

static void axis_angle(const float axis[3], float angle, float q[4]) {
  float s = sinf(angle / 2);
  q[0] = axis[0] * s; q[1] = axis[1] * s; q[2] = axis[2] * s; q[3] = cosf(angle / 2);
}

static tb_status build(pile* p, tb_preset preset, int bodies) {
  tb_world_def def = tb_default_world_def();
  tb_preset_apply(preset, &def);
  def.thread_count = 1;
  def.body_capacity = bodies + 8;
  def.contact_capacity = 16 * bodies;
  def.pair_capacity = 16 * bodies;
  p->w = tb_world_create(&def);
  CHECK(p->w >= 0);
  tb_body_id g = tb_body_create(p->w, TB_BODY_STATIC, ZERO, ID_Q);
  float floor_plane[4] = {0, 1, 0, 0};
  tb_shape_create(p->w, g, TB_SHAPE_PLANE, floor_plane, ZERO, ID_Q, 0.6f, 0.0f, 1.0f);
  p->half = (float)LAYER * SPACING / 2 + 0.5f;
  const float walls[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  for (int i = 0; i < 4; ++i) {
    tb_body_id b = tb_body_create(p->w, TB_BODY_STATIC, ZERO, ID_Q);
    float pl[4] = {-walls[i][0], 0, -walls[i][1], -p->half}; /* solid beyond the wall: n·x <= -half */
    tb_shape_create(p->w, b, TB_SHAPE_PLANE, pl, ZERO, ID_Q, 0.6f, 0.0f, 1.0f);
  }
  const float axis[3] = {0.6f, 0.64f, 0.48f};
  for (int i = 0; i < bodies; ++i) {
    float x = (float)(i % LAYER) - (LAYER - 1) / 2.0f, z = (float)((i / LAYER) % LAYER) - (LAYER - 1) / 2.0f;
    float pos[3] = {x * SPACING, 1.0f + (float)(i / (LAYER * LAYER)) * SPACING, z * SPACING}, q[4];
    axis_angle(axis, 0.3f * (float)i, q);
    p->ids[i] = tb_body_create(p->w, TB_BODY_DYNAMIC, pos, q);
    p->kind[i] = i % 3;
    const float sphere[4] = {0.45f, 0, 0, 0}, box[4] = {0.4f, 0.35f, 0.3f, 0}, capsule[4] = {0.25f, 0.3f, 0, 0};
    const tb_shape_type types[3] = {TB_SHAPE_SPHERE, TB_SHAPE_BOX, TB_SHAPE_CAPSULE};
    const float* prm = p->kind[i] == 0 ? sphere : p->kind[i] == 1 ? box : capsule;
    tb_shape_create(p->w, p->ids[i], types[p->kind[i]], prm, ZERO, ID_Q, 0.6f, 0.0f, 500.0f);
  }
  return TB_OK;
}

/* Lowest y (m) of body i's surface from its pose. */
static float lowest(const pile* p, int i, const float* t) {
  float qx = t[3], qy = t[4], qz = t[5], qw = t[6];
  /* world y of the body axes: row 1 of the rotation matrix */
  float r10 = 2 * (qx * qy + qw * qz), r11 = 1 - 2 * (qx * qx + qz * qz), r12 = 2 * (qy * qz - qw * qx);
  if (p->kind[i] == 0) return t[1] - 0.45f;
  if (p->kind[i] == 1) return t[1] - (0.4f * fabsf(r10) + 0.35f * fabsf(r11) + 0.3f * fabsf(r12));
  return t[1] - 0.3f * fabsf(r11) - 0.25f;
}

typedef struct outcome {
  int steps_ok;      /* steps accepted */
  tb_status refused; /* status of the first refused step, TB_OK when none */
  char reason[256];  /* its message */
  float deepest;     /* m: lowest surface point seen (negative = below the floor) */
  int deepest_step, nonfinite, escaped;
  int fell;          /* bodies whose centre of mass went below the floor plane (counted once) */
} outcome;

static outcome run(tb_preset preset, int bodies, int steps) {
  pile* p = (pile*)calloc(1, sizeof *p);
  build(p, preset, bodies);
  outcome o;
  memset(&o, 0, sizeof o);
  o.deepest = 1e9f;
  o.deepest_step = -1;
  unsigned char* below = (unsigned char*)calloc((size_t)bodies, 1);
  for (int s = 0; s < steps; ++s) {
    tb_status st = tb_world_step(p->w);
    if (st != TB_OK) {
      o.refused = st;
      snprintf(o.reason, sizeof o.reason, "%s", tb_last_error(p->w));
      if (s > 0) fprintf(stderr, "preset %d refused step %d: %s\n", preset, s, o.reason);
      break;
    }
    ++o.steps_ok;
    const float* tf = (const float*)tb_world_field(p->w, TB_FIELDS_BODY, 0);
    for (int i = 0; i < bodies; ++i) {
      float st13[13];
      tb_body_get_state(p->w, p->ids[i], st13);
      int finite = 1;
      for (int k = 0; k < 13; ++k) finite = finite && isfinite(st13[k]);
      if (!finite) { ++o.nonfinite; continue; }
      const float* t = tf + 7 * (p->ids[i] & TB_ID_INDEX_MASK);
      float y = lowest(p, i, t);
      if (y < o.deepest) { o.deepest = y; o.deepest_step = s; }
      if (t[1] < 0.0f && !below[i]) { /* the centre (the body origin) below the floor plane */
        if (!o.fell) fprintf(stderr, "preset %d step %d: body %d fell through, centre at y = %.3f m\n", preset, s, i, (double)t[1]);
        below[i] = 1;
        ++o.fell;
      }
      if (fabsf(t[0]) > p->half + 0.1f || fabsf(t[2]) > p->half + 0.1f || t[1] > 1.0f + 40.0f * SPACING) {
        if (!o.escaped) fprintf(stderr, "preset %d step %d: body %d escaped to (%.2f, %.2f, %.2f)\n", preset, s, i, (double)t[0], (double)t[1], (double)t[2]);
        ++o.escaped;
      }
    }
    if (o.nonfinite || o.escaped) break;
    if (steps >= 1000 && (s + 1) % 250 == 0) /* a long run's progress, for a run stopped before its end */
      fprintf(stderr, "preset %s step %d: worst depth %.4f m (step %d), fell through %d, %.0f s of CPU\n",
              tb_enum_name(TB_ENUM_PRESET, preset), s + 1, (double)-o.deepest, o.deepest_step, o.fell,
              (double)clock() / CLOCKS_PER_SEC);
  }
  tb_world_destroy(p->w);
  free(below);
  free(p);
  return o;
}

int main(int argc, char** argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 5000;
  int bodies = argc > 2 ? atoi(argv[2]) : BODIES;
  CHECK(steps > 0 && bodies > 0 && bodies <= BODIES);
  if (!(steps > 0 && bodies > 0 && bodies <= BODIES)) return tb_test_report("test_long_run");
  printf("%d bodies, %d steps of 1/60 s; depth = worst lowest surface point below the floor (m), band = allowed\n", bodies, steps);
  for (int pr = 0; pr < TB_PRESET_COUNT; ++pr) {
    if (argc > 3 && !strstr(argv[3], tb_enum_name(TB_ENUM_PRESET, pr))) continue;
    outcome o = run((tb_preset)pr, bodies, steps);
    if (o.steps_ok == 0)
      printf("preset %-12s refused before its first step: %s\n", tb_enum_name(TB_ENUM_PRESET, pr), o.reason);
    else
      printf("preset %-12s steps %d/%d depth %.4f m (step %d, band %.2f) fell through %d non-finite %d escaped %d refused %d\n",
             tb_enum_name(TB_ENUM_PRESET, pr), o.steps_ok, steps, (double)-o.deepest, o.deepest_step, (double)BAND[pr],
             o.fell, o.nonfinite, o.escaped, o.refused);
    fflush(stdout);
    CHECK(o.nonfinite == 0 && o.escaped == 0);
    /* a refusal only before the first step */
    CHECK(o.steps_ok == steps || o.steps_ok == 0);
    if (o.steps_ok == 0) CHECK(o.refused != TB_OK && o.reason[0] != 0);
    CHECK(o.fell == 0);
    if (o.steps_ok > 0) CHECK(o.deepest > -BAND[pr]);
  }
  return tb_test_report("test_long_run");
}
