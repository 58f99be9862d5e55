/* Support scans over a polytope's structure-of-arrays vertex blocks (polytope/internal.h), one
 * kernel per instruction set. Each returns the index the plain scan (hdi_support_scan) returns,
 * bit for bit: the same products and sums in the same order, (x dx + y dy) + z dz, with no fused
 * multiply-add (the library is compiled as ISO C, where GCC contracts nothing, and kernels.c with
 * -ffp-contract=off besides), and the lowest index among equal values. How: support.md, "Vertex
 * blocks and vector kernels". */
#ifndef HD_SUPPORT_KERNELS_H
#define HD_SUPPORT_KERNELS_H

#include "polytope/internal.h"

/* The scan of the n >= 1 vertices held in blocks by one instruction set; only where
 * hdi_scan_kernel_available says the CPU has it. */
#if HD_SCAN_X86
int hdi_scan_sse2(const double *blocks, int n, const double d[3]);
int hdi_scan_avx2(const double *blocks, int n, const double d[3]);
int hdi_scan_avx512(const double *blocks, int n, const double d[3]);
#endif

#endif
