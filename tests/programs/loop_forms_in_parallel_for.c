/* Canonical loop forms accepted by omp for: unsigned, long long, <=, >, >=, negative and runtime steps,
   pointer iteration variables, bounds that are expressions. */
#include <stdio.h>

#define N 100

static int upper(void) { return N - 3; }

int main(void)
{
    int a[N], i;
    unsigned u;
    long long ll;
    long s;
    int *p;
    int step = 3, lo = 2;

#define RESET() for (i = 0; i < N; i++) a[i] = 0
#define REPORT(name) do { s = 0; for (i = 0; i < N; i++) s += (long)a[i] * (i + 1); printf("%-10s %ld\n", name, s); } while (0)

    RESET();
#pragma omp parallel for
    for (u = 0; u < N; u++)
        a[u] = 1;
    REPORT("unsigned");

    RESET();
#pragma omp parallel for
    for (ll = 10; ll <= 90; ll++)
        a[ll] = 2;
    REPORT("long long");

    RESET();
#pragma omp parallel for
    for (i = N - 1; i > 50; i--)
        a[i] = 3;
    REPORT(">");

    RESET();
#pragma omp parallel for
    for (i = N - 1; i >= 0; i -= 7)
        a[i] = 4;
    REPORT(">= -7");

    RESET();
#pragma omp parallel for
    for (i = lo; i < upper(); i += step)
        a[i] = 5;
    REPORT("runtime");

    RESET();
#pragma omp parallel for
    for (i = lo * 2; i <= lo * 20; i = i + step)
        a[i] = 6;
    REPORT("i=i+step");

    RESET();
#pragma omp parallel for
    for (p = a; p < a + N; p += 2)
        *p = 7;
    REPORT("pointer");

    RESET();
#pragma omp parallel for
    for (i = 0; i < N; i += N)
        a[i] = 8;
    REPORT("one trip");

    /* unsigned loop counting down to zero inclusive via > */
    RESET();
#pragma omp parallel for
    for (u = N; u > 0; u--)
        a[u - 1] += 9;
    REPORT("unsigned>");

    /* same shapes inside a target region */
    RESET();
#pragma omp target teams distribute parallel for map(tofrom: a)
    for (i = N - 2; i >= 1; i -= 3)
        a[i] = 10;
    REPORT("target -3");

    RESET();
#pragma omp target teams distribute parallel for map(tofrom: a)
    for (u = 5; u <= 95; u += 5)
        a[u] = 11;
    REPORT("target u");

    RESET();
#pragma omp target teams distribute parallel for map(tofrom: a)
    for (ll = 1; ll < N; ll += 9)
        a[ll] = 12;
    REPORT("target ll");
    return 0;
}
