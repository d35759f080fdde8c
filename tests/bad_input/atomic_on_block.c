/* expect: 10:9: error: '#pragma omp atomic' must be followed by an expression statement */
#include <stdio.h>

int main(void) {
    int hits = 0, i;
#pragma omp parallel for
    for (i = 0; i < 100; i++) {
        if (i % 3 == 0)
#pragma omp atomic
        {
            hits += 1;
        }
    }
    printf("%d\n", hits);
    return 0;
}
