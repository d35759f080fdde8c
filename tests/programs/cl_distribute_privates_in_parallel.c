/* Batched row scaling: `target teams distribute` over rows whose body runs a
 * `parallel for` over the row's columns (the control-loop scheme). The
 * distribute's firstprivate, private and reduction copies are made by the team
 * master's sequential code, yet the parallel region reads and updates them:
 * every thread of the team must see the master's copy, not a stack slot of its
 * own (a tiled GEMM's firstprivate(alpha, beta) read in its tile loops). */
#include <stdio.h>

#define ROWS 40
#define COLS 96
#define LIMIT 20.0

static double a[ROWS][COLS];
static double b[ROWS][COLS];

int main(void)
{
    double scale = 0.5, offset = -1.0, checksum = 0.0;
    int clipped = 0, r, c;

    for (r = 0; r < ROWS; r++)
        for (c = 0; c < COLS; c++)
            a[r][c] = (double) ((r * 7 + c * 3) % 41);

#pragma omp target teams distribute firstprivate(scale) private(offset) reduction(+: clipped) \
        thread_limit(64) map(to: a) map(from: b)
    for (r = 0; r < ROWS; r++) {
        int col;
        offset = 0.25 * r;
#pragma omp parallel for reduction(+: clipped)
        for (col = 0; col < COLS; col++) {
            double v = scale * a[r][col] + offset;
            if (v > LIMIT) {
                v = LIMIT;
                clipped++;
            }
            b[r][col] = v;
        }
    }

    for (r = 0; r < ROWS; r++)
        for (c = 0; c < COLS; c++)
            checksum += b[r][c] * ((r + c) % 5 + 1);
    printf("scale %.2f offset %.2f (unchanged by the private copies)\n", scale, offset);
    printf("clipped %d of %d values\n", clipped, ROWS * COLS);
    printf("b[0][0] %.2f b[1][3] %.2f b[39][95] %.2f\n", b[0][0], b[1][3], b[ROWS - 1][COLS - 1]);
    printf("checksum %.4f\n", checksum);
    return 0;
}
