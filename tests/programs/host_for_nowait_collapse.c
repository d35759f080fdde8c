/* Worksharing loops in one parallel region of a 2-D solver step: independent loops
 * with nowait (a barrier where the results are needed), a collapse(2) sweep, a
 * collapse(3) reduction and lastprivate of a collapsed nest's inner variable. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define NX 48
#define NY 36
#define NZ 5

struct grid {
    double u[NX][NY];
    double v[NX][NY];
    double flux[NX * NY];
};

static double init_u(int i, int j)
{
    return (double)((i * 31 + j * 17) % 23) / 7.0;
}

int main(void)
{
    struct grid *g = malloc(sizeof *g);
    double energy = 0.0, volume = 0.0;
    long cells = 0;
    int j_last = -1;

#pragma omp parallel
    {
        /* two independent initialisations: no barrier between them */
#pragma omp for nowait
        for (int i = 0; i < NX; i++)
            for (int j = 0; j < NY; j++)
                g->u[i][j] = init_u(i, j);
#pragma omp for nowait schedule(dynamic, 2)
        for (int i = 0; i < NX * NY; i++)
            g->flux[i] = 0.0;
#pragma omp barrier

        /* a 5-point stencil over the interior: one space of (NX-2)*(NY-2) iterations */
#pragma omp for collapse(2) schedule(guided)
        for (int i = 1; i < NX - 1; i++)
            for (int j = 1; j < NY - 1; j++)
                g->v[i][j] = 0.25 * (g->u[i - 1][j] + g->u[i + 1][j] + g->u[i][j - 1] + g->u[i][j + 1]);

#pragma omp for collapse(3) reduction(+:energy, cells)
        for (int i = 1; i < NX - 1; i++)
            for (int j = 1; j < NY - 1; j++)
                for (int z = 0; z < NZ; z++) {
                    energy += g->v[i][j] * g->v[i][j] * (z + 1);
                    cells++;
                }

        /* lastprivate of the inner index of a collapsed nest */
#pragma omp for collapse(2) lastprivate(j_last) reduction(+:volume)
        for (int i = 0; i < NX; i += 3)
            for (j_last = 0; j_last < NY; j_last += 5)
                volume += g->u[i][j_last];
    }
    printf("energy %.6f over %ld cells\n", energy, cells);
    printf("collapsed lastprivate j %d, volume %.6f\n", j_last, volume);
    printf("v[10][20] %.6f, flux[7] %.1f\n", g->v[10][20], g->flux[7]);
    free(g);
    return 0;
}
