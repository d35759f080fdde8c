/* The OpenMP runtime's entry points after which the calling thread's tasks are complete,
 * wrapped so that they also wait for its kernels that run ahead (run_ahead.c,
 * docs/async.md): taskwait, barriers (explicit, cancellable, and the implicit ones of
 * worksharing loops, sections and a single with copyprivate), the end of a taskgroup,
 * and a taskloop (its implicit taskgroup). A native program is linked with
 * `-Wl,--wrap=NAME` for each (offload/abi.py RUN_AHEAD_WAITS, targets/native_runtime.py;
 * `omp2gpu link-flags` gives them to other compilers' links), so the linker binds its
 * calls of NAME to __wrap_NAME here, and __real_NAME here to the OpenMP runtime's NAME
 * (libgomp's, or another runtime's GOMP interface). Each waits, calls the runtime's and
 * waits again for the kernels of tasks the thread ran inside the call. Where nothing ran
 * ahead a wrapper costs one test of a thread-local pointer. libomp2gpu.so is linked with
 * the same flags and with the OpenMP runtime (targets/native_runtime.py).
 *
 * A barrier, and the end of a parallel region (GOMP_parallel's function wrapped), first
 * waits for the calling thread's child tasks (GOMP_taskwait: at once where it has none).
 * A detached target task whose kernel is still queued when its body ends is completed
 * by the poller thread (completion_poller.c), from outside the team; libgomp (12 and
 * later) leaves a team barrier that is already waiting when that happens asleep for ever
 * ("event fulfilled for finished task", GOMP_DEBUG=1), whereas a taskwait wakes. Waiting
 * in taskwait first means the team's barrier only starts once its tasks are complete.
 */
#include "offload.h"

void __real_GOMP_taskwait(void);

#define WAIT_AROUND(name)                                                     \
    void __real_##name(void);                                               \
    void __wrap_##name(void) {                                              \
        run_ahead_wait();                                                   \
        __real_##name();                                                    \
        run_ahead_wait();                                                   \
    }
#define BARRIER_AFTER_TASKS(name)                                             \
    void __real_##name(void);                                               \
    void __wrap_##name(void) {                                              \
        __real_GOMP_taskwait();                                             \
        run_ahead_wait();                                                   \
        __real_##name();                                                    \
        run_ahead_wait();                                                   \
    }
#define BARRIER_AFTER_TASKS_CANCELLABLE(name)                                 \
    unsigned char __real_##name(void);                                      \
    unsigned char __wrap_##name(void) {                                     \
        unsigned char cancelled;                                            \
        __real_GOMP_taskwait();                                             \
        run_ahead_wait();                                                   \
        cancelled = __real_##name();                                        \
        run_ahead_wait();                                                   \
        return cancelled;                                                   \
    }
#define TASKLOOP_PARAMETERS                                                                  \
    void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size, long arg_align, \
        unsigned flags, unsigned long num_tasks, int priority, unsigned long start, unsigned long end, \
        unsigned long step
#define TASKLOOP_THEN_WAIT(name)                                                                 \
    void __real_##name(TASKLOOP_PARAMETERS);                                                   \
    void __wrap_##name(TASKLOOP_PARAMETERS) {                                                  \
        __real_##name(fn, data, cpyfn, arg_size, arg_align, flags, num_tasks, priority, start, end, step); \
        run_ahead_wait();    /* its implicit taskgroup: tasks its bodies made */                \
    }

WAIT_AROUND(GOMP_taskwait)
WAIT_AROUND(GOMP_taskgroup_end)
BARRIER_AFTER_TASKS(GOMP_barrier)
BARRIER_AFTER_TASKS(GOMP_loop_end)
BARRIER_AFTER_TASKS(GOMP_sections_end)
BARRIER_AFTER_TASKS_CANCELLABLE(GOMP_barrier_cancel)
BARRIER_AFTER_TASKS_CANCELLABLE(GOMP_loop_end_cancel)
BARRIER_AFTER_TASKS_CANCELLABLE(GOMP_sections_end_cancel)
TASKLOOP_THEN_WAIT(GOMP_taskloop)
TASKLOOP_THEN_WAIT(GOMP_taskloop_ull)

void __real_GOMP_single_copy_end(void *data);
void __wrap_GOMP_single_copy_end(void *data) {
    __real_GOMP_taskwait();
    run_ahead_wait();
    __real_GOMP_single_copy_end(data);
    run_ahead_wait();
}

/* Each thread's part of a parallel region, then its child tasks waited for, before
 * libgomp's barrier at the region's end. */
struct parallel_part { void (*fn)(void *); void *data; };

static void part_then_taskwait(void *part) {
    const struct parallel_part *p = part;
    p->fn(p->data);
    __real_GOMP_taskwait();
}

void __real_GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags);
void __wrap_GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags) {
    struct parallel_part part = {fn, data};
    __real_GOMP_parallel(part_then_taskwait, &part, num_threads, flags);
}
