/* expect: 8:26: error: loop is not in OpenMP canonical form: a loop whose test is '!=' must step by 1 or -1 */
#include <stdio.h>
int main(void)
{
    int a[64], i;
    /* i != 63 with a step of 2 from 0 never meets the bound: OpenMP 5.0 allows '!=' only with unit steps */
#pragma omp parallel for
    for (i = 0; i != 63; i += 2)
        a[i] = i;
    printf("%d\n", a[2]);
    return 0;
}
