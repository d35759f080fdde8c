/* The paper's Fig. 6 vector add: c = a + b on the device, checked on the host. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 512L * 512 * 32;
    double *a = malloc(n * sizeof(double));
    double *b = malloc(n * sizeof(double));
    double *c = malloc(n * sizeof(double));
    long i, errors = 0;
    int on_host = 1;

    for (i = 0; i < n; i++) {
        a[i] = (double)i;
        b[i] = 2.0 * (double)(n - i);
        c[i] = -1.0;
    }

    double start = omp_get_wtime();
    #pragma omp target teams distribute parallel for map(to: a[0:n], b[0:n]) map(from: c[0:n])
    for (i = 0; i < n; i++)
        c[i] = a[i] + b[i];
    double seconds = omp_get_wtime() - start;

    #pragma omp target map(from: on_host)
    on_host = omp_is_initial_device();

    /* Where the region ran: omp2gpu names its devices (a GPU, the CPU device); another
     * compiler's OpenMP only numbers them. */
    char where[128] = "the host";
    if (!on_host) {
#ifdef __OMP2GPU__
        char name[96];
        omp2gpu_get_device_name(omp_get_default_device(), name, sizeof name);
        snprintf(where, sizeof where, "device %d: %s", omp_get_default_device(), name);
#else
        snprintf(where, sizeof where, "device %d", omp_get_default_device());
#endif
    }

    for (i = 0; i < n; i++)
        if (c[i] != (double)i + 2.0 * (double)(n - i))
            errors++;
    printf("vadd: n = %ld, ran on %s, %ld errors, %.3f ms (with data transfers)\n", n,
           where, errors, seconds * 1e3);
    free(a);
    free(b);
    free(c);
    return errors != 0;
}
