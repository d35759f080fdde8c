/* expect: 11:18: error: the bounds of a collapsed loop use 'i', the variable of an outer collapsed loop: non-rectangular loop nests (OpenMP 5.0) are not supported */
#include <stdio.h>
#define N 10
int main(void)
{
    int a[N][N] = {{0}}, i, j, sum = 0;
    /* a triangle: OpenMP 5.0 allows the inner bound to use i, OpenMP 4.5 does not, and
       counting it as a square would run iterations that do not exist */
#pragma omp target teams distribute parallel for collapse(2) map(tofrom: a)
    for (i = 0; i < N; i++)
        for (j = i; j < N; j++)
            a[i][j] = 1;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            sum += a[i][j];
    printf("%d\n", sum);
    return 0;
}
