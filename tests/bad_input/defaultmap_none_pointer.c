/* expect: 11:9: error: 'p' not specified in enclosing 'target' (it has 'defaultmap(none)' for its category: list it in a map or data-sharing clause) */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    int n = 100, scale = 3;
    int *p = malloc(n * sizeof(int));
    /* scalars may be implicit (firstprivate); pointers must be listed */
#pragma omp target defaultmap(none: pointer)
    for (int i = 0; i < n; i++)
        p[i] = scale * i;
    printf("%d\n", p[n - 1]);
    free(p);
    return 0;
}
