/* Launch overhead: REPS empty target regions back to back, timed in the program
 * itself (omp_get_wtime); the first launch (module load, JIT) is not timed.
 * -DCOMBINED: instead a combined construct over a present 1024-element array
 * (two work-groups of 512: a hand-over to a second worker, when there is one). */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 10000;
    int r;
    double t0, t1;
#ifdef COMBINED
    int n = 1024, i;
    double *a = malloc(sizeof(double) * n);
    for (i = 0; i < n; i++) a[i] = i;
    #pragma omp target data map(tofrom: a[0:n])
    {
        #pragma omp target teams distribute parallel for
        for (i = 0; i < n; i++) a[i] += 1.0;
        t0 = omp_get_wtime();
        for (r = 0; r < reps; r++) {
            #pragma omp target teams distribute parallel for
            for (i = 0; i < n; i++) a[i] += 0.0;
        }
        t1 = omp_get_wtime();
    }
    free(a);
#else
    #pragma omp target
    {
    }
    t0 = omp_get_wtime();
    for (r = 0; r < reps; r++) {
        #pragma omp target
        {
        }
    }
    t1 = omp_get_wtime();
#endif
    printf("per region: %.3f us (%d regions)\n", (t1 - t0) / reps * 1e6, reps);
    return 0;
}
