/* omp2gpu <complex.h>: the macros of C99 7.3. omp2gpu has no complex types:
 * a declaration using one is refused ("complex types are not supported"), so
 * the functions (cabs, cexp, ...) are not declared here. */
#ifndef __OMP2GPU_COMPLEX_H
#define __OMP2GPU_COMPLEX_H
#define complex _Complex
#define _Complex_I (1.0iF)
#define I _Complex_I
#endif
