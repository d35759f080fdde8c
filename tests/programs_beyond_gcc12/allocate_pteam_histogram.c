/* Per-team scratch from the team's fast memory (OpenMP 5.0's allocate directive with
 * omp_pteam_mem_alloc: shared memory on a GPU): each team builds a partial histogram of
 * its share of the samples in a team-local scratch array its threads update atomically,
 * then adds it to the global histogram. A second region makes its own allocator on the
 * device from a traits array (uses_allocators) for aligned per-region scratch, and the
 * host aligns a stack buffer with the allocate directive's align clause and a VLA with an
 * allocator's alignment trait. gcc 12 lacks the allocate directive and uses_allocators.
 *
 * Expected output: sample i is (i * 7919) % 1000, so over n = 100000 samples each value
 * 0..999 appears 100 times (7919 is coprime to 1000); bin b of 16 holds the values v with
 * v % 16 == b: 63 values for b < 8 (0..999 has 62 full rounds of 16 plus 0..7) and 62 for
 * b >= 8, times 100 each: 6300 and 6200. The second region sums 1..n with its scratch:
 * n (n + 1) / 2 = 5000050000 for n = 100000; its scratch is 256-byte aligned (1). */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define BINS 16

static long scratch_sum(int n) {
    omp_alloctrait_t traits[2] = {{omp_atk_alignment, 256}, {omp_atk_fallback, omp_atv_null_fb}};
    omp_allocator_handle_t aligned = omp_null_allocator;
    long total = 0;
    int ok = 0;
    #pragma omp target map(tofrom: total, ok) uses_allocators(aligned(traits))
    {
        long *tmp = (long *)omp_alloc(n * sizeof(long), aligned);
        ok = tmp != NULL && (uintptr_t)tmp % 256 == 0;
        if (tmp) {
            #pragma omp parallel for
            for (int i = 0; i < n; i++) tmp[i] = i + 1;
            for (int i = 0; i < n; i++) total += tmp[i];
            omp_free(tmp, aligned);
        }
    }
    printf("device allocator's scratch aligned: %d\n", ok);
    return total;
}

int main(int argc, char **argv) {
    int n = 100000, opt;
    while ((opt = getopt(argc, argv, "n:")) != -1)
        if (opt == 'n')
            n = atoi(optarg);
    int *samples = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) samples[i] = (int)(((long)i * 7919) % 1000);
    long histogram[BINS] = {0};

    #pragma omp target teams num_teams(8) thread_limit(128) map(to: samples[0:n]) map(tofrom: histogram) \
        uses_allocators(omp_pteam_mem_alloc)
    {
        long scratch[BINS];
        #pragma omp allocate(scratch) allocator(omp_pteam_mem_alloc)
        int team = omp_get_team_num(), teams = omp_get_num_teams();
        int first = (int)((long)n * team / teams), last = (int)((long)n * (team + 1) / teams);
        for (int b = 0; b < BINS; b++) scratch[b] = 0;
        #pragma omp parallel for
        for (int i = first; i < last; i++) {
            #pragma omp atomic
            scratch[samples[i] % BINS] += 1;
        }
        #pragma omp parallel for
        for (int b = 0; b < BINS; b++) {
            #pragma omp atomic
            histogram[b] += scratch[b];
        }
    }
    for (int b = 0; b < BINS; b++) printf("bin %2d: %ld\n", b, histogram[b]);

    printf("sum 1..%d: %ld\n", n, scratch_sum(n));

    /* On the host: a stack buffer aligned by the directive, a VLA by its allocator. */
    double staged[32];
    #pragma omp allocate(staged) allocator(omp_default_mem_alloc) align(128)
    omp_alloctrait_t wide[1] = {{omp_atk_alignment, 512}};
    omp_allocator_handle_t page = omp_init_allocator(omp_default_mem_space, 1, wide);
    {
        int m = n / 1000;
        double line[m];
        #pragma omp allocate(line) allocator(page)
        for (int i = 0; i < m; i++) line[i] = i;
        for (int i = 0; i < 32; i++) staged[i] = line[i % m];
        printf("staged aligned to 128: %d, line aligned to 512: %d, staged[31] = %.0f\n",
               (uintptr_t)staged % 128 == 0, (uintptr_t)line % 512 == 0, staged[31]);
    }
    omp_destroy_allocator(page);
    free(samples);
    return 0;
}
