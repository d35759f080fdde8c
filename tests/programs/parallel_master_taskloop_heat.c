/* A 1-D heat equation stepped with OpenMP 5.0's combined task constructs: each step's
 * stencil is a `parallel master taskloop` (the master thread makes the tasks, the
 * team runs them), the copy back a `master taskloop simd` inside a parallel region
 * (with an explicit barrier after it: master has none), and a per-block checksum a
 * `parallel masked taskloop` whose tasks each write their own block's sum. The rod's
 * data is a struct of arrays; each block's sum is an integer of fixed-point values, so
 * the output does not depend on how the tasks are scheduled. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define N 1024
#define BLOCKS 16
#define STEPS 40

struct rod {
    double temperature[N];
    double next[N];
    double conductivity[N];
};

int main(int argc, char **argv)
{
    struct rod *r = malloc(sizeof *r);
    long block_sum[BLOCKS];
    int steps = argc > 2 ? atoi(argv[2]) % 7 + STEPS : STEPS;

    for (int i = 0; i < N; i++) {
        r->temperature[i] = (i > N / 3 && i < N / 2) ? 100.0 : 0.0;
        r->conductivity[i] = 0.1 + 0.05 * (i % 3);
    }

    for (int step = 0; step < steps; step++) {
#pragma omp parallel master taskloop grainsize(64) shared(r)
        for (int i = 1; i < N - 1; i++)
            r->next[i] = r->temperature[i] + r->conductivity[i] *
                         (r->temperature[i - 1] - 2.0 * r->temperature[i] + r->temperature[i + 1]);
#pragma omp parallel
        {
#pragma omp master taskloop simd num_tasks(8)
            for (int i = 1; i < N - 1; i++)
                r->temperature[i] = r->next[i];
#pragma omp barrier
        }
    }

#pragma omp parallel masked taskloop num_tasks(BLOCKS) filter(0)
    for (int b = 0; b < BLOCKS; b++) {
        long sum = 0;
        for (int i = b * (N / BLOCKS); i < (b + 1) * (N / BLOCKS); i++)
            sum += (long)(r->temperature[i] * 1000.0);
        block_sum[b] = sum;
    }

    printf("%d steps\n", steps);
    for (int b = 0; b < BLOCKS; b += 4)
        printf("blocks %2d-%2d: %8ld %8ld %8ld %8ld\n", b, b + 3, block_sum[b], block_sum[b + 1],
               block_sum[b + 2], block_sum[b + 3]);
    free(r);
    return 0;
}
