/* Growable arrays: one growth rule and one out-of-memory path for every array that grows in
 * libhedra. An array is a plain `T *` with an int capacity beside it; the helpers take the
 * address of the pointer, so that they serve any element type.
 *
 * The failure flag is sticky (SQLite's mallocFailed): a failed growth sets it, and every later
 * growth through the same flag fails without allocating, so that a caller grows several arrays
 * in a row and checks the flag once, where its call returns. Each array keeps its contents and
 * its capacity when its own growth fails; the flag is cleared only by its owner. */
#ifndef HD_CORE_ARRAY_H
#define HD_CORE_ARRAY_H

#include <stddef.h>

/* The capacity for `need` elements of `size` bytes: `capacity` (min_capacity when it is 0)
 * doubled until it holds them, clamped to the largest count whose byte size fits both an int
 * count and a size_t; -1 when `need` itself exceeds that (or is negative). */
int hdi_array_grown_capacity(int capacity, int need, int min_capacity, size_t size);

/* Resizes the array whose pointer is at `array_ptr` (a `T **`) to `count` elements of `size`
 * bytes. Returns 1, or 0 leaving the array as it was and setting *failed when count * size
 * overflows or the allocation fails; 0 without allocating when *failed is set already. */
int hdi_array_resize(void *array_ptr, int count, size_t size, int *failed);

/* Room for `need` elements in the array at `array_ptr` with *capacity allocated: geometric
 * growth by hdi_array_grown_capacity from min_capacity. Returns 1 when the room is there (even
 * with *failed set), else 0 with the array and *capacity unchanged and *failed set. */
int hdi_array_reserve(void *array_ptr, int *capacity, int need, int min_capacity, size_t size,
                      int *failed);

#endif
