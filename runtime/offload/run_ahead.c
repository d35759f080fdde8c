/* Target tasks that run ahead (docs/async.md): a `target ... nowait` with no `depend`
 * clause met outside any parallel region. The OpenMP runtime runs such a task at once
 * and, as it detaches, would wait for its event: every kernel would be waited for.
 * Instead target_tasks.c leaves its kernel running on a stream with an event after it in
 * the calling thread's ring here, and the body fulfils the task's event at once. The
 * thread waits for its ring wherever OpenMP says the task must be complete: its next
 * taskwait, barrier (explicit, or the implicit one of a worksharing construct), end of a
 * taskgroup or of a taskloop (openmp_waits.c wraps those GOMP entry points), and the end
 * of the program (an exit handler waits for every thread's ring; a thread that ends
 * waits for its own). No task depends on a run-ahead one (it names no storage), so
 * nothing else needs to wait: the device's copies and synchronous launches follow its
 * streams anyway, and freeing device memory synchronises first (cuda_device.c).
 *
 * A full ring (RING kernels) waits for its oldest first. A kernel that failed is met at
 * the wait: the device is given up, naming the failed call, and the program goes on
 * (or stops under OMP_TARGET_OFFLOAD=MANDATORY); the region is not run again.
 */
#include <pthread.h>
#include <stdlib.h>
#include "offload.h"

#define RING 32

struct ring {
    struct { struct device *device; void *done; } kernels[RING];
    int oldest, count;
    struct ring *next;           /* every thread's, for the exit handler */
};

static __thread struct ring *mine;
static void (*held_launches)(int thread_ends);     /* run_ahead_hold_launches */
static struct ring *rings;
static pthread_mutex_t rings_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t ring_end;
static pthread_once_t started = PTHREAD_ONCE_INIT;

/* 0 when the thread's oldest kernel finished, else -1 (the device's message set). */
static int wait_oldest(struct ring *ring) {
    struct device *d = ring->kernels[ring->oldest].device;
    void *done = ring->kernels[ring->oldest].done;
    ring->oldest = (ring->oldest + 1) % RING;
    ring->count--;
    if (d->ops->event_wait(d, done)) return -1;
    d->ops->event_release(d, done);
    return 0;
}

static void wait_ring(struct ring *ring) {
    while (ring->count > 0) {
        struct device *d = ring->kernels[ring->oldest].device;
        if (wait_oldest(ring)) {
            offload_lock();
            if (d->usable) device_failed(d, "running target regions on the host from now on");
            offload_unlock();
        }
    }
}

static void thread_ended(void *value) {
    struct ring *ring = value, **link;
    if (held_launches) held_launches(1);
    wait_ring(ring);
    pthread_mutex_lock(&rings_lock);
    for (link = &rings; *link; link = &(*link)->next)
        if (*link == ring) {
            *link = ring->next;
            break;
        }
    pthread_mutex_unlock(&rings_lock);
    free(ring);
}

/* The end of the program's implicit parallel region: every task is complete. The rings
 * are waited for outside rings_lock (a failure takes the runtime's lock, under which
 * launches take rings_lock); threads still running at exit are the program's affair. */
static void program_ends(void) {
    struct ring *ring, *all[256];
    int count = 0, i;
    if (held_launches) held_launches(0); /* the exiting thread's launches not yet made */
    pthread_mutex_lock(&rings_lock);
    for (ring = rings; ring && count < 256; ring = ring->next) all[count++] = ring;
    pthread_mutex_unlock(&rings_lock);
    for (i = 0; i < count; i++) wait_ring(all[i]);
}

static void start(void) {
    pthread_key_create(&ring_end, thread_ended);
    atexit(program_ends);        /* after the driver's own (cuInit) handlers: runs before them */
}

static struct ring *my_ring(void) {
    if (!mine) {
        pthread_once(&started, start);
        mine = calloc(1, sizeof *mine);
        if (!mine) return 0;
        pthread_setspecific(ring_end, mine);
        pthread_mutex_lock(&rings_lock);
        mine->next = rings;
        rings = mine;
        pthread_mutex_unlock(&rings_lock);
    }
    return mine;
}

void run_ahead_hold_launches(void (*launch_held)(int thread_ends)) { held_launches = launch_held; }

/* The calling thread has a ring (so its end waits for its kernels and launches what
 * it still holds, fused_launches.c): 0, or -1 where none can be had. */
int run_ahead_ready(void) { return my_ring() ? 0 : -1; }

/* Room in the thread's ring for one more kernel: 0; 1 when there is no ring to be had
 * (the kernel is then waited for); -1 when the oldest kernel of a full ring failed (the
 * device's message says so). */
static int make_room(void) {
    struct ring *ring = my_ring();
    if (!ring) return 1;
    return ring->count == RING ? wait_oldest(ring) : 0;
}

/* A kernel left running, `done` recorded after it (after make_room). */
static void add_to_ring(struct device *d, void *done) {
    struct ring *ring = mine;
    int slot = (ring->oldest + ring->count) % RING;
    ring->kernels[slot].device = d;
    ring->kernels[slot].done = done;
    ring->count++;
}

/* A kernel left running ahead of the calling thread: on the device's next stream, after the
 * launches automatic concurrency left running, its event in the thread's ring (a full ring
 * waits for its oldest first; with no ring to be had it is launched as a synchronous one).
 * 0, or -1 (the device's message set); *stream: its stream, 0 when not queued. */
int run_ahead_launch(struct device *d, void *module, const struct kernel_desc *kernel, long grid, long block,
                     void **args, int arg_count, int *stream) {
    void *done, *after[AUTO_ASYNC_SLOTS];
    int after_count, room = make_room();
    *stream = 0;
    if (room < 0) return -1;
    if (room > 0) return d->ops->launch(d, module, kernel, grid, block, args, arg_count, 0);
    after_count = auto_async_in_flight(d, after, AUTO_ASYNC_SLOTS);
    if (d->ops->launch_queued(d, module, kernel, grid, block, args, arg_count, after, after_count, &done, stream))
        return -1;
    add_to_ring(d, done);
    return 0;
}

/* 1 when none of the calling thread's run-ahead kernels is still running (those finished
 * are let go); 0 while one runs, or failed (its wait reports it). */
int run_ahead_idle(void) {
    struct ring *ring = mine;
    while (ring && ring->count > 0) {
        struct device *d = ring->kernels[ring->oldest].device;
        void *done = ring->kernels[ring->oldest].done;
        if (!d->ops->event_state || d->ops->event_state(d, done) != 0) return 0;
        d->ops->event_release(d, done);
        ring->oldest = (ring->oldest + 1) % RING;
        ring->count--;
    }
    return 1;
}

/* The calling thread's run-ahead kernels, on every device, finished. */
void run_ahead_wait(void) {
    if (held_launches) held_launches(0); /* its launches not yet made, first */
    if (mine && mine->count > 0) wait_ring(mine);
}
