/* The paper's Table 1 (Section 5.1): Fig. 6's vector add, a[i] += b[i] + c[i].
 *
 *   table1 N REPS [TEAMS THREADS]...
 *
 * The arrays stay on the device (target data) while the kernel runs REPS times
 * for each (TEAMS, THREADS) pair given (num_teams / thread_limit clauses; 0 0,
 * or no pair, is the launcher's choice). The launcher's profile
 * (OMP2GPU_PROFILE) times every launch. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 512 * 512 * 32;
    int reps = argc > 2 ? atoi(argv[2]) : 10;
    int configs = argc > 4 ? (argc - 3) / 2 : 1;
    double *a = malloc(sizeof(double) * n), *b = malloc(sizeof(double) * n);
    double *c = malloc(sizeof(double) * n);
    int i, k, r;
    long errors = 0;
    for (i = 0; i < n; i++) {
        a[i] = 0.0;
        b[i] = (double)(i % 1000);
        c[i] = 0.5 * (double)(i % 7);
    }
    #pragma omp target data map(tofrom: a[0:n]) map(to: b[0:n], c[0:n])
    for (k = 0; k < configs; k++) {
        int teams = argc > 4 ? atoi(argv[3 + 2 * k]) : 0;
        int threads = argc > 4 ? atoi(argv[4 + 2 * k]) : 0;
        for (r = 0; r < reps; r++) {
            /* Fig. 6 */
            #pragma omp target teams distribute parallel for schedule(static, 1) \
                num_teams(teams) thread_limit(threads)
            for (int i = 0; i < n; i++)
                a[i] += b[i] + c[i];
        }
    }
    for (i = 0; i < n; i++)
        if (a[i] != (double)configs * reps * ((double)(i % 1000) + 0.5 * (double)(i % 7)))
            errors++;
    printf("table1 n=%d launches=%d errors=%ld\n", n, configs * reps, errors);
    return errors != 0;
}
