#include <stdlib.h>
#include "grid.h"

void grid_init(struct grid *g, int n) {
    g->n = n;
    g->t = calloc(n, sizeof *g->t);
    g->next = calloc(n, sizeof *g->next);
    g->t[0] = 100.0;                     /* a hot end */
}

void grid_step(struct grid *g, double alpha) {
    int n = g->n;
    double *t = g->t, *next = g->next;
    #pragma omp target teams distribute parallel for map(to: t[0:n]) map(from: next[1:n-2])
    for (int i = 1; i < n - 1; i++)
        next[i] = t[i] + alpha * (t[i - 1] - 2.0 * t[i] + t[i + 1]);
    for (int i = 1; i < n - 1; i++)
        t[i] = next[i];
}

void grid_free(struct grid *g) {
    free(g->t);
    free(g->next);
}
