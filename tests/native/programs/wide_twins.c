/* Two kernels with a loop in each iteration: a few long rows (one block: launched as the
 * kernel's wide-register twin) and a million short ones (a grid that fills the device:
 * the kernel itself); and a kernel without one (no twin). tests/native/test_wide_twins.py */
#include <stdio.h>

#define ROWS 16
#define COLS 1000
#define BIG (1 << 20)

static double weights[ROWS * COLS], inputs[COLS], sums[ROWS], values[BIG];

int main(void)
{
    int row, k, i;
    for (k = 0; k < ROWS * COLS; k++)
        weights[k] = k % 7;
    for (k = 0; k < COLS; k++)
        inputs[k] = k % 3;
    for (i = 0; i < BIG; i++)
        values[i] = i % 5;

#pragma omp target teams distribute parallel for map(to: weights, inputs) map(from: sums)
    for (row = 0; row < ROWS; row++) {
        double sum = 0.0;
        for (k = 0; k < COLS; k++)
            sum += weights[row * COLS + k] * inputs[k];
        sums[row] = sum;
    }

#pragma omp target teams distribute parallel for map(tofrom: values)
    for (i = 0; i < BIG; i++) {
        int step;
        double v = values[i];
        for (step = 0; step < (i & 7); step++)
            v = v * 0.5 + step;
        values[i] = v;
    }
#pragma omp target teams distribute parallel for map(tofrom: sums)
    for (row = 0; row < ROWS; row++)
        sums[row] = 2 * sums[row];
    printf("%.1f %.1f %.4f %.4f\n", sums[0], sums[ROWS - 1], values[3], values[BIG - 1]);
    return 0;
}
