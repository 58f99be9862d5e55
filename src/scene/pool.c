/* The thread pool (pool.h): POSIX threads and C11 atomics. A job is published in one atomic word
 * (its generation and whether it is open). An idle worker watches that word for a short while,
 * then naps in short timed sleeps for a longer while, and only then sleeps on a condition
 * variable: the several loops of one scene step, microseconds apart, find it watching, and a step
 * that follows within the nap window finds it napping and posts its first loop without a system
 * call; a wake-up through the condition variable costs both threads a trip through the kernel. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

#include "scene/pool.h"

/* The idle worker's three stages. The watch spans the gaps between the loops of one step (the
 * serial work between two loops is short) and yields the core every HD_POOL_SPIN_POLLS polls, so
 * that a thread waiting for that core (the caller's, another process's) is not starved. */
#define HD_POOL_SPIN_NS 200000LL
#define HD_POOL_SPIN_POLLS 16

/* The nap: timed sleeps of HD_POOL_NAP_STEP_NS, checking the job word after each, for
 * HD_POOL_NAP_NS in all, which bounds the core time an idle pool takes after a step; the timer
 * slack is lowered to HD_POOL_NAP_SLACK_NS, as Linux's default would stretch each nap step. */
#define HD_POOL_NAP_NS 4000000LL
#define HD_POOL_NAP_STEP_NS 20000L
#define HD_POOL_NAP_SLACK_NS 1000UL

/* Polls of the caller waiting for the last workers of a job between yields of its core (to a
 * worker that was preempted inside its chunk). */
#define HD_POOL_WAIT_POLLS 64

/* Chunks per thread that hdi_pool_chunk aims at (enough for the fast threads to even out the
 * slow ones). */
#define HD_POOL_CHUNKS_PER_THREAD 8

/* A cache line: each thread's share of a job sits on its own (hdi_pool_share). */
#define HD_POOL_LINE 64

/* A thread's share of a job: chunks [next, end) not yet claimed, alone on its cache line (a
 * claim writes it). */
typedef struct hdi_pool_share {
    _Alignas(HD_POOL_LINE) atomic_int next;
    int end;
} hdi_pool_share;

typedef struct hdi_pool_worker {
    hdi_pool *pool;
    int index;
} hdi_pool_worker;

struct hdi_pool {
    int threads;
    int started; /* workers running */
    pthread_t *ids;
    hdi_pool_worker *args;
    pthread_mutex_t lock; /* with `wake`: the sleep of idle workers only */
    pthread_cond_t wake;
    atomic_int sleepers; /* workers asleep or about to sleep on `wake` */
    atomic_int stop;
    /* The job: generation << 1 | open. A worker runs chunks of generation g only while the word
     * reads (g << 1 | 1) after it has counted itself in `inside`, so the caller, which closes the
     * job and then waits for `inside` to drain, never returns while a worker is in its job. */
    atomic_ulong job;
    atomic_int inside;
    hdi_pool_fn fn; /* written before the job word is published, read after it */
    void *ctx;
    int count;
    int chunk;
    hdi_pool_share *shares; /* one per thread */
};

int hdi_pool_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : (n > 1 << 20 ? 1 << 20 : (int)n);
}

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

long long hdi_scene_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Claims and runs the chunks of one share until none is left there. */
static void run_share(hdi_pool *p, hdi_pool_share *share, int worker)
{
    for (;;) {
        int c = atomic_fetch_add_explicit(&share->next, 1, memory_order_relaxed);
        if (c >= share->end) {
            return;
        }
        int begin = c * p->chunk;
        p->fn(p->ctx, worker, begin, p->count - begin < p->chunk ? p->count : begin + p->chunk);
    }
}

/* Claims and runs chunks until none is left: the worker's own share first, then what is left of
 * the others'. Each thread owns the same slice of the items in every job of the same length, so
 * from loop to loop and frame to frame the same thread touches the same bodies and pairs, whose
 * records stay in its core's cache; the others' shares keep a late thread from holding the job
 * up. */
static void run_chunks(hdi_pool *p, int worker)
{
    for (int k = 0; k < p->threads; ++k) {
        run_share(p, &p->shares[(worker + k) % p->threads], worker);
    }
}

/* Whether the job word differs from `seen` or the stop order is posted. */
static int job_changed(hdi_pool *p, unsigned long seen, unsigned long *job)
{
    *job = atomic_load(&p->job);
    return *job != seen || atomic_load(&p->stop);
}

/* Watches the job word for HD_POOL_SPIN_NS, yielding the core every HD_POOL_SPIN_POLLS polls; 1
 * with the new word in *job, 0 when the watch ended without one. */
static int watch(hdi_pool *p, unsigned long seen, unsigned long *job)
{
    long long start = hdi_scene_now_ns();
    for (int polls = 1;; ++polls) {
        if (job_changed(p, seen, job)) {
            return 1;
        }
        if (polls % HD_POOL_SPIN_POLLS == 0) {
            if (hdi_scene_now_ns() - start > HD_POOL_SPIN_NS) {
                return 0;
            }
            sched_yield();
        }
        cpu_relax();
    }
}

/* Checks the job word between timed sleeps for HD_POOL_NAP_NS; 1 with the new word in *job. */
static int nap(hdi_pool *p, unsigned long seen, unsigned long *job)
{
    long long start = hdi_scene_now_ns();
    const struct timespec step = {0, HD_POOL_NAP_STEP_NS};
    for (long long now = start; now - start < HD_POOL_NAP_NS; now = hdi_scene_now_ns()) {
        nanosleep(&step, NULL);
        if (job_changed(p, seen, job)) {
            return 1;
        }
    }
    return 0;
}

/* The job word once it differs from `seen` (or the stop order is posted): watched, napped for,
 * then waited for asleep. */
static unsigned long next_job(hdi_pool *p, unsigned long seen)
{
    unsigned long job;
    if (watch(p, seen, &job) || nap(p, seen, &job)) {
        return job;
    }
    pthread_mutex_lock(&p->lock);
    atomic_fetch_add(&p->sleepers, 1);
    while (!job_changed(p, seen, &job)) {
        pthread_cond_wait(&p->wake, &p->lock);
    }
    atomic_fetch_sub(&p->sleepers, 1);
    pthread_mutex_unlock(&p->lock);
    return job;
}

/* A worker joins each job it sees open; one that sees it after the caller closed it (every chunk
 * claimed) stays out, so the caller never waits for a thread the system has not scheduled. */
static void *worker_main(void *arg)
{
    hdi_pool_worker *w = arg;
    hdi_pool *p = w->pool;
#if defined(__linux__)
    prctl(PR_SET_TIMERSLACK, HD_POOL_NAP_SLACK_NS); /* best effort: naps are only longer without */
#endif
    unsigned long seen = 0; /* no job was posted before the workers were started */
    for (;;) {
        unsigned long job = next_job(p, seen);
        if (atomic_load(&p->stop)) {
            break;
        }
        seen = job;
        if (!(job & 1UL)) {
            continue;
        }
        atomic_fetch_add(&p->inside, 1);
        if (atomic_load(&p->job) == job) {
            run_chunks(p, w->index);
        }
        atomic_fetch_sub(&p->inside, 1);
    }
    return NULL;
}

/* Posts the stop order and joins the started workers. */
static void stop_workers(hdi_pool *p)
{
    pthread_mutex_lock(&p->lock);
    atomic_store(&p->stop, 1);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < p->started; ++i) {
        pthread_join(p->ids[i], NULL);
    }
    p->started = 0;
}

static void release(hdi_pool *p)
{
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    free(p->ids);
    free(p->args);
    free(p->shares);
    free(p);
}

/* The pool's memory and synchronization objects, no thread yet; NULL on failure. */
static hdi_pool *allocate(int threads)
{
    hdi_pool *p = calloc(1, sizeof *p);
    if (p == NULL) {
        return NULL;
    }
    p->threads = threads;
    atomic_init(&p->job, 0UL);
    atomic_init(&p->inside, 0);
    atomic_init(&p->sleepers, 0);
    atomic_init(&p->stop, 0);
    p->ids = calloc((size_t)threads, sizeof *p->ids);
    p->args = calloc((size_t)threads, sizeof *p->args);
    p->shares = aligned_alloc(HD_POOL_LINE, (size_t)threads * sizeof *p->shares);
    if (p->shares != NULL) {
        for (int t = 0; t < threads; ++t) {
            atomic_init(&p->shares[t].next, 0);
            p->shares[t].end = 0;
        }
    }
    int made = 0;
    if (p->ids != NULL && p->args != NULL && p->shares != NULL &&
        pthread_mutex_init(&p->lock, NULL) == 0) {
        made = 1;
        made += pthread_cond_init(&p->wake, NULL) == 0;
    }
    if (made == 2) {
        return p;
    }
    if (made == 1) {
        pthread_mutex_destroy(&p->lock);
    }
    free(p->ids);
    free(p->args);
    free(p->shares);
    free(p);
    return NULL;
}

hd_status hdi_pool_create(int threads, hdi_pool **out)
{
    *out = NULL;
    hdi_pool *p = allocate(threads);
    if (p == NULL) {
        return HD_ERR_NO_MEMORY;
    }
    for (int i = 1; i < threads; ++i) {
        p->args[i].pool = p;
        p->args[i].index = i;
        if (pthread_create(&p->ids[p->started], NULL, worker_main, &p->args[i]) != 0) {
            stop_workers(p);
            release(p);
            return HD_ERR_NO_MEMORY;
        }
        p->started++;
    }
    *out = p;
    return HD_OK;
}

void hdi_pool_destroy(hdi_pool *pool)
{
    if (pool == NULL) {
        return;
    }
    stop_workers(pool);
    release(pool);
}

/* Wakes the workers asleep on the condition variable after a change of the job word. Taking and
 * releasing the lock first orders the wake-up after every sleeper's check of the job word (a
 * worker checks it and starts waiting under the lock); broadcasting after the release keeps a
 * woken worker from blocking at once on the lock the caller still holds (a second wake-up). */
static void wake_sleepers(hdi_pool *p)
{
    if (atomic_load(&p->sleepers) > 0) {
        pthread_mutex_lock(&p->lock);
        pthread_mutex_unlock(&p->lock);
        pthread_cond_broadcast(&p->wake);
    }
}

/* Whether hdi_pool_run posts a job of count items in chunks of chunk (>= 1) to the workers: not
 * when there are none or the job is too small to be worth waking anyone. */
static int worth_posting(const hdi_pool *pool, int count, int chunk)
{
    return pool->started > 0 && count > 2 * chunk;
}

/* Publishes the next generation of the job word, open (a job) or closed (a wake-up only), and
 * wakes the sleeping workers. Returns the new word. */
static unsigned long publish(hdi_pool *p, unsigned long open)
{
    unsigned long job = ((atomic_load(&p->job) >> 1) + 1) << 1 | open;
    atomic_store(&p->job, job);
    wake_sleepers(p);
    return job;
}

void hdi_pool_wake(hdi_pool *pool, int count, int chunk)
{
    if (worth_posting(pool, count, chunk < 1 ? 1 : chunk)) {
        publish(pool, 0UL); /* closed: a worker that sees it watches for the job that follows */
    }
}

int hdi_pool_threads(const hdi_pool *pool)
{
    return pool->threads;
}

int hdi_pool_chunk_for(int threads, int count, int least, int most)
{
    int chunk = count / (HD_POOL_CHUNKS_PER_THREAD * threads);
    return chunk < least ? least : chunk > most ? most : chunk;
}

int hdi_pool_chunk(const hdi_pool *pool, int count, int least, int most)
{
    return hdi_pool_chunk_for(pool->threads, count, least, most);
}

/* Opens a job: its inputs, then the job word (publish). */
static unsigned long post(hdi_pool *p, hdi_pool_fn fn, void *ctx, int count, int chunk)
{
    p->fn = fn;
    p->ctx = ctx;
    p->count = count;
    p->chunk = chunk;
    long long chunks = ((long long)count + chunk - 1) / chunk;
    for (int t = 0; t < p->threads; ++t) { /* thread t owns chunks [t c / T, (t + 1) c / T) */
        hdi_pool_share *share = &p->shares[t];
        atomic_store_explicit(&share->next, (int)(t * chunks / p->threads), memory_order_relaxed);
        share->end = (int)((t + 1) * chunks / p->threads);
    }
    return publish(p, 1UL);
}

/* Closes the job (every chunk is claimed) and waits for the workers still inside it. */
static void close_and_wait(hdi_pool *p, unsigned long job)
{
    atomic_store(&p->job, job & ~1UL);
    for (int polls = 1; atomic_load(&p->inside) > 0; ++polls) {
        if (polls % HD_POOL_WAIT_POLLS == 0) {
            sched_yield();
        } else {
            cpu_relax();
        }
    }
}

/* A job on every thread: posted, the caller's lead task (if any) run meanwhile, the caller's
 * share of the chunks, then the wait for the workers still inside. */
static void run_job(hdi_pool *pool, void (*lead)(void *), void *lead_ctx, hdi_pool_fn fn, void *ctx,
                    int count, int chunk)
{
    unsigned long job = post(pool, fn, ctx, count, chunk);
    if (lead != NULL) {
        lead(lead_ctx);
    }
    run_chunks(pool, 0);
    close_and_wait(pool, job);
}

void hdi_pool_run(hdi_pool *pool, hdi_pool_fn fn, void *ctx, int count, int chunk)
{
    if (count <= 0) {
        return;
    }
    if (chunk < 1) {
        chunk = 1;
    }
    if (!worth_posting(pool, count, chunk)) {
        fn(ctx, 0, 0, count);
        return;
    }
    run_job(pool, NULL, NULL, fn, ctx, count, chunk);
}

void hdi_pool_run_beside(hdi_pool *pool, void (*lead)(void *), void *lead_ctx, hdi_pool_fn fn,
                         void *ctx, int count, int chunk)
{
    if (chunk < 1) {
        chunk = 1;
    }
    if (pool->started == 0 || count <= 0) {
        lead(lead_ctx);
        if (count > 0) {
            fn(ctx, 0, 0, count);
        }
        return;
    }
    run_job(pool, lead, lead_ctx, fn, ctx, count, chunk);
}
