/* Array reductions as histogram and force-accumulation codes write them: reduction over
 * a whole local array, over a section in the middle of a global array, and min over a
 * section of a local array, each thread holding a private copy that is folded into the
 * original element by element. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define N 20000
#define BINS 32

static long global_hist[BINS + 8];

struct particles {
    double x[N];
    double charge[N];
};

static int bin_of(double x)
{
    int b = (int)(x * BINS);
    return b < 0 ? 0 : b >= BINS ? BINS - 1 : b;
}

int main(void)
{
    struct particles *p = malloc(sizeof *p);
    long hist[BINS] = {0};
    double force[BINS];
    int minimum[8];

    for (int i = 0; i < N; i++) {
        p->x[i] = (double)((i * 2654435761u) % 100000) / 100000.0;
        p->charge[i] = (i % 3) - 1.0;
    }
    for (int b = 0; b < BINS; b++)
        force[b] = 0.5 * b;       /* the original's values are folded in */
    for (int k = 0; k < 8; k++)
        minimum[k] = 1 << 20;

#pragma omp parallel for reduction(+:hist)
    for (int i = 0; i < N; i++)
        hist[bin_of(p->x[i])]++;

    /* a section in the middle of a larger array: elements 4 .. 4+BINS-1 */
#pragma omp parallel for reduction(+:global_hist[4:BINS]) schedule(dynamic, 100)
    for (int i = 0; i < N; i++)
        global_hist[4 + bin_of(p->x[i])] += 2;

#pragma omp parallel
    {
#pragma omp for reduction(+:force[0:BINS])
        for (int i = 0; i < N; i++)
            force[bin_of(p->x[i])] += p->charge[i] * p->x[i];
#pragma omp for reduction(min:minimum[0:8])
        for (int i = 0; i < N; i++) {
            int k = i % 8, v = 5000 - i / 8 + k;
            if (v < minimum[k])
                minimum[k] = v;
        }
    }
    long total = 0, doubled = 0;
    for (int b = 0; b < BINS; b++) {
        total += hist[b];
        doubled += global_hist[4 + b];
    }
    printf("histogram total %ld, doubled %ld, edges untouched %ld %ld\n", total, doubled,
           global_hist[3], global_hist[4 + BINS]);
    for (int b = 0; b < BINS; b += 8)
        printf("bin %2d: %ld, force %.6f\n", b, hist[b], force[b]);
    printf("minimum:");
    for (int k = 0; k < 8; k++)
        printf(" %d", minimum[k]);
    printf("\n");
    free(p);
    return 0;
}
