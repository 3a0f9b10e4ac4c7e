/* clock_gettime (POSIX) for the spin and wait limits of the threaded pool */
#define _POSIX_C_SOURCE 199309L

#include "jobs.h"

#include "../include/tribo.h"

#include <math.h>
#include <stddef.h>

#if defined(TB_THREADS)
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

#ifndef TB_MAX_WORKERS
#define TB_MAX_WORKERS 16
#endif

/* A stage goes parallel only with at least this many chunks, and each thread it uses gets at
 * least TB_CHUNKS_PER_THREAD of them: waking a thread costs more than a few small chunks. */
#define TB_MIN_PARALLEL_CHUNKS 4
#define TB_CHUNKS_PER_THREAD 2
/* How long a waiting worker polls before it sleeps on the condition variable: the solver's jobs
 * follow each other within microseconds; the serial stages between them (islands, colouring,
 * packing counts) take 80–100 µs in a 1 000-body pile, and a worker asleep there has to be woken,
 * which costs more than the spin (a wasm worker's wake-up most of all): with 100 µs the native
 * pile woke a worker 2.0–2.4 times a step, with 200 µs 0.2–0.6. Longer spins gave the pile
 * nothing more and, beside a busy process, take a core's time from the caller (3 threads on 2
 * cores). */
#define TB_SPIN_NS 200000

/* A caller that waited longer than this for chunks another thread claimed (that thread was
 * descheduled: a loaded machine) runs the next jobs serially, for a count that doubles while
 * waits stay slow (at most TB_MAX_BACKOFF jobs, a few steps) and resets after a fast job.
 * Who runs a chunk never changes a result, so this only decides speed. */
#define TB_SLOW_WAIT_NS 300000

/* Polls of a waiting thread between two reads of the clock (a power of two): about 10 µs either
 * way. Natively a poll waits on a pause instruction; in wasm a poll is a few ns (no pause) and
 * clock_gettime a call into JS of about a microsecond, which, read every 64 polls, took 4 % of the
 * calling thread's time in the threads build's pile. */
#if defined(__wasm__)
#define TB_POLLS_PER_CLOCK 2048
#else
#define TB_POLLS_PER_CLOCK 256
#endif
#define TB_MAX_BACKOFF 1024

/* The job's claim state in one atomic word, so that a chunk is claimed together with the job it
 * belongs to: [63..48] generation, [47..40] threads allowed, [39..20] front, [19..0] back; the
 * chunks not yet claimed are [front, back). A thread claims the chunk at the front (front + 1)
 * or the one before the back (back − 1) by a compare-and-swap; the job's other fields are read
 * after a successful claim, when the caller cannot have moved on (it waits for every chunk). */
#define TB_CHUNK_BITS 20
#define TB_CHUNK_MASK ((UINT64_C(1) << TB_CHUNK_BITS) - 1)
#define STATE_GEN(s) ((uint32_t)((s) >> 48))
#define STATE_THREADS(s) ((int32_t)(((s) >> 40) & 0xFFu))
#define STATE_FRONT(s) ((int32_t)(((s) >> TB_CHUNK_BITS) & TB_CHUNK_MASK))
#define STATE_BACK(s) ((int32_t)((s) & TB_CHUNK_MASK))

typedef struct tb_job {
  tb_job_fn* fn;
  void* ctx;
  int32_t count, chunk_size;
} tb_job;

static pthread_mutex_t s_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t s_wake = PTHREAD_COND_INITIALIZER;
static pthread_t s_threads[TB_MAX_WORKERS];
static int32_t s_worker_count = 0; /* threads besides the caller */
/* The words the threads share, each on a cache line of its own (64 bytes): a write to one does not
 * take the others from the cores that poll them (a line moves between two cores in about 0.25 µs
 * on the 2-core machines here). */
#define TB_LINE 64
static _Alignas(TB_LINE) tb_job s_job;
static _Alignas(TB_LINE) _Atomic uint64_t s_state = 0;
static _Alignas(TB_LINE) atomic_int s_done = 0; /* chunks of the current job finished */
static _Alignas(TB_LINE) atomic_int s_sleepers = 0; /* workers waiting on s_wake */
static _Alignas(TB_LINE) atomic_flag s_busy = ATOMIC_FLAG_INIT; /* a caller is inside tb_parallel_for */
static _Alignas(TB_LINE) atomic_uint s_used_mask = 0;
static int32_t s_serial_left = 0, s_backoff = 0; /* read and written with s_busy held */
static _Atomic int64_t s_parallel_jobs = 0; /* jobs big enough to split (tb_jobs_parallel_count) */

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Claims and runs chunks of the job published as `state` until none is left; returns the number
 * run. Stops as soon as the state word belongs to another job. Even threads (the caller is 0)
 * claim from the front, odd ones from the back: with two threads each keeps running the same
 * half of every stage, step after step, so its data stays in its own core's cache (claiming in
 * one order, the two halves change threads at every job and the data moves between the cores). */
static int32_t run_chunks(uint64_t state, int32_t worker) {
  int32_t ran = 0;
  const int back = worker & 1;
  for (;;) {
    int32_t front = STATE_FRONT(state), left = STATE_BACK(state) - front;
    if (left <= 0 || worker >= STATE_THREADS(state)) break;
    /* a share of what is left per claim (guided): fewer claims on the contended word, and small
     * claims at the end, where they balance the threads */
    int32_t take = left / (2 * STATE_THREADS(state));
    if (take < 1) take = 1;
    uint64_t claimed = back ? state - (uint64_t)take : state + ((uint64_t)take << TB_CHUNK_BITS);
    if (!atomic_compare_exchange_weak_explicit(&s_state, &state, claimed, memory_order_acquire,
                                               memory_order_acquire))
      continue; /* state now holds the current word: recheck it */
    int32_t first = back ? front + left - take : front;
    state = claimed;
    for (int32_t c = first; c < first + take; ++c) {
      int32_t begin = c * s_job.chunk_size;
      int32_t end = begin + s_job.chunk_size < s_job.count ? begin + s_job.chunk_size : s_job.count;
      s_job.fn(begin, end, s_job.ctx);
    }
    ran += take;
  }
  if (ran) {
    atomic_fetch_add_explicit(&s_done, ran, memory_order_release); /* once per thread and job */
    /* once per thread between two resets (a step), not per job: an atomic write per job would
     * move the line between the cores each time */
    unsigned bit = 1u << worker;
    if (!(atomic_load_explicit(&s_used_mask, memory_order_relaxed) & bit)) atomic_fetch_or(&s_used_mask, bit);
  }
  return ran;
}

static void* worker_main(void* arg) {
  int32_t worker = (int32_t)(intptr_t)arg;
  uint32_t seen = STATE_GEN(atomic_load(&s_state));
  for (;;) {
    uint64_t state = atomic_load_explicit(&s_state, memory_order_acquire);
    int64_t start = 0; /* the clock is read from the first check on (in wasm it is a call into JS) */
    for (int polls = 1; STATE_GEN(state) == seen; ++polls) {
      cpu_relax();
      if ((polls & (TB_POLLS_PER_CLOCK - 1)) == 0) {
        int64_t now = now_ns();
        if (start == 0) start = now;
        else if (now - start > TB_SPIN_NS) break;
      }
      state = atomic_load_explicit(&s_state, memory_order_acquire);
    }
    if (STATE_GEN(state) == seen) {
      pthread_mutex_lock(&s_mutex);
      atomic_fetch_add(&s_sleepers, 1);
      while (STATE_GEN(state = atomic_load(&s_state)) == seen) pthread_cond_wait(&s_wake, &s_mutex);
      atomic_fetch_sub(&s_sleepers, 1);
      pthread_mutex_unlock(&s_mutex);
    }
    seen = STATE_GEN(state);
    run_chunks(state, worker);
  }
  return NULL;
}

int32_t tb_jobs_reserve(int32_t thread_count) {
  if (thread_count > TB_MAX_WORKERS + 1) thread_count = TB_MAX_WORKERS + 1;
  while (s_worker_count < thread_count - 1) {
    if (pthread_create(&s_threads[s_worker_count], NULL, worker_main, (void*)(intptr_t)(s_worker_count + 1)) != 0)
      break;
    s_worker_count++;
  }
  return s_worker_count + 1;
}

/* ns this thread waited in wait_for_chunks (tb_jobs_wait_ns) */
static _Thread_local int64_t tl_wait_ns = 0;

/* Waits for the chunks other threads claimed (never for idle threads); returns 1 when the wait
 * was slow. A wait that lasts past the first clock check adds its time from that check on to
 * tl_wait_ns (the thread governor's measure of a descheduled worker). */
static int wait_for_chunks(int32_t chunks) {
  int64_t start = 0; /* from the first clock check: most waits end before it */
  int slow = 0;
  for (int polls = 1; atomic_load_explicit(&s_done, memory_order_acquire) < chunks; ++polls) {
    cpu_relax();
    if ((polls & (TB_POLLS_PER_CLOCK - 1)) == 0) {
      if (!slow) {
        int64_t now = now_ns();
        if (start == 0) start = now;
        else if (now - start > TB_SLOW_WAIT_NS) slow = 1;
      }
      if (slow) sched_yield(); /* let the descheduled thread have the core */
    }
  }
  if (start != 0) tl_wait_ns += now_ns() - start;
  return slow;
}

static void run_serial(int32_t count, int32_t chunk_size, tb_job_fn* fn, void* ctx) {
  for (int32_t begin = 0; begin < count; begin += chunk_size)
    fn(begin, begin + chunk_size < count ? begin + chunk_size : count, ctx);
  atomic_fetch_or(&s_used_mask, 1u);
}

void tb_parallel_for(int32_t count, int32_t chunk_size, int32_t max_threads, tb_job_fn* fn, void* ctx) {
  tb_parallel_for_beside(count, chunk_size, max_threads, fn, ctx, NULL, NULL);
}

void tb_parallel_for_beside(int32_t count, int32_t chunk_size, int32_t max_threads, tb_job_fn* fn, void* ctx,
                            tb_side_fn* side, void* side_ctx) {
  if (count <= 0) {
    if (side) side(side_ctx);
    return;
  }
  if (chunk_size < 1) chunk_size = 1;
  int32_t chunks = (int32_t)(((int64_t)count + chunk_size - 1) / chunk_size);
  int32_t threads = chunks / TB_CHUNKS_PER_THREAD;
  if (threads > max_threads) threads = max_threads;
  if (threads > s_worker_count + 1) threads = s_worker_count + 1;
  /* small stages, huge chunk counts and a second concurrent caller run on the calling thread */
  if (threads <= 1 || chunks < TB_MIN_PARALLEL_CHUNKS || (uint64_t)chunks > TB_CHUNK_MASK) {
    if (side) side(side_ctx);
    run_serial(count, chunk_size, fn, ctx);
    return;
  }
#if defined(TB_COUNT_BARRIERS) /* bench/barrier_count.sh only: not on the step's path otherwise */
  atomic_fetch_add_explicit(&s_parallel_jobs, 1, memory_order_relaxed);
#endif
  if (atomic_flag_test_and_set_explicit(&s_busy, memory_order_acquire)) {
    if (side) side(side_ctx);
    run_serial(count, chunk_size, fn, ctx);
    return;
  }
  if (s_serial_left > 0) { /* backing off after a slow wait */
    --s_serial_left;
    atomic_flag_clear_explicit(&s_busy, memory_order_release);
    if (side) side(side_ctx);
    run_serial(count, chunk_size, fn, ctx);
    return;
  }
  s_job.fn = fn;
  s_job.ctx = ctx;
  s_job.count = count;
  s_job.chunk_size = chunk_size;
  atomic_store_explicit(&s_done, 0, memory_order_relaxed);
  uint64_t old = atomic_load(&s_state);
  uint64_t state = ((uint64_t)((STATE_GEN(old) + 1u) & 0xFFFFu) << 48) | ((uint64_t)threads << 40) | (uint64_t)chunks;
  atomic_store(&s_state, state); /* publishes the job (sequentially consistent with s_sleepers) */
  if (atomic_load(&s_sleepers) > 0) {
    pthread_mutex_lock(&s_mutex);
    pthread_cond_broadcast(&s_wake);
    pthread_mutex_unlock(&s_mutex);
  }
  /* with s_busy held: a tb_parallel_for inside side runs on the caller alone */
  if (side) side(side_ctx);
  run_chunks(state, 0);
  if (wait_for_chunks(chunks)) {
    s_backoff = s_backoff ? (s_backoff < TB_MAX_BACKOFF ? 2 * s_backoff : TB_MAX_BACKOFF) : 16;
    s_serial_left = s_backoff;
  } else {
    s_backoff = 0;
  }
  atomic_flag_clear_explicit(&s_busy, memory_order_release);
}

int32_t tb_jobs_threads_used(void) {
  unsigned m = atomic_load(&s_used_mask);
  int32_t n = 0;
  while (m) { n += (int32_t)(m & 1u); m >>= 1; }
  return n;
}
void tb_jobs_reset_usage(void) { atomic_store(&s_used_mask, 0u); }
int32_t tb_jobs_pool_size(void) { return s_worker_count + 1; }
int32_t tb_jobs_max_threads(void) { return TB_MAX_WORKERS + 1; }
int64_t tb_jobs_parallel_count(void) { return atomic_load_explicit(&s_parallel_jobs, memory_order_relaxed); }

int64_t tb_jobs_now_ns(void) { return now_ns(); }
int64_t tb_jobs_wait_ns(void) { return tl_wait_ns; }

#else /* serial build */

static int32_t s_used = 0;
int32_t tb_jobs_reserve(int32_t thread_count) { (void)thread_count; return 1; }
void tb_parallel_for(int32_t count, int32_t chunk_size, int32_t max_threads, tb_job_fn* fn, void* ctx) {
  tb_parallel_for_beside(count, chunk_size, max_threads, fn, ctx, NULL, NULL);
}
void tb_parallel_for_beside(int32_t count, int32_t chunk_size, int32_t max_threads, tb_job_fn* fn, void* ctx,
                            tb_side_fn* side, void* side_ctx) {
  (void)max_threads;
  if (side) side(side_ctx);
  if (count <= 0) return;
  if (chunk_size < 1) chunk_size = 1;
#if defined(TB_PROFILE_JOBS) /* bench/wasm_perf.sh --jobs only: a call the optimisers cannot inline,
                               * so each job stays a function of its own in the profile */
  tb_job_fn* volatile call = fn;
#else
  tb_job_fn* call = fn;
#endif
  for (int32_t begin = 0; begin < count; begin += chunk_size)
    call(begin, begin + chunk_size < count ? begin + chunk_size : count, ctx);
  s_used = 1;
}
int32_t tb_jobs_threads_used(void) { return s_used; }
void tb_jobs_reset_usage(void) { s_used = 0; }
int32_t tb_jobs_pool_size(void) { return 1; }
int32_t tb_jobs_max_threads(void) { return 1; }
int64_t tb_jobs_parallel_count(void) { return 0; }
int64_t tb_jobs_now_ns(void) { return 0; }
int64_t tb_jobs_wait_ns(void) { return 0; }
#endif

/* ---- adaptive thread use (the same code in both builds: with one thread it never runs) ---- */

static int governed(const tb_thread_governor* g, int32_t max_threads) { return !g->fixed && max_threads > 1; }

int32_t tb_governor_threads(const tb_thread_governor* g, int32_t max_threads) {
  if (!governed(g, max_threads)) return max_threads;
  int other = g->probing == TB_PROBE_WARM || g->probing == TB_PROBE_TIMED;
  return (g->serial ^ other) ? 1 : max_threads;
}

void tb_governor_begin(tb_thread_governor* g, int32_t max_threads) {
  if (!governed(g, max_threads)) { g->probing = TB_PROBE_NONE; return; }
  if (g->period == 0) g->countdown = g->period = TB_GOVERNOR_MIN_PERIOD;
  /* a probe needs a full reference of the current mode before it */
  if (g->probing == TB_PROBE_NONE && g->countdown <= 0 && g->ref_count == TB_GOVERNOR_REFS) g->probing = TB_PROBE_WARM;
  g->started = tb_jobs_now_ns();
  g->wait_started = tb_jobs_wait_ns();
}

/* ns: the mean of the reference steps (a mean, not a median: a mode whose steps are usually fast
 * but now and then wait milliseconds for a descheduled worker is slow on average) */
static double ref_mean(const tb_thread_governor* g) {
  double sum = 0.0;
  for (int32_t i = 0; i < g->ref_count; ++i) sum += (double)g->ref[i];
  return sum / (double)g->ref_count;
}

static void push_ref(tb_thread_governor* g, int64_t ns) {
  g->ref[g->ref_next] = ns;
  g->ref_next = (g->ref_next + 1) % TB_GOVERNOR_REFS;
  if (g->ref_count < TB_GOVERNOR_REFS) ++g->ref_count;
}

/* The probe's verdict, once the steps after it are in: the reference is the mean of the steps
 * before and of those after, so that a scene whose cost rises or falls (a pile landing) does not
 * make either mode look faster. */
static void decide(tb_thread_governor* g) {
  double ref = 0.5 * (g->before + g->after / TB_GOVERNOR_AFTER);
  /* a parallel probe is one step; beside a busy process the parallel mode's cost is in its
   * occasional long waits, which one step seldom shows: it must win by more */
  double margin = g->serial ? TB_GOVERNOR_MARGIN_PARALLEL : TB_GOVERNOR_MARGIN;
  if ((double)g->probe_ns < ref * (1.0 - margin)) {
    /* confirm with another probe against fresh reference steps */
    if (++g->wins < 2) { g->countdown = TB_GOVERNOR_REFS; return; }
    /* the other mode won twice: it becomes the current mode, measured afresh */
    g->serial ^= 1;
    g->switches++;
    g->wins = 0;
    g->ref_count = g->ref_next = 0;
    g->countdown = g->period = TB_GOVERNOR_MIN_PERIOD;
    return;
  }
  /* the current mode holds: probe less often, up to TB_GOVERNOR_MAX_PERIOD steps apart; while
   * probes cost more than their share (jobs.h), the period keeps doubling towards the one that
   * keeps them to it, so that one probe caught in a rare wait does not stop the probing */
  g->wins = 0;
  int32_t doubled = g->period * 2;
  int32_t period = doubled < TB_GOVERNOR_MAX_PERIOD ? doubled : TB_GOVERNOR_MAX_PERIOD;
  /* the steps between probes at which this probe's cost over three reference steps is their share */
  double cost_period = ref > 0.0 ? (g->probe_cost - 3.0 * ref) / (TB_GOVERNOR_PROBE_SHARE * ref) : 0.0;
  if (cost_period > period) {
    int32_t most = doubled < TB_GOVERNOR_MAX_COST_PERIOD ? doubled : TB_GOVERNOR_MAX_COST_PERIOD;
    period = cost_period < most ? (int32_t)ceil(cost_period) : most;
  }
  g->countdown = g->period = period;
}

void tb_governor_record(tb_thread_governor* g, int32_t max_threads, int64_t ns, int64_t wait_ns) {
  if (!governed(g, max_threads)) return;
  /* a probe's steps as they took: their waits are the probe's cost */
  if (g->probing == TB_PROBE_WARM) g->probe_cost = (double)ns;
  else if (g->probing == TB_PROBE_TIMED || g->probing == TB_PROBE_BACK) g->probe_cost += (double)ns;
  /* a counted parallel step (not the warm-up or the step back): its waits replaced by their
   * running mean (jobs.h), updated with this step's; a parallel probe's step weighs more */
  int counted = g->probing != TB_PROBE_WARM && g->probing != TB_PROBE_BACK;
  if (counted && tb_governor_threads(g, max_threads) > 1) {
    double steps = g->probing == TB_PROBE_TIMED ? TB_GOVERNOR_WAIT_PROBE : TB_GOVERNOR_WAIT_STEPS;
    g->wait_rate += ((double)wait_ns - g->wait_rate) / steps;
    ns = ns - wait_ns + (int64_t)g->wait_rate;
  }
  switch (g->probing) {
    case TB_PROBE_NONE:
      push_ref(g, ns);
      --g->countdown;
      return;
    case TB_PROBE_WARM: /* workers woken (or left to sleep), data moved between the cores' caches */
      g->probing = TB_PROBE_TIMED;
      g->before = ref_mean(g);
      return;
    case TB_PROBE_TIMED:
      g->probe_ns = ns;
      g->after = 0.0;
      g->probing = TB_PROBE_BACK;
      return;
    case TB_PROBE_BACK: /* back in the current mode: the same move of data again, not counted */
      g->probing = TB_PROBE_AFTER;
      g->after_count = 0;
      return;
    default: /* TB_PROBE_AFTER */
      push_ref(g, ns);
      g->after += (double)ns;
      if (++g->after_count < TB_GOVERNOR_AFTER) return;
      g->probing = TB_PROBE_NONE;
      decide(g);
  }
}

void tb_governor_end(tb_thread_governor* g, int32_t max_threads) {
  if (!governed(g, max_threads)) return;
  tb_governor_record(g, max_threads, tb_jobs_now_ns() - g->started, tb_jobs_wait_ns() - g->wait_started);
}
