/* OpenMP 5.0/5.1 memory management (sections 2.13 and 3.13 of 5.1): allocators with
 * their traits, omp_alloc and its family, the default allocator.
 *
 * One file for every place code runs: compiled by omp2gpu for the host (linked into
 * every host module, before the OpenMP runtime, so these are the program's), included
 * by the CPU device's runtime (runtime/cpu_device/omp_device.c) and by the GPU's
 * (runtime/device/omp_allocators.c), which define OMP2GPU_ALLOCATORS_ON_DEVICE (and
 * _ON_GPU). Every memory space is the memory malloc gives where the code runs: the
 * process's heap on the host and the CPU device, the CUDA device heap on a GPU (what the
 * compiler puts in a GPU's shared memory, the `allocate` directive's and clause's
 * omp_pteam_mem_alloc / omp_cgroup_mem_alloc variables, never comes here:
 * docs/allocators.md).
 *
 * Each block carries a header just below the address handed out: what malloc returned,
 * the size asked and the allocator's record, so omp_free and omp_realloc need no
 * allocator and a pool's use is given back to the right pool.
 */
#include <omp.h>
#include <stdlib.h>
#ifndef OMP2GPU_ALLOCATORS_ON_DEVICE
#include <pthread.h>
#endif
#ifdef OMP2GPU_ALLOCATORS_ON_GPU
int printf(const char *format, ...);
#else
#include <stdio.h>
#endif

#define LAST_PREDEFINED ((omp_allocator_handle_t)8)
#define RECORD_MAGIC 0x6f6d7032616c6c63UL       /* "omp2allc": a record, not garbage */
#define MAX_ALIGNMENT (1UL << 30)

/* An allocator omp_init_allocator made: its memory space and traits. */
typedef struct allocator_record {
    unsigned long magic;
    omp_memspace_handle_t memspace;
    unsigned long alignment;        /* a power of two; 1: malloc's own */
    unsigned long pool_size;        /* bytes the allocator may hand out at once; 0: no limit */
    unsigned long pool_used;        /* handed out and not yet freed (atomic) */
    unsigned long fallback;         /* omp_atv_default_mem_fb, _null_fb, _abort_fb, _allocator_fb */
    omp_allocator_handle_t fb_data; /* allocator_fb's allocator */
    unsigned long pinned;           /* 1: page-locked blocks, on the host (libomp2gpu's pinned_memory.c) */
} allocator_record;

typedef struct block_header {
    void *base;                     /* what malloc returned */
    unsigned long size;             /* the size asked */
    allocator_record *record;       /* NULL: a predefined allocator's block */
    omp_allocator_handle_t allocator;   /* the one that made it (after any fallback) */
    long pinned_device;             /* page-locked by this device's driver, else -1; the
                                       header's 48 bytes keep 16-byte alignment */
    long unused;
} block_header;

/* Clang's target memory: 0 device, 1 host, 2 shared memory of the default device, else -1 */
static int target_space_kind(unsigned long handle) {
    return handle >= llvm_omp_target_host_mem_space && handle <= llvm_omp_target_device_mem_space
           ? (handle == llvm_omp_target_device_mem_space ? 0 : handle == llvm_omp_target_host_mem_space ? 1 : 2)
           : -1;
}

static allocator_record *record_of(omp_allocator_handle_t allocator) {
    if (allocator <= LAST_PREDEFINED || target_space_kind(allocator) >= 0) return NULL;
    allocator_record *record = (allocator_record *)allocator;
    return record->magic == RECORD_MAGIC ? record : NULL;
}

static int is_power_of_two(unsigned long value) { return value && !(value & (value - 1)); }

/* Loops, not memset/memcpy, which a GPU lacks; on the GPU the stores are volatile, or
 * LLVM turns the loops back into calls of them. Blocks start 16-byte aligned. */
#ifdef OMP2GPU_ALLOCATORS_ON_GPU
typedef volatile unsigned long word_store;
typedef volatile char byte_store;
#else
typedef unsigned long word_store;
typedef char byte_store;
#endif
static void zero_bytes(char *to, unsigned long size) {
    unsigned long words = size / 8, i;
    for (i = 0; i < words; i++) ((word_store *)to)[i] = 0;
    for (i = words * 8; i < size; i++) ((byte_store *)to)[i] = 0;
}
static void copy_bytes(char *to, const char *from, unsigned long size) {
    unsigned long words = size / 8, i;
    for (i = 0; i < words; i++) ((word_store *)to)[i] = ((const unsigned long *)from)[i];
    for (i = words * 8; i < size; i++) ((byte_store *)to)[i] = from[i];
}

/* ------------------------------------------------------------ allocators and traits */

/* One trait into the record; 0 when its key or value is not OpenMP's (5.1 table 2.9). */
static int take_trait(allocator_record *record, omp_alloctrait_t trait) {
    omp_uintptr_t value = trait.value;
    switch (trait.key) {
    case omp_atk_sync_hint:
        return value == (omp_uintptr_t)omp_atv_default || value == omp_atv_contended
               || value == omp_atv_uncontended || value == omp_atv_serialized
               || value == omp_atv_private;
    case omp_atk_alignment:
        if (!is_power_of_two(value) || value > MAX_ALIGNMENT) return 0;
        record->alignment = value;
        return 1;
    case omp_atk_access:
        return value == (omp_uintptr_t)omp_atv_default || value == omp_atv_all
               || value == omp_atv_cgroup || value == omp_atv_pteam || value == omp_atv_thread;
    case omp_atk_pool_size:
        record->pool_size = value;
        return value > 0;
    case omp_atk_fallback:
        if (value == (omp_uintptr_t)omp_atv_default) value = omp_atv_default_mem_fb;
        if (value < omp_atv_default_mem_fb || value > omp_atv_allocator_fb) return 0;
        record->fallback = value;
        return 1;
    case omp_atk_fb_data:
        record->fb_data = (omp_allocator_handle_t)value;
        return value != 0;
    case omp_atk_pinned:
        /* On the host, page-locked by the default device where it can (a GPU); else plain */
        record->pinned = value == omp_atv_true;
        return value == (omp_uintptr_t)omp_atv_default || value == omp_atv_true
               || value == omp_atv_false;
    case omp_atk_partition:
        return value == (omp_uintptr_t)omp_atv_default || value == omp_atv_environment
               || value == omp_atv_nearest || value == omp_atv_blocked
               || value == omp_atv_interleaved;
    }
    return 0;
}

/* A new allocator, or omp_null_allocator for a memory space or a trait that is not
 * OpenMP's (an alignment no power of two, allocator_fb without fb_data, ...). */
omp_allocator_handle_t omp_init_allocator(omp_memspace_handle_t memspace, int ntraits,
                                          const omp_alloctrait_t traits[]) {
    allocator_record made;
    int i;
    if ((memspace > omp_low_lat_mem_space && target_space_kind(memspace) < 0) || ntraits < 0
        || (ntraits > 0 && !traits))
        return omp_null_allocator;
    made.magic = RECORD_MAGIC;
    made.memspace = memspace;
    made.alignment = 1;
    made.pool_size = 0;
    made.pool_used = 0;
    made.fallback = omp_atv_default_mem_fb;
    made.fb_data = omp_null_allocator;
    made.pinned = 0;
    for (i = 0; i < ntraits; i++)
        if (!take_trait(&made, traits[i])) return omp_null_allocator;
    if (made.fallback == omp_atv_allocator_fb && made.fb_data == omp_null_allocator)
        return omp_null_allocator;
    allocator_record *record = (allocator_record *)malloc(sizeof(allocator_record));
    if (!record) return omp_null_allocator;
    *record = made;
    return (omp_allocator_handle_t)record;
}

void omp_destroy_allocator(omp_allocator_handle_t allocator) {
    allocator_record *record = record_of(allocator);
    if (record) {
        record->magic = 0;
        free(record);
    }
}

/* --------------------------------------------------------- def-allocator-var */

#ifdef OMP2GPU_ALLOCATORS_ON_DEVICE
/* A device's ICV: one for the device's data environment (its threads set it rarely). */
static omp_allocator_handle_t device_default_allocator = omp_default_mem_alloc;
void omp_set_default_allocator(omp_allocator_handle_t allocator) {
    device_default_allocator = allocator;
}
omp_allocator_handle_t omp_get_default_allocator(void) { return device_default_allocator; }
#else
/* The host's: each thread's own (a pthread key: JIT-run code has no thread-local
 * storage), starting at OMP_ALLOCATOR's predefined allocator or omp_default_mem_alloc. */
static pthread_key_t default_key;
static pthread_once_t default_key_once = PTHREAD_ONCE_INIT;
static omp_allocator_handle_t initial_default;

/* libomp2gpu's OMP_ALLOCATOR, read (and any error said) at start-up: runtime/offload/env_allocator.c */
int __omp2gpu_env_allocator(omp_memspace_handle_t *memspace, omp_alloctrait_t *traits, int *ntraits);

static void make_default_key(void) {
    omp_memspace_handle_t memspace;
    omp_alloctrait_t traits[16];
    int ntraits = 0, named = __omp2gpu_env_allocator(&memspace, traits, &ntraits);
    initial_default = omp_default_mem_alloc;
    if (named > 0) initial_default = (omp_allocator_handle_t)named;
    if (named == 0) {
        omp_allocator_handle_t made = omp_init_allocator(memspace, ntraits, traits);
        if (made != omp_null_allocator) initial_default = made;
    }
    pthread_key_create(&default_key, NULL);
}

void omp_set_default_allocator(omp_allocator_handle_t allocator) {
    pthread_once(&default_key_once, make_default_key);
    pthread_setspecific(default_key, (void *)allocator);
}
omp_allocator_handle_t omp_get_default_allocator(void) {
    pthread_once(&default_key_once, make_default_key);
    void *set = pthread_getspecific(default_key);
    return set ? (omp_allocator_handle_t)set : initial_default;
}
#endif

/* --------------------------------------------------------------- allocation */

static void abort_fallback(unsigned long size) {
#ifdef OMP2GPU_ALLOCATORS_ON_GPU
    printf("omp2gpu: error: omp_alloc: %lu bytes not available from an allocator with "
           "fallback abort_fb\n", size);
    __builtin_trap();
#else
    fflush(stdout);
    fprintf(stderr, "omp2gpu: error: omp_alloc: %lu bytes not available from an allocator "
            "with fallback abort_fb\n", size);
    abort();
#endif
}

/* From the allocator's pool: 0 when the block would take it past its pool_size. */
static int take_from_pool(allocator_record *record, unsigned long size) {
    if (!record || !record->pool_size) return 1;
    unsigned long used = __atomic_add_fetch(&record->pool_used, size, 5);
    if (used <= record->pool_size && used >= size) return 1;
    __atomic_sub_fetch(&record->pool_used, size, 5);
    return 0;
}

#ifndef OMP2GPU_ALLOCATORS_ON_DEVICE
/* runtime/host/target_memory_spaces.c: blocks of Clang's target memory spaces */
void *__omp2gpu_target_space_alloc(int kind, unsigned long size, unsigned long alignment, void *allocator);
int __omp2gpu_target_space_block(void *start, int release, unsigned long *size, int *device, void **allocator);
/* libomp2gpu's pinned_memory.c: the `pinned` trait's page-locked memory (NULL: plain memory) */
void *__omp2gpu_pinned_alloc(size_t bytes, int *device);
void __omp2gpu_pinned_free(void *host, int device);

/* A target memory space's block (zeroed: through a zero host buffer, the device's memory
 * being out of the host's reach), or NULL. */
static void *target_space_block(int kind, unsigned long alignment, unsigned long size,
                                omp_allocator_handle_t allocator, int zeroed) {
    void *block = __omp2gpu_target_space_alloc(kind, size, alignment, (void *)allocator);
    if (block && zeroed) {
        void *zeros = calloc(1, size);
        int device = omp_get_default_device();
        if (!zeros || omp_target_memcpy(block, zeros, size, 0, 0, device, omp_get_initial_device())) {
            unsigned long ignored_size;
            void *ignored_allocator;
            __omp2gpu_target_space_block(block, 1, &ignored_size, &device, &ignored_allocator);
            block = NULL;
        }
        free(zeros);
    }
    return block;
}
#endif

static void *allocate(unsigned long alignment, unsigned long size, omp_allocator_handle_t allocator,
                      int zeroed) {
    int tries;
    if (allocator == omp_null_allocator) allocator = omp_get_default_allocator();
    /* A chain of allocator_fb allocators ends; one that loops is cut after a few. */
    for (tries = 0; tries < 16; tries++) {
        allocator_record *record = record_of(allocator);
        int space = target_space_kind(record ? record->memspace : allocator);
        if (allocator > LAST_PREDEFINED && !record && space < 0) return NULL;    /* destroyed, or none */
        unsigned long align = alignment;
        if (record && record->alignment > align) align = record->alignment;
        if (align < 16) align = 16;
        unsigned long total = size + align + sizeof(block_header);
        void *base = NULL;
        int pinned_device = -1;
#ifndef OMP2GPU_ALLOCATORS_ON_DEVICE
        if (space >= 0) {                   /* the default device's memory (on a device: its own) */
            void *block = NULL;
            if (total > size && take_from_pool(record, size)) {
                block = target_space_block(space, align, size, allocator, zeroed);
                if (!block && record && record->pool_size) __atomic_sub_fetch(&record->pool_used, size, 5);
            }
            if (block) return block;
        } else
#endif
        if (total > size && take_from_pool(record, size)) {
#ifndef OMP2GPU_ALLOCATORS_ON_DEVICE
            if (record && record->pinned) base = __omp2gpu_pinned_alloc(total, &pinned_device);
            if (!base) pinned_device = -1;
#endif
            if (!base) base = malloc(total);
            if (!base && record && record->pool_size)
                __atomic_sub_fetch(&record->pool_used, size, 5);
        }
        if (base) {
            unsigned long start = ((unsigned long)base + sizeof(block_header) + align - 1) & ~(align - 1);
            block_header *header = (block_header *)start - 1;
            header->base = base;
            header->size = size;
            header->record = record;
            header->allocator = allocator;
            header->pinned_device = pinned_device;
            if (zeroed) zero_bytes((char *)start, size);
            return (void *)start;
        }
        /* The allocator could not: its fallback trait says what next (a predefined
         * allocator falls back to omp_default_mem_alloc, which returns NULL). */
        unsigned long fallback = record ? record->fallback : omp_atv_default_mem_fb;
        if (fallback == omp_atv_default_mem_fb && allocator != omp_default_mem_alloc)
            allocator = omp_default_mem_alloc;
        else if (fallback == omp_atv_allocator_fb)
            allocator = record->fb_data;
        else if (fallback == omp_atv_abort_fb)
            abort_fallback(size);
        else
            return NULL;
    }
    return NULL;
}

void *omp_aligned_alloc(size_t alignment, size_t size, omp_allocator_handle_t allocator) {
    if (size == 0 || !is_power_of_two(alignment) || alignment > MAX_ALIGNMENT) return NULL;
    return allocate(alignment, size, allocator, 0);
}
void *omp_alloc(size_t size, omp_allocator_handle_t allocator) {
    return omp_aligned_alloc(1, size, allocator);
}
void *omp_aligned_calloc(size_t alignment, size_t nmemb, size_t size, omp_allocator_handle_t allocator) {
    if (nmemb == 0 || size == 0 || !is_power_of_two(alignment) || alignment > MAX_ALIGNMENT) return NULL;
    if (size > (unsigned long)-1 / nmemb) return NULL;             /* the product overflows */
    return allocate(alignment, nmemb * size, allocator, 1);
}
void *omp_calloc(size_t nmemb, size_t size, omp_allocator_handle_t allocator) {
    return omp_aligned_calloc(1, nmemb, size, allocator);
}

void omp_free(void *ptr, omp_allocator_handle_t allocator) {
    (void)allocator;                    /* the block's header knows its allocator */
    if (!ptr) return;
#ifndef OMP2GPU_ALLOCATORS_ON_DEVICE
    unsigned long size;
    int device;
    void *owner;
    if (__omp2gpu_target_space_block(ptr, 1, &size, &device, &owner)) {     /* a target memory space's */
        allocator_record *record = record_of((omp_allocator_handle_t)owner);
        if (record && record->pool_size) __atomic_sub_fetch(&record->pool_used, size, 5);
        return;
    }
#endif
    block_header *header = (block_header *)ptr - 1;
    if (header->record && header->record->pool_size)
        __atomic_sub_fetch(&header->record->pool_used, header->size, 5);
#ifndef OMP2GPU_ALLOCATORS_ON_DEVICE
    if (header->pinned_device >= 0) {
        __omp2gpu_pinned_free(header->base, (int)header->pinned_device);
        return;
    }
#endif
    free(header->base);
}

/* OpenMP 5.1 3.13.9: a new block from `allocator` (the old one's when it is
 * omp_null_allocator) holding the old contents; the old block is freed only when the
 * new one was made. */
void *omp_realloc(void *ptr, size_t size, omp_allocator_handle_t allocator,
                  omp_allocator_handle_t free_allocator) {
    if (!ptr) return omp_alloc(size, allocator);
    if (size == 0) {
        omp_free(ptr, free_allocator);
        return NULL;
    }
#ifndef OMP2GPU_ALLOCATORS_ON_DEVICE
    unsigned long old_size;
    int device;
    void *owner;
    if (__omp2gpu_target_space_block(ptr, 0, &old_size, &device, &owner)) {    /* device memory: copied there */
        if (allocator == omp_null_allocator) allocator = (omp_allocator_handle_t)owner;
        void *moved = allocate(1, size, allocator, 0);
        unsigned long unused_size;
        int moved_device = device;
        void *unused_owner;
        if (!moved) return NULL;
        if (!__omp2gpu_target_space_block(moved, 0, &unused_size, &moved_device, &unused_owner))
            moved_device = omp_get_initial_device();
        omp_target_memcpy(moved, ptr, old_size < size ? old_size : size, 0, 0, moved_device, device);
        omp_free(ptr, free_allocator);
        return moved;
    }
#endif
    block_header *header = (block_header *)ptr - 1;
    if (allocator == omp_null_allocator) allocator = header->allocator;
    void *moved = allocate(1, size, allocator, 0);
    if (!moved) return NULL;
    copy_bytes((char *)moved, (const char *)ptr, header->size < size ? header->size : size);
    omp_free(ptr, free_allocator);
    return moved;
}

/* The alignment an allocator gives every block (at least `natural`): the `allocate`
 * directive's variables and the `allocate` clause's private copies whose allocator is
 * known only at run time are aligned to it (codegen/openmp/data/allocate_storage.py). */
unsigned long __omp2gpu_allocator_alignment(omp_allocator_handle_t allocator, unsigned long natural) {
    allocator_record *record = record_of(allocator);
    return record && record->alignment > natural ? record->alignment : natural;
}

/* The bytes of an allocator's record, 0 for a predefined allocator (no record): a target
 * construct's uses_allocators(a(traits)) allocator is made on the host and its record
 * mapped to the device for the construct (codegen/openmp/data/region_allocators.py). */
unsigned long __omp2gpu_allocator_record_bytes(omp_allocator_handle_t allocator) {
    return record_of(allocator) ? sizeof(allocator_record) : 0;
}
