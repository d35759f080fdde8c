/* Per-particle scratch from allocators a target construct makes (OpenMP 5.0's
 * uses_allocators with a traits array, 5.2's memspace/traits modifiers), on combined
 * constructs as real codes write them: a particle push whose force kernel takes 128-byte
 * aligned scratch from an arena made for each time step's `target teams distribute
 * parallel for`, a `target parallel for` taking it from a high-bandwidth pool (5.2 form),
 * a bounded pool whose fallback returns NULL (one thread of one team fills it), and a `target teams
 * distribute nowait` with its own allocator. gcc 12 lacks uses_allocators.
 *
 * Expected output: particle i starts at x = i, v = 0; the force on it is
 * f = sum_{k<4} (x - k) * w_k with w = {1, 2, 3, 4} (10 x - 20), and each step is
 * v += dt f, x += dt v with dt = 1/64 (exact in binary for these sizes), so the sums are
 * what the host computes the same way: the program checks the device against a host
 * replay (max difference 0) and prints the checksum. Every scratch block is 128-byte
 * aligned (misaligned 0 at each of the STEPS steps). The pool of 4096 bytes with null_fb
 * gives exactly 4 blocks of 1024 and then NULL: "pool blocks 4, then NULL 1". The
 * nowait region's allocator hands out n blocks whose first words sum to n (n - 1) / 2.
 * No step's allocator leaks into the next: the original handle stays omp_null_allocator. */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define STEPS 20
#define SCRATCH 4

typedef struct {
    int n;
    double *x, *v, *f;
} particles;

static double force(double x, double *scratch) {
    for (int k = 0; k < SCRATCH; k++) scratch[k] = (x - k) * (k + 1);
    return scratch[0] + scratch[1] + scratch[2] + scratch[3];
}

static int push(particles *p, double dt) {
    const omp_alloctrait_t arena_traits[] = {{omp_atk_alignment, 128}, {omp_atk_fallback, omp_atv_default_mem_fb}};
    omp_allocator_handle_t arena = omp_null_allocator;
    int misaligned = 0, n = p->n;
    double *x = p->x, *v = p->v, *f = p->f;
    #pragma omp target teams distribute parallel for map(to: x[0:n]) map(from: f[0:n]) \
            uses_allocators(omp_default_mem_alloc, arena(arena_traits)) reduction(+: misaligned)
    for (int i = 0; i < n; i++) {
        double *scratch = (double *)omp_alloc(SCRATCH * sizeof(double), arena);
        misaligned += scratch == NULL || ((uintptr_t)scratch & 127) != 0;
        f[i] = force(x[i], scratch);
        omp_free(scratch, arena);
    }
    const omp_alloctrait_t fast_traits[] = {{omp_atk_pinned, omp_atv_false}, {omp_atk_alignment, 64}};
    omp_allocator_handle_t fast = omp_null_allocator;
    #pragma omp target parallel for map(tofrom: x[0:n], v[0:n]) map(to: f[0:n]) \
            uses_allocators(memspace(omp_high_bw_mem_space), traits(fast_traits): fast)
    for (int i = 0; i < n; i++) {
        double *state = (double *)omp_alloc(2 * sizeof(double), fast);
        state[0] = v[i] + dt * f[i];
        state[1] = x[i] + dt * state[0];
        v[i] = state[0];
        x[i] = state[1];
        omp_free(state, fast);
    }
    if (arena != omp_null_allocator || fast != omp_null_allocator) printf("a step's allocator leaked out\n");
    return misaligned;
}

static void replay(int n, double dt, double *x, double *v) {
    double scratch[SCRATCH];
    for (int s = 0; s < STEPS; s++)
        for (int i = 0; i < n; i++) {
            v[i] += dt * force(x[i], scratch);
            x[i] += dt * v[i];
        }
}

static void bounded_pool(void) {
    omp_alloctrait_t pool_traits[] = {{omp_atk_pool_size, 4096}, {omp_atk_fallback, omp_atv_null_fb}};
    omp_allocator_handle_t pool = omp_null_allocator;
    int blocks = 0, refused = 0;
    #pragma omp target teams num_teams(1) map(tofrom: blocks, refused) \
            uses_allocators(traits(pool_traits): pool; omp_low_lat_mem_alloc)
    {
        #pragma omp parallel num_threads(1)
        {
            void *got[5];
            for (int k = 0; k < 5; k++) {
                got[k] = omp_alloc(1024, pool);
                if (got[k]) blocks++;
                else refused++;
            }
            for (int k = 0; k < 5; k++) omp_free(got[k], pool);
        }
    }
    printf("pool blocks %d, then NULL %d\n", blocks, refused);
}

static long nowait_blocks(int n) {
    omp_alloctrait_t traits[] = {{omp_atk_alignment, 32}};
    omp_allocator_handle_t mine = omp_null_allocator;
    long *first = (long *)malloc(n * sizeof(long));
    #pragma omp target teams distribute map(from: first[0:n]) uses_allocators(mine(traits)) nowait
    for (int i = 0; i < n; i++) {
        long *block = (long *)omp_alloc(8 * sizeof(long), mine);
        block[0] = i;
        first[i] = block[0] + ((uintptr_t)block % 32);
        omp_free(block, mine);
    }
    #pragma omp taskwait
    long total = 0;
    for (int i = 0; i < n; i++) total += first[i];
    free(first);
    return total;
}

int main(void) {
    int n = 2048, misaligned = 0;
    double dt = 1.0 / 64;
    particles p = {n, malloc(n * sizeof(double)), malloc(n * sizeof(double)), malloc(n * sizeof(double))};
    double *hx = malloc(n * sizeof(double)), *hv = malloc(n * sizeof(double));
    for (int i = 0; i < n; i++) {
        p.x[i] = hx[i] = i;
        p.v[i] = hv[i] = 0;
    }
    for (int s = 0; s < STEPS; s++) misaligned += push(&p, dt);
    replay(n, dt, hx, hv);
    double difference = 0, checksum = 0;
    for (int i = 0; i < n; i++) {
        double d = p.x[i] > hx[i] ? p.x[i] - hx[i] : hx[i] - p.x[i];
        if (d > difference) difference = d;
        checksum += p.x[i] / n;
    }
    printf("steps %d misaligned %d max difference %g\n", STEPS, misaligned, difference);
    printf("checksum %.6e\n", checksum);
    bounded_pool();
    printf("nowait blocks sum %ld\n", nowait_blocks(1000));
    free(p.x); free(p.v); free(p.f); free(hx); free(hv);
    return 0;
}
