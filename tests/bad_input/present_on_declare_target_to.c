/* expect: 5:28: error: 'to' clause modifiers are not valid on '#pragma omp declare target' */
#include <stdio.h>

double table[8];
#pragma omp declare target to(present: table)

int main(void) {
    printf("%f\n", table[0]);
    return 0;
}
