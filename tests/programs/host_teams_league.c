/* OpenMP 5.0's `teams` on the host, outside any target region: a league of four
 * teams (num_teams), each with at most two threads (thread_limit), sharing a
 * histogram's bins by team number; each team's own counts are a private copy folded
 * by a `reduction` on the teams construct, and a parallel region inside each team
 * counts its bin's members. gcc's libgomp runs a host league's teams one after another
 * in the encountering thread; every count is an integer, so the result is exact. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define SAMPLES 5000
#define BINS 8

int main(void)
{
    int *sample = malloc(SAMPLES * sizeof *sample);
    long bin_count[BINS] = {0};
    int team_seen[4] = {0}, league = 0, limit_ok = 1;
    long members = 0;
    for (int i = 0; i < SAMPLES; i++)
        sample[i] = (i * 7919) % 1000;

#pragma omp teams num_teams(4) thread_limit(2) reduction(+: members)
    {
        int team = omp_get_team_num(), teams = omp_get_num_teams();
        if (team == 0)
            league = teams;
        team_seen[team] = 1;
        for (int bin = team; bin < BINS; bin += teams) {
            long count = 0;
#pragma omp parallel reduction(+: count)
            {
                if (omp_get_num_threads() > 2)
                    limit_ok = 0;
#pragma omp for
                for (int i = 0; i < SAMPLES; i++)
                    count += sample[i] * BINS / 1000 == bin;
            }
            bin_count[bin] = count;
            members += count;
        }
    }

    printf("league of %d teams, thread limit kept: %d\n", league, limit_ok);
    printf("teams seen: %d %d %d %d\n", team_seen[0], team_seen[1], team_seen[2], team_seen[3]);
    for (int bin = 0; bin < BINS; bin++)
        printf("bin %d: %ld\n", bin, bin_count[bin]);
    printf("members %ld of %d\n", members, SAMPLES);
    free(sample);
    return 0;
}
