/* A target data region maps only the interior of a grid with halo cells; the target
   regions inside name the whole grid (an implicit tofrom map of the array), which is
   then present in the interior's mapping and not extended: libomptarget's rule, and
   the OpenMP Examples' array_sections.3 and .4. The kernels touch only the interior. */
#include <stdio.h>

#define HALO 4
#define CELLS 48
#define TOTAL (CELLS + 2 * HALO)

struct state {
    double grid[TOTAL];
    int steps;
};

static void report(const char *label, const double *grid)
{
    double sum = 0.0;
    int i;
    for (i = 0; i < TOTAL; i++)
        sum += grid[i] * (1 + i % 5);
    printf("%s: sum %.3f first %.3f interior %.3f %.3f last %.3f\n", label, sum, grid[0],
           grid[HALO], grid[HALO + CELLS - 1], grid[TOTAL - 1]);
}

int main(void)
{
    double grid[TOTAL];
    struct state s;
    int i, step;

    for (i = 0; i < TOTAL; i++)
        grid[i] = s.grid[i] = i < HALO || i >= HALO + CELLS ? -1.0 : (double)i;
    s.steps = 0;

    /* the interior mapped, the whole array used: several launches, the same mapping */
#pragma omp target data map(tofrom: grid[HALO:CELLS])
    {
        for (step = 0; step < 4; step++) {
#pragma omp target teams distribute parallel for
            for (i = HALO; i < HALO + CELLS; i++)
                grid[i] = 0.5 * grid[i] + step;
        }
        /* a region without teams, writing one interior cell */
#pragma omp target
        grid[HALO + 1] = 100.0;
    }
    report("grid", grid);

    /* the mapped part starts at the array's first element and ends before its last */
#pragma omp target data map(tofrom: grid[0:HALO + CELLS])
    {
#pragma omp target
        for (i = HALO; i < HALO + CELLS; i++)
            grid[i] += grid[i - 1];
    }
    report("prefix", grid);

    /* a struct's array member mapped, the struct used whole */
#pragma omp target data map(tofrom: s.grid[HALO:CELLS])
    {
#pragma omp target
        {
            int j;
            for (j = HALO; j < HALO + CELLS; j++)
                s.grid[j] *= 3.0;
        }
    }
    report("struct", s.grid);
    printf("steps %d\n", s.steps);
    return 0;
}
