/* Histogram with atomic increments on the device and on the host; must equal a sequential count. */
#include <stdio.h>
#include <stdlib.h>

#define N 200000
#define BINS 32

static unsigned lcg(unsigned s) { return s * 1664525u + 1013904223u; }

int main(void)
{
    int *data = malloc(N * sizeof *data);
    int hist_t[BINS] = { 0 }, hist_h[BINS] = { 0 }, hist_s[BINS] = { 0 };
    unsigned s = 12345;
    int i, same_t = 1, same_h = 1;
    long check = 0;

    for (i = 0; i < N; i++) {
        s = lcg(s);
        data[i] = (int)((s >> 8) % 1000);
    }
    for (i = 0; i < N; i++)
        hist_s[data[i] * BINS / 1000]++;

#pragma omp target teams distribute parallel for map(to: data[0:N]) map(tofrom: hist_t)
    for (i = 0; i < N; i++) {
        int b = data[i] * BINS / 1000;
#pragma omp atomic update
        hist_t[b]++;
    }
#pragma omp parallel for
    for (i = 0; i < N; i++) {
        int b = data[i] * BINS / 1000;
#pragma omp atomic
        hist_h[b] += 1;
    }
    for (i = 0; i < BINS; i++) {
        same_t = same_t && hist_t[i] == hist_s[i];
        same_h = same_h && hist_h[i] == hist_s[i];
        check += (long)hist_s[i] * (i + 1);
    }
    printf("target matches: %d, host matches: %d, checksum = %ld\n", same_t, same_h, check);
    printf("bins:");
    for (i = 0; i < 8; i++)
        printf(" %d", hist_t[i]);
    printf(" ...\n");

    /* weighted histogram with double atomics (exact: weights are multiples of 1/4) */
    {
        double w[BINS] = { 0 }, total = 0;
#pragma omp target teams distribute parallel for map(to: data[0:N]) map(tofrom: w)
        for (i = 0; i < N; i++) {
#pragma omp atomic
            w[data[i] % BINS] += 0.25 * (data[i] % 4);
        }
        for (i = 0; i < BINS; i++)
            total += w[i];
        printf("weighted: w[0] = %.2f, w[31] = %.2f, total = %.2f\n", w[0], w[BINS - 1], total);
    }
    /* privatized histogram: per-thread local arrays merged with atomics */
    {
        int hp[BINS] = { 0 }, ok = 1;
#pragma omp parallel
        {
            int local[BINS] = { 0 }, b;
#pragma omp for
            for (i = 0; i < N; i++)
                local[data[i] * BINS / 1000]++;
            for (b = 0; b < BINS; b++) {
#pragma omp atomic
                hp[b] += local[b];
            }
        }
        for (i = 0; i < BINS; i++)
            ok = ok && hp[i] == hist_s[i];
        printf("privatized matches: %d\n", ok);
    }
    free(data);
    return 0;
}
