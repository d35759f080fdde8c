/* expect: 8:43: error: variable-length array 'histogram' in a reduction clause is not supported */
#include <stdio.h>
int main(int argc, char **argv) {
    int bins = argc + 3;
    int histogram[bins];
    for (int b = 0; b < bins; b++)
        histogram[b] = 0;
    #pragma omp parallel for reduction(+: histogram)
    for (int i = 0; i < 100; i++)
        histogram[i % bins]++;
    printf("%d\n", histogram[0]);
    return 0;
}
