/* expect: 11:9: error: reduction variable 'sum' is private in outer context */
#include <stdio.h>

#define N 100

int main(void)
{
    long sum = 0;
    /* no parallel region around the loop: main's sum is the initial thread's own, and a
       worksharing reduction's variable must be shared (gcc reports the same) */
#pragma omp for reduction(+: sum)
    for (int i = 0; i < N; i++)
        sum += i % 3;
    printf("%ld\n", sum);
    return 0;
}
