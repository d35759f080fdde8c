/* expect: 6:26: error: modifier should not be specified in 'linear' clause on 'simd' or 'for' constructs when not using OpenMP 5.2 modifiers */
#include <stdio.h>
int main(void)
{
    int i, j = 0, a[16];
#pragma omp parallel for linear(val(j): 1)
    for (i = 0; i < 16; i++) {
        a[i] = j;
        j++;
    }
    printf("%d\n", a[15]);
    return 0;
}
