/* target data copies back, and releases, the storage mapped at its entry, even when
 * the body moves the pointer the map clause named: a row pointer walked through a
 * field, a result pointer switched to another buffer. target exit data is a construct
 * of its own and uses the pointer's value where it stands. */
#include <stdio.h>
#include <stdlib.h>

#define ROWS 6
#define COLS 8

static double checksum(const double *v, int n)
{
    double s = 0.0;
    int i;
    for (i = 0; i < n; i++)
        s += v[i] * (i % 7 + 1);
    return s;
}

int main(void)
{
    double *field = malloc(ROWS * COLS * sizeof(double));
    double *spare = calloc(ROWS * COLS, sizeof(double));
    double *row = field;
    double *result;
    int r, c, i;

    for (i = 0; i < ROWS * COLS; i++)
        field[i] = i * 0.25;

    /* each row is processed by its own region; the host walks `row` past the end */
#pragma omp target data map(tofrom: row[0:ROWS * COLS])
    {
        for (r = 0; r < ROWS; r++) {
#pragma omp target teams distribute parallel for
            for (c = 0; c < COLS; c++)
                row[c] = row[c] * 2.0 + r;
            row += COLS;
        }
    }
    printf("walked rows: checksum %.4f, field[9] %.4f, last %.4f\n",
           checksum(field, ROWS * COLS), field[9], field[ROWS * COLS - 1]);
    printf("row is past the end: %d\n", row == field + ROWS * COLS);

    /* the result pointer is switched to the spare buffer inside the region */
    result = field;
#pragma omp target data map(tofrom: result[0:ROWS * COLS])
    {
#pragma omp target teams distribute parallel for
        for (i = 0; i < ROWS * COLS; i++)
            result[i] = result[i] - 1.0;
        result = spare;
    }
    printf("switched result: field %.4f, spare %.4f\n",
           checksum(field, ROWS * COLS), checksum(spare, ROWS * COLS));

    /* enter/exit data: the exit maps what the pointer designates at the exit */
    row = field;
#pragma omp target enter data map(to: row[0:ROWS * COLS])
    for (r = 0; r < ROWS; r++) {
#pragma omp target
        {
            int k;
            for (k = 0; k < COLS; k++)
                row[k] += 0.5;
        }
        row += COLS;
    }
    row = field;
#pragma omp target exit data map(from: row[0:ROWS * COLS])
    printf("enter/exit data: checksum %.4f\n", checksum(field, ROWS * COLS));

    /* a target region's own pointer copy moves on the device only */
    row = field;
#pragma omp target map(tofrom: row[0:ROWS * COLS])
    {
        int k;
        for (k = 0; k < ROWS; k++) {
            row[0] = -k;
            row += COLS;
        }
    }
    printf("region moved its copy: row == field %d, field[8] %.1f, field[40] %.1f\n",
           row == field, field[8], field[40]);

    free(field);
    free(spare);
    return 0;
}
