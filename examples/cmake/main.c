#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
#include "saxpy.h"

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    for (int i = 0; i < n; i++) {
        x[i] = (float)i;
        y[i] = 1.0f;
    }
    int on_host = saxpy(n, 2.0f, x, y);
    double error = 0.0;
    for (int i = 0; i < n; i++)
        error = fmax(error, fabs(y[i] - (2.0f * i + 1.0f)));
    printf("_OPENMP %d, %d devices, ran on the %s, max error %g\n", _OPENMP, omp_get_num_devices(),
           on_host ? "host" : "device", error);
    free(x);
    free(y);
    return error == 0.0 ? 0 : 1;
}
