/* The registry of benchmark methods: hedra's, then each peer compiled in (HD_BENCH_HAVE_* are set
 * by bench/CMakeLists.txt from what was found at configure time). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "peers/peers.h"

int hd_bench_all_methods(hd_bench_method *list, int capacity, const char **notes)
{
    int n = hd_bench_hedra_methods(list, capacity);
#if HD_BENCH_HAVE_CCD
    n += hd_bench_ccd_methods(list + n, capacity - n);
#endif
#if HD_BENCH_HAVE_BULLET
    n += hd_bench_bullet_methods(list + n, capacity - n);
#endif
#if HD_BENCH_HAVE_FCL
    n += hd_bench_fcl_methods(list + n, capacity - n);
#endif
#if HD_BENCH_HAVE_GLPK
    n += hd_bench_glpk_methods(list + n, capacity - n);
#endif
    if (notes != NULL) {
        *notes = "peers: libccd " HD_BENCH_CCD_NOTE "; Bullet " HD_BENCH_BULLET_NOTE
                 "; FCL " HD_BENCH_FCL_NOTE "; GLPK " HD_BENCH_GLPK_NOTE;
    }
    return n;
}

void *hd_bench_point_set_create(const hd_bench_shape *in)
{
    hd_bench_point_set *s = malloc(sizeof *s);
    if (s == NULL) {
        return NULL;
    }
    s->n = in->n;
    s->xyz = malloc(sizeof(double) * 3 * (size_t)in->n);
    if (s->xyz == NULL) {
        free(s);
        return NULL;
    }
    memcpy(s->xyz, in->xyz, sizeof(double) * 3 * (size_t)in->n);
    s->centroid[0] = s->centroid[1] = s->centroid[2] = 0.0;
    for (int i = 0; i < in->n; ++i) {
        for (int k = 0; k < 3; ++k) {
            s->centroid[k] += in->xyz[3 * i + k] / in->n;
        }
    }
    return s;
}

void hd_bench_point_set_destroy(void *handle)
{
    hd_bench_point_set *s = handle;
    if (s != NULL) {
        free(s->xyz);
        free(s);
    }
}
