/* expect: 13:9: error: 'atomic' may not be nested inside a region with the 'order(concurrent)' clause ('#pragma omp parallel for': only 'loop', 'parallel' and 'simd' constructs may) */
/* Fuzz campaign 2026-11-29 (seed 3401001): OpenMP 5.1 2.11.3 lets a region with
 * order(concurrent) encounter only loop, parallel and simd constructs (5.2 adds atomic;
 * gcc 12 and clang 19 refuse it): accepted before. */
#include <stdio.h>

int main(void)
{
    int histogram[4] = {0};
#pragma omp parallel for order(concurrent)
    for (int i = 0; i < 100; i++) {
        int bin = i % 4;
#pragma omp atomic update
        histogram[bin]++;
    }
    printf("%d\n", histogram[0]);
    return 0;
}
