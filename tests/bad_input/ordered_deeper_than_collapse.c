/* expect: 13:26: error: 'ordered(2)' on a loop nest with 1 collapsed loop(s) (a doacross loop nest) is not supported */
/* A wavefront over a grid: ordered(2) associates both loops (j is private, the nest a
   doacross one), which omp2gpu does not compile; compiled as one loop, j was shared. */
#include <stdio.h>

#define ROWS 64
#define COLS 48

int main(void)
{
    static double grid[ROWS][COLS];
    int i, j;
#pragma omp parallel for ordered(2)
    for (i = 1; i < ROWS; i++)
        for (j = 1; j < COLS; j++)
            grid[i][j] = 0.5 * (grid[i - 1][j] + grid[i][j - 1]) + 1.0;
    printf("%.3f\n", grid[ROWS - 1][COLS - 1]);
    return 0;
}
