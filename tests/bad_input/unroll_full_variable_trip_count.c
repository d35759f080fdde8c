/* expect: 8:5: error: 'unroll full' needs a loop whose iteration count is a compile-time constant */
#include <stdio.h>
int main(int argc, char **argv)
{
    long sum = 0;
    /* full unrolling needs a constant iteration count (OpenMP 5.1 2.11.9.2) */
#pragma omp unroll full
    for (int i = 0; i < argc * 10; i++)
        sum += i;
    printf("%ld %s\n", sum, argv[0]);
    return 0;
}
