/* omp2gpu: time_t, shared by the headers glibc defines it in (glibc's header name). */
#ifndef __OMP2GPU_TIME_T
#define __OMP2GPU_TIME_T
typedef long time_t;
#endif
