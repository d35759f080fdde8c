/* Detached target tasks' completion events (docs/async.md): the body of a
 * `target ... nowait` task offers its event here before it launches
 * (__omp2gpu_target_task_begin) and asks afterwards whether the launch took it
 * (__omp2gpu_target_task_end). A device half that enqueues the launch without
 * waiting for it takes the event (native_take_task_event, then
 * native_task_event_taken) and fulfils it once the work is done; otherwise the
 * body fulfils it. One offered event per thread: a task body launches once.
 */
#include <dlfcn.h>
#include <pthread.h>
#include "cpu_atomics.h"
#include "native_launch.h"

typedef void (*fulfill_fn)(void *event);

static pthread_key_t offered_event;
static fulfill_fn fulfill;
static long begun;             /* events offered, for __omp2gpu_target_task_events */
#define TAKEN ((void *)1)

/* Once, from __omp2gpu_native_start: the key. */
void native_task_events_start(void) { pthread_key_create(&offered_event, (void (*)(void *))0); }

/* The OpenMP runtime's omp_fulfill_event, found when first needed: the module may start
 * before the launcher loads the runtime for the program (targets/openmp_runtime.py), but
 * an event is only ever offered by a program running on it. NULL: no event is taken. */
static fulfill_fn fulfiller(void) {
    if (!fulfill) fulfill = (fulfill_fn)dlsym(RTLD_DEFAULT, "omp_fulfill_event");
    return fulfill;
}

void __omp2gpu_target_task_begin(void *event) {
    /* the OpenMP runtime wrote the task's event only if GOMP_task was told it detaches */
    if (event) __atomic_fetch_add(&begun, 1, __ATOMIC_RELAXED);
    pthread_setspecific(offered_event, event);
}

/* How many task bodies offered a (non-null) event so far. */
long __omp2gpu_target_task_events(void) { return __atomic_load_n(&begun, __ATOMIC_RELAXED); }

/* 1 when the launch took the event (it will be fulfilled when the work is done). */
int __omp2gpu_target_task_end(void) {
    void *state = pthread_getspecific(offered_event);
    pthread_setspecific(offered_event, (void *)0);
    return state == TAKEN;
}

/* The calling thread's offered event, NULL when none (a synchronous launch). */
void *native_take_task_event(void) {
    void *state = pthread_getspecific(offered_event);
    return state && state != TAKEN && fulfiller() ? state : (void *)0;
}

void native_task_event_taken(void) { pthread_setspecific(offered_event, TAKEN); }

/* From the device's completion callback (no lock held, no driver call made). */
void native_fulfil_task_event(void *event) { fulfill(event); }
