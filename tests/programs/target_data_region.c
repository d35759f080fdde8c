/* target data keeps arrays on the device across several target regions. */
#include <stdio.h>

#define N 256

int main(void)
{
    double a[N], b[N], c[N];
    int i, iter;
    double sum = 0;

    for (i = 0; i < N; i++) {
        a[i] = i;
        b[i] = 2 * i;
        c[i] = 0;
    }
#pragma omp target data map(to: a, b) map(tofrom: c)
    {
        for (iter = 0; iter < 4; iter++) {
#pragma omp target teams distribute parallel for
            for (i = 0; i < N; i++)
                c[i] += a[i] + b[i];
        }
#pragma omp target
        {
            int j;
            for (j = 0; j < N; j++)
                c[j] = c[j] / 2;
        }
    }
    for (i = 0; i < N; i++)
        sum += c[i];
    printf("c[0] = %.1f, c[1] = %.1f, c[N-1] = %.1f, sum = %.1f\n", c[0], c[1], c[N - 1], sum);

    /* nested target data regions with an inner map(alloc:) temporary */
    {
        int x[64], y[64], tmp[64];
        long check = 0;
        for (i = 0; i < 64; i++)
            x[i] = i - 32;
#pragma omp target data map(to: x) map(from: y)
        {
#pragma omp target data map(alloc: tmp)
            {
#pragma omp target teams distribute parallel for
                for (i = 0; i < 64; i++)
                    tmp[i] = x[i] * x[i];
#pragma omp target teams distribute parallel for
                for (i = 0; i < 64; i++)
                    y[i] = tmp[i] - x[i];
            }
        }
        for (i = 0; i < 64; i++)
            check += y[i] * (long)(i + 1);
        printf("y[0] = %d, y[63] = %d, check = %ld\n", y[0], y[63], check);
    }
    /* target data with array sections of a heap-like pointer */
    {
        int buf[100];
        int *p = buf;
        for (i = 0; i < 100; i++)
            buf[i] = 1;
#pragma omp target data map(tofrom: p[0:100])
        {
#pragma omp target teams distribute parallel for
            for (i = 0; i < 100; i++)
                p[i] = p[i] + i;
        }
        printf("buf[99] = %d, buf[50] = %d\n", buf[99], buf[50]);
    }
    return 0;
}
