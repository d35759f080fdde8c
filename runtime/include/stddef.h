/* omp2gpu <stddef.h>: LP64 (x86-64 Linux) types.
 * pycparser parses offsetof(type, member) itself, as
 * FuncCall(ID('offsetof'), ExprList([Typename, member designator])); the macro
 * below only makes `#ifdef offsetof` true and expands to that same text. */
#ifndef __OMP2GPU_STDDEF_H
#define __OMP2GPU_STDDEF_H

#ifndef __OMP2GPU_SIZE_T
#define __OMP2GPU_SIZE_T
typedef unsigned long size_t;
#endif
#ifndef __OMP2GPU_PTRDIFF_T
#define __OMP2GPU_PTRDIFF_T
typedef long ptrdiff_t;
#endif
#ifndef __OMP2GPU_WCHAR_T
#define __OMP2GPU_WCHAR_T
typedef int wchar_t;
#endif
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
typedef struct { long long __ll; double __d; } max_align_t;
#endif

#define offsetof(type, member) offsetof(type, member)

#ifndef NULL
#define NULL ((void *)0)
#endif

#endif
