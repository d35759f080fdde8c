/* declare simd functions (with uniform/linear clauses) called from simd and parallel for simd loops. */
#include <stdio.h>

#define N 1000

#pragma omp declare simd
static int poly(int x) { return 3 * x * x - 2 * x + 1; }

#pragma omp declare simd uniform(a) linear(i: 1)
static double axpy_elem(double a, const double *x, int i) { return a * x[i] + 1.0; }

#pragma omp declare simd notinbranch
static float halve(float v) { return v * 0.5f; }

int main(void)
{
    static double x[N], y[N];
    static float f[N];
    long s = 0;
    double ds = 0;
    float fs = 0;
    int i;

    for (i = 0; i < N; i++) {
        x[i] = i % 10;
        f[i] = (float)(i % 8);
    }
#pragma omp simd reduction(+: s)
    for (i = 0; i < N; i++)
        s += poly(i % 50);
    printf("poly sum = %ld\n", s);

#pragma omp simd
    for (i = 0; i < N; i++)
        y[i] = axpy_elem(2.0, x, i);
    for (i = 0; i < N; i++)
        ds += y[i];
    printf("axpy sum = %.1f\n", ds);

#pragma omp parallel for simd reduction(+: fs)
    for (i = 0; i < N; i++)
        fs += halve(f[i]);
    printf("halve sum = %.1f\n", fs);
    /* declare simd functions are ordinary functions too */
    printf("poly(7) = %d, halve(3) = %.1f\n", poly(7), halve(3.0f));
    return 0;
}
