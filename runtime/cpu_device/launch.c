/* The CPU device's half of the native launch path (runtime/native_launch/):
 * __omp2gpu_target without Python, bound to it in the JIT when the CPU device
 * is the default device. mirror.c plans the launch; here transient ranges get
 * device buffers (aligned, from block_cache.c; zero-copy mode: the host's own
 * storage) and copies, and the launch goes to the worker pool (pool.c).
 */
#include <stdlib.h>
#include <string.h>
#include "native_launch.h"

typedef void (*omp2gpu_wg_fn)(void **args, long group, long num_groups, int threads);

void __omp2gpu_cpu_run(omp2gpu_wg_fn fn, void **args, long num_groups, int threads_per_group,
                       int policy, long chunk);
void __omp2gpu_cpu_copy(void *dst, const void *src, long bytes, long piece);

#define ALIGNMENT 64                 /* a cache line; also what AVX-512 loads like */
#define PARALLEL_COPY (4L << 20)     /* copies this large are split over the workers */
#define COPY_PIECE (1L << 20)

static long buffer_allocate(long bytes) {
    return (long)aligned_alloc(ALIGNMENT, (size_t)((bytes + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT));
}

static void buffer_free(long address) { free((void *)address); }

static int policy;
static long chunk;

void __omp2gpu_cpu_schedule(int schedule_policy, long schedule_chunk) {
    policy = schedule_policy;
    chunk = schedule_chunk;
    block_cache_use(buffer_allocate, buffer_free);
}

static void copy(long dst, long src, long bytes) {
    if (bytes >= PARALLEL_COPY) __omp2gpu_cpu_copy((void *)dst, (const void *)src, bytes, COPY_PIECE);
    else memcpy((void *)dst, (const void *)src, (size_t)bytes);
}

/* Device buffers for the plan's transients, copied in; 0 when all were had. */
static int map_transients(struct launch_plan *plan) {
    int t;
    for (t = 0; t < plan->transient_count; t++) {
        struct transient *transient = &plan->transients[t];
        long address = native_unified() ? transient->host : block_take(transient->size);
        if (!address) {
            while (t-- > 0) block_give(plan->transients[t].device, plan->transients[t].size);
            return -1;
        }
        native_place_transient(plan, t, address);
        if ((transient->type & MAP_TO) && !native_unified()) copy(address, transient->host, transient->size);
    }
    return 0;
}

static void unmap_transients(struct launch_plan *plan) {
    int t;
    if (native_unified()) return;
    for (t = 0; t < plan->transient_count; t++) {
        struct transient *transient = &plan->transients[t];
        if (transient->type & MAP_FROM) copy(transient->host, transient->device, transient->size);
        block_give(transient->device, transient->size);
    }
}

int __omp2gpu_cpu_target(long device, const char *name, int count, void **bases, void **begins,
                         long *sizes, long *types, int num_teams, int thread_limit, long trip_count,
                         const char *where) {
    struct launch_plan plan;
    if (native_begin(device, name, count, bases, begins, sizes, types, num_teams, thread_limit,
                     trip_count, &plan) == 0) {
        if (map_transients(&plan) == 0) {
            __omp2gpu_cpu_run((omp2gpu_wg_fn)plan.kernel->handle, plan.args, plan.grid, (int)plan.block,
                              policy, chunk);
            unmap_transients(&plan);
            return native_done(&plan);
        }
        native_unlock();                     /* out of memory: the launcher says so */
    }
    return native_slow(device, name, count, bases, begins, sizes, types, num_teams, thread_limit,
                       trip_count, where);
}

/* One copy of a `target update` of present ranges. Nothing to copy where the device's
 * storage is the host's own (a range mapped in zero-copy mode); a declare target
 * global has module storage of its own in every mode. */
static int update_copy(struct update_copy *update) {
    if (update->device == update->host) return 0;
    if (update->to_device) copy(update->device, update->host, update->size);
    else copy(update->host, update->device, update->size);
    return 0;
}

void __omp2gpu_cpu_update(long device, int count, void **bases, void **begins, long *sizes, long *types,
                          const char *where) {
    native_update(device, count, bases, begins, sizes, types, where, update_copy);
}
