/* The program's requirement: unified_shared_memory (scale.c forgets to say it). */
#pragma omp requires unified_shared_memory
#include <stdio.h>
#include <stdlib.h>

void scale(double *a, int n, double factor);

int main(void) {
    int n = 8;
    double *a = malloc(n * sizeof *a);
    for (int i = 0; i < n; i++) a[i] = i;
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++) a[i] += 1;
    scale(a, n, 2.0);
    printf("%g %g\n", a[0], a[n - 1]);
    free(a);
    return 0;
}
