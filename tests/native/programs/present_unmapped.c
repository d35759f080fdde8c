/* A library function that needs its caller to have mapped the data (`present`, OpenMP
 * 5.1), called once from inside the caller's target data region and once after it: the
 * second call is the runtime's located error, exit status 1, before any byte is copied
 * or any kernel runs (the host's data is as the first call left it). argv[1] picks the
 * construct that finds the data absent: the map clause, target update or defaultmap. */
#include <stdio.h>
#include <stdlib.h>

static double table[16];

static void scale(double *x, int n, double factor) {
    #pragma omp target teams distribute parallel for map(present, tofrom: x[0:n])
    for (int i = 0; i < n; i++)
        x[i] *= factor;
}

static void refresh(double *x, int n) {
    #pragma omp target update to(present: x[0:n])
}

static void bump_table(void) {
    #pragma omp target defaultmap(present)
    table[0] += 1.0;
}

int main(int argc, char **argv) {
    int which = argc > 1 ? atoi(argv[1]) : 0, n = 64;
    double *x = malloc(n * sizeof(double));
    for (int i = 0; i < n; i++) x[i] = i;
    #pragma omp target data map(tofrom: x[0:n])
    {
        refresh(x, n);
        scale(x, n, 2.0);
    }
    printf("mapped call: x[3] = %g\n", x[3]);
    fflush(stdout);
    if (which == 0) scale(x, n, 2.0);
    if (which == 1) refresh(x, n);
    if (which == 2) bump_table();
    printf("x[3] = %g after the call that should have failed\n", x[3]);
    free(x);
    return 0;
}
