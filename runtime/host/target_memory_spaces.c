/* Clang's target memory spaces and allocators on the host (llvm_omp_target_device_mem_space
 * and _alloc, _host_, _shared_: omp.h): omp_alloc's blocks from them are the default
 * device's memory, made by llvm_omp_target_alloc_device / _host / _shared (NULL with no
 * device) and given back by omp_target_free. Device memory has no room the host may write
 * omp_alloc's header into, so such blocks are kept here instead, with what omp_free needs:
 * what the allocation returned, the size asked, the device and the allocator (its pool,
 * omp_realloc's). runtime/host/omp_allocators.c asks here first. */
#include <omp.h>
#include <pthread.h>
#include <stdlib.h>

typedef struct target_block {
    char *start, *base;                 /* handed out, and what the allocation returned */
    unsigned long size;
    int device;
    void *allocator;                    /* the allocator that made it (its pool, realloc's) */
} target_block;

static target_block *blocks;
static long block_count, block_capacity;
static pthread_mutex_t blocks_lock = PTHREAD_MUTEX_INITIALIZER;

/* kind: 0 device, 1 host, 2 shared memory of the default device; `size` bytes aligned to
 * `alignment` (a power of two), or NULL. */
void *__omp2gpu_target_space_alloc(int kind, unsigned long size, unsigned long alignment, void *allocator) {
    int device = omp_get_default_device();
    unsigned long total = size + alignment;
    char *base = kind == 0 ? llvm_omp_target_alloc_device(total, device)
                 : kind == 1 ? llvm_omp_target_alloc_host(total, device) : llvm_omp_target_alloc_shared(total, device);
    char *start;
    if (!base) return NULL;
    start = (char *)(((unsigned long)base + alignment - 1) & ~(alignment - 1));
    pthread_mutex_lock(&blocks_lock);
    if (block_count == block_capacity) {
        block_capacity = block_capacity ? 2 * block_capacity : 16;
        blocks = (target_block *)realloc(blocks, block_capacity * sizeof(target_block));
    }
    blocks[block_count].start = start;
    blocks[block_count].base = base;
    blocks[block_count].size = size;
    blocks[block_count].device = device;
    blocks[block_count].allocator = allocator;
    block_count++;
    pthread_mutex_unlock(&blocks_lock);
    return start;
}

/* 1 when `start` is such a block: *size, *device and *allocator say what it was; `release`:
 * it is given back now and forgotten. 0: not one of them. */
int __omp2gpu_target_space_block(void *start, int release, unsigned long *size, int *device, void **allocator) {
    long i;
    int found = 0;
    char *base = 0;
    if (!block_count) return 0;             /* the program used none: no lock */
    pthread_mutex_lock(&blocks_lock);
    for (i = 0; i < block_count && blocks[i].start != (char *)start; i++) {}
    if (i < block_count) {
        found = 1;
        *size = blocks[i].size;
        *device = blocks[i].device;
        *allocator = blocks[i].allocator;
        base = blocks[i].base;
        if (release) blocks[i] = blocks[--block_count];
    }
    pthread_mutex_unlock(&blocks_lock);
    if (found && release) omp_target_free(base, *device);
    return found;
}
