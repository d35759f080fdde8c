/* The spellings of a discontiguous `target update` a code meets, each moving a lattice of
 * points between the device's copy and the host, which reads and rescales exactly those
 * points between device sweeps: a 3-D array strided in two dimensions, an array member of
 * a struct with a stride, a variable-length 2-D array behind a pointer (every other row,
 * the interior columns), and a flat pointer shaped 2-D (`([n][m])p`) with strided
 * sections. A point copied wrongly or not at all leaves the host reading the device's
 * stale value or the device the host's.
 *
 * Expected output: the serial program's (its pragmas ignored):
 * `gcc -x c strided_update_forms.c && ./a.out`. */
#include <stdio.h>
#include <stdlib.h>

typedef struct { int tag; double m[20]; } probe_t;

static double lattice_sum(double cube[4][5][6]) {
    double sum = 0.0;
    for (int i = 1; i < 3; i++)
        for (int j = 0; j < 5; j += 2)
            for (int k = 1; k < 6; k += 3) sum += cube[i][j][k] * (i + 2 * j + 3 * k);
    return sum;
}

int main(void) {
    static double cube[4][5][6];
    probe_t probe = {7, {0}};
    int n = 6, m = 9;
    double (*grid)[m] = malloc(n * sizeof *grid);
    double *flat = malloc(n * m * sizeof *flat);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) grid[i][j] = flat[i * m + j] = i - j;

    #pragma omp target data map(tofrom: cube, probe, grid[0:n][0:m], flat[0:n*m])
    for (int sweep = 0; sweep < 3; sweep++) {
        #pragma omp target
        {
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 5; j++)
                    for (int k = 0; k < 6; k++) cube[i][j][k] += i * 0.25 + j * 0.5 + k + sweep;
            for (int k = 0; k < 20; k++) probe.m[k] = probe.m[k] * 0.5 + k + probe.tag;
            for (int i = 0; i < n; i++)
                for (int j = 0; j < m; j++) {
                    grid[i][j] = grid[i][j] * 0.75 + j;
                    flat[i * m + j] = flat[i * m + j] * 0.5 + i;
                }
        }
        #pragma omp target update from(cube[1:2][0:5:2][1:2:3], probe.m[0:7:3])
        #pragma omp target update from(grid[0:3:2][1:m-2], ([n][m])flat[1:2:3][0:3:4])
        double probes = 0.0, rows = 0.0, shaped = 0.0;
        for (int k = 0; k < 20; k += 3) probes += probe.m[k];
        for (int i = 0; i < n; i += 2)
            for (int j = 1; j < m - 1; j++) rows += grid[i][j] * (j + 1);
        for (int i = 1; i < n; i += 3)
            for (int j = 0; j < m; j += 4) shaped += flat[i * m + j] * (i + 1);
        printf("sweep %d: lattice %.6f probes %.6f rows %.6f shaped %.6f\n", sweep, lattice_sum(cube), probes,
               rows, shaped);
        for (int i = 1; i < 3; i++)
            for (int j = 0; j < 5; j += 2)
                for (int k = 1; k < 6; k += 3) cube[i][j][k] *= 0.5;
        for (int k = 0; k < 20; k += 3) probe.m[k] = -probe.m[k];
        for (int i = 0; i < n; i += 2)
            for (int j = 1; j < m - 1; j++) grid[i][j] -= 1.0;
        for (int i = 1; i < n; i += 3)
            for (int j = 0; j < m; j += 4) flat[i * m + j] += 10.0;
        #pragma omp target update to(cube[1:2][0:5:2][1:2:3], probe.m[0:7:3], grid[0:3:2][1:m-2])
        #pragma omp target update to(([n][m])flat[1:2:3][0:3:4])
    }
    double total = 0.0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 5; j++)
            for (int k = 0; k < 6; k++) total += cube[i][j][k] * (1 + (i + j + k) % 5);
    for (int k = 0; k < 20; k++) total += probe.m[k] * (k + 1);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) total += grid[i][j] * (i + 1) - flat[i * m + j] * (j + 1);
    printf("total %.6f\n", total);
    free(grid);
    free(flat);
    return 0;
}
