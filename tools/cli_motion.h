/* The motion commands' shared pieces: twist options and the time of impact's JSON and text
 * (hedra cast, hedra batch --toi). */
#ifndef HD_CLI_MOTION_H
#define HD_CLI_MOTION_H

#include <stdio.h>

#include "cli.h"

/* One body's twist from the command line: velocity v, angular velocity w, centre c (has_c 0:
 * the body's frame origin at t = 0). */
typedef struct hd_cli_twist {
    double v[3];
    double w[3];
    double c[3];
    int has_c;
} hd_cli_twist;

#define HD_CLI_MOTION_HELP                                                                         \
    "  --velocity-a X,Y,Z, --velocity-b X,Y,Z   the body's velocity over t in [0, 1]\n"            \
    "  --spin-a X,Y,Z, --spin-b X,Y,Z           its angular velocity (radians over [0, 1],\n"      \
    "                     world axes; several turns allowed)\n"                                    \
    "  --centre-a X,Y,Z, --centre-b X,Y,Z       the centre it turns about (default: its frame\n"   \
    "                     origin, the pose's translation)\n"

/* Returns 1 when argv[*i] is a motion option (consumed with its value), 0 when it is another
 * argument, -1 after printing a usage error. tw[0] is A's, tw[1] B's. */
int hd_cli_parse_motion_option(const char *cmd, int argc, char **argv, int *i, hd_cli_twist tw[2]);

/* The hd_motion of a twist from pose0. */
hd_motion hd_cli_twist_motion(const hd_cli_twist *tw, const hd_pose *pose0);

/* The time of impact's JSON keys, each starting with a comma: "toi", "toi_bounds" (null when
 * none), the contact at the TOI (the keys of hd_cli_contact_keys_json: "signed_distance",
 * "normal", "witness_a", "witness_b", "bounds", "feature_a", "feature_b", "depth_method"),
 * "iterations", "eps"; on an error "error" (and "free_until" at the cap). */
void hd_cli_toi_json(FILE *fp, hd_status st, const hd_toi_result *r);

/* A ray cast's JSON keys (hedra ray --json, hedra view --ray), the first without a comma: "hit",
 * "inside", and for a hit "t" and "point", for a hit from outside "normal" and "feature". */
void hd_cli_ray_json(FILE *fp, const hd_ray_result *h);

/* The same as text. */
void hd_cli_toi_text(FILE *fp, hd_status st, const hd_toi_result *r);

#endif
