/* Target tasks that run ahead (docs/async.md): a `target ... nowait` with no `depend`
 * clause met outside any parallel region. The OpenMP runtime runs such a task at once
 * and, as it detaches, would wait for its event: the task would gain nothing from being
 * deferred. Instead cuda_launch.c leaves its kernel running on a stream and records a
 * device event after it in the calling thread's ring here, and the body fulfils the task's
 * event at once. The thread waits for its ring wherever OpenMP says the task must be
 * complete: its next taskwait, barrier (explicit, or the implicit one of a worksharing
 * construct), end of a taskgroup or of a taskloop. Those GOMP entry points are bound to
 * the wrappers below for the program (cuda_native.py): each waits, calls the OpenMP
 * runtime's own, and waits again (for kernels of tasks the thread ran inside the call).
 * The driver waits once more when main returns (the end of the implicit parallel
 * region). No task depends on a run-ahead one (it names no storage), so nothing
 * else needs to wait: the launcher's copies on the default stream follow the kernels
 * anyway (blocking streams), and freeing device memory synchronises first.
 *
 * A thread waits for its own ring only; a ring that fills waits for its oldest kernel.
 * Several GPUs have a module each: a module's wait calls the next module's
 * (__omp2gpu_gpu_run_ahead_next), as their launches fall back along the chain.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include "native_launch.h"

#define RING 32

struct ring {
    void *events[RING];        /* device events, made on first use and reused */
    int oldest, count;
};

static pthread_key_t ring_key;
static pthread_once_t ring_once = PTHREAD_ONCE_INIT;
static run_ahead_event_fn make_event;
static run_ahead_wait_fn wait_event;
static run_ahead_failed_fn failed;
static void (*next_module_wait)(void);
static long launches;          /* kernels left running ahead so far */

static void make_key(void) { pthread_key_create(&ring_key, free); }

void run_ahead_use(run_ahead_event_fn make, run_ahead_wait_fn wait, run_ahead_failed_fn fail) {
    pthread_once(&ring_once, make_key);
    make_event = make;
    wait_event = wait;
    failed = fail;
}

static struct ring *my_ring(int make) {
    struct ring *ring;
    pthread_once(&ring_once, make_key);
    ring = (struct ring *)pthread_getspecific(ring_key);
    if (!ring && make) {
        ring = (struct ring *)calloc(1, sizeof *ring);
        if (ring) pthread_setspecific(ring_key, ring);
    }
    return ring;
}

/* The event to record after the calling thread's next run-ahead kernel, or NULL (none to
 * be had, or the oldest kernel of a full ring failed: the launch is then waited for, which
 * meets that failure). run_ahead_recorded() once it is recorded. */
void *run_ahead_next_event(void) {
    struct ring *ring = my_ring(1);
    int slot;
    if (!ring) return (void *)0;
    if (ring->count == RING) {
        if (wait_event(ring->events[ring->oldest]) != 0) return (void *)0;
        ring->oldest = (ring->oldest + 1) % RING;
        ring->count--;
    }
    slot = (ring->oldest + ring->count) % RING;
    if (!ring->events[slot] && make_event(&ring->events[slot]) != 0) return (void *)0;
    return ring->events[slot];
}

void run_ahead_recorded(void) {
    struct ring *ring = my_ring(0);
    ring->count++;
    __atomic_fetch_add(&launches, 1, __ATOMIC_RELAXED);
}

long __omp2gpu_gpu_run_ahead_launches(void) { return __atomic_load_n(&launches, __ATOMIC_RELAXED); }

/* The next GPU's module, whose thread rings are waited for after this one's. */
void __omp2gpu_gpu_run_ahead_next(void (*wait)(void)) { next_module_wait = wait; }

/* The calling thread's run-ahead kernels, on this GPU and the next ones, finished. A
 * failed one gives the device up (as a failed synchronisation of a launch does). */
void __omp2gpu_gpu_run_ahead_wait(void) {
    struct ring *ring = my_ring(0);
    while (ring && ring->count > 0) {
        int error = wait_event(ring->events[ring->oldest]);
        ring->oldest = (ring->oldest + 1) % RING;
        ring->count--;
        if (error != 0) failed(error);
    }
    if (next_module_wait) next_module_wait();
}

/* --- the GOMP entry points that must see the thread's tasks complete ------------------ */

typedef void (*plain_fn)(void);
typedef unsigned char (*cancellable_fn)(void);
typedef void (*copy_end_fn)(void *data);
typedef void (*taskloop_fn)(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size,
                            long arg_align, unsigned flags, unsigned long num_tasks, int priority,
                            unsigned long start, unsigned long end, unsigned long step);

/* The OpenMP runtime's own entry point (the process loaded it globally). */
static void *openmp_entry(void **cached, const char *name) {
    if (!*cached) *cached = dlsym(RTLD_DEFAULT, name);
    return *cached;
}

#define WAIT_AROUND(name)                                                       \
    void __omp2gpu_run_ahead_##name(void) {                                   \
        static void *entry;                                                   \
        __omp2gpu_gpu_run_ahead_wait();                                       \
        ((plain_fn)openmp_entry(&entry, #name))();                            \
        __omp2gpu_gpu_run_ahead_wait();                                       \
    }
#define WAIT_AROUND_CANCELLABLE(name)                                           \
    unsigned char __omp2gpu_run_ahead_##name(void) {                          \
        static void *entry;                                                   \
        unsigned char cancelled;                                              \
        __omp2gpu_gpu_run_ahead_wait();                                       \
        cancelled = ((cancellable_fn)openmp_entry(&entry, #name))();          \
        __omp2gpu_gpu_run_ahead_wait();                                       \
        return cancelled;                                                     \
    }
#define TASKLOOP_THEN_WAIT(name)                                                                         \
    void __omp2gpu_run_ahead_##name(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),         \
                                    long arg_size, long arg_align, unsigned flags, unsigned long num_tasks, \
                                    int priority, unsigned long start, unsigned long end,                  \
                                    unsigned long step) {                                                  \
        static void *entry;                                                                                \
        ((taskloop_fn)openmp_entry(&entry, #name))(fn, data, cpyfn, arg_size, arg_align, flags, num_tasks, \
                                                   priority, start, end, step);                            \
        __omp2gpu_gpu_run_ahead_wait();    /* its implicit taskgroup: tasks its bodies made */             \
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

void __omp2gpu_run_ahead_GOMP_single_copy_end(void *data) {
    static void *entry;
    __omp2gpu_gpu_run_ahead_wait();
    ((copy_end_fn)openmp_entry(&entry, "GOMP_single_copy_end"))(data);
    __omp2gpu_gpu_run_ahead_wait();
}
