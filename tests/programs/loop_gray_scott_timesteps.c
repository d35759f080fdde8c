/* Gray-Scott reaction-diffusion on a periodic 2-D grid, written with OpenMP 5.0's `loop`
 * construct as NVIDIA's and AMD's porting guides recommend: the two species kept as a
 * struct of arrays, `target data` around the time-step loop, and in each step several
 * regions -- the reaction-diffusion update (`target teams loop collapse(2)`), the periodic
 * halo (`target teams loop` over the rows, a `loop` in a `target teams` region over the
 * columns), and every few steps a residual (the largest change of either species, a `max`
 * reduction of a `target teams loop` whose rows are summed by a nested thread-bound
 * `loop`) brought back with `target update` for the report. A serial host solver checks
 * the device's fields. Every target region is the GPU's combined SPMD kernel.
 *
 * Command line: [-n size] [-s steps] [-c check_every]; other words are ignored. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    double *u;              /* the feed species */
    double *v;              /* the catalyst */
} Species;

typedef struct {
    int n;                  /* points per side, halo included: (n+2)^2 */
    double du, dv;          /* diffusion rates */
    double feed, kill;
    double dt;
} Model;

#define AT(i, j, ld) ((i) * (ld) + (j))

static void options(int argc, char **argv, int *n, int *steps, int *check_every)
{
    int opt;
    *n = 96;
    *steps = 40;
    *check_every = 10;
    while ((opt = getopt(argc, argv, "n:s:c:")) != -1) {
        if (opt == 'n')
            *n = atoi(optarg);
        else if (opt == 's')
            *steps = atoi(optarg);
        else if (opt == 'c')
            *check_every = atoi(optarg) > 0 ? atoi(optarg) : 1;
    }
}

/* u = 1 everywhere, a square of v in the middle, a weaker one off centre. */
static void seed(int n, Species s)
{
    int ld = n + 2;
    for (int i = 0; i < ld; i++)
        for (int j = 0; j < ld; j++) {
            int centre = abs(i - ld / 2) < n / 8 && abs(j - ld / 2) < n / 8;
            int spot = abs(i - ld / 4) < n / 16 && abs(j - 3 * ld / 4) < n / 16;
            s.u[AT(i, j, ld)] = centre ? 0.5 : 1.0;
            s.v[AT(i, j, ld)] = centre ? 0.25 : (spot ? 0.125 : 0.0);
        }
}

/* One explicit step of the interior: next from cur. */
static void react_diffuse(const Model *m, Species cur, Species next)
{
    int n = m->n, ld = n + 2, size = ld * ld;
    double du = m->du, dv = m->dv, feed = m->feed, kill = m->kill, dt = m->dt;
    const double *u = cur.u, *v = cur.v;
    double *un = next.u, *vn = next.v;
#pragma omp target teams loop collapse(2) map(to: u[0:size], v[0:size]) map(from: un[0:size], vn[0:size])
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++) {
            double uc = u[AT(i, j, ld)], vc = v[AT(i, j, ld)];
            double lap_u = u[AT(i - 1, j, ld)] + u[AT(i + 1, j, ld)] + u[AT(i, j - 1, ld)] +
                           u[AT(i, j + 1, ld)] - 4.0 * uc;
            double lap_v = v[AT(i - 1, j, ld)] + v[AT(i + 1, j, ld)] + v[AT(i, j - 1, ld)] +
                           v[AT(i, j + 1, ld)] - 4.0 * vc;
            double uvv = uc * vc * vc;
            un[AT(i, j, ld)] = uc + dt * (du * lap_u - uvv + feed * (1.0 - uc));
            vn[AT(i, j, ld)] = vc + dt * (dv * lap_v + uvv - (feed + kill) * vc);
        }
}

/* Periodic halo: each edge row and column from the opposite side of the interior. */
static void halo(int n, Species s)
{
    int ld = n + 2, size = ld * ld;
    double *u = s.u, *v = s.v;
#pragma omp target teams loop map(tofrom: u[0:size], v[0:size])
    for (int k = 1; k <= n; k++) {
        u[AT(0, k, ld)] = u[AT(n, k, ld)];
        u[AT(n + 1, k, ld)] = u[AT(1, k, ld)];
        v[AT(0, k, ld)] = v[AT(n, k, ld)];
        v[AT(n + 1, k, ld)] = v[AT(1, k, ld)];
    }
#pragma omp target teams map(tofrom: u[0:size], v[0:size])
    {
#pragma omp loop
        for (int k = 0; k < ld; k++) {
            u[AT(k, 0, ld)] = u[AT(k, n, ld)];
            u[AT(k, n + 1, ld)] = u[AT(k, 1, ld)];
            v[AT(k, 0, ld)] = v[AT(k, n, ld)];
            v[AT(k, n + 1, ld)] = v[AT(k, 1, ld)];
        }
    }
}

/* The largest change of either species over the step, and how much v the middle row
 * holds (a row summed by a nested loop that binds to the thread). */
static double residual(int n, Species before, Species after, double *row_v)
{
    int ld = n + 2, size = ld * ld, mid = ld / 2;
    const double *u0 = before.u, *v0 = before.v, *u1 = after.u, *v1 = after.v;
    double change = 0.0, middle = 0.0;
#pragma omp target teams loop reduction(max: change) map(to: u0[0:size], v0[0:size], u1[0:size], v1[0:size]) \
        map(tofrom: change, middle)
    for (int i = 1; i <= n; i++) {
        double row_change = 0.0, row_sum = 0.0;
#pragma omp loop reduction(max: row_change) reduction(+: row_sum)
        for (int j = 1; j <= n; j++) {
            double du = fabs(u1[AT(i, j, ld)] - u0[AT(i, j, ld)]);
            double dv = fabs(v1[AT(i, j, ld)] - v0[AT(i, j, ld)]);
            row_change = fmax(row_change, fmax(du, dv));
            row_sum += v1[AT(i, j, ld)];
        }
        change = fmax(change, row_change);
        if (i == mid)
            middle = row_sum;               /* one iteration writes it */
    }
    *row_v = middle;
    return change;
}

static void solve_host(const Model *m, Species cur, Species next)
{
    int n = m->n, ld = n + 2;
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++) {
            double uc = cur.u[AT(i, j, ld)], vc = cur.v[AT(i, j, ld)];
            double lap_u = cur.u[AT(i - 1, j, ld)] + cur.u[AT(i + 1, j, ld)] + cur.u[AT(i, j - 1, ld)] +
                           cur.u[AT(i, j + 1, ld)] - 4.0 * uc;
            double lap_v = cur.v[AT(i - 1, j, ld)] + cur.v[AT(i + 1, j, ld)] + cur.v[AT(i, j - 1, ld)] +
                           cur.v[AT(i, j + 1, ld)] - 4.0 * vc;
            double uvv = uc * vc * vc;
            next.u[AT(i, j, ld)] = uc + m->dt * (m->du * lap_u - uvv + m->feed * (1.0 - uc));
            next.v[AT(i, j, ld)] = vc + m->dt * (m->dv * lap_v + uvv - (m->feed + m->kill) * vc);
        }
    for (int k = 1; k <= n; k++) {
        next.u[AT(0, k, ld)] = next.u[AT(n, k, ld)];
        next.u[AT(n + 1, k, ld)] = next.u[AT(1, k, ld)];
        next.v[AT(0, k, ld)] = next.v[AT(n, k, ld)];
        next.v[AT(n + 1, k, ld)] = next.v[AT(1, k, ld)];
    }
    for (int k = 0; k < ld; k++) {
        next.u[AT(k, 0, ld)] = next.u[AT(k, n, ld)];
        next.u[AT(k, n + 1, ld)] = next.u[AT(k, 1, ld)];
        next.v[AT(k, 0, ld)] = next.v[AT(k, n, ld)];
        next.v[AT(k, n + 1, ld)] = next.v[AT(k, 1, ld)];
    }
}

static double total(int n, const double *f)
{
    int ld = n + 2;
    double sum = 0.0;
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++)
            sum += f[AT(i, j, ld)];
    return sum;
}

int main(int argc, char **argv)
{
    int n, steps, check_every;
    options(argc, argv, &n, &steps, &check_every);
    Model m = {n, 0.16, 0.08, 0.035, 0.065, 1.0};
    int ld = n + 2, size = ld * ld;
    Species a = {malloc(size * sizeof(double)), malloc(size * sizeof(double))};
    Species b = {malloc(size * sizeof(double)), malloc(size * sizeof(double))};
    Species ra = {malloc(size * sizeof(double)), malloc(size * sizeof(double))};
    Species rb = {malloc(size * sizeof(double)), malloc(size * sizeof(double))};
    seed(n, a);
    seed(n, b);
    seed(n, ra);
    printf("gray-scott: %d x %d periodic grid, %d steps, F = %.3f, k = %.3f\n", n, n, steps, m.feed, m.kill);
    printf("initial: u %.6f, v %.6f\n", total(n, a.u), total(n, a.v));

    double *au = a.u, *av = a.v, *bu = b.u, *bv = b.v;
#pragma omp target data map(tofrom: au[0:size], av[0:size], bu[0:size], bv[0:size])
    {
        Species cur = a, next = b;
        for (int step = 1; step <= steps; step++) {
            react_diffuse(&m, cur, next);
            halo(n, next);
            if (step % check_every == 0) {
                double row_v, change = residual(n, cur, next, &row_v);
                double *nu = next.u, *nv = next.v;
#pragma omp target update from(nu[0:size], nv[0:size])
                printf("step %3d: residual %.6e, middle row v %.6f, u %.6f, v %.6f\n", step, change, row_v,
                       total(n, next.u), total(n, next.v));
            }
            Species swap = cur;
            cur = next;
            next = swap;
        }
    }
    Species result = steps % 2 ? b : a;

    Species cur = ra, next = rb;
    for (int step = 1; step <= steps; step++) {
        solve_host(&m, cur, next);
        Species swap = cur;
        cur = next;
        next = swap;
    }
    double err = 0.0;
    for (int k = 0; k < size; k++)
        err = fmax(err, fmax(fabs(result.u[k] - cur.u[k]), fabs(result.v[k] - cur.v[k])));
    printf("final: u %.6f, v %.6f, centre v %.6f\n", total(n, result.u), total(n, result.v),
           result.v[AT(ld / 2, ld / 2, ld)]);
    /* To 1e-12, not exactly: a GPU may fuse the update's multiply-adds. */
    printf("device and host solvers agree to 1e-12: %s\n", err < 1e-12 ? "yes" : "no");
    free(a.u); free(a.v); free(b.u); free(b.v);
    free(ra.u); free(ra.v); free(rb.u); free(rb.v);
    return 0;
}
