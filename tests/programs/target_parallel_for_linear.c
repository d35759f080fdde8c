/* linear(x: step) on worksharing loops in target regions: each iteration starts from the
 * original plus its logical number times the step, whichever thread runs it, inside
 * `target data` (the device's copies of the arrays are the ones the regions write). */
#include <stdio.h>
#include <stdlib.h>

static long checksum(const int *a, int n)
{
    long sum = 0;
    for (int i = 0; i < n; i++)
        sum = sum * 31 % 1000003 + a[i];
    return sum;
}

int main(void)
{
    int n = 1000, *offsets = malloc(n * sizeof *offsets), *ids = malloc(n * sizeof *ids);
    int offset = 0, id = 7;
#pragma omp target data map(tofrom: offsets[0:n], ids[0:n])
    {
        /* the variable advanced by the body, as the suite's linear tests write it */
#pragma omp target parallel for linear(offset: 2)
        for (int i = 0; i < n; ++i) {
            offset += 2;
            offsets[i] = offset;
        }
        /* read before it is advanced, on a simd loop too */
#pragma omp target parallel for simd linear(id: 3)
        for (int i = 0; i < n; ++i) {
            ids[i] = id;
            id += 3;
        }
    }
    int wrong = 0;
    for (int i = 0; i < n; i++)
        wrong += offsets[i] != 2 * (i + 1) || ids[i] != 7 + 3 * i;
    printf("offsets %ld, ids %ld, wrong %d\n", checksum(offsets, n), checksum(ids, n), wrong);
    free(offsets);
    free(ids);
    return 0;
}
