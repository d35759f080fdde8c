/* omp2gpu <sched.h>: scheduling (glibc x86-64 values). */
#ifndef __OMP2GPU_SCHED_H
#define __OMP2GPU_SCHED_H
#include <features.h>
#include <bits/types.h>
#ifndef __OMP2GPU_SIZE_T
#define __OMP2GPU_SIZE_T
typedef unsigned long size_t;
#endif
#ifndef NULL
#define NULL ((void *)0)
#endif
#include <bits/types/time_t.h>
#include <bits/types/struct_timespec.h>
#ifndef __OMP2GPU_PID_T
#define __OMP2GPU_PID_T
typedef int pid_t;
#endif
/* before POSIX.1-2001 <sched.h> could include <time.h>; glibc's still does then */
#ifndef __USE_XOPEN2K
#include <time.h>
#endif

#define SCHED_OTHER 0
#define SCHED_FIFO 1
#define SCHED_RR 2
#if defined __USE_GNU
#define SCHED_BATCH 3
#define SCHED_IDLE 5
#endif

struct sched_param { int sched_priority; };

int sched_yield(void);
int sched_get_priority_max(int policy);
int sched_get_priority_min(int policy);
int sched_setparam(__pid_t pid, const struct sched_param *param);
int sched_getparam(__pid_t pid, struct sched_param *param);
int sched_setscheduler(__pid_t pid, int policy, const struct sched_param *param);
int sched_getscheduler(__pid_t pid);
int sched_rr_get_interval(__pid_t pid, struct timespec *t);
#if defined __USE_GNU
int sched_getcpu(void);
#endif

#endif
