/* Particles in a periodic box sorted into cells each time step, written with the OpenMP 5.0
 * `loop` construct's every binding and the `order(concurrent)` clause (5.1's modifiers
 * too): a `parallel loop` push, cell indices from an orphaned `loop bind(parallel)` that
 * a `parallel` region calls (its implicit barrier lets the next loop read them), a
 * `loop` nested in `parallel` with a reduction, per-thread counts from `loop bind(thread)`,
 * `for`/`simd`/`parallel for simd` with `order(concurrent)`, two `for
 * order(reproducible: concurrent) nowait` loops whose iterations meet on the same thread,
 * a host `teams loop`, and on the device a `target teams loop` histogram, a `target
 * parallel loop collapse(2)` cell-pair table and a `distribute order(concurrent)`.
 * Every result is an integer or a per-particle value, so the output does not depend on
 * the number of threads. gcc 12 compiles all of it (it takes `distribute order`, a 5.1
 * form, too).
 *
 * Command line: [-n particles] [-s steps]; other words are ignored. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <omp.h>

#define CELLS 16                /* per side of the unit box */

typedef struct {
    int n;
    double *x, *y;              /* positions in [0, 1) */
    double *vx, *vy;
    int *cell;                  /* row-major cell index */
    int *order;                 /* the particle's rank in its cell's count, reproducibly */
} Particles;

static double wrap(double c)
{
    return c >= 1.0 ? c - 1.0 : (c < 0.0 ? c + 1.0 : c);
}

/* Orphaned: binds to whichever parallel region calls it. */
static void assign_cells(Particles *p)
{
    int *cell = p->cell;
    const double *x = p->x, *y = p->y;
#pragma omp loop bind(parallel)
    for (int k = 0; k < p->n; k++)
        cell[k] = (int)(y[k] * CELLS) * CELLS + (int)(x[k] * CELLS);
}

int main(int argc, char **argv)
{
    int n = 4000, steps = 5, opt;
    while ((opt = getopt(argc, argv, "n:s:")) != -1) {
        if (opt == 'n')
            n = atoi(optarg);
        else if (opt == 's')
            steps = atoi(optarg);
    }
    Particles p = {n, malloc(n * sizeof(double)), malloc(n * sizeof(double)), malloc(n * sizeof(double)),
                   malloc(n * sizeof(double)), malloc(n * sizeof(int)), malloc(n * sizeof(int))};
    double *x = p.x, *y = p.y, *vx = p.vx, *vy = p.vy;
    int *cell = p.cell;
    unsigned seed = 12345u;
    for (int k = 0; k < n; k++) {
        seed = seed * 1103515245u + 12345u;
        x[k] = (seed >> 8) % 100000 / 100000.0;
        seed = seed * 1103515245u + 12345u;
        y[k] = (seed >> 8) % 100000 / 100000.0;
        vx[k] = ((int)(k % 7) - 3) * 0.0137;
        vy[k] = ((int)(k % 5) - 2) * 0.0211;
    }

    for (int step = 1; step <= steps; step++) {
        /* The push: one combined construct. */
#pragma omp parallel loop
        for (int k = 0; k < n; k++) {
            x[k] = wrap(x[k] + vx[k]);
            y[k] = wrap(y[k] + vy[k]);
        }

        long cell_sum = 0;
        int left = 0;
#pragma omp parallel shared(left)
        {
            assign_cells(&p);               /* its barrier: every cell[k] is set below */
#pragma omp loop reduction(+: cell_sum)
            for (int k = 0; k < n; k++)
                cell_sum += cell[n - 1 - k];

            /* Each thread counts its own strided share; the shares add up to the whole. */
            int t = omp_get_thread_num(), nt = omp_get_num_threads(), mine = 0;
#pragma omp loop bind(thread) reduction(+: mine)
            for (int k = t; k < n; k += nt)
                mine += x[k] < 0.5;
#pragma omp atomic
            left += mine;
        }

        int moving = 0, fast = 0;
#pragma omp parallel for order(concurrent) reduction(+: moving)
        for (int k = 0; k < n; k++)
            moving += vx[k] != 0.0 || vy[k] != 0.0;
#pragma omp simd order(concurrent) reduction(+: fast)
        for (int k = 0; k < n; k++)
            fast += vx[k] * vx[k] + vy[k] * vy[k] > 0.001;

        printf("step %d: cell sum %ld, left half %d, moving %d, fast %d\n", step, cell_sum, left, moving, fast);
    }

    /* Cell populations on the device; a parallel loop over cell pairs. */
    int population[CELLS * CELLS] = {0}, adjacent[CELLS][CELLS], occupied = 0;
#pragma omp target teams loop map(to: cell[0:n]) map(tofrom: population) reduction(+: occupied)
    for (int c = 0; c < CELLS * CELLS; c++) {
        int count = 0;
#pragma omp loop reduction(+: count)
        for (int k = 0; k < n; k++)
            count += cell[k] == c;
        population[c] = count;
        occupied += count > 0;
    }
#pragma omp target parallel loop collapse(2) map(to: population) map(from: adjacent)
    for (int r = 0; r < CELLS; r++)
        for (int c = 0; c < CELLS; c++)
            adjacent[r][c] = population[r * CELLS + c] + population[r * CELLS + (c + 1) % CELLS];
    int busiest = 0, widest = 0;
#pragma omp target teams map(to: population, adjacent) map(tofrom: busiest, widest) reduction(max: busiest, widest)
#pragma omp distribute order(concurrent)
    for (int c = 0; c < CELLS * CELLS; c++) {
        busiest = busiest > population[c] ? busiest : population[c];
        widest = widest > adjacent[c / CELLS][c % CELLS] ? widest : adjacent[c / CELLS][c % CELLS];
    }
    printf("cells: %d occupied, busiest %d, widest pair %d\n", occupied, busiest, widest);

    /* Two loops with one reproducible schedule: iteration k of the second runs on the
     * thread that ran iteration k of the first, so `nowait` needs no barrier between. */
    int *rank = p.order;
#pragma omp parallel
    {
#pragma omp for order(reproducible: concurrent) nowait
        for (int k = 0; k < n; k++)
            rank[k] = cell[k] * 7 % CELLS;
#pragma omp for order(reproducible: concurrent) nowait
        for (int k = 0; k < n; k++)
            rank[k] += population[cell[k]];
    }
    long rank_sum = 0;
#pragma omp parallel for simd order(unconstrained: concurrent) reduction(+: rank_sum)
    for (int k = 0; k < n; k++)
        rank_sum += rank[k];

    /* The league on the host, and the loop's last iteration. */
    int last_i = -1, last_j = -1, i, j;
    long corner = 0;
#pragma omp teams loop reduction(+: corner) num_teams(2)
    for (int k = 0; k < n; k++)
        corner += cell[k] == 0 || cell[k] == CELLS * CELLS - 1;
#pragma omp parallel loop collapse(2) lastprivate(i, j)
    for (i = 0; i < CELLS; i++)
        for (j = 0; j < CELLS; j++)
            adjacent[i][j] = i - j;
    last_i = i;
    last_j = j;
    printf("rank sum %ld, corner cells hold %ld, last (%d, %d)\n", rank_sum, corner, last_i, last_j);
    printf("first particles: (%.6f, %.6f) (%.6f, %.6f)\n", x[0], y[0], x[n - 1], y[n - 1]);

    free(p.x); free(p.y); free(p.vx); free(p.vy); free(p.cell); free(p.order);
    return 0;
}
