#include <stdio.h>
#include "heat.h"

double grid[CELLS];
double scratch[CELLS];

#pragma omp declare target
double diffusivity = 0.125;
#pragma omp end declare target

/* A static helper of this file; stencil.c and diagnostics.c have their own 'clamp'. */
static int clamp(int v, int lo, int hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

void grid_init(double hot)
{
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++)
            grid[j * NX + i] = 0.0;
    /* A hot square in the middle, clipped to the interior. */
    for (int j = NY / 2 - 4; j < NY / 2 + 4; j++)
        for (int i = NX / 2 - 6; i < NX / 2 + 6; i++)
            grid[clamp(j, 1, NY - 2) * NX + clamp(i, 1, NX - 2)] = hot;
    #pragma omp target update to(diffusivity)
}

void grid_set_diffusivity(double alpha)
{
    diffusivity = alpha;
    #pragma omp target update to(diffusivity)
}
