/* Completing detached target tasks by polling (docs/async.md, OMP2GPU_NOWAIT_COMPLETION=poll).
 * The device half records an event after a `nowait` kernel and hands it here with the
 * task's completion event; one poller thread queries the pending events and fulfils a
 * task's event as soon as its kernel is done, instead of a host function the driver
 * runs after the kernel (cuLaunchHostFunc: its own thread, called in stream order, and
 * it holds its stream up until it returns). The poller spins (with sched_yield) only
 * while something is pending and sleeps on a condition variable otherwise. It fulfils
 * with no lock held, as the host function does. A failed query counts as done: the
 * task completes and the program meets the error at its next synchronisation, rather
 * than waiting for ever.
 */
#include <pthread.h>
#include <sched.h>
#include "native_launch.h"

#define PENDING 64

static completion_query_fn query;
static completion_bind_fn bind_thread;
static pthread_mutex_t pending_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pending_ready = PTHREAD_COND_INITIALIZER;
static struct pending_task {
    void *device_event;                  /* recorded after the kernel */
    void *task_event;                    /* the OpenMP runtime's, to fulfil */
} pending[PENDING];
static int pending_count;
static void *spare_events[PENDING];      /* device events done with, for reuse */
static int spare_count;
static int poller_started;

void completion_use(completion_query_fn query_event, completion_bind_fn bind) {
    query = query_event;
    bind_thread = bind;
}

/* A device event done with, or NULL (the device half makes one). */
void *completion_spare_event(void) {
    void *event = (void *)0;
    pthread_mutex_lock(&pending_lock);
    if (spare_count > 0) event = spare_events[--spare_count];
    pthread_mutex_unlock(&pending_lock);
    return event;
}

static void *poll_pending(void *unused) {
    (void)unused;
    bind_thread();
    pthread_mutex_lock(&pending_lock);
    for (;;) {
        int i = 0;
        while (pending_count == 0) pthread_cond_wait(&pending_ready, &pending_lock);
        while (i < pending_count) {
            struct pending_task done = pending[i];
            if (query(done.device_event) == COMPLETION_NOT_READY) {
                i++;
                continue;
            }
            pending[i] = pending[--pending_count];
            if (spare_count < PENDING) spare_events[spare_count++] = done.device_event;
            pthread_mutex_unlock(&pending_lock);
            native_fulfil_task_event(done.task_event);
            pthread_mutex_lock(&pending_lock);
        }
        if (pending_count > 0) {
            pthread_mutex_unlock(&pending_lock);
            sched_yield();
            pthread_mutex_lock(&pending_lock);
        }
    }
    return (void *)0;
}

/* Fulfil `task_event` once `device_event` is done: 0 when watched, -1 when it cannot be
 * (full, or no thread to be had): the device half then completes the task itself. */
int completion_watch(void *device_event, void *task_event) {
    int watched = -1;
    pthread_mutex_lock(&pending_lock);
    if (!poller_started) {
        pthread_t poller;
        if (pthread_create(&poller, (const pthread_attr_t *)0, poll_pending, (void *)0) == 0) {
            pthread_detach(poller);
            poller_started = 1;
        }
    }
    if (poller_started && pending_count < PENDING) {
        pending[pending_count].device_event = device_event;
        pending[pending_count].task_event = task_event;
        pending_count++;
        pthread_cond_signal(&pending_ready);
        watched = 0;
    }
    pthread_mutex_unlock(&pending_lock);
    return watched;
}
