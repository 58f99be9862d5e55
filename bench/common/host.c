/* Steal ticks from /proc/stat (host.h). */
#define _POSIX_C_SOURCE 200809L
#include "common/host.h"

#include <stdio.h>
#include <string.h>

void hd_bench_ticks_read(hd_bench_ticks *t)
{
    t->cpus = 0;
    FILE *fp = fopen("/proc/stat", "r");
    char line[512];
    while (fp != NULL && t->cpus < HD_BENCH_MAX_CPUS && fgets(line, sizeof line, fp) != NULL) {
        long long v[8];
        int id;
        /* "cpuN user nice system idle iowait irq softirq steal ..." ("cpu", the sum, skipped) */
        if (strncmp(line, "cpu", 3) != 0 || line[3] < '0' || line[3] > '9' ||
            sscanf(line + 3, "%d %lld %lld %lld %lld %lld %lld %lld %lld", &id, &v[0], &v[1], &v[2],
                   &v[3], &v[4], &v[5], &v[6], &v[7]) != 9) {
            continue;
        }
        t->steal[t->cpus] = v[7];
        t->total[t->cpus] = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
        t->cpus++;
    }
    if (fp != NULL) {
        fclose(fp);
    }
}

void hd_bench_steal(const hd_bench_ticks *t0, const hd_bench_ticks *t1, double *mean, double *max)
{
    long long steal = 0, total = 0;
    *mean = *max = -1.0;
    for (int c = 0; c < t0->cpus && t0->cpus == t1->cpus; ++c) {
        long long s = t1->steal[c] - t0->steal[c], all = t1->total[c] - t0->total[c];
        steal += s;
        total += all;
        if (all > 0 && (double)s / (double)all > *max) {
            *max = (double)s / (double)all;
        }
    }
    if (total > 0) {
        *mean = (double)steal / (double)total;
    }
}
