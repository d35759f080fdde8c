/* Variable-length arrays in target regions: a VLA mapped implicitly (its size is
 * known at run time) and with array sections over both dimensions, a matrix
 * allocated as a pointer to VLA rows and mapped with map(p[0:n]), a VLA declared
 * inside a region (per-iteration scratch, per-thread across a barrier), a declare
 * target function taking a pointer to VLA rows, a typedef of a VLA type used in a
 * region, and sizeof of a VLA on the device. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#pragma omp declare target
static double stencil_row(int m, const double (*restrict g)[m], int i) {
    double acc = 0.0;
    for (int j = 1; j < m - 1; j++) acc += (g[i][j - 1] + 2.0 * g[i][j] + g[i][j + 1]) * 0.25;
    return acc;
}
#pragma omp end declare target

int main(int argc, char **argv) {
    int n = 60 + argc, m = 37 + argc;             /* 63 x 40 with two arguments */
    double grid[n][m];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) grid[i][j] = (i * 13 + j * 7) % 17 * 0.5;

    /* The whole VLA, mapped implicitly tofrom. */
    #pragma omp target teams distribute parallel for collapse(2)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) grid[i][j] = grid[i][j] * 2.0 + 1.0;
    printf("grid[3][4] = %.2f, grid[n-1][m-1] = %.2f\n", grid[3][4], grid[n - 1][m - 1]);

    /* Sections over both dimensions of the VLA. */
    #pragma omp target teams distribute parallel for map(tofrom: grid[0:n][0:m])
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) grid[i][j] -= 0.5;
    printf("grid[5][6] = %.2f\n", grid[5][6]);

    /* A matrix as a pointer to VLA rows, mapped with a section of rows. */
    double (*field)[m] = malloc(sizeof(double[n][m]));
    double row_sums[n];
    #pragma omp target teams distribute parallel for map(to: grid) map(from: field[0:n])
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) field[i][j] = grid[i][j] * 0.5;
    #pragma omp target teams distribute parallel for map(to: field[0:n]) map(from: row_sums[0:n])
    for (int i = 0; i < n; i++) row_sums[i] = stencil_row(m, field, i);
    printf("field[7][8] = %.3f, row_sums[0] = %.3f, row_sums[n-1] = %.3f\n",
           field[7][8], row_sums[0], row_sums[n - 1]);

    /* A VLA declared inside the region: scratch for each iteration. */
    double energy[n];
    #pragma omp target teams distribute parallel for map(to: field[0:n]) map(from: energy)
    for (int i = 0; i < n; i++) {
        double squares[m];
        for (int j = 0; j < m; j++) squares[j] = field[i][j] * field[i][j];
        double s = 0.0;
        for (int j = 0; j < m; j++) s += squares[j];
        energy[i] = s + (double)(sizeof squares / sizeof squares[0]);
    }
    printf("energy[2] = %.3f, energy[n-1] = %.3f\n", energy[2], energy[n - 1]);

    /* A per-thread VLA a barrier splits from its uses. */
    int mismatches = 0;
    #pragma omp target teams num_teams(1) map(tofrom: mismatches) map(to: field[0:n])
    #pragma omp parallel num_threads(4)
    {
        int tid = omp_get_thread_num();
        double mine[m];
        for (int j = 0; j < m; j++) mine[j] = field[tid][j] + 100.0 * tid;
        #pragma omp barrier
        for (int j = 0; j < m; j++)
            if (mine[j] != field[tid][j] + 100.0 * tid) {
                #pragma omp atomic
                mismatches++;
            }
    }
    printf("mismatches = %d\n", mismatches);

    /* A typedef of a VLA type: its length is the one fixed where it was declared. */
    int len = n;
    typedef double column[len];
    len = 3;
    double column_total = 0.0;
    #pragma omp target map(to: field[0:n]) map(tofrom: column_total)
    {
        column c;
        for (int i = 0; i < (int)(sizeof c / sizeof c[0]); i++) c[i] = field[i][1];
        for (int i = 0; i < (int)(sizeof c / sizeof c[0]); i++) column_total += c[i];
    }
    printf("column_total = %.3f, len = %d\n", column_total, len);

    size_t bytes = 0;
    #pragma omp target map(from: bytes)
    bytes = sizeof grid + sizeof grid[0] + sizeof *field;
    printf("bytes = %zu\n", bytes);
    free(field);
    return 0;
}
