/* OpenMP simple locks inside target regions on an NVIDIA GPU: a spin lock on one
 * word. A thread that waits spins on its own; since Volta (sm_70) threads of a warp
 * are scheduled independently, so the holder in the same warp still moves on.
 */
#include <omp.h>

void omp_init_lock(omp_lock_t *lock) { __atomic_store_n(&lock->_x, 0, 5); }
void omp_destroy_lock(omp_lock_t *lock) { __atomic_store_n(&lock->_x, 0, 5); }
void omp_set_lock(omp_lock_t *lock) {
    unsigned int expected = 0;
    while (!__atomic_compare_exchange_n(&lock->_x, &expected, 1, 0, 2, 0))
        expected = 0;
}
void omp_unset_lock(omp_lock_t *lock) { __atomic_store_n(&lock->_x, 0, 3); }
int omp_test_lock(omp_lock_t *lock) {
    unsigned int expected = 0;
    return __atomic_compare_exchange_n(&lock->_x, &expected, 1, 0, 2, 0);
}
