/* A library of target regions for other programs: a gcc-built main and Python's ctypes
 * call these (tests/native/test_native_executables.py). */
#include <omp.h>

#pragma omp declare target
static double scale = 2.0;
#pragma omp end declare target

/* y[i] = a * x[i] + y[i] on the default device; returns 1 when it ran on a device */
int saxpy(int n, double a, const double *x, double *y) {
    int on_device = 0;
    #pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n]) map(tofrom: on_device)
    for (int i = 0; i < n; i++) {
        y[i] = a * x[i] + y[i];
        if (i == 0) on_device = !omp_is_initial_device();
    }
    return on_device;
}

/* the sum of scale * v[i], through a declare target global */
double scaled_sum(int n, const double *v) {
    double sum = 0.0;
    #pragma omp target teams distribute parallel for map(to: v[0:n]) reduction(+: sum)
    for (int i = 0; i < n; i++)
        sum += scale * v[i];
    return sum;
}

int devices(void) { return omp_get_num_devices(); }
