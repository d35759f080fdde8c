/* Device buffers for transient mappings (native_launch.h), kept for reuse: a
 * region run again (a `map(tofrom: x)` in a loop) finds its buffer in the
 * cache instead of paying the device's allocator each time, as GPU runtimes'
 * caching allocators do. Sizes round up to a power of two from MIN_BLOCK;
 * blocks up to MAX_CACHED bytes are kept, at most KEPT per size; larger ones go
 * straight back to the device. The native path's lock serialises every call.
 */
#include "native_launch.h"

#define MIN_SHIFT 8                  /* 256 bytes */
#define CLASSES 13                   /* up to 1 MiB */
#define KEPT 16

static block_allocate_fn device_allocate;
static block_free_fn device_free;
static long kept[CLASSES][KEPT];
static int kept_count[CLASSES];

void block_cache_use(block_allocate_fn allocate, block_free_fn release) {
    device_allocate = allocate;
    device_free = release;
}

/* The size class of `bytes`, -1 beyond the largest. */
static int size_class(long bytes) {
    int shift = 0;
    while (shift < CLASSES && ((long)1 << (MIN_SHIFT + shift)) < bytes) shift++;
    return shift < CLASSES ? shift : -1;
}

/* Device memory for `bytes` (> 0); 0 when the device has none. */
long block_take(long bytes) {
    int which = size_class(bytes);
    if (which < 0) return device_allocate(bytes);
    if (kept_count[which] > 0) return kept[which][--kept_count[which]];
    return device_allocate((long)1 << (MIN_SHIFT + which));
}

void block_give(long address, long bytes) {
    int which = size_class(bytes);
    if (which >= 0 && kept_count[which] < KEPT) kept[which][kept_count[which]++] = address;
    else device_free(address);
}

/* Every kept block back to the device (device memory in use is then the program's own). */
void block_release_all(void) {
    int which;
    for (which = 0; which < CLASSES; which++)
        while (kept_count[which] > 0) device_free(kept[which][--kept_count[which]]);
}

void __omp2gpu_native_release_cache(void) {
    native_lock();
    block_release_all();
    native_unlock();
}
