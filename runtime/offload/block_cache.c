/* Device storage of map-clause mappings kept for reuse: a region run again (`map(tofrom:
 * x)` in a time-step loop) finds its block here instead of paying the device's allocator
 * and, on a GPU, cuMemFree's implicit synchronisation each time, as GPU runtimes' caching
 * allocators do. A block is allocated at the size asked for, so that compute-sanitizer
 * knows its true end (a region reading past its array is reported the first time); kept
 * blocks are filed by power-of-two size class from 256 bytes, each with its size, and one
 * is reused for a request it holds. Blocks up to 1 MiB are kept, at most KEPT per class and
 * device; larger ones go straight back. The runtime's lock serialises every call. A kept
 * block is safe to hand out again while a queued kernel may still use it: the next
 * mapping's copy into it runs on the GPU's legacy stream, which waits for the kernels of
 * the blocking streams queued before it. */
#include "offload.h"

#define MIN_SHIFT 8
#define CLASSES 13
#define KEPT 16
#define CACHED_DEVICES 64

struct kept_block { uintptr_t address; long bytes; };

static struct kept_block kept[CACHED_DEVICES][CLASSES][KEPT];
static int kept_count[CACHED_DEVICES][CLASSES];

/* The size class of `bytes`, -1 beyond the largest or for a device past the table. */
static int size_class(const struct device *d, long bytes) {
    int shift = 0;
    if (d->number < 0 || d->number >= CACHED_DEVICES) return -1;
    while (shift < CLASSES && ((long)1 << (MIN_SHIFT + shift)) < bytes) shift++;
    return shift < CLASSES ? shift : -1;
}

int block_take(struct device *d, long bytes, uintptr_t *address) {
    int which = size_class(d, bytes), i, best = -1;
    struct kept_block *blocks;
    if (which < 0) return d->ops->allocate(d, bytes, address);
    blocks = kept[d->number][which];
    for (i = kept_count[d->number][which] - 1; i >= 0; i--)     /* the smallest that holds it */
        if (blocks[i].bytes >= bytes && (best < 0 || blocks[i].bytes < blocks[best].bytes)) best = i;
    if (best < 0) return d->ops->allocate(d, bytes > 0 ? bytes : 1, address);
    *address = blocks[best].address;
    blocks[best] = blocks[--kept_count[d->number][which]];
    return 0;
}

/* `bytes`: what the mapping asked for, never more than the block holds. */
void block_give(struct device *d, uintptr_t address, long bytes) {
    int which = size_class(d, bytes);
    if (which >= 0 && kept_count[d->number][which] < KEPT) {
        struct kept_block *slot = &kept[d->number][which][kept_count[d->number][which]++];
        slot->address = address;
        slot->bytes = bytes;
    } else {
        d->ops->release(d, address);
    }
}
