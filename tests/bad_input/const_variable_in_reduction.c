/* expect: 8:39: error: 'const' qualified 'total' may appear only in 'shared' or 'firstprivate' clauses */
#include <stdio.h>

int main(void) {
    const int total = 0;
    int v[10], i;
    for (i = 0; i < 10; i++) v[i] = i;
#pragma omp parallel for reduction(+: total)
    for (i = 0; i < 10; i++)
        printf("%d\n", v[i]);
    return total;
}
