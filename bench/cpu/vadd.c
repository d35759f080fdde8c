/* The paper's Fig. 6 vector add, a[i] += b[i] + c[i], timed in the program itself.
 *
 *     vadd [N [REPS]]      (default N = 2^24 doubles per array, REPS = 100)
 *
 * - "single": one target region with its own maps (copies in and out included),
 *   the second of two, so the first pays for loading the code;
 * - "reps": REPS launches inside one target data region (data stays on the
 *   device): the kernel's throughput, best and mean per launch.
 * Built unchanged by omp2gpu and by gcc (target constructs run on the host);
 * bench/cpu/run.py also builds it as host OpenMP (`parallel for`, no maps).
 * Bandwidth counts 4 x 8 bytes per element (a read and written, b and c read). */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

static void vadd_once(int n, double *a, const double *b, const double *c) {
    int i;
    #pragma omp target teams distribute parallel for map(tofrom: a[0:n]) map(to: b[0:n], c[0:n])
    for (i = 0; i < n; i++)
        a[i] += b[i] + c[i];
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1 << 24;
    int reps = argc > 2 ? atoi(argv[2]) : 100;
    double *a = malloc(sizeof(double) * n), *b = malloc(sizeof(double) * n);
    double *c = malloc(sizeof(double) * n);
    double t0, t1, single, best = 1e30, total = 0.0;
    long errors = 0;
    int i, r;
    for (i = 0; i < n; i++) {
        a[i] = 0.0;
        b[i] = (double)(i % 1000);
        c[i] = 0.5 * (double)(i % 7);
    }
    vadd_once(n, a, b, c);                    /* loads the code: untimed */
    t0 = omp_get_wtime();
    vadd_once(n, a, b, c);
    single = omp_get_wtime() - t0;
    #pragma omp target data map(tofrom: a[0:n]) map(to: b[0:n], c[0:n])
    for (r = 0; r < reps; r++) {
        t0 = omp_get_wtime();
        #pragma omp target teams distribute parallel for
        for (i = 0; i < n; i++)
            a[i] += b[i] + c[i];
        t1 = omp_get_wtime();
        total += t1 - t0;
        if (t1 - t0 < best) best = t1 - t0;
    }
    for (i = 0; i < n; i++)
        if (a[i] != (reps + 2) * ((double)(i % 1000) + 0.5 * (double)(i % 7)))
            errors++;
    printf("vadd n=%d reps=%d errors=%ld\n", n, reps, errors);
    printf("time: single %.3f us\n", single * 1e6);
    printf("time: reps best %.3f us mean %.3f us\n", best * 1e6, total / reps * 1e6);
    free(a); free(b); free(c);
    return errors != 0;
}
