/* omp2gpu <assert.h>: glibc's assert, which prints
 *   prog: file:line: function: Assertion `expr' failed.
 * from __assert_fail and aborts. Like every <assert.h>, it is re-read on each
 * inclusion so that NDEBUG takes effect where it is included; only the
 * prototype is guarded. The code generator provides `__func__` (C99). */
#ifndef __OMP2GPU_ASSERT_FAIL
#define __OMP2GPU_ASSERT_FAIL

#include <features.h>
extern void __assert_fail(const char *assertion, const char *file,
                          unsigned int line, const char *function);
#endif

#undef assert
#ifdef NDEBUG
#define assert(expr) ((void)0)
#else
#define assert(expr) ((expr) ? (void)0 : __assert_fail(#expr, __FILE__, __LINE__, __func__))
#endif

#if defined __USE_ISOC11 && !defined(static_assert)
#define static_assert _Static_assert
#endif
