/* expect: 9:47: error: 'tmp' appears more than once in data clauses */
#include <stdio.h>

int main(void) {
    double a[100], tmp = 0.0;
    int i;
    for (i = 0; i < 100; i++)
        a[i] = i;
#pragma omp parallel for private(tmp) private(tmp)
    for (i = 0; i < 100; i++) {
        tmp = a[i] * 2.0;
        a[i] = tmp;
    }
    printf("%f\n", a[99]);
    return 0;
}
