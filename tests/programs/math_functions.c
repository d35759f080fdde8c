/* libm functions on values whose results are exactly or robustly representable. */
#include <stdio.h>
#include <math.h>

int main(void)
{
    double xs[] = { 0.0, 0.5, 1.0, 2.0, 10.0 };
    int i;

    printf("sqrt: %.6f %.6f %.6f %.1f\n", sqrt(2.0), sqrt(16.0), sqrt(0.25), sqrt(1e10));
    printf("sqrtf: %.5f\n", sqrtf(2.0f));
    printf("pow: %.1f %.6f %.1f %.6f\n", pow(2.0, 10.0), pow(2.0, 0.5), pow(10.0, -2.0) * 100, pow(-2.0, 3.0));
    printf("exp/log: %.6f %.6f %.6f %.6f %.6f\n", exp(1.0), log(10.0), log10(1000.0), log2(1024.0), exp(0.0));
    printf("trig: %.6f %.6f %.6f %.6f\n", sin(0.5), cos(0.5), tan(0.5), atan2(1.0, -1.0));
    printf("inverse: %.6f %.6f %.6f\n", asin(0.5), acos(0.5), atan(1.0));
    printf("hyperbolic: %.6f %.6f %.6f\n", sinh(1.0), cosh(1.0), tanh(1.0));
    printf("fabs: %.2f %.2f %d\n", fabs(-3.25), fabs(3.25), (int)fabs(-0.0));
    for (i = -3; i <= 3; i++) {
        double x = i * 0.75;
        printf("x=%5.2f floor %4.1f ceil %4.1f round %4.1f trunc %4.1f\n", x, floor(x), ceil(x), round(x), trunc(x));
    }
    printf("round half away: %.1f %.1f %.1f %.1f\n", round(0.5), round(1.5), round(2.5), round(-2.5));
    printf("fmod: %.2f %.2f %.2f\n", fmod(7.5, 2.0), fmod(-7.5, 2.0), fmod(7.5, -2.0));
    printf("fmin/fmax: %.1f %.1f\n", fmin(1.5, -2.5), fmax(1.5, -2.5));
    printf("hypot: %.1f, cbrt: %.1f\n", hypot(3.0, 4.0), cbrt(27.0));
    printf("copysign: %.1f %.1f\n", copysign(3.0, -1.0), copysign(-3.0, 1.0));
    {
        int e;
        double m = frexp(48.0, &e);
        printf("frexp(48) = %.4f * 2^%d, ldexp(0.75, 6) = %.1f\n", m, e, ldexp(0.75, 6));
    }
    {
        double ip;
        double fp = modf(-3.75, &ip);
        printf("modf(-3.75) = %.2f + %.2f\n", ip, fp);
    }
    printf("isnan: %d %d, isinf: %d %d, isfinite: %d\n",
           isnan(sqrt(-1.0)) != 0, isnan(1.0) != 0, isinf(1e308 * 10) != 0, isinf(1.0) != 0, isfinite(2.0) != 0);
    printf("HUGE_VAL: %f, -HUGE_VAL: %f, INFINITY: %f\n", HUGE_VAL, -HUGE_VAL, (double)INFINITY);
    printf("M_PI-ish: %.10f\n", 4.0 * atan(1.0));
    for (i = 0; i < 5; i++)
        printf("f(%.1f): exp %.6f log1p %.6f expm1 %.6f\n", xs[i], exp(xs[i]), log1p(xs[i]), expm1(xs[i]));
    /* float variants */
    printf("float: %.4f %.4f %.4f %.4f %.4f\n", sinf(1.0f), cosf(1.0f), expf(1.0f), logf(2.0f), powf(3.0f, 4.0f));
    printf("floorf %.1f ceilf %.1f fabsf %.2f fmodf %.2f\n", floorf(-1.5f), ceilf(-1.5f), fabsf(-0.75f), fmodf(5.5f, 2.0f));
    printf("lround %ld, lrint of 2.5 (to even) %ld\n", lround(-2.5), lrint(2.5));
    return 0;
}
