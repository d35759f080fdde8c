/* Unstructured data mapping: target enter data / exit data with to, alloc, from, delete, release. */
#include <stdio.h>
#include <stdlib.h>

static double *vec_create(int n, double v)
{
    double *p = malloc(n * sizeof *p);
    int i;
    for (i = 0; i < n; i++)
        p[i] = v + i;
#pragma omp target enter data map(to: p[0:n])
    return p;
}

static void vec_axpy(double *y, const double *x, double a, int n)
{
    int i;
#pragma omp target teams distribute parallel for map(tofrom: y[0:n]) map(to: x[0:n])
    for (i = 0; i < n; i++)
        y[i] += a * x[i];
}

static void vec_destroy_fetch(double *p, int n)
{
#pragma omp target exit data map(from: p[0:n])
}

int main(void)
{
    int n = 1000, i;
    double *x, *y, *z;
    double sx = 0, sy = 0;
    int *counts = malloc(10 * sizeof *counts);

    x = vec_create(n, 1.0);
    y = vec_create(n, 0.0);
    vec_axpy(y, x, 2.0, n);
    vec_axpy(y, x, -0.5, n);
    vec_destroy_fetch(y, n);
#pragma omp target exit data map(delete: x[0:n])
    for (i = 0; i < n; i++) {
        sx += x[i];
        sy += y[i];
    }
    printf("sum x = %.1f, sum y = %.1f, y[0] = %.2f, y[n-1] = %.2f\n", sx, sy, y[0], y[n - 1]);

    /* alloc on enter, computed on device, copied with from on exit */
    z = malloc(n * sizeof *z);
#pragma omp target enter data map(alloc: z[0:n])
#pragma omp target teams distribute parallel for map(tofrom: z[0:n])
    for (i = 0; i < n; i++)
        z[i] = i * 0.5;
#pragma omp target exit data map(from: z[0:n])
    printf("z[10] = %.1f, z[n-1] = %.1f\n", z[10], z[n - 1]);

    /* reference counting: entered twice, released once, still present for the next region */
    for (i = 0; i < 10; i++)
        counts[i] = i;
#pragma omp target enter data map(to: counts[0:10])
#pragma omp target enter data map(to: counts[0:10])
#pragma omp target exit data map(release: counts[0:10])
#pragma omp target map(tofrom: counts[0:10])
    {
        int j;
        for (j = 0; j < 10; j++)
            counts[j] *= 3;
    }
#pragma omp target exit data map(from: counts[0:10])
    printf("counts:");
    for (i = 0; i < 10; i++)
        printf(" %d", counts[i]);
    printf("\n");
    free(x);
    free(y);
    free(z);
    free(counts);
    return 0;
}
