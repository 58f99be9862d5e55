/* A scene driven from OpenMP: the scene's range jobs become `omp for` loops on the team of the
 * program's OpenMP runtime, the worker index being omp_get_thread_num(). enqueue only records
 * the job; finish runs it (the contract lets ranges run at either point), so that the parallel
 * region starts and ends within finish. Checks that the contacts equal those of hedra's pool. */
#include <omp.h>
#include <stdio.h>

#include "frames.h"

typedef struct omp_job {
    hd_task_fn task;
    void *task_ctx;
    int count, min_range;
} omp_job;

typedef struct omp_system {
    int workers;
    omp_job job; /* the scene has one job out at a time */
} omp_system;

static void *omp_enqueue(hd_task_fn task, void *task_ctx, int count, int min_range, void *user)
{
    omp_system *sys = user;
    sys->job = (omp_job){task, task_ctx, count, min_range};
    return &sys->job;
}

static void omp_finish(void *handle, void *user)
{
    const omp_system *sys = user;
    const omp_job *job = handle;
    int ranges = (job->count + job->min_range - 1) / job->min_range;
#pragma omp parallel for schedule(dynamic) num_threads(sys->workers)
    for (int r = 0; r < ranges; ++r) {
        int begin = r * job->min_range;
        int end = begin + job->min_range < job->count ? begin + job->min_range : job->count;
        job->task(begin, end, omp_get_thread_num(), job->task_ctx);
    }
}

int main(void)
{
    int workers = omp_get_max_threads();
    omp_system sys = {workers < HD_SCENE_MAX_THREADS ? workers : HD_SCENE_MAX_THREADS, {0}};
    hd_task_callbacks tasks = {omp_enqueue, omp_finish, sys.workers, &sys};
    return frames_compare(&tasks, "openmp");
}
