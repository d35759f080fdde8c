/* A radix-2 iterative FFT (Cooley-Tukey, decimation in time) on double complex
 * arrays, every stage a target region over the butterflies of the signal kept on
 * the device by a target data region: bit-reversal permutation, log2(N) stages,
 * then the inverse transform (conjugate trick) and the round-trip error. The
 * twiddle factors are computed on the device with cexp. Spectrum values print
 * with 6 decimals: the GPU's cexp agrees with glibc's to a few ulps, not bits. */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define LOG2N 10
#define N (1 << LOG2N)

typedef struct {
    double complex *data;
    double complex *twiddle;
    int n;
} fft_plan_t;

static unsigned reverse_bits(unsigned value, int bits) {
    unsigned reversed = 0;
    for (int b = 0; b < bits; b++) {
        reversed = (reversed << 1) | (value & 1u);
        value >>= 1;
    }
    return reversed;
}

static void transform(fft_plan_t *plan, int inverse) {
    double complex *x = plan->data, *w = plan->twiddle;
    int n = plan->n;
    #pragma omp target data map(tofrom: x[0:n]) map(to: w[0:n / 2])
    {
        if (inverse) {
            #pragma omp target teams distribute parallel for
            for (int i = 0; i < n; i++)
                x[i] = conj(x[i]);
        }
        #pragma omp target teams distribute parallel for
        for (int i = 0; i < n; i++) {
            unsigned j = reverse_bits((unsigned)i, LOG2N);
            if ((unsigned)i < j) {
                double complex t = x[i];
                x[i] = x[j];
                x[j] = t;
            }
        }
        for (int half = 1; half < n; half *= 2) {
            int stride = n / (2 * half);
            #pragma omp target teams distribute parallel for
            for (int b = 0; b < n / 2; b++) {
                int group = b / half, k = b % half;
                int top = group * 2 * half + k, bottom = top + half;
                double complex t = w[k * stride] * x[bottom];
                double complex u = x[top];
                x[top] = u + t;
                x[bottom] = u - t;
            }
        }
        if (inverse) {
            #pragma omp target teams distribute parallel for
            for (int i = 0; i < n; i++)
                x[i] = conj(x[i]) / n;
        }
    }
}

/* 6 decimals, a tiny negative value as 0 (its sign is rounding noise). */
static double shown(double v) {
    double r = round(v * 1e6) / 1e6;
    return r == 0.0 ? 0.0 : r;
}

int main(int argc, char **argv) {
    (void)argv;
    fft_plan_t plan;
    plan.n = N;
    plan.data = malloc(N * sizeof(double complex));
    plan.twiddle = malloc(N / 2 * sizeof(double complex));
    double complex *original = malloc(N * sizeof(double complex));
    double complex *w = plan.twiddle;
    const double two_pi = 8.0 * atan(1.0);
    #pragma omp target teams distribute parallel for map(from: w[0:N / 2])
    for (int k = 0; k < N / 2; k++)
        w[k] = cexp(-I * (two_pi * k / N));

    /* Two tones and a step, with an imaginary ramp. */
    for (int i = 0; i < N; i++) {
        double t = (double)i / N;
        original[i] = 3.0 * cos(two_pi * 5.0 * t) + sin(two_pi * 40.0 * t) + (i < N / 4 ? 1.0 : 0.0)
                      + I * (argc * 0.001 * (i % 16));
        plan.data[i] = original[i];
    }
    transform(&plan, 0);
    const int bins[] = {0, 1, 5, 40, 64, 512, 1019};
    for (unsigned b = 0; b < sizeof bins / sizeof bins[0]; b++) {
        double complex X = plan.data[bins[b]];
        printf("bin %4d: %12.6f %+12.6fi  |X| %12.6f\n", bins[b], shown(creal(X)), shown(cimag(X)),
               shown(cabs(X)));
    }
    double energy = 0.0;
    for (int i = 0; i < N; i++)
        energy += creal(plan.data[i] * conj(plan.data[i]));
    printf("spectral energy / N: %.6f\n", energy / N);

    transform(&plan, 1);
    double worst = 0.0;
    for (int i = 0; i < N; i++)
        worst = fmax(worst, cabs(plan.data[i] - original[i]));
    printf("round trip: %s\n", worst < 1e-12 ? "exact to 1e-12" : "WRONG");
    free(plan.data);
    free(plan.twiddle);
    free(original);
    return 0;
}
