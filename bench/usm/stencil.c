/* bench/usm: a 2-D Jacobi stencil, its grids reached two ways (run.py builds both):
 *   -DUSM   `requires unified_shared_memory`: malloc'd grids used in the regions with no map
 *   default explicit maps: the grids kept on the device by `target data`
 * Prints the first sweep's time (for USM: pages moving to the device on first touch; for
 * maps: the copy in plus the sweep) and the steady state (the mean of the later sweeps),
 * then a checksum both builds must agree on.  Usage: stencil N SWEEPS */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef USM
#pragma omp requires unified_shared_memory
#endif

static void sweep(const double *restrict in, double *restrict out, int n) {
#ifdef USM
#pragma omp target teams distribute parallel for collapse(2)
#else
#pragma omp target teams distribute parallel for collapse(2) map(to: in[0:n*n]) map(from: out[0:n*n])
#endif
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < n - 1; j++)
            out[i * n + j] = 0.25 * (in[(i - 1) * n + j] + in[(i + 1) * n + j] +
                                     in[i * n + j - 1] + in[i * n + j + 1]);
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 4096, sweeps = argc > 2 ? atoi(argv[2]) : 20;
    double *a = malloc(sizeof(double) * n * n), *b = malloc(sizeof(double) * n * n);
    for (long k = 0; k < (long)n * n; k++) a[k] = b[k] = (k % n == 0) ? 1.0 : 0.0;
    /* the device and its module made ready first, as CUDA C's cudaFree(0): only data moves below */
#pragma omp target
    { }
    double first = 0.0, rest = 0.0;
    for (int s = 0; s < sweeps; s++) {
        double start = omp_get_wtime();
#ifndef USM
        if (s == 0) {   /* the maps' copy in belongs to the first touch */
#pragma omp target enter data map(to: a[0:n*n], b[0:n*n])
        }
#endif
        sweep(s % 2 ? b : a, s % 2 ? a : b, n);
        double took = omp_get_wtime() - start;
        if (s == 0) first = took; else rest += took;
    }
#ifndef USM
#pragma omp target exit data map(from: a[0:n*n], b[0:n*n])
#endif
    double sum = 0.0;
    for (long k = 0; k < (long)n * n; k++) sum += a[k] + b[k];
    printf("first_ms %.3f\nsteady_ms %.3f\nchecksum %.10e\n", first * 1e3,
           sweeps > 1 ? rest / (sweeps - 1) * 1e3 : 0.0, sum);
    free(a);
    free(b);
    return 0;
}
