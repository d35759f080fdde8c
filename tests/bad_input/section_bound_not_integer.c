/* expect: 8:35: error: low bound of array section does not have integer type */
#include <stdio.h>

int main(void) {
    float data[64];
    double start = 0.5;
    int n = 32, i;
#pragma omp target map(from: data[start:n])
    for (i = 0; i < n; i++)
        data[i] = i;
    printf("%f\n", data[3]);
    return 0;
}
