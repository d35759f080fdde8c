/* Combinations of today's OpenMP 5.x features in one small cell code, compared with
   gcc: a target teams loop whose iterations open a parallel region with masked inside,
   a metadirective picking a loop per device, a taskloop reduction in every team of a
   host league, a masked taskloop joining a taskgroup's task reduction, tasks joining a
   scope's reduction(task), and atomic compare for a maximum in a target loop.
   The output does not depend on the thread count. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define CELLS 96
#define STEPS 3

struct cells {
    int count[CELLS];
    double mass[CELLS];
};

static void seed_cells(struct cells *c)
{
    for (int i = 0; i < CELLS; i++) {
        c->count[i] = (i * 37) % 11;
        c->mass[i] = 0.25 * ((i * 13) % 7);
    }
}

/* each cell's update runs in its own small parallel region: one thread adds the inflow */
static void inflow(struct cells *c, int step)
{
    int *count = c->count;
    #pragma omp target teams loop map(tofrom: count[0:CELLS])
    for (int i = 0; i < CELLS; i++) {
        #pragma omp parallel num_threads(2)
        {
            #pragma omp masked
            count[i] += (i + step) % 3;
        }
    }
}

static long weighted_total(const struct cells *c)
{
    long total = 0;
    const int *count = c->count;
    #pragma omp target map(tofrom: total) map(to: count[0:CELLS])
    {
        #pragma omp metadirective when(device={kind(gpu)}: teams loop reduction(+: total)) \
                                  default(parallel loop reduction(+: total))
        for (int i = 0; i < CELLS; i++)
            total += (long)count[i] * (i % 5 + 1);
    }
    return total;
}

static long league_census(const struct cells *c)
{
    long seen = 0;
    #pragma omp teams num_teams(2) reduction(+: seen)
    {
        #pragma omp parallel num_threads(2)
        #pragma omp single
        {
            #pragma omp taskloop reduction(+: seen) grainsize(16)
            for (int i = 0; i < CELLS; i++)
                seen += c->count[i];
        }
    }
    return seen;             /* every team counts every cell: twice the census */
}

static double heavy_cells(const struct cells *c)
{
    double heavy = 0.0;
    #pragma omp parallel num_threads(3)
    {
        #pragma omp masked
        {
            #pragma omp taskgroup task_reduction(+: heavy)
            {
                #pragma omp masked taskloop in_reduction(+: heavy) num_tasks(4)
                for (int i = 0; i < CELLS; i++)
                    if (c->mass[i] > 1.0)
                        heavy += c->mass[i];
                #pragma omp task in_reduction(+: heavy)
                heavy += 0.5;                     /* the boundary cell's share */
            }
        }
    }
    return heavy;
}

static long scoped_checks(void)
{
    long checks = 0;
    #pragma omp parallel num_threads(4)
    {
        #pragma omp scope reduction(task, +: checks)
        {
            #pragma omp task in_reduction(+: checks)
            checks += 1;
        }
    }
    return checks;                        /* one task per thread of the team */
}

static int fullest_cell(const struct cells *c)
{
    int best = -1;
    const int *count = c->count;
    #pragma omp target teams distribute parallel for map(tofrom: best) map(to: count[0:CELLS])
    for (int i = 0; i < CELLS; i++) {
        int v = count[i] * 100 + i;
        #pragma omp atomic compare
        if (best < v) { best = v; }
    }
    return best % 100;
}

int main(void)
{
    struct cells *c = malloc(sizeof *c);
    seed_cells(c);
    for (int step = 0; step < STEPS; step++) {
        inflow(c, step);
        printf("step %d: weighted %ld census %ld heavy %.2f fullest %d\n", step, weighted_total(c),
               league_census(c), heavy_cells(c), fullest_cell(c));
    }
    printf("scoped checks %ld\n", scoped_checks());
    free(c);
    return 0;
}
