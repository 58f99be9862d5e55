/* The fuzz targets' reader of their input: bytes and doubles taken in order, zeros once the
 * input runs out. */
#ifndef HD_FUZZ_INPUT_H
#define HD_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct hd_fuzz_input {
    const uint8_t *data;
    size_t size;
    size_t pos;
} hd_fuzz_input;

static inline int hd_fuzz_byte(hd_fuzz_input *in)
{
    return in->pos < in->size ? in->data[in->pos++] : 0;
}

static inline double hd_fuzz_double(hd_fuzz_input *in)
{
    double v = 0.0;
    if (in->pos + sizeof v <= in->size) {
        memcpy(&v, in->data + in->pos, sizeof v);
        in->pos += sizeof v;
    }
    return v;
}

#endif
