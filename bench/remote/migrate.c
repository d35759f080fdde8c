/* bench/remote: milliseconds per omp_target_memcpy of argv[1] MiB from device 0 to device 1
 * (two servers: server to server, or with OMP2GPU_REMOTE_PEER=0 through this process). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

int main(int argc, char **argv) {
    size_t bytes = (size_t)(argc > 1 ? atol(argv[1]) : 64) << 20;
    int reps = argc > 2 ? atoi(argv[2]) : 5, host = omp_get_initial_device();
    char *data = malloc(bytes), *back = malloc(bytes);
    memset(data, 7, bytes);
    void *a = omp_target_alloc(bytes, 0), *b = omp_target_alloc(bytes, 1);
    if (!a || !b || omp_target_memcpy(a, data, bytes, 0, 0, 0, host)) return 1;
    omp_target_memcpy(b, a, bytes, 0, 0, 1, 0);                      /* warm-up: links made */
    double t0 = omp_get_wtime();
    for (int i = 0; i < reps; i++) omp_target_memcpy(b, a, bytes, 0, 0, 1, 0);
    double t1 = omp_get_wtime();
    omp_target_memcpy(back, b, bytes, 0, 0, host, 1);
    printf("{\"mib\": %zu, \"ms\": %.3f, \"right\": %d}\n", bytes >> 20, (t1 - t0) * 1e3 / reps,
           memcmp(back, data, bytes) == 0);
    return 0;
}
