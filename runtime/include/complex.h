/* omp2gpu <complex.h>: C99 7.3, declared as glibc declares it (double, float and
 * long double variants of each function; libm implements them on the host and the
 * CPU device, the device runtime (runtime/device/complex_math.c) on the GPU, which has
 * no long double). CMPLX builds a value from its parts (C11 and later, as glibc), with gcc's builtin. */
#ifndef __OMP2GPU_COMPLEX_H
#define __OMP2GPU_COMPLEX_H
#include <features.h>
#define complex _Complex
#define _Complex_I (1.0iF)
#undef I
#define I _Complex_I
#ifdef __USE_ISOC11
#define CMPLX(x, y) __builtin_complex((double)(x), (double)(y))
#define CMPLXF(x, y) __builtin_complex((float)(x), (float)(y))
#define CMPLXL(x, y) __builtin_complex((long double)(x), (long double)(y))
#endif

#define __OMP2GPU_CMATH(T, S)                                               \
    extern T _Complex cacos##S(T _Complex __z);                             \
    extern T _Complex casin##S(T _Complex __z);                             \
    extern T _Complex catan##S(T _Complex __z);                             \
    extern T _Complex ccos##S(T _Complex __z);                              \
    extern T _Complex csin##S(T _Complex __z);                              \
    extern T _Complex ctan##S(T _Complex __z);                              \
    extern T _Complex cacosh##S(T _Complex __z);                            \
    extern T _Complex casinh##S(T _Complex __z);                            \
    extern T _Complex catanh##S(T _Complex __z);                            \
    extern T _Complex ccosh##S(T _Complex __z);                             \
    extern T _Complex csinh##S(T _Complex __z);                             \
    extern T _Complex ctanh##S(T _Complex __z);                             \
    extern T _Complex cexp##S(T _Complex __z);                              \
    extern T _Complex clog##S(T _Complex __z);                              \
    extern T _Complex cpow##S(T _Complex __x, T _Complex __y);              \
    extern T _Complex csqrt##S(T _Complex __z);                             \
    extern T cabs##S(T _Complex __z);                                       \
    extern T carg##S(T _Complex __z);                                       \
    extern T _Complex conj##S(T _Complex __z);                              \
    extern T _Complex cproj##S(T _Complex __z);                             \
    extern T cimag##S(T _Complex __z);                                      \
    extern T creal##S(T _Complex __z);

__OMP2GPU_CMATH(double, )
__OMP2GPU_CMATH(float, f)
__OMP2GPU_CMATH(long double, l)
#undef __OMP2GPU_CMATH
#endif
