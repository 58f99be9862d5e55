/* Stress test of the batch threads (python/src/pool.c over the library's src/scene/pool.c),
 * built with ThreadSanitizer by test_batch.py: four submitting threads run 200 jobs each at once,
 * with 1 to 4 threads per job and a failure at index 7777 in every third job. Every index before
 * the failure (all of them without one) must be computed exactly once, and the failure
 * reported. Exit 0 when all hold. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "hedra_py.h"

#define SUBMITTERS 4
#define JOBS 200
#define FAIL_AT 7777

typedef struct stress_job {
    hdpy_job job;
    int *out;
    int failing;
} stress_job;

static void run(hdpy_job *job, int worker, npy_intp lo, npy_intp hi)
{
    (void)worker;
    stress_job *s = (stress_job *)job;
    for (npy_intp i = lo; i < hi; ++i) {
        s->out[i] += (int)i + 1;
        if (i == FAIL_AT && s->failing) {
            hdpy_job_fail(job, i, HD_ERR_NONFINITE, "stress");
        }
    }
}

/* Wrong entries of one job: each index up to the failure computed once, the failure reported. */
static int check(const stress_job *s)
{
    npy_intp n = s->job.n, end = s->job.fail_index < n ? s->job.fail_index : n;
    int bad = s->failing && n > FAIL_AT ? s->job.fail_index != FAIL_AT : s->job.fail_index != n;
    for (npy_intp i = 0; i < end; ++i) {
        bad += s->out[i] != (int)i + 1;
    }
    return bad;
}

static void *submitter(void *arg)
{
    long id = (long)arg, bad = 0;
    for (int k = 0; k < JOBS; ++k) {
        npy_intp n = 1000 + (id * 37 + k * 101) % 20000;
        stress_job s = {{0}, calloc((size_t)n, sizeof(int)), k % 3 == 0};
        if (s.out == NULL) {
            return (void *)1L;
        }
        s.job.n = n;
        s.job.chunk = 256;
        s.job.run = run;
        hdpy_pool_run(&s.job, 1 + k % 4);
        bad += check(&s);
        free(s.out);
    }
    return (void *)bad;
}

int main(void)
{
    pthread_t tid[SUBMITTERS];
    long bad = 0;
    if (hdpy_pool_init() != 0) {
        return 2;
    }
    for (long i = 0; i < SUBMITTERS; ++i) {
        pthread_create(&tid[i], NULL, submitter, (void *)i);
    }
    for (int i = 0; i < SUBMITTERS; ++i) {
        void *r;
        pthread_join(tid[i], &r);
        bad += (long)r;
    }
    printf("pool stress: %d jobs, %ld wrong entries\n", SUBMITTERS * JOBS, bad);
    return bad != 0;
}
