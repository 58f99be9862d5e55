/* The motion commands' shared pieces: twist options and the time of impact's output. */
#include <string.h>

#include "cli_motion.h"
#include "cli_query.h"

int hd_cli_parse_motion_option(const char *cmd, int argc, char **argv, int *i, hd_cli_twist tw[2])
{
    static const char *const names[3] = {"--velocity-", "--spin-", "--centre-"};
    const char *opt = argv[*i];
    for (int k = 0; k < 3; ++k) {
        size_t n = strlen(names[k]);
        if (strncmp(opt, names[k], n) != 0 || (opt[n] != 'a' && opt[n] != 'b') ||
            opt[n + 1] != '\0') {
            continue;
        }
        hd_cli_twist *t = &tw[opt[n] == 'a' ? 0 : 1];
        double *dst = k == 0 ? t->v : k == 1 ? t->w : t->c;
        if (*i + 1 >= argc || !hd_cli_parse_vec3(argv[*i + 1], dst)) {
            hd_cli_usage_error(cmd, "expects X,Y,Z (three finite numbers)", opt);
            return -1;
        }
        ++*i;
        t->has_c |= k == 2;
        return 1;
    }
    return 0;
}

hd_motion hd_cli_twist_motion(const hd_cli_twist *tw, const hd_pose *pose0)
{
    hd_motion m;
    m.pose0 = *pose0;
    memcpy(m.v, tw->v, sizeof m.v);
    memcpy(m.w, tw->w, sizeof m.w);
    memcpy(m.c, tw->has_c ? tw->c : pose0->t, sizeof m.c);
    return m;
}

void hd_cli_toi_json(FILE *fp, hd_status st, const hd_toi_result *r)
{
    if (st != HD_OK) {
        fprintf(fp, ",\"error\":");
        hd_json_string(fp, hd_status_str(st));
        if (st == HD_ERR_ITERATION_LIMIT) {
            fprintf(fp, ",\"free_until\":");
            hd_json_double(fp, r->lo);
            fprintf(fp, ",\"iterations\":%d", r->iterations);
        }
        return;
    }
    if (!r->hit) {
        fprintf(fp, ",\"toi\":null,\"toi_bounds\":null,\"iterations\":%d,\"eps\":", r->iterations);
        hd_json_double(fp, r->eps);
        return;
    }
    fprintf(fp, ",\"toi\":");
    hd_json_double(fp, r->toi);
    fprintf(fp, ",\"toi_bounds\":[");
    hd_json_double(fp, r->lo);
    fputc(',', fp);
    hd_json_double(fp, r->hi);
    fputc(']', fp);
    hd_cli_contact_keys_json(fp, &r->contact);
    fprintf(fp, ",\"iterations\":%d,\"eps\":", r->iterations);
    hd_json_double(fp, r->eps);
}

void hd_cli_ray_json(FILE *fp, const hd_ray_result *h)
{
    fprintf(fp, "\"hit\":%s,\"inside\":%s", h->hit ? "true" : "false",
            h->inside ? "true" : "false");
    if (h->hit) {
        fprintf(fp, ",\"t\":");
        hd_json_double(fp, h->t);
        fprintf(fp, ",\"point\":");
        hd_json_vec3(fp, h->point);
    }
    if (h->hit && !h->inside) {
        fprintf(fp, ",\"normal\":");
        hd_json_vec3(fp, h->normal);
        fprintf(fp, ",\"feature\":{\"type\":\"%s\",\"index\":%d}",
                hd_feature_type_str(h->feature.type), h->feature.index);
    }
}

void hd_cli_toi_text(FILE *fp, hd_status st, const hd_toi_result *r)
{
    if (st == HD_ERR_ITERATION_LIMIT) {
        fprintf(fp, "no answer within %d queries: apart (proven) for t < %.17g\n", r->iterations,
                r->lo);
        return;
    }
    if (st != HD_OK) {
        fprintf(fp, "error: %s\n", hd_status_str(st));
        return;
    }
    if (!r->hit) {
        fprintf(fp, "no contact for t in [0, 1] (proven; %d queries)\n", r->iterations);
        return;
    }
    const hd_signed_distance_result *c = &r->contact;
    fprintf(fp,
            "time of impact: %.17g\nbounds: apart for t < %.17g, in contact at %.17g\n"
            "signed distance at the toi: %.17g (band %.3g)\nnormal: (%.17g, %.17g, %.17g)\n"
            "witness on A: (%.17g, %.17g, %.17g)\nwitness on B: (%.17g, %.17g, %.17g)\n"
            "features: %s %d, %s %d\nqueries: %d\n",
            r->toi, r->lo, r->hi, c->signed_distance, r->eps, c->normal[0], c->normal[1],
            c->normal[2], c->witness_a[0], c->witness_a[1], c->witness_a[2], c->witness_b[0],
            c->witness_b[1], c->witness_b[2], hd_feature_type_str(c->feature_a.type),
            c->feature_a.index, hd_feature_type_str(c->feature_b.type), c->feature_b.index,
            r->iterations);
}
