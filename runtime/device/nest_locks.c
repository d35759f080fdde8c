/* OpenMP nestable locks inside target regions, built on the device's simple lock
 * (which knows its memory: a spin lock, or plain accesses in a thread's local
 * memory): a file of the GPU runtime, included by ../cpu_device/omp_device.c. Each
 * defines __omp2gpu_nest_lock_self(): a nonzero id of the calling device thread.
 *
 * The 16 bytes of omp_nest_lock_t hold the simple lock, the nesting depth and the
 * owner. Only the holder writes depth and owner (after taking the simple lock, and
 * before giving it back, which releases them to the next holder). Another thread
 * may read owner meanwhile, but can never read its own id there: its last write of
 * it was 0, when it let the lock go. The reads and writes of owner are volatile so
 * that a waiting thread reads it again, in any memory (no atomics in local memory).
 */
#include <omp.h>

typedef struct nest_lock_view {
    omp_lock_t held;
    int depth;
    long owner;
} nest_lock_view;

long __omp2gpu_nest_lock_self(void);

static volatile long *nest_owner(omp_nest_lock_t *lock) { return &((nest_lock_view *)lock)->owner; }

void omp_init_nest_lock(omp_nest_lock_t *lock) {
    nest_lock_view *view = (nest_lock_view *)lock;
    view->depth = 0;
    *nest_owner(lock) = 0;
    omp_init_lock(&view->held);
}
void omp_init_nest_lock_with_hint(omp_nest_lock_t *lock, omp_lock_hint_t hint) {
    (void)hint;
    omp_init_nest_lock(lock);
}
void omp_destroy_nest_lock(omp_nest_lock_t *lock) { omp_init_nest_lock(lock); }

/* The new nesting depth, or 0 where another thread holds the lock. */
int omp_test_nest_lock(omp_nest_lock_t *lock) {
    nest_lock_view *view = (nest_lock_view *)lock;
    long self = __omp2gpu_nest_lock_self();
    if (*nest_owner(lock) != self) {
        if (!omp_test_lock(&view->held)) return 0;
        *nest_owner(lock) = self;
    }
    view->depth += 1;
    return view->depth;
}
void omp_set_nest_lock(omp_nest_lock_t *lock) {
    nest_lock_view *view = (nest_lock_view *)lock;
    long self = __omp2gpu_nest_lock_self();
    if (*nest_owner(lock) != self) {
        omp_set_lock(&view->held);
        *nest_owner(lock) = self;
    }
    view->depth += 1;
}
void omp_unset_nest_lock(omp_nest_lock_t *lock) {
    nest_lock_view *view = (nest_lock_view *)lock;
    view->depth -= 1;
    if (view->depth == 0) {
        *nest_owner(lock) = 0;
        omp_unset_lock(&view->held);
    }
}
