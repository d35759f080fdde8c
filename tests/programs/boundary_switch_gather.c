/* An unstructured 2-D mesh's gradient limiter, the way hydro codes write it: a struct of
 * arrays for the cells, each cell's four neighbour indices and a boundary mask saying,
 * per side, whether the neighbour is real, a mirror (use the cell itself) or absent. An
 * absent neighbour's index is a sentinel far outside the arrays (INT_MAX or -1), which
 * the code only reads when the mask says the neighbour is real. omp2gpu runs every arm of
 * these switches and ifs before choosing (sema/speculated_loads.py), so each load must be
 * clamped into its mapped section: a sentinel read unclamped faults on the host and on
 * the CPU device. Regions: a material list with an indirection (`cells.list[i]`), a
 * time-step loop, a reduction, and the same loop with a split `target` / `teams`.
 * Options: -n CELLS_PER_SIDE, -s STEPS. */
// std: gnu99
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define WEST_MASK  0x3
#define WEST_REAL  0x0
#define WEST_MIRROR 0x1
#define WEST_NONE  0x2
#define EAST_MASK  0xc
#define EAST_REAL  0x0
#define EAST_MIRROR 0x4
#define EAST_NONE  0x8
#define SOUTH_MIRROR 0x10
#define NORTH_MIRROR 0x20

typedef struct {
    int count;
    int *west, *east, *south, *north;   /* neighbour indices, sentinels where absent */
    int *mask;
    double *value, *slope, *limited;
    int *list, listed;                  /* the cells of one material */
} Cells;

static double minmod(double a, double b)
{
    if (a * b <= 0.0)
        return 0.0;
    return a < 0.0 ? (a > b ? a : b) : (a < b ? a : b);
}
#pragma omp declare target(minmod)

static void build(Cells *c, int side)
{
    int n = side * side, i;
    c->count = n;
    c->west = malloc(n * sizeof(int));
    c->east = malloc(n * sizeof(int));
    c->south = malloc(n * sizeof(int));
    c->north = malloc(n * sizeof(int));
    c->mask = malloc(n * sizeof(int));
    c->value = malloc(n * sizeof(double));
    c->slope = malloc(n * sizeof(double));
    c->limited = malloc(n * sizeof(double));
    c->list = malloc(n * sizeof(int));
    c->listed = 0;
    for (i = 0; i < n; i++) {
        int x = i % side, y = i / side, m = 0;
        c->west[i] = x > 0 ? i - 1 : INT_MAX;
        c->east[i] = x < side - 1 ? i + 1 : -1;
        c->south[i] = y > 0 ? i - side : INT_MIN;
        c->north[i] = y < side - 1 ? i + side : INT_MAX;
        if (x == 0)
            m |= (y % 2) ? WEST_MIRROR : WEST_NONE;
        if (x == side - 1)
            m |= (y % 3) ? EAST_NONE : EAST_MIRROR;
        if (y == 0)
            m |= SOUTH_MIRROR;
        if (y == side - 1)
            m |= NORTH_MIRROR;
        c->mask[i] = m;
        c->value[i] = (double)((i * 37) % 101) / 7.0 - 3.0;
        if ((i * 7) % 3 != 1)
            c->list[c->listed++] = i;
    }
}

static void release(Cells *c)
{
    free(c->west); free(c->east); free(c->south); free(c->north); free(c->mask);
    free(c->value); free(c->slope); free(c->limited); free(c->list);
}

int main(int argc, char **argv)
{
    int side = 24, steps = 3, opt, step;
    Cells cells;
    double total = 0.0;

    while ((opt = getopt(argc, argv, "n:s:")) != -1) {
        if (opt == 'n')
            side = atoi(optarg);
        else if (opt == 's')
            steps = atoi(optarg);
        else {
            fprintf(stderr, "usage: %s [-n SIDE] [-s STEPS]\n", argv[0]);
            return 2;
        }
    }
    build(&cells, side);
    {
        const int n = cells.count, listed = cells.listed;
        int *west = cells.west, *east = cells.east, *south = cells.south, *north = cells.north;
        int *mask = cells.mask, *list = cells.list;
        double *value = cells.value, *slope = cells.slope, *limited = cells.limited;
        int i;

        #pragma omp target data map(to: west[0:n], east[0:n], south[0:n], north[0:n], mask[0:n], list[0:listed]) \
                                map(tofrom: value[0:n]) map(alloc: slope[0:n], limited[0:n])
        for (step = 0; step < steps; step++) {
            /* the x slope: a switch per side on the mask, the neighbour through its index */
            #pragma omp target teams distribute parallel for private(i) \
                map(to: west[0:n], east[0:n], mask[0:n], value[0:n]) map(from: slope[0:n])
            for (i = 0; i < n; i++) {
                const int m = mask[i];
                const double own = value[i];
                double left, right = 0.0;
                switch (m & WEST_MASK) {
                case WEST_REAL:   left = value[west[i]]; break;
                case WEST_MIRROR: left = own; break;
                default:          left = 0.0; break;
                }
                switch (m & EAST_MASK) {
                case EAST_REAL:
                    right = value[east[i]];
                    break;
                case EAST_MIRROR:
                    right = own;
                    break;
                case EAST_NONE:
                    right = own * 0.5;
                    break;
                }
                if ((m & EAST_MASK) == (EAST_NONE | EAST_MIRROR))
                    right = 0.0;
                slope[i] = minmod(own - left, right - own);
            }

            /* the material's cells through their list: y neighbours under if/else */
            #pragma omp target map(to: south[0:n], north[0:n], mask[0:n], list[0:listed], \
                                   slope[0:n], value[0:n]) map(from: limited[0:n])
            #pragma omp teams distribute parallel for
            for (i = 0; i < listed; i++) {
                const int cell = list[i];
                const int m = mask[cell];
                double down, up, scale;
                if (m & SOUTH_MIRROR) {
                    down = value[cell];
                } else {
                    double d = value[south[cell]];
                    down = d > 0.0 ? d : -d;
                }
                if (m & NORTH_MIRROR)
                    up = value[cell], scale = 1.0;
                else {
                    up = value[north[cell]];
                    scale = slope[north[cell]] != 0.0 ? 0.5 : 0.25;
                }
                limited[cell] = slope[cell] * scale + 0.125 * (up - down);
            }

            #pragma omp target teams distribute parallel for reduction(+: total) \
                map(to: list[0:listed], limited[0:n]) map(tofrom: value[0:n])
            for (i = 0; i < listed; i++) {
                value[list[i]] -= 0.01 * limited[list[i]];
                total += limited[list[i]];
            }
        }
        printf("cells %d listed %d steps %d\n", n, listed, steps);
        printf("total %.3f\n", total);
        for (i = 0; i < n; i += n / 7)
            printf("value[%d] = %.9f\n", i, value[i]);
    }
    release(&cells);
    return 0;
}
