#include "jobs.h"

#include "../include/tribo.h"

#if defined(TB_THREADS)
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#ifndef TB_MAX_WORKERS
#define TB_MAX_WORKERS 16
#endif

typedef struct tb_job {
  tb_job_fn* fn;
  void* ctx;
  int32_t count, chunk_size, chunk_count, max_threads;
  atomic_int next_chunk;
} tb_job;

static pthread_mutex_t s_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t s_wake = PTHREAD_COND_INITIALIZER;
static pthread_t s_threads[TB_MAX_WORKERS];
static int32_t s_worker_count = 0; /* threads besides the caller */
static atomic_int s_generation = 0;
static tb_job s_job;
static atomic_uint s_used_mask = 0;
/* Generation each worker has finished; the caller waits for all of them before returning, so
 * s_job is never rewritten while a worker may still read it. */
static atomic_int s_ack[TB_MAX_WORKERS + 1];

static void run_chunks(tb_job* job, int32_t worker) {
  int ran = 0;
  for (;;) {
    int c = atomic_fetch_add(&job->next_chunk, 1);
    if (c >= job->chunk_count) break;
    int32_t begin = c * job->chunk_size;
    int32_t end = begin + job->chunk_size < job->count ? begin + job->chunk_size : job->count;
    job->fn(begin, end, job->ctx);
    ran = 1;
  }
  if (ran) atomic_fetch_or(&s_used_mask, 1u << worker);
}

/* Generation current when each worker was created: a worker that starts late must still run
 * (and acknowledge) every job issued after its creation. */
static int s_start_generation[TB_MAX_WORKERS + 1];

static void* worker_main(void* arg) {
  int32_t worker = (int32_t)(intptr_t)arg;
  int seen = s_start_generation[worker];
  for (;;) {
    /* Spin a little before sleeping: the solver issues many short jobs per step. */
    int spins = 0;
    while (atomic_load_explicit(&s_generation, memory_order_acquire) == seen && spins < 20000) {
      ++spins;
      if ((spins & 255) == 0) sched_yield();
    }
    if (atomic_load_explicit(&s_generation, memory_order_acquire) == seen) {
      pthread_mutex_lock(&s_mutex);
      while (atomic_load(&s_generation) == seen) pthread_cond_wait(&s_wake, &s_mutex);
      pthread_mutex_unlock(&s_mutex);
    }
    seen = atomic_load(&s_generation);
    if (worker < s_job.max_threads) run_chunks(&s_job, worker);
    atomic_store_explicit(&s_ack[worker], seen, memory_order_release);
  }
  return NULL;
}

int32_t tb_jobs_reserve(int32_t thread_count) {
  if (thread_count > TB_MAX_WORKERS + 1) thread_count = TB_MAX_WORKERS + 1;
  while (s_worker_count < thread_count - 1) {
    int32_t w = s_worker_count + 1;
    s_start_generation[w] = atomic_load(&s_generation);
    atomic_store(&s_ack[w], s_start_generation[w]);
    if (pthread_create(&s_threads[s_worker_count], NULL, worker_main,
                       (void*)(intptr_t)(s_worker_count + 1)) != 0)
      break;
    s_worker_count++;
  }
  return s_worker_count + 1;
}

void tb_parallel_for(int32_t count, int32_t chunk_size, int32_t max_threads, tb_job_fn* fn, void* ctx) {
  if (count <= 0) return;
  if (chunk_size < 1) chunk_size = 1;
  int32_t chunks = (count + chunk_size - 1) / chunk_size;
  if (max_threads <= 1 || s_worker_count == 0 || chunks == 1) {
    for (int32_t c = 0; c < chunks; ++c) {
      int32_t begin = c * chunk_size;
      fn(begin, begin + chunk_size < count ? begin + chunk_size : count, ctx);
    }
    atomic_fetch_or(&s_used_mask, 1u);
    return;
  }
  s_job.fn = fn;
  s_job.ctx = ctx;
  s_job.count = count;
  s_job.chunk_size = chunk_size;
  s_job.chunk_count = chunks;
  s_job.max_threads = max_threads;
  atomic_store(&s_job.next_chunk, 0);
  pthread_mutex_lock(&s_mutex);
  atomic_fetch_add_explicit(&s_generation, 1, memory_order_release);
  pthread_cond_broadcast(&s_wake);
  pthread_mutex_unlock(&s_mutex);
  int gen = atomic_load(&s_generation);
  run_chunks(&s_job, 0);
  for (int32_t w = 1; w <= s_worker_count; ++w)
    while (atomic_load_explicit(&s_ack[w], memory_order_acquire) != gen) {
    }
}

int32_t tb_jobs_threads_used(void) {
  unsigned m = atomic_load(&s_used_mask);
  int32_t n = 0;
  while (m) { n += (int32_t)(m & 1u); m >>= 1; }
  return n;
}
void tb_jobs_reset_usage(void) { atomic_store(&s_used_mask, 0u); }
int32_t tb_jobs_pool_size(void) { return s_worker_count + 1; }
int32_t tb_max_threads(void) { return TB_MAX_WORKERS + 1; }

#else /* serial build */

static int32_t s_used = 0;
int32_t tb_jobs_reserve(int32_t thread_count) { (void)thread_count; return 1; }
void tb_parallel_for(int32_t count, int32_t chunk_size, int32_t max_threads, tb_job_fn* fn, void* ctx) {
  (void)max_threads;
  if (count <= 0) return;
  if (chunk_size < 1) chunk_size = 1;
  for (int32_t begin = 0; begin < count; begin += chunk_size)
    fn(begin, begin + chunk_size < count ? begin + chunk_size : count, ctx);
  s_used = 1;
}
int32_t tb_jobs_threads_used(void) { return s_used; }
void tb_jobs_reset_usage(void) { s_used = 0; }
int32_t tb_jobs_pool_size(void) { return 1; }
int32_t tb_max_threads(void) { return 1; }
#endif
