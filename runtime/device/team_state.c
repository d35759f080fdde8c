/* Team state for the GPU schemes (the paper's kmpc_* entry points, Section 3.3).
 *
 * Each CUDA block (OpenMP team) has a small state in shared memory, written by
 * the team master while the other threads wait at the control loop's barrier
 * and read by every thread after it:
 *   state[THREADS]  threads of the running parallel region; 0 while the team
 *                   master runs sequential code alone
 *   state[LEVEL]    parallel nesting level (omp_get_level)
 * __omp2gpu_team_state() is a compiler builtin: the address of that state.
 */
#include <omp.h>

#define THREADS 0
#define LEVEL 1

/* Every thread at kernel start. SPMD (combined) kernels start inside their
 * parallel region; generic (control-loop, serial) kernels start sequential. */
void __kmpc_kernel_init(int spmd) {
    int *state = __omp2gpu_team_state();
    if (spmd) {
        state[THREADS] = __nvvm_read_ptx_sreg_ntid_x();  /* the same value from every thread */
        state[LEVEL] = 1;
    } else if (__nvvm_read_ptx_sreg_tid_x() == 0) {
        state[THREADS] = 0;
        state[LEVEL] = 0;
    }
}

/* Team master, before switching to a parallel region's state: its thread count
 * (num_threads clause, else the whole block, never more than the block). */
void __kmpc_prepare_parallel(int requested) {
    int *state = __omp2gpu_team_state();
    int threads = __nvvm_read_ptx_sreg_ntid_x();
    if (requested > 0 && requested < threads)
        threads = requested;
    state[THREADS] = threads;
    state[LEVEL] = state[LEVEL] + 1;
}

/* Every thread, entering the parallel region's state: threads at or above the
 * returned count sit this region out at the barrier. */
int __kmpc_parallel_start(void) { return __omp2gpu_team_state()[THREADS]; }

/* Team master, back in sequential code after the region's barrier. */
void __kmpc_parallel_end(void) {
    int *state = __omp2gpu_team_state();
    state[THREADS] = 0;
    state[LEVEL] = state[LEVEL] - 1;
}

/* schedule(static[, chunk]) over iterations [0, trip): the first iteration of
 * this thread's first chunk, the chunk length and the stride between its chunks.
 * Without a chunk each thread gets one contiguous block. _4 counts in 32 bits,
 * _8 in 64 (as libomp's __kmpc_for_static_init_4/_8). */
#define STATIC_INIT(NAME, T)                                                       \
    void NAME(T trip, T chunk, int thread, int threads, T *first, T *length, T *stride) { \
        if (chunk <= 0) {                                                          \
            chunk = (trip + threads - 1) / threads;                                \
            if (chunk == 0) chunk = 1;                                             \
        }                                                                          \
        *first = (T)thread * chunk;                                                \
        *length = chunk;                                                           \
        *stride = (T)threads * chunk;                                              \
    }
STATIC_INIT(__kmpc_for_static_init_4, int)
STATIC_INIT(__kmpc_for_static_init_8, long)
