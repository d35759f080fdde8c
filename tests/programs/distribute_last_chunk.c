/* Distribute loops whose teams leave after their last chunk (the control loop's
 * leave_if): teams of several chunks (dist_schedule), fewer threads than the team has
 * (num_threads, if(parallel:) false), the split spelling, a loop shorter than the teams,
 * an empty loop, and a time-step loop of such regions over a struct's mapped arrays (the
 * struct mapped whole first: its members' sections alone would leave `g` partly present). */
#include <stdio.h>
#include <stdlib.h>

struct field { int n; double *u, *f; };

static double checksum(const double *x, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) s += x[i] * (i % 13 + 1);
    return s;
}

int main(int argc, char **argv) {
    int n = argc > 1 && atoi(argv[1]) > 10 ? atoi(argv[1]) : 10007;    /* the tests pass "alpha 42" */
    int threads = 48, serial = 0, i;
    struct field g = {n, malloc(sizeof(double) * n), malloc(sizeof(double) * n)};
    for (i = 0; i < n; i++) { g.u[i] = i % 17; g.f[i] = 0.5 * (i % 5); }

    #pragma omp target data map(to: g) map(tofrom: g.u[0:n]) map(to: g.f[0:n])
    {
        for (int step = 0; step < 4; step++) {
            #pragma omp target teams distribute parallel for dist_schedule(static, 97) num_teams(13)
            for (i = 0; i < n; i++)
                g.u[i] += g.f[i] * step;

            #pragma omp target
            #pragma omp teams num_teams(5)
            #pragma omp distribute parallel for num_threads(threads) private(i)
            for (i = 0; i < n; i++)
                g.u[i] = g.u[i] * 0.5 + 1.0;

            #pragma omp target teams distribute parallel for if(parallel: serial) thread_limit(64)
            for (i = 0; i < n; i += 3)
                g.u[i] -= 0.25;
        }
        #pragma omp target teams distribute parallel for num_teams(64)
        for (i = 0; i < 10; i++)
            g.u[i] += 100.0;
        #pragma omp target teams distribute parallel for
        for (i = 0; i < serial; i++)
            g.u[i] = -1.0;
    }
    printf("n=%d checksum=%.6f first=%.4f last=%.4f\n", n, checksum(g.u, n), g.u[0], g.u[n - 1]);
    free(g.u);
    free(g.f);
    return 0;
}
