/* expect: 8:9: error: '#pragma omp parallel for' must be followed by a loop: 'unroll full' leaves none to associate with it */
#include <stdio.h>
int main(void)
{
    long sum = 0;
    /* `unroll full` generates no loop for the worksharing loop to share */
#pragma omp parallel for reduction(+: sum)
#pragma omp unroll full
    for (int i = 0; i < 8; i++)
        sum += i;
    printf("%ld\n", sum);
    return 0;
}
