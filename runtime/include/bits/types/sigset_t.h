/* omp2gpu: sigset_t, shared by the headers glibc defines it in (glibc's header name). */
#ifndef __OMP2GPU_SIGSET_T
#define __OMP2GPU_SIGSET_T
typedef struct { unsigned long __val[16]; } sigset_t;
#endif
