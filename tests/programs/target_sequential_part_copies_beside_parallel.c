/* Explicit tasks and a sections construct in the sequential part of a target region
 * that also holds a parallel region (on the GPU, the control-loop scheme). A task's
 * private and firstprivate copies are its own, and the variables the region maps are
 * firstprivate in a task unless a clause shares them (OpenMP 4.5 2.15.1.1; GCC decides
 * the same way): only writes through shared(...) reach the mapped data. The sections'
 * private, firstprivate, lastprivate and reduction copies are theirs, one thread
 * running the sections in order. */
#include <stdio.h>

#define N 32

int main(void)
{
    double grid[N], edges[2] = {-1.0, -1.0};
    int steps = 4, done = 0, scale = 3, last = 0, total = 0;
    for (int i = 0; i < N; i++)
        grid[i] = i % 5;

#pragma omp target map(tofrom: grid, edges, done, scale, last, total)
    {
        double left = grid[0], right = grid[N - 1];
#pragma omp task firstprivate(left) shared(edges)
        {
            left = left * 2.0 + 1.0;        /* the task's copy */
            edges[0] = left;
        }
#pragma omp task shared(edges)
        edges[1] = right * 2.0 + 1.0;       /* right: firstprivate, read */
#pragma omp task
        {
            done = 100;                     /* mapped but unlisted: the task's own copy */
            grid[1] = 100.0;                /* likewise */
        }
#pragma omp taskwait
        grid[0] = left;                     /* the region's left, unchanged */
#pragma omp sections private(left) firstprivate(scale) lastprivate(last) reduction(+: total)
        {
#pragma omp section
            {
                left = edges[0];
                scale *= 2;
                last = scale;
                total += scale + (int)left;
            }
#pragma omp section
            {
                left = edges[1];
                scale *= 5;
                last = scale;
                total += scale + (int)left;
            }
        }
        grid[N - 1] = left + scale;         /* the region's left and scale, unchanged */
        for (int s = 0; s < steps; s++) {
#pragma omp parallel for
            for (int i = 1; i < N - 1; i++)
                grid[i] = 0.5 * grid[i] + 0.25 * (edges[0] + edges[1]);
            done++;
        }
    }

    double sum = 0.0;
    for (int i = 0; i < N; i++)
        sum += grid[i];
    printf("edges %.1f %.1f, grid[0] %.1f, grid[1] %.4f, sum %.4f, done %d\n",
           edges[0], edges[1], grid[0], grid[1], sum, done);
    printf("sections: grid[%d] %.1f, scale %d, last %d, total %d\n", N - 1, grid[N - 1], scale, last, total);
    return 0;
}
