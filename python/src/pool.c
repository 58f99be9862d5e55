/* The batch functions' threads: the library's pool (src/scene/pool.h), one per submitting
 * thread. Several Python threads may run batches at once (the GIL released): each borrows an idle
 * pool of the thread count it asks for, or starts one, and gives it back when its batch is done,
 * so a pool only ever has one submitter, which is the library pool's contract. The pool's own
 * properties carry over: the submitter is worker 0, a worker that wakes after every chunk is
 * claimed stays out of the job (so a job may live on the submitter's stack, and an unscheduled
 * worker costs no waiting). After fork() the child forgets the parent's pools, whose threads it
 * does not have, and starts new ones on demand. */
#include <pthread.h>

#include "hedra_py.h"
#include "scene/pool.h"

/* Idle pools kept for the next batches; more (after many concurrent submitters) are stopped. */
#define HDPY_IDLE_POOLS 8

/* Items per library job: the pool counts in int, a batch in npy_intp. */
#define HDPY_SLICE (1 << 30)

static struct {
    pthread_mutex_t lock; /* the idle pools, and every job's failure record */
    hdi_pool *idle[HDPY_IDLE_POOLS];
    int idle_count;
} lender = {PTHREAD_MUTEX_INITIALIZER, {NULL}, 0};

/* An idle pool of `threads` threads, or a new one; NULL when none can be started. */
static hdi_pool *borrow(int threads)
{
    pthread_mutex_lock(&lender.lock);
    for (int k = 0; k < lender.idle_count; ++k) {
        hdi_pool *p = lender.idle[k];
        if (hdi_pool_threads(p) == threads) {
            lender.idle[k] = lender.idle[--lender.idle_count];
            pthread_mutex_unlock(&lender.lock);
            return p;
        }
    }
    pthread_mutex_unlock(&lender.lock);
    hdi_pool *p = NULL;
    return hdi_pool_create(threads, &p) == HD_OK ? p : NULL;
}

static void give_back(hdi_pool *p)
{
    pthread_mutex_lock(&lender.lock);
    if (lender.idle_count < HDPY_IDLE_POOLS) {
        lender.idle[lender.idle_count++] = p;
        p = NULL;
    }
    pthread_mutex_unlock(&lender.lock);
    hdi_pool_destroy(p);
}

/* The job's lowest failure so far (under the lock: workers record failures concurrently). */
static npy_intp fail_index(hdpy_job *job)
{
    pthread_mutex_lock(&lender.lock);
    npy_intp index = job->fail_index;
    pthread_mutex_unlock(&lender.lock);
    return index;
}

/* A chunk of one slice of the job: items base + [begin, end) of [0, n), none past a failure. */
typedef struct slice {
    hdpy_job *job;
    npy_intp base;
} slice;

static void run_slice_chunk(void *ctx, int worker, int begin, int end)
{
    const slice *sl = ctx;
    npy_intp lo = sl->base + begin;
    if (lo <= fail_index(sl->job)) {
        sl->job->run(sl->job, worker, lo, sl->base + end);
    }
}

/* Chunk boundaries stay those of job->chunk: each slice is a whole number of chunks. */
static void run_on(hdi_pool *p, hdpy_job *job)
{
    npy_intp slice_items = HDPY_SLICE / job->chunk * job->chunk;
    for (npy_intp base = 0; base < job->n; base += slice_items) {
        npy_intp count = job->n - base < slice_items ? job->n - base : slice_items;
        slice sl = {job, base};
        if (p != NULL) {
            hdi_pool_run(p, run_slice_chunk, &sl, (int)count, (int)job->chunk);
        } else {
            for (npy_intp c = 0; c < count; c += job->chunk) {
                run_slice_chunk(&sl, 0, (int)c,
                                (int)(count - c < job->chunk ? count : c + job->chunk));
            }
        }
    }
}

void hdpy_pool_run(hdpy_job *job, int threads)
{
    job->fail_index = job->n;
    if (job->chunk > HDPY_SLICE) {
        job->chunk = HDPY_SLICE;
    }
    hdi_pool *p = threads > 1 && job->n > job->chunk ? borrow(threads) : NULL;
    run_on(p, job); /* no pool (one thread, or none could start): the caller alone */
    if (p != NULL) {
        give_back(p);
    }
}

void hdpy_job_fail(hdpy_job *job, npy_intp index, hd_status status, const char *what)
{
    pthread_mutex_lock(&lender.lock);
    if (index < job->fail_index) {
        job->fail_index = index;
        job->fail_status = status;
        job->fail_what = what;
    }
    pthread_mutex_unlock(&lender.lock);
}

/* fork(): the lock held across it, so that the child's copy of the idle list is consistent; the
 * child drops the list (its pools' threads did not survive: their memory is left, not freed). */
static void before_fork(void)
{
    pthread_mutex_lock(&lender.lock);
}

static void after_fork_parent(void)
{
    pthread_mutex_unlock(&lender.lock);
}

static void after_fork_child(void)
{
    lender.idle_count = 0;
    pthread_mutex_unlock(&lender.lock);
}

int hdpy_pool_init(void)
{
    return pthread_atfork(before_fork, after_fork_parent, after_fork_child) == 0 ? 0 : -1;
}
