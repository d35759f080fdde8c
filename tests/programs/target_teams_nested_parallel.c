/* Non-combined nesting: target teams distribute with a parallel for inside each distributed iteration,
   and target teams with a parallel region using omp for. */
#include <stdio.h>

#define NB 16
#define M 256

int main(void)
{
    static double out[NB * M];
    static int rowsum[NB];
    int b, i;
    double s = 0;
    long rs = 0;

#pragma omp target teams distribute map(from: out, rowsum)
    for (b = 0; b < NB; b++) {
        int acc = 0;
        int j;
#pragma omp parallel for
        for (j = 0; j < M; j++)
            out[b * M + j] = b + j * 0.5;
#pragma omp parallel for reduction(+: acc)
        for (j = 0; j < M; j++)
            acc += (b * j) % 7;
        rowsum[b] = acc;
    }
    for (i = 0; i < NB * M; i++)
        s += out[i];
    for (b = 0; b < NB; b++)
        rs += rowsum[b] * (long)(b + 1);
    printf("s = %.1f, rs = %ld, rowsum[3] = %d\n", s, rs, rowsum[3]);

    /* distribute then a parallel region with a worksharing loop and a single */
    {
        static int grid[NB][M];
        static int firsts[NB];
#pragma omp target teams distribute map(from: grid, firsts)
        for (b = 0; b < NB; b++) {
#pragma omp parallel
            {
                int j;
#pragma omp for
                for (j = 0; j < M; j++)
                    grid[b][j] = b * 1000 + j;
#pragma omp single
                firsts[b] = grid[b][M - 1] - grid[b][0];
            }
        }
        rs = 0;
        for (b = 0; b < NB; b++)
            for (i = 0; i < M; i++)
                rs += grid[b][i] % 97;
        printf("grid checksum = %ld, firsts[0] = %d, firsts[15] = %d\n", rs, firsts[0], firsts[NB - 1]);
    }

    /* target (no teams) with a parallel for and a sequential part before and after */
    {
        int data[M], total = 0;
#pragma omp target map(from: data) map(tofrom: total)
        {
            int j, base = 7;
#pragma omp parallel for
            for (j = 0; j < M; j++)
                data[j] = base + j;
            for (j = 0; j < M; j++)
                total += data[j] % 5;
        }
        printf("data[255] = %d, total = %d\n", data[M - 1], total);
    }
    /* distribute with dist_schedule and a reduction over teams */
    {
        long t = 0;
#pragma omp target teams distribute dist_schedule(static, 2) map(tofrom: t) reduction(+: t)
        for (b = 0; b < 100; b++)
            t += b * b;
        printf("teams reduction t = %ld\n", t);
    }
    return 0;
}
