/* taskloop's data-sharing and structure clauses on a blocked matrix update: collapse(2)
 * over a 2-D iteration space, private scratch, firstprivate scale, lastprivate of the
 * loop variable and of a value set in the last iteration, nogroup (the generating task
 * waits itself, with taskwait), taskloop simd, and a taskloop inside a parallel region's
 * every thread's task. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define ROWS 60
#define COLS 40

struct matrix {
    double a[ROWS][COLS];
    double b[ROWS][COLS];
    double row_norm[ROWS];
};

static double norm_of(const double *row)
{
    double s = 0.0;
    for (int j = 0; j < COLS; j++)
        s += row[j] * row[j];
    return s;
}

int main(void)
{
    struct matrix *m = malloc(sizeof *m);
    double scale = 0.5, last_value = 0.0;
    int i, last_i = -1;
    long per_thread_total = 0;

    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++)
            m->a[r][c] = (r * COLS + c) % 17 - 8.0;

#pragma omp parallel
#pragma omp single
    {
#pragma omp taskloop collapse(2) firstprivate(scale) grainsize(64)
        for (int r = 0; r < ROWS; r++)
            for (int c = 0; c < COLS; c++)
                m->b[r][c] = m->a[r][c] * scale;

        double scratch[COLS];
#pragma omp taskloop private(scratch) lastprivate(i, last_value) num_tasks(6)
        for (i = 0; i < ROWS; i++) {
            for (int c = 0; c < COLS; c++)
                scratch[c] = m->b[i][c] + 1.0;
            m->row_norm[i] = norm_of(scratch);
            last_value = m->row_norm[i];
        }
        last_i = i;

        /* nogroup: the generating task goes on, and waits for the loop's tasks itself */
#pragma omp taskloop nogroup grainsize(10)
        for (int r = 0; r < ROWS; r++)
            m->row_norm[r] = m->row_norm[r] / COLS;
#pragma omp taskwait

#pragma omp taskloop simd grainsize(8)
        for (int c = 0; c < COLS; c++)
            m->b[0][c] = m->b[0][c] * 2.0 + m->row_norm[c % ROWS];
    }

    /* every thread generates a taskloop of its own */
#pragma omp parallel reduction(+:per_thread_total)
    {
        long mine = 0;
#pragma omp taskloop shared(mine) num_tasks(4)
        for (int k = 0; k < 100; k++) {
#pragma omp atomic
            mine += k;
        }
        per_thread_total += mine == 4950;
    }

    double sum_b = 0.0, sum_norm = 0.0;
    for (int r = 0; r < ROWS; r++) {
        sum_norm += m->row_norm[r];
        for (int c = 0; c < COLS; c++)
            sum_b += m->b[r][c];
    }
    printf("sum of b %.4f, of row norms %.6f\n", sum_b, sum_norm);
    printf("lastprivate i %d, last value %.4f\n", last_i, last_value);
    printf("every thread's taskloop complete: %d\n", per_thread_total == omp_get_max_threads());
    free(m);
    return 0;
}
