/* A 1-D heat equation stepped on a device, for the debugging tools
 * (tests/native/test_debugging.py, docs/debugging.md): built with -g, gdb stops at the
 * line marked BREAK inside the target region (on the host and on the CPU device) and
 * prints the region's variables; valgrind runs its host fallback; readelf shows its
 * line table. */
#include <stdio.h>
#include <stdlib.h>

struct rod {
    int cells;
    double *temperature;
    double *next;
};

static struct rod rod_new(int cells)
{
    struct rod r;
    r.cells = cells;
    r.temperature = malloc(sizeof(double) * cells);
    r.next = malloc(sizeof(double) * cells);
    for (int i = 0; i < cells; i++)
        r.temperature[i] = i == cells / 2 ? 100.0 : 0.0;
    return r;
}

int main(int argc, char **argv)
{
    int cells = argc > 1 ? atoi(argv[1]) : 32;
    int steps = argc > 2 ? atoi(argv[2]) : 4;
    const double diffusivity = 0.25;
    struct rod rod = rod_new(cells);
    double *t = rod.temperature, *next = rod.next;
    #pragma omp target data map(tofrom: t[0:cells]) map(alloc: next[0:cells])
    for (int step = 0; step < steps; step++) {
        #pragma omp target teams distribute parallel for firstprivate(diffusivity)
        for (int i = 1; i < cells - 1; i++) {
            double left = t[i - 1], right = t[i + 1];
            double flux = diffusivity * (left - 2.0 * t[i] + right);
            next[i] = t[i] + flux; /* BREAK */
        }
        #pragma omp target teams distribute parallel for
        for (int i = 1; i < cells - 1; i++)
            t[i] = next[i];
    }
    double total = 0.0;
    for (int i = 0; i < cells; i++)
        total += t[i];
    printf("cells %d steps %d total %.6f middle %.6f\n", cells, steps, total, t[cells / 2]);
    free(rod.temperature);
    free(rod.next);
    return 0;
}
