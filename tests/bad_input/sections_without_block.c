/* expect: 7:5: error: expected '{' after '#pragma omp parallel sections' */
#include <stdio.h>

int main(void) {
    int done = 0;
#pragma omp parallel sections
    done = 1;
    printf("%d\n", done);
    return 0;
}
