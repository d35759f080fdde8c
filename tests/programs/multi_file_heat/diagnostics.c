#include "heat.h"

/* A third static clamp: saturates at zero only. */
static double clamp(double v)
{
    return v < 0.0 ? 0.0 : v;
}

double heat_total(void)
{
    double total = 0.0;
    int n = CELLS;
    #pragma omp target teams distribute parallel for reduction(+: total) map(to: grid[0:n])
    for (int c = 0; c < n; c++)
        total += clamp(grid[c]);
    return total;
}

double heat_max(void)
{
    double peak = 0.0;
    #pragma omp target teams distribute parallel for reduction(max: peak) map(to: grid[0:CELLS])
    for (int c = 0; c < CELLS; c++)
        peak = grid[c] > peak ? grid[c] : peak;
    return peak;
}

long hot_cells(double threshold)
{
    long count = 0;
    /* A stencil evaluated here, in another file's kernel: stencil_point and
       cell_index come from stencil.c's device code, diffusivity from grid.c's. */
    #pragma omp target teams distribute parallel for collapse(2) reduction(+: count) \
            map(to: grid[0:CELLS])
    for (int j = 1; j < NY - 1; j++)
        for (int i = 1; i < NX - 1; i++)
            if (stencil_point(grid, i, j) > threshold)
                count++;
    return count;
}
