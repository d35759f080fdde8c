/* expect: 7:13: error: '#pragma omp tile' needs at least one 'sizes' clause */
#include <stdio.h>
int main(void)
{
    int a[16][16];
    /* tile needs its sizes (OpenMP 5.1 2.11.9.1) */
#pragma omp tile
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++)
            a[i][j] = i + j;
    printf("%d\n", a[3][4]);
    return 0;
}
