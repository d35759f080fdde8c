/* lastprivate: the value from the sequentially last iteration (and last section) is copied out. */
#include <stdio.h>

#define N 1000

int main(void)
{
    int i, last = -1, sq = -1, j;
    double d = 0;
    int a[N];

#pragma omp parallel for lastprivate(last, sq)
    for (i = 0; i < N; i++) {
        last = i;
        sq = i * i;
    }
    printf("last = %d, sq = %d\n", last, sq);

    /* the loop variable itself after the loop */
#pragma omp parallel for lastprivate(i)
    for (i = 0; i < 77; i += 5)
        a[i] = i;
    printf("i after loop = %d, a[75] = %d\n", i, a[75]);

    /* lastprivate with firstprivate on the same variable */
    d = 1.5;
#pragma omp parallel for firstprivate(d) lastprivate(d)
    for (i = 0; i < N; i++)
        d = d + 0; /* keeps the initial value */
    printf("d = %.2f\n", d);

    /* lastprivate on a combined target construct */
    last = 0;
#pragma omp target teams distribute parallel for map(tofrom: last) lastprivate(last)
    for (i = 0; i < N; i++)
        last = 3 * i + 1;
    printf("target last = %d\n", last);

    /* lastprivate with collapse: the last (i, j) pair */
    {
        int li = -1, lj = -1;
#pragma omp parallel for collapse(2) lastprivate(li, lj)
        for (i = 0; i < 13; i++)
            for (j = 0; j < 17; j++) {
                li = i;
                lj = j;
            }
        printf("collapse last = (%d, %d)\n", li, lj);
    }
    /* lastprivate in sections */
    {
        int who = -1;
#pragma omp parallel sections lastprivate(who)
        {
#pragma omp section
            who = 1;
#pragma omp section
            who = 2;
#pragma omp section
            who = 3;
        }
        printf("sections last = %d\n", who);
    }
    /* lastprivate with schedule(dynamic) */
    last = -1;
#pragma omp parallel for schedule(dynamic, 3) lastprivate(last)
    for (i = 0; i < 100; i++)
        last = i * 2;
    printf("dynamic last = %d\n", last);
    /* lastprivate of an array */
    {
        int arr[3] = { 0, 0, 0 };
#pragma omp parallel for lastprivate(arr)
        for (i = 0; i < 10; i++) {
            arr[0] = i;
            arr[1] = i * 10;
            arr[2] = i * 100;
        }
        printf("array last = %d %d %d\n", arr[0], arr[1], arr[2]);
    }
    return 0;
}
