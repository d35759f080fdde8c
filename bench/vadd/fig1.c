/* The paper's Fig. 1 program: a teams region with a team-shared `pi` declared in
 * its sequential part and a `distribute parallel for` (the control loop's case).
 * -DCOMBINED writes the same computation as one combined construct; -DLOOP spells either
 * with OpenMP 5.0's `loop` (`loop` in the teams region, or `target teams loop`).
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
        a[i] = -1.0;
        b[i] = (double)(i % 1000);
        c[i] = 0.25 * (double)(i % 8);
    }
    #pragma omp target data map(from: a[0:n]) map(to: b[0:n], c[0:n])
    for (r = 0; r < reps; r++) {
#ifdef COMBINED
        double pi = 3.14;
#ifdef LOOP
        #pragma omp target teams loop num_teams(TEAMS) thread_limit(THREADS)
#else
        #pragma omp target teams distribute parallel for num_teams(TEAMS) thread_limit(THREADS)
#endif
        for (i = 0; i < n; i++)
            a[i] = b[i] + c[i] * pi;
#else
        #pragma omp target teams num_teams(TEAMS) thread_limit(THREADS)
        {
            double pi = 3.14;
#ifdef LOOP
            #pragma omp loop
#else
            #pragma omp distribute parallel for
#endif
            for (i = 0; i < n; i++)
                a[i] = b[i] + c[i] * pi;
        }
#endif
    }
    for (i = 0; i < n; i++)
        if (a[i] != (double)(i % 1000) + 0.25 * (double)(i % 8) * 3.14)
            errors++;
    printf("fig1 n=%d reps=%d errors=%ld\n", n, reps, errors);
    return errors != 0;
}
