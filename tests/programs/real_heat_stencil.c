/* 2-D heat equation (explicit 5-point stencil), as written in OpenMP offload
 * courses and the ParRes stencil kernels: a grid with a fixed hot boundary,
 * `target data` around the time-step loop, a `target teams distribute` over
 * rows with a nested `parallel for` over columns (the loop variables listed
 * in private(), the grid seen through VLA pointer types), a max-norm
 * convergence check every `check_every` steps brought back as a reduction,
 * and a `target update from` of the grid for the host's periodic report. A serial host solver checks the device result.
 *
 * Command line: [-n size] [-s steps] [-c check_every] [-a alpha]; other words are ignored. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

typedef struct {
    int n;                  /* interior points per side; the grid is (n+2)^2 */
    int steps;
    int check_every;
    double alpha;           /* diffusivity */
    double length;          /* physical side length */
} Problem;

#define IDX(i, j, ld) ((i) * (ld) + (j))

static void parse(int argc, char **argv, Problem *p)
{
    int i;
    p->n = 120;
    p->steps = 60;
    p->check_every = 15;
    p->alpha = 0.1;
    p->length = 1000.0;
    for (i = 1; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "-n"))
            p->n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-s"))
            p->steps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-c"))
            p->check_every = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-a"))
            p->alpha = atof(argv[++i]);
    }
    if (p->check_every < 1)
        p->check_every = 1;
}

/* A hot square in the middle of a cold plate; the top edge held hot. */
static void initial_value(int n, double dx, double *u)
{
    int ld = n + 2, i, j;
    for (i = 0; i < ld; i++)
        for (j = 0; j < ld; j++) {
            double y = (i - 0.5) * dx, x = (j - 0.5) * dx;
            u[IDX(i, j, ld)] = (x > 250.0 && x < 750.0 && y > 250.0 && y < 750.0) ? 1.0 : 0.0;
        }
    for (j = 0; j < ld; j++)
        u[IDX(0, j, ld)] = 0.5;
}

/* One step on the device: u_new = (1 - 4r) u + r (neighbours). */
static void solve(int n, double r, const double *restrict u, double *restrict u_new)
{
    int ld = n + 2, i, j;
    const double r2 = 1.0 - 4.0 * r;
#pragma omp target
#pragma omp teams distribute private(i, j)
    for (i = 1; i <= n; i++) {
        const double (*g)[ld] = (const double (*)[ld]) u;
        double (*gn)[ld] = (double (*)[ld]) u_new;
#pragma omp parallel for private(j)
        for (j = 1; j <= n; j++)
            gn[i][j] = r2 * g[i][j] + r * (g[i][j + 1] + g[i][j - 1] + g[i + 1][j] + g[i - 1][j]);
    }
}

/* The largest change between two steps (the convergence measure). */
static double max_change(int n, const double *u, const double *u_new)
{
    int ld = n + 2, i, j;
    double change = 0.0;
#pragma omp target teams distribute parallel for collapse(2) reduction(max: change) map(tofrom: change)
    for (i = 1; i <= n; i++)
        for (j = 1; j <= n; j++) {
            double d = fabs(u_new[IDX(i, j, ld)] - u[IDX(i, j, ld)]);
            if (d > change)
                change = d;
        }
    return change;
}

static void solve_host(int n, double r, const double *u, double *u_new)
{
    int ld = n + 2, i, j;
    const double r2 = 1.0 - 4.0 * r;
    for (i = 1; i <= n; i++)
        for (j = 1; j <= n; j++)
            u_new[IDX(i, j, ld)] = r2 * u[IDX(i, j, ld)] +
                                   r * (u[IDX(i, j + 1, ld)] + u[IDX(i, j - 1, ld)] +
                                        u[IDX(i + 1, j, ld)] + u[IDX(i - 1, j, ld)]);
}

static double total_heat(int n, const double *u)
{
    int ld = n + 2, i, j;
    double sum = 0.0;
    for (i = 1; i <= n; i++)
        for (j = 1; j <= n; j++)
            sum += u[IDX(i, j, ld)];
    return sum;
}

/* The temperature along the middle row at eight evenly spaced points, and
 * where along it the plate first drops below half of its peak. */
static void centre_profile(int n, double dx, const double *u)
{
    int ld = n + 2, row = ld / 2, j, k, half_at = -1;
    double peak = 0.0;
    for (j = 1; j <= n; j++)
        if (u[IDX(row, j, ld)] > peak)
            peak = u[IDX(row, j, ld)];
    for (j = n / 2; j <= n; j++)
        if (u[IDX(row, j, ld)] < 0.5 * peak) {
            half_at = j;
            break;
        }
    printf("middle row:");
    for (k = 0; k < 8; k++)
        printf(" %.5f", u[IDX(row, 1 + k * (n - 1) / 7, ld)]);
    printf("\nhalf of the peak %.5f reached at x = %.2f\n", peak, half_at < 0 ? -1.0 : (half_at - 0.5) * dx);
}

int main(int argc, char **argv)
{
    Problem p;
    int n, ld, size, step;
    double dx, dt, r, change = 0.0, t0, t_solve, max_err = 0.0;
    double *u, *u_tmp, *ref, *ref_tmp, *swap;

    parse(argc, argv, &p);
    n = p.n;
    ld = n + 2;
    size = ld * ld;
    dx = p.length / (n + 1);
    dt = 0.5 / p.alpha * dx * dx / 4.0;     /* half the stability limit */
    r = p.alpha * dt / (dx * dx);
    printf("heat: %d x %d grid, %d steps, r = %.6f (stable: %s)\n", n, n, p.steps, r, r < 0.25 ? "yes" : "no");

    u = malloc(size * sizeof(double));
    u_tmp = malloc(size * sizeof(double));
    ref = malloc(size * sizeof(double));
    ref_tmp = malloc(size * sizeof(double));
    initial_value(n, dx, u);
    memcpy(u_tmp, u, size * sizeof(double));       /* the boundary of both buffers */
    memcpy(ref, u, size * sizeof(double));
    memcpy(ref_tmp, u, size * sizeof(double));
    printf("initial heat %.6f\n", total_heat(n, u));

    t0 = omp_get_wtime();
#pragma omp target data map(tofrom: u[0:size], u_tmp[0:size])
    {
        double *cur = u, *next = u_tmp;
        for (step = 1; step <= p.steps; step++) {
            solve(n, r, cur, next);
            if (step % p.check_every == 0) {
                change = max_change(n, cur, next);
#pragma omp target update from(next[0:size])
                printf("step %4d: max change %.6e, heat %.6f\n", step, change, total_heat(n, next));
            }
            swap = cur;
            cur = next;
            next = swap;
        }
    }
    t_solve = omp_get_wtime() - t0;
    if (p.steps % 2)                       /* the last step wrote u_tmp */
        memcpy(u, u_tmp, size * sizeof(double));

    for (step = 1; step <= p.steps; step++) {
        solve_host(n, r, ref, ref_tmp);
        swap = ref;
        ref = ref_tmp;
        ref_tmp = swap;
    }
    for (step = 0; step < size; step++) {
        double d = fabs(u[step] - ref[step]);
        if (d > max_err)
            max_err = d;
    }
    printf("final heat %.6f, centre %.6f, corner %.6f\n", total_heat(n, u), u[IDX(ld / 2, ld / 2, ld)],
           u[IDX(1, 1, ld)]);
    centre_profile(n, dx, u);
    /* To 1e-12, not exactly: a GPU may fuse the stencil's multiply-adds. */
    printf("device and host solvers agree to 1e-12: %s\n", max_err < 1e-12 ? "yes" : "no");
    printf("timing: %.4f s for %d steps\n", t_solve, p.steps);
    free(u);
    free(u_tmp);
    free(ref);
    free(ref_tmp);
    return 0;
}
