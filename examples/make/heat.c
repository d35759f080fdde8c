#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
#include "grid.h"

int main(int argc, char **argv) {
    int steps = argc > 1 ? atoi(argv[1]) : 200;
    struct grid g;
    grid_init(&g, 64);
    for (int s = 0; s < steps; s++)
        grid_step(&g, 0.25);
    double total = 0.0;
    for (int i = 0; i < g.n; i++)
        total += g.t[i];
    printf("after %d steps: t[1] = %.6f, t[8] = %.6f, total %.6f (%d devices)\n", steps, g.t[1], g.t[8], total,
           omp_get_num_devices());
    grid_free(&g);
    return 0;
}
