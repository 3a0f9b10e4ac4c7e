/* The MuJoCo Newton factor (src/solver/mujoco_primal.c): a rank-one update of L for a row that
 * becomes active (or leaves) gives the factor that factoring H again gives, within rounding; a
 * downdate that would cancel a diagonal is refused. A chain of bodies in contact, each pair with
 * four pyramidal rows, some bodies on the ground; Jacobians and weights from a fixed sequence. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "solver/mujoco_solver.h"
#include "test_util.h"

#define NB 8         /* bodies */
#define ROWS 4       /* per contact */
#define NC (2 * NB)  /* contacts: NB - 1 between neighbours, NB + 1 on the ground (-1) */

static uint32_t g_seed = 12345u;
static double uniform(void) { /* [-1, 1) */
  g_seed = g_seed * 1664525u + 1013904223u;
  return (double)(g_seed >> 8) / (double)(1u << 23) - 1.0;
}

typedef struct scene {
  tb_mujoco_data d;
  tb_mj_body bodies[NB];
  tb_mj_con cons[NC];
  tb_mj_row rows[NC * ROWS];
  int32_t rstate[NC * ROWS], hstate[NC * ROWS], first[6 * NB];
  int64_t off[6 * NB + 1];
  double c[6 * NB], s[6 * NB];
} scene;

/* Bodies of 1-5 kg; contact rows with D of 10³-10⁴ (stiff rows dominate H, as in a pile). */
static void build(scene* sc, double ground_d) {
  memset(sc, 0, sizeof *sc);
  tb_mujoco_data* d = &sc->d;
  d->bodies = sc->bodies, d->cons = sc->cons, d->rows = sc->rows;
  d->rstate = sc->rstate, d->hstate = sc->hstate, d->first = sc->first, d->off = sc->off;
  d->upd_c = sc->c, d->upd_s = sc->s;
  d->body_count = NB;
  for (int k = 0; k < NB; ++k) {
    tb_mj_body* b = &sc->bodies[k];
    b->mass = 3.0 + 2.0 * uniform();
    for (int u = 0; u < 3; ++u) b->I[4 * u] = 0.5 + 0.2 * uniform();
    b->I[1] = b->I[3] = 0.05 * uniform();
  }
  for (int ci = 0; ci < NC; ++ci) {
    tb_mj_con* c = &sc->cons[ci];
    int32_t a = ci < NB - 1 ? ci : ci - (NB - 1) - 1, b = ci < NB - 1 ? ci + 1 : -1;
    if (a < 0) a = 0;
    c->a = a, c->b = b, c->adr = ci * ROWS;
    c->rows.type = TB_MJ_PYRAMIDAL, c->rows.count = ROWS;
    for (int q = 0; q < ROWS; ++q) {
      tb_mj_row* r = &sc->rows[ci * ROWS + q];
      r->a = a, r->b = b;
      for (int u = 0; u < 6; ++u) {
        r->ja[u] = uniform();
        r->jb[u] = b < 0 ? 0.0 : -r->ja[u] + 0.3 * uniform();
      }
      r->D = b < 0 && ground_d > 0.0 ? ground_d : 1e3 * (5.5 + 4.5 * uniform());
      sc->rstate[ci * ROWS + q] = uniform() > 0.0;
    }
  }
  d->con_count = NC, d->row_count = NC * ROWS;
  int64_t total = tb_mj_skyline_profile(d);
  d->L = (double*)calloc((size_t)total, sizeof(double));
}

/* Largest |a − b| over the factor, relative to the largest |b|. */
static double factor_gap(const double* a, const double* b, int64_t n) {
  double gap = 0.0, big = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    if (fabs(a[i] - b[i]) > gap) gap = fabs(a[i] - b[i]);
    if (fabs(b[i]) > big) big = fabs(b[i]);
  }
  return gap / big;
}

/* Rows toggled one after the other, updated by rank one, against the factor of the final states. */
static void test_updates_match_factor(void) {
  static scene sc;
  build(&sc, 0.0);
  tb_mujoco_data* d = &sc.d;
  int64_t total = d->off[6 * NB];
  tb_mj_factor_hessian(d);
  const int toggle[] = {0, 5, 13, 22, 31, 40, 47, 58};
  int up = 0, down = 0;
  for (size_t t = 0; t < sizeof toggle / sizeof toggle[0]; ++t) {
    int32_t i = toggle[t];
    d->rstate[i] = !d->rstate[i];
    up += d->rstate[i], down += !d->rstate[i];
    CHECK(tb_mj_rank_one(d, &d->rows[i], d->rstate[i] ? 1.0 : -1.0));
  }
  CHECK(up > 0 && down > 0); /* both updates and downdates */
  double* updated = (double*)malloc((size_t)total * sizeof(double));
  memcpy(updated, d->L, (size_t)total * sizeof(double));
  tb_mj_factor_hessian(d);
  double gap = factor_gap(updated, d->L, total);
  CHECK(gap < 1e-12);
  /* and the update changed the factor: the old one is far from the new */
  static scene old;
  g_seed = 12345u;
  build(&old, 0.0);
  tb_mj_factor_hessian(&old.d);
  CHECK(factor_gap(old.d.L, d->L, total) > 1e-3);
  free(updated);
  free(old.d.L);
  free(d->L);
}

/* A body held by one ground row 10¹² times stiffer than its mass: taking that row out leaves a
 * diagonal of ~1 under one of ~10⁶; the downdate refuses rather than keep 12 lost digits. */
static void test_downdate_refused(void) {
  static scene sc;
  g_seed = 777u;
  build(&sc, 1e12);
  tb_mujoco_data* d = &sc.d;
  int32_t last = d->row_count - 1; /* a ground row of the last body, its only active row */
  for (int32_t i = 0; i < d->row_count; ++i) d->rstate[i] = d->rows[i].b < 0 && (i >= (NC - 1) * ROWS ? i == last : 1);
  CHECK(d->rows[last].b < 0 && d->rows[last].a == NB - 1);
  tb_mj_factor_hessian(d);
  d->rstate[last] = 0;
  CHECK(!tb_mj_rank_one(d, &d->rows[last], -1.0));
  free(d->L);
}

int main(void) {
  test_updates_match_factor();
  test_downdate_refused();
  return tb_test_report("test_mujoco_factor");
}
