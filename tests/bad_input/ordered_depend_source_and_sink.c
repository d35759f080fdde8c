/* expect: 12:21: error: 'depend(source)' and 'depend(sink: ...)' on the same 'ordered' construct */
/* An ordered construct both waiting for an earlier iteration and saying this one is done
 * (gcc: "'depend(source)' clause specified together with 'depend(sink:)' clauses on the
 * same construct"). */
#include <stdio.h>

int main(void)
{
    double a[64] = {1.0};
#pragma omp parallel for ordered(1)
    for (int i = 1; i < 64; i++) {
#pragma omp ordered depend(source) depend(sink: i - 1)
        a[i] = a[i - 1] * 0.5 + 1.0;
    }
    printf("%g\n", a[63]);
    return 0;
}
