/* Detached target tasks' completion events (docs/async.md): the body of a
 * `target ... nowait` task offers its event here before it launches
 * (__omp2gpu_target_task_begin) and asks afterwards whether the launch took it
 * (__omp2gpu_target_task_end). A device half that enqueues the launch without
 * waiting for it takes the event (native_take_task_event, then
 * native_task_event_taken) and fulfils it once the work is done; otherwise the
 * body fulfils it. One offered event per thread: a task body launches once.
 *
 * A task with no `depend` clause met outside any parallel region (omp_get_level() 0,
 * where the OpenMP runtime runs a task at once and, for a detached one, waits for its
 * event) may *run ahead* (run_ahead.c): its kernel is left running, the body fulfils the
 * event at once, and the thread's next taskwait, barrier or end of a taskgroup waits for
 * the kernel. Nothing orders such a task with anything else, so nothing else need wait.
 */
#include <dlfcn.h>
#include <pthread.h>
#include "native_launch.h"

typedef void (*fulfill_fn)(void *event);
typedef int (*level_fn)(void);

static pthread_key_t offered_event, offered_run_ahead;
static fulfill_fn fulfill;
static level_fn nesting_level;
static long begun;             /* events offered, for __omp2gpu_target_task_events */
#define TAKEN ((void *)1)

/* Once, from __omp2gpu_native_start: the key. */
void native_task_events_start(void) {
    pthread_key_create(&offered_event, (void (*)(void *))0);
    pthread_key_create(&offered_run_ahead, (void (*)(void *))0);
}

/* The OpenMP runtime's omp_fulfill_event, found when first needed: the module may start
 * before the launcher loads the runtime for the program (targets/openmp_runtime.py), but
 * an event is only ever offered by a program running on it. NULL: no event is taken. */
static fulfill_fn fulfiller(void) {
    if (!fulfill) fulfill = (fulfill_fn)dlsym(RTLD_DEFAULT, "omp_fulfill_event");
    return fulfill;
}

/* `flags` is TASK_MAY_RUN_AHEAD for a task with no `depend` clause (codegen). */
void __omp2gpu_target_task_begin(void *event, int flags) {
    /* the OpenMP runtime wrote the task's event only if GOMP_task was told it detaches */
    if (event) __atomic_fetch_add(&begun, 1, __ATOMIC_RELAXED);
    pthread_setspecific(offered_event, event);
    pthread_setspecific(offered_run_ahead, (void *)(long)(flags & TASK_MAY_RUN_AHEAD));
}

/* How many task bodies offered a (non-null) event so far. */
long __omp2gpu_target_task_events(void) { return __atomic_load_n(&begun, __ATOMIC_RELAXED); }

/* 1 when the launch took the event (it will be fulfilled when the work is done). */
int __omp2gpu_target_task_end(void) {
    void *state = pthread_getspecific(offered_event);
    pthread_setspecific(offered_event, (void *)0);
    pthread_setspecific(offered_run_ahead, (void *)0);
    return state == TAKEN;
}

/* The calling thread's offered event, NULL when none (a synchronous launch). */
void *native_take_task_event(void) {
    void *state = pthread_getspecific(offered_event);
    return state && state != TAKEN && fulfiller() ? state : (void *)0;
}

void native_task_event_taken(void) { pthread_setspecific(offered_event, TAKEN); }

/* Whether the calling thread's offered task may run ahead: no `depend` clause, and met
 * outside any parallel region (omp_get_level, found as omp_fulfill_event is). */
int native_task_may_run_ahead(void) {
    if (!pthread_getspecific(offered_run_ahead)) return 0;
    if (!nesting_level) nesting_level = (level_fn)dlsym(RTLD_DEFAULT, "omp_get_level");
    return nesting_level && nesting_level() == 0;
}

/* From the device's completion callback (no lock held, no driver call made). */
void native_fulfil_task_event(void *event) { fulfill(event); }
