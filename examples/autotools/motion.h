#ifndef MOTION_H
#define MOTION_H
#include <stddef.h>

/* Particles as a structure of arrays, the layout offload codes use. */
typedef struct {
    size_t count;
    double *restrict x, *restrict y;
    double *restrict vx, *restrict vy;
} particles_t;

void particles_init(particles_t *p, size_t count);
void particles_free(particles_t *p);
/* Advances `steps` steps of `dt` on the default device; returns how many steps ran there. */
int particles_advance(particles_t *p, int steps, double dt);
#endif
