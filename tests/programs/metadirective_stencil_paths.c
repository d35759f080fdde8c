/* A rod's temperatures (fixed point, integers) diffuse over time steps inside one
 * `target data` region. Each step's sweep is a metadirective that picks the loop's
 * parallelisation for the device the region is compiled for: on an NVIDIA GPU
 * `teams distribute parallel for` (an SPMD kernel), elsewhere (the CPU device, the
 * host) `parallel for simd`; the heat total is a reduction in either spelling, and
 * the initial profile is set in parallel only when the rod is long (a user condition
 * decided at run time).
 *
 * gcc 12 does not implement metadirective (it ignores the directive and runs the
 * loops as written), so the output depends on nothing but the arithmetic: every
 * device prints gcc's. Which directive each device chose is checked in
 * tests/codegen/test_variants.py. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCALE 1024L

typedef struct {
    long *now;      /* temperatures at this step */
    long *next;     /* the sweep writes here, then the two swap */
    int cells;
} Rod;

static void heat_profile(Rod *rod, int cells)
{
    rod->cells = cells;
    rod->now = malloc(sizeof(long) * cells);
    rod->next = malloc(sizeof(long) * cells);
    long *now = rod->now;
    #pragma omp metadirective when(user={condition(cells >= 1024)}: parallel for) default(nothing)
    for (int i = 0; i < cells; i++)
        now[i] = (i % 97 == 0 ? 900 : 20) * SCALE + (i * 37) % 311;
    memcpy(rod->next, rod->now, sizeof(long) * cells);
}

static void sweep(long *now, long *next, int cells)
{
    #pragma omp target map(to: now[0:cells]) map(tofrom: next[0:cells])
    {
        #pragma omp metadirective when(device={arch("nvptx")}: teams distribute parallel for) \
                                  default(parallel for simd)
        for (int i = 1; i < cells - 1; i++)
            next[i] = (now[i - 1] + 2 * now[i] + now[i + 1]) / 4;
    }
}

static long total_heat(const long *now, int cells)
{
    long total = 0;
    #pragma omp target map(tofrom: total) map(to: now[0:cells])
    {
        #pragma omp metadirective \
            when(device={arch("nvptx")}: teams distribute parallel for reduction(+: total)) \
            default(parallel for simd reduction(+: total))
        for (int i = 0; i < cells; i++)
            total += now[i];
    }
    return total;
}

int main(int argc, char **argv)
{
    (void)argc; (void)argv;
    const int cells = 4096, steps = 240, report_every = 60;
    Rod rod;
    heat_profile(&rod, cells);
    long *a = rod.now, *b = rod.next;
    printf("cells %d, initial heat %ld\n", cells, total_heat(a, cells));
    #pragma omp target data map(tofrom: a[0:cells]) map(tofrom: b[0:cells])
    {
        for (int step = 1; step <= steps; step++) {
            sweep(a, b, cells);
            long *t = a; a = b; b = t;          /* the ends stay fixed: both arrays hold them */
            if (step % report_every == 0) {
                long heat = total_heat(a, cells);
                #pragma omp target update from(a[0:cells])
                printf("step %3d: heat %ld, cells 0/97/2048/4095: %ld %ld %ld %ld\n", step, heat,
                       a[0], a[97], a[2048], a[cells - 1]);
            }
        }
    }
    free(rod.now);
    free(rod.next);
    return 0;
}
