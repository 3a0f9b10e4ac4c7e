/* The thread governor (src/core/jobs.h) fed synthetic step times: one loop for
 * tests/c/test_thread_governor.c, which asserts its outcomes, and bench/governor_sim.c, which prints
 * them (bench/RESULTS.md "perf19", "perf20"). Times in ns. */
#ifndef TB_GOVERNOR_MODEL_H
#define TB_GOVERNOR_MODEL_H

#include <stdint.h>

#include "../../src/core/jobs.h"

/* A machine as the governor sees it: beside a busy process a parallel step is mostly fast but now
 * and then waits for a descheduled worker, and the first parallel step after a serial one waits for
 * the woken worker to get a core. */
typedef struct governor_case {
  double ser_ns;  /* a serial step */
  double par_ns;  /* a parallel step without a wait */
  double wait_ns; /* added to a parallel step with probability p */
  double p;
  double wake_ns; /* added to the first parallel step after a serial one */
  double noise;   /* each step's time (before its waits) times 1 + noise·u, u uniform in [-1, 1] */
} governor_case;

typedef struct governor_outcome {
  double mean_ns;   /* the governor's mean step */
  double better_ns; /* the better mode's mean: serial, or parallel with its waits (not the wake-ups) */
  int serial_steps;
  int64_t switches;
} governor_outcome;

/* Uniform in [0, 1) from a linear congruential sequence (the same numbers on every platform). */
static inline double governor_uniform01(uint32_t* rng) {
  *rng = *rng * 1664525u + 1013904223u;
  return (double)(*rng >> 8) / 16777216.0;
}

/* `steps` steps of case c on 2 threads from a fresh governor; pass_waits 0 gives the governor each
 * step's time without the caller's wait in it (as before it read tb_jobs_wait_ns). */
static inline governor_outcome governor_model(const governor_case* c, int steps, int pass_waits, uint32_t* rng) {
  tb_thread_governor g = {0};
  governor_outcome out = {0.0, 0.0, 0, 0};
  double total = 0.0;
  int was_parallel = 1;
  for (int i = 0; i < steps; ++i) {
    tb_governor_begin(&g, 2);
    int parallel = tb_governor_threads(&g, 2) > 1;
    double wait = parallel && governor_uniform01(rng) < c->p ? c->wait_ns : 0.0;
    if (parallel && !was_parallel) wait += c->wake_ns;
    was_parallel = parallel;
    double base = parallel ? c->par_ns : c->ser_ns;
    if (c->noise != 0.0) base *= 1.0 + c->noise * (2.0 * governor_uniform01(rng) - 1.0);
    double t = base + wait;
    out.serial_steps += !parallel;
    total += t;
    tb_governor_record(&g, 2, (int64_t)t, pass_waits ? (int64_t)wait : 0);
  }
  double par_mean = c->par_ns + c->p * c->wait_ns;
  out.mean_ns = total / steps;
  out.better_ns = c->ser_ns < par_mean ? c->ser_ns : par_mean;
  out.switches = g.switches;
  return out;
}

#endif
