/* A map clause whose section length is computed negative at run time: a located error. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int n = argc - 5;
    double *a = malloc(16 * sizeof *a);
    (void)argv;
    #pragma omp target map(tofrom: a[0:n])
    a[0] = 1.0;
    printf("not reached\n");
    return 0;
}
