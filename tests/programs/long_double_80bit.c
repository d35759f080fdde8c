/* long double as the host's x86 80-bit type: extended-precision sums as numerical
 * codes use them (compensating for double's rounding), printf %Lf/%Le/%Lg,
 * <math.h> *l functions, <float.h> LDBL_*, strtold, varargs, struct layout and
 * a target region (the CPU device computes it natively; on the GPU it runs on
 * the host: NVPTX has no 80-bit type). */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

struct sample {
    char tag;
    long double value;
    int count;
};

static const long double third = 1.0L / 3;
static long double table[4] = { 0.1L, 1e-30L, 12345678901234567890.0L, -2.5L };
static struct sample origin = { 'o', 0.25L, 3 };

static long double mean(int n, ...) {
    va_list ap;
    long double sum = 0;
    va_start(ap, n);
    for (int i = 0; i < n; i++) {
        sum += va_arg(ap, long double);
        (void)va_arg(ap, int);              /* interleaved with ints, as in real varargs */
    }
    va_end(ap);
    return sum / n;
}

static long double harmonic(int n) {
    long double h = 0;
    for (int i = n; i >= 1; i--)
        h += 1.0L / i;
    return h;
}

int main(void) {
    printf("sizeof %zu align %zu, struct sample %zu, value at %zu, count at %zu\n",
           sizeof(long double), _Alignof(long double), sizeof(struct sample),
           offsetof(struct sample, value), offsetof(struct sample, count));
    printf("LDBL: %d %d %d %d %.21Lg %Lg %Lg\n", LDBL_MANT_DIG, LDBL_DIG, LDBL_MAX_EXP,
           LDBL_MIN_EXP, LDBL_EPSILON, LDBL_MAX, LDBL_MIN);

    /* more precision than double: 1 + eps/2 is still above 1 */
    double d_eps = DBL_EPSILON / 2;
    long double l_one = 1.0L + d_eps;
    printf("1 + DBL_EPSILON/2: double %s, long double %s\n",
           1.0 + d_eps > 1.0 ? "above" : "equal", l_one > 1.0L ? "above" : "equal");

    printf("third %.21Lf %.10Le %Lg\n", third, third, third);
    for (int i = 0; i < 4; i++)
        printf("table[%d] %.25Lg %Le\n", i, table[i], table[i]);
    printf("harmonic(1000) %.20Lf\n", harmonic(1000));
    printf("origin %c %Lf %d\n", origin.tag, origin.value, origin.count);

    /* conversions to and from every arithmetic type */
    long double big = 18446744073709551615.0L;
    unsigned long long ull = (unsigned long long)big;
    long long ll = (long long)-9.2e18L;
    int i = (int)-7.9L;
    unsigned char uc = (unsigned char)200.7L;
    float f = (float)third;
    double d = (double)third;
    long double from_ll = (long double)ll, from_f = f, from_d = d, from_i = i;
    _Bool truth = (_Bool)0.0001L;
    printf("conversions %llu %lld %d %u %.9g %.17g %Lg %.21Lg %.21Lg %Lg %d\n", ull, ll, i, uc, f,
           d, from_ll, from_f, from_d, from_i, truth);
    printf("compare %d %d %d %d\n", third == d, third > d, (long double)d == from_d,
           1.0L / 3 == third);

    /* <math.h> and strtold */
    printf("math %.18Lf %.18Lf %.18Lf %.18Lf %.18Lf\n", sqrtl(2.0L), expl(1.0L), logl(10.0L),
           powl(2.0L, 0.5L), fabsl(-third));
    printf("math %.18Lf %.18Lf %Lg %Lg %Lg\n", sinl(1.0L), cosl(1.0L), floorl(-2.5L),
           ceill(-2.5L), fmodl(10.0L, 3.0L));
    printf("classify %d %d %d\n", isinf(LDBL_MAX * 2), isnan(sqrtl(-1.0L)) != 0,
           signbit(-third) != 0);
    char *end;
    long double parsed = strtold("3.14159265358979323846264338327950288xyz", &end);
    printf("strtold %.20Lf rest '%s'\n", parsed, end);
    printf("mean %.20Lg\n", mean(3, 1.0L, 7, 2.0L, 8, third, 9));

    /* compound assignment, increments */
    long double acc = 10;
    acc += 0.5L; acc *= 3; acc -= 1; acc /= 4; acc++; --acc;
    printf("acc %Lf\n", acc);

    enum { N = 64 };
    long double partial[N];
#pragma omp target map(from: partial)
    for (int k = 0; k < N; k++) {
        long double term = 1.0L / ((long double)(k + 1) * (k + 1));
        partial[k] = term * 6;
    }
    long double basel = 0;
    for (int k = N - 1; k >= 0; k--)
        basel += partial[k];
    printf("basel %.20Lf\n", basel);
    return 0;
}
