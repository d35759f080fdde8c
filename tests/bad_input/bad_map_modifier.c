/* expect: 7:24: error: unknown map type or modifier 'presnt' in 'map' clause */
#include <stdio.h>

int main(void) {
    double a[64];
#pragma omp target data map(tofrom: a)
#pragma omp target map(presnt, tofrom: a)
    for (int i = 0; i < 64; i++)
        a[i] = i;
    printf("%f\n", a[63]);
    return 0;
}
