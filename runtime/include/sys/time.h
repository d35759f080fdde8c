/* omp2gpu <sys/time.h>: gettimeofday, interval timers, struct timeval (glibc x86-64). */
#ifndef __OMP2GPU_SYS_TIME_H
#define __OMP2GPU_SYS_TIME_H

#include <features.h>

#include <bits/types/time_t.h>
#ifndef __OMP2GPU_SUSECONDS_T
#define __OMP2GPU_SUSECONDS_T
typedef long suseconds_t;
#endif
#include <bits/types/struct_timeval.h>
#include <sys/select.h>

#if defined __USE_MISC
struct timezone { int tz_minuteswest; int tz_dsttime; };
#endif
struct itimerval { struct timeval it_interval; struct timeval it_value; };

#define ITIMER_REAL 0
#define ITIMER_VIRTUAL 1
#define ITIMER_PROF 2

#if defined __USE_MISC
#define timerisset(tvp) ((tvp)->tv_sec || (tvp)->tv_usec)
#define timerclear(tvp) ((tvp)->tv_sec = (tvp)->tv_usec = 0)
#define timercmp(a, b, CMP) (((a)->tv_sec == (b)->tv_sec) ? \
    ((a)->tv_usec CMP (b)->tv_usec) : ((a)->tv_sec CMP (b)->tv_sec))
#define timeradd(a, b, result) do { \
    (result)->tv_sec = (a)->tv_sec + (b)->tv_sec; \
    (result)->tv_usec = (a)->tv_usec + (b)->tv_usec; \
    if ((result)->tv_usec >= 1000000) { ++(result)->tv_sec; (result)->tv_usec -= 1000000; } \
  } while (0)
#define timersub(a, b, result) do { \
    (result)->tv_sec = (a)->tv_sec - (b)->tv_sec; \
    (result)->tv_usec = (a)->tv_usec - (b)->tv_usec; \
    if ((result)->tv_usec < 0) { --(result)->tv_sec; (result)->tv_usec += 1000000; } \
  } while (0)
#endif

int gettimeofday(struct timeval *restrict tv, void *restrict tz);
#if defined __USE_MISC
int settimeofday(const struct timeval *tv, const struct timezone *tz);
#endif
int getitimer(int which, struct itimerval *value);
int setitimer(int which, const struct itimerval *restrict value, struct itimerval *restrict old);
int utimes(const char *file, const struct timeval tvp[2]);

#endif
