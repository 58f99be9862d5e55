/* Axis-aligned boxes of the scene module: closed boxes [lo, hi], inline helpers (and the prefetch
 * hint its loops share). */
#ifndef HD_SCENE_BOX_H
#define HD_SCENE_BOX_H

typedef struct hdi_box {
    double lo[3];
    double hi[3];
} hdi_box;

/* Do the closed boxes [alo, ahi] and [blo, bhi] share a point? */
static inline int hdi_box_overlap(const double alo[3], const double ahi[3], const double blo[3],
                                  const double bhi[3])
{
    return alo[0] <= bhi[0] && blo[0] <= ahi[0] && alo[1] <= bhi[1] && blo[1] <= ahi[1] &&
           alo[2] <= bhi[2] && blo[2] <= ahi[2];
}

/* Does the segment o + t d, 0 <= t <= t_max, meet the closed box [lo, hi]? The slab method; its
 * rounding (a few units of |o| + t |d|) stays far inside the band every body's box is widened by,
 * so no box the exact segment meets is missed. */
static inline int hdi_box_ray(const double lo[3], const double hi[3], const double o[3],
                              const double d[3], double t_max)
{
    double t0 = 0.0, t1 = t_max;
    for (int k = 0; k < 3; ++k) {
        if (d[k] == 0.0) {
            if (o[k] < lo[k] || o[k] > hi[k]) {
                return 0;
            }
            continue;
        }
        double a = (lo[k] - o[k]) / d[k], b = (hi[k] - o[k]) / d[k];
        t0 = a < b ? (a > t0 ? a : t0) : (b > t0 ? b : t0);
        t1 = a < b ? (b < t1 ? b : t1) : (a < t1 ? a : t1);
        if (t0 > t1) {
            return 0;
        }
    }
    return 1;
}

/* Is [ilo, ihi] inside [olo, ohi]? */
static inline int hdi_box_inside(const double ilo[3], const double ihi[3], const double olo[3],
                                 const double ohi[3])
{
    return olo[0] <= ilo[0] && olo[1] <= ilo[1] && olo[2] <= ilo[2] && ihi[0] <= ohi[0] &&
           ihi[1] <= ohi[1] && ihi[2] <= ohi[2];
}

/* The union of two boxes. */
static inline void hdi_box_union(double lo[3], double hi[3], const double alo[3],
                                 const double ahi[3], const double blo[3], const double bhi[3])
{
    for (int k = 0; k < 3; ++k) {
        lo[k] = alo[k] < blo[k] ? alo[k] : blo[k];
        hi[k] = ahi[k] > bhi[k] ? ahi[k] : bhi[k];
    }
}

/* Half the surface area, the cost of the surface-area heuristic. */
static inline double hdi_box_area(const double lo[3], const double hi[3])
{
    double x = hi[0] - lo[0], y = hi[1] - lo[1], z = hi[2] - lo[2];
    return x * y + y * z + z * x;
}

/* Half the surface area of the union of two boxes. */
static inline double hdi_box_union_area(const double alo[3], const double ahi[3],
                                        const double blo[3], const double bhi[3])
{
    double lo[3], hi[3];
    hdi_box_union(lo, hi, alo, ahi, blo, bhi);
    return hdi_box_area(lo, hi);
}

/* A hint that *p will be read soon (the loops over lists of ids touch the bodies, and the tree's
 * walks its nodes, in no particular order of memory: the loads of the next ones overlap the work
 * on this one). */
static inline void hdi_scene_prefetch(const void *p)
{
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p);
#else
    (void)p;
#endif
}

#endif
