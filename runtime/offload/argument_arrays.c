/* The arrays a caller passed to a function for one call (the Python API's NumPy and CuPy
 * arguments, each named by its C parameter): a map section that starts in one of them and
 * runs past it is refused before any copy (host_memory.c's check_entries), naming the
 * parameter, instead of copying past the array (a SIGSEGV, or another object's bytes).
 * A section inside a longer array passed too (a view and its base) is good; one inside a
 * device array (CuPy, Numba, DLPack: lent, never copied) is not host memory to check. */
#include <stdlib.h>
#include "offload.h"

struct argument_array {
    uintptr_t begin, end;
    const char *name;            /* the caller's, alive until the array is removed */
    int on_device;               /* device memory, lent for the call */
};

static struct argument_array *arrays;
static long array_count, array_capacity;

int argument_array_add(uintptr_t begin, long size, const char *name, int on_device) {
    if (array_count == array_capacity) {
        long capacity = array_capacity ? 2 * array_capacity : 16;
        struct argument_array *grown = realloc(arrays, (size_t)capacity * sizeof *grown);
        if (!grown) return -1;
        arrays = grown;
        array_capacity = capacity;
    }
    arrays[array_count].begin = begin;
    arrays[array_count].end = begin + (uintptr_t)size;
    arrays[array_count].name = name;
    arrays[array_count].on_device = on_device;
    array_count++;
    return 0;
}

void argument_array_remove(uintptr_t begin, long size) {
    long i;
    for (i = array_count - 1; i >= 0; i--)
        if (arrays[i].begin == begin && arrays[i].end == begin + (uintptr_t)size) {
            arrays[i] = arrays[--array_count];
            return;
        }
}

/* 0 when [begin, begin + size) starts in no argument array or lies inside one; else 1, the
 * longest array it starts in, which it runs past, in *name, *array_begin, *array_size. */
int argument_array_overrun(uintptr_t begin, long size, const char **name, uintptr_t *array_begin,
                           long *array_size) {
    const struct argument_array *longest = 0;
    long i;
    for (i = 0; i < array_count; i++) {
        const struct argument_array *a = &arrays[i];
        if (a->begin <= begin && begin < a->end && (!longest || a->end > longest->end)) longest = a;
    }
    if (!longest || begin + (uintptr_t)size <= longest->end) return 0;
    *name = longest->name;
    *array_begin = longest->begin;
    *array_size = (long)(longest->end - longest->begin);
    return 1;
}

/* 1 when [begin, begin + size) lies inside a device array passed for the call. */
int argument_device_array_holds(uintptr_t begin, long size) {
    long i;
    for (i = 0; i < array_count; i++)
        if (arrays[i].on_device && arrays[i].begin <= begin && begin + (uintptr_t)size <= arrays[i].end) return 1;
    return 0;
}
