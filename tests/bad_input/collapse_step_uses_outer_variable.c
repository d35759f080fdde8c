/* expect: 10:19: error: the increment of a collapsed loop may not use 'i', the variable of an outer loop of the nest (OpenMP 5.0 2.9.1) */
#include <stdio.h>
int main(void)
{
    long sum = 0;
    /* only the bounds may be affine in an outer variable: the increment is loop invariant */
#pragma omp parallel for collapse(2) reduction(+: sum)
    for (int i = 1; i < 8; i++)
        for (int j = 0; j < 64;
             j += i)
            sum += j;
    printf("%ld\n", sum);
    return 0;
}
