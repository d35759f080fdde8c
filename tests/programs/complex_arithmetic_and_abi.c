/* C99 complex numbers as gcc compiles them, on the host: the three complex types
 * (sizes, alignment, layout in structs and arrays), the operators with Annex G's
 * infinities (gcc's __muldc3/__divdc3 semantics, float division computed in double),
 * real/complex and complex/complex conversions, GNU __real__/__imag__ and ~,
 * and calls into glibc's libm with each type as the x86-64 ABI passes it
 * (float complex packed in xmm0, double complex in xmm0:xmm1, long double
 * complex in memory and returned in st0:st1), and reductions over complex
 * variables. Inputs come from argc so that neither compiler folds them. */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    char tag;
    float complex f;
    double complex d;
    long double complex l;
} sample_t;

/* A value from its parts, NaN and infinite parts included (C11's CMPLX; this is C99). */
static double complex cx(double re, double im) {
    double complex z;
    __real__ z = re;
    __imag__ z = im;
    return z;
}

static float complex cxf(float re, float im) {
    float complex z;
    __real__ z = re;
    __imag__ z = im;
    return z;
}

/* Static initialisers: complex constant expressions, folded as gcc folds them. */
static const double complex roots_of_unity[4] = {1.0, 1.0 * I, -1.0, -1.0 * I};
static const float complex weights[3] = {0.5f + 0.25f * I, (0.1f + 0.3f * I) / (0.7f - 0.2f * I),
                                         (1.0f - 2.0f * I) * (0.5f + 0.5f * I)};
static double complex quotient = (1.0 + 2.0 * I) / (3.0 - 4.0 * I);

static double complex rotate(double complex z, double angle) {
    return z * cexp(I * angle);
}

static float complex scale_f(float complex z, float s) { return z * s; }

static long double complex square_l(long double complex z) { return z * z; }

static void show(const char *what, double complex z) {
    printf("%-8s %.17g %+.17gi\n", what, creal(z), cimag(z));
}

static void show_special(const char *what, double complex z) {
    /* Annex G: which parts are infinite, finite or NaN (NaN signs differ by libc). */
    const char *re = isnan(creal(z)) ? "nan" : isinf(creal(z)) ? (creal(z) > 0 ? "+inf" : "-inf") : "fin";
    const char *im = isnan(cimag(z)) ? "nan" : isinf(cimag(z)) ? (cimag(z) > 0 ? "+inf" : "-inf") : "fin";
    printf("%-8s %s %s\n", what, re, im);
}

int main(int argc, char **argv) {
    (void)argv;
    double one = (double)argc / (double)argc;          /* 1.0, unknown to the compilers */
    printf("sizes %zu %zu %zu align %zu %zu %zu\n", sizeof(float complex), sizeof(double complex),
           sizeof(long double complex), _Alignof(float complex), _Alignof(double complex),
           _Alignof(long double complex));
    sample_t s;
    memset(&s, 0, sizeof s);
    printf("struct %zu offsets %zu %zu %zu\n", sizeof s, (size_t)((char *)&s.f - (char *)&s),
           (size_t)((char *)&s.d - (char *)&s), (size_t)((char *)&s.l - (char *)&s));

    double complex a = 1.5 * one + 2.0 * I, b = -0.5 * one + 0.25 * I;
    show("a+b", a + b);
    show("a-b", a - b);
    show("a*b", a * b);
    show("a/b", a / b);
    show("-a", -a);
    show("~a", ~a);
    show("3/b", 3.0 * one / b);
    show("b/3", b / (3.0 * one));
    show("3*b", 3.0 * one * b);
    show("3-b", 3.0 * one - b);
    printf("a==a %d a!=b %d a==1.5 %d !a %d\n", a == a, a != b, (a - 2.0 * I) == 1.5 * one, !a);

    float complex f = (float)one - 3.0f * I;
    float complex fq = f / (f + 1.0f), fp = f * (f + 2.0f * I);
    printf("float    %.9g %+.9gi  %.9g %+.9gi\n", crealf(fq), cimagf(fq), crealf(fp), cimagf(fp));
    long double complex l = 2.0L * one + 1.0L * I;
    long double complex lq = l / (l + 1.0L);
    printf("long     %.21Lg %+.21Lgi\n", creall(lq), cimagl(lq));

    /* Conversions. */
    double complex from_int = 7;
    float complex narrowed = a;
    long double complex widened = b;
    double real_only = (double)a;
    _Bool truth = 0.0 * one + 1e-300 * I;
    int truncated = (int)(a * 2.0);
    printf("conv %g%+gi %.9g%+.9gi %Lg%+Lgi %g %d %d\n", creal(from_int), cimag(from_int),
           crealf(narrowed), cimagf(narrowed), creall(widened), cimagl(widened), real_only, truth,
           truncated);

    /* __real__ and __imag__ as lvalues, compound assignment, ++. */
    double complex z = a;
    __real__ z = 4.0;
    __imag__ z *= -1.0;
    z += 1.0;
    z *= b;
    z /= a;
    z -= I;
    z++;
    show("z", z);

    /* Arrays of complex and a recurrence (a Mandelbrot orbit). */
    double complex orbit[12];
    orbit[0] = 0.0;
    for (int k = 1; k < 12; k++)
        orbit[k] = orbit[k - 1] * orbit[k - 1] + cx(-0.75 * one, 0.1);
    show("orbit", orbit[11]);

    /* Calls with each type through the ABI: ours and glibc's. */
    show("rotate", rotate(a, 0.5 * one));
    float complex g = scale_f(cxf(1.25f, -0.5f) * (float)one, 3.0f);
    printf("scale_f  %.9g %+.9gi\n", crealf(g), cimagf(g));
    long double complex q = square_l(l);
    printf("square_l %.21Lg %+.21Lgi\n", creall(q), cimagl(q));
    s.tag = 'x';
    s.f = cexpf(cxf(0.5f, 1.0f) * (float)one);
    s.d = csqrt(b);
    s.l = cexpl(l * 0.25L);
    printf("libm f %.9g %+.9gi abs %.9g arg %.9g\n", crealf(s.f), cimagf(s.f), cabsf(s.f), cargf(s.f));
    printf("libm d %.17g %+.17gi abs %.17g arg %.17g\n", creal(s.d), cimag(s.d), cabs(s.d), carg(s.d));
    printf("libm l %.21Lg %+.21Lgi abs %.21Lg\n", creall(s.l), cimagl(s.l), cabsl(s.l));
    show("clog", clog(a));
    show("cpow", cpow(a, b));
    show("csin", csin(b));
    show("ctanh", ctanh(a));
    show("cproj", cproj(a));

    for (int k = 0; k < 4; k++)
        show("root", roots_of_unity[k] * a);
    for (int k = 0; k < 3; k++)
        printf("weight   %.9g %+.9gi\n", crealf(weights[k]), cimagf(weights[k]));
    show("quotient", quotient);

    /* Reductions over complex variables: gcc accepts + - * && ||. (+ 0.0 turns a zero
     * whose sign depends on how the threads' products were grouped into +0.) */
    double complex sum = 0.0, product = 1.0;
    float complex all = 1.0f, any = 0.0f;
    #pragma omp parallel for reduction(+: sum) reduction(*: product) reduction(&&: all) reduction(||: any)
    for (int k = 0; k < 12; k++) {
        sum += k * I + 0.5 * one;
        product *= (k % 3 ? I : 2.0 * one);
        all = all && (k < 20);
        any = any || (k == 7);
    }
    printf("reductions %g%+gi %g%+gi %g %g\n", creal(sum), cimag(sum), creal(product) + 0.0,
           cimag(product) + 0.0, crealf(all), crealf(any));

    /* Annex G special values. */
    double inf = INFINITY * one, nan_ = NAN;
    double complex zero = 0.0 * one;
    show_special("inf*b", cx(inf, nan_) * b);
    show_special("b/0", b / zero);
    show_special("inf/b", cx(inf, 1.0) / b);
    show_special("b/inf", b / cx(inf, inf));
    show_special("big*big", cx(1e300 * one, 1e300) * cx(1e300 * one, 1e300));
    show_special("nan*b", cx(nan_, one) * b);
    return 0;
}
