/* omp2gpu <time.h>: glibc x86-64 types and prototypes. */
#ifndef __OMP2GPU_TIME_H
#define __OMP2GPU_TIME_H

#include <features.h>

#ifndef __OMP2GPU_SIZE_T
#define __OMP2GPU_SIZE_T
typedef unsigned long size_t;
#endif
#include <bits/types/time_t.h>
#ifndef __OMP2GPU_CLOCK_T
#define __OMP2GPU_CLOCK_T
typedef long clock_t;
#endif
#if defined __USE_POSIX199309
#ifndef __OMP2GPU_CLOCKID_T
#define __OMP2GPU_CLOCKID_T
typedef int clockid_t;
#endif
#endif
#if defined __USE_ISOC11 || defined __USE_POSIX199309
#include <bits/types/struct_timespec.h>
#endif
#ifndef NULL
#define NULL ((void *)0)
#endif

struct tm {
    int tm_sec;
    int tm_min;
    int tm_hour;
    int tm_mday;
    int tm_mon;
    int tm_year;
    int tm_wday;
    int tm_yday;
    int tm_isdst;
    long tm_gmtoff;
    const char *tm_zone;
};

#define CLOCKS_PER_SEC ((clock_t)1000000)
#if defined __USE_ISOC11
#define TIME_UTC 1
#endif
#if defined __USE_POSIX199309
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_THREAD_CPUTIME_ID 3
#define CLOCK_MONOTONIC_RAW 4
#endif

clock_t clock(void);
time_t time(time_t *tloc);
double difftime(time_t time1, time_t time0);
time_t mktime(struct tm *tm);
size_t strftime(char *restrict s, size_t max, const char *restrict format,
                const struct tm *restrict tm);
struct tm *gmtime(const time_t *timep);
struct tm *localtime(const time_t *timep);
#if defined __USE_POSIX
struct tm *gmtime_r(const time_t *restrict timep, struct tm *restrict result);
struct tm *localtime_r(const time_t *restrict timep, struct tm *restrict result);
#endif
char *asctime(const struct tm *tm);
char *ctime(const time_t *timep);
#if defined __USE_ISOC11
int timespec_get(struct timespec *ts, int base);
#endif
#if defined __USE_POSIX199309
int clock_gettime(clockid_t clockid, struct timespec *tp);
int clock_getres(clockid_t clockid, struct timespec *res);
int nanosleep(const struct timespec *req, struct timespec *rem);
#endif

#endif
