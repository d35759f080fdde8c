/* target with map(tofrom:) of arrays and scalars: device sees host values, host sees device writes. */
#include <stdio.h>

#define N 1000

int main(void)
{
    int a[N];
    double d[N];
    int count = 5;
    long total = 0;
    double scale = 0.5;
    int i;

    for (i = 0; i < N; i++) {
        a[i] = i;
        d[i] = i * 2.0;
    }
#pragma omp target map(tofrom: a, d, count)
    {
        int j;
        for (j = 0; j < N; j++) {
            a[j] = a[j] * 3 + 1;
            d[j] = d[j] * 0.25;
        }
        count = count + 10;
    }
    printf("count = %d\n", count);
    printf("a[0] = %d, a[1] = %d, a[N-1] = %d\n", a[0], a[1], a[N - 1]);
    printf("d[3] = %.2f, d[N-1] = %.2f\n", d[3], d[N - 1]);

    /* array sections with explicit bounds and a scalar firstprivate by default */
#pragma omp target map(tofrom: a[0:N], total)
    {
        int j;
        for (j = 0; j < N; j++)
            total += a[j];
    }
    printf("total = %ld\n", total);

    /* tofrom of a scalar double, and reading a default-firstprivate scalar */
    {
        double acc = 1.0;
#pragma omp target map(tofrom: acc) map(to: d)
        {
            int j;
            for (j = 0; j < 10; j++)
                acc += d[j] * scale;
        }
        printf("acc = %.3f\n", acc);
    }
    /* repeated target regions on the same data */
    for (i = 0; i < 3; i++) {
#pragma omp target map(tofrom: a[0:10])
        {
            int j;
            for (j = 0; j < 10; j++)
                a[j] += j;
        }
    }
    printf("a[0..9] after 3 passes:");
    for (i = 0; i < 10; i++)
        printf(" %d", a[i]);
    printf("\n");
    return 0;
}
