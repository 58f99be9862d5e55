/* hedra view: finding the page assets and writing the page (view.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "view.h"

/* Set by CMake: the source tree's viewer/ (used from the build tree) and the install data
 * directory relative to the installed executable (relocatable, like hedra.pc). */
#ifndef HEDRA_VIEWER_SOURCE_DIR
#define HEDRA_VIEWER_SOURCE_DIR ""
#endif
#ifndef HEDRA_VIEWER_INSTALL_REL
#define HEDRA_VIEWER_INSTALL_REL "../share/hedra/viewer"
#endif

/* No asset may exceed this size (three.js is under 1 MB). */
#define HD_VIEW_ASSET_MAX ((long)64 << 20)

#define HD_VIEW_BUNDLE "dist/three.bundle.js"

/* Reads a whole file into a NUL-terminated buffer; NULL when missing, unreadable or too big. */
static char *read_file(const char *dir, const char *name)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) {
        return NULL;
    }
    FILE *fp = fopen(path, "rb");
    if (fp == NULL) {
        return NULL;
    }
    char *buf = NULL;
    long size = -1;
    if (fseek(fp, 0, SEEK_END) == 0 && (size = ftell(fp)) >= 0 && size <= HD_VIEW_ASSET_MAX &&
        fseek(fp, 0, SEEK_SET) == 0 && (buf = malloc((size_t)size + 1)) != NULL) {
        if (fread(buf, 1, (size_t)size, fp) != (size_t)size) {
            free(buf);
            buf = NULL;
        } else {
            buf[size] = '\0';
        }
    }
    fclose(fp);
    return buf;
}

static int file_exists(const char *dir, const char *name)
{
    char path[4096];
    return snprintf(path, sizeof path, "%s/%s", dir, name) < (int)sizeof path &&
           access(path, R_OK) == 0;
}

/* The install data directory next to the running executable (Linux: /proc/self/exe). */
static int install_dir(char *out, size_t size)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        return 0;
    }
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash == NULL) {
        return 0;
    }
    *slash = '\0';
    return snprintf(out, size, "%s/%s", exe, HEDRA_VIEWER_INSTALL_REL) < (int)size;
}

/* The asset directory: $HEDRA_VIEWER_DIR when set, else the first of the install and source
 * directories holding page.html (and, preferably, the bundle). */
static int find_dir(char *out, size_t size)
{
    const char *env = getenv("HEDRA_VIEWER_DIR");
    if (env != NULL && env[0] != '\0') {
        return snprintf(out, size, "%s", env) < (int)size;
    }
    char candidates[2][4096];
    int n = 0;
    if (install_dir(candidates[n], sizeof candidates[n])) {
        ++n;
    }
    if (HEDRA_VIEWER_SOURCE_DIR[0] != '\0') {
        snprintf(candidates[n++], sizeof candidates[0], "%s", HEDRA_VIEWER_SOURCE_DIR);
    }
    for (int pass = 0; pass < 2; ++pass) {
        for (int i = 0; i < n; ++i) {
            if (file_exists(candidates[i], "page.html") &&
                (pass == 1 || file_exists(candidates[i], HD_VIEW_BUNDLE))) {
                return snprintf(out, size, "%s", candidates[i]) < (int)size;
            }
        }
    }
    return 0;
}

static void install_hint(void)
{
    fprintf(stderr,
            "The page needs three.js, bundled once from npm into viewer/" HD_VIEW_BUNDLE
            " by the CMake build\n(unless configured with -DHEDRA_VIEWER=OFF) or by:\n"
            "  bash scripts/viewer-deps.sh --bundle-only   (npm ci and npm run build in viewer/)\n"
            "then 'cmake --install' copies it to share/hedra/viewer; or point HEDRA_VIEWER_DIR\n"
            "at a directory holding page.html, page.css, page.js and " HD_VIEW_BUNDLE ".\n");
}

/* An inlined asset must not close its own element early. */
static int safe_inline(const char *text, const char *closing, const char *name)
{
    if (strstr(text, closing) != NULL) {
        fprintf(stderr, "hedra view: %s contains '%s' and cannot be inlined\n", name, closing);
        return 0;
    }
    return 1;
}

int hd_view_assets_load(hd_view_assets *assets)
{
    memset(assets, 0, sizeof *assets);
    char dir[4096];
    if (!find_dir(dir, sizeof dir)) {
        fprintf(stderr, "hedra view: the viewer assets were not found (looked in $HEDRA_VIEWER_DIR,"
                        " the install's share/hedra/viewer and the source tree's viewer/)\n");
        install_hint();
        return 0;
    }
    assets->dir = strdup(dir);
    assets->html = read_file(dir, "page.html");
    assets->css = read_file(dir, "page.css");
    assets->script = read_file(dir, "page.js");
    assets->three = read_file(dir, HD_VIEW_BUNDLE);
    const char *missing = assets->html == NULL     ? "page.html"
                          : assets->css == NULL    ? "page.css"
                          : assets->script == NULL ? "page.js"
                          : assets->three == NULL  ? HD_VIEW_BUNDLE
                                                   : NULL;
    if (missing != NULL) {
        fprintf(stderr, "hedra view: %s/%s is missing or unreadable\n", dir, missing);
        install_hint();
    }
    if (missing != NULL || !safe_inline(assets->css, "</style", "page.css") ||
        !safe_inline(assets->script, "</script", "page.js") ||
        !safe_inline(assets->three, "</script", HD_VIEW_BUNDLE)) {
        hd_view_assets_free(assets);
        return 0;
    }
    return 1;
}

void hd_view_assets_free(hd_view_assets *assets)
{
    free(assets->dir);
    free(assets->html);
    free(assets->css);
    free(assets->script);
    free(assets->three);
    memset(assets, 0, sizeof *assets);
}

/* Text for an HTML element's content: & < > escaped. */
static void write_html_text(FILE *fp, const char *s)
{
    for (; *s; ++s) {
        switch (*s) {
            case '&':
                fputs("&amp;", fp);
                break;
            case '<':
                fputs("&lt;", fp);
                break;
            case '>':
                fputs("&gt;", fp);
                break;
            default:
                fputc(*s, fp);
                break;
        }
    }
}

static const char *const page_markers[] = {"@HEDRA_TITLE@", "@HEDRA_CSS@", "@HEDRA_DATA@",
                                           "@HEDRA_THREE@", "@HEDRA_PAGE@"};
#define PAGE_MARKERS 5

/* The first marker in text: its position (NULL when none) and index. */
static const char *next_marker(const char *text, int *which)
{
    const char *next = NULL;
    for (int k = 0; k < PAGE_MARKERS; ++k) {
        const char *m = strstr(text, page_markers[k]);
        if (m != NULL && (next == NULL || m < next)) {
            next = m;
            *which = k;
        }
    }
    return next;
}

int hd_view_write_page(FILE *fp, const hd_view_assets *assets, const char *title, const char *data,
                       size_t data_size)
{
    const char *p = assets->html;
    int which = 0;
    const char *next;
    while ((next = next_marker(p, &which)) != NULL) {
        fwrite(p, 1, (size_t)(next - p), fp);
        if (which == 0) {
            write_html_text(fp, title);
        } else if (which == 2) {
            fwrite(data, 1, data_size, fp);
        } else {
            fputs(which == 1 ? assets->css : which == 3 ? assets->three : assets->script, fp);
        }
        p = next + strlen(page_markers[which]);
    }
    fputs(p, fp);
    return !ferror(fp);
}
