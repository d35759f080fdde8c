/* Doacross loops (OpenMP 4.5 ordered(n) with depend(sink)/depend(source)):
 * a Gauss-Seidel sweep over a 2-D grid whose rows are shared out among threads, each
 * point waiting for its north and west neighbours' new values (a wavefront), and a
 * running sum along a 1-D array where each iteration waits for the one before. The
 * sweeps run on the host and in a target region; the dependences make them compute
 * exactly what the sequential loops do, so the checksums are gcc's to the last digit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NX 48
#define NY 40
#define SWEEPS 4

struct grid {
    double u[NX][NY];
    double f[NX][NY];
};

static void setup(struct grid *g)
{
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++) {
            g->u[i][j] = (i == 0 || j == 0 || i == NX - 1 || j == NY - 1) ? 1.0 + 0.01 * i : 0.0;
            g->f[i][j] = 0.001 * ((i * 7 + j * 3) % 11);
        }
}

static double checksum(const struct grid *g)
{
    double s = 0;
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++)
            s += g->u[i][j] * (1 + (i + j) % 5);
    return s;
}

/* One Gauss-Seidel sweep on the host: rows dealt out dynamically, each point after
 * its north (i-1, j) and west (i, j-1) neighbours were updated. */
static void sweep_host(struct grid *g)
{
    int i, j;
    #pragma omp parallel for ordered(2) schedule(dynamic, 1) private(j)
    for (i = 1; i < NX - 1; i++)
        for (j = 1; j < NY - 1; j++) {
            #pragma omp ordered depend(sink: i - 1, j) depend(sink: i, j - 1)
            g->u[i][j] = 0.25 * (g->u[i - 1][j] + g->u[i + 1][j] + g->u[i][j - 1] + g->u[i][j + 1]
                                 - g->f[i][j]);
            #pragma omp ordered depend(source)
        }
}

/* The same sweep in a target region, the grid mapped; the loop counts down the
 * columns, so the west neighbour is j + 1 in the sink vector. */
static void sweep_device(struct grid *g, int sweeps)
{
    #pragma omp target map(tofrom: g[0:1])
    for (int s = 0; s < sweeps; s++) {
        #pragma omp parallel for ordered(2)
        for (int i = 1; i < NX - 1; i++)
            for (int j = NY - 2; j >= 1; j--) {
                #pragma omp ordered depend(sink: i - 1, j) depend(sink: i, j + 1)
                g->u[i][j] = 0.25 * (g->u[i - 1][j] + g->u[i + 1][j] + g->u[i][j - 1] + g->u[i][j + 1]
                                     - g->f[i][j]);
                #pragma omp ordered depend(source)
            }
    }
}

/* prefix[k] = prefix[k - 2] + x[k] (a stride-2 running sum): iteration k waits for k - 2 */
static void running_sums(const double *x, double *prefix, int n)
{
    prefix[0] = x[0];
    prefix[1] = x[1];
    #pragma omp parallel for ordered(1) schedule(static, 3)
    for (int k = 2; k < n; k++) {
        double v = x[k] * 0.5;
        #pragma omp ordered depend(sink: k - 2)
        prefix[k] = prefix[k - 2] + v;
        #pragma omp ordered depend(source)
    }
}

int main(int argc, char **argv)
{
    int sweeps = argc > 2 ? atoi(argv[2]) % 3 + SWEEPS : SWEEPS;
    struct grid *g = malloc(sizeof *g);
    setup(g);
    for (int s = 0; s < sweeps; s++) {
        sweep_host(g);
        printf("host sweep %d checksum %.12f\n", s, checksum(g));
    }
    setup(g);
    sweep_device(g, sweeps);
    printf("target sweeps %d checksum %.12f centre %.12f\n", sweeps, checksum(g), g->u[NX / 2][NY / 2]);

    enum { N = 1000 };
    static double x[N], prefix[N];
    for (int k = 0; k < N; k++)
        x[k] = (k % 13) * 0.25 + 1.0 / (k + 1);
    running_sums(x, prefix, N);
    printf("running sums %.12f %.12f %.12f\n", prefix[N / 2], prefix[N - 2], prefix[N - 1]);
    free(g);
    return 0;
}
