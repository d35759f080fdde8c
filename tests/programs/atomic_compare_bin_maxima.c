/* Particles in a periodic box, binned every time step: in a target region each bin's
   hottest particle energy (float `atomic compare`, a maximum), its lowest particle index
   (int `atomic compare`, a minimum, written as a conditional expression), and which
   bins were claimed at all (`atomic compare capture` with the `r = x == e` form:
   exactly one particle claims an empty bin). OpenMP 5.1 atomics; gcc 12 has them. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define NP 6000
#define NB 24

typedef struct {
    float x[NP], v[NP], e[NP];
} Particles;

typedef struct {
    float hottest[NB];
    int lowest[NB];
    int owner[NB];
    unsigned long long heat_bits[NB];
} Bins;

static unsigned lcg(unsigned *s) { *s = *s * 1664525u + 1013904223u; return *s >> 8; }

static void reset(Bins *b)
{
    for (int k = 0; k < NB; k++) {
        b->hottest[k] = -1.0f;
        b->lowest[k] = NP;
        b->owner[k] = -1;
        b->heat_bits[k] = 0;
    }
}

int main(int argc, char **argv)
{
    int steps = 4, opt;
    while ((opt = getopt(argc, argv, "s:")) != -1)
        if (opt == 's')
            steps = atoi(optarg);
    static Particles p;
    static Bins bins;
    unsigned seed = 2024;
    for (int i = 0; i < NP; i++) {
        p.x[i] = (lcg(&seed) % 100000) / 100000.0f;
        p.v[i] = ((int)(lcg(&seed) % 2001) - 1000) / 40000.0f;
        p.e[i] = (lcg(&seed) % 7919) / 7.0f;
    }
    for (int step = 0; step < steps; step++) {
        reset(&bins);
        int claims = 0;
#pragma omp target teams distribute parallel for map(tofrom: p, bins, claims)
        for (int i = 0; i < NP; i++) {
            float x = p.x[i] + p.v[i];
            x -= (float)(int)x;
            if (x < 0.0f)
                x += 1.0f;
            p.x[i] = x;
            p.e[i] = p.e[i] * 0.99f + (float)((i * 31 + step) % 17);
            int b = (int)(x * NB);
            if (b >= NB)
                b = NB - 1;
            float e = p.e[i];
#pragma omp atomic compare
            if (bins.hottest[b] < e) { bins.hottest[b] = e; }
#pragma omp atomic compare seq_cst
            bins.lowest[b] = i < bins.lowest[b] ? i : bins.lowest[b];
            int won;
#pragma omp atomic compare capture acq_rel
            { won = bins.owner[b] == -1; if (won) { bins.owner[b] = b; } }
            if (won) {
#pragma omp atomic
                claims++;
            }
        }
        /* The same maxima on the host, by a host team, with an unsigned 64-bit key. */
#pragma omp parallel for
        for (int i = 0; i < NP; i++) {
            int b = (int)(p.x[i] * NB);
            if (b >= NB)
                b = NB - 1;
            unsigned long long key = (unsigned long long)(p.e[i] * 1000.0f);
#pragma omp atomic compare
            if (key > bins.heat_bits[b]) { bins.heat_bits[b] = key; }
        }
        double total = 0.0;
        int agree = 1, owned = 0;
        for (int k = 0; k < NB; k++) {
            total += bins.hottest[k];
            agree &= bins.hottest[k] < 0.0f
                     || bins.heat_bits[k] == (unsigned long long)(bins.hottest[k] * 1000.0f);
            owned += bins.owner[k] == k;
        }
        printf("step %d: claims %d owned %d agree %d sum of maxima %.2f\n", step, claims, owned,
               agree, total);
        for (int k = 0; k < NB; k += 6)
            printf("  bin %2d hottest %9.3f lowest index %d\n", k, bins.hottest[k], bins.lowest[k]);
    }
    return 0;
}
