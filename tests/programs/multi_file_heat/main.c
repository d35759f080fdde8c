#include <stdio.h>
#include <stdlib.h>
#include "heat.h"

static void report(int step)
{
    /* Totals are sums of multiples of 1/1024 well inside a double's precision,
       so any summation order prints the same digits. */
    printf("step %3d: total %.6f peak %.6f hot cells %ld\n",
           step, heat_total(), heat_max(), hot_cells(1.0));
}

int main(int argc, char **argv)
{
    heat_params params = { 12, 4, 0.125 };
    if (argc > 2)
        params.steps = 12 + (atoi(argv[2]) % 2);   /* "42": 12 steps */
    grid_init(64.0);
    report(0);
    for (int step = 1; step <= params.steps; step++) {
        heat_step();
        if (step % params.report_every == 0)
            report(step);
    }
    grid_set_diffusivity(0.25);
    heat_step();
    report(params.steps + 1);
    printf("corner %.6f centre %.6f\n", grid[cell_index(1, 1)], grid[cell_index(NX / 2, NY / 2)]);
    return 0;
}
