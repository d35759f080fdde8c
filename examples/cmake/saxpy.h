#ifndef SAXPY_H
#define SAXPY_H
/* y = a*x + y on the default device; returns where it ran (omp_is_initial_device) */
int saxpy(int n, float a, const float *x, float *y);
#endif
