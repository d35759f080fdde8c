/* expect: 7:36: error: 'num_teams' needs an integer expression */
#include <omp.h>
int main(void)
{
    int teams = 0;
    double fewest = 2.0;
#pragma omp target teams num_teams(fewest : 8) map(tofrom: teams)
    teams = omp_get_num_teams();
    return teams < 2;
}
