// std: gnu99
/* A Jacobi heat stencil timed the way TeaLeaf-style codes time their kernels: with
 * clock_gettime(CLOCK_MONOTONIC) and struct timespec, which gcc's GNU modes make
 * visible through <stdlib.h> + <time.h> (glibc's feature-test macros: _DEFAULT_SOURCE
 * is implied without -std=c99). BSD/XSI names from the same headers (random, srandom,
 * M_PI, struct timeval, nanosleep) are used as such codes use
 * them. Timings go to "timing:" lines; everything else printed is deterministic. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <math.h>
#include <string.h>

#define NX 96
#define NY 64
#define STEPS 40

struct field { double *u, *next; int nx, ny; };

static double seconds_between(const struct timespec *a, const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) + 1e-9 * (double)(b->tv_nsec - a->tv_nsec);
}

static void initialise(struct field *f)
{
    srandom(12345u);                           /* glibc's generator: the same sequence for both builds */
    for (int j = 0; j < f->ny; j++)
        for (int i = 0; i < f->nx; i++) {
            long r = random() % 1000;
            f->u[j * f->nx + i] = sin(M_PI * i / (f->nx - 1)) * sin(M_PI * j / (f->ny - 1)) + 1e-3 * r;
        }
    memcpy(f->next, f->u, sizeof(double) * f->nx * f->ny);
}

static double step(struct field *f)
{
    int nx = f->nx, ny = f->ny;
    double *u = f->u, *next = f->next, change = 0.0;
    #pragma omp target teams distribute parallel for collapse(2) reduction(max:change) \
        map(to: u[0:nx*ny]) map(tofrom: next[0:nx*ny])
    for (int j = 1; j < ny - 1; j++)
        for (int i = 1; i < nx - 1; i++) {
            double v = 0.25 * (u[j * nx + i - 1] + u[j * nx + i + 1] + u[(j - 1) * nx + i] + u[(j + 1) * nx + i]);
            double d = fabs(v - u[j * nx + i]);
            next[j * nx + i] = v;
            if (d > change) change = d;
        }
    double *t = f->u; f->u = f->next; f->next = t;
    return change;
}

int main(void)
{
    struct field f = { malloc(sizeof(double) * NX * NY), malloc(sizeof(double) * NX * NY), NX, NY };
    struct timespec start, stop, pause = { 0, 1000 };
    struct timeval unused_since_select = { 0, 0 };     /* <stdlib.h> shows it in GNU modes too */
    initialise(&f);
    if (clock_gettime(CLOCK_MONOTONIC, &start) != 0) return EXIT_FAILURE;
    double change = 0.0;
    for (int s = 0; s < STEPS; s++) {
        change = step(&f);
        if (s % 10 == 9) printf("step %2d max change %.9f\n", s + 1, change);
    }
    nanosleep(&pause, NULL);
    if (clock_gettime(CLOCK_MONOTONIC, &stop) != 0) return EXIT_FAILURE;
    double elapsed = seconds_between(&start, &stop);
    double total = 0.0;
    #pragma omp parallel for reduction(+:total)
    for (int k = 0; k < NX * NY; k++) total += f.u[k];
    printf("checksum %.9f\n", total);
    printf("clock advanced: %s (timeval zero: %ld)\n", elapsed > 0.0 ? "yes" : "no",
           (long)unused_since_select.tv_sec);
    printf("timing: %d steps in %.6f s\n", STEPS, elapsed);
    free(f.u); free(f.next);
    return 0;
}
