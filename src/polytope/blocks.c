/* The vertices in structure-of-arrays blocks for the vector support scans (support/kernels.h),
 * and the choice of the scan kernel for the running CPU, made once per polytope at build so that
 * a support call switches on a field instead of calling through a pointer. Layout and kernels:
 * docs/algorithms/support.md, "Vertex blocks and vector kernels". */
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

int hdi_scan_kernel_default(void)
{
    /* The plain scan: on the small hulls the blocks serve, the vector kernels execute fewer
     * instructions but took more wall time than it in the same-run medians (support.md), so
     * they stay available (hdi_support_scan_by) and tested, and are not the default. */
    return HDI_SCAN_PLAIN;
}

void hdi_poly_fill_blocks(hd_polytope *p)
{
    int n = p->vertex_count;
    int lanes = (n + HD_BLOCK_VERTS - 1) / HD_BLOCK_VERTS * HD_BLOCK_VERTS;
    for (int i = 0; i < lanes; ++i) {
        /* padding repeats the last vertex: equal in value to a lower index, it never wins a tie */
        const double *v = p->verts + 3 * (i < n ? i : n - 1);
        double *block = p->blocks + HD_BLOCK_DOUBLES * (i / HD_BLOCK_VERTS);
        for (int k = 0; k < 3; ++k) {
            block[HD_BLOCK_VERTS * k + i % HD_BLOCK_VERTS] = v[k];
        }
    }
    p->scan_kernel = hdi_scan_kernel_default();
}
