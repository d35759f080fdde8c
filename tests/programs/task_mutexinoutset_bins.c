/* Producers add their chunk's contributions into shared bins in whatever order they
 * run: each (chunk, bin) task names its bin with depend(mutexinoutset), so tasks on one
 * bin never overlap and need no atomics, while tasks on different bins run together.
 * A reset task (out) comes before them and a consumer per bin (in) after them; the
 * consumers fold the bins into per-step statistics. Several time steps of a particle
 * sweep, the particles a structure of arrays. OpenMP 5.0 dependences. */
#include <stdio.h>
#include <stdlib.h>

#define PARTICLES 4000
#define CHUNKS 16
#define BINS 8
#define STEPS 3

struct particles {
    int position[PARTICLES];
    int charge[PARTICLES];
};

static struct particles p;
static long bins[BINS];
static long weighted[BINS];
static long summary[STEPS][BINS];

static void add_chunk(int chunk, int bin)
{
    int per = PARTICLES / CHUNKS;
    for (int i = chunk * per; i < (chunk + 1) * per; i++)
        if (p.position[i] % BINS == bin)
            bins[bin] += p.charge[i];
}

int main(int argc, char **argv)
{
    int shift = argc > 2 ? atoi(argv[2]) % 5 : 1;
    for (int i = 0; i < PARTICLES; i++) {
        p.position[i] = (i * 13 + 5) % 997;
        p.charge[i] = 1 + (i * 7) % 11;
    }
    for (int step = 0; step < STEPS; step++) {
#pragma omp parallel
#pragma omp single
        {
            for (int b = 0; b < BINS; b++) {
#pragma omp task depend(out: bins[b]) firstprivate(b)
                bins[b] = 0;
            }
            for (int c = 0; c < CHUNKS; c++)
                for (int b = 0; b < BINS; b++) {
#pragma omp task depend(mutexinoutset: bins[b]) firstprivate(c, b)
                    add_chunk(c, b);
                }
            for (int b = 0; b < BINS; b++) {
#pragma omp task depend(in: bins[b]) firstprivate(b, step)
                {
                    weighted[b] = bins[b] * (b + 1);
                    summary[step][b] = bins[b];
                }
            }
        }
        long total = 0, heaviest = 0;
        for (int b = 0; b < BINS; b++) {
            total += weighted[b];
            if (bins[b] > heaviest)
                heaviest = bins[b];
        }
        printf("step %d: weighted %ld heaviest bin %ld\n", step, total, heaviest);
        for (int i = 0; i < PARTICLES; i++)
            p.position[i] = (p.position[i] + shift + p.charge[i]) % 997;
    }
    for (int b = 0; b < BINS; b++)
        printf("bin %d: %ld %ld %ld\n", b, summary[0][b], summary[1][b], summary[2][b]);
    return 0;
}
