/* expect: 6:39: error: expected 'scalar' or 'aggregate' or 'pointer' or 'all' in 'defaultmap' category */
#include <stdio.h>

int main(void) {
    double a[64];
#pragma omp target defaultmap(tofrom: array)
    a[0] = 1.0;
    printf("%f\n", a[0]);
    return 0;
}
