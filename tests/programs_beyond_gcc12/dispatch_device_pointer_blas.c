/* A small BLAS-like library with a host implementation and a device variant that takes
 * device pointers, as codes wrap cuBLAS: `declare variant ... match(construct={dispatch})
 * adjust_args(need_device_ptr: x, y)` (OpenMP 5.1). The solver maps its vectors once
 * (target data) and calls the library through `dispatch`, which passes the device
 * addresses of the mapped vectors; called without dispatch, the host version runs. A pointer the variant's own target region uses without a map keeps its
 * value there (5.1), so the variant's regions may also name x and y plainly. gcc 12 lacks
 * dispatch and adjust_args.
 *
 * Expected output: x = 1, y = i % 7 initially; ITER rounds of y = y + 0.5 x (device,
 * through dispatch) then a dot product x.y (device, through dispatch): after round r,
 * sum y = sum(i % 7) + 0.5 r n; n = 7000 gives sum(i % 7) = 21000, so the dot products are
 * 21000 + 3500 r: 24500, 28000, 31500, 35000. After target data, y = i % 7 + 2: the sum
 * 35000, and the host version (a call without dispatch) finds the same dot product. Each
 * device call is counted once ("device calls 8"). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define ITER 4

static int device_calls;

void axpy_device(int n, double a, const double *x, double *y);
double dot_device(int n, const double *x, const double *y);

#pragma omp declare variant(axpy_device) match(construct={dispatch}) adjust_args(need_device_ptr: x, y)
void axpy(int n, double a, const double *x, double *y) {
    for (int i = 0; i < n; i++) y[i] += a * x[i];
}

#pragma omp declare variant(dot_device) match(construct={dispatch}) adjust_args(need_device_ptr: x, y)
double dot(int n, const double *x, const double *y) {
    double s = 0;
    for (int i = 0; i < n; i++) s += x[i] * y[i];
    return s;
}

void axpy_device(int n, double a, const double *x, double *y) {
    device_calls++;
    #pragma omp target teams distribute parallel for is_device_ptr(x, y)
    for (int i = 0; i < n; i++) y[i] += a * x[i];
}

double dot_device(int n, const double *x, const double *y) {
    double s = 0;
    device_calls++;
    #pragma omp target teams distribute parallel for reduction(+: s) map(tofrom: s)
    for (int i = 0; i < n; i++) s += x[i] * y[i];         /* unmapped pointers: device addresses kept */
    return s;
}

int main(void) {
    int n = 7000;
    double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
    for (int i = 0; i < n; i++) {
        x[i] = 1;
        y[i] = i % 7;
    }
    #pragma omp target data map(to: x[0:n]) map(tofrom: y[0:n])
    {
        for (int r = 1; r <= ITER; r++) {
            #pragma omp dispatch
            axpy(n, 0.5, x, y);
            double device_dot;
            #pragma omp dispatch device(omp_get_default_device())
            device_dot = dot(n, x, y);
            printf("round %d: %.1f\n", r, device_dot);
        }
    }
    double sum = 0;
    for (int i = 0; i < n; i++) sum += y[i];
    printf("after: %.1f, host dot %.1f, device calls %d\n", sum, dot(n, x, y), device_calls);
    free(x);
    free(y);
    return 0;
}
