#include "particles.h"

/* Same names as gravity.c's, different physics. */
#pragma omp declare target
static double force(double v)
{
    return -0.25 * v;     /* drag proportional to the velocity */
}
#pragma omp end declare target

static void advance(int n, double dt)
{
    #pragma omp target teams distribute parallel for map(tofrom: position[0:n], velocity[0:n])
    for (int p = 0; p < n; p++) {
        velocity[p] += dt * force(velocity[p]);
        position[p] += dt * velocity[p];
    }
}

double drag_module(int steps)
{
    double sum = 0.0;
    int n = npart;
    for (int s = 0; s < steps; s++)
        advance(n, 0.5);
    #pragma omp target teams distribute parallel for reduction(+: sum) map(to: velocity[0:n])
    for (int p = 0; p < n; p++)
        sum += velocity[p];
    return sum;
}
