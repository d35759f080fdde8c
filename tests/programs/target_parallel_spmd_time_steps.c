/* A 1-D diffusion solver written with one team's worksharing loops only, as codes that
 * target "the GPU" without teams are: a struct of arrays kept on the device by a
 * `target data` region, and in each time step `target parallel for` (with reduction,
 * lastprivate, linear and collapse), `target` around `parallel for`, and `target
 * parallel` holding declarations and a `for`. omp2gpu runs each of these as one team of
 * the combined (SPMD) kernel; the output is gcc's. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define CELLS 4096
#define STEPS 12
#define ROWS 16
#define COLS 64

struct field {
    double *u, *next;
    int *visits;
    long *stamps;
};

int main(void)
{
    struct field f;
    double *u, *next, grid[ROWS][COLS];
    int *visits;
    long *stamps;
    int n = CELLS, step, i, last_cell = -1, threads = 32;
    long stamp = 1000;
    double total = 0.0, peak = 0.0;

    f.u = malloc(n * sizeof *f.u);
    f.next = malloc(n * sizeof *f.next);
    f.visits = calloc(n, sizeof *f.visits);
    f.stamps = malloc(n * sizeof *f.stamps);
    u = f.u, next = f.next, visits = f.visits, stamps = f.stamps;
    for (i = 0; i < n; i++)
        u[i] = (i > n / 3 && i < n / 2) ? 100.0 : 0.0;

#pragma omp target data map(tofrom: u[0:n], visits[0:n]) map(alloc: next[0:n]) map(from: stamps[0:n])
    {
        for (step = 0; step < STEPS; step++) {
            /* diffusion: the loop variable named private, as older codes write it */
#pragma omp target parallel for private(i) num_threads(threads)
            for (i = 1; i < n - 1; i++) {
                next[i] = u[i] + 0.25 * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
                visits[i]++;
            }
#pragma omp target
#pragma omp parallel for
            for (i = 1; i < n - 1; i++)
                u[i] = next[i];
            /* a read-only declaration before the loop: every thread makes its own */
#pragma omp target parallel
            {
                const double floor = 1e-12;
#pragma omp for
                for (int k = 0; k < n; k++)
                    if (u[k] < floor)
                        u[k] = 0.0;
            }
#pragma omp target parallel for reduction(+: total) reduction(max: peak) lastprivate(last_cell) \
        if(parallel: step % 2 == 0)
            for (i = 0; i < n; i++) {
                total += u[i];
                if (u[i] > peak)
                    peak = u[i];
                last_cell = i;
            }
            printf("step %2d: total %.6f peak %.6f last %d\n", step, total, peak, last_cell);
            total = 0.0;
            peak = 0.0;
        }
        /* each cell's stamp: 1000 + 3 * its index, counted by a linear variable */
#pragma omp target parallel for linear(stamp: 3)
        for (i = 0; i < n; i++) {
            stamps[i] = stamp;
            stamp += 3;
        }
    }
    printf("stamp after the loop %ld, stamps[0] %ld, stamps[%d] %ld\n", stamp, stamps[0], n - 1, stamps[n - 1]);

#pragma omp target parallel for collapse(2) map(from: grid)
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++)
            grid[r][c] = r * 0.5 + c * 0.25;

    long visited = 0;
    for (i = 0; i < n; i++)
        visited += visits[i];
    printf("visits %ld (expected %ld), grid[3][5] %.2f grid[15][63] %.2f\n", visited,
           (long)(n - 2) * STEPS, grid[3][5], grid[ROWS - 1][COLS - 1]);
    free(f.u);
    free(f.next);
    free(f.visits);
    free(f.stamps);
    return 0;
}
