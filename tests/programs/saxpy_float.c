/* SAXPY in single precision on the device; values chosen so a*x+y is exact (FMA or not). */
#include <stdio.h>
#include <stdlib.h>

static void saxpy(int n, float a, const float *x, float *y)
{
    int i;
#pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
    for (i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

int main(void)
{
    int n = 100000, i, bad = 0;
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    float a = 2.5f;
    double s = 0;

    for (i = 0; i < n; i++) {
        x[i] = (float)(i % 256);
        y[i] = 0.25f * (float)(i % 8);
    }
    saxpy(n, a, x, y);
    for (i = 0; i < n; i++) {
        float expect = 2.5f * (float)(i % 256) + 0.25f * (float)(i % 8);
        if (y[i] != expect)
            bad++;
        s += y[i];
    }
    printf("bad = %d, sum = %.2f, y[255] = %.2f, y[n-1] = %.2f\n", bad, s, y[255], y[n - 1]);
    /* repeated calls with a negative scale bring y back */
    saxpy(n, -a, x, y);
    s = 0;
    for (i = 0; i < n; i++)
        s += y[i];
    printf("after undo: sum = %.2f, y[7] = %.2f\n", s, y[7]);
    /* float math stays float: the sum of many 0.5f in float on the device */
    {
        float acc = 0.0f;
#pragma omp target map(tofrom: acc)
        {
            int k;
            for (k = 0; k < 1 << 20; k++)
                acc += 0.5f;
        }
        printf("acc = %.1f\n", acc);
    }
    /* float precision loss is reproduced: 2^24 + 1 */
    {
        float big = 16777216.0f, r = 0;
#pragma omp target map(tofrom: r) firstprivate(big)
        r = big + 1.0f;
        printf("2^24 + 1 in float on target = %.1f\n", r);
    }
    free(x);
    free(y);
    return 0;
}
