/* target update to/from inside a target data region. */
#include <stdio.h>

#define N 100

int main(void)
{
    int a[N], b[N];
    int i, step;
    long s;

    for (i = 0; i < N; i++) {
        a[i] = i;
        b[i] = 0;
    }
#pragma omp target data map(to: a) map(from: b)
    {
        for (step = 1; step <= 3; step++) {
            /* change the input on the host and push it */
            for (i = 0; i < N; i++)
                a[i] = i * step;
#pragma omp target update to(a)
#pragma omp target teams distribute parallel for
            for (i = 0; i < N; i++)
                b[i] = a[i] + 1;
            /* pull the result back while the region is still open */
#pragma omp target update from(b)
            s = 0;
            for (i = 0; i < N; i++)
                s += b[i];
            printf("step %d: b[N-1] = %d, sum b = %ld\n", step, b[N - 1], s);
        }
        /* update only a section */
#pragma omp target teams distribute parallel for
        for (i = 0; i < N; i++)
            b[i] = -i;
#pragma omp target update from(b[10:5])
        printf("partial: b[10] = %d b[14] = %d\n", b[10], b[14]);
    }
    /* after the region ends, map(from:) copies all of b */
    printf("final: b[9] = %d, b[99] = %d\n", b[9], b[99]);

    /* target update with a scalar */
    {
        int k = 7, out = 0;
#pragma omp target data map(to: k) map(tofrom: out)
        {
            k = 11;
#pragma omp target update to(k)
#pragma omp target map(to: k) map(tofrom: out)
            out = k * 2;
#pragma omp target update from(out)
            printf("out = %d\n", out);
        }
    }
    return 0;
}
