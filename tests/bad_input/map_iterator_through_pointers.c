/* expect: 10:47: error: 'rows[r][0:m]': an iterator map through the pointers 'rows[...]' (one section per pointed-to row) is not supported: map one array */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    int n = 4, m = 8;
    double **rows = malloc(n * sizeof(double *));
    for (int r = 0; r < n; r++) rows[r] = calloc(m, sizeof(double));
    /* each row is its own allocation: the rows are not one section */
#pragma omp target map(iterator(r = 0:n), to: rows[r][0:m])
    rows[0][0] = 1.0;
    printf("%f\n", rows[0][0]);
    return 0;
}
