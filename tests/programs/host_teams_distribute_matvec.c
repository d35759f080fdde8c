/* A sparse-ish matrix-vector product and residual norm with OpenMP 5.0's host teams:
 * `teams distribute parallel for` deals the rows to a league of four teams (each team's
 * block run by its threads), a `teams` region's nested `distribute` with a chunked
 * dist_schedule scales the result, and `teams distribute simd` sums a norm by teams
 * reduction. Every value is a small dyadic fraction, so every sum is exact in any order;
 * the rows each team ran are counted to show the league's split, which gcc's libgomp
 * and omp2gpu deal the same way. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define ROWS 3000
#define BAND 5

struct band_matrix {
    double diagonal[BAND][ROWS];
};

int main(void)
{
    struct band_matrix *a = malloc(sizeof *a);
    double *x = malloc(ROWS * sizeof *x), *y = malloc(ROWS * sizeof *y);
    int *team_of_row = malloc(ROWS * sizeof *team_of_row);
    for (int d = 0; d < BAND; d++)
        for (int i = 0; i < ROWS; i++)
            a->diagonal[d][i] = (d == BAND / 2) ? 4.0 : -((i + d) % 3);
    for (int i = 0; i < ROWS; i++)
        x[i] = i % 17;

    for (int sweep = 0; sweep < 3; sweep++) {
#pragma omp teams distribute parallel for num_teams(4) thread_limit(4)
        for (int i = 0; i < ROWS; i++) {
            double s = 0.0;
            for (int d = 0; d < BAND; d++) {
                int j = i + d - BAND / 2;
                if (j >= 0 && j < ROWS)
                    s += a->diagonal[d][i] * x[j];
            }
            y[i] = s;
            team_of_row[i] = omp_get_team_num();
        }
#pragma omp teams num_teams(3)
        {
#pragma omp distribute dist_schedule(static, 128)
            for (int i = 0; i < ROWS; i++)
                x[i] = y[i] / 2.0 - (double)(i % 5);
        }
    }

    double norm = 0.0;
    long largest = 0;
#pragma omp teams distribute simd num_teams(2) reduction(+: norm) reduction(max: largest)
    for (int i = 0; i < ROWS; i++) {
        norm += x[i] * x[i];
        long v = (long)(x[i] < 0 ? -x[i] : x[i]);
        largest = v > largest ? v : largest;
    }

    int rows_of_team[4] = {0};
    for (int i = 0; i < ROWS; i++)
        rows_of_team[team_of_row[i]]++;
    printf("rows per team: %d %d %d %d\n", rows_of_team[0], rows_of_team[1], rows_of_team[2], rows_of_team[3]);
    printf("x[0..3] %.1f %.1f %.1f %.1f\n", x[0], x[1], x[2], x[3]);
    printf("norm^2 %.1f largest |x| %ld\n", norm, largest);
    free(a); free(x); free(y); free(team_of_row);
    return 0;
}
