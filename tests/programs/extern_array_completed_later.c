/* A header-style declaration of an array of unknown size, functions that use
   it, and only then the definition that gives its size (common in single-file
   ports of multi-file codes). The definition must complete the same object. */
#include <stdio.h>

#define NBINS 16

extern double histogram[];
extern int counts[];

static void accumulate(const double *values, int n)
{
    for (int i = 0; i < n; i++) {
        int bin = (int)values[i] % NBINS;
        histogram[bin] += values[i];
        counts[bin]++;
    }
}

static double offloaded_total(int n)
{
    double total = 0.0;
    #pragma omp target teams distribute parallel for reduction(+: total) map(to: histogram[0:n])
    for (int b = 0; b < n; b++)
        total += histogram[b];
    return total;
}

double histogram[NBINS];
int counts[NBINS] = { 0 };

int main(void)
{
    double values[100];
    for (int i = 0; i < 100; i++)
        values[i] = (double)((i * 7) % 37) + 0.5;
    accumulate(values, 100);
    printf("size %zu bytes, %zu counters\n", sizeof histogram, sizeof counts / sizeof counts[0]);
    for (int b = 0; b < NBINS; b += 5)
        printf("bin %2d: %d values, sum %.2f\n", b, counts[b], histogram[b]);
    printf("total %.2f\n", offloaded_total(NBINS));
    return 0;
}
