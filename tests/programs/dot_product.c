/* Dot products: int, long, float and double, host and device, with exactly representable terms. */
#include <stdio.h>
#include <stdlib.h>

#define N 50000

int main(void)
{
    double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    float *fx = malloc(N * sizeof *fx), *fy = malloc(N * sizeof *fy);
    int *ix = malloc(N * sizeof *ix), *iy = malloc(N * sizeof *iy);
    double dh = 0, dt = 0, seq = 0;
    float ft = 0;
    long lt = 0, lseq = 0;
    int i;

    for (i = 0; i < N; i++) {
        x[i] = (double)(i % 100) * 0.5;
        y[i] = (double)((i % 13) - 6);
        fx[i] = (float)(i % 10);
        fy[i] = (float)((i % 3) - 1);
        ix[i] = i % 1000 - 500;
        iy[i] = (i * 7) % 11 - 5;
    }
    for (i = 0; i < N; i++) {
        seq += x[i] * y[i];
        lseq += (long)ix[i] * iy[i];
    }
#pragma omp parallel for reduction(+: dh)
    for (i = 0; i < N; i++)
        dh += x[i] * y[i];
#pragma omp target teams distribute parallel for map(to: x[0:N], y[0:N]) map(tofrom: dt) reduction(+: dt)
    for (i = 0; i < N; i++)
        dt += x[i] * y[i];
#pragma omp target teams distribute parallel for map(to: fx[0:N], fy[0:N]) map(tofrom: ft) reduction(+: ft)
    for (i = 0; i < N; i++)
        ft += fx[i] * fy[i];
#pragma omp target teams distribute parallel for map(to: ix[0:N], iy[0:N]) map(tofrom: lt) reduction(+: lt)
    for (i = 0; i < N; i++)
        lt += (long)ix[i] * iy[i];
    printf("double: seq %.2f host %.2f target %.2f equal %d\n", seq, dh, dt, seq == dh && dh == dt);
    printf("float: target %.1f\n", ft);
    printf("long: seq %ld target %ld equal %d\n", lseq, lt, lseq == lt);

    /* dot product as a function with a target data region around repeated calls */
    {
        double acc = 0;
        int rep;
#pragma omp target data map(to: x[0:N], y[0:N])
        for (rep = 1; rep <= 3; rep++) {
            double d = 0;
#pragma omp target teams distribute parallel for map(tofrom: d) reduction(+: d)
            for (i = 0; i < N; i++)
                d += x[i] * y[i] * rep;
            acc += d;
        }
        printf("repeated acc = %.2f\n", acc);
    }
    /* norm squared of an integer vector stored as double */
    {
        double nrm = 0;
#pragma omp target teams distribute parallel for map(to: y[0:N]) map(tofrom: nrm) reduction(+: nrm)
        for (i = 0; i < N; i++)
            nrm += y[i] * y[i];
        printf("norm^2 = %.1f\n", nrm);
    }
    free(x); free(y); free(fx); free(fy); free(ix); free(iy);
    return 0;
}
