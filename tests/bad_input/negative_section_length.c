/* expect: 11:36: error: negative length in array section in 'map' clause */
#include <stdio.h>
#define N 128
#define HALO 2

int main(void) {
    double u[N];
    int i;
    for (i = 0; i < N; i++)
        u[i] = i;
#pragma omp target map(tofrom: u[0:HALO - 4])
    for (i = 0; i < N; i++)
        u[i] *= 0.5;
    printf("%f\n", u[1]);
    return 0;
}
