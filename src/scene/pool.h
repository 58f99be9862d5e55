/* A fixed pool of threads for the scene's data-parallel loops, the default job system of a scene
 * (hd_task_callbacks replaces it). The caller's thread takes part as worker 0; workers
 * 1 .. threads - 1 watch for the next job for a short while after each one, then nap in timed
 * sleeps for a few milliseconds, then sleep on a condition variable. A job is a range [0, count)
 * cut into chunks, the chunks split into one contiguous share per thread; each thread claims the
 * chunks of its own share with an atomic counter, then what is left of the others' shares. Each
 * chunk is run by exactly one worker, so a loop writing disjoint slots needs no other
 * synchronization, and a thread runs the same items in every job of the same length unless it is
 * late. The job word (sequentially consistent atomics) orders the job's inputs before the
 * workers' reads, and the count of workers inside a job orders their writes before the return of
 * hdi_pool_run. */
#ifndef HD_SCENE_POOL_H
#define HD_SCENE_POOL_H

#include "hedra/core.h"

typedef struct hdi_pool hdi_pool;

/* The body of a loop: items [begin, end) on worker `worker` (0 .. threads - 1). */
typedef void (*hdi_pool_fn)(void *ctx, int worker, int begin, int end);

/* Starts threads - 1 workers (threads >= 1). HD_ERR_NO_MEMORY when memory or a thread is
 * missing (nothing is left running). */
hd_status hdi_pool_create(int threads, hdi_pool **out);

/* Stops and joins the workers; NULL is ignored. */
void hdi_pool_destroy(hdi_pool *pool);

int hdi_pool_threads(const hdi_pool *pool);

/* A chunk size for a loop of count items: about 8 chunks per thread, within [least, most] (least
 * keeps a chunk worth a claim, most keeps the loads of a chunk's items streaming). */
int hdi_pool_chunk(const hdi_pool *pool, int count, int least, int most);

/* hdi_pool_chunk for `threads` workers of any job system (threads >= 1). */
int hdi_pool_chunk_for(int threads, int count, int least, int most);

/* Runs fn over [0, count) in chunks of `chunk` items on every thread and returns when all are
 * done. Loops of at most two chunks run on the caller's thread alone; a worker that wakes after
 * the caller has claimed every chunk stays out, so a busy machine costs parallelism, not a wait
 * for a thread that is not running. */
void hdi_pool_run(hdi_pool *pool, hdi_pool_fn fn, void *ctx, int count, int chunk);

/* As hdi_pool_run, but the caller's thread first runs lead(lead_ctx), a serial task, while the
 * workers start on the loop, and then joins the loop. lead must not write what fn reads or writes
 * (it runs at the same time); with no worker, lead runs first, then the whole loop. */
void hdi_pool_run_beside(hdi_pool *pool, void (*lead)(void *), void *lead_ctx, hdi_pool_fn fn,
                         void *ctx, int count, int chunk);

/* Wakes the sleeping workers (without a job) when a job of count items in chunks of chunk would
 * run on the pool: called before serial work that precedes that job, so that their start-up
 * through the kernel overlaps it. */
void hdi_pool_wake(hdi_pool *pool, int count, int chunk);

/* Monotonic clock in nanoseconds (the pool's spin limit, the step's counters). */
long long hdi_scene_now_ns(void);

/* Online cores (at least 1). */
int hdi_pool_cores(void);

#endif
