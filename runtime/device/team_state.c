/* Team state for the GPU schemes (the paper's kmpc_* entry points, Section 3.3).
 *
 * Each CUDA block (OpenMP team) has a small state in shared memory, written by
 * the team master while the other threads wait at the control loop's barrier
 * and read by every thread after it:
 *   state[THREADS]  threads of the running parallel region; 0 while the team
 *                   master runs sequential code alone
 *   state[LEVEL]    parallel nesting level of the team (omp_get_level)
 *   state[NESTING]  (a pointer, words 2-3) per-thread depth of serialised
 *                   parallel regions (nested ones), a byte per thread in
 *                   shared memory; null in kernels that never nest
 * __omp2gpu_team_state() is a compiler builtin: the address of that state.
 */
#include <omp.h>

#define THREADS 0
#define LEVEL 1
#define NESTING 2

static char **nesting_slot(void) { return (char **)&__omp2gpu_team_state()[NESTING]; }

/* Every thread at kernel start. SPMD (combined) kernels start inside their
 * parallel region; generic (control-loop, serial) kernels start sequential.
 * `nesting`: the kernel's per-thread depth bytes, or null. */
void __kmpc_kernel_init(int spmd, char *nesting) {
    int *state = __omp2gpu_team_state();
    int thread = __nvvm_read_ptx_sreg_tid_x();
    if (nesting)
        nesting[thread] = 0;                             /* each thread its own byte */
    if (spmd) {
        state[THREADS] = __nvvm_read_ptx_sreg_ntid_x();  /* the same value from every thread */
        state[LEVEL] = 1;
        *nesting_slot() = nesting;
    } else if (thread == 0) {
        state[THREADS] = 0;
        state[LEVEL] = 0;
        *nesting_slot() = nesting;
    }
}

/* How many serialised (nested) parallel regions this thread is inside. */
int __kmpc_serialized_depth(void) {
    char *nesting = *nesting_slot();
    return nesting ? nesting[__nvvm_read_ptx_sreg_tid_x()] : 0;
}

/* A thread entering / leaving a parallel region it runs alone, nested in another
 * (paper Section 3.3: nested parallelism is serialised through runtime calls). */
void __kmpc_serialized_parallel(void) {
    char *nesting = *nesting_slot();
    if (nesting)
        nesting[__nvvm_read_ptx_sreg_tid_x()] += 1;
}

void __kmpc_end_serialized_parallel(void) {
    char *nesting = *nesting_slot();
    if (nesting)
        nesting[__nvvm_read_ptx_sreg_tid_x()] -= 1;
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
