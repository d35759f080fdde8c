/* omp2gpu <stdnoreturn.h> (C11 7.23). */
#ifndef __OMP2GPU_STDNORETURN_H
#define __OMP2GPU_STDNORETURN_H
#define noreturn _Noreturn
#endif
