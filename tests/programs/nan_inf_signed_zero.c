/* IEEE special values: NaN comparisons, infinities, signed zero, and how they print. */
#include <stdio.h>
#include <math.h>
#include <float.h>

int main(void)
{
    volatile double zero = 0.0;
    double inf = 1.0 / zero, ninf = -1.0 / zero, nan = zero / zero;
    double nz = -0.0;
    float finf = (float)inf;

    printf("inf %f, -inf %f, inf as %%g %g, %%e %e\n", inf, ninf, inf, ninf);
    printf("nan != nan: %d, nan == nan: %d, nan < 1: %d, nan > 1: %d\n", nan != nan, nan == nan, nan < 1.0, nan > 1.0);
    printf("isnan %d isinf %d %d signbit(-inf) %d\n", isnan(nan) != 0, isinf(inf) != 0, isinf(ninf) != 0, signbit(ninf) != 0);
    printf("inf + 1 == inf: %d, inf - inf is nan: %d, inf * 0 is nan: %d\n", inf + 1 == inf, isnan(inf - inf) != 0, isnan(inf * 0) != 0);
    printf("-0.0 == 0.0: %d, signbit(-0.0) %d, 1/-0.0 = %f, -0.0 prints %g\n", nz == 0.0, signbit(nz) != 0, 1.0 / nz, nz);
    printf("0.0 * -1 = %g, -0.0 + 0.0 = %g, -0.0 - 0.0 = %g\n", zero * -1, nz + 0.0, nz - 0.0);
    printf("fabs(-0.0) = %g, copysign(0, -1) = %g\n", fabs(nz), copysign(0.0, -1.0));
    printf("DBL_MAX * 2 = %g, -DBL_MAX * 2 = %g, DBL_MIN / 2 > 0: %d\n", DBL_MAX * 2, -DBL_MAX * 2, DBL_MIN / 2 > 0);
    printf("float inf %f, float from big double %f\n", finf, (double)(float)1e300);
    printf("fmax(nan, 1) = %g, fmin(2, nan) = %g\n", fmax(nan, 1.0), fmin(2.0, nan));
    printf("inf > DBL_MAX: %d, -inf < -DBL_MAX: %d\n", inf > DBL_MAX, ninf < -DBL_MAX);
    printf("sqrt(-0.0) = %g, sqrt(inf) = %g, exp(-inf) = %g, log(0) = %g\n", sqrt(nz), sqrt(inf), exp(ninf), log(zero));
    printf("atan(inf) * 2 = %.6f, tanh(inf) = %g\n", atan(inf) * 2, tanh(inf));
    /* comparisons are all false with NaN: the else branch is taken */
    if (nan >= 0.0)
        printf("nan >= 0\n");
    else
        printf("not (nan >= 0)\n");
    /* max/min written with ?: propagate differently from fmax */
    printf("(nan > 1 ? nan : 1) = %g\n", nan > 1.0 ? nan : 1.0);
    /* subnormals */
    {
        double sub = DBL_MIN / 1024;
        printf("subnormal > 0: %d, * 1024 == DBL_MIN: %d, fpclassify subnormal: %d\n", sub > 0, sub * 1024 == DBL_MIN, fpclassify(sub) == FP_SUBNORMAL);
    }
    return 0;
}
