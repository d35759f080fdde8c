/* The `pinned` allocator trait on the host (runtime/host/omp_allocators.c asks here): a
 * pinned allocator's blocks are page-locked memory from the default device's driver where
 * it has such memory (a GPU: cuMemAllocHost), which its copies read and write at full
 * speed; elsewhere (the CPU device, no device, offloading disabled) plain memory: NULL
 * here, and the host runtime uses malloc. */
#include <stddef.h>
#include "offload.h"

/* `bytes` of page-locked memory and *device its device, or NULL */
void *__omp2gpu_pinned_alloc(size_t bytes, int *device) {
    struct device *d;
    void *host = 0;
    offload_lock();
    d = memory_device(device_current_default());
    if (d && d->ops->allocate_pinned && d->ops->allocate_pinned(d, (long)bytes, &host)) host = 0;
    if (host) *device = d->number;
    offload_unlock();
    return host;
}

void __omp2gpu_pinned_free(void *host, int device) {
    struct device *d;
    offload_lock();
    d = memory_device(device);
    if (d && d->ops->release_pinned) d->ops->release_pinned(d, host);
    offload_unlock();
}
