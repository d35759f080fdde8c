/* Integer sum reductions on host parallel for, target combined constructs, and with several variables. */
#include <stdio.h>
#include <omp.h>

#define N 100000

int main(void)
{
    static int a[N];
    long sum = 0, sum2 = 0;
    int isum = 0, count = 0;
    long long big = 0;
    int i;

    for (i = 0; i < N; i++)
        a[i] = (i * 7) % 101 - 50;

#pragma omp parallel for reduction(+: sum)
    for (i = 0; i < N; i++)
        sum += a[i];
    printf("host sum = %ld\n", sum);

#pragma omp target teams distribute parallel for map(to: a) map(tofrom: sum2) reduction(+: sum2)
    for (i = 0; i < N; i++)
        sum2 += a[i];
    printf("target sum = %ld\n", sum2);

    /* reduction variable with a non-zero initial value */
    isum = 1000;
#pragma omp parallel for reduction(+: isum)
    for (i = 1; i <= 100; i++)
        isum += i;
    printf("isum = %d\n", isum);

    /* two reduction variables in one clause, one of them counting */
    sum = 0;
#pragma omp target teams distribute parallel for map(to: a) map(tofrom: sum, count) reduction(+: sum, count)
    for (i = 0; i < N; i++) {
        if (a[i] > 0) {
            sum += a[i];
            count++;
        }
    }
    printf("positive sum = %ld, count = %d\n", sum, count);

    /* long long reduction that exceeds 32 bits */
#pragma omp target teams distribute parallel for map(tofrom: big) reduction(+: big)
    for (i = 0; i < N; i++)
        big += (long long)i * i;
    printf("sum of squares = %lld\n", big);

    /* reduction inside a parallel region with an orphan-free omp for */
    sum = 0;
#pragma omp parallel
    {
#pragma omp for reduction(+: sum)
        for (i = 0; i < N; i++)
            sum += i % 3;
    }
    printf("sum mod 3 = %ld\n", sum);

    /* reduction on parallel (not for): every thread adds 1, then compared with the team size */
    {
        int threads_counted = 0, team_size = 0;
#pragma omp parallel reduction(+: threads_counted)
        {
            threads_counted += 1;
#pragma omp single
            team_size = omp_get_num_threads();
        }
        printf("threads counted matches team size: %d\n", threads_counted == team_size);
    }
    /* reduction with subtraction written as += of negatives */
    sum = 0;
#pragma omp parallel for reduction(+: sum)
    for (i = 0; i < 1000; i++)
        sum += -i;
    printf("negative sum = %ld\n", sum);
    return 0;
}
