/* target update of a discontiguous section (OpenMP 5.0: `a[0:n:2]`, `a[0:2][1:3]`, array
 * shaping): a MAP_NON_CONTIG entry's base is its descriptor, the compiler's int64_t array
 *     { dims, width, count_0, stride_0, ..., count_{dims-1}, stride_{dims-1} }
 * (outermost dimension first; strides in bytes; width: the bytes of one innermost
 * element) and its begin the section's first byte. Here it becomes blocks of rows (a
 * width, a pitch, a height): innermost dimensions that are contiguous are merged into
 * the width, the innermost remaining one gives the rows, and the outer ones are counted
 * through. */
#include <stdio.h>
#include "offload.h"

#define MAX_DIMS 16

int for_each_strided_block(const int64_t *descriptor, block_function each, void *context, char *why,
                           size_t why_size) {
    long dims = (long)descriptor[0], width = (long)descriptor[1], counts[MAX_DIMS], strides[MAX_DIMS];
    long index[MAX_DIMS] = {0}, i;
    struct copy_block block;
    if (dims < 0 || dims > MAX_DIMS) {
        snprintf(why, why_size, "a section of %ld dimensions (at most %d)", dims, MAX_DIMS);
        return -2;
    }
    for (i = 0; i < dims; i++) {
        counts[i] = (long)descriptor[2 + 2 * i];
        strides[i] = (long)descriptor[3 + 2 * i];
        if (counts[i] <= 0) return 0;                     /* an empty section: nothing */
        if (strides[i] <= 0) {
            snprintf(why, why_size, "array section dimension %ld has a stride of %ld bytes: a stride must be "
                     "positive", i + 1, strides[i]);
            return -2;
        }
    }
    while (dims > 0 && strides[dims - 1] == width) {      /* contiguous: one wider element */
        width *= counts[dims - 1];
        dims--;
    }
    block.width = width;
    block.height = dims > 0 ? counts[dims - 1] : 1;
    block.pitch = dims > 0 ? strides[dims - 1] : width;
    dims = dims > 0 ? dims - 1 : 0;                       /* the rows' dimension is the block's */
    for (;;) {
        int result;
        block.offset = 0;
        for (i = 0; i < dims; i++) block.offset += index[i] * strides[i];
        result = each(context, block);
        if (result) return result;
        for (i = dims - 1; i >= 0 && ++index[i] == counts[i]; i--) index[i] = 0;
        if (i < 0) return 0;
    }
}
