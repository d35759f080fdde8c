#include "particles.h"

/* 'force' and 'advance' also exist, static and different, in drag.c. */
#pragma omp declare target
static double force(double x)
{
    return -0.5;          /* constant pull, whatever the position */
}
#pragma omp end declare target

static void advance(int n, double dt)
{
    #pragma omp target teams distribute parallel for map(tofrom: position[0:n], velocity[0:n])
    for (int p = 0; p < n; p++) {
        velocity[p] += dt * force(position[p]);
        position[p] += dt * velocity[p];
    }
}

double gravity_module(int steps)
{
    double sum = 0.0;
    int n = npart;
    for (int s = 0; s < steps; s++)
        advance(n, 0.25);
    #pragma omp target teams distribute parallel for reduction(+: sum) map(to: position[0:n])
    for (int p = 0; p < n; p++)
        sum += position[p];
    return sum;
}
