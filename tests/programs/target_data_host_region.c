/* A target region the GPU cannot run (long double arithmetic: NVPTX has no 80-bit type, so
 * the region runs on the host: tests/host_regions.py) inside `target data`, between regions
 * that do run on the device, in a time-step loop. The host-run region must read the values
 * the device regions left in the mapped arrays and leave its own for the next device
 * region and for the end of `target data`, which copies the device's arrays back.
 * Pointers reach the arrays (a struct of arrays), as real codes do. */
#include <stdio.h>
#include <stdlib.h>

struct mesh {
    int n;
    double *u;          /* the field, advanced on the device */
    double *flux;       /* written by the device, read by the host-run region */
    long double *energy;/* one value per step, written by the host-run region */
};

static void relax(struct mesh *m, int step)
{
    int n = m->n;
    double *u = m->u, *flux = m->flux;
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)         /* the ends have no flux (fixed values) */
        flux[i] = i == 0 || i == n - 1 ? 0.0 : 0.25 * (u[i - 1] - 2.0 * u[i] + u[i + 1]) + 1e-3 * step;
#pragma omp target teams distribute parallel for
    for (int i = 1; i < n - 1; i++)
        u[i] += flux[i];
}

/* Long double: a compensated total of the flux, and a rescale of u by it. */
static void renormalise(struct mesh *m, int step)
{
    int n = m->n;
    double *u = m->u, *flux = m->flux;
    long double *energy = m->energy;
#pragma omp target
    {
        long double total = 0.0L, squares = 0.0L;
        for (int i = 0; i < n; i++) {
            total += (long double)flux[i];
            squares += (long double)u[i] * u[i];
        }
        energy[step] = squares;
        double scale = (double)(1.0L / (1.0L + total * total));
        for (int i = 0; i < n; i++)
            u[i] *= scale;
    }
}

int main(void)
{
    int n = 4096, steps = 6;
    struct mesh m = { n, malloc(n * sizeof(double)), calloc(n, sizeof(double)),
                      calloc(steps, sizeof(long double)) };
    for (int i = 0; i < n; i++)
        m.u[i] = (i % 97) / 97.0;
    double *u = m.u, *flux = m.flux;
    long double *energy = m.energy;
#pragma omp target data map(tofrom: u[0:n]) map(alloc: flux[0:n]) map(from: energy[0:steps])
    {
        for (int step = 0; step < steps; step++) {
            relax(&m, step);
            renormalise(&m, step);
        }
        /* a device region after the last host-run one: it must see u as that one left it */
#pragma omp target teams distribute parallel for
        for (int i = 0; i < n; i++)
            u[i] = u[i] * 1000.0;
    }
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += u[i];
    printf("u: sum %.6f first %.6f last %.6f\n", sum, u[1], u[n - 2]);
    for (int step = 0; step < steps; step++)
        printf("step %d: energy %.6Lf\n", step, energy[step]);
    free(m.u);
    free(m.flux);
    free(m.energy);
    return 0;
}
