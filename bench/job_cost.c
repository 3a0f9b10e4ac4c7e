/* What one parallel job costs the job system (src/core/jobs.c): 20 000 jobs of 32 items in chunks of
 * 2, each item `work` dependent multiply-adds, on `threads` threads (the caller included); prints the
 * time per job, three times. Built natively and as wasm with pthreads by bench/wasm_native.sh, so
 * the two builds' job costs compare on the same machine state (bench/RESULTS.md "perf39").
 *
 *   job_cost [threads] [work]      (defaults 2, 100) */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "core/jobs.h"

/* each item writes one of 64 lines (items 64 apart share one: a bench, the values are never read) */
static volatile float sink[64 * 16];
static void fn(int32_t b, int32_t e, void* ctx) {
  int work = *(int*)ctx;
  for (int32_t i = b; i < e; ++i) { float x = (float)i; for (int k = 0; k < work; ++k) x = x * 1.0000001f + 0.5f; sink[(i & 63) * 16] = x; }
}
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
int main(int argc, char** argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 2, work = argc > 2 ? atoi(argv[2]) : 100, reps = 20000;
  tb_jobs_reserve(threads);
  for (int r = 0; r < 3; ++r) {
    double t0 = now();
    for (int i = 0; i < reps; ++i) tb_parallel_for(32, 2, threads, fn, &work);
    double t1 = now();
    printf("threads %d work %d: %.3f us per job\n", threads, work, (t1 - t0) / reps / 1000);
  }
  return 0;
}
