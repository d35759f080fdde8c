/* omp2gpu: struct timespec, shared by the headers glibc defines it in (glibc's header name). */
#ifndef __OMP2GPU_TIMESPEC
#define __OMP2GPU_TIMESPEC
/* time_t spelt as what it is: glibc's defines no name */
struct timespec { long tv_sec; long tv_nsec; };
#endif
