/* A time-step loop as a solver writes it: the fields of a struct of arrays each get a
 * `target ... nowait` smoothing sweep (independent, no depend), a taskwait, then a
 * synchronous reduction for the residual, and every few steps a `target update from` of
 * one row for a host-side probe. Options: -n N (grid edge), -s STEPS. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct fields {
    double *temperature, *pressure, *density;
    double *next_temperature, *next_pressure, *next_density;
};

static double *grid(int n, double scale)
{
    double *g = malloc(sizeof(double) * n * n);
    int i, j;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            g[i * n + j] = scale * ((i * 7 + j * 3) % 17) / 17.0;
    return g;
}

static void swap(double **a, double **b)
{
    double *t = *a;
    *a = *b;
    *b = t;
}

int main(int argc, char **argv)
{
    int n = 96, steps = 12, opt, step, i, j;
    struct fields f;
    while ((opt = getopt(argc, argv, "n:s:")) != -1) {
        if (opt == 'n')
            n = atoi(optarg);
        else if (opt == 's')
            steps = atoi(optarg);
        else
            return 2;
    }
    f.temperature = grid(n, 300.0);
    f.pressure = grid(n, 101.0);
    f.density = grid(n, 1.2);
    f.next_temperature = grid(n, 0.0);
    f.next_pressure = grid(n, 0.0);
    f.next_density = grid(n, 0.0);
    {
        double *t = f.temperature, *p = f.pressure, *d = f.density;
        double *tn = f.next_temperature, *pn = f.next_pressure, *dn = f.next_density;
        const int cells = n * n;
        #pragma omp target enter data map(to: t[0:cells], p[0:cells], d[0:cells]) \
                                      map(alloc: tn[0:cells], pn[0:cells], dn[0:cells])
        for (step = 0; step < steps; step++) {
            double residual = 0.0;
            #pragma omp target teams distribute parallel for collapse(2) nowait \
                map(to: t[0:cells]) map(from: tn[0:cells])
            for (i = 0; i < n; i++)
                for (j = 0; j < n; j++) {
                    int up = i > 0 ? i - 1 : i, down = i < n - 1 ? i + 1 : i;
                    int left = j > 0 ? j - 1 : j, right = j < n - 1 ? j + 1 : j;
                    tn[i * n + j] = 0.25 * (t[up * n + j] + t[down * n + j] + t[i * n + left] + t[i * n + right]);
                }
            #pragma omp target teams distribute parallel for collapse(2) nowait \
                map(to: p[0:cells]) map(from: pn[0:cells])
            for (i = 0; i < n; i++)
                for (j = 0; j < n; j++)
                    pn[i * n + j] = 0.5 * p[i * n + j] + 0.5 * p[i * n + (n - 1 - j)];
            #pragma omp target teams distribute parallel for collapse(2) nowait \
                map(to: d[0:cells]) map(from: dn[0:cells])
            for (i = 0; i < n; i++)
                for (j = 0; j < n; j++)
                    dn[i * n + j] = d[i * n + j] * (1.0 + 0.001 * ((i + j + step) % 5));
            #pragma omp taskwait
            #pragma omp target teams distribute parallel for collapse(2) reduction(+: residual) \
                map(to: t[0:cells], tn[0:cells])
            for (i = 0; i < n; i++)
                for (j = 0; j < n; j++)
                    residual += (tn[i * n + j] - t[i * n + j]) * (tn[i * n + j] - t[i * n + j]);
            swap(&t, &tn);
            swap(&p, &pn);
            swap(&d, &dn);
            if (step % 4 == 3) {
                #pragma omp target update from(t[(n / 2) * n:n], p[(n / 2) * n:n], d[(n / 2) * n:n])
                printf("step %2d residual %.6e probe %.6f %.6f %.6f\n", step, residual,
                       t[(n / 2) * n + n / 3], p[(n / 2) * n + n / 3], d[(n / 2) * n + n / 3]);
            }
        }
        #pragma omp target exit data map(from: t[0:cells], p[0:cells], d[0:cells]) \
                                     map(delete: tn[0:cells], pn[0:cells], dn[0:cells])
        {
            double st = 0, sp = 0, sd = 0;
            for (i = 0; i < cells; i++) {
                st += t[i];
                sp += p[i];
                sd += d[i];
            }
            printf("sums %.6f %.6f %.6f\n", st, sp, sd);
        }
    }
    free(f.temperature);
    free(f.pressure);
    free(f.density);
    free(f.next_temperature);
    free(f.next_pressure);
    free(f.next_density);
    return 0;
}
