/* expect: 11:49: error: 'linear' clause for 'x', which is not the loop's iteration variable, on '#pragma omp target teams distribute simd' (a construct combined with 'distribute') */
#include <stdio.h>

int main(void)
{
    int a[64], x = 0, i;
    /* Every team would read x while the one with the last iteration copies it out:
     * OpenMP 5.0 allows only the loop's own variable (gcc: "'linear' clause for
     * variable other than loop iterator specified on construct combined with 'distribute'"). */
#pragma omp target teams distribute simd map(from: a) linear(i) \
                                         linear(x: 2)
    for (i = 0; i < 64; i++) {
        a[i] = x;
        x += 2;
    }
    printf("%d %d\n", a[63], x);
    return 0;
}
