/* bench/host: STREAM-style triad a[i] = b[i] + s * c[i] with `parallel for`.
 *
 *     stream_triad [n [repetitions]]
 *
 * The arrays are first touched by the same static schedule that later runs the triad,
 * so each thread's pages sit near it. Prints the best repetition's time ("timing:"),
 * its bandwidth (three arrays of doubles moved per repetition) and a checksum. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 20000000;
    int repetitions = argc > 2 ? atoi(argv[2]) : 20;
    double *a = malloc(n * sizeof(double));
    double *b = malloc(n * sizeof(double));
    double *c = malloc(n * sizeof(double));
    if (!a || !b || !c) {
        fprintf(stderr, "stream_triad: cannot allocate %ld doubles\n", 3 * n);
        return 1;
    }
    const double scalar = 3.0;

#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        a[i] = 0.0;
        b[i] = 1.0 + (double)(i % 1000) * 0.001;
        c[i] = 2.0 - (double)(i % 777) * 0.002;
    }

    double best = 1e30;
    for (int r = 0; r < repetitions; r++) {
        double start = omp_get_wtime();
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++)
            a[i] = b[i] + scalar * c[i];
        double seconds = omp_get_wtime() - start;
        if (seconds < best)
            best = seconds;
    }

    double checksum = 0.0;
    for (long i = 0; i < n; i++)
        checksum += a[i];
    printf("threads: %d\n", omp_get_max_threads());
    printf("timing: triad best %.6f s\n", best);
    printf("timing: bandwidth %.1f MB/s\n", 3.0 * sizeof(double) * n / best * 1e-6);
    printf("checksum: %.15e\n", checksum);
    free(a);
    free(b);
    free(c);
    return 0;
}
