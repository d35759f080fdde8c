/* OpenMP 5.1 makes num_teams(n) a league of exactly n teams (its lower bound defaults to
 * n), however few iterations the teams' loop has: a region that asks omp_get_num_teams()
 * sees n, as with gcc and Clang. A loop bound that calls omp_get_num_teams() is the
 * device's answer, which the host cannot know when it shapes the launch. A `teams`
 * construct written inside `target` (no loop in it) is a league too: each team fills its
 * slice. */
#include <omp.h>
#include <stdio.h>

#define STAGES 5

int main(void)
{
    int league = 0, combined = 0, bounded = 0, counted = 0, split = 0;
    double weights[STAGES];
    int stage;
    static int slices[3 * 4];

    #pragma omp target teams distribute num_teams(8) map(from: league, weights)
    for (stage = 0; stage < STAGES; stage++) {
        weights[stage] = 0.5 * stage;
        if (stage == 0)
            league = omp_get_num_teams();
    }

    #pragma omp target teams distribute parallel for num_teams(6) map(tofrom: combined)
    for (stage = 0; stage < 3; stage++)
        if (stage == 0)
            combined = omp_get_num_teams();

    #pragma omp target teams distribute num_teams(2) map(tofrom: bounded) reduction(+: counted)
    for (int j = 0; j < omp_get_num_teams(); j++) {
        counted++;
        if (j == 0)
            bounded = omp_get_num_teams();
    }

    #pragma omp target map(tofrom: split)
    #pragma omp teams num_teams(4)
    #pragma omp distribute
    for (stage = 0; stage < 2; stage++)
        if (stage == 0)
            split = omp_get_num_teams();

    #pragma omp target map(tofrom: slices)
    {
        #pragma omp teams num_teams(3)
        {
            int team = omp_get_team_num(), k;
            for (k = 0; k < 4; k++)
                slices[team * 4 + k] = 10 * omp_get_num_teams() + team;
        }
    }

    printf("league %d, combined %d, bounded %d over %d iterations, split %d, weights[4] %.1f\n",
           league, combined, bounded, counted, split, weights[STAGES - 1]);
    printf("slices %d %d %d %d\n", slices[0], slices[4], slices[8], slices[11]);
    return 0;
}
