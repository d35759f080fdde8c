/* 2-D Jacobi relaxation on the device with pointer swapping inside a target data region. */
#include <stdio.h>
#include <stdlib.h>

#define N 66
#define ITERS 20

int main(void)
{
    double *u = malloc(N * N * sizeof *u), *v = malloc(N * N * sizeof *v);
    double *cur = u, *nxt = v, *t;
    int i, j, it, n = N;
    double maxdiff = 0, sum = 0;

    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            double b = 0;
            if (i == 0) b = 100;          /* hot top edge */
            if (j == 0) b = 50;           /* warm left edge */
            u[i * N + j] = v[i * N + j] = b;
        }
#pragma omp target data map(tofrom: u[0:n*n], v[0:n*n])
    {
        for (it = 0; it < ITERS; it++) {
            maxdiff = 0;
#pragma omp target teams distribute parallel for collapse(2) map(tofrom: cur[0:n*n], nxt[0:n*n], maxdiff) reduction(max: maxdiff)
            for (i = 1; i < n - 1; i++)
                for (j = 1; j < n - 1; j++) {
                    double val = 0.25 * (cur[(i - 1) * n + j] + cur[(i + 1) * n + j] + cur[i * n + j - 1] + cur[i * n + j + 1]);
                    double d = val - cur[i * n + j];
                    if (d < 0)
                        d = -d;
                    if (d > maxdiff)
                        maxdiff = d;
                    nxt[i * n + j] = val;
                }
            t = cur;
            cur = nxt;
            nxt = t;
            if (it % 5 == 4)
                printf("iter %d maxdiff %.10f\n", it + 1, maxdiff);
        }
    }
    for (i = 0; i < N * N; i++)
        sum += cur[i];
    printf("sum = %.10f\n", sum);
    printf("cur[1][1] = %.10f, cur[1][32] = %.10f, cur[32][1] = %.10f, cur[10][10] = %.10f\n",
           cur[1 * N + 1], cur[1 * N + 32], cur[32 * N + 1], cur[10 * N + 10]);
    printf("result is in %s\n", cur == u ? "u" : "v");
    free(u);
    free(v);
    return 0;
}
