/* Two physics modules that each keep their own static helpers and kernels
   under the same names, as files written by different people do. */
#ifndef PARTICLES_H
#define PARTICLES_H

#define NPART 200

/* Defined in store.c (gcc 12 cannot map sections of an extern array of unknown size). */
extern double position[NPART];
extern double velocity[NPART];
extern int npart;

void store_init(void);
double gravity_module(int steps);
double drag_module(int steps);

#endif
