/* The thread governor (src/core/jobs.h) fed synthetic step times: how its mean step time compares
 * with the better of its two modes when the parallel mode's steps are mostly fast but now and then
 * wait milliseconds for a descheduled worker (threads beside a busy process). Prints one line per
 * case; bench/RESULTS.md "perf19" and "perf20".
 *
 *   gcc -O2 -std=c11 -DTB_THREADS -pthread -Isrc bench/governor_sim.c src/core/jobs.c \
 *       src/core/alloc.c -lm -o /tmp/governor_sim && /tmp/governor_sim [times]
 *
 * `times`: the governor gets each step's time but not the caller's waits in it (as before it read
 * tb_jobs_wait_ns): the waits then count only where a probe or its reference steps caught one.
 */
#include <stdint.h>
#include <stdio.h>

#include "core/jobs.h"

typedef struct sim_case {
  const char* name;
  double serial_ms;   /* every serial step */
  double parallel_ms; /* a parallel step without a wait */
  double wait_ms;     /* added to a parallel step with probability p */
  double p;
  double wake_ms;     /* added to the first parallel step after a serial one (the woken worker waits for a core) */
} sim_case;

static uint32_t rng = 1u;
static double uniform01(void) {
  rng = rng * 1664525u + 1013904223u;
  return (double)(rng >> 8) / 16777216.0;
}

int main(int argc, char** argv) {
  const int times_only = argc > 1 && argv[1][0] == 't'; /* `governor_sim times`: waits not passed */
  const sim_case cases[] = {
    {"threads faster, no waits (quiet machine, pile)", 2.16, 1.28, 0.0, 0.0},
    {"threads faster with rare short waits", 0.40, 0.30, 2.0, 0.03},
    {"no gain from threads, waits in 7 % of steps (pyramid beside a hog)", 0.40, 0.396, 3.0, 0.07},
    {"threads faster but waits of 3 ms in 10 % of steps", 0.40, 0.30, 3.0, 0.10},
    {"threads faster but waits of 6 ms in 20 % of steps (pile beside a hog)", 2.16, 1.28, 6.0, 0.20},
    {"threads faster but waits of 12 ms in 10 % of steps", 2.16, 1.28, 12.0, 0.10},
    {"pyramid beside a hog, a probe's wake-up 1 ms (native_bench, perf20)", 0.39, 0.40, 3.0, 0.07, 1.0},
    {"the same, wake-up 2 ms", 0.39, 0.40, 3.0, 0.07, 2.0},
    {"pile beside a hog, wake-up 1 ms", 2.16, 1.28, 6.0, 0.20, 1.0},
  };
  const int steps = 20000;
  printf("%-72s %8s %8s %8s %10s %8s %8s\n", "case", "serial", "par mean", "governor", "/ better", "serial%", "switches");
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    const sim_case* c = &cases[k];
    tb_thread_governor g = {0};
    double total = 0.0;
    int serial_steps = 0, was_serial = 0;
    rng = 1u;
    for (int i = 0; i < steps; ++i) {
      tb_governor_begin(&g, 2);
      int serial = tb_governor_threads(&g, 2) == 1;
      double wait = !serial && uniform01() < c->p ? c->wait_ms : 0.0;
      if (!serial && was_serial) wait += c->wake_ms;
      was_serial = serial;
      double ms = (serial ? c->serial_ms : c->parallel_ms) + wait;
      serial_steps += serial;
      total += ms;
      /* the caller's wait as tb_jobs_wait_ns measures it, or none (TIMES_ONLY: the step's time
       * alone, as the governor saw it before it took the waits) */
      tb_governor_record(&g, 2, (int64_t)(ms * 1e6), times_only ? 0 : (int64_t)(wait * 1e6));
    }
    double par_mean = c->parallel_ms + c->p * c->wait_ms;
    double better = c->serial_ms < par_mean ? c->serial_ms : par_mean;
    printf("%-72s %8.3f %8.3f %8.3f %9.3fx %7.1f%% %8lld\n", c->name, c->serial_ms, par_mean, total / steps, total / steps / better,
           100.0 * serial_steps / steps, (long long)g.switches);
  }
  return 0;
}
