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
 * task's event when the kernel is done, or (OMP2GPU_NOWAIT_COMPLETION=poll) by an
 * event completion_poller.c watches (docs/async.md).
 *
 * A target task that may run ahead (run_ahead.c: no `depend`, outside any parallel
 * region; OMP2GPU_NOWAIT_RUN_AHEAD=1) leaves its kernel on a stream the same way, with
 * an event after it in the calling thread's ring, and does not take the task's event:
 * the body fulfils it at once, and the thread's next taskwait or barrier waits.
 *
 * Automatic concurrency (OMP2GPU_AUTO_ASYNC=1, docs/async.md): a synchronous launch
 * whose footprint is known (footprints.c) is not waited for either. It goes on a stream
 * of its own, after an event of every launch in flight whose footprint conflicts with
 * it; the others run beside it (one offload-log line per such pair). Whatever could
 * observe the difference waits for it: the launcher's copies and launches are on the
 * legacy default stream, which waits for the blocking streams; a launch with transients
 * synchronises the context; freeing device memory synchronises it first; the native
 * `target update` copies (on a non-blocking stream of their own, which `nowait` kernels
 * do not hold up) wait for them explicitly.
 */
#include <dlfcn.h>
#include <stdio.h>
#include "native_launch.h"

typedef int (*launch_kernel_fn)(void *function, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                                unsigned block_x, unsigned block_y, unsigned block_z,
                                unsigned shared_bytes, void *stream, void **params, void **extra);
typedef int (*copy_to_device_fn)(unsigned long dst, const void *src, unsigned long bytes);
typedef int (*copy_to_host_fn)(void *dst, unsigned long src, unsigned long bytes);
typedef int (*copy_to_device_async_fn)(unsigned long dst, const void *src, unsigned long bytes, void *stream);
typedef int (*copy_to_host_async_fn)(void *dst, unsigned long src, unsigned long bytes, void *stream);
typedef int (*allocate_fn)(unsigned long *address, unsigned long bytes);
typedef int (*free_fn)(unsigned long address);
typedef int (*synchronize_fn)(void);
typedef int (*get_context_fn)(void **context);
typedef int (*set_context_fn)(void *context);
typedef int (*error_name_fn)(int error, const char **name);
typedef int (*stream_create_fn)(void **stream, unsigned flags);
typedef int (*launch_host_fn)(void *stream, void (*function)(void *), void *data);
typedef int (*pointer_attribute_fn)(void *value, int attribute, unsigned long pointer);
typedef int (*stream_flags_fn)(void *stream, unsigned *flags);
typedef int (*stream_synchronize_fn)(void *stream);
typedef int (*event_create_fn)(void **event, unsigned flags);
typedef int (*event_record_fn)(void *event, void *stream);
typedef int (*event_query_fn)(void *event);
typedef int (*event_synchronize_fn)(void *event);
typedef int (*stream_wait_event_fn)(void *stream, void *event, unsigned flags);
typedef int (*host_register_fn)(void *pointer, unsigned long bytes, unsigned flags);
typedef int (*host_unregister_fn)(void *pointer);

#define STREAMS 16                       /* a time step's independent regions each on one (LULESH: 11) */
#define STREAM_NON_BLOCKING 0x1          /* CU_STREAM_NON_BLOCKING */
#define EVENT_DISABLE_TIMING 0x2         /* CU_EVENT_DISABLE_TIMING */
#define ERROR_NOT_READY 600              /* CUDA_ERROR_NOT_READY: an event still pending */
#define HOST_REGISTER_PORTABLE 0x1       /* CU_MEMHOSTREGISTER_PORTABLE: locked for every context */

static launch_kernel_fn launch_kernel;
static copy_to_device_fn copy_to_device;
static copy_to_device_async_fn copy_to_device_async;
static copy_to_host_async_fn copy_to_host_async;
static copy_to_host_fn copy_to_host;
static allocate_fn allocate;
static free_fn release;
static synchronize_fn synchronize;
static get_context_fn get_context;
static set_context_fn set_context;
static error_name_fn error_name;
static stream_create_fn stream_create;
static launch_host_fn launch_host;
static pointer_attribute_fn pointer_attribute;
static stream_flags_fn stream_flags;
static stream_synchronize_fn stream_synchronize;
static event_create_fn event_create;
static event_record_fn event_record;
static event_query_fn event_query;
static event_synchronize_fn event_synchronize;
static stream_wait_event_fn stream_wait_event;
static host_register_fn host_register;
static host_unregister_fn host_unregister;
static void *streams[STREAMS];
static void *update_stream;       /* non-blocking: native `target update` copies */
static int next_stream;
static long asynchronous_launches;
static long event_counts[4];      /* __omp2gpu_gpu_event_counts */
static int streams_on;            /* OMP2GPU_NOWAIT_STREAMS (cuda_native.py) */
static int auto_async;            /* OMP2GPU_AUTO_ASYNC (cuda_native.py) */
static int completion_polled;     /* OMP2GPU_NOWAIT_COMPLETION=poll (completion_poller.c) */
static int run_ahead_on;          /* OMP2GPU_NOWAIT_RUN_AHEAD (run_ahead.c) */
static long overlapped_pairs;     /* launches left running beside another in flight */

/* Synchronous launches left in flight by automatic concurrency: one per stream. */
static struct in_flight {
    int busy;
    void *event;                  /* recorded on streams[i] after the kernel */
    const char *kernel;
    long order;                   /* launch order: the oldest is waited for when all are busy */
    struct footprint footprint;
} in_flight[STREAMS];
static long launch_order;
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
    copy_to_device_async = (copy_to_device_async_fn)driver_symbol(library, "cuMemcpyHtoDAsync_v2", &missing);
    copy_to_host_async = (copy_to_host_async_fn)driver_symbol(library, "cuMemcpyDtoHAsync_v2", &missing);
    allocate = (allocate_fn)driver_symbol(library, "cuMemAlloc_v2", &missing);
    release = (free_fn)driver_symbol(library, "cuMemFree_v2", &missing);
    synchronize = (synchronize_fn)driver_symbol(library, "cuCtxSynchronize", &missing);
    get_context = (get_context_fn)driver_symbol(library, "cuCtxGetCurrent", &missing);
    set_context = (set_context_fn)driver_symbol(library, "cuCtxSetCurrent", &missing);
    error_name = (error_name_fn)driver_symbol(library, "cuGetErrorName", &missing);
    stream_create = (stream_create_fn)driver_symbol(library, "cuStreamCreate", &missing);
    launch_host = (launch_host_fn)driver_symbol(library, "cuLaunchHostFunc", &missing);
    pointer_attribute = (pointer_attribute_fn)driver_symbol(library, "cuPointerGetAttribute", &missing);
    stream_flags = (stream_flags_fn)driver_symbol(library, "cuStreamGetFlags", &missing);
    stream_synchronize = (stream_synchronize_fn)driver_symbol(library, "cuStreamSynchronize", &missing);
    event_create = (event_create_fn)driver_symbol(library, "cuEventCreate", &missing);
    event_record = (event_record_fn)driver_symbol(library, "cuEventRecord", &missing);
    event_query = (event_query_fn)driver_symbol(library, "cuEventQuery", &missing);
    event_synchronize = (event_synchronize_fn)driver_symbol(library, "cuEventSynchronize", &missing);
    stream_wait_event = (stream_wait_event_fn)driver_symbol(library, "cuStreamWaitEvent", &missing);
    host_register = (host_register_fn)driver_symbol(library, "cuMemHostRegister_v2", &missing);
    host_unregister = (host_unregister_fn)driver_symbol(library, "cuMemHostUnregister", &missing);
    return missing ? -1 : 0;
}

static long device_allocate(long bytes) {
    unsigned long address = 0;
    return allocate(&address, (unsigned long)bytes) == 0 ? (long)address : 0;
}

static void device_free(long address) { release((unsigned long)address); }

static int context_current(void);

static int lock_pages(long begin, long bytes) {
    if (context_current() != 0) return -1;
    return host_register((void *)begin, (unsigned long)bytes, HOST_REGISTER_PORTABLE);
}

static void unlock_pages(long begin) {
    if (context_current() == 0) host_unregister((void *)begin);
}

static void bind_poller(void) { context_current(); }

static int make_event(void **event) { return event_create(event, EVENT_DISABLE_TIMING); }

/* A run-ahead kernel's event waited for, from any thread of the program. */
static int wait_for_event(void *event) {
    int error = context_current();
    return error ? error : event_synchronize(event);
}

static int checked(int error, const char *call);

static void run_ahead_failed(int error) {
    native_lock();
    checked(error, "cuEventSynchronize");      /* gives the device up, the lock let go */
}

/* The device's context (its primary context, from the launcher's CudaDevice). */
void __omp2gpu_gpu_context(void *primary_context) {
    native_lock();
    context = primary_context;
    block_cache_use(device_allocate, device_free);
    pinned_use(lock_pages, unlock_pages);
    completion_use(event_query, bind_poller);
    run_ahead_use(make_event, wait_for_event, run_ahead_failed);
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

/* The calling thread works in the device's context (current per thread): 0 or a CUresult. */
static int context_current(void) {
    void *current = (void *)0;
    if (get_context(&current) == 0 && current == context) return 0;
    return set_context(context);
}

static int make_current(void) { return checked(context_current(), "cuCtxSetCurrent"); }

/* The ordinal of the GPU whose memory `address` is (CudaDevice.holds: a CuPy array's
 * pointer; `attribute` is CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL), -1 for memory the driver
 * does not know; without cuda-python's cost on each call of a C function from Python. */
int __omp2gpu_gpu_device_of(long address, int attribute) {
    int ordinal = -1;
    if (context_current() != 0) return -1;
    return pointer_attribute(&ordinal, attribute, (unsigned long)address) == 0 ? ordinal : -1;
}

/* Later work of the launcher, all on the legacy default stream, after what `stream` (a
 * caller's array's) has queued: implicit for a blocking stream, which the legacy stream
 * waits for; a non-blocking one is waited for here. 0, or the failed call's CUresult. */
int __omp2gpu_gpu_wait_for_stream(void *stream) {
    unsigned flags = 0;
    int error = context_current();
    if (error == 0) error = stream_flags(stream, &flags);
    if (error != 0) return error;
    return (flags & STREAM_NON_BLOCKING) ? stream_synchronize(stream) : 0;
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

/* Whether a transient is copied back to the host after the kernel. */
static int copies_back(struct launch_plan *plan) {
    int t;
    for (t = 0; t < plan->transient_count; t++)
        if (plan->transients[t].type & MAP_FROM) return 1;
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

/* The plan's kernel launched on `stream` (NULL: the legacy default stream): 0, or the
 * fallback a failed launch takes. */
static int launch_on(struct launch_plan *plan, void *stream) {
    return checked(launch_kernel(plan->kernel->handle, (unsigned)plan->grid, 1, 1, (unsigned)plan->block,
                                 1, 1, 0, stream, plan->args, (void **)0), "cuLaunchKernel");
}

/* The next stream for a launch not waited for (made on first use; NULL: none to be had). */
static void *take_stream(void) {
    void **stream = &streams[next_stream];
    next_stream = (next_stream + 1) % STREAMS;
    if (!*stream && stream_create(stream, 0) != 0) *stream = (void *)0;
    return *stream;
}

/* The in-flight launches that finished are forgotten; 0, or a failed query's fallback. */
static int retire_finished(void) {
    int i;
    for (i = 0; i < STREAMS; i++) {
        int state;
        if (!in_flight[i].busy) continue;
        state = event_query(in_flight[i].event);
        if (state == 0) in_flight[i].busy = 0;
        else if (state != ERROR_NOT_READY) return checked(state, "cuEventQuery");
    }
    return 0;
}

/* Work on `stream` waits for each launch in flight on another stream whose footprint
 * conflicts with `footprint` (all of them for NULL); each other one is an overlapped pair,
 * logged with `kernel`. 0, or a failed call's fallback. */
static int follow_in_flight(void *stream, struct footprint *footprint, const char *kernel) {
    int i;
    for (i = 0; i < STREAMS; i++) {
        if (!in_flight[i].busy || streams[i] == stream) continue;
        if (!footprint || native_footprints_conflict(footprint, &in_flight[i].footprint)) {
            if (checked(stream_wait_event(stream, in_flight[i].event, 0), "cuStreamWaitEvent")) return 1;
        } else {
            overlapped_pairs++;
            native_log_overlap(kernel, in_flight[i].kernel);
        }
    }
    return 0;
}

/* A free stream slot for a launch left in flight (the oldest waited for when none is);
 * -1 with the fallback taken on a failed call. */
static int free_slot(void) {
    int i, oldest = 0;
    if (retire_finished()) return -1;
    for (i = 0; i < STREAMS; i++) {
        if (!in_flight[i].busy) return i;
        if (in_flight[i].order < in_flight[oldest].order) oldest = i;
    }
    if (checked(event_synchronize(in_flight[oldest].event), "cuEventSynchronize")) return -1;
    in_flight[oldest].busy = 0;
    return oldest;
}

/* A synchronous launch with a known footprint, left in flight (automatic concurrency):
 * 0 made, 1 failed (the region runs on the host), -1 to be launched and waited for. */
static int launch_beside(struct launch_plan *plan) {
    struct footprint footprint;
    struct in_flight *slot;
    void *stream;
    int index;
    if (native_footprint(plan, &footprint) != 0) return -1;
    index = free_slot();
    if (index < 0) return 1;
    if (!streams[index] && stream_create(&streams[index], 0) != 0) streams[index] = (void *)0;
    slot = &in_flight[index];
    if (!slot->event && event_create(&slot->event, EVENT_DISABLE_TIMING) != 0) slot->event = (void *)0;
    stream = streams[index];
    if (!stream || !slot->event) return -1;
    if (follow_in_flight(stream, &footprint, plan->kernel->name)
            || launch_on(plan, stream)
            || checked(event_record(slot->event, stream), "cuEventRecord"))
        return 1;
    slot->busy = 1;
    slot->kernel = plan->kernel->name;
    slot->order = ++launch_order;
    slot->footprint = footprint;
    asynchronous_launches++;
    return native_done(plan);
}

/* After the context was synchronised: nothing is in flight. */
static void all_finished(void) {
    int i;
    for (i = 0; i < STREAMS; i++) in_flight[i].busy = 0;
}

/* A detached target task's kernel, enqueued with its event's fulfilment after it: 0 made,
 * 1 failed (the region runs on the host), -1 to be launched and waited for instead. */
static int launch_detached(struct launch_plan *plan, void *event) {
    void *stream = take_stream(), *done = (void *)0;
    if (!stream) return -1;
    /* the synchronous regions before it are complete, for the program: it follows them */
    if (follow_in_flight(stream, (struct footprint *)0, plan->kernel->name)) return 1;
    if (launch_on(plan, stream))
        return 1;
    if (completion_polled) {             /* an event after the kernel, for the poller */
        done = completion_spare_event();
        if (!done && event_create(&done, EVENT_DISABLE_TIMING) != 0) done = (void *)0;
        if (done && checked(event_record(done, stream), "cuEventRecord")) return 1;
    }
    if ((!done || completion_watch(done, event) != 0)
            && checked(launch_host(stream, native_fulfil_task_event, event), "cuLaunchHostFunc"))
        return 1;
    native_task_event_taken();
    asynchronous_launches++;
    return native_done(plan);
}

/* A target task that runs ahead (run_ahead.c): its kernel enqueued with an event after it
 * in the thread's ring, the task's event left to the body. 0 made, 1 failed (the region
 * runs on the host), -1 to be launched another way. */
static int launch_run_ahead(struct launch_plan *plan) {
    void *stream = take_stream(), *done = run_ahead_next_event();
    if (!stream || !done) return -1;
    if (follow_in_flight(stream, (struct footprint *)0, plan->kernel->name)
            || launch_on(plan, stream)
            || checked(event_record(done, stream), "cuEventRecord"))
        return 1;
    run_ahead_recorded();
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

/* Whether target tasks with no `depend` met outside parallel regions may run ahead. */
void __omp2gpu_gpu_nowait_run_ahead(int on) {
    native_lock();
    run_ahead_on = on;
    native_unlock();
}

/* Whether detached tasks' events are fulfilled by the poller thread (1) or by a host
 * function after the kernel (0). */
void __omp2gpu_gpu_nowait_completion(int poll) {
    native_lock();
    completion_polled = poll;
    native_unlock();
}

/* Whether synchronous launches with known footprints may be left running (automatic
 * concurrency, OMP2GPU_AUTO_ASYNC); launches left in flight beside another so far. */
void __omp2gpu_gpu_auto_async(int on) {
    native_lock();
    auto_async = on;
    native_unlock();
}

long __omp2gpu_gpu_overlapped_pairs(void) {
    long count;
    native_lock();
    count = overlapped_pairs;
    native_unlock();
    return count;
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
    int mapped, offered;
    void *event;
    if (add_team_stack(plan) != 0) return -1;
    if (make_current()) return 1;
    event = native_take_task_event();
    offered = event != (void *)0;
    if (event) event_counts[0]++;
    if (!streams_on) event = (void *)0;
    /* Not with transients (copied back and released after the kernel) nor with the team
     * stack (one buffer, which two control-loop kernels in flight at once would share). */
    if (event && plan->transient_count > 0) event_counts[1]++;
    else if (event && plan->kernel->team_stack_bytes > 0) event_counts[2]++;
    else if (event) {
        int detached = run_ahead_on && native_task_may_run_ahead() ? launch_run_ahead(plan) : -1;
        if (detached < 0) detached = launch_detached(plan, event);
        if (detached >= 0) return detached;
        event_counts[3]++;
    }
    if (!offered && auto_async && plan->kernel->team_stack_bytes <= 0) {
        int beside = launch_beside(plan);
        if (beside >= 0) return beside;
    }
    mapped = map_transients(plan);
    if (mapped) return mapped;
    /* A copy back on the legacy stream waits for the kernel (and so for all the blocking
     * streams' work before it) and reports a fault as the synchronisation would: with
     * one, the synchronisation is not needed (CUDA C's copy, launch, copy). */
    if (launch_on(plan, (void *)0)
            || (!copies_back(plan) && checked(synchronize(), "cuCtxSynchronize"))
            || unmap_transients(plan))
        return 1;
    all_finished();
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

/* One copy of a `target update` of present ranges, finished when this returns. It goes
 * on a non-blocking stream of its own, so it does not wait for the kernels of `nowait`
 * target tasks still running: a synchronous update and a target task the program has
 * not waited for are unordered in OpenMP (the program may not let them touch the same
 * storage), and a halo exchange copies beside the interior's kernel this way
 * (examples/mpi/stencil3d.c). It does wait for the synchronous launches automatic
 * concurrency left in flight, which the program saw complete. A range copied again and
 * again is page-locked the first time (pinned_ranges.c). A failed copy gives the
 * device up as a failed launch does (its data copied back). */
static int update_copy(struct update_copy *copy) {
    long locked_begin, locked_end, cuts[2 * PINNED_RANGES + 2];
    int count, p;
    if (make_current()) return 1;
    if (!update_stream && checked(stream_create(&update_stream, STREAM_NON_BLOCKING), "cuStreamCreate"))
        return 1;
    if (follow_in_flight(update_stream, (struct footprint *)0, "target update")) return 1;
    /* locked at its first copy, and then copied in pieces cut at every locked range's ends */
    pinned_inside(copy->host, copy->size, &locked_begin, &locked_end);
    cuts[0] = copy->host;
    count = 1 + pinned_cuts(copy->host, copy->size, cuts + 1, 2 * PINNED_RANGES);
    cuts[count] = copy->host + copy->size;
    for (p = 0; p < count; p++) {
        long host = cuts[p], bytes = cuts[p + 1] - cuts[p];
        unsigned long device = (unsigned long)(copy->device + (host - copy->host));
        if (copy->to_device) {
            if (checked(copy_to_device_async(device, (const void *)host, (unsigned long)bytes, update_stream),
                        "cuMemcpyHtoDAsync"))
                return 1;
        } else if (checked(copy_to_host_async((void *)host, device, (unsigned long)bytes, update_stream),
                           "cuMemcpyDtoHAsync")) {
            return 1;
        }
    }
    return checked(stream_synchronize(update_stream), "cuStreamSynchronize");
}

void __omp2gpu_gpu_update(long device, int count, void **bases, void **begins, long *sizes, long *types,
                          const char *where) {
    native_update(device, count, bases, begins, sizes, types, where, update_copy);
}
