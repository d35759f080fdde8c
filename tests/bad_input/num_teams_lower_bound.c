/* expect: 6:36: error: 'num_teams' with a lower bound ('num_teams(lower: upper)', OpenMP 5.1) is not supported */
#include <omp.h>
int main(void)
{
    int teams = 0;
#pragma omp target teams num_teams(2 : 8) map(tofrom: teams)
    teams = omp_get_num_teams();
    return teams < 2;
}
