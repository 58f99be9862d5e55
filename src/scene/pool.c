/* The thread pool (pool.h): POSIX threads, one mutex and two condition variables, an atomic
 * chunk counter. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "scene/pool.h"

typedef struct hd_pool_worker {
    hd_pool *pool;
    int index;
} hd_pool_worker;

struct hd_pool {
    int threads;
    int started; /* workers running */
    pthread_t *ids;
    hd_pool_worker *args;
    pthread_mutex_t lock;
    pthread_cond_t wake;      /* a job or the stop order is posted */
    pthread_cond_t done;      /* the last worker inside a closed job left it */
    unsigned long generation; /* jobs posted so far */
    int stop;
    int open;   /* the current job may still be joined */
    int inside; /* workers that joined it and have not left */
    hd_pool_fn fn;
    void *ctx;
    int count;
    int chunk;
    atomic_int next; /* first item not yet claimed */
};

int hd_pool_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : (n > 1 << 20 ? 1 << 20 : (int)n);
}

/* Claims and runs chunks until none is left. */
static void run_chunks(hd_pool *p, hd_pool_fn fn, void *ctx, int count, int chunk, int worker)
{
    for (;;) {
        int begin = atomic_fetch_add_explicit(&p->next, chunk, memory_order_relaxed);
        if (begin >= count) {
            return;
        }
        fn(ctx, worker, begin, count - begin < chunk ? count : begin + chunk);
    }
}

/* A worker sleeps until a job is posted. It joins the job only while the job is open: one that
 * wakes after the caller closed it (the caller ran every chunk) skips it, so that the caller
 * never waits for a worker the system has not scheduled yet. */
static void *worker_main(void *arg)
{
    hd_pool_worker *w = arg;
    hd_pool *p = w->pool;
    unsigned long seen = 0; /* no job was posted before the workers were started */
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->stop && p->generation == seen) {
            pthread_cond_wait(&p->wake, &p->lock);
        }
        if (p->stop) {
            break;
        }
        seen = p->generation;
        if (!p->open) {
            continue;
        }
        p->inside++;
        hd_pool_fn fn = p->fn;
        void *ctx = p->ctx;
        int count = p->count, chunk = p->chunk;
        pthread_mutex_unlock(&p->lock);
        run_chunks(p, fn, ctx, count, chunk, w->index);
        pthread_mutex_lock(&p->lock);
        if (--p->inside == 0 && !p->open) {
            pthread_cond_signal(&p->done);
        }
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* Posts the stop order and joins the started workers. */
static void stop_workers(hd_pool *p)
{
    pthread_mutex_lock(&p->lock);
    p->stop = 1;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < p->started; ++i) {
        pthread_join(p->ids[i], NULL);
    }
    p->started = 0;
}

static void release(hd_pool *p)
{
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    free(p->ids);
    free(p->args);
    free(p);
}

/* The pool's memory and synchronization objects, no thread yet; NULL on failure. */
static hd_pool *allocate(int threads)
{
    hd_pool *p = calloc(1, sizeof *p);
    if (p == NULL) {
        return NULL;
    }
    p->threads = threads;
    atomic_init(&p->next, 0);
    p->ids = calloc((size_t)threads, sizeof *p->ids);
    p->args = calloc((size_t)threads, sizeof *p->args);
    int made = 0;
    if (p->ids != NULL && p->args != NULL && pthread_mutex_init(&p->lock, NULL) == 0) {
        made = 1;
        if (pthread_cond_init(&p->wake, NULL) == 0) {
            made = 2;
            made += pthread_cond_init(&p->done, NULL) == 0;
        }
    }
    if (made == 3) {
        return p;
    }
    if (made == 2) {
        pthread_cond_destroy(&p->wake);
    }
    if (made >= 1) {
        pthread_mutex_destroy(&p->lock);
    }
    free(p->ids);
    free(p->args);
    free(p);
    return NULL;
}

hd_status hd_pool_create(int threads, hd_pool **out)
{
    *out = NULL;
    hd_pool *p = allocate(threads);
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

void hd_pool_destroy(hd_pool *pool)
{
    if (pool == NULL) {
        return;
    }
    stop_workers(pool);
    release(pool);
}

int hd_pool_threads(const hd_pool *pool)
{
    return pool->threads;
}

void hd_pool_run(hd_pool *pool, hd_pool_fn fn, void *ctx, int count, int chunk)
{
    if (count <= 0) {
        return;
    }
    if (chunk < 1) {
        chunk = 1;
    }
    if (pool->started == 0 || count <= 2 * chunk) {
        fn(ctx, 0, 0, count); /* too small to be worth waking anyone */
        return;
    }
    pthread_mutex_lock(&pool->lock);
    pool->fn = fn;
    pool->ctx = ctx;
    pool->count = count;
    pool->chunk = chunk;
    atomic_store_explicit(&pool->next, 0, memory_order_relaxed);
    pool->open = 1;
    pool->generation++;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    run_chunks(pool, fn, ctx, count, chunk, 0);
    pthread_mutex_lock(&pool->lock);
    pool->open = 0; /* every chunk is claimed: wait only for the workers inside */
    while (pool->inside > 0) {
        pthread_cond_wait(&pool->done, &pool->lock);
    }
    pthread_mutex_unlock(&pool->lock);
}
