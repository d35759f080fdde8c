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

typedef float float_t;
typedef double double_t;

#define HUGE_VAL (__builtin_huge_val())
#define HUGE_VALF (__builtin_inff())
#define INFINITY (__builtin_inff())
#define NAN (__builtin_nanf(""))

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

#define __omp2gpu_fp_dispatch(x, f, d) _Generic((x), float: f, long double: d##l, default: d)(x)
#define isnan(x) __omp2gpu_fp_dispatch(x, __isnanf, __isnan)
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

double acos(double x);
float acosf(float x);
double asin(double x);
float asinf(float x);
double atan(double x);
float atanf(float x);
double cos(double x);
float cosf(float x);
double sin(double x);
float sinf(float x);
double tan(double x);
float tanf(float x);
double acosh(double x);
float acoshf(float x);
double asinh(double x);
float asinhf(float x);
double atanh(double x);
float atanhf(float x);
double cosh(double x);
float coshf(float x);
double sinh(double x);
float sinhf(float x);
double tanh(double x);
float tanhf(float x);
double exp(double x);
float expf(float x);
double exp2(double x);
float exp2f(float x);
double expm1(double x);
float expm1f(float x);
double exp10(double x);
float exp10f(float x);
double log(double x);
float logf(float x);
double log10(double x);
float log10f(float x);
double log1p(double x);
float log1pf(float x);
double log2(double x);
float log2f(float x);
double logb(double x);
float logbf(float x);
double cbrt(double x);
float cbrtf(float x);
double fabs(double x);
float fabsf(float x);
double sqrt(double x);
float sqrtf(float x);
double erf(double x);
float erff(float x);
double erfc(double x);
float erfcf(float x);
double lgamma(double x);
float lgammaf(float x);
double tgamma(double x);
float tgammaf(float x);
double ceil(double x);
float ceilf(float x);
double floor(double x);
float floorf(float x);
double nearbyint(double x);
float nearbyintf(float x);
double rint(double x);
float rintf(float x);
double round(double x);
float roundf(float x);
double trunc(double x);
float truncf(float x);
double atan2(double x, double y);
float atan2f(float x, float y);
double fmod(double x, double y);
float fmodf(float x, float y);
double remainder(double x, double y);
float remainderf(float x, float y);
double copysign(double x, double y);
float copysignf(float x, float y);
double nextafter(double x, double y);
float nextafterf(float x, float y);
double fdim(double x, double y);
float fdimf(float x, float y);
double fmax(double x, double y);
float fmaxf(float x, float y);
double fmin(double x, double y);
float fminf(float x, float y);
double hypot(double x, double y);
float hypotf(float x, float y);
double pow(double x, double y);
float powf(float x, float y);
double fma(double x, double y, double z);
float fmaf(float x, float y, float z);
double frexp(double x, int *exp);
float frexpf(float x, int *exp);
double ldexp(double x, int exp);
float ldexpf(float x, int exp);
double scalbn(double x, int n);
float scalbnf(float x, int n);
double scalbln(double x, long n);
float scalblnf(float x, long n);
int ilogb(double x);
int ilogbf(float x);
double modf(double x, double *iptr);
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
void sincos(double x, double *sinx, double *cosx);
void sincosf(float x, float *sinx, float *cosx);
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
long double exp10l(long double x);
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
void sincosl(long double x, long double *sinx, long double *cosx);
int __isnanl(long double x);
int __isinfl(long double x);
int __finitel(long double x);
int __signbitl(long double x);
int __fpclassifyl(long double x);

#endif
