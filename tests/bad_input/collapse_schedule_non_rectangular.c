/* expect: 7:38: error: 'schedule' clause may not appear on non-rectangular 'for' */
#include <stdio.h>
int main(void)
{
    long sum = 0;
    /* OpenMP: no schedule clause when an associated loop is non-rectangular (gcc: the same words) */
#pragma omp parallel for collapse(2) schedule(dynamic, 4) reduction(+: sum)
    for (int i = 0; i < 40; i++)
        for (int j = i; j < 40; j++)
            sum += i * 100 + j;
    printf("%ld\n", sum);
    return 0;
}
