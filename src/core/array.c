/* Growable arrays (core/array.h). */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"

/* The most elements of `size` bytes that an int counts and a size_t measures. */
static int max_count(size_t size)
{
    size_t most = size > 0 ? SIZE_MAX / size : SIZE_MAX;
    return most < (size_t)INT_MAX ? (int)most : INT_MAX;
}

int hdi_array_grown_capacity(int capacity, int need, int min_capacity, size_t size)
{
    int most = max_count(size);
    if (need < 0 || need > most) {
        return -1;
    }
    int cap = capacity > 0 ? capacity : (min_capacity > 0 ? min_capacity : 1);
    while (cap < need) {
        cap = cap > most / 2 ? most : 2 * cap;
    }
    return cap;
}

int hdi_array_resize(void *array_ptr, int count, size_t size, int *failed)
{
    if (*failed) {
        return 0;
    }
    if (count < 0 || count > max_count(size)) {
        *failed = 1;
        return 0;
    }
    /* the pointer is read and written through memcpy: array_ptr may point to any T * */
    void *old;
    memcpy(&old, array_ptr, sizeof old);
    size_t bytes = (size_t)count * size;
    void *grown = realloc(old, bytes > 0 ? bytes : 1);
    if (grown == NULL) {
        *failed = 1;
        return 0;
    }
    memcpy(array_ptr, &grown, sizeof grown);
    return 1;
}

int hdi_array_reserve(void *array_ptr, int *capacity, int need, int min_capacity, size_t size,
                      int *failed)
{
    if (need <= *capacity) { /* room already: nothing to allocate, whatever the flag */
        return 1;
    }
    int cap = hdi_array_grown_capacity(*capacity, need, min_capacity, size);
    if (cap < 0) {
        *failed = 1;
        return 0;
    }
    if (!hdi_array_resize(array_ptr, cap, size, failed)) {
        return 0;
    }
    *capacity = cap;
    return 1;
}
