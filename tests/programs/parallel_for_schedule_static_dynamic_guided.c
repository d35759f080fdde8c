/* Every schedule kind executes each iteration exactly once and produces the same results. */
#include <stdio.h>

#define N 1000

static int hits[N];
static double out[N];

static void reset(void)
{
    int i;
    for (i = 0; i < N; i++) {
        hits[i] = 0;
        out[i] = 0;
    }
}

static void report(const char *name)
{
    int i, once = 1;
    double s = 0;
    for (i = 0; i < N; i++) {
        once = once && hits[i] == 1;
        s += out[i];
    }
    printf("%-16s each once: %d, sum = %.1f\n", name, once, s);
}

static double work(int i) { return (double)((i * 31) % 17); }

int main(void)
{
    int i;

    reset();
#pragma omp parallel for schedule(static)
    for (i = 0; i < N; i++) { hits[i]++; out[i] = work(i); }
    report("static");

    reset();
#pragma omp parallel for schedule(static, 7)
    for (i = 0; i < N; i++) { hits[i]++; out[i] = work(i); }
    report("static,7");

    reset();
#pragma omp parallel for schedule(dynamic)
    for (i = 0; i < N; i++) { hits[i]++; out[i] = work(i); }
    report("dynamic");

    reset();
#pragma omp parallel for schedule(dynamic, 16)
    for (i = 0; i < N; i++) { hits[i]++; out[i] = work(i); }
    report("dynamic,16");

    reset();
#pragma omp parallel for schedule(guided)
    for (i = 0; i < N; i++) { hits[i]++; out[i] = work(i); }
    report("guided");

    reset();
#pragma omp parallel for schedule(guided, 5)
    for (i = 0; i < N; i++) { hits[i]++; out[i] = work(i); }
    report("guided,5");

    reset();
#pragma omp parallel for schedule(runtime)
    for (i = 0; i < N; i++) { hits[i]++; out[i] = work(i); }
    report("runtime");

    reset();
#pragma omp parallel for schedule(auto)
    for (i = 0; i < N; i++) { hits[i]++; out[i] = work(i); }
    report("auto");

    /* uneven work with dynamic scheduling and a reduction */
    {
        long s = 0;
#pragma omp parallel for schedule(dynamic, 1) reduction(+: s)
        for (i = 0; i < 200; i++) {
            int k;
            for (k = 0; k < i; k++)
                s += k % 3;
        }
        printf("triangular s = %ld\n", s);
    }
    /* omp for with nowait followed by a barrier, inside one parallel region */
    reset();
#pragma omp parallel
    {
#pragma omp for schedule(static) nowait
        for (i = 0; i < N / 2; i++) { hits[i]++; out[i] = work(i); }
#pragma omp for schedule(dynamic, 4) nowait
        for (i = N / 2; i < N; i++) { hits[i]++; out[i] = work(i); }
#pragma omp barrier
    }
    report("nowait pair");
    /* iteration space with a negative stride */
    reset();
#pragma omp parallel for schedule(guided, 3)
    for (i = N - 1; i >= 0; i -= 1) { hits[i]++; out[i] = work(i); }
    report("guided reverse");
    return 0;
}
