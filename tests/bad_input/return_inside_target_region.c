/* expect: 9:13: error: invalid branch to/from OpenMP structured block ('return' inside '#pragma omp target') */
#include <stdio.h>

static int check(double *a, int n)
{
#pragma omp target map(to: a[0:n])
    {
        if (a[0] < 0)
            return 1;
    }
    return 0;
}

int main(void)
{
    double a[4] = { 1, 2, 3, 4 };
    printf("%d\n", check(a, 4));
    return 0;
}
