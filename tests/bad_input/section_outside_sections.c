/* expect: 8:9: error: '#pragma omp section' may only be used in '#pragma omp sections' construct */
#include <stdio.h>

int main(void) {
    int left = 0, right = 0;
#pragma omp parallel shared(left, right)
    {
#pragma omp section
        left = 1;
#pragma omp section
        right = 2;
    }
    printf("%d %d\n", left, right);
    return 0;
}
