/* A wave-propagation proxy with a complex field: the free Schrodinger equation
 * i psi_t = -psi_xx / 2 on a periodic 1-D grid, stepped with the explicit
 * leapfrog scheme psi(t+dt) = psi(t-dt) - i dt L psi(t) (L the 3-point Laplacian),
 * a Gaussian wave packet moving right. The field lives in a struct of complex
 * arrays kept on the device by a target data region; each step is a target
 * region; diagnostics are reductions over the field: the norm and mean position
 * (real sums over |psi|^2), and the complex overlap with the initial packet and
 * sum(conj(psi) * -i psi_x) -- the momentum -- with reduction(+) over a double
 * complex, as gcc accepts it, and the overlap again with reduction(-) over a
 * float complex. Output is rounded to 9 digits: sums
 * combined in another order differ in their last bits. */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NX 2048
#define STEPS 200

typedef struct {
    double complex *previous, *current, *next;
    double dx, dt;
} field_t;

/* Rounded to `digits` decimals, a tiny value's sign (rounding noise) dropped. */
static double shown(double v, int digits) {
    double scale = pow(10.0, digits), r = round(v * scale) / scale;
    return r == 0.0 ? 0.0 : r;
}

static void diagnostics(const field_t *f, const double complex *initial, int step) {
    const double complex *psi = f->current;
    double norm = 0.0, position = 0.0;
    double complex overlap = 0.0, momentum = 0.0;
    float complex negated = 0.0f;
    double dx = f->dx;
    #pragma omp target teams distribute parallel for map(to: psi[0:NX], initial[0:NX]) \
        reduction(+: norm, position, overlap, momentum) reduction(-: negated)
    for (int i = 0; i < NX; i++) {
        double complex gradient = (psi[(i + 1) % NX] - psi[(i + NX - 1) % NX]) / (2.0 * dx);
        double density = creal(psi[i] * conj(psi[i]));
        norm += density;
        position += (-20.0 + i * dx) * density;
        overlap += conj(initial[i]) * psi[i];
        momentum += conj(psi[i]) * (-I) * gradient;
        negated -= (float complex)(conj(initial[i]) * psi[i]);
    }
    printf("step %3d: norm %.9f  <x> %+.9f  <p> %.8f  <psi0|psi> %+.9f %+.9fi  float %+.5f %+.5fi\n",
           step, shown(norm * dx, 9), shown(position * dx, 9), shown(creal(momentum) * dx, 8),
           shown(creal(overlap) * dx, 9), shown(cimag(overlap) * dx, 9),
           shown(-crealf(negated) * dx, 5), shown(-cimagf(negated) * dx, 5));
}

int main(void) {
    field_t f;
    f.dx = 40.0 / NX;
    f.dt = 0.2 * f.dx * f.dx;
    f.previous = malloc(NX * sizeof(double complex));
    f.current = malloc(NX * sizeof(double complex));
    f.next = malloc(NX * sizeof(double complex));
    double complex *initial = malloc(NX * sizeof(double complex));
    const double k0 = 3.0, width = 1.5, pi = 4.0 * atan(1.0);
    for (int i = 0; i < NX; i++) {
        double x = -20.0 + i * f.dx + 5.0;
        f.current[i] = exp(-x * x / (2.0 * width * width)) * cexp(I * k0 * x) / sqrt(sqrt(pi) * width);
        initial[i] = f.current[i];
    }
    /* The first step: forward Euler from the initial field. */
    double complex *previous = f.previous, *current = f.current, *next = f.next;
    double dx = f.dx, dt = f.dt;
    #pragma omp target data map(tofrom: previous[0:NX], current[0:NX]) map(alloc: next[0:NX])
    {
        #pragma omp target teams distribute parallel for
        for (int i = 0; i < NX; i++) {
            double complex laplacian = (current[(i + 1) % NX] - 2.0 * current[i] + current[(i + NX - 1) % NX])
                                       / (dx * dx);
            previous[i] = current[i];
            next[i] = current[i] + I * dt * 0.5 * laplacian;
        }
        #pragma omp target teams distribute parallel for
        for (int i = 0; i < NX; i++)
            current[i] = next[i];
        for (int step = 1; step <= STEPS; step++) {
            #pragma omp target teams distribute parallel for
            for (int i = 0; i < NX; i++) {
                double complex laplacian = (current[(i + 1) % NX] - 2.0 * current[i]
                                            + current[(i + NX - 1) % NX]) / (dx * dx);
                next[i] = previous[i] + 2.0 * dt * (0.5 * I) * laplacian;
            }
            #pragma omp target teams distribute parallel for
            for (int i = 0; i < NX; i++) {
                previous[i] = current[i];
                current[i] = next[i];
            }
            if (step % 50 == 0) {
                #pragma omp target update from(current[0:NX])
                diagnostics(&f, initial, step);
            }
        }
    }
    free(f.previous);
    free(f.current);
    free(f.next);
    free(initial);
    return 0;
}
