/* omp2gpu <sys/time.h>: gettimeofday and struct timeval (glibc x86-64). */
#ifndef __OMP2GPU_SYS_TIME_H
#define __OMP2GPU_SYS_TIME_H

#ifndef __OMP2GPU_TIME_T
#define __OMP2GPU_TIME_T
typedef long time_t;
#endif
#ifndef __OMP2GPU_SUSECONDS_T
#define __OMP2GPU_SUSECONDS_T
typedef long suseconds_t;
#endif

struct timeval { time_t tv_sec; suseconds_t tv_usec; };
struct timezone { int tz_minuteswest; int tz_dsttime; };

int gettimeofday(struct timeval *restrict tv, void *restrict tz);

#endif
