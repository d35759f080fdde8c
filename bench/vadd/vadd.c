/* The paper's Fig. 6 vector add, a[i] += b[i] + c[i], with the combined construct
 * (-DLOOP: spelt OpenMP 5.0's way, `target teams loop`, which omp2gpu lowers to it).
 * Data stays on the device (target data) while the kernel runs REPS times;
 * TEAMS/THREADS (0: the launcher's choice) set num_teams/thread_limit. */
#include <stdio.h>
#include <stdlib.h>

#ifndef TEAMS
#define TEAMS 0
#endif
#ifndef THREADS
#define THREADS 0
#endif

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 512 * 512 * 32;
    int reps = argc > 2 ? atoi(argv[2]) : 100;
    double *a = malloc(sizeof(double) * n), *b = malloc(sizeof(double) * n);
    double *c = malloc(sizeof(double) * n);
    int i, r;
    long errors = 0;
    for (i = 0; i < n; i++) {
        a[i] = 0.0;
        b[i] = (double)(i % 1000);
        c[i] = 0.5 * (double)(i % 7);
    }
    #pragma omp target data map(tofrom: a[0:n]) map(to: b[0:n], c[0:n])
    for (r = 0; r < reps; r++) {
#ifdef LOOP
        #pragma omp target teams loop num_teams(TEAMS) thread_limit(THREADS)
#else
        #pragma omp target teams distribute parallel for num_teams(TEAMS) thread_limit(THREADS)
#endif
        for (i = 0; i < n; i++)
            a[i] += b[i] + c[i];
    }
    for (i = 0; i < n; i++)
        if (a[i] != reps * ((double)(i % 1000) + 0.5 * (double)(i % 7)))
            errors++;
    printf("vadd n=%d reps=%d errors=%ld\n", n, reps, errors);
    return errors != 0;
}
