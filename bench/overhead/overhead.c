/* The host's cost of a target region, timed from the host (omp_get_wtime around
 * REGIONS regions, best of 5): an empty region, `map(tofrom:)` of one int, and
 * the paper's vector add on data a `target data` region keeps on the device.
 * Usage: overhead REGIONS VADD_N VADD_REPS -> "empty_us X", "scalar_us X", "vadd_us X" */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define TRIES 5

static int counter;              /* the scalar of `map(tofrom: counter)` */

static double best_empty(int regions) {
    double best = 1e30;
    int t, r;
    for (t = 0; t < TRIES; t++) {
        double start = omp_get_wtime(), took;
        for (r = 0; r < regions; r++) {
            #pragma omp target
            { }
        }
        took = (omp_get_wtime() - start) / regions;
        if (took < best) best = took;
    }
    return best;
}

static double best_scalar(int regions) {
    double best = 1e30;
    int t, r;
    for (t = 0; t < TRIES; t++) {
        double start = omp_get_wtime(), took;
        for (r = 0; r < regions; r++) {
            #pragma omp target map(tofrom: counter)
            counter++;
        }
        took = (omp_get_wtime() - start) / regions;
        if (took < best) best = took;
    }
    return best;
}

static double best_vadd(int n, int reps, double *a, double *b, double *c) {
    double best = 1e30;
    int t, r, i;
    #pragma omp target data map(tofrom: a[0:n]) map(to: b[0:n], c[0:n])
    {
        #pragma omp target teams distribute parallel for       /* loaded and registered */
        for (i = 0; i < n; i++)
            a[i] += b[i] + c[i];
        for (t = 0; t < TRIES; t++) {
            double start = omp_get_wtime(), took;
            for (r = 0; r < reps; r++) {
                #pragma omp target teams distribute parallel for
                for (i = 0; i < n; i++)
                    a[i] += b[i] + c[i];
            }
            took = (omp_get_wtime() - start) / reps;
            if (took < best) best = took;
        }
    }
    return best;
}

int main(int argc, char **argv) {
    int regions = argc > 1 ? atoi(argv[1]) : 2000;
    int n = argc > 2 ? atoi(argv[2]) : 512 * 512 * 32;
    int reps = argc > 3 ? atoi(argv[3]) : 200;
    double *a = malloc(sizeof(double) * n), *b = malloc(sizeof(double) * n);
    double *c = malloc(sizeof(double) * n);
    int i;
    long errors = 0;
    double empty, scalar, vadd;
    for (i = 0; i < n; i++) {
        a[i] = 0.0;
        b[i] = (double)(i % 1000);
        c[i] = 0.5 * (double)(i % 7);
    }
    empty = best_empty(regions);
    scalar = best_scalar(regions);
    vadd = best_vadd(n, reps, a, b, c);
    for (i = 0; i < n; i++)
        if (a[i] != (1 + TRIES * reps) * ((double)(i % 1000) + 0.5 * (double)(i % 7))) errors++;
    if (counter != TRIES * regions) errors++;
    printf("empty_us %.3f\nscalar_us %.3f\nvadd_us %.3f\nerrors %ld\n", empty * 1e6, scalar * 1e6,
           vadd * 1e6, errors);
    free(a);
    free(b);
    free(c);
    return errors != 0;
}
