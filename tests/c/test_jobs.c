/* The job system's contract (src/core/jobs.h), which every stage's determinism rests on:
 * - tb_parallel_for runs every item of [0, count) exactly once, for any count, chunk size and
 *   thread count (1, 2, 3: more threads than the machine's cores is allowed);
 * - tb_parallel_for_beside also runs its side task exactly once, also when there is nothing to
 *   split (count 0, one chunk, one thread), and the side's own work is done when it returns;
 * - a tb_parallel_for called inside a side task (the pool busy with the outer job) runs all of its
 *   items on the caller, once.
 * The threads build (-DTB_THREADS) runs the parallel paths; the serial build checks the same facts. */
#include <stdint.h>
#include <string.h>

#include "../../src/core/jobs.h"
#include "test_util.h"

#define MAX_ITEMS 4096

typedef struct items {
  int32_t runs[MAX_ITEMS]; /* times each item ran: every item belongs to one chunk, one writer */
  int32_t bad_ranges;      /* chunks outside [0, count) or empty */
  int32_t count;
} items;

static void run_items(int32_t begin, int32_t end, void* ctx) {
  items* it = (items*)ctx;
  if (begin < 0 || end > it->count || begin >= end) {
    __atomic_fetch_add(&it->bad_ranges, 1, __ATOMIC_RELAXED);
    return;
  }
  for (int32_t i = begin; i < end; ++i) it->runs[i]++;
}

/* The side task: counts its runs and runs a nested job of its own over `inner`. */
typedef struct side_task {
  int32_t runs;
  int32_t threads;
  items inner;
} side_task;

static void side_fn(void* ctx) {
  side_task* s = (side_task*)ctx;
  s->runs++;
  tb_parallel_for(s->inner.count, 5, s->threads, run_items, &s->inner);
}

static int all_once(const items* it) {
  for (int32_t i = 0; i < it->count; ++i)
    if (it->runs[i] != 1) return 0;
  return it->bad_ranges == 0;
}

static items g_outer;
static side_task g_side;

static void test_every_item_once(void) {
  const int32_t counts[] = {0, 1, 7, 64, 1000, MAX_ITEMS};
  const int32_t chunks[] = {1, 3, 64, 5000};
  for (int32_t threads = 1; threads <= 3; ++threads) {
    tb_jobs_reserve(threads);
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c)
      for (size_t k = 0; k < sizeof chunks / sizeof chunks[0]; ++k) {
        memset(&g_outer, 0, sizeof g_outer);
        g_outer.count = counts[c];
        tb_parallel_for(counts[c], chunks[k], threads, run_items, &g_outer);
        CHECK(all_once(&g_outer));

        memset(&g_outer, 0, sizeof g_outer);
        memset(&g_side, 0, sizeof g_side);
        g_outer.count = counts[c];
        g_side.threads = threads;
        g_side.inner.count = 333;
        tb_parallel_for_beside(counts[c], chunks[k], threads, run_items, &g_outer, side_fn, &g_side);
        CHECK(all_once(&g_outer));
        CHECK(g_side.runs == 1);
        CHECK(all_once(&g_side.inner));
      }
  }
}

/* Many jobs in a row, each beside a side task, with two threads: a side that is still running when
 * the other thread has finished every chunk, and one that returns at once, both leave every item
 * run once (the caller then claims what is left, or nothing). */
static void test_many_jobs(void) {
  tb_jobs_reserve(2);
  int32_t failures = 0, side_runs = 0;
  for (int32_t round = 0; round < 2000; ++round) {
    memset(&g_outer, 0, sizeof g_outer);
    memset(&g_side, 0, sizeof g_side);
    g_outer.count = 64 + round % 200;
    g_side.threads = 2;
    g_side.inner.count = round % 2 ? 2000 : 0; /* a long side task or an empty one */
    tb_parallel_for_beside(g_outer.count, 4, 2, run_items, &g_outer, side_fn, &g_side);
    failures += !all_once(&g_outer) || !all_once(&g_side.inner);
    side_runs += g_side.runs;
  }
  CHECK(failures == 0);
  CHECK(side_runs == 2000);
}

int main(void) {
  test_every_item_once();
  test_many_jobs();
  return tb_test_report("test_jobs");
}
