/* omp2gpu <sched.h>: scheduling (glibc x86-64 values). */
#ifndef __OMP2GPU_SCHED_H
#define __OMP2GPU_SCHED_H
#include <bits/types.h>

#include <sys/types.h>
#include <time.h>

#define SCHED_OTHER 0
#define SCHED_FIFO 1
#define SCHED_RR 2
#define SCHED_BATCH 3
#define SCHED_IDLE 5

struct sched_param { int sched_priority; };

int sched_yield(void);
int sched_get_priority_max(int policy);
int sched_get_priority_min(int policy);
int sched_setparam(__pid_t pid, const struct sched_param *param);
int sched_getparam(__pid_t pid, struct sched_param *param);
int sched_setscheduler(__pid_t pid, int policy, const struct sched_param *param);
int sched_getscheduler(__pid_t pid);
int sched_rr_get_interval(__pid_t pid, struct timespec *t);
int sched_getcpu(void);

#endif
