/* Per-team bookkeeping with OpenMP 5.1's masked construct inside a league: in every
 * team's parallel region the last thread (filter(omp_get_num_threads() - 1)) records
 * that the team finished its share of a block sum, thread 0 (a masked region without a
 * filter, like master) the team's share, while all threads add their rows. The output
 * holds only what does not depend on how many teams or threads there are. */
#include <stdio.h>
#include <omp.h>

#define ROWS 96
#define COLS 64

int main(void)
{
    static int grid[ROWS][COLS];
    long row_sum[ROWS];
    int teams_done = 0, right_thread = 0, team_shares = 0;
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++)
            grid[r][c] = (r * 31 + c * 17) % 23;

#pragma omp target teams num_teams(3) thread_limit(8) map(to: grid) map(from: row_sum) \
        map(tofrom: teams_done, right_thread, team_shares)
    {
        int team = omp_get_team_num(), teams = omp_get_num_teams();
#pragma omp parallel
        {
            int me = omp_get_thread_num(), threads = omp_get_num_threads();
            for (int r = team * threads + me; r < ROWS; r += teams * threads) {
                long s = 0;
                for (int c = 0; c < COLS; c++)
                    s += grid[r][c];
                row_sum[r] = s;
            }
#pragma omp barrier
#pragma omp masked filter(omp_get_num_threads() - 1)
            {
#pragma omp atomic
                teams_done++;
#pragma omp atomic
                right_thread += me == threads - 1;
            }
#pragma omp masked
            {
#pragma omp atomic
                team_shares += me == 0;
            }
        }
    }

    long total = 0;
    for (int r = 0; r < ROWS; r++)
        total += row_sum[r] * (r % 7 + 1);
    printf("every team's masked block ran once: %d\n", teams_done >= 1 && right_thread == teams_done);
    printf("thread 0 ran each unfiltered masked block: %d\n", team_shares == teams_done);
    printf("weighted row total %ld\n", total);
    return 0;
}
