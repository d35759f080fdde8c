/* bench/scale: a vector add split over the first D devices (device(n)), one host
 * thread per device launching its share at once; the arrays' shares stay mapped on
 * their devices (target enter data), so the timed loop is kernels only.
 *
 *     vadd_devices [n [devices [repetitions]]]      (OMP2GPU_DEVICES=gpu: only the GPUs)
 *
 * Prints the best repetition's time and a checksum. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 1L << 26;
    int devices = argc > 2 ? atoi(argv[2]) : omp_get_num_devices();
    int repetitions = argc > 3 ? atoi(argv[3]) : 20;
    if (devices < 1 || devices > omp_get_num_devices()) {
        fprintf(stderr, "vadd_devices: %d devices asked for, %d present\n", devices, omp_get_num_devices());
        return 1;
    }
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
    for (long i = 0; i < n; i++) { a[i] = 0.5 * i; b[i] = 2.0; c[i] = 0.0; }
    long share = (n + devices - 1) / devices;
    /* each device's share through pointers to its start, so the region finds them present */
    for (int d = 0; d < devices; d++) {
        long lo = d * share, len = lo + share > n ? n - lo : share;
        double *ad = a + lo, *bd = b + lo, *cd = c + lo;
#pragma omp target enter data device(d) map(to: ad[0:len], bd[0:len]) map(alloc: cd[0:len])
    }
    double best = 1e30;
    for (int r = 0; r < repetitions; r++) {
        double start = omp_get_wtime();
#pragma omp parallel for num_threads(devices) schedule(static, 1)
        for (int d = 0; d < devices; d++) {
            long lo = d * share, len = lo + share > n ? n - lo : share;
            double *ad = a + lo, *bd = b + lo, *cd = c + lo;
#pragma omp target teams distribute parallel for device(d)
            for (long i = 0; i < len; i++)
                cd[i] = ad[i] + bd[i];
        }
        double seconds = omp_get_wtime() - start;
        if (seconds < best)
            best = seconds;
    }
    for (int d = 0; d < devices; d++) {
        long lo = d * share, len = lo + share > n ? n - lo : share;
        double *ad = a + lo, *bd = b + lo, *cd = c + lo;
#pragma omp target exit data device(d) map(from: cd[0:len]) map(release: ad[0:len], bd[0:len])
    }
    double checksum = 0.0;
    for (long i = 0; i < n; i++)
        checksum += c[i];
    printf("devices: %d\ntime: %.6f s\nchecksum: %.6e\n", devices, best, checksum);
    free(a); free(b); free(c);
    return 0;
}
