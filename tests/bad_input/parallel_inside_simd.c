/* expect: 12:17: error: OpenMP constructs other than 'ordered simd', 'simd', 'loop', 'atomic' or 'scan' may not be nested inside a 'simd' region ('parallel for' is) */
/* Fuzz campaign 2026-11-29 (seed 3401001): a construct inside a simd region other than
 * those OpenMP 5.1 2.11.5.1 lets a simd region encounter (gcc and clang refuse it):
 * accepted before. */
#include <stdio.h>

int main(void)
{
    double sum[8] = {0};
#pragma omp simd
    for (int i = 0; i < 8; i++) {
        #pragma omp parallel for
        for (int j = 0; j < 4; j++)
            sum[i] += j;
    }
    printf("%g\n", sum[7]);
    return 0;
}
