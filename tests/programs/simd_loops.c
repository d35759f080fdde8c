/* simd, parallel for simd, target ... simd, linear/safelen clauses (declare simd: declare_simd_function.c). */
#include <stdio.h>

#define N 4096

static int f(int x) { return 3 * x + 1; }

int main(void)
{
    static int a[N], b[N], c[N];
    static double d[N];
    long s = 0;
    int i, j;
    double ds = 0;

    for (i = 0; i < N; i++) {
        a[i] = i % 100;
        b[i] = (i * 3) % 17;
    }
#pragma omp simd
    for (i = 0; i < N; i++)
        c[i] = a[i] * b[i];
    for (i = 0; i < N; i++)
        s += c[i];
    printf("simd product sum = %ld\n", s);

    s = 0;
#pragma omp simd reduction(+: s)
    for (i = 0; i < N; i++)
        s += f(a[i]);
    printf("simd reduction calling a function = %ld\n", s);

#pragma omp parallel for simd
    for (i = 0; i < N; i++)
        d[i] = a[i] * 0.5;
    for (i = 0; i < N; i++)
        ds += d[i];
    printf("parallel for simd sum = %.1f\n", ds);

    /* linear clause: j advances by 2 each iteration */
    j = 0;
#pragma omp simd linear(j: 2)
    for (i = 0; i < 100; i++) {
        c[i] = j;
        j += 2;
    }
    printf("linear: c[0] = %d, c[99] = %d, j = %d\n", c[0], c[99], j);

    /* safelen: a dependence distance of 4 is respected */
    for (i = 0; i < 64; i++)
        b[i] = i;
#pragma omp simd safelen(4)
    for (i = 4; i < 64; i++)
        b[i] = b[i - 4] + 1;
    printf("safelen: b[63] = %d, b[60] = %d\n", b[63], b[60]);

    s = 0;
#pragma omp target teams distribute parallel for simd map(to: a) map(tofrom: s) reduction(+: s)
    for (i = 0; i < N; i++)
        s += a[i] * 2;
    printf("target simd sum = %ld\n", s);

    s = 0;
#pragma omp parallel for simd collapse(2) reduction(+: s)
    for (i = 0; i < 64; i++)
        for (j = 0; j < 64; j++)
            s += i ^ j;
    printf("collapsed simd sum = %ld\n", s);
    return 0;
}
