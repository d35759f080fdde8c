/* expect: 12:27: error: OpenMP runtime API call 'omp_get_num_threads' strictly nested in a 'teams' region */
#include <stdio.h>
#include <omp.h>

int main(void)
{
    int width[4] = {0};
    #pragma omp teams num_teams(4)
    {
        int team = omp_get_team_num();      /* allowed: one of the two routines teams may call */
        if (team < 4)
            width[team] = omp_get_num_threads();
    }
    printf("%d\n", width[0]);
    return 0;
}
