/* The paper's Table 2 (Section 5.2): Fig. 7's vector add with a large payload,
 * for (j = 0; j < N_LOOP; j++) a[i] += b[i] + c[N_LOOP * i + j], N_LOOP = 100.
 *
 *   table2 N REPS [TEAMS THREADS]...
 *
 * As table1.c: data resident, REPS launches per (TEAMS, THREADS) pair. c holds
 * N * N_LOOP doubles (6.7 GB for the paper's N = 512*512*32). The values are
 * small integers, so every sum is exact and the check is equality. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N_LOOP
#define N_LOOP 100
#endif

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 512 * 512 * 32;
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    int configs = argc > 4 ? (argc - 3) / 2 : 1;
    long total = (long)n * N_LOOP;
    double *a = malloc(sizeof(double) * n), *b = malloc(sizeof(double) * n);
    double *c = malloc(sizeof(double) * total);
    int i, j, k, r;
    long m, errors = 0;
    if (a == NULL || b == NULL || c == NULL) {
        printf("table2: out of memory for n=%d\n", n);
        return 2;
    }
    for (i = 0; i < n; i++) {
        a[i] = 0.0;
        b[i] = (double)(i % 5);
    }
    for (m = 0; m < total; m++)
        c[m] = (double)(m % 3);
    #pragma omp target data map(tofrom: a[0:n]) map(to: b[0:n], c[0:total])
    for (k = 0; k < configs; k++) {
        int teams = argc > 4 ? atoi(argv[3 + 2 * k]) : 0;
        int threads = argc > 4 ? atoi(argv[4 + 2 * k]) : 0;
        for (r = 0; r < reps; r++) {
            /* Fig. 7 */
            #pragma omp target teams distribute parallel for schedule(static, 1) \
                num_teams(teams) thread_limit(threads)
            for (int i = 0; i < n; i++)
                for (int j = 0; j < N_LOOP; j++)
                    a[i] += b[i] + c[N_LOOP * i + j];
        }
    }
    for (i = 0; i < n; i++) {
        double once = 0.0;
        for (j = 0; j < N_LOOP; j++)
            once += b[i] + c[(long)N_LOOP * i + j];
        if (a[i] != (double)configs * reps * once)
            errors++;
    }
    printf("table2 n=%d launches=%d errors=%ld\n", n, configs * reps, errors);
    return errors != 0;
}
