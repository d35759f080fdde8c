/* expect: 14:48: error: more than one 'depend(source)' clause on an 'ordered' construct */
/* Fuzz campaign 2026-11-29 (seed 3401001): two depend(source) clauses on one ordered
 * construct (gcc: "more than one 'depend' clause with 'source' modifier on an 'ordered'
 * construct"): accepted before. */
#include <stdio.h>

int main(void)
{
    double a[64] = {1.0};
#pragma omp parallel for ordered(1)
    for (int i = 1; i < 64; i++) {
#pragma omp ordered depend(sink: i - 1)
        a[i] = a[i - 1] * 0.5 + 1.0;
            #pragma omp ordered depend(source) depend(source)
    }
    printf("%g\n", a[63]);
    return 0;
}
