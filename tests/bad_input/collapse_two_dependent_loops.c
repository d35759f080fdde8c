/* expect: 10:13: error: non-rectangular loop nest: more than one loop whose bounds use an outer loop's variable is not supported */
#include <stdio.h>
int main(void)
{
    long sum = 0;
    /* a tetrahedron: OpenMP 5.0 allows it, omp2gpu counts one dependent loop a nest */
#pragma omp parallel for collapse(3) reduction(+: sum)
    for (int i = 0; i < 8; i++)
        for (int j = i; j < 8; j++)
            for (int k = j; k < 8; k++)
                sum += i + j + k;
    printf("%ld\n", sum);
    return 0;
}
