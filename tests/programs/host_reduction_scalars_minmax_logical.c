/* Reductions of every operator a solver's diagnostics use, over a struct of arrays with
 * real threads: +, *, - on doubles and longs, min and max (int and double), &, |, ^ on
 * masks, && and || on validity checks; on parallel, for and combined constructs, with
 * several reductions in one clause and the original's value folded in. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <omp.h>

#define N 5000

struct mesh {
    double volume[N];
    double pressure[N];
    int material[N];
    unsigned flags[N];
};

static void build(struct mesh *m)
{
    for (int i = 0; i < N; i++) {
        m->volume[i] = 1.0 + sin(0.01 * i) * 0.5;
        m->pressure[i] = 100.0 + cos(0.013 * i) * 40.0;
        m->material[i] = (i * 7919) % 97 - 30;
        m->flags[i] = 1u << (i % 20);
    }
}

int main(void)
{
    struct mesh *m = malloc(sizeof *m);
    double total_volume = 10.0, work = 0.0, growth = 1.0, p_min = 1e30, p_max = -1e30;
    long cells = 0, balance = 0;
    int mat_min = 1000, mat_max = -1000, all_positive = 1, any_negative = 0;
    unsigned and_mask = ~0u, or_mask = 0u, xor_mask = 0u;

    build(m);
#pragma omp parallel for reduction(+:total_volume, cells) reduction(-:balance) \
    reduction(min:p_min, mat_min) reduction(max:p_max, mat_max)
    for (int i = 0; i < N; i++) {
        total_volume += m->volume[i];
        cells++;
        balance -= m->material[i];
        p_min = fmin(p_min, m->pressure[i]);
        p_max = fmax(p_max, m->pressure[i]);
        if (m->material[i] < mat_min)
            mat_min = m->material[i];
        if (m->material[i] > mat_max)
            mat_max = m->material[i];
    }

#pragma omp parallel
    {
#pragma omp for reduction(&:and_mask) reduction(|:or_mask) reduction(^:xor_mask)
        for (int i = 0; i < N; i++) {
            and_mask &= m->flags[i] | 0x80000000u;
            or_mask |= m->flags[i];
            xor_mask ^= m->flags[i];
        }
#pragma omp for reduction(&&:all_positive) reduction(||:any_negative)
        for (int i = 0; i < N; i++) {
            all_positive = all_positive && m->volume[i] > 0.0;
            any_negative = any_negative || m->material[i] < 0;
        }
    }

    /* a product of factors near one, and a reduction on the parallel construct itself */
#pragma omp parallel for reduction(*:growth)
    for (int i = 0; i < 200; i++)
        growth *= 1.0 + 1e-4 * (i % 5);
#pragma omp parallel reduction(+:work)
    {
#pragma omp for
        for (int i = 0; i < N; i++)
            work += m->pressure[i] * m->volume[i];
    }
    printf("volume %.6f over %ld cells, balance %ld\n", total_volume, cells, balance);
    printf("pressure in [%.6f, %.6f], material in [%d, %d]\n", p_min, p_max, mat_min, mat_max);
    printf("masks and %#x or %#x xor %#x\n", and_mask, or_mask, xor_mask);
    printf("all volumes positive %d, some material negative %d\n", all_positive, any_negative);
    printf("growth %.12f, work %.6f\n", growth, work);
    free(m);
    return 0;
}
