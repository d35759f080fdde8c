/* Stream compaction with prefix sums (OpenMP 5.0 `scan`): particles that left the
   domain are dropped each time step. An exclusive scan of the keep flags gives each
   kept particle its place in the compacted arrays, on the host (`parallel for`) and
   in a target region (a `parallel for` inside `target`); an inclusive scan of
   the masses (`simd`) gives the cumulative mass profile, and one over two items
   (`for simd` in a team) the running kinetic energy and the largest speed so far. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NMAX 20000

typedef struct {
    int n;
    double x[NMAX], m[NMAX];    /* masses are multiples of 1/4: their sums are exact */
    int v[NMAX];                /* velocity, in units of 1/400000 per step */
} Particles;

static unsigned lcg(unsigned *s) { *s = *s * 1103515245u + 12345u; return (*s >> 9) & 0xffff; }

static int speed(int v) { return v < 0 ? -v : v; }

/* Keep the particles inside [0, 1): flags, exclusive scan, scatter. */
static int compact_host(Particles *p, Particles *out, int *place)
{
    int kept = 0;
#pragma omp parallel for reduction(inscan, +: kept)
    for (int i = 0; i < p->n; i++) {
        place[i] = kept;
#pragma omp scan exclusive(kept)
        kept += p->x[i] >= 0.0 && p->x[i] < 1.0;
    }
#pragma omp parallel for
    for (int i = 0; i < p->n; i++)
        if (p->x[i] >= 0.0 && p->x[i] < 1.0) {
            out->x[place[i]] = p->x[i];
            out->v[place[i]] = p->v[i];
            out->m[place[i]] = p->m[i];
        }
    out->n = kept;
    return kept;
}

static int compact_device(Particles *p, Particles *out, int *place)
{
    int kept = 0, n = p->n;
#pragma omp target map(to: p[0:1]) map(from: place[0:n]) map(tofrom: kept, out[0:1])
    {
#pragma omp parallel for reduction(inscan, +: kept) num_threads(8)
        for (int i = 0; i < n; i++) {
            place[i] = kept;
#pragma omp scan exclusive(kept)
            kept += p->x[i] >= 0.0 && p->x[i] < 1.0;
        }
#pragma omp parallel for num_threads(8)
        for (int i = 0; i < n; i++)
            if (p->x[i] >= 0.0 && p->x[i] < 1.0) {
                out->x[place[i]] = p->x[i];
                out->v[place[i]] = p->v[i];
                out->m[place[i]] = p->m[i];
            }
        out->n = kept;
    }
    return kept;
}

int main(void)
{
    static Particles a, b, c;
    static int place[NMAX];
    static double profile[NMAX];
    static long energy[NMAX];
    static int fastest[NMAX];
    unsigned seed = 99;
    a.n = NMAX;
    for (int i = 0; i < a.n; i++) {
        a.x[i] = lcg(&seed) / 65536.0;
        a.v[i] = (int)lcg(&seed) - 32768;
        a.m[i] = 1.0 + (lcg(&seed) % 8) * 0.25;
    }
    for (int step = 0; step < 5; step++) {
        for (int i = 0; i < a.n; i++)
            a.x[i] += a.v[i] * (1 + step) / 400000.0;
        int host = compact_host(&a, &b, place);
        int device = compact_device(&a, &c, place);
        int same = host == device && memcmp(b.x, c.x, sizeof(double) * host) == 0
                   && memcmp(b.m, c.m, sizeof(double) * host) == 0;
        double mass = 0.0;
#pragma omp simd reduction(inscan, +: mass)
        for (int i = 0; i < b.n; i++) {
            mass += b.m[i];
#pragma omp scan inclusive(mass)
            profile[i] = mass;
        }
        long ke = 0;
        int vmax = 0;
#pragma omp parallel
        {
#pragma omp for simd reduction(inscan, +: ke) reduction(inscan, max: vmax)
            for (int i = 0; i < b.n; i++) {
                ke += (long)(b.m[i] * 4) * b.v[i] * b.v[i] / 2;
                vmax = speed(b.v[i]) > vmax ? speed(b.v[i]) : vmax;
#pragma omp scan inclusive(ke, vmax)
                energy[i] = ke;
                fastest[i] = vmax;
            }
        }
        printf("step %d: kept %d of %d (host and device agree: %d)\n", step, host, a.n, same);
        int half = 0;
        while (half < host && profile[half] < mass / 2)
            half++;
        printf("  mass %.2f, half of it in the first %d particles\n", mass, half);
        printf("  energy %ld (first half %ld)  fastest %d (first half %d)\n", ke,
               host ? energy[host / 2] : 0L, vmax, host ? fastest[host / 2] : 0);
        Particles *t = &a;
        memcpy(t, &b, sizeof b);
    }
    return 0;
}
