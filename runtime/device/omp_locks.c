/* OpenMP simple locks inside target regions on an NVIDIA GPU: a spin lock on one
 * word. A thread that waits spins on its own; since Volta (sm_70) threads of a warp
 * are scheduled independently, so the holder in the same warp still moves on.
 * A lock in a thread's local memory (a local of a function whose parallel region
 * runs serialised) is that thread's alone, and PTX has no atomics on local memory:
 * plain accesses there (once inlined, LLVM knows which it is and keeps one path).
 * Nestable locks (nest_locks.c) are owned by a CUDA thread: a team's OpenMP thread.
 */
#include <omp.h>

static int private_lock(omp_lock_t *lock) { return __nvvm_isspacep_local(lock); }

void omp_init_lock(omp_lock_t *lock) {
    if (private_lock(lock)) lock->_x = 0;
    else __atomic_store_n(&lock->_x, 0, 5);
}
void omp_init_lock_with_hint(omp_lock_t *lock, omp_lock_hint_t hint) {
    (void)hint;
    omp_init_lock(lock);
}
void omp_destroy_lock(omp_lock_t *lock) { omp_init_lock(lock); }
int omp_test_lock(omp_lock_t *lock) {
    unsigned int expected = 0;
    if (private_lock(lock)) {
        int taken = lock->_x == 0;
        lock->_x = 1;
        return taken;
    }
    return __atomic_compare_exchange_n(&lock->_x, &expected, 1, 0, 2, 0);
}
void omp_set_lock(omp_lock_t *lock) {
    while (!omp_test_lock(lock))
        ;
}
void omp_unset_lock(omp_lock_t *lock) {
    if (private_lock(lock)) lock->_x = 0;
    else __atomic_store_n(&lock->_x, 0, 3);
}

/* The CUDA thread's number in the grid, plus one (0 is no owner). */
long __omp2gpu_nest_lock_self(void) {
    return (long)__nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() + __nvvm_read_ptx_sreg_tid_x() + 1;
}
