/* How two threads scale on this machine, apart from hedra: the limit a scene step's 2-core
 * speed-up is measured against (docs/BENCHMARKS.md, "Scenes"). Each kind of work runs on one
 * thread, then on two threads each doing the same amount (scaling = 2 x one thread's time / two
 * threads' time, 2.0 when the second core adds a full core):
 *   - a dependent floating-point loop (no memory traffic);
 *   - streaming reads over 128 MB per thread;
 *   - random reads over 128 MB per thread (beyond the last-level cache) and over 16 MB (within);
 * and the round trip of one cache line handed back and forth between the two threads.
 * usage: hedra_cores_probe   (about 10 s; needs 256 MB) */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { PROBE_FP, PROBE_STREAM, PROBE_RANDOM };

#define PROBE_BIG_WORDS ((size_t)1 << 24)   /* 128 MB of 8-byte words */
#define PROBE_SMALL_WORDS ((size_t)1 << 21) /* 16 MB */
#define PROBE_FP_STEPS 400000000L
#define PROBE_RANDOM_READS 40000000L
#define PROBE_STREAM_PASSES 4
#define PROBE_ROUND_TRIPS 200000

typedef struct probe_job {
    int kind;
    size_t words;
    const uint64_t *mem;
    volatile double out; /* keeps the loop's result alive */
} probe_job;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double fp_loop(void)
{
    double x = 1.0;
    for (long i = 0; i < PROBE_FP_STEPS; ++i) {
        x = x * 1.0000001 + 1e-9;
    }
    return x;
}

static double stream_reads(const uint64_t *mem, size_t words)
{
    uint64_t s = 0;
    for (int r = 0; r < PROBE_STREAM_PASSES; ++r) {
        for (size_t i = 0; i < words; ++i) {
            s += mem[i];
        }
    }
    return (double)s;
}

/* Reads at indices from a xorshift generator (Marsaglia 2003): independent loads, as many in
 * flight as the core allows. */
static double random_reads(const uint64_t *mem, size_t words)
{
    uint64_t s = 0, x = 88172645463325252ULL;
    for (long i = 0; i < PROBE_RANDOM_READS; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        s += mem[x & (words - 1)];
    }
    return (double)s;
}

static void *probe_run(void *arg)
{
    probe_job *j = arg;
    j->out = j->kind == PROBE_FP       ? fp_loop()
             : j->kind == PROBE_STREAM ? stream_reads(j->mem, j->words)
                                       : random_reads(j->mem, j->words);
    return NULL;
}

/* Seconds for `threads` threads (1 or 2) each doing one job of the kind; -1 on a thread error. */
static double timed(int kind, int threads, size_t words, uint64_t *const mem[2])
{
    pthread_t id[2];
    probe_job job[2];
    double t0 = now_s();
    for (int k = 0; k < threads; ++k) {
        job[k].kind = kind;
        job[k].words = words;
        job[k].mem = mem[k];
        if (pthread_create(&id[k], NULL, probe_run, &job[k]) != 0) {
            return -1.0;
        }
    }
    for (int k = 0; k < threads; ++k) {
        pthread_join(id[k], NULL);
    }
    return now_s() - t0;
}

static int report(const char *name, int kind, size_t words, uint64_t *const mem[2])
{
    double one = timed(kind, 1, words, mem), two = timed(kind, 2, words, mem);
    if (one < 0.0 || two < 0.0) {
        return 0;
    }
    printf("%-24s 1 thread %.3f s, 2 threads (twice the work) %.3f s: scaling %.2f\n", name, one,
           two, 2.0 * one / two);
    return 1;
}

static atomic_int probe_ball;

static void *pong(void *arg)
{
    (void)arg;
    for (int i = 0; i < PROBE_ROUND_TRIPS; ++i) {
        while (atomic_load_explicit(&probe_ball, memory_order_acquire) != 1) {
        }
        atomic_store_explicit(&probe_ball, 0, memory_order_release);
    }
    return NULL;
}

/* ns per round trip of one cache line between two threads; -1 on a thread error. */
static double round_trip_ns(void)
{
    pthread_t t;
    atomic_store(&probe_ball, 0);
    if (pthread_create(&t, NULL, pong, NULL) != 0) {
        return -1.0;
    }
    double t0 = now_s();
    for (int i = 0; i < PROBE_ROUND_TRIPS; ++i) {
        atomic_store_explicit(&probe_ball, 1, memory_order_release);
        while (atomic_load_explicit(&probe_ball, memory_order_acquire) != 0) {
        }
    }
    double dt = now_s() - t0;
    pthread_join(t, NULL);
    return 1e9 * dt / PROBE_ROUND_TRIPS;
}

int main(void)
{
    uint64_t *mem[2] = {malloc(PROBE_BIG_WORDS * sizeof(uint64_t)),
                        malloc(PROBE_BIG_WORDS * sizeof(uint64_t))};
    if (mem[0] == NULL || mem[1] == NULL) {
        fprintf(stderr, "hedra_cores_probe: out of memory\n");
        return 1;
    }
    for (int k = 0; k < 2; ++k) {
        for (size_t i = 0; i < PROBE_BIG_WORDS; ++i) {
            mem[k][i] = (uint64_t)i * 2654435761u;
        }
    }
    int ok = report("dependent fp loop", PROBE_FP, 0, mem) &&
             report("streaming reads, 128 MB", PROBE_STREAM, PROBE_BIG_WORDS, mem) &&
             report("random reads, 128 MB", PROBE_RANDOM, PROBE_BIG_WORDS, mem) &&
             report("random reads, 16 MB", PROBE_RANDOM, PROBE_SMALL_WORDS, mem);
    double rt = ok ? round_trip_ns() : -1.0;
    if (rt >= 0.0) {
        printf("cache line round trip between the threads: %.0f ns\n", rt);
    }
    free(mem[0]);
    free(mem[1]);
    if (rt < 0.0) {
        fprintf(stderr, "hedra_cores_probe: could not start a thread\n");
        return 1;
    }
    return 0;
}
