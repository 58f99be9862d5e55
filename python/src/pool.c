/* The thread pool of the batch functions: POSIX threads started on first use and kept, waiting
 * for jobs. A job is a range [0, n) cut into chunks handed out in order; the thread that submits
 * it works on it too, and up to threads - 1 pool threads help. Any number of jobs (from several
 * Python threads, the GIL being released) may run at once: a helper takes a chunk from the first
 * job that has one left and a free helper slot.
 *
 * The submitter returns once every chunk handed out is done. A helper that wakes up late finds
 * the job gone from the list and never touches it, so a job may live on the submitter's stack,
 * and an overloaded machine that does not schedule a helper in time costs no waiting: the
 * submitter then does the whole job alone. After fork() the child starts with an empty pool. */
#include <pthread.h>

#include "hedra_py.h"

static struct {
    pthread_mutex_t lock;
    pthread_cond_t wake; /* a job was added: helpers look for work */
    pthread_cond_t done; /* a chunk finished: submitters check their job */
    int threads;         /* helpers started */
    hdpy_job *jobs;      /* jobs with chunks left, oldest first */
} pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, NULL};

/* The next chunk of job into [lo, hi); 0 when none is left. Called with the lock held. */
static int take(hdpy_job *job, npy_intp *lo, npy_intp *hi)
{
    if (job->next >= job->n || job->next > job->fail_index) {
        return 0;
    }
    *lo = job->next;
    *hi = job->n - job->next > job->chunk ? job->next + job->chunk : job->n;
    job->next = *hi;
    job->in_flight++;
    return 1;
}

/* Runs chunks of job until none is left; called and returns with the lock held. */
static void work_on(hdpy_job *job)
{
    npy_intp lo, hi;
    while (take(job, &lo, &hi)) {
        pthread_mutex_unlock(&pool.lock);
        job->run(job, lo, hi);
        pthread_mutex_lock(&pool.lock);
        if (--job->in_flight == 0) {
            pthread_cond_broadcast(&pool.done);
        }
    }
}

static hdpy_job *job_wanting_help(void)
{
    for (hdpy_job *job = pool.jobs; job != NULL; job = job->link) {
        if (job->helpers < job->max_helpers && job->next < job->n && job->next <= job->fail_index) {
            return job;
        }
    }
    return NULL;
}

static void *helper(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&pool.lock);
    for (;;) {
        hdpy_job *job = job_wanting_help();
        if (job == NULL) {
            pthread_cond_wait(&pool.wake, &pool.lock);
            continue;
        }
        job->helpers++;
        work_on(job);
        job->helpers--;
    }
    return NULL;
}

/* Starts helpers up to count (fewer if the system refuses); called with the lock held. */
static void grow(int count)
{
    while (pool.threads < count) {
        pthread_t tid;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        int rc = pthread_create(&tid, &attr, helper, NULL);
        pthread_attr_destroy(&attr);
        if (rc != 0) {
            break;
        }
        pool.threads++;
    }
}

static void unlink_job(hdpy_job *job)
{
    hdpy_job **p = &pool.jobs;
    while (*p != job) {
        p = &(*p)->link;
    }
    *p = job->link;
}

void hdpy_pool_run(hdpy_job *job, int threads)
{
    job->fail_index = job->n;
    job->next = 0;
    job->helpers = 0;
    job->in_flight = 0;
    job->max_helpers = threads - 1;
    job->link = NULL;
    pthread_mutex_lock(&pool.lock);
    if (job->max_helpers > 0 && job->n > job->chunk) {
        grow(job->max_helpers);
        hdpy_job **tail = &pool.jobs;
        while (*tail != NULL) {
            tail = &(*tail)->link;
        }
        *tail = job;
        pthread_cond_broadcast(&pool.wake);
        work_on(job);
        unlink_job(job);
    } else {
        work_on(job);
    }
    while (job->in_flight > 0) {
        pthread_cond_wait(&pool.done, &pool.lock);
    }
    pthread_mutex_unlock(&pool.lock);
}

void hdpy_job_fail(hdpy_job *job, npy_intp index, hd_status status, const char *what)
{
    pthread_mutex_lock(&pool.lock);
    if (index < job->fail_index) {
        job->fail_index = index;
        job->fail_status = status;
        job->fail_what = what;
    }
    pthread_mutex_unlock(&pool.lock);
}

/* fork(): hold the lock across it, so that the child's copy is consistent; the child has none
 * of the helpers, and no job of its own yet. */
static void before_fork(void)
{
    pthread_mutex_lock(&pool.lock);
}

static void after_fork_parent(void)
{
    pthread_mutex_unlock(&pool.lock);
}

static void after_fork_child(void)
{
    pool.threads = 0;
    pool.jobs = NULL;
    pthread_cond_init(&pool.wake, NULL);
    pthread_cond_init(&pool.done, NULL);
    pthread_mutex_unlock(&pool.lock);
}

int hdpy_pool_init(void)
{
    return pthread_atfork(before_fork, after_fork_parent, after_fork_child) == 0 ? 0 : -1;
}
