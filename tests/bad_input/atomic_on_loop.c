/* expect: 7:5: error: '#pragma omp atomic' must be followed by an expression statement */
#include <stdio.h>

int main(void) {
    int count = 0, i;
#pragma omp atomic
    for (i = 0; i < 10; i++)
        count++;
    printf("%d\n", count);
    return 0;
}
