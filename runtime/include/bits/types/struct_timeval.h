/* omp2gpu: struct timeval, shared by the headers glibc defines it in (glibc's header name). */
#ifndef __OMP2GPU_TIMEVAL
#define __OMP2GPU_TIMEVAL
/* time_t and suseconds_t spelt as what they are: glibc's defines neither name */
struct timeval { long tv_sec; long tv_usec; };
#endif
