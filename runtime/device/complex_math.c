/* <complex.h>'s functions on the GPU (C99 7.3), which has no libm of its own: each
 * from the real functions libdevice provides, by the identities of C99 7.3 and
 * Annex G (exact zeros and infinities kept where G.6 asks them of the common cases).
 * The results agree with glibc's to within a few units in the last place, not bit
 * for bit. The float versions compute in double and round once. creal, cimag and
 * conj are expanded by the compiler; long double has no GPU equivalent (a region
 * using it runs on the host).
 */
#include <complex.h>

/* libdevice's functions, by name: the device runtime is compiled as plain C, where no
 * math.h call is renamed to libdevice's as a kernel's are. */
double __nv_exp(double);
double __nv_log(double);
double __nv_log1p(double);
double __nv_atan(double);
double __nv_asinh(double);
double __nv_sin(double);
double __nv_cos(double);
double __nv_sinh(double);
double __nv_tanh(double);
double __nv_cosh(double);
double __nv_sqrt(double);
double __nv_hypot(double, double);
double __nv_atan2(double, double);
double __nv_fabs(double);
double __nv_copysign(double, double);
float __nv_hypotf(float, float);
float __nv_atan2f(float, float);
#define exp __nv_exp
#define log __nv_log
#define log1p __nv_log1p
#define atan __nv_atan
#define asinh __nv_asinh
#define sin __nv_sin
#define cos __nv_cos
#define sinh __nv_sinh
#define tanh __nv_tanh
#define cosh __nv_cosh
#define sqrt __nv_sqrt
#define hypot __nv_hypot
#define atan2 __nv_atan2
#define fabs __nv_fabs
#define copysign __nv_copysign
#define hypotf __nv_hypotf
#define atan2f __nv_atan2f
#define isinf __builtin_isinf
#define isfinite __builtin_isfinite
#define isnan __builtin_isnan
#define INFINITY __builtin_inff()

static double complex make(double re, double im) {
    double complex z;
    __real__ z = re;
    __imag__ z = im;
    return z;
}

/* i * z and -i * z, exactly (no multiplication by 0 + 1i with its 0 * inf). */
static double complex times_i(double complex z) { return make(-cimag(z), creal(z)); }
static double complex times_minus_i(double complex z) { return make(cimag(z), -creal(z)); }

double cabs(double complex z) { return hypot(creal(z), cimag(z)); }
double carg(double complex z) { return atan2(cimag(z), creal(z)); }

double complex cproj(double complex z) {
    if (isinf(creal(z)) || isinf(cimag(z)))
        return make(INFINITY, copysign(0.0, cimag(z)));
    return z;
}

/* scale * e^x (cos y + i sin y), past exp's overflow (x > 709) where a tiny sin y
 * leaves a finite part: e^x as e^(x/2) twice. */
static double complex scaled_cis(double scale, double x, double y) {
    if (x < 700.0) {
        double magnitude = scale * exp(x);
        return make(magnitude * cos(y), magnitude * sin(y));
    }
    double half = exp(0.5 * x);
    return make(scale * half * cos(y) * half, scale * half * sin(y) * half);
}

double complex cexp(double complex z) {
    double x = creal(z), y = cimag(z);
    if (y == 0.0)                       /* a real argument: a real result, exactly exp(x) */
        return make(exp(x), y);
    if (isinf(x) && !isfinite(y))       /* G.6.3.1: +-0 +- i0 from -inf, inf + iNaN from +inf */
        return x < 0.0 ? make(0.0, 0.0) : make(x, y - y);
    return scaled_cis(1.0, x, y);
}

double complex clog(double complex z) {
    double a = fabs(creal(z)), b = fabs(cimag(z));
    if (a < b) {
        double t = a;
        a = b;
        b = t;
    }
    if (a > 0.5 && a < 2.0)             /* |z| near 1: log |z| = log1p(|z|^2 - 1) / 2, no cancellation */
        return make(0.5 * log1p((a - 1.0) * (a + 1.0) + b * b), carg(z));
    return make(log(hypot(a, b)), carg(z));
}

double complex csqrt(double complex z) {
    double x = creal(z), y = cimag(z);
    if (isinf(y))
        return make(INFINITY, y);
    if (x == 0.0 && y == 0.0)
        return make(0.0, y);
    double t = sqrt((fabs(x) + hypot(x, y)) * 0.5);
    if (x >= 0.0)
        return make(t, y / (2.0 * t));
    return make(fabs(y) / (2.0 * t), copysign(t, y));
}

double complex cpow(double complex base, double complex exponent) {
    return cexp(exponent * clog(base));
}

double complex csinh(double complex z) {
    double x = creal(z), y = cimag(z);
    if (y == 0.0)
        return make(sinh(x), y);
    if ((x == 0.0 || isinf(x)) && !isfinite(y))     /* G.6.2.5: +-0 + iNaN, inf + iNaN (glibc's sign) */
        return make(x == 0.0 ? x : INFINITY, y - y);
    if (fabs(x) > 20.0) {               /* sinh, cosh = +-e^|x| / 2 */
        double complex half = scaled_cis(0.5, fabs(x), y);
        return make(copysign(1.0, x) * creal(half), cimag(half));
    }
    return make(sinh(x) * cos(y), cosh(x) * sin(y));
}

double complex ccosh(double complex z) {
    double x = creal(z), y = cimag(z);
    if (y == 0.0)
        return make(cosh(x), copysign(0.0, x) * y);
    if (x == 0.0 && !isfinite(y))                   /* G.6.2.4: NaN + i0 */
        return make(y - y, 0.0);
    if (isinf(x) && !isfinite(y))                   /* inf + iNaN */
        return make(INFINITY, y - y);
    if (fabs(x) > 20.0) {
        double complex half = scaled_cis(0.5, fabs(x), y);
        return make(creal(half), copysign(1.0, x) * cimag(half));
    }
    return make(cosh(x) * cos(y), sinh(x) * sin(y));
}

double complex ctanh(double complex z) {
    double x = creal(z), y = cimag(z);
    if (y == 0.0)
        return make(tanh(x), y);
    if (isfinite(x) && !isfinite(y))                /* G.6.2.6: +-0 + iNaN, else NaN + iNaN */
        return make(x == 0.0 ? x : y - y, y - y);
    if (fabs(x) > 22.0)                 /* tanh is +-1 to double precision; no cosh overflow */
        return make(copysign(1.0, x), copysign(0.0, sin(2.0 * y)));
    double denominator = cosh(2.0 * x) + cos(2.0 * y);
    return make(sinh(2.0 * x) / denominator, sin(2.0 * y) / denominator);
}

/* The circular functions by the hyperbolic ones: csin(z) = -i csinh(iz), and so on. */
double complex csin(double complex z) { return times_minus_i(csinh(times_i(z))); }
double complex ccos(double complex z) { return ccosh(times_i(z)); }
double complex ctan(double complex z) { return times_minus_i(ctanh(times_i(z))); }

/* The inverse functions by Kahan's formulas ("Branch cuts for complex elementary
 * functions", 1987), which take the square roots of 1 - z and 1 + z apart so that no
 * sum cancels, and keep the signs of zero on the branch cuts that C99 G.6 asks. */
/* The values C99 G.6.2.2 gives casinh where a part is infinite. */
static double complex casinh_of_infinity(double x, double y) {
    if (isnan(x))
        return make(INFINITY, x);
    if (isnan(y))
        return make(x, y);
    double angle = isinf(y) ? (isinf(x) ? 0.78539816339744830962 : 1.57079632679489661923) : 0.0;
    return make(copysign(INFINITY, x), copysign(angle, y));
}

double complex casin(double complex z) {
    if (isinf(creal(z)) && isnan(cimag(z)))         /* NaN + i inf, as glibc */
        return make(cimag(z), INFINITY);
    if (isinf(creal(z)) || isinf(cimag(z)))         /* casin(z) = -i casinh(iz) */
        return times_minus_i(casinh_of_infinity(-cimag(z), creal(z)));
    if (creal(z) == 0.0 && isnan(cimag(z)))         /* +-0 + iNaN (casinh(NaN + i0) = NaN + i0) */
        return z;
    double complex s1 = csqrt(1.0 - z), s2 = csqrt(1.0 + z);
    return make(atan(creal(z) / (creal(s1) * creal(s2) - cimag(s1) * cimag(s2))),
                asinh(creal(s1) * cimag(s2) - cimag(s1) * creal(s2)));
}

double complex cacos(double complex z) {
    double x = creal(z), y = cimag(z);
    if (isinf(x) || isinf(y)) {                     /* G.6.1.1 */
        if (isnan(x) || isnan(y))
            return make(x - x + (y - y), isnan(x) ? -y : -INFINITY);
        double angle = isinf(x) ? (isinf(y) ? (x < 0.0 ? 2.35619449019234492885 : 0.78539816339744830962)
                                            : (x < 0.0 ? 3.14159265358979323846 : 0.0))
                                : 1.57079632679489661923;
        return make(angle, -copysign(INFINITY, y));
    }
    if (x == 0.0 && isnan(y))
        return make(1.57079632679489661923, y);
    double complex s1 = csqrt(1.0 - z), s2 = csqrt(1.0 + z);
    return make(2.0 * atan(creal(s1) / creal(s2)),
                asinh(creal(s2) * cimag(s1) - cimag(s2) * creal(s1)));
}

double complex cacosh(double complex z) {
    double x = creal(z), y = cimag(z);
    if (isinf(x) || isinf(y)) {                     /* G.6.2.1: |cacos| as the angle */
        if (isnan(x) || isnan(y))
            return make(INFINITY, x - x + (y - y));
        return make(INFINITY, copysign(creal(cacos(z)), y));
    }
    if (x == 0.0 && isnan(y))                       /* NaN + i pi/2, as glibc */
        return make(y, 1.57079632679489661923);
    double complex s1 = csqrt(z - 1.0), s2 = csqrt(z + 1.0);
    return make(asinh(creal(s1) * creal(s2) + cimag(s1) * cimag(s2)),
                2.0 * atan(cimag(s1) / creal(s2)));
}

double complex catanh(double complex z) {
    double x = creal(z), y = cimag(z);
    if (isinf(y) || (isinf(x) && !isnan(y)))        /* G.6.2.3: +-0 + i pi/2 */
        return make(copysign(0.0, x), copysign(1.57079632679489661923, y));
    if (isinf(x) || (x == 0.0 && isnan(y)))         /* +-inf + iNaN, +-0 + iNaN */
        return make(copysign(0.0, x), y);
    double away = (1.0 - x) * (1.0 - x) + y * y;
    double re = fabs(x) <= 0.5 ? 0.25 * log1p(4.0 * x / away)
                               : 0.5 * (log(hypot(1.0 + x, y)) - log(hypot(1.0 - x, y)));
    return make(re, 0.5 * atan2(2.0 * y, (1.0 - x) * (1.0 + x) - y * y));
}

double complex casinh(double complex z) { return times_minus_i(casin(times_i(z))); }
double complex catan(double complex z) { return times_minus_i(catanh(times_i(z))); }

/* float: in double, rounded once. */
#define FLOAT_OF_DOUBLE(name) \
    float complex name##f(float complex z) { return (float complex)name((double complex)z); }
FLOAT_OF_DOUBLE(cproj)
FLOAT_OF_DOUBLE(cexp)
FLOAT_OF_DOUBLE(clog)
FLOAT_OF_DOUBLE(csqrt)
FLOAT_OF_DOUBLE(csinh)
FLOAT_OF_DOUBLE(ccosh)
FLOAT_OF_DOUBLE(ctanh)
FLOAT_OF_DOUBLE(csin)
FLOAT_OF_DOUBLE(ccos)
FLOAT_OF_DOUBLE(ctan)
FLOAT_OF_DOUBLE(casinh)
FLOAT_OF_DOUBLE(cacosh)
FLOAT_OF_DOUBLE(catanh)
FLOAT_OF_DOUBLE(casin)
FLOAT_OF_DOUBLE(cacos)
FLOAT_OF_DOUBLE(catan)
#undef FLOAT_OF_DOUBLE

float cabsf(float complex z) { return hypotf(crealf(z), cimagf(z)); }
float cargf(float complex z) { return atan2f(cimagf(z), crealf(z)); }
float complex cpowf(float complex base, float complex exponent) {
    return (float complex)cpow((double complex)base, (double complex)exponent);
}
