/* Vector addition offloaded with target teams distribute parallel for (the canonical first kernel). */
#include <stdio.h>
#include <stdlib.h>

static void vadd(const float *a, const float *b, float *c, int n)
{
    int i;
#pragma omp target teams distribute parallel for map(to: a[0:n], b[0:n]) map(from: c[0:n])
    for (i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}

int main(void)
{
    int sizes[] = { 1, 7, 1000, 1 << 20 };
    int t;

    for (t = 0; t < 4; t++) {
        int n = sizes[t], i, errors = 0;
        float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
        double sum = 0;
        for (i = 0; i < n; i++) {
            a[i] = (float)(i % 1024);
            b[i] = (float)(2 * (i % 512)) + 0.5f;
            c[i] = -1.0f;
        }
        vadd(a, b, c, n);
        for (i = 0; i < n; i++) {
            if (c[i] != a[i] + b[i])
                errors++;
            sum += c[i];
        }
        printf("n = %d: errors = %d, sum = %.1f, c[n-1] = %.1f\n", n, errors, sum, c[n - 1]);
        free(a);
        free(b);
        free(c);
    }
    /* in-place variant on a static array */
    {
        static double x[4096];
        int i;
        double s = 0;
        for (i = 0; i < 4096; i++)
            x[i] = i;
#pragma omp target teams distribute parallel for map(tofrom: x)
        for (i = 0; i < 4096; i++)
            x[i] = x[i] + x[i];
        for (i = 0; i < 4096; i++)
            s += x[i];
        printf("in-place sum = %.1f\n", s);
    }
    return 0;
}
