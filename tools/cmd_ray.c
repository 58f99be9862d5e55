/* hedra ray FILE --origin X,Y,Z --dir X,Y,Z [--length L] [--json]: a ray cast. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_motion.h"

static int ray_usage(void)
{
    printf("usage: hedra ray FILE --origin X,Y,Z --dir X,Y,Z [options]\n"
           "The first point o + t d (0 <= t <= length) of the ray in the hull of FILE: t, the\n"
           "point, the outward normal of the face entered and the feature hit (a face, or the\n"
           "edge or vertex where the entry point lies on several faces); 'inside' when the\n"
           "origin is in the hull. The hull must be a solid or a polygon. Options:\n"
           "  --length L         the ray's length in units of d (default: unbounded)\n"
           "  --translate-a X,Y,Z, --rotate-a W,X,Y,Z   pose of the shape\n" HD_CLI_FORMAT_HELP
           "  --json             one JSON object\n");
    return HD_EXIT_OK;
}

typedef struct ray_args {
    const char *file;
    double origin[3], dir[3], length;
    int have_origin, have_dir, json;
    hd_format format;
    hd_pose pose;
} ray_args;

/* --origin, --dir, --length: 1 consumed, 0 not one, -1 error. */
static int parse_ray_option(int argc, char **argv, int *i, ray_args *r)
{
    const char *opt = argv[*i];
    const char *val = *i + 1 < argc ? argv[*i + 1] : NULL;
    if (strcmp(opt, "--length") == 0) {
        char *end = NULL;
        r->length = val != NULL ? strtod(val, &end) : -1.0;
        if (end == NULL || end == val || *end != '\0' || !(r->length >= 0.0)) {
            hd_cli_usage_error("ray", "--length expects a number >= 0", val);
            return -1;
        }
    } else if (strcmp(opt, "--origin") == 0 || strcmp(opt, "--dir") == 0) {
        int is_dir = opt[2] == 'd';
        if (val == NULL || !hd_cli_parse_vec3(val, is_dir ? r->dir : r->origin)) {
            hd_cli_usage_error("ray", "expects X,Y,Z (three finite numbers)", opt);
            return -1;
        }
        *(is_dir ? &r->have_dir : &r->have_origin) = 1;
    } else {
        return 0;
    }
    ++*i;
    return 1;
}

static int parse_ray_args(int argc, char **argv, ray_args *r)
{
    hd_pose *poses[2] = {&r->pose, NULL};
    for (int i = 1; i < argc; ++i) {
        int used = hd_cli_parse_shape_option("ray", argc, argv, &i, poses, &r->format);
        if (used == 0) {
            used = parse_ray_option(argc, argv, &i, r);
        }
        if (used < 0) {
            return HD_EXIT_USAGE;
        } else if (used > 0) {
            continue;
        } else if (hd_cli_is_help(argv[i])) {
            return ray_usage();
        } else if (strcmp(argv[i], "--json") == 0) {
            r->json = 1;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return hd_cli_usage_error("ray", "unknown option", argv[i]);
        } else if (r->file != NULL) {
            return hd_cli_usage_error("ray", "one shape file expected, got another", argv[i]);
        } else {
            r->file = argv[i];
        }
    }
    if (r->file == NULL || !r->have_origin || !r->have_dir) {
        return hd_cli_usage_error("ray", "usage: hedra ray FILE --origin X,Y,Z --dir X,Y,Z", NULL);
    }
    if (r->dir[0] == 0.0 && r->dir[1] == 0.0 && r->dir[2] == 0.0) {
        return hd_cli_usage_error("ray", "--dir must not be the zero vector", NULL);
    }
    return -1;
}

static void print_ray(const hd_ray_result *h, int json)
{
    if (json) {
        putchar('{');
        hd_cli_ray_json(stdout, h);
        printf("}\n");
        return;
    }
    if (!h->hit) {
        printf("hit: no\n");
    } else if (h->inside) {
        printf("hit: yes (the origin is inside)\nt: 0\n");
    } else {
        printf("hit: yes\nt: %.17g\npoint: (%.17g, %.17g, %.17g)\nnormal: (%.17g, %.17g, "
               "%.17g)\nfeature: %s %d\n",
               h->t, h->point[0], h->point[1], h->point[2], h->normal[0], h->normal[1],
               h->normal[2], hd_feature_type_str(h->feature.type), h->feature.index);
    }
}

int hd_cmd_ray(int argc, char **argv)
{
    ray_args r;
    memset(&r, 0, sizeof r);
    r.length = HUGE_VAL;
    r.pose = hd_pose_identity();
    int code = parse_ray_args(argc, argv, &r);
    if (code >= 0) {
        return code;
    }
    hd_polytope *a = hd_cli_load(r.file, r.format);
    if (a == NULL) {
        return HD_EXIT_INPUT;
    }
    hd_ray_result h;
    hd_status st = hd_ray_cast(a, &r.pose, r.origin, r.dir, r.length, NULL, &h);
    hd_polytope_destroy(a);
    if (st == HD_ERR_UNSUPPORTED) {
        fprintf(stderr, "hedra ray: the shape is a point or a segment: a ray cast needs a solid "
                        "or a polygon\n");
        return HD_EXIT_INPUT;
    }
    if (st != HD_OK) {
        fprintf(stderr, "hedra ray: %s\n", hd_status_str(st));
        return HD_EXIT_INPUT;
    }
    print_ray(&h, r.json);
    return HD_EXIT_OK;
}
