/* omp2gpu <sched.h>: what the bundled <pthread.h> needs. */
#ifndef __OMP2GPU_SCHED_H
#define __OMP2GPU_SCHED_H

#ifndef __OMP2GPU_SIZE_T
#define __OMP2GPU_SIZE_T
typedef unsigned long size_t;
#endif

int sched_yield(void);

#endif
