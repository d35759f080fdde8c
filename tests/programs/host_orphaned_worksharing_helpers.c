/* Orphaned constructs: a library's helpers contain for, single, barrier, critical and
 * reduction directives with no parallel region of their own; called from inside a
 * parallel region they share the caller's team, called from sequential code they run
 * on a team of one, and both give the same answers. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define N 4096

struct vector {
    double *x;
    int n;
};

static double dot(const struct vector *a, const struct vector *b)
{
    static double result;       /* shared by the team: static storage */
    double partial = 0.0;
#pragma omp single
    result = 0.0;
#pragma omp for
    for (int i = 0; i < a->n; i++)
        partial += a->x[i] * b->x[i];
#pragma omp critical(dot_sum)
    result += partial;
#pragma omp barrier
    return result;
}

static void axpy(double alpha, const struct vector *x, struct vector *y)
{
#pragma omp for schedule(static, 64)
    for (int i = 0; i < x->n; i++)
        y->x[i] += alpha * x->x[i];
}

static double norm1(const struct vector *v)
{
    static double total;
#pragma omp single
    total = 0.0;
#pragma omp for reduction(+:total)
    for (int i = 0; i < v->n; i++)
        total += v->x[i] < 0 ? -v->x[i] : v->x[i];
    return total;
}

/* a few steps of a power-iteration-like update, callable from either context */
static void solve(struct vector *r, struct vector *p, double *history)
{
    for (int step = 0; step < 5; step++) {
        double rr = dot(r, r);
        axpy(-0.1, p, r);
        double n1 = norm1(r);
#pragma omp master
        history[step] = rr + n1;
#pragma omp barrier
    }
}

static void init(struct vector *r, struct vector *p)
{
    for (int i = 0; i < N; i++) {
        r->x[i] = 1.0 + (i % 17) * 0.125;
        p->x[i] = ((i * 13) % 29) * 0.0625 - 0.5;
    }
}

int main(void)
{
    struct vector r = {malloc(N * sizeof(double)), N}, p = {malloc(N * sizeof(double)), N};
    double parallel_history[5], serial_history[5];

    init(&r, &p);
#pragma omp parallel
    solve(&r, &p, parallel_history);

    init(&r, &p);
    solve(&r, &p, serial_history);      /* the same helpers, a team of one */

    for (int step = 0; step < 5; step++)
        printf("step %d: %.6f %s\n", step, parallel_history[step],
               parallel_history[step] - serial_history[step] < 1e-9
               && serial_history[step] - parallel_history[step] < 1e-9 ? "same as serial" : "DIFFERS");
    free(r.x);
    free(p.x);
    return 0;
}
