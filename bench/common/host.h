/* What the host took from this machine: the "steal" ticks of /proc/stat (time a virtual CPU was
 * ready to run but the hypervisor ran something else), read around a measurement so that a run
 * can be read against it. Ticks are 10 ms: a reading means little over less than a second. */
#ifndef HD_BENCH_HOST_H
#define HD_BENCH_HOST_H

#define HD_BENCH_MAX_CPUS 64

typedef struct hd_bench_ticks {
    int cpus; /* 0 when /proc/stat could not be read */
    long long steal[HD_BENCH_MAX_CPUS];
    long long total[HD_BENCH_MAX_CPUS]; /* user to steal */
} hd_bench_ticks;

void hd_bench_ticks_read(hd_bench_ticks *t);

/* The stolen share of the ticks between two readings, over all CPUs (*mean) and on the CPU that
 * lost the most (*max); both -1 when unknown. */
void hd_bench_steal(const hd_bench_ticks *t0, const hd_bench_ticks *t1, double *mean, double *max);

#endif
