/* A scene on a job system of its own: a few POSIX threads taking ranges from one queue, as a
 * game engine's job system would. enqueue cuts the job into ranges and queues them; the threads
 * run them (each with its own worker index); finish waits until the job's last range is done.
 * Checks that the contacts equal those of hedra's own pool. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "frames.h"

#define WORKERS 3
#define QUEUE 4096

typedef struct range {
    hd_task_fn task;
    void *task_ctx;
    int begin, end;
} range;

typedef struct job_system {
    pthread_mutex_t lock;
    pthread_cond_t work; /* ranges queued, or stop */
    pthread_cond_t done; /* a job's last range finished */
    range queue[QUEUE];
    int head, tail; /* queue[head .. tail) waits to run */
    int running;    /* ranges queued or running */
    int stop;
    pthread_t threads[WORKERS];
} job_system;

typedef struct worker_arg {
    job_system *sys;
    int index;
} worker_arg;

static void *worker_main(void *arg)
{
    const worker_arg *w = arg;
    job_system *sys = w->sys;
    pthread_mutex_lock(&sys->lock);
    for (;;) {
        while (sys->head == sys->tail && !sys->stop) {
            pthread_cond_wait(&sys->work, &sys->lock);
        }
        if (sys->head == sys->tail) {
            break;
        }
        range r = sys->queue[sys->head++ % QUEUE];
        pthread_mutex_unlock(&sys->lock);
        r.task(r.begin, r.end, w->index, r.task_ctx);
        pthread_mutex_lock(&sys->lock);
        if (--sys->running == 0) {
            pthread_cond_broadcast(&sys->done);
        }
    }
    pthread_mutex_unlock(&sys->lock);
    return NULL;
}

/* Ranges of the hint's size at least, about four per worker. */
static void *jobs_enqueue(hd_task_fn task, void *task_ctx, int count, int min_range, void *user)
{
    job_system *sys = user;
    int size = count / (4 * WORKERS) > min_range ? count / (4 * WORKERS) : min_range;
    pthread_mutex_lock(&sys->lock);
    for (int begin = 0; begin < count; begin += size) {
        int end = count - begin > size ? begin + size : count;
        sys->queue[sys->tail++ % QUEUE] = (range){task, task_ctx, begin, end};
        sys->running++;
    }
    pthread_cond_broadcast(&sys->work);
    pthread_mutex_unlock(&sys->lock);
    return NULL;
}

static void jobs_finish(void *handle, void *user)
{
    (void)handle;
    job_system *sys = user;
    pthread_mutex_lock(&sys->lock);
    while (sys->running > 0) {
        pthread_cond_wait(&sys->done, &sys->lock);
    }
    pthread_mutex_unlock(&sys->lock);
}

int main(void)
{
    static job_system sys; /* zeroed; the lock and conditions initialised below */
    pthread_mutex_init(&sys.lock, NULL);
    pthread_cond_init(&sys.work, NULL);
    pthread_cond_init(&sys.done, NULL);
    worker_arg args[WORKERS];
    for (int i = 0; i < WORKERS; ++i) {
        args[i] = (worker_arg){&sys, i};
        if (pthread_create(&sys.threads[i], NULL, worker_main, &args[i]) != 0) {
            return 2;
        }
    }
    hd_task_callbacks tasks = {jobs_enqueue, jobs_finish, WORKERS, &sys};
    int rc = frames_compare(&tasks, "jobs");
    pthread_mutex_lock(&sys.lock);
    sys.stop = 1;
    pthread_cond_broadcast(&sys.work);
    pthread_mutex_unlock(&sys.lock);
    for (int i = 0; i < WORKERS; ++i) {
        pthread_join(sys.threads[i], NULL);
    }
    return rc;
}
