/* omp2gpu: mbstate_t, shared by <wchar.h> and <uchar.h> (glibc's layout and header name). */
#ifndef __OMP2GPU_MBSTATE_T
#define __OMP2GPU_MBSTATE_T
typedef struct {
  int __count;
  union { unsigned int __wch; char __wchb[4]; } __value;
} mbstate_t;
#endif
