/* bench/host: a 2-D Jacobi (heat) stencil, many sweeps of a 5-point average over an
 * n x n grid with fixed edges, two grids swapped after each sweep.
 *
 *     jacobi2d [n [sweeps [repetitions]]]
 *
 * Each sweep is one `parallel for` over the rows; built with -DCOLLAPSE it is one
 * `parallel for collapse(2)` over rows and columns. Prints the best repetition's time
 * for all the sweeps ("timing:") and a checksum of the final grid. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static void initialise(double *grid, long n) {
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++)
            grid[i * n + j] = (i == 0 || j == 0) ? 1.0 : (i == n - 1 || j == n - 1) ? 0.5 : 0.0;
}

static void sweep(const double *restrict from, double *restrict to, long n) {
#ifdef COLLAPSE
#pragma omp parallel for collapse(2) schedule(static)
#else
#pragma omp parallel for schedule(static)
#endif
    for (long i = 1; i < n - 1; i++)
        for (long j = 1; j < n - 1; j++)
            to[i * n + j] = 0.25 * (from[(i - 1) * n + j] + from[(i + 1) * n + j]
                                    + from[i * n + j - 1] + from[i * n + j + 1]);
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 2048;
    int sweeps = argc > 2 ? atoi(argv[2]) : 100;
    int repetitions = argc > 3 ? atoi(argv[3]) : 2;
    double *grid = malloc(n * n * sizeof(double));
    double *next = malloc(n * n * sizeof(double));
    if (!grid || !next) {
        fprintf(stderr, "jacobi2d: cannot allocate two %ld x %ld grids\n", n, n);
        return 1;
    }

    double best = 1e30;
    double *result = grid;
    for (int r = 0; r < repetitions; r++) {
        initialise(grid, n);
        initialise(next, n);
        double *from = grid, *to = next;
        double start = omp_get_wtime();
        for (int s = 0; s < sweeps; s++) {
            sweep(from, to, n);
            double *swap = from;
            from = to;
            to = swap;
        }
        double seconds = omp_get_wtime() - start;
        if (seconds < best)
            best = seconds;
        result = from;
    }

    double checksum = 0.0;
    for (long k = 0; k < n * n; k++)
        checksum += result[k];
    printf("threads: %d\n", omp_get_max_threads());
    printf("timing: %d sweeps best %.6f s\n", sweeps, best);
    printf("timing: %.1f Mpoints/s\n", (double)(n - 2) * (n - 2) * sweeps / best * 1e-6);
    printf("checksum: %.15e\n", checksum);
    free(grid);
    free(next);
    return 0;
}
