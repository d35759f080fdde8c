/* The CPU device: target regions as work-groups on the host's cores (docs/cpu-device.md).
 * Mapped data is copied into buffers of its own and
 * back exactly as on a GPU; buffers are 64-byte aligned, large ones on huge pages; freed
 * buffers of 64 KiB or more are kept for reuse (OMP2GPU_CPU_CACHE_BYTES, 1 GiB).
 * OMP2GPU_CPU_UNIFIED=1 maps ranges in place (zero-copy). Its code is the program's
 * work-group functions, linked into the program; launches run on the worker pool of
 * runtime/cpu_device/pool.c (OMP_NUM_THREADS workers, else the cores; OMP2GPU_CPU_SPIN;
 * OMP2GPU_CPU_SCHEDULE=policy[,chunk]). */
#define _GNU_SOURCE
#include <ctype.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include "offload.h"

#define ALIGNMENT 64
#define HUGE_PAGE (2L << 20)
#define CACHE_MIN (64L << 10)
#define PARALLEL_COPY (4L << 20)
#define COPY_PIECE (1L << 20)
#define MAX_THREADS_PER_GROUP 4096
#define MAX_WORKERS 256
#define DEFAULT_SPIN 20000

int __omp2gpu_cpu_pool_start(int count, long spin);
void __omp2gpu_cpu_run(work_group_fn fn, void **args, long num_groups, int threads_per_group,
                       int policy, long chunk);
void __omp2gpu_cpu_copy(void *dst, const void *src, long bytes, long piece);

struct buffer { uintptr_t address; long rounded; };

struct cpu_state {
    int workers;
    int unified;
    int schedule_policy;
    long schedule_chunk;
    int pool_started;
    long cache_limit, cached_bytes;
    struct buffer *live, *cache;
    long live_count, live_capacity, cache_count, cache_capacity;
};

static void push(struct buffer **items, long *count, long *capacity, uintptr_t address, long rounded) {
    if (*count == *capacity) {
        *capacity = *capacity ? 2 * *capacity : 64;
        *items = realloc(*items, (size_t)*capacity * sizeof **items);
    }
    (*items)[*count].address = address;
    (*items)[(*count)++].rounded = rounded;
}

static int flag(const char *name) {
    const char *text = getenv(name);
    return text && (strcmp(text, "1") == 0 || strcasecmp(text, "true") == 0 || strcasecmp(text, "yes") == 0
                    || strcasecmp(text, "on") == 0);
}

static int worker_count(void) {
    const char *text = getenv("OMP_NUM_THREADS");
    cpu_set_t set;
    int cores;
    if (text) {
        long value = strtol(text, 0, 10);
        if (value > 0) return value < MAX_WORKERS ? (int)value : MAX_WORKERS;
    }
    cores = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
    return cores < 1 ? 1 : (cores < MAX_WORKERS ? cores : MAX_WORKERS);
}

static void read_schedule(struct cpu_state *s) {
    static const char *names[] = {"static", "dynamic", "guided", "steal"};
    const char *text = getenv("OMP2GPU_CPU_SCHEDULE");
    char policy[64] = "", *comma;
    int i;
    s->schedule_policy = 3;
    s->schedule_chunk = 0;
    if (!text || !text[0]) return;
    snprintf(policy, sizeof policy, "%s", text);
    comma = strchr(policy, ',');
    if (comma) {
        *comma = 0;
        s->schedule_chunk = strtol(comma + 1, 0, 10);
        if (s->schedule_chunk < 0) s->schedule_chunk = 0;
    }
    for (char *c = policy; *c; c++) *c = (char)tolower((unsigned char)*c);
    if (strcmp(policy, "work-stealing") == 0) strcpy(policy, "steal");
    for (i = 0; i < 4; i++)
        if (strcmp(policy, names[i]) == 0) {
            s->schedule_policy = i;
            return;
        }
    /* `omp2gpu run` and omp2gpu.load refuse such a value (config.py); a program run itself says so */
    offload_report("warning", "OMP2GPU_CPU_SCHEDULE=%s: unknown policy '%s' (choose from static, dynamic, "
                   "guided, steal); steal used", text, policy);
}

static int cpu_allocate(struct device *d, long bytes, uintptr_t *address) {
    struct cpu_state *s = d->state;
    long alignment = bytes >= HUGE_PAGE ? HUGE_PAGE : ALIGNMENT, rounded, i;
    void *made;
    if (bytes <= 0) {
        device_error(d, "allocate: size must be positive");
        return -1;
    }
    rounded = (bytes + alignment - 1) / alignment * alignment;
    for (i = s->cache_count - 1; i >= 0; i--)
        if (s->cache[i].rounded == rounded) {
            *address = s->cache[i].address;
            s->cache[i] = s->cache[--s->cache_count];
            s->cached_bytes -= rounded;
            push(&s->live, &s->live_count, &s->live_capacity, *address, rounded);
            return 0;
        }
    made = aligned_alloc((size_t)alignment, (size_t)rounded);
    if (!made && s->cache_count) {
        for (i = 0; i < s->cache_count; i++) free((void *)s->cache[i].address);
        s->cache_count = 0;
        s->cached_bytes = 0;
        made = aligned_alloc((size_t)alignment, (size_t)rounded);
    }
    if (!made) {
        device_error(d, "allocate: out of memory for %ld bytes", bytes);
        return -1;
    }
    if (alignment == HUGE_PAGE) madvise(made, (size_t)rounded, MADV_HUGEPAGE);
    *address = (uintptr_t)made;
    push(&s->live, &s->live_count, &s->live_capacity, *address, rounded);
    return 0;
}

static int cpu_release(struct device *d, uintptr_t address) {
    struct cpu_state *s = d->state;
    long i;
    for (i = s->live_count - 1; i >= 0; i--)
        if (s->live[i].address == address) break;
    if (i < 0) {
        if (s->unified) return 0;                 /* the host's own storage, mapped in place */
        device_error(d, "free of %#lx, which is not an allocation", (unsigned long)address);
        return -1;
    }
    {
        long rounded = s->live[i].rounded;
        s->live[i] = s->live[--s->live_count];
        if (rounded >= CACHE_MIN && s->cached_bytes + rounded <= s->cache_limit) {
            push(&s->cache, &s->cache_count, &s->cache_capacity, address, rounded);
            s->cached_bytes += rounded;
        } else {
            free((void *)address);
        }
    }
    return 0;
}

static void copy(struct cpu_state *s, void *dst, const void *src, long bytes) {
    if (bytes <= 0 || dst == src) return;
    if (bytes >= PARALLEL_COPY && s->pool_started) __omp2gpu_cpu_copy(dst, src, bytes, COPY_PIECE);
    else memmove(dst, src, (size_t)bytes);
}

static int cpu_to_device(struct device *d, uintptr_t dst, const void *src, long bytes) {
    copy(d->state, (void *)dst, src, bytes);
    return 0;
}

static int cpu_to_host(struct device *d, void *dst, uintptr_t src, long bytes) {
    copy(d->state, dst, (const void *)src, bytes);
    return 0;
}

static int cpu_device_to_device(struct device *d, uintptr_t dst, uintptr_t src, long bytes) {
    copy(d->state, (void *)dst, (const void *)src, bytes);
    return 0;
}

static int start_pool(struct device *d) {
    struct cpu_state *s = d->state;
    const char *spin_text = getenv("OMP2GPU_CPU_SPIN");
    long spin = spin_text ? strtol(spin_text, 0, 10) : DEFAULT_SPIN;
    if (s->pool_started) return 0;
    if (__omp2gpu_cpu_pool_start(s->workers, spin) != 0) {
        device_error(d, "the CPU device's worker threads could not be started");
        return -1;
    }
    s->pool_started = 1;
    return 0;
}

/* An image's CPU code is in the program already: the module is the image itself. */
static int cpu_load(struct device *d, const struct image_desc *image, void **module) {
    long i;
    int has_code = image->cpu_global_count > 0;
    for (i = 0; i < image->kernel_count && !has_code; i++) has_code = image->kernels[i].cpu_function != 0;
    *module = has_code ? (void *)image : 0;
    return has_code ? start_pool(d) : 0;
}

static int cpu_global(struct device *d, void *module, const char *name, uintptr_t *address, long *size) {
    const struct image_desc *image = module;
    long i;
    (void)d;
    for (i = 0; i < image->cpu_global_count; i++)
        if (strcmp(image->cpu_globals[i].name, name) == 0) {
            *address = (uintptr_t)image->cpu_globals[i].cpu_address;
            *size = image->cpu_globals[i].size;
            return 0;
        }
    return -1;
}

static int cpu_launch(struct device *d, void *module, const struct kernel_desc *kernel, long grid, long block,
                      void **args, int arg_count, double *micros) {
    double start = micros ? profile_now() : 0;
    struct cpu_state *s = d->state;
    (void)arg_count;
    if (!module || !kernel->cpu_function) {
        device_error(d, "no work-group function for kernel '%s'", kernel->name);
        return -1;
    }
    if (kernel->cpu_scheme == SCHEME_CPU_SEQUENTIAL) grid = block = 1;
    if (kernel->cpu_scheme == SCHEME_CPU_TEAMS && block > CPU_MAX_TEAM) block = CPU_MAX_TEAM;
    if (grid < 1) grid = 1;
    if (block < 1) block = 1;
    __omp2gpu_cpu_run(kernel->cpu_function, args, grid, (int)block, s->schedule_policy, s->schedule_chunk);
    if (micros) *micros = profile_now() - start;       /* it ran before the call returned */
    return 0;
}

static void cpu_label(struct device *d, char *buffer, size_t size) {
    snprintf(buffer, size, "CPU device (%d workers)", ((struct cpu_state *)d->state)->workers);
}

/* Whether `address` lies in one of this device's allocations in use (omp_target_alloc). */
static int cpu_holds(struct device *d, uintptr_t address) {
    struct cpu_state *s = d->state;
    long i;
    for (i = 0; i < s->live_count; i++)
        if (s->live[i].address <= address && address < s->live[i].address + (uintptr_t)s->live[i].rounded) return 1;
    return 0;
}

static int cpu_wait_stream(struct device *d, void *stream) {
    (void)d;
    (void)stream;
    return 0;                    /* launches finish before they return */
}

/* unified_shared_memory: the CPU device's memory is the host's, so it reads it in place */
static int cpu_unify(struct device *d) {
    (void)d;
    return USM_SHARED;
}

/* Modelling a discrete device, the CPU device reaches only its own memory without a map
 * (host memory too where it maps in place: present_table's in_place, checked by the caller) */
static int cpu_accessible(struct device *d, uintptr_t address, long bytes) {
    return cpu_holds(d, address) && (bytes <= 0 || cpu_holds(d, address + (uintptr_t)bytes - 1));
}

/* `interop init(targetsync: ...)`: launches finish before they return, so no stream */
static int cpu_interop_handles(struct device *d, void **stream, void **device_handle, void **context) {
    (void)d;
    *stream = *device_handle = *context = 0;
    return 0;
}

static const struct device_ops cpu_ops = {
    "cpu", cpu_allocate, cpu_release, cpu_to_device, cpu_to_host, cpu_device_to_device,
    cpu_load, cpu_global, cpu_launch, cpu_label, cpu_holds, cpu_wait_stream,
    0, 0,                        /* strided updates: a memcpy a row */
    cpu_unify, 0, 0, 0, cpu_accessible, cpu_interop_handles,
    0, 0, 0, 0,                  /* no queued launches: a target task's kernel is waited for */
};

int cpu_device_make(struct device *d) {
    struct cpu_state *s = calloc(1, sizeof *s);
    const char *limit = getenv("OMP2GPU_CPU_CACHE_BYTES");
    s->workers = worker_count();
    s->unified = flag("OMP2GPU_CPU_UNIFIED");
    s->cache_limit = limit ? strtol(limit, 0, 10) : (1L << 30);
    read_schedule(s);
    d->ops = &cpu_ops;
    d->state = s;
    snprintf(d->name, sizeof d->name, "cpu");
    d->multiprocessors = s->workers;
    d->max_threads_per_block = MAX_THREADS_PER_GROUP;
    d->table.in_place = s->unified;
    return 0;
}
