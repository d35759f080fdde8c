/* Double reductions whose results are exact regardless of summation order (integer-valued or dyadic terms). */
#include <stdio.h>

#define N 20000

int main(void)
{
    static double x[N], y[N];
    double sum = 0, dot = 0, sq = 0, halfsum = 0, mx = 0;
    float fsum = 0;
    int i;

    for (i = 0; i < N; i++) {
        x[i] = (double)(i % 100);       /* integers */
        y[i] = (double)((i % 7) - 3) * 0.5; /* multiples of 1/2 */
    }
#pragma omp parallel for reduction(+: sum)
    for (i = 0; i < N; i++)
        sum += x[i];
    printf("sum = %.1f\n", sum);

#pragma omp target teams distribute parallel for map(to: x, y) map(tofrom: dot) reduction(+: dot)
    for (i = 0; i < N; i++)
        dot += x[i] * y[i];
    printf("dot = %.2f\n", dot);

#pragma omp target teams distribute parallel for map(to: y) map(tofrom: sq, halfsum) reduction(+: sq, halfsum)
    for (i = 0; i < N; i++) {
        sq += y[i] * y[i];
        halfsum += y[i] * 0.125;
    }
    printf("sq = %.4f, halfsum = %.4f\n", sq, halfsum);

#pragma omp target teams distribute parallel for map(to: x, y) map(tofrom: mx) reduction(max: mx)
    for (i = 0; i < N; i++) {
        double t = x[i] * y[i];
        if (t > mx)
            mx = t;
    }
    printf("max = %.2f\n", mx);

    /* float reduction of small integers (exact in float) */
#pragma omp parallel for reduction(+: fsum)
    for (i = 0; i < 1000; i++)
        fsum += (float)(i % 10);
    printf("fsum = %.1f\n", fsum);

    /* reduction in a target region containing teams + parallel for separately */
    sum = 0;
#pragma omp target teams map(to: x) map(tofrom: sum) reduction(+: sum)
#pragma omp distribute parallel for reduction(+: sum)
    for (i = 0; i < N; i++)
        sum += x[i] * 2;
    printf("sum2 = %.1f\n", sum);

    /* pi by midpoint rule with few terms, rounded for printing: order-insensitive at this precision */
    {
        int n = 1000;
        double pi = 0, h = 1.0 / n;
#pragma omp parallel for reduction(+: pi)
        for (i = 0; i < n; i++) {
            double t = (i + 0.5) * h;
            pi += 4.0 / (1.0 + t * t);
        }
        printf("pi ~ %.6f\n", pi * h);
    }
    return 0;
}
