/* expect: 9:9: error: invalid form of '#pragma omp atomic read' */
#include <stdio.h>

int main(void) {
    int counter = 0;
#pragma omp parallel
    {
#pragma omp atomic read
        counter += 1;
    }
    printf("%d\n", counter);
    return 0;
}
