/* A vector library whose kernels never map anything themselves: each says the caller
 * must have mapped its data (OpenMP 5.1's `present` map-type modifier, `target update
 * to(present: ...)`, `defaultmap(present)`), as libraries that share device data with
 * their callers are written. The caller maps the vectors once around a time-step loop
 * (target data, target enter data) and calls the library many times; an iterator map
 * (5.1) gathers every eighth element back.
 *
 * Integer arithmetic throughout, so the output is exact on every device: y starts at
 * y[i] = i (sum 523776), step s adds s * x[i] to each, x[i] = 1 for steps 1-2 and 2 (sent
 * by lib_refresh) for steps 3-4: sums 524800, 526848, 532992, 541184; then 1000 * x adds
 * 2000, so y[i] = i + 2017: the eighth elements sum to 8 * 8128 + 128 * 2017 = 323200, all
 * to 523776 + 1024 * 2017 = 2589184. The last region's iterator map writes y[256 k] = k. The
 * weights table (aggregate, defaultmap(present)) is doubled on the device twice. Only
 * what the iterator gathered is read before the whole of y comes back. gcc 12
 * has no `present` modifier: the same program with `present` removed (the data is
 * present) prints the same under gcc, which is how the .expected was checked. */
#include <stdio.h>
#include <stdlib.h>

#define N 1024

static long weights[8] = {1, 2, 3, 4, 5, 6, 7, 8};

static void lib_axpy(long a, const long *x, long *y, int n) {
    #pragma omp target teams distribute parallel for map(present, to: x[0:n]) map(present, tofrom: y[0:n])
    for (int i = 0; i < n; i++)
        y[i] += a * x[i];
}

static long lib_sum(const long *x, int n) {
    long sum = 0;
    #pragma omp target teams distribute parallel for reduction(+: sum) map(present, to: x[0:n])
    for (int i = 0; i < n; i++)
        sum += x[i];
    return sum;
}

static void lib_refresh(long *x, int n) {
    #pragma omp target update to(present: x[0:n])
}

static void lib_double_weights(void) {
    #pragma omp target defaultmap(present: aggregate)
    for (int k = 0; k < 8; k++)
        weights[k] *= 2;
}

int main(void) {
    long *x = malloc(N * sizeof(long)), *y = malloc(N * sizeof(long));
    for (int i = 0; i < N; i++) {
        x[i] = 1;
        y[i] = i;
    }
    #pragma omp target enter data map(to: weights)
    #pragma omp target data map(to: x[0:N]) map(tofrom: y[0:N])
    {
        for (int step = 1; step <= 4; step++) {
            lib_axpy(step, x, y, N);
            printf("step %d: sum(y) = %ld\n", step, lib_sum(y, N));
            if (step == 2) {
                for (int i = 0; i < N; i++) x[i] = 2;
                lib_refresh(x, N);
            }
        }
        lib_axpy(1000, x, y, N);                        /* y[i] += 2000 on the device */
        #pragma omp target update from(iterator(k = 0:N/8): y[8 * k])
        long gathered = 0;
        for (int k = 0; k < N / 8; k++) gathered += y[8 * k];
        printf("every eighth element, gathered: %ld\n", gathered);
        #pragma omp target update from(present: y[0:N])
        printf("all of them: %ld\n", lib_sum(y, N));
    }
    lib_double_weights();
    lib_double_weights();
    #pragma omp target exit data map(from: weights)
    printf("y[0] = %ld, y[N-1] = %ld, weights %ld..%ld\n", y[0], y[N - 1], weights[0], weights[7]);
    #pragma omp target map(iterator(k = 0:4), tofrom: y[k * 256]) map(to: x[0:0])
    for (int k = 0; k < 4; k++)
        y[k * 256] = k;
    printf("y[256] = %ld, y[768] = %ld\n", y[256], y[768]);
    free(x);
    free(y);
    return 0;
}
