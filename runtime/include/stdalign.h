/* omp2gpu <stdalign.h> (C11 7.15). */
#ifndef __OMP2GPU_STDALIGN_H
#define __OMP2GPU_STDALIGN_H
#define alignas _Alignas
#define alignof _Alignof
#define __alignas_is_defined 1
#define __alignof_is_defined 1
#endif
