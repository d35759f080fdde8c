/* bench/python: small target regions, called from Python through omp2gpu.load and from C
   in a loop, in the same process on the same device. */
#include <omp.h>

void add_one(int n, double *a) {
    #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
    for (int i = 0; i < n; i++)
        a[i] += 1.0;
}

/* An empty target region with three arrays mapped: the call's own cost beside the copies. */
void empty3(int n, double *a, double *b, double *c) {
    #pragma omp target map(tofrom: a[0:n]) map(to: b[0:n]) map(from: c[0:n])
    {
    }
}

int nothing(int v) { return v; }

/* Seconds for `reps` calls of add_one from C: each maps a (copies in and out). */
double from_c(int n, double *a, int reps) {
    double start = omp_get_wtime();
    for (int r = 0; r < reps; r++)
        add_one(n, a);
    return omp_get_wtime() - start;
}

/* The same with a resident on the device (what a CuPy array is): no copies. */
double from_c_resident(int n, double *a, int reps) {
    double start, seconds;
    #pragma omp target data map(tofrom: a[0:n])
    {
        start = omp_get_wtime();
        for (int r = 0; r < reps; r++)
            add_one(n, a);
        seconds = omp_get_wtime() - start;
    }
    return seconds;
}

/* Seconds for `reps` calls of empty3 from C, its arrays host data (each call copies them). */
double from_c_empty3(int n, double *a, double *b, double *c, int reps) {
    double start = omp_get_wtime();
    for (int r = 0; r < reps; r++)
        empty3(n, a, b, c);
    return omp_get_wtime() - start;
}

/* The same with the three arrays resident on the device (device arrays): no copies. */
double from_c_empty3_resident(int n, double *a, double *b, double *c, int reps) {
    double start, seconds;
    #pragma omp target data map(tofrom: a[0:n], b[0:n], c[0:n])
    {
        start = omp_get_wtime();
        for (int r = 0; r < reps; r++)
            empty3(n, a, b, c);
        seconds = omp_get_wtime() - start;
    }
    return seconds;
}
