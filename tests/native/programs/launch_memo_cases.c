/* Regions launched again and again (a time-step loop), for the launch memo
 * (runtime/offload/launch_memo.c): what must be taken from the memo, and what must not.
 *   steps   : `target data` around a loop of regions, a firstprivate scale changing each step
 *   remap   : the array unmapped and mapped again between steps (new device storage)
 *   always  : map(always, to:) of a table the host changes each step
 *   attach  : a struct's pointer member copied to the device again between steps (attach anew)
 * Each prints a checksum gcc's host build prints too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 1000

struct field { int n; double *values; };

static double sum(const double *x, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) s += x[i];
    return s;
}

static void steps(double *a, int n) {
#pragma omp target data map(tofrom: a[0:n])
    for (int step = 0; step < 6; step++) {
        double scale = 1.0 + step;
#pragma omp target teams distribute parallel for firstprivate(scale)
        for (int i = 0; i < n; i++)
            a[i] = a[i] * 0.5 + scale * i;
    }
    printf("steps %.3f\n", sum(a, n));
}

static void remap(double *a, int n) {
    double *other = malloc(sizeof(double) * n);
    for (int i = 0; i < n; i++) other[i] = 1.0;
    for (int step = 0; step < 4; step++) {
#pragma omp target enter data map(to: a[0:n])
        if (step % 2) {
#pragma omp target enter data map(to: other[0:n])          /* the table changes under a's mapping */
        }
#pragma omp target teams distribute parallel for
        for (int i = 0; i < n; i++)
            a[i] += step;
#pragma omp target exit data map(from: a[0:n])
        if (step % 2) {
#pragma omp target exit data map(release: other[0:n])
        }
        for (int i = 0; i < n; i++) a[i] += 0.25;           /* the next step copies the host's values in */
    }
    printf("remap %.3f\n", sum(a, n));
    free(other);
}

static void always(double *a, int n) {
    double table[4] = {0, 0, 0, 0};
#pragma omp target data map(tofrom: a[0:n]) map(to: table)
    for (int step = 0; step < 4; step++) {
        table[step] = step + 0.5;
#pragma omp target teams distribute parallel for map(always, to: table)
        for (int i = 0; i < n; i++)
            a[i] += table[i % 4];
    }
    printf("always %.3f\n", sum(a, n));
}

static void attach(int n) {
    double *values = calloc(n, sizeof(double));
    struct field f = {n, values};
#pragma omp target data map(to: f) map(tofrom: values[0:n])
    for (int step = 0; step < 4; step++) {
#pragma omp target update to(f)            /* the host's pointer copied over the attached one */
#pragma omp target teams distribute parallel for map(tofrom: f.values[0:n])
        for (int i = 0; i < n; i++)
            f.values[i] += step + 1;
    }
    printf("attach %.3f\n", sum(values, n));
    free(values);
}

int main(void) {
    double *a = malloc(sizeof(double) * N);
    for (int i = 0; i < N; i++) a[i] = i % 7;
    steps(a, N);
    remap(a, N);
    always(a, N);
    attach(N);
    free(a);
    return 0;
}
