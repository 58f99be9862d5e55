/* hedra_scene_gen: writes a generated scene file (scene_workload.h) to standard output or a file.
 * The bundled examples/scene/ was made with it; larger ones feed `hedra scene` directly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/scene_workload.h"

static int usage(int code)
{
    fprintf(code ? stderr : stdout,
            "usage: hedra_scene_gen [--bodies N] [--frames F] [--seed S] [--density D]\n"
            "                       [--moving M] [--step X] [--spin A] [--shapes K]\n"
            "                       [--vertices MIN,MAX] [--churn C] [-o FILE]\n"
            "Writes a scene file: K shapes of MIN to MAX points on ellipsoids (semi-axes 0.5 to\n"
            "1), N bodies at random in a cube of N / D unit volumes, then F - 1 frames in which a\n"
            "fixed fraction M of the bodies moves by X and turns by A radians and C bodies are\n"
            "removed and C added. Defaults: 1000 bodies, 10 frames, seed 20261122, density\n"
            "0.004, M 0.25, X 0.02, A 0.02, 32 shapes, 8,100 vertices, no churn.\n");
    return code;
}

/* One option with its value; 0 when the option is not known or its value is bad. */
static int parse_option(const char *opt, const char *v, hd_sw_params *p, const char **out)
{
    char *end = NULL;
    double x = strtod(v, &end);
    int number = end != v && *end == '\0';
    if (strcmp(opt, "-o") == 0) {
        *out = v;
        return 1;
    }
    if (strcmp(opt, "--vertices") == 0) {
        return sscanf(v, "%d,%d", &p->min_vertices, &p->max_vertices) == 2 &&
               p->min_vertices >= 4 && p->max_vertices >= p->min_vertices;
    }
    if (strcmp(opt, "--seed") == 0) {
        p->seed = strtoull(v, &end, 10);
        return end != v && *end == '\0';
    }
    int ok = number && x >= 0 && x <= 1e7;
    if (strcmp(opt, "--bodies") == 0) {
        p->bodies = (int)x;
        return ok && x >= 1;
    } else if (strcmp(opt, "--frames") == 0) {
        p->frames = (int)x;
        return ok && x >= 1;
    } else if (strcmp(opt, "--shapes") == 0) {
        p->shape_count = (int)x;
        return ok && x >= 1;
    } else if (strcmp(opt, "--churn") == 0) {
        p->churn = (int)x;
        return ok;
    }
    double *target = strcmp(opt, "--density") == 0  ? &p->density
                     : strcmp(opt, "--moving") == 0 ? &p->moving
                     : strcmp(opt, "--step") == 0   ? &p->step
                     : strcmp(opt, "--spin") == 0   ? &p->spin
                                                    : NULL;
    if (target != NULL) {
        *target = x;
    }
    return target != NULL && ok && !(target == &p->density && x <= 0) &&
           !(target == &p->moving && x > 1);
}

int main(int argc, char **argv)
{
    hd_sw_params p = hd_sw_defaults(1000);
    const char *out = NULL;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            return usage(0);
        }
        if (i + 1 >= argc || !parse_option(argv[i], argv[i + 1], &p, &out)) {
            fprintf(stderr, "hedra_scene_gen: bad option or value: %s\n", argv[i]);
            return usage(2);
        }
        ++i;
    }
    hd_sw_scene s;
    if (hd_sw_generate(&p, &s) != 0) {
        fprintf(stderr, "hedra_scene_gen: out of memory\n");
        return 1;
    }
    FILE *fp = out != NULL ? fopen(out, "w") : stdout;
    int rc = fp != NULL ? hd_sw_write(fp, &s) : -1;
    if (fp != NULL && fp != stdout && fclose(fp) != 0) {
        rc = -1;
    }
    hd_sw_free(&s);
    if (rc != 0) {
        fprintf(stderr, "hedra_scene_gen: cannot write %s\n", out != NULL ? out : "<stdout>");
        return 1;
    }
    return 0;
}
