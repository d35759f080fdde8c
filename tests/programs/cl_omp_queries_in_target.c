/* omp_get_team_num, omp_get_num_teams, omp_in_parallel, omp_get_level,
   omp_get_thread_num and omp_get_num_threads in the sequential and parallel parts of
   target regions, checked for consistency. */
#include <stdio.h>
#include <omp.h>
#define TEAMS 3
int main(void) {
  int bad = 0, team_seen[TEAMS] = {0};
  #pragma omp target map(tofrom: bad)
  {
    if (omp_in_parallel() || omp_get_level() != 0 || omp_get_thread_num() != 0 || omp_get_num_threads() != 1)
      bad += 1;
    #pragma omp parallel
    {
      int n = omp_get_num_threads(), id = omp_get_thread_num();
      if (omp_get_level() != 1 || id < 0 || id >= n || (n > 1) != (omp_in_parallel() != 0)) {
        #pragma omp atomic
        bad += 1;
      }
    }
    if (omp_get_level() != 0 || omp_get_num_threads() != 1) bad += 1;
  }
  #pragma omp target teams num_teams(TEAMS) thread_limit(16) map(tofrom: bad, team_seen)
  {
    int team = omp_get_team_num(), teams = omp_get_num_teams();
    if (team >= 0 && team < teams && teams <= TEAMS) team_seen[team] = 1;
    #pragma omp parallel
    {
      if (omp_get_team_num() != team || omp_get_num_teams() != teams || omp_get_level() != 1) {
        #pragma omp atomic
        bad += 1;
      }
    }
  }
  int teams_seen = 0;
  for (int t = 0; t < TEAMS; t++) teams_seen += team_seen[t];
  printf("bad %d first team seen %d\n", bad, team_seen[0]);
  return teams_seen < 1;
}
