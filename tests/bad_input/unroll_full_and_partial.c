/* expect: 7:25: error: 'full' and 'partial' cannot both appear on '#pragma omp unroll' */
#include <stdio.h>
int main(void)
{
    long sum = 0;
    /* one or the other */
#pragma omp unroll full partial(2)
    for (int i = 0; i < 8; i++)
        sum += i;
    printf("%ld\n", sum);
    return 0;
}
