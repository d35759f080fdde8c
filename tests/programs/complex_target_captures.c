/* How complex variables reach target regions: an unmapped one is a scalar in C's
 * sense, so firstprivate (its writes stay in the region), also with an explicit
 * firstprivate clause; map(tofrom) brings a new value back; a float complex and a
 * long double complex (which sends its region to the host on the GPU) likewise;
 * a complex array member of a struct mapped whole. Inputs come through a volatile
 * so that no compiler folds them. */
#include <complex.h>
#include <stdio.h>

typedef struct {
    int count;
    double complex values[4];
} bundle_t;

int main(void) {
    volatile double seed = 1.0;
    double complex c = seed + 2.0 * I, out[4];
    float complex g = (float)seed * 0.5f + 1.5f * I;
    long double complex l = seed * 3.0L + 1.0L * I;
    bundle_t b = {4, {seed, seed * I, -seed, -seed * I}};

    #pragma omp target map(from: out)
    {
        out[0] = c * 2.0;
        out[1] = g;
        c = 5.0;                 /* firstprivate: the host's c keeps 1+2i */
        out[2] = c;
        out[3] = 0;
    }
    printf("implicit: %g%+gi %g%+gi host c %g%+gi region c %g\n", creal(out[0]), cimag(out[0]),
           creal(out[1]), cimag(out[1]), creal(c), cimag(c), creal(out[2]));

    #pragma omp target firstprivate(c) map(tofrom: out[0:1])
    {
        out[0] = c * I;
        c = 0;
    }
    printf("firstprivate: %g%+gi host c %g%+gi\n", creal(out[0]), cimag(out[0]), creal(c), cimag(c));

    #pragma omp target map(tofrom: c, g)
    {
        c = c * c;
        g = conjf(g) * 2.0f;
    }
    printf("tofrom: %g%+gi %g%+gi\n", creal(c), cimag(c), crealf(g), cimagf(g));

    #pragma omp target map(tofrom: l)
    l = l * l;
    printf("long double: %Lg%+Lgi\n", creall(l), cimagl(l));

    #pragma omp target map(tofrom: b)
    for (int k = 0; k < b.count; k++)
        b.values[k] = b.values[k] * (1.0 + I) + k;
    for (int k = 0; k < b.count; k++)
        printf("bundle[%d] %g%+gi\n", k, creal(b.values[k]), cimag(b.values[k]));
    return 0;
}
