/* Target tasks whose device work outlives their body (docs/async.md). A `target ...
 * nowait` region that launches a kernel is a detached task (codegen/openmp/
 * target_task_events.py): its body offers the task's completion event
 * (__omp2gpu_target_task_begin), launches, and asks whether the launch took the event
 * (__omp2gpu_target_task_end); if not, the work is done and the body fulfils it. The
 * OpenMP runtime counts the task complete only once its event is fulfilled, so taskwait,
 * barriers, the end of a taskgroup and the tasks whose `depend` names the same storage
 * wait for the kernel, and independent tasks' kernels overlap on the device.
 *
 * task_launch queues the kernel (the device's launch_queued: a GPU's streams) when
 *   - the calling thread's target task offered an event (one per thread: a body
 *     launches once),
 *   - the region's data are all present already (no copy or free after the kernel:
 *     table_all_present), the kernel takes no team stack (one buffer per device, which
 *     two kernels in flight would share), and the launch is not profiled;
 * and then either
 *   - runs it ahead (run_ahead.c): a task with no `depend` met outside any parallel
 *     region, which the OpenMP runtime would run at once and wait for; the body fulfils
 *     the event at once and the thread's next taskwait, barrier or taskgroup end waits
 *     for the kernel (openmp_waits.c); consecutive ones may be launched as one
 *     (fused_launches.c), or
 *   - takes the event, which completion_poller.c fulfils when the kernel is done.
 * Everything else is launched and waited for as a synchronous region (the CPU device,
 * launches with transient data, OMP2GPU_NOWAIT_STREAMS=0), unless automatic concurrency
 * leaves it running (auto_async.c, OMP2GPU_AUTO_ASYNC=1). OMP2GPU_NOWAIT_RUN_AHEAD=0
 * makes run-ahead tasks detach as in a parallel region.
 */
#include <stdlib.h>
#include <string.h>
#include "offload.h"
#include "remote.h"

static __thread void *offered;           /* the calling thread's task event, NULL: none */
static __thread int offered_flags, taken;

/* `flags`: TASK_MAY_RUN_AHEAD for a task with no `depend` clause (codegen). `event` is
 * NULL where the OpenMP runtime wrote none (one whose GOMP_task does not detach). */
void __omp2gpu_target_task_begin(void *event, int flags) {
    offered = event;
    offered_flags = flags;
    taken = 0;
}

/* 1 when the launch took the event (it is fulfilled once the kernel is done). */
int __omp2gpu_target_task_end(void) {
    int was_taken = taken;
    offered = 0;
    offered_flags = 0;
    taken = 0;
    return was_taken;
}

int task_event_offered(void) { return offered != 0; }

/* OMP2GPU_NOWAIT_STREAMS, OMP2GPU_NOWAIT_RUN_AHEAD: on unless "0" */
static int switched_on(const char *name) {
    const char *value = getenv(name);
    return !(value && strcmp(value, "0") == 0);
}

static int may_run_ahead(void) {
    static int on = -1;
    if (on < 0) on = switched_on("OMP2GPU_NOWAIT_RUN_AHEAD");
    return on && (offered_flags & TASK_MAY_RUN_AHEAD) && omp_get_level() == 0;
}

/* A remote device's queued kernel only runs ahead: its answer always comes after the
 * task's body ended, and libgomp 12 then leaves a team waiting in a barrier for ever once
 * the poller fulfils the event (GOMP_DEBUG: "event fulfilled for finished task", the
 * barrier never done). In a team, a synchronous remote launch blocks only its thread
 * (remote_device.c waits with no lock held), so the team's threads still overlap servers. */
static int queueable(struct device *d, const struct kernel_desc *kernel, double *micros, int all_present) {
    static int streams = -1;
    if (streams < 0) streams = switched_on("OMP2GPU_NOWAIT_STREAMS");
    return offered && !taken && streams && d->ops->launch_queued && !micros && all_present
           && kernel->team_stack_bytes <= 0 && (!remote_device(d) || may_run_ahead());
}

/* The region's kernel launched: 0, or -1 with the device's message (the region then
 * runs on the host). `*stream`: the stream it was left running on, 0 when it was waited
 * for. A synchronous region's kernel may be left running by automatic concurrency
 * (auto_async.c); a target task's kernel follows every one left so (the program saw
 * those regions complete). */
int task_launch(struct device *d, void *module, const struct kernel_desc *kernel, const struct launch_shape *shape,
                void **args, int arg_count, double *micros, int all_present, int *stream) {
    void *done, *after[AUTO_ASYNC_SLOTS];
    int after_count;
    long grid = shape->grid, block = shape->block;
    *stream = 0;
    if (!offered && all_present && !micros && kernel->team_stack_bytes <= 0 && d->ops->launch_queued
        && auto_async_enabled()) {
        int beside = auto_async_launch(d, module, kernel, grid, block, args, arg_count, stream);
        if (beside <= 0) return beside;
    }
    if (!queueable(d, kernel, micros, all_present))
        return d->ops->launch(d, module, kernel, grid, block, args, arg_count, micros);
    if (may_run_ahead()) {
        int joined = fused_launches_add(d, module, kernel, shape->fused_grid, shape->fused_block, args, arg_count);
        if (joined <= 0) {
            if (joined == 0) *stream = STREAM_FUSED;
            return joined;
        }
        return run_ahead_launch(d, module, kernel, grid, block, args, arg_count, stream);
    }
    after_count = auto_async_in_flight(d, after, AUTO_ASYNC_SLOTS);
    if (d->ops->launch_queued(d, module, kernel, grid, block, args, arg_count, after, after_count, &done, stream))
        return -1;
    if (completion_watch(d, done, offered) == 0) {
        taken = 1;
        return 0;
    }
    /* no poller to be had: the kernel is waited for, and the body fulfils the event */
    *stream = 0;
    if (d->ops->event_wait(d, done)) return -1;
    d->ops->event_release(d, done);
    return 0;
}
