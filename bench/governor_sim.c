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
 * The loop is tests/c/governor_model.h's, which tests/c/test_thread_governor.c asserts on.
 */
#include <stdint.h>
#include <stdio.h>

#include "../tests/c/governor_model.h"

typedef struct sim_case {
  const char* name;
  double serial_ms;   /* every serial step */
  double parallel_ms; /* a parallel step without a wait */
  double wait_ms;     /* added to a parallel step with probability p */
  double p;
  double wake_ms;     /* added to the first parallel step after a serial one (the woken worker waits for a core) */
} sim_case;

int main(int argc, char** argv) {
  const int times_only = argc > 1 && argv[1][0] == 't'; /* `governor_sim times`: waits not passed */
  const sim_case cases[] = {
    {"threads faster, no waits (quiet machine, pile)", 2.16, 1.28, 0.0, 0.0, 0.0},
    {"threads faster with rare short waits", 0.40, 0.30, 2.0, 0.03, 0.0},
    {"no gain from threads, waits in 7 % of steps (pyramid beside a hog)", 0.40, 0.396, 3.0, 0.07, 0.0},
    {"threads faster but waits of 3 ms in 10 % of steps", 0.40, 0.30, 3.0, 0.10, 0.0},
    {"threads faster but waits of 6 ms in 20 % of steps (pile beside a hog)", 2.16, 1.28, 6.0, 0.20, 0.0},
    {"threads faster but waits of 12 ms in 10 % of steps", 2.16, 1.28, 12.0, 0.10, 0.0},
    {"pyramid beside a hog, a probe's wake-up 1 ms (native_bench, perf20)", 0.39, 0.40, 3.0, 0.07, 1.0},
    {"the same, wake-up 2 ms", 0.39, 0.40, 3.0, 0.07, 2.0},
    {"pile beside a hog, wake-up 1 ms", 2.16, 1.28, 6.0, 0.20, 1.0},
  };
  const int steps = 20000;
  printf("%-72s %8s %8s %8s %10s %8s %8s\n", "case", "serial", "par mean", "governor", "/ better", "serial%", "switches");
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    const sim_case* c = &cases[k];
    governor_case m = {c->serial_ms * 1e6, c->parallel_ms * 1e6, c->wait_ms * 1e6, c->p, c->wake_ms * 1e6, 0.0};
    uint32_t rng = 1u;
    governor_outcome o = governor_model(&m, steps, !times_only, &rng);
    printf("%-72s %8.3f %8.3f %8.3f %9.3fx %7.1f%% %8lld\n", c->name, c->serial_ms, c->parallel_ms + c->p * c->wait_ms,
           o.mean_ns * 1e-6, o.mean_ns / o.better_ns, 100.0 * o.serial_steps / steps, (long long)o.switches);
  }
  return 0;
}
