/* A particle filter in the shape of Rodinia's particlefilter: particle arrays come from
 * malloc and are accumulated into (`x[i] += ...`) before anything is stored in them, as
 * that code does.  Heap memory a process has never used reads as zero (a new heap grows
 * by pages the kernel gives zeroed), so gcc's binary prints the same on every run; a program
 * built by omp2gpu must too, which it does only when it runs as a process of its own
 * (run inside the compiler's process, the memory held Python's garbage, and the
 * estimate printed -nan: so this program is tested on the native path only,
 * tests/native/test_native_executables.py, until `omp2gpu run` is native by default,
 * when it belongs in tests/programs). Time steps move the particles on the device; the likelihood,
 * normalisation and resampling alternate between device and host. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define PARTICLES 4096           /* 32 KiB per array: from the heap, not fresh mappings */
#define STEPS 6

struct swarm {
    double *x, *y, *weight;
    double *cdf;
    int *chosen;
};

static double noise(unsigned int *seed) {            /* a small LCG, the same everywhere */
    *seed = *seed * 1103515245u + 12345u;
    return ((double)((*seed >> 8) & 0xFFFF) / 65536.0) - 0.5;
}

static void move(struct swarm *s, int n, int step) {
    double *x = s->x, *y = s->y;
    #pragma omp target teams distribute parallel for map(tofrom: x[0:n], y[0:n])
    for (int i = 0; i < n; i++) {
        unsigned int seed = (unsigned int)(i * 7919 + step * 104729);
        seed = seed * 1103515245u + 12345u;
        x[i] += 1.0 + 0.25 * (((double)((seed >> 8) & 0xFFFF) / 65536.0) - 0.5);
        seed = seed * 1103515245u + 12345u;
        y[i] += -2.0 + 0.25 * (((double)((seed >> 8) & 0xFFFF) / 65536.0) - 0.5);
    }
}

static double likelihood(struct swarm *s, int n, double tx, double ty) {
    double *x = s->x, *y = s->y, *w = s->weight, total = 0.0;
    #pragma omp target teams distribute parallel for map(to: x[0:n], y[0:n]) map(tofrom: w[0:n]) \
        reduction(+: total)
    for (int i = 0; i < n; i++) {
        double dx = x[i] - tx, dy = y[i] - ty;
        w[i] += exp(-(dx * dx + dy * dy) / 2.0);     /* w was never written before step 0 */
        total += w[i];
    }
    return total;
}

static void resample(struct swarm *s, int n, double total, unsigned int *seed) {
    double start = (noise(seed) + 0.5) / n;
    s->cdf[0] = s->weight[0] / total;
    for (int i = 1; i < n; i++) s->cdf[i] = s->cdf[i - 1] + s->weight[i] / total;
    for (int j = 0, i = 0; j < n; j++) {
        double u = start + (double)j / n;
        while (i < n - 1 && s->cdf[i] < u) i++;
        s->chosen[j] = i;
    }
    for (int j = 0; j < n; j++) {
        s->x[j] = s->x[s->chosen[j]];
        s->y[j] = s->y[s->chosen[j]];
        s->weight[j] = 1.0 / n;
    }
}

int main(void) {
    struct swarm s;
    unsigned int seed = 12345u;
    double tx = 0.0, ty = 0.0;
    s.x = malloc(PARTICLES * sizeof *s.x);            /* never initialised: read as zero */
    s.y = malloc(PARTICLES * sizeof *s.y);
    s.weight = malloc(PARTICLES * sizeof *s.weight);
    s.cdf = malloc(PARTICLES * sizeof *s.cdf);
    s.chosen = malloc(PARTICLES * sizeof *s.chosen);
    for (int step = 0; step < STEPS; step++) {
        double xe = 0.0, ye = 0.0;
        tx += 1.0;
        ty -= 2.0;
        move(&s, PARTICLES, step);
        double total = likelihood(&s, PARTICLES, tx, ty);
        for (int i = 0; i < PARTICLES; i++) {
            xe += s.x[i] * s.weight[i] / total;
            ye += s.y[i] * s.weight[i] / total;
        }
        printf("step %d: XE: %.4f YE: %.4f\n", step, xe, ye);
        resample(&s, PARTICLES, total, &seed);
    }
    free(s.x);
    free(s.y);
    free(s.weight);
    free(s.cdf);
    free(s.chosen);
    return 0;
}
