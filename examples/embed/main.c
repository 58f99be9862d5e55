/* A minimal program embedding hedra: two unit cubes, the second moved along x, queried with each
 * algorithm. Build it against an installed hedra with
 *     cc main.c $(pkg-config --cflags --libs hedra) -o embed
 * or with CMake: find_package(hedra) and target_link_libraries(embed hedra::hedra). */
#include <stdio.h>

#include <hedra/hedra.h>

int main(void)
{
    double cube[24];
    for (int i = 0; i < 8; ++i) {
        cube[3 * i + 0] = (i & 1) ? 1.0 : 0.0;
        cube[3 * i + 1] = (i & 2) ? 1.0 : 0.0;
        cube[3 * i + 2] = (i & 4) ? 1.0 : 0.0;
    }
    hd_polytope *box = NULL;
    if (hd_polytope_build(cube, 8, NULL, &box) != HD_OK) {
        return 1;
    }
    hd_pose moved = hd_pose_identity();
    moved.t[0] = 1.5; /* the second cube starts half a unit beyond the first */
    hd_options opt = hd_options_default();
    for (int algo = 0; algo < HD_ALGO_COUNT; ++algo) {
        opt.algo = (hd_algo)algo;
        hd_collide_result r;
        hd_status st = hd_collide(box, NULL, box, &moved, &opt, &r);
        if (st != HD_OK) {
            fprintf(stderr, "%s: %s\n", hd_algo_str(opt.algo), hd_status_str(st));
            hd_polytope_destroy(box);
            return 1;
        }
        printf("%-6s %s (certificate %s)\n", hd_algo_str(opt.algo), hd_verdict_str(r.verdict),
               hd_certificate_check(box, NULL, box, &moved, r.verdict, r.eps, &r.cert) == HD_OK ? "ok" : "REJECTED");
    }
    hd_distance_result d;
    if (hd_distance(box, NULL, box, &moved, NULL, &d) == HD_OK) {
        printf("distance %.6g between (%.3g %.3g %.3g) and (%.3g %.3g %.3g)\n", d.distance,
               d.witness_a[0], d.witness_a[1], d.witness_a[2], d.witness_b[0], d.witness_b[1],
               d.witness_b[2]);
    }
    hd_polytope_destroy(box);
    return 0;
}
