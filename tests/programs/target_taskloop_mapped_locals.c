/* A taskloop in a target region with no parallel region around it. The arrays and
 * scalars the region maps are automatic variables of main, private to the task that
 * encounters the taskloop, so each generated task gets them firstprivate unless a
 * clause shares them (OpenMP 4.5 2.15.1.1; GCC does the same): results go through
 * shared(...) and lastprivate(...), and a task's own scratch row is an unlisted
 * mapped array whose writes never reach the mapped copy. */
#include <stdio.h>

#define ROWS 24
#define COLS 10

int main(void)
{
    double matrix[ROWS][COLS], row_norm[ROWS], scratch[COLS];
    int visited = 0, last_row = -1;

    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++)
            matrix[i][j] = (i * 7 + j * 3) % 11 - 5;
    for (int j = 0; j < COLS; j++)
        scratch[j] = -1.0;

#pragma omp target map(to: matrix) map(from: row_norm) map(tofrom: scratch, visited, last_row)
#pragma omp taskloop grainsize(4) shared(row_norm) lastprivate(last_row)
    for (int i = 0; i < ROWS; i++) {
        double sum = 0.0;
        for (int j = 0; j < COLS; j++) {
            scratch[j] = matrix[i][j] * matrix[i][j];     /* this task's copy */
            sum += scratch[j];
        }
        row_norm[i] = sum;
        visited++;                                        /* this task's copy too */
        last_row = i;
    }

    double total = 0.0;
    for (int i = 0; i < ROWS; i++)
        total += row_norm[i];
    printf("row 0 %.1f, row %d %.1f, total %.1f\n", row_norm[0], ROWS - 1, row_norm[ROWS - 1], total);
    printf("scratch[0] = %.1f (unchanged), visited = %d (unchanged), last_row = %d\n",
           scratch[0], visited, last_row);

    /* Shared explicitly, the taskloop's writes reach the mapped copy. */
#pragma omp target map(tofrom: scratch)
#pragma omp taskloop shared(scratch)
    for (int j = 0; j < COLS; j++)
        scratch[j] = j * 0.5;
    printf("scratch[%d] = %.1f\n", COLS - 1, scratch[COLS - 1]);
    return 0;
}
