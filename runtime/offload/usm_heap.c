/* The heap of a file that says `#pragma omp requires unified_shared_memory`: its malloc,
 * calloc, realloc, free, aligned_alloc and posix_memalign are these (omp2gpu renames its
 * calls, sema/requires.py), so that every device reaches what they return. Decided at the
 * first call, for the whole run: the C library's heap where every device reads host memory
 * as it is (no device, the CPU device, a GPU with pageable memory access: USM_SHARED);
 * else managed memory of the GPU that needs it (USM_MANAGED, cuMemAllocManaged), each
 * block remembered here so that free and realloc know it (memory the C library gave, by
 * strdup say, is still the C library's to free). */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include "offload.h"

struct block { uintptr_t address, base; size_t size; };   /* base: what the driver gave */

static int decided;                        /* the heap is chosen */
static struct device *manager;             /* the GPU whose managed memory it is; NULL: libc's */
static struct block *blocks;               /* open addressing by address; address 0: empty */
static size_t block_capacity, block_count;

static void decide(void) {
    int i, n;
    offload_lock();
    if (!decided) {
        n = device_count();
        devices_apply_requirements();
        for (i = 0; i < n && !manager; i++) {
            struct device *d = device_at(i);
            if (d->usable && d->usm == USM_MANAGED) manager = d;
        }
        __atomic_store_n(&decided, 1, __ATOMIC_RELEASE);
    }
    offload_unlock();
}

static int managed(void) {
    if (!__atomic_load_n(&decided, __ATOMIC_ACQUIRE)) decide();
    return manager != 0;
}

static size_t slot_of(uintptr_t address) { return (size_t)((address >> 4) * 0x9E3779B97F4A7C15ULL) & (block_capacity - 1); }

static struct block *find_block(uintptr_t address) {
    size_t i;
    if (!block_capacity) return 0;
    for (i = slot_of(address); blocks[i].address; i = (i + 1) & (block_capacity - 1))
        if (blocks[i].address == address) return &blocks[i];
    return 0;
}

static void remember(struct block made) {
    size_t i;
    if (2 * (block_count + 1) > block_capacity) {
        struct block *old = blocks;
        size_t old_capacity = block_capacity, k;
        block_capacity = block_capacity ? 2 * block_capacity : 1024;
        blocks = calloc(block_capacity, sizeof *blocks);
        block_count = 0;
        for (k = 0; k < old_capacity; k++)
            if (old[k].address) remember(old[k]);
        free(old);
    }
    for (i = slot_of(made.address); blocks[i].address; i = (i + 1) & (block_capacity - 1)) {}
    blocks[i] = made;
    block_count++;
}

static void forget(struct block *gone) {                 /* backward-shift deletion */
    size_t hole = (size_t)(gone - blocks), i = hole;
    for (;;) {
        size_t home;
        i = (i + 1) & (block_capacity - 1);
        if (!blocks[i].address) break;
        home = slot_of(blocks[i].address);
        if ((i > hole && (home <= hole || home > i)) || (i < hole && home <= hole && home > i)) {
            blocks[hole] = blocks[i];
            hole = i;
        }
    }
    blocks[hole].address = 0;
    block_count--;
}

/* `size` bytes of managed memory aligned to `alignment` (a power of two); NULL: none */
static void *managed_block(size_t size, size_t alignment) {
    uintptr_t base = 0, address;
    size_t extra = alignment > 256 ? alignment : 0;   /* the driver's blocks are 256-byte aligned */
    offload_lock();
    if (manager->ops->allocate_managed(manager, (long)(size + extra ? size + extra : 1), &base)) {
        offload_report("warning", "unified_shared_memory: %s", manager->last_error);
        offload_unlock();
        return 0;
    }
    address = extra ? (base + alignment - 1) & ~(uintptr_t)(alignment - 1) : base;
    remember((struct block){address, base, size});
    offload_unlock();
    return (void *)address;
}

void *__omp2gpu_usm_malloc(size_t size) {
    return managed() ? managed_block(size, 0) : malloc(size);
}

void *__omp2gpu_usm_calloc(size_t count, size_t size) {
    void *made;
    if (!managed()) return calloc(count, size);
    if (size && count > (size_t)-1 / size) return 0;
    made = managed_block(count * size, 0);
    if (made) memset(made, 0, count * size);
    return made;
}

void *__omp2gpu_usm_aligned_alloc(size_t alignment, size_t size) {
    return managed() ? managed_block(size, alignment) : aligned_alloc(alignment, size);
}

int __omp2gpu_usm_posix_memalign(void **result, size_t alignment, size_t size) {
    if (!managed()) return posix_memalign(result, alignment, size);
    *result = managed_block(size, alignment);
    return *result ? 0 : 12;                           /* ENOMEM */
}

void __omp2gpu_usm_free(void *pointer) {
    struct block *found;
    if (!pointer) return;
    if (!managed()) {
        free(pointer);
        return;
    }
    offload_lock();
    found = find_block((uintptr_t)pointer);
    if (found) {
        manager->ops->release_managed(manager, found->base);
        forget(found);
    }
    offload_unlock();
    if (!found) free(pointer);                         /* the C library's (strdup's, say) */
}

void *__omp2gpu_usm_realloc(void *pointer, size_t size) {
    struct block *found;
    size_t old_size;
    void *made;
    if (!managed()) return realloc(pointer, size);
    if (!pointer) return managed_block(size, 0);
    offload_lock();
    found = find_block((uintptr_t)pointer);
    old_size = found ? found->size : malloc_usable_size(pointer);
    offload_unlock();
    made = managed_block(size, 0);
    if (!made) return 0;
    memcpy(made, pointer, old_size < size ? old_size : size);
    __omp2gpu_usm_free(pointer);
    return made;
}
