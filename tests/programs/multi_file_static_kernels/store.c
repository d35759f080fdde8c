#include "particles.h"

double position[NPART];
double velocity[NPART];
int npart = NPART;

void store_init(void)
{
    for (int p = 0; p < npart; p++) {
        position[p] = (double)(p % 17);
        velocity[p] = (double)(p % 5) - 2.0;
    }
}
