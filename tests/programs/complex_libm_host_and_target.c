/* <complex.h>'s functions called on the host and in target regions (glibc's libm on
 * the host and the CPU device, the device runtime's on the GPU), for double and
 * float arguments on both sides of the branch cuts (signed zeros included), and
 * long double on the host. Each part prints rounded to 9 decimals (6 for float),
 * a tiny part as 0: the GPU's functions agree with glibc's to a few ulps, not
 * bits. The host's results and the device's are also compared with each other. */
#include <complex.h>
#include <math.h>
#include <stdio.h>

#define NZ 8
#define NF 18

static double complex cx(double re, double im) {
    double complex z;
    __real__ z = re;
    __imag__ z = im;
    return z;
}

static double shown(double v, double scale) {
    double r = round(v * scale) / scale;
    return r == 0.0 ? 0.0 : r;
}

static const char *const names[NF] = {"cexp", "clog", "csqrt", "csin", "ccos", "ctan", "csinh", "ccosh",
                                      "ctanh", "casin", "cacos", "catan", "casinh", "cacosh", "catanh",
                                      "cproj", "cpow", "cabs+carg"};

/* All the functions of one argument; also called inside the target region. */
#pragma omp declare target
static double complex apply(int which, double complex z) {
    switch (which) {
    case 0: return cexp(z);
    case 1: return clog(z);
    case 2: return csqrt(z);
    case 3: return csin(z);
    case 4: return ccos(z);
    case 5: return ctan(z);
    case 6: return csinh(z);
    case 7: return ccosh(z);
    case 8: return ctanh(z);
    case 9: return casin(z);
    case 10: return cacos(z);
    case 11: return catan(z);
    case 12: return casinh(z);
    case 13: return cacosh(z);
    case 14: return catanh(z);
    case 15: return cproj(z);
    case 16: return cpow(z, 0.5 - 0.25 * I);
    default: return cabs(z) + I * carg(z);
    }
}

static float complex apply_float(int which, float complex z) {
    switch (which % 6) {
    case 0: return cexpf(z);
    case 1: return clogf(z);
    case 2: return csqrtf(z);
    case 3: return csinf(z);
    case 4: return catanhf(z);
    default: return cabsf(z) + I * cargf(z);
    }
}
#pragma omp end declare target

int main(void) {
    double complex z[NZ];
    z[0] = cx(0.5, 0.25);
    z[1] = cx(-1.5, 0.0);       /* on the branch cut of clog, csqrt, cacosh... */
    z[2] = cx(-1.5, -0.0);      /* ... from below */
    z[3] = cx(2.0, -1.0);
    z[4] = cx(0.0, 3.0);        /* on the cut of casin, catan */
    z[5] = cx(-0.25, -2.5);
    z[6] = cx(1.0, 1e-6);
    z[7] = cx(0.125, -0.0);
    double complex host[NF][NZ], device[NF][NZ];
    float complex host_f[NZ], device_f[NZ];
    for (int f = 0; f < NF; f++)
        for (int k = 0; k < NZ; k++)
            host[f][k] = apply(f, z[k]);
    for (int k = 0; k < NZ; k++)
        host_f[k] = apply_float(k, (float complex)z[k]);

    #pragma omp target teams distribute parallel for collapse(2) map(to: z) map(from: device)
    for (int f = 0; f < NF; f++)
        for (int k = 0; k < NZ; k++)
            device[f][k] = apply(f, z[k]);
    #pragma omp target map(to: z) map(from: device_f)
    for (int k = 0; k < NZ; k++)
        device_f[k] = apply_float(k, (float complex)z[k]);

    for (int f = 0; f < NF; f++) {
        printf("%-9s", names[f]);
        for (int k = 0; k < NZ; k++)
            printf(" %.9f%+.9fi", shown(creal(device[f][k]), 1e9), shown(cimag(device[f][k]), 1e9));
        double worst = 0.0;
        for (int k = 0; k < NZ; k++)
            worst = fmax(worst, cabs(device[f][k] - host[f][k]) / fmax(cabs(host[f][k]), 1e-300));
        printf("  %s\n", worst < 1e-13 ? "host=device" : "HOST AND DEVICE DIFFER");
    }
    printf("float    ");
    for (int k = 0; k < NZ; k++)
        printf(" %.6f%+.6fi", shown(crealf(device_f[k]), 1e6), shown(cimagf(device_f[k]), 1e6));
    double worst_f = 0.0;
    for (int k = 0; k < NZ; k++)
        worst_f = fmax(worst_f, cabsf(device_f[k] - host_f[k]) / cabsf(host_f[k]));
    printf("  %s\n", worst_f < 1e-6 ? "host=device" : "HOST AND DEVICE DIFFER");

    long double complex l = 0.75L - 0.5L * I;
    long double complex le = cexpl(l), ll = clogl(l), ls = csqrtl(l), lp = cpowl(l, 2.0L + 0.0L * I);
    printf("long double: %.15Lf%+.15Lfi %.15Lf%+.15Lfi %.15Lf%+.15Lfi %.15Lf%+.15Lfi %.15Lf\n",
           creall(le), cimagl(le), creall(ll), cimagl(ll), creall(ls), cimagl(ls), creall(lp),
           cimagl(lp), cabsl(l));
    return 0;
}
