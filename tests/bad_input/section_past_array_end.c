/* expect: 9:37: error: array section [8:16] in 'map' clause goes past the end of 'cells' */
#include <stdio.h>
#define CELLS 16

int main(void) {
    int cells[CELLS];
    int i;
    for (i = 0; i < CELLS; i++) cells[i] = i;
#pragma omp target map(tofrom: cells[8:CELLS])
    for (i = 8; i < CELLS; i++)
        cells[i] += 1;
    printf("%d\n", cells[15]);
    return 0;
}
