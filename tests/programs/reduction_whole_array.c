/* Whole arrays as reduction list items (OpenMP 4.5 2.15.3.6, C arrays): a histogram,
 * per-component sums of 2-D data and a running maximum, each `reduction(op: array)`
 * with no section written, on the host and in target regions. */
#include <stdio.h>

#define N 20000
#define BINS 8
#define DIM 3

int main(void)
{
    static double samples[N];
    for (int i = 0; i < N; i++)
        samples[i] = (double) ((i * 7919) % 1000) / 1000.0;

    int histogram[BINS] = { 0 };
#pragma omp parallel for reduction(+: histogram)
    for (int i = 0; i < N; i++)
        histogram[(int) (samples[i] * BINS)]++;
    printf("host histogram:");
    for (int b = 0; b < BINS; b++)
        printf(" %d", histogram[b]);
    printf("\n");

    /* A 2-D accumulator and a max over an array in one construct. */
    double moments[2][DIM] = { { 0 } };
    long peak[DIM] = { -1, -1, -1 };
#pragma omp parallel for reduction(+: moments) reduction(max: peak)
    for (int i = 0; i < N; i++) {
        int c = i % DIM;
        moments[0][c] += samples[i];
        moments[1][c] += samples[i] * samples[i];
        long key = (i * 31L) % 977;
        if (key > peak[c])
            peak[c] = key;
    }
    printf("moments: %.3f %.3f %.3f / %.3f %.3f %.3f, peak %ld %ld %ld\n",
           moments[0][0], moments[0][1], moments[0][2], moments[1][0], moments[1][1], moments[1][2],
           peak[0], peak[1], peak[2]);

    int device_histogram[BINS] = { 0 };
#pragma omp target teams distribute parallel for reduction(+: device_histogram) \
        map(to: samples) map(tofrom: device_histogram)
    for (int i = 0; i < N; i++)
        device_histogram[(int) (samples[i] * BINS)]++;
    int same = 1;
    for (int b = 0; b < BINS; b++)
        same = same && device_histogram[b] == histogram[b];
    printf("device histogram equal to host: %d\n", same);

    /* Split form: the reduction on the inner construct, a 2-D array of counters. */
    long parity[2][2] = { { 0 } };
#pragma omp target teams map(tofrom: parity)
#pragma omp distribute parallel for reduction(+: parity)
    for (int i = 0; i < N; i++)
        parity[i % 2][(i / 2) % 2] += i;
    printf("parity: %ld %ld %ld %ld\n", parity[0][0], parity[0][1], parity[1][0], parity[1][1]);

    /* A parallel region inside a target region, with min and product. */
    int lowest[4] = { 1000, 1000, 1000, 1000 };
    double scale[2] = { 1.0, 1.0 };
#pragma omp target map(tofrom: lowest, scale)
#pragma omp parallel for reduction(min: lowest) reduction(*: scale)
    for (int i = 0; i < 400; i++) {
        int v = (i * 37 + 11) % 500;
        if (v < lowest[i % 4])
            lowest[i % 4] = v;
        if (i % 100 == 0)
            scale[i % 2] *= 1.5;
    }
    printf("lowest %d %d %d %d, scale %.4f %.4f\n", lowest[0], lowest[1], lowest[2], lowest[3],
           scale[0], scale[1]);
    return 0;
}
