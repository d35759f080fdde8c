/* expect: 8:36: error: 'num_teams' lower bound 16 is greater than its upper bound 8 */
#include <omp.h>
#define MOST_TEAMS 8
int main(void)
{
    int teams = 0;
    /* OpenMP 5.1: lower <= upper; gcc warns and runs the lower bound's teams */
#pragma omp target teams num_teams(2 * MOST_TEAMS : MOST_TEAMS) map(tofrom: teams)
    teams = omp_get_num_teams();
    return teams < 2;
}
