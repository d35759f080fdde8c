#include "config.h"
#include "motion.h"
#include <math.h>
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

void particles_init(particles_t *p, size_t count)
{
    p->count = count;
    p->x = malloc(count * sizeof(double));
    p->y = malloc(count * sizeof(double));
    p->vx = malloc(count * sizeof(double));
    p->vy = malloc(count * sizeof(double));
    for (size_t i = 0; i < count; i++) {
        double angle = 0.001 * (double)i;
        p->x[i] = cos(angle) * (1.0 + 0.01 * (double)(i % 7));
        p->y[i] = sin(angle) * (1.0 + 0.01 * (double)(i % 5));
        p->vx[i] = -p->y[i] * 0.5;
        p->vy[i] = p->x[i] * 0.5;
    }
}

void particles_free(particles_t *p)
{
    free(p->x);
    free(p->y);
    free(p->vx);
    free(p->vy);
}

int particles_advance(particles_t *p, int steps, double dt)
{
    size_t n = p->count;
    double *x = p->x, *y = p->y, *vx = p->vx, *vy = p->vy;
    int on_device = 0;
#pragma omp target data map(tofrom: x[0:n], y[0:n], vx[0:n], vy[0:n])
    for (int step = 0; step < steps; step++) {
        int here = 1;
        /* a central force pulling each particle to the origin, with a drag */
#pragma omp target teams distribute parallel for map(tofrom: here)
        for (size_t i = 0; i < n; i++) {
            double r = sqrt(x[i] * x[i] + y[i] * y[i]) + 1e-3;
            double pull = -1.0 / (r * r * r);
            vx[i] = (vx[i] + dt * pull * x[i]) * 0.999;
            vy[i] = (vy[i] + dt * pull * y[i]) * 0.999;
            x[i] += dt * vx[i];
            y[i] += dt * vy[i];
#ifdef _OPENMP
            if (i == 0) here = omp_is_initial_device();
#endif
        }
        on_device += !here;
    }
    return on_device;
}
