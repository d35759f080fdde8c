/* The OpenMP 5.x device-memory routines that need the present table or a device's kind
 * (runtime/host/omp_api.c calls these for devices other than the host):
 * omp_get_mapped_ptr, omp_target_is_accessible, omp_target_associate_ptr /
 * disassociate_ptr, and Clang's llvm_omp_target_alloc_host / _shared / _device. */
#include <stdlib.h>
#include "offload.h"

/* omp_get_mapped_ptr (5.1 3.8.11): the device address of host address `pointer`; NULL
 * where it is not mapped, but under unified_shared_memory, where the device uses host
 * memory as it is. */
void *__omp2gpu_mapped_ptr(void *pointer, int device) {
    struct device *d;
    uintptr_t found = 0;
    offload_lock();
    d = memory_device(device);
    if (d && images_activate(d) == 0) {
        found = table_device_address(d, (uintptr_t)pointer);
        if (!found && d->usm) found = (uintptr_t)pointer;
    }
    offload_unlock();
    return (void *)found;
}

/* omp_target_is_accessible (5.1 3.8.12): a target region on the device may use
 * [pointer, pointer + size) without a map: memory it uses in place (unified_shared_memory,
 * the CPU device's zero-copy mode) or its driver's (the device's own, managed...). */
int __omp2gpu_target_is_accessible(const void *pointer, size_t size, int device) {
    struct device *d;
    int accessible = 0;
    offload_lock();
    d = memory_device(device);
    if (d)
        accessible = d->table.in_place || (d->ops->accessible && d->ops->accessible(d, (uintptr_t)pointer, (long)size));
    offload_unlock();
    return accessible;
}

/* omp_target_associate_ptr (4.5 3.5.8): 0, or nonzero (no such device; the host range
 * already mapped elsewhere) */
int __omp2gpu_associate_ptr(void *host, void *device_pointer, size_t size, size_t device_offset, int device) {
    struct device *d;
    int result = -1;
    offload_lock();
    d = memory_device(device);
    if (d && host && device_pointer && images_activate(d) == 0)
        result = table_associate(d, (uintptr_t)host, (long)size, (uintptr_t)device_pointer + device_offset) ? -1 : 0;
    offload_unlock();
    return result;
}

int __omp2gpu_disassociate_ptr(void *host, int device) {
    struct device *d;
    int result = -1;
    offload_lock();
    d = memory_device(device);
    if (d) result = table_disassociate(d, (uintptr_t)host);
    offload_unlock();
    return result;
}

/* llvm_omp_target_alloc_{device,host,shared} (Clang's extensions): `kind` 0 device memory
 * (omp_target_alloc's); 1 host and 2 shared memory, both memory the host and the device
 * reach: a GPU's managed memory (also for "host": no pinned-memory allocator here), the
 * CPU device's own buffers (host memory). Freed by omp_target_free. */
void *__omp2gpu_target_alloc_kind(size_t size, int device, int kind) {
    struct device *d;
    uintptr_t address = 0;
    offload_lock();
    d = memory_device(device);
    if (d && size > 0) {
        int failed = kind && d->ops->allocate_managed ? d->ops->allocate_managed(d, (long)size, &address)
                                                      : d->ops->allocate(d, (long)size, &address);
        if (failed) address = 0;
    }
    offload_unlock();
    return (void *)address;
}
