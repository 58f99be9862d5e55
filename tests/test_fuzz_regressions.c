/* Replays every input of fuzz/corpus/fuzz_query/ (the seed corpus and the inputs that once made
 * the fuzzer fail, named regress-*) through the fuzz target itself: it aborts when a certificate
 * is rejected, and the sanitizer builds catch memory errors. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (fp == NULL) {
        return 0;
    }
    static uint8_t buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, fp);
    fclose(fp);
    LLVMFuzzerTestOneInput(buf, n);
    return 1;
}

static void test_corpus(void **state)
{
    (void)state;
    const char *root = getenv("HEDRA_SOURCE");
    assert_non_null(root);
    char dir[1024], path[2048];
    snprintf(dir, sizeof dir, "%s/fuzz/corpus/fuzz_query", root);
    DIR *d = opendir(dir);
    assert_non_null(d);
    int count = 0, regressions = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') {
            continue;
        }
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        count += replay(path);
        regressions += strncmp(e->d_name, "regress-", 8) == 0;
    }
    closedir(d);
    printf("replayed %d inputs (%d regressions)\n", count, regressions);
    assert_true(count >= 5);
    assert_true(regressions >= 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_corpus)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
