/* Arrays declared inside target regions: per-iteration private arrays, and arrays declared at the
   top of a target region that are shared by the parallel loops inside it. */
#include <stdio.h>

#define N 512
#define K 8

int main(void)
{
    static int out[N];
    static double res[N];
    int i;
    long s = 0;
    double ds = 0;

    /* private scratch array per iteration */
#pragma omp target teams distribute parallel for map(from: out)
    for (i = 0; i < N; i++) {
        int tmp[K], j, acc = 0;
        for (j = 0; j < K; j++)
            tmp[j] = (i + j) % 5;
        for (j = K - 1; j >= 0; j--)
            acc = acc * 2 + tmp[j];
        out[i] = acc;
    }
    for (i = 0; i < N; i++)
        s += out[i];
    printf("private scratch: s = %ld, out[7] = %d\n", s, out[7]);

    /* array declared in the target region, shared by the team's parallel loops */
#pragma omp target map(from: res)
    {
        double buf[N];
        int j;
#pragma omp parallel for
        for (j = 0; j < N; j++)
            buf[j] = j * 0.5;
#pragma omp parallel for
        for (j = 0; j < N; j++)
            res[j] = buf[N - 1 - j] + buf[j];
    }
    for (i = 0; i < N; i++)
        ds += res[i];
    printf("shared local buffer: sum = %.1f, res[0] = %.1f\n", ds, res[0]);

    /* 2-D local array and a local struct inside a target region */
    {
        int trace = 0;
#pragma omp target map(tofrom: trace)
        {
            int m[6][6], r, c;
            struct { int lo, hi; } range = { 1, 5 };
            for (r = 0; r < 6; r++)
                for (c = 0; c < 6; c++)
                    m[r][c] = r * 6 + c;
            for (r = range.lo; r < range.hi; r++)
                trace += m[r][r];
        }
        printf("local 2-D trace = %d\n", trace);
    }
    /* local array initialized with an initializer list inside the loop body */
#pragma omp target teams distribute parallel for map(from: out)
    for (i = 0; i < N; i++) {
        const int w[4] = { 1, -2, 3, -4 };
        out[i] = w[i % 4] * i;
    }
    s = 0;
    for (i = 0; i < N; i++)
        s += out[i];
    printf("initialized local: s = %ld\n", s);
    return 0;
}
