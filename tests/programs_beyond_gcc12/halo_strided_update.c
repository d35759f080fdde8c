/* A periodic 2-D heat stencil whose ghost columns the host fills between steps, as codes
 * exchanging halos do (the host's part standing in for an MPI exchange): the grid stays on
 * the device for the whole run, and only the boundary columns travel, as discontiguous
 * `target update` sections: a column of a 2-D array `t[0:NY][1:1]` (rows of one element,
 * a row length apart), the same of a flat malloc'd grid as a strided section
 * `f[1:ny:nx]`, and the whole flat grid seen as 2-D through array shaping
 * `([ny][nx])f` at the end.
 *
 * Expected output: the serial program's (its pragmas ignored):
 * `gcc -x c halo_strided_update.c && ./a.out`. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#define NY 24
#define NX 18

static double t[NY][NX], tnew[NY][NX];

/* periodic in x: each ghost column takes the interior column at the other side */
static void fill_ghosts_2d(void) {
    for (int j = 0; j < NY; j++) {
        t[j][0] = t[j][NX - 2];
        t[j][NX - 1] = t[j][1];
    }
}

static void fill_ghosts_flat(double *f, int ny, int nx) {
    for (int j = 0; j < ny; j++) {
        f[j * nx] = f[j * nx + nx - 2];
        f[j * nx + nx - 1] = f[j * nx + 1];
    }
}

int main(int argc, char **argv) {
    int steps = 10, ny = 20, nx = 16, opt;
    while ((opt = getopt(argc, argv, "s:")) != -1)
        if (opt == 's') steps = atoi(optarg);
    double *f = malloc(ny * nx * sizeof *f), *g = malloc(ny * nx * sizeof *g);
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++) t[j][i] = (i * 7 + j * 3) % 11;
    for (int k = 0; k < ny * nx; k++) f[k] = (k % 13) * 0.5;
    fill_ghosts_2d();
    fill_ghosts_flat(f, ny, nx);

    #pragma omp target data map(tofrom: t) map(alloc: tnew) map(tofrom: f[0:ny*nx]) map(alloc: g[0:ny*nx])
    {
        for (int step = 0; step < steps; step++) {
            /* interior rows: the stencil; the first and last rows (insulated walls) relax
               towards their neighbour row, reading the ghost corners too */
            #pragma omp target teams distribute parallel for collapse(2)
            for (int j = 0; j < NY; j++)
                for (int i = 1; i < NX - 1; i++) {
                    if (j == 0 || j == NY - 1) {
                        int in = j == 0 ? 1 : NY - 2;
                        tnew[j][i] = 0.5 * t[j][i] + 0.25 * t[in][i] + 0.125 * (t[j][i - 1] + t[j][i + 1]);
                    } else {
                        tnew[j][i] = t[j][i] + 0.2 * (t[j - 1][i] + t[j + 1][i] + t[j][i - 1] + t[j][i + 1] - 4 * t[j][i]);
                    }
                }
            #pragma omp target teams distribute parallel for collapse(2)
            for (int j = 0; j < NY; j++)
                for (int i = 1; i < NX - 1; i++) t[j][i] = tnew[j][i];
            #pragma omp target teams distribute parallel for collapse(2)
            for (int j = 0; j < ny; j++)
                for (int i = 1; i < nx - 1; i++) {
                    int up = j > 0 ? j - 1 : j, down = j < ny - 1 ? j + 1 : j;
                    g[j * nx + i] = 0.5 * f[j * nx + i] + 0.125 * (f[up * nx + i] + f[down * nx + i]
                                                                 + f[j * nx + i - 1] + f[j * nx + i + 1]);
                }
            #pragma omp target teams distribute parallel for collapse(2)
            for (int j = 0; j < ny; j++)
                for (int i = 1; i < nx - 1; i++) f[j * nx + i] = g[j * nx + i];

            /* the interior columns next to the ghosts come back, the ghosts go out */
            #pragma omp target update from(t[0:NY][1:1], t[0:NY][NX-2:1])
            fill_ghosts_2d();
            #pragma omp target update to(t[0:NY][0:1], t[0:NY][NX-1:1])
            #pragma omp target update from(f[1:ny:nx], f[nx-2:ny:nx])
            fill_ghosts_flat(f, ny, nx);
            #pragma omp target update to(f[0:ny:nx], f[nx-1:ny:nx])
            if (step % 3 == 0) {
                double ghosts_t = 0.0, ghosts_f = 0.0;          /* every row of each ghost column */
                for (int j = 0; j < NY; j++) ghosts_t += (j + 1) * (t[j][0] + 2 * t[j][NX - 1]);
                for (int j = 0; j < ny; j++) ghosts_f += (j + 1) * (f[j * nx] + 2 * f[j * nx + nx - 1]);
                printf("step %d: ghosts of t %.6f of f %.6f\n", step, ghosts_t, ghosts_f);
            }
        }
        #pragma omp target update from(([ny][nx])f)
        double edge = 0.0;
        for (int j = 0; j < ny; j++) edge += f[j * nx] + f[j * nx + nx - 1];
        printf("flat ghosts %.9f\n", edge);
    }
    double sum_t = 0.0, sum_f = 0.0;
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++) sum_t += (j + 1) * t[j][i];
    for (int k = 0; k < ny * nx; k++) sum_f += (k % 7 + 1) * f[k];
    printf("sum t %.9f sum f %.9f\n", sum_t, sum_f);
    free(f);
    free(g);
    return 0;
}
