#include "heat.h"

/* Not the same function as grid.c's clamp: this one wraps, and is static too. */
static int clamp(int v, int n)
{
    return (v % n + n) % n;
}

#pragma omp declare target
int cell_index(int i, int j)
{
    return j * NX + i;
}

double stencil_point(const double *g, int i, int j)
{
    double centre = g[cell_index(i, j)];
    double sum = g[cell_index(i - 1, j)] + g[cell_index(i + 1, j)]
               + g[cell_index(i, j - 1)] + g[cell_index(i, j + 1)];
    return centre + diffusivity * (sum - 4.0 * centre);
}
#pragma omp end declare target

void heat_step(void)
{
    int n = CELLS;
    #pragma omp target teams distribute parallel for collapse(2) \
            map(to: grid[0:n]) map(from: scratch[0:n])
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++) {
            if (i == 0 || j == 0 || i == NX - 1 || j == NY - 1)
                scratch[cell_index(i, j)] = 0.0;
            else
                scratch[cell_index(i, j)] = stencil_point(grid, i, j);
        }
    /* Copy back with a wrapped row offset of zero: exercises this file's clamp. */
    #pragma omp target teams distribute parallel for map(to: scratch[0:n]) map(from: grid[0:n])
    for (int c = 0; c < n; c++)
        grid[c] = scratch[clamp(c, n)];
}
