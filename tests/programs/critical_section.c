/* critical sections (unnamed and named) protecting compound updates of shared data. */
#include <stdio.h>

#define N 5000

struct stats { long count; long sum; int min, max; };

int main(void)
{
    struct stats st = { 0, 0, 1 << 30, -(1 << 30) };
    int hist[10] = { 0 };
    int list[N], list_len = 0;
    long a = 0, b = 0;
    int i;

#pragma omp parallel for
    for (i = 0; i < N; i++) {
        int v = (i * 7919) % 1000;
#pragma omp critical
        {
            st.count++;
            st.sum += v;
            if (v < st.min) st.min = v;
            if (v > st.max) st.max = v;
        }
    }
    printf("count %ld sum %ld min %d max %d\n", st.count, st.sum, st.min, st.max);

    /* named criticals protect independent data */
#pragma omp parallel for
    for (i = 0; i < N; i++) {
        if (i % 2 == 0) {
#pragma omp critical(lock_a)
            a += i;
        } else {
#pragma omp critical(lock_b)
            b += i;
        }
#pragma omp critical(hist)
        hist[i % 10]++;
    }
    printf("a = %ld, b = %ld, hist:", a, b);
    for (i = 0; i < 10; i++)
        printf(" %d", hist[i]);
    printf("\n");

    /* append to a shared list under a critical; the set is order-independent */
#pragma omp parallel for
    for (i = 0; i < N; i++) {
        if (i % 7 == 3) {
#pragma omp critical(append)
            list[list_len++] = i;
        }
    }
    {
        long s = 0;
        int j;
        for (j = 0; j < list_len; j++)
            s += list[j];
        printf("list_len = %d, sum = %ld\n", list_len, s);
    }
    /* critical inside a parallel region (not a loop), each thread contributes once */
    {
        int threads = 0, total = 0;
#pragma omp parallel
        {
#pragma omp critical
            {
                threads++;
            }
#pragma omp barrier
#pragma omp single
            total = threads;
        }
        printf("critical-counted threads equals total: %d\n", threads == total);
    }
    /* critical in a target region */
    {
        long t = 0;
#pragma omp target teams distribute parallel for map(tofrom: t)
        for (i = 0; i < 1000; i++) {
#pragma omp critical
            t += i % 10;
        }
        printf("target critical t = %ld\n", t);
    }
    return 0;
}
