/* expect: 7:58: error: variable-length array 'work' in a private, firstprivate, lastprivate or reduction clause is not supported */
#include <stdio.h>
int main(int argc, char **argv) {
    int n = argc + 3;
    double work[n];
    double total = 0;
    #pragma omp parallel for reduction(+: total) private(work)
    for (int i = 0; i < 100; i++) {
        for (int j = 0; j < n; j++) work[j] = i + j;
        total += work[n - 1];
    }
    printf("%g\n", total);
    return 0;
}
