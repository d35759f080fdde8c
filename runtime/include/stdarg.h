/* omp2gpu <stdarg.h>: the x86-64 System V va_list (one 24-byte record,
 * passed to v*printf as a pointer, exactly like glibc's).
 *
 * The macros expand to these builtins, which the code generator implements:
 *   __builtin_va_start(ap, last)   -- llvm.va_start on ap (a va_list decays to
 *                                     struct __va_list_tag *); last is the last
 *                                     named parameter, ignored
 *   __builtin_va_end(ap)           -- llvm.va_end
 *   __builtin_va_copy(dest, src)   -- llvm.va_copy
 *   __omp2gpu_va_arg(ap, (T *)0)   -- fetch the next argument of type T and
 *                                     return a T * to it (the second argument
 *                                     is only there to carry the type T; C
 *                                     requires that `T *` names a pointer to T)
 */
#ifndef __OMP2GPU_STDARG_H
#define __OMP2GPU_STDARG_H


#ifndef __OMP2GPU_VA_LIST
#define __OMP2GPU_VA_LIST
typedef struct __va_list_tag {
    unsigned int gp_offset;
    unsigned int fp_offset;
    void *overflow_arg_area;
    void *reg_save_area;
} __omp2gpu_va_list[1];
#endif

typedef __omp2gpu_va_list va_list;

#define va_start(ap, last) __builtin_va_start(ap, last)
#define va_arg(ap, type) (*__omp2gpu_va_arg(ap, (type *)0))
#define va_end(ap) __builtin_va_end(ap)
#if !defined __STRICT_ANSI__ || (defined __STDC_VERSION__ && __STDC_VERSION__ >= 199901L)
#define va_copy(dest, src) __builtin_va_copy(dest, src)
#endif

#endif
