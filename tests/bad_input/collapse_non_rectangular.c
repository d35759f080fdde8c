/* expect: 11:25: error: the bound of a collapsed loop must be an affine expression of the outer loop variable 'i' (a * i + b, OpenMP 5.0 2.9.1) */
#include <stdio.h>
#define N 10
int main(void)
{
    int a[N][N] = {{0}}, i, j, sum = 0;
    /* OpenMP 5.0 allows an inner bound a * i + b of an outer collapsed variable, not i / 2:
       gcc rejects it too */
#pragma omp target teams distribute parallel for collapse(2) map(tofrom: a)
    for (i = 0; i < N; i++)
        for (j = 0; j < i / 2; j++)
            a[i][j] = 1;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            sum += a[i][j];
    printf("%d\n", sum);
    return 0;
}
