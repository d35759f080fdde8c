/* bench/remote: bulk copies to and from device 0: milliseconds per `target update to` and
 * `target update from` of argv[1] MiB (argv[2] times each, the best kept), after one of
 * each as a warm-up. Prints JSON; `right`: the bytes came back as they went. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

int main(int argc, char **argv) {
    size_t n = (size_t)(argc > 1 ? atol(argv[1]) : 256) << 20;
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    unsigned char *a = malloc(n), *back = malloc(n);
    double best_to = 1e30, best_from = 1e30;
    for (size_t i = 0; i < n; i++) a[i] = (unsigned char)(i * 2654435761u >> 24);
    #pragma omp target enter data map(alloc: a[0:n]) device(0)
    for (int r = 0; r <= reps; r++) {
        double t0 = omp_get_wtime();
        #pragma omp target update to(a[0:n]) device(0)
        double t1 = omp_get_wtime();
        #pragma omp target update from(a[0:n]) device(0)
        double t2 = omp_get_wtime();
        if (r > 0 && t1 - t0 < best_to) best_to = t1 - t0;
        if (r > 0 && t2 - t1 < best_from) best_from = t2 - t1;
    }
    memcpy(back, a, n);
    memset(a, 0, n);
    #pragma omp target update from(a[0:n]) device(0)
    #pragma omp target exit data map(delete: a[0:n]) device(0)
    printf("{\"mib\": %zu, \"to_ms\": %.3f, \"from_ms\": %.3f, \"right\": %d}\n", n >> 20, best_to * 1e3,
           best_from * 1e3, memcmp(back, a, n) == 0);
    return 0;
}
