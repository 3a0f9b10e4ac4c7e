/* A fixed pool of threads running deterministic parallel-for jobs (internal).
 * Work [0, count) is cut into chunks of a fixed size that depends only on count and chunk_size,
 * never on the thread count, and each chunk writes only its own outputs: the results are the
 * same with any number of threads. */
#ifndef TB_JOBS_H
#define TB_JOBS_H

#include <stdint.h>

typedef void tb_job_fn(int32_t begin, int32_t end, void* ctx);

/* A stage's chunk size, n items. The fuzz build (-DTB_FINE_CHUNKS) cuts every stage into chunks
 * of one item, so that its small scenes run their stages on several threads. */
#if defined(TB_FINE_CHUNKS)
#define TB_CHUNK(n) 1
#else
#define TB_CHUNK(n) (n)
#endif

/* Makes sure the pool has at least thread_count - 1 workers (the caller is one more). Threads
 * are created once and kept; returns the pool size including the caller. */
int32_t tb_jobs_reserve(int32_t thread_count);
/* Runs fn over [0, count) in chunks, on at most max_threads threads (caller included). */
void tb_parallel_for(int32_t count, int32_t chunk_size, int32_t max_threads, tb_job_fn* fn, void* ctx);
/* The same, while the caller first runs side(side_ctx): serial work of the caller's that would
 * otherwise wait before or after the job, now done while the other threads start on its chunks
 * (the caller claims chunks once it is done). side must read nothing the chunks write and write
 * nothing they read or write: then neither the results nor their bits depend on who ran what. */
typedef void tb_side_fn(void* side_ctx);
void tb_parallel_for_beside(int32_t count, int32_t chunk_size, int32_t max_threads, tb_job_fn* fn, void* ctx,
                            tb_side_fn* side, void* side_ctx);
/* Distinct threads that ran at least one chunk since the last reset (caller included). */
int32_t tb_jobs_threads_used(void);
void tb_jobs_reset_usage(void);
int32_t tb_jobs_pool_size(void);
/* Threads a world may ask for, incl. the caller (tb_max_threads): 1 in the serial build. */
int32_t tb_jobs_max_threads(void);
/* Jobs since the start of the process that were big enough to split over the threads: each ends
 * in the caller waiting for the others' chunks (a barrier), unless the pool backed off after a
 * slow wait and ran it serially. Counted only in a TB_COUNT_BARRIERS build (bench/barrier_count.sh);
 * 0 otherwise and in the serial build. */
int64_t tb_jobs_parallel_count(void);

/* Adaptive thread use of one world. Threads pay only while they get cores of their own: beside
 * another busy process a worker shares the caller's core and the step runs slower than on one
 * thread. So a world with more than one thread times each step (tb_world_step) and, every
 * `period` steps, probes the other mode (all threads or the caller alone): a warm-up step (the
 * workers wake or fall asleep, data moves between the cores' caches), one timed step, then back
 * in the current mode one step not counted (the same move back) and TB_GOVERNOR_AFTER timed ones.
 * The probe wins when it beats by TB_GOVERNOR_MARGIN (to serial) or TB_GOVERNOR_MARGIN_PARALLEL
 * (to parallel) the average of two means, of the TB_GOVERNOR_REFS steps before it and of the
 * steps after it (a scene whose cost rises or falls, such as a landing pile, makes neither mode
 * look faster); two wins in a row switch the mode. The
 * period doubles while probes confirm the mode (up to TB_GOVERNOR_MAX_PERIOD), and grows beyond
 * that while a probe's three steps (warm-up, timed, back) cost more than TB_GOVERNOR_PROBE_SHARE of
 * the steps between probes: beside a busy process the warm-up of a parallel probe waits for its
 * woken worker to get a core, about 1 ms natively against a 0.4 ms step (bench/RESULTS.md
 * "perf20"), which every 64 steps would cost 4 %. Who runs a chunk never changes a result (above),
 * so the mode decides speed only. Zero-initialised = adaptive, not serial.
 *
 * Beside a busy process a parallel step is mostly fast but now and then waits milliseconds for a
 * descheduled worker: too rare to fall reliably in a one-step probe or the six steps around it, and
 * large enough to make the parallel mode slower on average (bench/governor_sim.c). So a parallel
 * step counts with the caller's waits for other threads' chunks (tb_jobs_wait_ns) replaced by
 * their running mean: `wait_rate`, an average over parallel steps with weight
 * 1/TB_GOVERNOR_WAIT_STEPS per step (1/TB_GOVERNOR_WAIT_PROBE for a probe's step, so that a few
 * probes without waits bring the parallel mode back once the other process has stopped). That
 * keeps the mode's mean and spreads its waits over every step. */
#define TB_GOVERNOR_REFS 4
#define TB_GOVERNOR_AFTER 2
#define TB_GOVERNOR_MIN_PERIOD 8
#define TB_GOVERNOR_MAX_PERIOD 64
#define TB_GOVERNOR_PROBE_SHARE 0.02    /* a probe costs at most this share of the steps between probes */
#define TB_GOVERNOR_MAX_COST_PERIOD 1024 /* ... unless that would mean more steps than this between them */
#define TB_GOVERNOR_MARGIN 0.03 /* a serial probe must be this much faster (share of the reference) */
#define TB_GOVERNOR_MARGIN_PARALLEL 0.10 /* a parallel probe: this much (its waits are rare, see decide) */
#define TB_GOVERNOR_WAIT_STEPS 16  /* parallel steps over which wait_rate averages */
#define TB_GOVERNOR_WAIT_PROBE 4   /* the weight 1/4 of a parallel probe's timed step (while serial) */
enum { TB_PROBE_NONE, TB_PROBE_WARM, TB_PROBE_TIMED, TB_PROBE_BACK, TB_PROBE_AFTER };
typedef struct tb_thread_governor {
  int32_t fixed;      /* 1: always the world's thread count (tb_world_set_adaptive_threads 0) */
  int32_t serial;     /* 1: the current mode runs every job on the caller */
  int32_t probing;    /* TB_PROBE_*: the running step's part in a probe (NONE: not probing) */
  int32_t countdown;  /* steps in the current mode until the next probe */
  int32_t period;     /* steps between probes (0 before the first: TB_GOVERNOR_MIN_PERIOD) */
  int32_t wins;       /* consecutive probes faster than the current mode */
  int32_t ref_count;  /* step times held in ref, at most TB_GOVERNOR_REFS */
  int32_t ref_next;   /* ring position of the next time */
  int32_t after_count; /* timed steps after the probe so far */
  int64_t ref[TB_GOVERNOR_REFS]; /* ns: the last steps in the current mode */
  double before;      /* ns: mean of ref when the probe began */
  double after;       /* ns: sum of the timed steps after the probe */
  int64_t probe_ns;   /* ns: the probe's timed step */
  double probe_cost;  /* ns: the probe's warm-up, timed step and step back, as they took */
  int64_t started;    /* ns: tb_jobs_now_ns() when the running step began */
  int64_t wait_started; /* ns: tb_jobs_wait_ns() then */
  double wait_rate;   /* ns per parallel step: the running mean of the caller's waits (above) */
  int64_t switches;   /* mode changes since the world was made */
} tb_thread_governor;

/* Threads a stage of the running step may use (caller included): 1 or max_threads. */
int32_t tb_governor_threads(const tb_thread_governor* g, int32_t max_threads);
/* At the start of a step: decides whether it is a probe and starts its clock. */
void tb_governor_begin(tb_thread_governor* g, int32_t max_threads);
/* At its end: the step took `ns`, of which the caller spent `wait_ns` waiting for other threads'
 * chunks; updates the mode (tb_governor_end reads the clocks and calls it). */
void tb_governor_record(tb_thread_governor* g, int32_t max_threads, int64_t ns, int64_t wait_ns);
void tb_governor_end(tb_thread_governor* g, int32_t max_threads);
/* A monotonic clock, ns (0 in the serial build, which never needs one). */
int64_t tb_jobs_now_ns(void);
/* ns the calling thread has spent waiting in tb_parallel_for for chunks other threads claimed,
 * since it started (waits shorter than the first clock check, a few µs, count as 0; 0 in the
 * serial build). */
int64_t tb_jobs_wait_ns(void);

#endif
