/* expect: 8:5: error: non-rectangular loop nest: a loop construct over the tile loops that 'tile' generates (collapsing more than its floor loops) is not supported */
#include <stdio.h>
int main(void)
{
    static int a[32][32];
#pragma omp parallel for collapse(3)
#pragma omp tile sizes(4, 4)
    for (int i = 0; i < 32; i++)
        for (int j = 0; j < 32; j++)
            a[i][j] = i + j;
    printf("%d\n", a[3][5]);
    return 0;
}
