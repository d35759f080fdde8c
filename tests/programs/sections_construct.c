/* sections / parallel sections: each section runs exactly once, on some thread. */
#include <stdio.h>

static long sum_range(int lo, int hi)
{
    long s = 0;
    int i;
    for (i = lo; i < hi; i++)
        s += i;
    return s;
}

int main(void)
{
    long a = 0, b = 0, c = 0, d = 0;
    int runs = 0, k;
    int order_ok = 1;

#pragma omp parallel sections
    {
#pragma omp section
        a = sum_range(0, 1000);
#pragma omp section
        b = sum_range(1000, 2000);
#pragma omp section
        c = sum_range(2000, 3000);
#pragma omp section
        {
            d = sum_range(3000, 4000);
            d = -d;
        }
    }
    printf("a %ld b %ld c %ld d %ld total %ld\n", a, b, c, d, a + b + c - d);

    /* sections inside a parallel region, with a reduction */
#pragma omp parallel reduction(+: runs)
    {
#pragma omp sections
        {
#pragma omp section
            runs += 1;
#pragma omp section
            runs += 10;
#pragma omp section
            runs += 100;
        }
    }
    printf("runs = %d\n", runs);

    /* sections with firstprivate (a thread may run several sections, so the copies are only read),
       then a single after their barrier */
    {
        int base = 5, out[3] = { 0, 0, 0 };
#pragma omp parallel
        {
#pragma omp sections firstprivate(base)
            {
#pragma omp section
                out[0] = base + 1;
#pragma omp section
                out[1] = base + 2;
#pragma omp section
                out[2] = base + 3;
            }
#pragma omp single
            order_ok = out[0] == 6 && out[1] == 7 && out[2] == 8;
        }
        printf("firstprivate sections ok: %d, base = %d\n", order_ok, base);
    }
    /* more sections than threads and a single section */
    {
        int marks[6] = { 0 };
#pragma omp parallel sections num_threads(2)
        {
#pragma omp section
            marks[0]++;
#pragma omp section
            marks[1]++;
#pragma omp section
            marks[2]++;
#pragma omp section
            marks[3]++;
#pragma omp section
            marks[4]++;
#pragma omp section
            marks[5]++;
        }
        printf("marks:");
        for (k = 0; k < 6; k++)
            printf(" %d", marks[k]);
        printf("\n");
    }
#pragma omp parallel sections
    {
        runs = -1;
    }
    printf("single implicit section runs = %d\n", runs);
    return 0;
}
