/* The loop's own iteration variable listed in private/lastprivate, declared before
 * the loop as older codes do (C89 style): the body must see the iteration variable,
 * not a fresh uninitialised copy; lastprivate(i) leaves i one step past the end. */
#include <stdio.h>

#define NX 64
#define NY 48

static double grid[NX][NY];
static double next[NX][NY];
static double weights[NX];
static double row_sum[NX];

int main(void)
{
    int i, j, k;
    int n = NX, m = NY;
    double checksum = 0.0;

    /* combined construct, private(i) */
#pragma omp target teams distribute parallel for private(i) map(from: weights)
    for (i = 0; i < n; i++)
        weights[i] = 0.5 + i * 0.25;

    /* collapse(2) with both iteration variables private */
#pragma omp target teams distribute parallel for collapse(2) private(i, j) map(from: grid)
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            grid[i][j] = (double)(i * m + j) / (n * m);

    /* target parallel for with an inner serial loop whose variable is private too */
#pragma omp target parallel for private(i, j, k) map(to: grid, weights) map(from: row_sum)
    for (i = 0; i < n; i++) {
        double s = 0.0;
        for (j = 0; j < m; j++)
            for (k = 0; k < 2; k++)
                s += grid[i][j] * weights[i] * (k + 1);
        row_sum[i] = s;
    }

    /* parallel for private(i) inside target teams: one team, its threads share the loop */
#pragma omp target teams num_teams(1) map(to: grid) map(tofrom: next)
    {
#pragma omp parallel for private(i, j)
        for (i = 1; i < n - 1; i++)
            for (j = 1; j < m - 1; j++)
                next[i][j] = 0.25 * (grid[i - 1][j] + grid[i + 1][j] + grid[i][j - 1] + grid[i][j + 1]);
    }

    /* distribute with private(i) below a separate teams construct */
#pragma omp target map(tofrom: weights)
#pragma omp teams
#pragma omp distribute parallel for private(i)
    for (i = 0; i < n; i += 2)
        weights[i] = weights[i] * 2.0;

    /* lastprivate(i): after the loop i is the value the sequential loop leaves */
    i = -1;
#pragma omp target teams distribute parallel for lastprivate(i) map(tofrom: i) map(tofrom: row_sum)
    for (i = 3; i < n; i += 5)
        row_sum[i] += 1.0;
    printf("after lastprivate loop: i = %d\n", i);

    i = -1;
    j = -1;
#pragma omp target parallel for collapse(2) lastprivate(i, j) map(tofrom: i, j, next)
    for (i = 0; i < 4; i++)
        for (j = 0; j < 6; j++)
            next[i][j] += i + j;
    printf("after collapsed lastprivate loop: i = %d, j = %d\n", i, j);

    for (i = 0; i < n; i++) {
        checksum += weights[i] + row_sum[i];
        for (j = 0; j < m; j++)
            checksum += next[i][j] * 0.001 + grid[i][j];
    }
    printf("weights[0] = %.3f weights[1] = %.3f weights[63] = %.3f\n", weights[0], weights[1], weights[63]);
    printf("row_sum[5] = %.6f row_sum[8] = %.6f\n", row_sum[5], row_sum[8]);
    printf("next[10][10] = %.6f next[3][5] = %.6f\n", next[10][10], next[3][5]);
    printf("checksum = %.6f\n", checksum);
    return 0;
}
