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
 */
#include "offload.h"

#define WAIT_AROUND(name)                                                     \
    void __real_##name(void);                                               \
    void __wrap_##name(void) {                                              \
        run_ahead_wait();                                                   \
        __real_##name();                                                    \
        run_ahead_wait();                                                   \
    }
#define WAIT_AROUND_CANCELLABLE(name)                                         \
    unsigned char __real_##name(void);                                      \
    unsigned char __wrap_##name(void) {                                     \
        unsigned char cancelled;                                            \
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
WAIT_AROUND(GOMP_barrier)
WAIT_AROUND(GOMP_loop_end)
WAIT_AROUND(GOMP_sections_end)
WAIT_AROUND_CANCELLABLE(GOMP_barrier_cancel)
WAIT_AROUND_CANCELLABLE(GOMP_loop_end_cancel)
WAIT_AROUND_CANCELLABLE(GOMP_sections_end_cancel)
TASKLOOP_THEN_WAIT(GOMP_taskloop)
TASKLOOP_THEN_WAIT(GOMP_taskloop_ull)

void __real_GOMP_single_copy_end(void *data);
void __wrap_GOMP_single_copy_end(void *data) {
    run_ahead_wait();
    __real_GOMP_single_copy_end(data);
    run_ahead_wait();
}
