/* The vertices in structure-of-arrays blocks for the vector support scans (support/kernels.h),
 * and the choice of the scan kernel for the running CPU, made once per polytope at build so that
 * a support call switches on a field instead of testing the CPU or calling through a pointer.
 * Layout and kernels: docs/algorithms/support.md, section 4. */
#include <stdlib.h>
#include <string.h>

#include "core/tolerances.h"
#include "polytope/build.h"

int hdi_scan_kernel_available(int kernel)
{
    switch (kernel) {
        case HDI_SCAN_PLAIN:
            return 1;
#if HD_SCAN_X86
        case HDI_SCAN_SSE2:
            return 1; /* part of x86-64 itself */
        case HDI_SCAN_AVX2:
            return __builtin_cpu_supports("avx2");
        case HDI_SCAN_AVX512:
            return __builtin_cpu_supports("avx512f");
#endif
        default:
            return 0;
    }
}

/* HEDRA_SCAN_KERNEL=plain|sse2|avx2|avx512 names the kernel of the polytopes built from then on
 * (for comparing the kernels in one process: every one gives the same answers); -1 otherwise. */
static int kernel_from_environment(void)
{
    static const char *const names[HDI_SCAN_KERNELS] = {"plain", "sse2", "avx2", "avx512"};
    const char *name = getenv("HEDRA_SCAN_KERNEL");
    for (int k = 0; name != NULL && k < HDI_SCAN_KERNELS; ++k) {
        if (strcmp(name, names[k]) == 0 && hdi_scan_kernel_available(k)) {
            return k;
        }
    }
    return -1;
}

int hdi_scan_kernel_default(void)
{
    int named = kernel_from_environment();
    if (named >= 0) {
        return named;
    }
    /* AVX2 where the CPU has it, else SSE2 (x86-64) or the plain scan: the measurements in
     * support.md, section 4, chose it */
    if (hdi_scan_kernel_available(HDI_SCAN_AVX2)) {
        return HDI_SCAN_AVX2;
    }
    return hdi_scan_kernel_available(HDI_SCAN_SSE2) ? HDI_SCAN_SSE2 : HDI_SCAN_PLAIN;
}

size_t hdi_poly_blocks_bytes(int vertex_count)
{
    if (vertex_count <= 0 || vertex_count > HD_SCAN_BLOCKS_MAX) {
        return 0;
    }
    size_t count = ((size_t)vertex_count + HD_BLOCK_VERTS - 1) / HD_BLOCK_VERTS;
    return HD_BLOCK_DOUBLES * count * sizeof(double);
}

void hdi_poly_fill_blocks(hd_polytope *p)
{
    int n = p->vertex_count;
    if (p->blocks == NULL) {
        p->scan_kernel = HDI_SCAN_PLAIN;
        return;
    }
    int lanes = (n + HD_BLOCK_VERTS - 1) / HD_BLOCK_VERTS * HD_BLOCK_VERTS;
    for (int i = 0; i < lanes; ++i) {
        /* padding repeats vertex 0: equal in value to a lower index, it never wins a tie */
        const double *v = p->verts + 3 * (i < n ? i : 0);
        double *block = p->blocks + HD_BLOCK_DOUBLES * (i / HD_BLOCK_VERTS);
        for (int k = 0; k < 3; ++k) {
            block[HD_BLOCK_VERTS * k + i % HD_BLOCK_VERTS] = v[k];
        }
    }
    p->scan_kernel = hdi_scan_kernel_default();
}
