// flags: -fwrapv
/* Rodinia particlefilter's random numbers: a linear congruential generator whose
 * multiply overflows int, which the code relies on wrapping (it is built with -fwrapv
 * semantics in mind: gcc computes the wrapped value; LLVM with `nsw` may not). Each
 * particle owns a seed; the draws run in a target region, a time step at a time. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define A 1103515245
#define C 12345
#define M 2147483647
#define PARTICLES 64
#define STEPS 5

struct particles {
    int seed[PARTICLES];
    double x[PARTICLES], weight[PARTICLES];
};

#pragma omp declare target
static double randu(int *seed, int index) {
    int num = A * seed[index] + C;
    seed[index] = num % M;
    return fabs(seed[index] / ((double)M));
}

static double randn(int *seed, int index) {
    double u = randu(seed, index), v = randu(seed, index);
    double cosine = cos(2 * 3.14159265358979 * v);
    double rt = -2 * log(u);
    return sqrt(rt) * cosine;
}
#pragma omp end declare target

/* The first draws of a few fixed seeds, on the host, as a check of the generator: a
 * loop the optimiser unrolls and computes at compile time, where an `nsw` multiply that
 * overflows is poison, not the wrapped value. */
static void check_generator(void) {
    int seeds[4] = {1, 7, 1000, 123456};
    double sum = 0;
    for (int k = 0; k < 6; k++)
        for (int i = 0; i < 4; i++) {
            double u = randu(seeds, i);
            sum += u;
            printf("check %d.%d: %d %.9f\n", k, i, seeds[i], u);
        }
    printf("check sum %.9f\n", sum);
}

int main(void) {
    static struct particles p;
    check_generator();
    for (int i = 0; i < PARTICLES; i++) {
        p.seed[i] = i * 1000 + 7;           /* Rodinia seeds with time(0) * i: fixed here */
        p.x[i] = 0.0;
        p.weight[i] = 1.0 / PARTICLES;
    }
    int *seed = p.seed;
    double *x = p.x, *weight = p.weight;
    for (int step = 0; step < STEPS; step++) {
        #pragma omp target teams distribute parallel for map(tofrom: seed[0:PARTICLES], x[0:PARTICLES], \
                                                                     weight[0:PARTICLES])
        for (int i = 0; i < PARTICLES; i++) {
            x[i] += 1.0 + 5.0 * randn(seed, i);
            weight[i] *= randu(seed, i);
        }
        double sum = 0.0, mean = 0.0;
        for (int i = 0; i < PARTICLES; i++) {
            sum += weight[i];
            mean += x[i];
        }
        printf("step %d: seed[0] %d seed[63] %d mean x %.6f weight sum %.9e\n", step, seed[0],
               seed[PARTICLES - 1], mean / PARTICLES, sum);
    }
    return 0;
}
