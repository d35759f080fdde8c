/* Loops whose test is '!=' (OpenMP 5.0 2.9.1: `var != bound` with an increment of 1 or
   -1): a particle ring advanced in time steps, walked upwards and downwards with '!='
   in target regions (combined and a `parallel for` inside `target`), a host
   `parallel for` with lastprivate, and an unsigned counter run down to 0. */
#include <stdio.h>
#include <stdlib.h>

#define NP 1000
#define STEPS 4

struct ring {
    double x[NP];
    double v[NP];
};

static double energy(const struct ring *r)
{
    double e = 0.0;
    int i;
#pragma omp parallel for reduction(+: e)
    for (i = 0; i != NP; i++)
        e += 0.5 * r->v[i] * r->v[i];
    return e;
}

int main(int argc, char **argv)
{
    struct ring *r = malloc(sizeof *r);
    int n = argc > 5 ? atoi(argv[5]) : NP;      /* the program is run with two arguments */
    for (int i = 0; i < NP; i++) {
        r->x[i] = (i * 37 % 101) / 101.0;
        r->v[i] = 0.0;
    }
    double *x = r->x, *v = r->v;
    for (int step = 0; step != STEPS; step++) {
#pragma omp target teams distribute parallel for map(to: x[0:NP]) map(tofrom: v[0:NP])
        for (int i = 0; i != n; ++i) {
            int left = i == 0 ? n - 1 : i - 1, right = i + 1 == n ? 0 : i + 1;
            v[i] += 0.1 * (x[left] + x[right] - 2.0 * x[i]);
        }
#pragma omp target map(tofrom: x[0:NP]) map(to: v[0:NP])
#pragma omp parallel for
        for (int i = n - 1; i != -1; i--)
            x[i] += 0.05 * v[i];
        printf("step %d: energy %.9f\n", step, energy(r));
    }
    int last = -1;
    long weighted = 0;
#pragma omp parallel for lastprivate(last) reduction(+: weighted)
    for (last = 0; last != n; last += 1)
        weighted += (long)(x[last] * 1000.0) * (last % 7);
    unsigned countdown;
    long tail = 0;
#pragma omp parallel for lastprivate(countdown) reduction(+: tail)
    for (countdown = 64; countdown != 0; countdown--)
        tail += countdown * (long)(v[countdown] * 1e6 > 0);
    printf("last %d weighted %ld countdown %u tail %ld\n", last, weighted, countdown, tail);
    free(r);
    return 0;
}
