/* A 1-D heat equation advanced in time steps, each step one target region whose
 * implicit data-mapping is set by defaultmap clauses per category (OpenMP 5.0):
 *   - the field arrays stay mapped by an enclosing target data region; the step's
 *     pointers to them are looked up there (defaultmap(default: pointer));
 *   - the step's scalars come back: defaultmap(tofrom: scalar) (the largest change);
 *   - the physical parameters, a struct, only go to the device: defaultmap(to: aggregate);
 *   - a small stencil table is each region's own copy: defaultmap(firstprivate: aggregate),
 *     scaled inside without touching the host's table;
 *   - the probe region lists everything: defaultmap(none) with explicit maps. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define N 4096

struct physics {
    double alpha;
    double source[2];           /* a heat source at the left end, per half of the run */
};

struct field {
    double *u, *next;
    int n;
};

static double total_heat(const double *u, int n) {
    double sum = 0.0;
    for (int i = 0; i < n; i++) sum += u[i];
    return sum;
}

int main(int argc, char **argv) {
    int steps = argc > 1 ? atoi(argv[1]) : 40;
    struct field f;
    struct physics phys = {0.5, {1.0, 0.0}};
    f.n = N;
    f.u = malloc(N * sizeof(double));
    f.next = malloc(N * sizeof(double));
    for (int i = 0; i < N; i++) f.u[i] = f.next[i] = (i > N / 3 && i < N / 2) ? 100.0 : 0.0;
    double *u = f.u, *next = f.next;
    double initial = total_heat(u, N);

    #pragma omp target data map(tofrom: u[0:N], next[0:N])
    for (int step = 0; step < steps; step++) {
        double change = 0.0;
        int n = f.n, half = step >= steps / 2;
        #pragma omp target teams distribute parallel for reduction(max: change) \
            defaultmap(tofrom: scalar) defaultmap(to: aggregate) defaultmap(default: pointer)
        for (int i = 1; i < n - 1; i++) {
            double lap = u[i - 1] - 2.0 * u[i] + u[i + 1];
            next[i] = u[i] + phys.alpha * lap;
            if (i == 1) next[i] += phys.source[half];
            double d = fabs(next[i] - u[i]);
            if (d > change) change = d;
        }
        double *swap = u;
        u = next;
        next = swap;
        if (step % 10 == 9) {
            double probe = 0.0;
            int where = N / 2 - 1;
            #pragma omp target defaultmap(none) map(tofrom: probe) map(to: where) map(alloc: u[0:N])
            probe = u[where];
            printf("step %d: largest change %.6f, u[%d] = %.6f\n", step + 1, change, where, probe);
        }
    }
    double table[3] = {1.0, 2.0, 3.0}, seen = 0.0;
    #pragma omp target defaultmap(firstprivate: aggregate) defaultmap(from: scalar)
    {
        table[0] *= 10.0;               /* the region's own copy */
        table[2] = table[0] + table[1];
        seen = table[2];
    }
    printf("heat before %.3f after %.3f\n", initial, total_heat(u, N));
    printf("alpha %.2f, table %.1f %.1f %.1f, the region saw %.1f\n", phys.alpha, table[0], table[1],
           table[2], seen);
    free(u);
    free(next);
    return 0;
}
