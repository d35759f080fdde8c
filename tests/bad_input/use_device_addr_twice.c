/* expect: 7:63: error: 'halo' appears more than once in data clauses */
#include <stdio.h>
int main(void)
{
    double grid[16], halo[4];
#pragma omp target data map(tofrom: grid, halo)
#pragma omp target data use_device_addr(halo) use_device_addr(halo)
    printf("%p\n", (void *)grid);
    return 0;
}
