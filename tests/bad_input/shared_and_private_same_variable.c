/* expect: 6:43: error: 'work' appears more than once in data clauses */
#include <stdio.h>

int main(void) {
    int work = 3;
#pragma omp parallel shared(work) private(work)
    work = 4;
    printf("%d\n", work);
    return 0;
}
