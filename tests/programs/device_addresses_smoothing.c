/* Device addresses handed around as a library does with a caller's device data
 * (OpenMP 5.0/5.1): a grid and a halo array stay mapped in a target data region;
 * `use_device_addr` names their device copies inside it, which kernels then take with
 * `has_device_addr` (the arrays themselves) and `is_device_ptr` (a pointer into them),
 * with no map of their own. The smoothing steps also use 5.0 map forms: the `close`
 * and `always` modifiers, and a zero-length section of a pointer that the region does
 * not use. (One item in two map clauses, 5.0, is refused by gcc 12: tested elsewhere.) */
#include <stdio.h>
#include <stdlib.h>

#define N 2048
#define HALO 4

static double grid[N];
static double halo[2 * HALO];

static void smooth(double *restrict dst, const double *restrict src, int n) {
    #pragma omp target teams distribute parallel for is_device_ptr(dst, src)
    for (int i = 1; i < n - 1; i++)
        dst[i] = 0.25 * src[i - 1] + 0.5 * src[i] + 0.25 * src[i + 1];
}

int main(int argc, char **argv) {
    int steps = argc > 1 ? atoi(argv[1]) : 6;
    double *scratch = malloc(N * sizeof(double));
    double *unused = malloc(16 * sizeof(double));
    for (int i = 0; i < N; i++) grid[i] = (i % 64 == 0) ? 64.0 : 0.0;
    for (int k = 0; k < 2 * HALO; k++) halo[k] = -1.0;

    #pragma omp target data map(tofrom: grid, halo) map(alloc: scratch[0:N])
    {
        #pragma omp target data use_device_addr(grid, halo)
        {
            double *device_grid = grid;            /* the device's copy from here on */
            for (int step = 0; step < steps; step++) {
                /* scratch: the data region holds it already; `always` sends the host's
                   (never written) copy each step, which the loop then overwrites */
                #pragma omp target map(always, close, to: scratch[0:N]) map(close, to: steps) \
                    has_device_addr(grid) map(to: unused[0:0])
                for (int i = 0; i < N; i++)
                    scratch[i] = grid[i];
                #pragma omp target data use_device_ptr(scratch)
                smooth(device_grid, scratch, N);
            }
            #pragma omp target has_device_addr(grid, halo)
            for (int k = 0; k < HALO; k++) {
                halo[k] = grid[k];
                halo[HALO + k] = grid[N - HALO + k];
            }
        }
    }
    double total = 0.0, peak = 0.0;
    for (int i = 0; i < N; i++) {
        total += grid[i];
        if (grid[i] > peak) peak = grid[i];
    }
    printf("after %d steps: total %.6f, peak %.6f\n", steps, total, peak);
    printf("halo:");
    for (int k = 0; k < 2 * HALO; k++) printf(" %.6f", halo[k]);
    printf("\n");
    free(scratch);
    free(unused);
    return 0;
}
