/* omp2gpu: wint_t, shared by <wchar.h> and <wctype.h> (glibc's header name). */
#ifndef __OMP2GPU_WINT_T
#define __OMP2GPU_WINT_T
typedef unsigned int wint_t;
#endif
