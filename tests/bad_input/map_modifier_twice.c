/* expect: 6:40: error: the 'present' modifier is given twice */
#include <stdio.h>

int main(void) {
    double a[64];
#pragma omp target map(present, always present, to: a)
    a[0] = 1.0;
    printf("%f\n", a[0]);
    return 0;
}
