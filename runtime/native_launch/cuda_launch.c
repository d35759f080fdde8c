/* The GPU's half of the native launch path (native_launch.h): __omp2gpu_target
 * without Python for a CUDA device, bound to it in the JIT when a GPU is the
 * default device. The CUDA driver library is opened here (the process already
 * has it: the launcher's cuda-python bindings loaded it) and its entry points
 * found with dlsym; the context and the kernels' CUfunction handles come from
 * the Python side, which loads the modules. mirror.c plans a launch; here
 * transient ranges get device memory from block_cache.c and are copied in,
 * the kernel is launched on the default stream and waited for, and they are
 * copied out. A driver error gives the device up (native_fail), as the
 * launcher's own path does, and the region runs on the host.
 *
 * A detached target task's launch (target_tasks.c) with no transients and no
 * team stack is not waited for (OMP2GPU_NOWAIT_STREAMS=1): it goes on one of
 * STREAMS blocking streams in turn (so anything the launcher does on the
 * default stream waits for it), followed by a host function that fulfils the
 * task's event when the kernel is done (docs/async.md).
 */
#include <dlfcn.h>
#include <stdio.h>
#include "native_launch.h"

typedef int (*launch_kernel_fn)(void *function, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                                unsigned block_x, unsigned block_y, unsigned block_z,
                                unsigned shared_bytes, void *stream, void **params, void **extra);
typedef int (*copy_to_device_fn)(unsigned long dst, const void *src, unsigned long bytes);
typedef int (*copy_to_host_fn)(void *dst, unsigned long src, unsigned long bytes);
typedef int (*allocate_fn)(unsigned long *address, unsigned long bytes);
typedef int (*free_fn)(unsigned long address);
typedef int (*synchronize_fn)(void);
typedef int (*get_context_fn)(void **context);
typedef int (*set_context_fn)(void *context);
typedef int (*error_name_fn)(int error, const char **name);
typedef int (*stream_create_fn)(void **stream, unsigned flags);
typedef int (*launch_host_fn)(void *stream, void (*function)(void *), void *data);

#define STREAMS 8

static launch_kernel_fn launch_kernel;
static copy_to_device_fn copy_to_device;
static copy_to_host_fn copy_to_host;
static allocate_fn allocate;
static free_fn release;
static synchronize_fn synchronize;
static get_context_fn get_context;
static set_context_fn set_context;
static error_name_fn error_name;
static stream_create_fn stream_create;
static launch_host_fn launch_host;
static void *streams[STREAMS];
static int next_stream;
static long asynchronous_launches;
static long event_counts[4];      /* __omp2gpu_gpu_event_counts */
static int streams_on;            /* OMP2GPU_NOWAIT_STREAMS (cuda_native.py) */
static void *context;
static long team_stack_address;
static long team_stack_bytes;
static char failure[512];

static void *driver_symbol(void *library, const char *name, int *missing) {
    void *symbol = dlsym(library, name);
    if (!symbol) *missing = 1;
    return symbol;
}

/* The driver's entry points; 0 when every one was found. */
int __omp2gpu_gpu_load(void) {
    int missing = 0;
    void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (!library) return -1;
    launch_kernel = (launch_kernel_fn)driver_symbol(library, "cuLaunchKernel", &missing);
    copy_to_device = (copy_to_device_fn)driver_symbol(library, "cuMemcpyHtoD_v2", &missing);
    copy_to_host = (copy_to_host_fn)driver_symbol(library, "cuMemcpyDtoH_v2", &missing);
    allocate = (allocate_fn)driver_symbol(library, "cuMemAlloc_v2", &missing);
    release = (free_fn)driver_symbol(library, "cuMemFree_v2", &missing);
    synchronize = (synchronize_fn)driver_symbol(library, "cuCtxSynchronize", &missing);
    get_context = (get_context_fn)driver_symbol(library, "cuCtxGetCurrent", &missing);
    set_context = (set_context_fn)driver_symbol(library, "cuCtxSetCurrent", &missing);
    error_name = (error_name_fn)driver_symbol(library, "cuGetErrorName", &missing);
    stream_create = (stream_create_fn)driver_symbol(library, "cuStreamCreate", &missing);
    launch_host = (launch_host_fn)driver_symbol(library, "cuLaunchHostFunc", &missing);
    return missing ? -1 : 0;
}

static long device_allocate(long bytes) {
    unsigned long address = 0;
    return allocate(&address, (unsigned long)bytes) == 0 ? (long)address : 0;
}

static void device_free(long address) { release((unsigned long)address); }

/* The device's context (its primary context, from the launcher's CudaDevice). */
void __omp2gpu_gpu_context(void *primary_context) {
    native_lock();
    context = primary_context;
    block_cache_use(device_allocate, device_free);
    native_unlock();
}

/* The control-loop kernels' team stack the launcher keeps (DeviceState.team_stack). */
void __omp2gpu_gpu_team_stack(long address, long bytes) {
    native_lock();
    team_stack_address = address;
    team_stack_bytes = bytes;
    native_unlock();
}

/* 0, or the region's fallback after naming the failed call as cuda.py does. */
static int checked(int error, const char *call) {
    const char *name = "CUDA_ERROR_UNKNOWN";
    if (error == 0) return 0;
    error_name(error, &name);
    snprintf(failure, sizeof failure, "%s: %s", call, name);
    return native_fail(failure);
}

/* The calling thread works in the device's context (current per thread). */
static int make_current(void) {
    void *current = (void *)0;
    if (get_context(&current) == 0 && current == context) return 0;
    return checked(set_context(context), "cuCtxSetCurrent");
}

/* Device memory for the plan's transients, copied in; -1: none to be had (nothing
 * done: the launcher's path reports it), else 0 or a failed copy's fallback. */
static int map_transients(struct launch_plan *plan) {
    int t;
    for (t = 0; t < plan->transient_count; t++) {
        struct transient *transient = &plan->transients[t];
        long address = block_take(transient->size);
        if (!address) {
            while (t-- > 0) block_give(plan->transients[t].device, plan->transients[t].size);
            return -1;
        }
        native_place_transient(plan, t, address);
    }
    for (t = 0; t < plan->transient_count; t++) {
        struct transient *transient = &plan->transients[t];
        if ((transient->type & MAP_TO)
                && checked(copy_to_device((unsigned long)transient->device, (const void *)transient->host,
                                          (unsigned long)transient->size), "cuMemcpyHtoD"))
            return 1;
    }
    return 0;
}

static int unmap_transients(struct launch_plan *plan) {
    int t;
    for (t = 0; t < plan->transient_count; t++) {
        struct transient *transient = &plan->transients[t];
        if ((transient->type & MAP_FROM)
                && checked(copy_to_host((void *)transient->host, (unsigned long)transient->device,
                                        (unsigned long)transient->size), "cuMemcpyDtoH"))
            return 1;
        block_give(transient->device, transient->size);
    }
    return 0;
}

/* The team stack, the control loop's hidden last parameter; -1 when it must grow first. */
static int add_team_stack(struct launch_plan *plan) {
    long bytes;
    if (plan->kernel->team_stack_bytes < 0) return 0;
    bytes = plan->grid * plan->kernel->team_stack_bytes;
    if (bytes > team_stack_bytes) return -1;
    plan->slots[plan->param_count] = bytes ? team_stack_address : 0;
    plan->args[plan->param_count] = &plan->slots[plan->param_count];
    plan->param_count++;
    return 0;
}

/* The next stream for a launch not waited for (made on first use; NULL: none to be had). */
static void *take_stream(void) {
    void **stream = &streams[next_stream];
    next_stream = (next_stream + 1) % STREAMS;
    if (!*stream && stream_create(stream, 0) != 0) *stream = (void *)0;
    return *stream;
}

/* A detached target task's kernel, enqueued with its event's fulfilment after it: 0 made,
 * 1 failed (the region runs on the host), -1 to be launched and waited for instead. */
static int launch_detached(struct launch_plan *plan, void *event) {
    void *stream = take_stream();
    if (!stream) return -1;
    if (checked(launch_kernel(plan->kernel->handle, (unsigned)plan->grid, 1, 1, (unsigned)plan->block,
                              1, 1, 0, stream, plan->args, (void **)0), "cuLaunchKernel")
            || checked(launch_host(stream, native_fulfil_task_event, event), "cuLaunchHostFunc"))
        return 1;
    native_task_event_taken();
    asynchronous_launches++;
    return native_done(plan);
}

/* Why detached target tasks' launches were or were not enqueued (docs/async.md, "Status"):
 * events offered to native launches, declined for transients, for the team stack, and
 * launches that found no stream. */
void __omp2gpu_gpu_event_counts(long *counts) {
    int i;
    native_lock();
    for (i = 0; i < 4; i++) counts[i] = event_counts[i];
    native_unlock();
}

/* Whether detached target tasks' launches may go on streams (else waited for, as before). */
void __omp2gpu_gpu_nowait_streams(int on) {
    native_lock();
    streams_on = on;
    native_unlock();
}

/* How many launches were not waited for: while any may be in flight, the launcher waits
 * for the device before it frees memory (CudaDevice.free). */
long __omp2gpu_gpu_asynchronous_launches(void) {
    long count;
    native_lock();
    count = asynchronous_launches;
    native_unlock();
    return count;
}

/* A planned launch, with the lock held: 0 made; 1 failed (native_fail let the lock go,
 * the region runs on the host); -1 for the launcher's path, the lock still held. */
static int launch(struct launch_plan *plan) {
    int mapped;
    void *event;
    if (add_team_stack(plan) != 0) return -1;
    if (make_current()) return 1;
    event = native_take_task_event();
    if (event) event_counts[0]++;
    if (!streams_on) event = (void *)0;
    /* Not with transients (copied back and released after the kernel) nor with the team
     * stack (one buffer, which two control-loop kernels in flight at once would share). */
    if (event && plan->transient_count > 0) event_counts[1]++;
    else if (event && plan->kernel->team_stack_bytes > 0) event_counts[2]++;
    else if (event) {
        int detached = launch_detached(plan, event);
        if (detached >= 0) return detached;
        event_counts[3]++;
    }
    mapped = map_transients(plan);
    if (mapped) return mapped;
    if (checked(launch_kernel(plan->kernel->handle, (unsigned)plan->grid, 1, 1, (unsigned)plan->block,
                              1, 1, 0, (void *)0, plan->args, (void **)0), "cuLaunchKernel")
            || checked(synchronize(), "cuCtxSynchronize")
            || unmap_transients(plan))
        return 1;
    return native_done(plan);
}

int __omp2gpu_gpu_target(long device, const char *name, int count, void **bases, void **begins,
                         long *sizes, long *types, int num_teams, int thread_limit, long trip_count,
                         const char *where) {
    struct launch_plan plan;
    if (native_begin(device, name, count, bases, begins, sizes, types, num_teams, thread_limit,
                     trip_count, &plan) == 0) {
        int outcome = launch(&plan);
        if (outcome >= 0) return outcome;
        native_unlock();
    }
    return native_slow(device, name, count, bases, begins, sizes, types, num_teams, thread_limit,
                       trip_count, where);
}

/* `target update` of present ranges: the copies on the default stream (after the
 * kernels in flight on the blocking streams, docs/async.md). A failed copy gives the
 * device up as a failed launch does (its data copied back). */
void __omp2gpu_gpu_update(long device, int count, void **bases, void **begins, long *sizes, long *types,
                          const char *where) {
    struct update_copy copies[MAX_ARGS];
    int n, c;
    if (native_update_begin(device, count, begins, sizes, types, copies, &n) != 0) {
        native_update_slow(device, count, bases, begins, sizes, types, where);
        return;
    }
    if (n > 0 && make_current()) return;
    for (c = 0; c < n; c++) {
        struct update_copy *copy = &copies[c];
        int failed = copy->to_device
            ? checked(copy_to_device((unsigned long)copy->device, (const void *)copy->host,
                                     (unsigned long)copy->size), "cuMemcpyHtoD")
            : checked(copy_to_host((void *)copy->host, (unsigned long)copy->device, (unsigned long)copy->size),
                      "cuMemcpyDtoH");
        if (failed) return;                  /* native_fail let the lock go */
    }
    native_unlock();
}
