/* expect: 12:13: error: 'total' not specified in enclosing 'parallel' */
#include <stdio.h>
#define N 1000

int main(void) {
    double x[N], total = 0.0;
    int i;
    for (i = 0; i < N; i++)
        x[i] = i * 0.5;
#pragma omp parallel for default(none) shared(x)
    for (i = 0; i < N; i++)
            total += x[i];
    printf("%g\n", total);
    return 0;
}
