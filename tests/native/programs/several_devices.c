/* device(n) over several devices at once: host threads each offload a share of an
 * array to their own device; device memory of two devices, copied from one to the
 * other with omp_target_memcpy; presence per device. Run with two devices (the GPU and
 * the CPU device, or OMP2GPU_DEVICES=cpu,cpu): tests/native/test_several_devices.py. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int main(void) {
    int devices = omp_get_num_devices();
    int n = 1 << 16;
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    for (int i = 0; i < n; i++) { a[i] = i; b[i] = 0; }
    printf("devices: %d\n", devices);
    int chunk = (n + devices - 1) / devices;
    /* each device doubles its share of a, all at once from host threads */
#pragma omp parallel for num_threads(devices)
    for (int d = 0; d < devices; d++) {
        int lo = d * chunk, len = (lo + chunk > n ? n - lo : chunk);
#pragma omp target teams distribute parallel for device(d) map(tofrom: a[lo:len])
        for (int i = lo; i < lo + len; i++) a[i] = 2 * a[i] + d;
    }
    double sum = 0; for (int i = 0; i < n; i++) sum += a[i];
    printf("sum %.1f\n", sum);
    /* device memory per device, copied device to device */
    if (devices >= 2) {
        double *d0 = omp_target_alloc(n * sizeof(double), 0), *d1 = omp_target_alloc(n * sizeof(double), 1);
        omp_target_memcpy(d0, a, n * sizeof(double), 0, 0, 0, omp_get_initial_device());
        omp_target_memcpy(d1, d0, n * sizeof(double), 0, 0, 1, 0);
#pragma omp target teams distribute parallel for device(1) is_device_ptr(d1)
        for (int i = 0; i < n; i++) d1[i] += 1.0;
        omp_target_memcpy(b, d1, n * sizeof(double), 0, 0, omp_get_initial_device(), 1);
        double s = 0; for (int i = 0; i < n; i++) s += b[i];
        printf("copied sum %.1f present0 %d present1 %d\n", s, omp_target_is_present(a, 0), omp_target_is_present(a, 1));
        omp_target_free(d0, 0); omp_target_free(d1, 1);
#pragma omp target enter data map(to: a[0:n]) device(1)
        printf("present after enter data: %d %d\n", omp_target_is_present(a, 0), omp_target_is_present(a, 1));
#pragma omp target exit data map(release: a[0:n]) device(1)
    }
    free(a); free(b);
    return 0;
}
