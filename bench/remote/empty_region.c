/* bench/remote: microseconds per empty target region on device 0 (argv[1] regions,
 * after argv[2] warm-up ones), and per 8-byte `target update` round trip. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

int omp2gpu_get_device_name(int device_num, char *buffer, size_t size);

int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 2000, warm = argc > 2 ? atoi(argv[2]) : 200;
    long x = 1;
    char name[256] = "?";
    omp2gpu_get_device_name(0, name, sizeof name);
    #pragma omp target data map(to: x) device(0)
    {
        for (int i = 0; i < warm; i++) {
            #pragma omp target device(0)
            {}
        }
        double t0 = omp_get_wtime();
        for (int i = 0; i < reps; i++) {
            #pragma omp target device(0)
            {}
        }
        double t1 = omp_get_wtime();
        for (int i = 0; i < reps; i++) {
            #pragma omp target update from(x) device(0)
        }
        double t2 = omp_get_wtime();
        printf("{\"device\": \"%s\", \"empty_region_us\": %.3f, \"update_8B_us\": %.3f}\n", name,
               (t1 - t0) * 1e6 / reps, (t2 - t1) * 1e6 / reps);
    }
    return 0;
}
