/* expect: 9:9: error: 'ordered' region must be closely nested inside a loop region with an 'ordered' clause */
#include <stdio.h>

int main(void) {
    int i;
#pragma omp parallel for
    for (i = 0; i < 5; i++) {
        int square = i * i;
#pragma omp ordered
        printf("%d\n", square);
    }
    return 0;
}
