/* float arithmetic must stay in single precision (no silent widening), double in double. */
#include <stdio.h>
#include <float.h>

static float fadd(float a, float b) { return a + b; }
static float fsum_series(int n)
{
    float s = 0.0f;
    int i;
    for (i = 1; i <= n; i++)
        s += 1.0f / (float)i;
    return s;
}
static double dsum_series(int n)
{
    double s = 0.0;
    int i;
    for (i = 1; i <= n; i++)
        s += 1.0 / i;
    return s;
}

int main(void)
{
    float f1 = 16777216.0f, f;
    double d1 = 9007199254740992.0, d;
    float third = 1.0f / 3.0f;
    double dthird = 1.0 / 3.0;
    volatile float vf;
    int i;

    f = f1 + 1.0f;
    printf("2^24 + 1 in float = %.1f\n", f);
    d = d1 + 1.0;
    printf("2^53 + 1 in double = %.1f\n", d);
    printf("third float = %.10f, double = %.17f\n", third, dthird);
    printf("third*3 float == 1: %d, double == 1: %d\n", third * 3.0f == 1.0f, dthird * 3.0 == 1.0);
    /* sum of 0.1 ten times */
    f = 0.0f;
    d = 0.0;
    for (i = 0; i < 10; i++) {
        f += 0.1f;
        d += 0.1;
    }
    printf("sum 0.1 x10: float %.9g double %.17g\n", f, d);
    printf("float == 1: %d, double == 1: %d\n", f == 1.0f, d == 1.0);
    /* catastrophic cancellation visible only in float */
    vf = 1.0f + 1e-8f;
    printf("1+1e-8f - 1 = %g\n", vf - 1.0f);
    d = 1.0 + 1e-8;
    printf("1+1e-8 - 1 = %.6e\n", d - 1.0);
    printf("fadd(1e8f, 1) = %.1f\n", fadd(1e8f, 1.0f));
    printf("harmonic(1000): float %.7f double %.15f\n", fsum_series(1000), dsum_series(1000));
    printf("harmonic(100000) float = %.6f\n", fsum_series(100000));
    printf("FLT_EPSILON = %g, DBL_EPSILON = %g\n", FLT_EPSILON, DBL_EPSILON);
    printf("FLT_MAX = %g, DBL_MAX = %g\n", FLT_MAX, DBL_MAX);
    printf("FLT_MIN = %g, DBL_MIN = %g\n", FLT_MIN, DBL_MIN);
    printf("FLT_DIG = %d, DBL_DIG = %d, FLT_MANT_DIG = %d, DBL_MANT_DIG = %d\n", FLT_DIG, DBL_DIG, FLT_MANT_DIG, DBL_MANT_DIG);
    /* float overflow to inf, underflow to 0 */
    f = FLT_MAX;
    f = f * 2.0f;
    printf("FLT_MAX*2 = %f\n", f);
    d = 1e308;
    d = d * 10;
    printf("1e308*10 = %g, -that = %g\n", d, -d);
    f = 1e-30f;
    f = f * 1e-30f;
    printf("1e-30f*1e-30f = %g\n", f);
    d = 0.0;
    printf("0/0 is nan: %d\n", (d / d) != (d / d));
    /* float literal vs double literal */
    printf("0.1f == 0.1: %d, (float)0.1 == 0.1f: %d\n", 0.1f == 0.1, (float)0.1 == 0.1f);
    /* mixed float*int stays float */
    f = 3.0f;
    printf("sizeof(f*2) = %d, sizeof(f*2.0) = %d\n", (int)sizeof(f * 2), (int)sizeof(f * 2.0));
    /* printf formats for floating values */
    d = 1234.5678;
    printf("%f %e %g %.2f %10.3f %-10.1f| %E %G\n", d, d, d, d, d, d, d, d);
    printf("%g %g %g %g\n", 0.0001, 0.00001, 123456.0, 1234567.0);
    printf("%.0f %.0f %.0f %.0f\n", 0.5, 1.5, 2.5, -0.5);
    return 0;
}
