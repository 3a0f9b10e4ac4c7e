/* A fixed pool of threads running deterministic parallel-for jobs (internal).
 * Work [0, count) is cut into chunks of a fixed size that depends only on count and chunk_size,
 * never on the thread count, and each chunk writes only its own outputs: the results are the
 * same with any number of threads. */
#ifndef TB_JOBS_H
#define TB_JOBS_H

#include <stdint.h>

typedef void tb_job_fn(int32_t begin, int32_t end, void* ctx);

/* Makes sure the pool has at least thread_count - 1 workers (the caller is one more). Threads
 * are created once and kept; returns the pool size including the caller. */
int32_t tb_jobs_reserve(int32_t thread_count);
/* Runs fn over [0, count) in chunks, on at most max_threads threads (caller included). */
void tb_parallel_for(int32_t count, int32_t chunk_size, int32_t max_threads, tb_job_fn* fn, void* ctx);
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

#endif
