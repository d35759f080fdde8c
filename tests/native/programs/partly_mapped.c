/* A section sticking out of a mapped one: the OpenMP 4.5 2.15.5 error, located. */
#include <stdio.h>

int main(void) {
    double a[100];
    for (int i = 0; i < 100; i++) a[i] = i;
    #pragma omp target data map(to: a[0:50])
    {
        #pragma omp target map(tofrom: a[25:50])
        a[30] += 1.0;
    }
    printf("not reached\n");
    return 0;
}
