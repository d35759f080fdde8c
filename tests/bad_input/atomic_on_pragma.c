/* expect: 9:9: error: '#pragma omp atomic' must be followed by an expression statement */
#include <stdio.h>

int main(void) {
    int count = 0;
#pragma omp parallel
    {
#pragma omp atomic
#pragma omp critical
        count++;
    }
    printf("%d\n", count);
    return 0;
}
