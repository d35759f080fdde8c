/* omp2gpu <math.h>: glibc libm prototypes, double, float and long double (the
 * host's x86 80-bit type; a target region using it runs on the host, not the GPU).
 *
 * Builtins the code generator implements (constant-foldable):
 *   __builtin_huge_val()  -- +infinity, double
 *   __builtin_inff()      -- +infinity, float
 *   __builtin_nanf("")    -- a quiet NaN, float
 * The classification macros evaluate their argument once and call glibc's
 * exported __isnan/__isnanf, __isinf/__isinff, __finite/__finitef,
 * __signbit/__signbitf and __fpclassify/__fpclassifyf (and the *l ones),
 * choosing by the argument's type with _Generic: only the chosen call is
 * compiled, so device code never sees the long double one. */
#ifndef __OMP2GPU_MATH_H
#define __OMP2GPU_MATH_H

#include <features.h>

#if defined __USE_ISOC99
typedef float float_t;
typedef double double_t;
#endif

#define HUGE_VAL (__builtin_huge_val())
#if defined __USE_ISOC99
#define HUGE_VALF (__builtin_inff())
#define INFINITY (__builtin_inff())
#define NAN (__builtin_nanf(""))
#endif

#if defined __USE_ISOC99
#define FP_NAN 0
#define FP_INFINITE 1
#define FP_ZERO 2
#define FP_SUBNORMAL 3
#define FP_NORMAL 4
#define FP_ILOGB0 (-2147483647 - 1)
#define FP_ILOGBNAN (-2147483647 - 1)
#define MATH_ERRNO 1
#define MATH_ERREXCEPT 2
#define math_errhandling (MATH_ERRNO | MATH_ERREXCEPT)
#endif

#if defined __USE_XOPEN || defined __USE_MISC
#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LOG10E 0.43429448190325182765
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440
#endif

#define __omp2gpu_fp_dispatch(x, f, d) _Generic((x), float: f, long double: d##l, default: d)(x)
#if defined __USE_ISOC99 || defined __USE_XOPEN_EXTENDED || defined __USE_MISC
#define isnan(x) __omp2gpu_fp_dispatch(x, __isnanf, __isnan)
#endif
#if defined __USE_ISOC99
#define isinf(x) __omp2gpu_fp_dispatch(x, __isinff, __isinf)
#define isfinite(x) __omp2gpu_fp_dispatch(x, __finitef, __finite)
#define signbit(x) __omp2gpu_fp_dispatch(x, __signbitf, __signbit)
#define fpclassify(x) __omp2gpu_fp_dispatch(x, __fpclassifyf, __fpclassify)
#define isnormal(x) (fpclassify(x) == FP_NORMAL)
#define isunordered(x, y) (isnan(x) || isnan(y))
#define isgreater(x, y) (!isunordered(x, y) && (x) > (y))
#define isgreaterequal(x, y) (!isunordered(x, y) && (x) >= (y))
#define isless(x, y) (!isunordered(x, y) && (x) < (y))
#define islessequal(x, y) (!isunordered(x, y) && (x) <= (y))
#define islessgreater(x, y) (!isunordered(x, y) && ((x) < (y) || (x) > (y)))
#endif

double acos(double x);
#if defined __USE_ISOC99
float acosf(float x);
#endif
double asin(double x);
#if defined __USE_ISOC99
float asinf(float x);
#endif
double atan(double x);
#if defined __USE_ISOC99
float atanf(float x);
#endif
double cos(double x);
#if defined __USE_ISOC99
float cosf(float x);
#endif
double sin(double x);
#if defined __USE_ISOC99
float sinf(float x);
#endif
double tan(double x);
#if defined __USE_ISOC99
float tanf(float x);
#endif
#if defined __USE_ISOC99 || defined __USE_XOPEN_EXTENDED || defined __USE_MISC
double acosh(double x);
#endif
#if defined __USE_ISOC99
float acoshf(float x);
#endif
#if defined __USE_ISOC99 || defined __USE_XOPEN_EXTENDED || defined __USE_MISC
double asinh(double x);
#endif
#if defined __USE_ISOC99
float asinhf(float x);
#endif
#if defined __USE_ISOC99 || defined __USE_XOPEN_EXTENDED || defined __USE_MISC
double atanh(double x);
#endif
#if defined __USE_ISOC99
float atanhf(float x);
#endif
double cosh(double x);
#if defined __USE_ISOC99
float coshf(float x);
#endif
double sinh(double x);
#if defined __USE_ISOC99
float sinhf(float x);
#endif
double tanh(double x);
#if defined __USE_ISOC99
float tanhf(float x);
#endif
double exp(double x);
#if defined __USE_ISOC99
float expf(float x);
double exp2(double x);
float exp2f(float x);
#endif
#if defined __USE_ISOC99 || defined __USE_XOPEN_EXTENDED || defined __USE_MISC
double expm1(double x);
#endif
#if defined __USE_ISOC99
float expm1f(float x);
#endif
#if defined __USE_GNU
double exp10(double x);
float exp10f(float x);
#endif
double log(double x);
#if defined __USE_ISOC99
float logf(float x);
#endif
double log10(double x);
#if defined __USE_ISOC99
float log10f(float x);
#endif
#if defined __USE_ISOC99 || defined __USE_XOPEN_EXTENDED || defined __USE_MISC
double log1p(double x);
#endif
#if defined __USE_ISOC99
float log1pf(float x);
double log2(double x);
float log2f(float x);
#endif
#if defined __USE_ISOC99 || defined __USE_XOPEN_EXTENDED || defined __USE_MISC
double logb(double x);
#endif
#if defined __USE_ISOC99
float logbf(float x);
#endif
#if defined __USE_ISOC99 || defined __USE_XOPEN_EXTENDED || defined __USE_MISC
double cbrt(double x);
#endif
#if defined __USE_ISOC99
float cbrtf(float x);
#endif
double fabs(double x);
#if defined __USE_ISOC99
float fabsf(float x);
#endif
double sqrt(double x);
#if defined __USE_ISOC99
float sqrtf(float x);
#endif
#if defined __USE_ISOC99 || defined __USE_XOPEN_EXTENDED || defined __USE_MISC
double erf(double x);
#endif
#if defined __USE_ISOC99
float erff(float x);
#endif
#if defined __USE_ISOC99 || defined __USE_XOPEN_EXTENDED || defined __USE_MISC
double erfc(double x);
#endif
#if defined __USE_ISOC99
float erfcf(float x);
#endif
#if defined __USE_ISOC99 || defined __USE_XOPEN_EXTENDED || defined __USE_MISC
double lgamma(double x);
#endif
#if defined __USE_ISOC99
float lgammaf(float x);
double tgamma(double x);
float tgammaf(float x);
#endif
double ceil(double x);
#if defined __USE_ISOC99
float ceilf(float x);
#endif
double floor(double x);
#if defined __USE_ISOC99
float floorf(float x);
double nearbyint(double x);
float nearbyintf(float x);
#endif
#if defined __USE_ISOC99 || defined __USE_XOPEN_EXTENDED || defined __USE_MISC
double rint(double x);
#endif
#if defined __USE_ISOC99
float rintf(float x);
double round(double x);
float roundf(float x);
double trunc(double x);
float truncf(float x);
#endif
double atan2(double x, double y);
#if defined __USE_ISOC99
float atan2f(float x, float y);
#endif
double fmod(double x, double y);
#if defined __USE_ISOC99
float fmodf(float x, float y);
#endif
#if defined __USE_ISOC99 || defined __USE_XOPEN_EXTENDED || defined __USE_MISC
double remainder(double x, double y);
#endif
#if defined __USE_ISOC99
float remainderf(float x, float y);
double copysign(double x, double y);
float copysignf(float x, float y);
#endif
#if defined __USE_ISOC99 || defined __USE_XOPEN_EXTENDED || defined __USE_MISC
double nextafter(double x, double y);
#endif
#if defined __USE_ISOC99
float nextafterf(float x, float y);
double fdim(double x, double y);
float fdimf(float x, float y);
double fmax(double x, double y);
float fmaxf(float x, float y);
double fmin(double x, double y);
float fminf(float x, float y);
#endif
#if defined __USE_ISOC99 || defined __USE_XOPEN_EXTENDED || defined __USE_MISC
double hypot(double x, double y);
#endif
#if defined __USE_ISOC99
float hypotf(float x, float y);
#endif
double pow(double x, double y);
#if defined __USE_ISOC99
float powf(float x, float y);
double fma(double x, double y, double z);
float fmaf(float x, float y, float z);
#endif
double frexp(double x, int *exp);
#if defined __USE_ISOC99
float frexpf(float x, int *exp);
#endif
double ldexp(double x, int exp);
#if defined __USE_ISOC99
float ldexpf(float x, int exp);
double scalbn(double x, int n);
float scalbnf(float x, int n);
double scalbln(double x, long n);
float scalblnf(float x, long n);
#endif
#if defined __USE_ISOC99 || defined __USE_XOPEN_EXTENDED || defined __USE_MISC
int ilogb(double x);
#endif
#if defined __USE_ISOC99
int ilogbf(float x);
#endif
double modf(double x, double *iptr);
#if defined __USE_ISOC99
float modff(float x, float *iptr);
double remquo(double x, double y, int *quo);
float remquof(float x, float y, int *quo);
double nan(const char *tagp);
float nanf(const char *tagp);
long lrint(double x);
long lrintf(float x);
long long llrint(double x);
long long llrintf(float x);
long lround(double x);
long lroundf(float x);
long long llround(double x);
long long llroundf(float x);
#endif
#if defined __USE_GNU
void sincos(double x, double *sinx, double *cosx);
void sincosf(float x, float *sinx, float *cosx);
#endif
int __isnan(double x);
int __isnanf(float x);
int __isinf(double x);
int __isinff(float x);
int __finite(double x);
int __finitef(float x);
int __signbit(double x);
int __signbitf(float x);
int __fpclassify(double x);
int __fpclassifyf(float x);

/* long double is the host's x86 80-bit type: glibc's *l functions. */
#if defined __USE_ISOC99
long double acosl(long double x);
long double asinl(long double x);
long double atanl(long double x);
long double cosl(long double x);
long double sinl(long double x);
long double tanl(long double x);
long double acoshl(long double x);
long double asinhl(long double x);
long double atanhl(long double x);
long double coshl(long double x);
long double sinhl(long double x);
long double tanhl(long double x);
long double expl(long double x);
long double exp2l(long double x);
long double expm1l(long double x);
#endif
#if defined __USE_GNU
long double exp10l(long double x);
#endif
#if defined __USE_ISOC99
long double logl(long double x);
long double log10l(long double x);
long double log1pl(long double x);
long double log2l(long double x);
long double logbl(long double x);
long double cbrtl(long double x);
long double fabsl(long double x);
long double sqrtl(long double x);
long double erfl(long double x);
long double erfcl(long double x);
long double lgammal(long double x);
long double tgammal(long double x);
long double ceill(long double x);
long double floorl(long double x);
long double nearbyintl(long double x);
long double rintl(long double x);
long double roundl(long double x);
long double truncl(long double x);
long double atan2l(long double x, long double y);
long double fmodl(long double x, long double y);
long double remainderl(long double x, long double y);
long double copysignl(long double x, long double y);
long double nextafterl(long double x, long double y);
long double fdiml(long double x, long double y);
long double fmaxl(long double x, long double y);
long double fminl(long double x, long double y);
long double hypotl(long double x, long double y);
long double powl(long double x, long double y);
long double fmal(long double x, long double y, long double z);
long double frexpl(long double x, int *exp);
long double ldexpl(long double x, int exp);
long double scalbnl(long double x, int n);
long double scalblnl(long double x, long n);
int ilogbl(long double x);
long double modfl(long double x, long double *iptr);
long double remquol(long double x, long double y, int *quo);
long double nanl(const char *tagp);
long lrintl(long double x);
long long llrintl(long double x);
long lroundl(long double x);
long long llroundl(long double x);
#endif
#if defined __USE_GNU
void sincosl(long double x, long double *sinx, long double *cosx);
#endif
int __isnanl(long double x);
int __isinfl(long double x);
int __finitel(long double x);
int __signbitl(long double x);
int __fpclassifyl(long double x);

#endif
